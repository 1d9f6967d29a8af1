public import Foundation

/// Any sample: what queries return and what apps save.
///
/// JSON: the sample's own form; its `type` field (a HealthKit identifier) says which kind it is.
public enum Sample: HealthSample {
    case quantity(QuantitySample)
    case category(CategorySample)
    case correlation(Correlation)
    case workout(Workout)

    private var base: any HealthSample {
        switch self {
        case .quantity(let sample): sample
        case .category(let sample): sample
        case .correlation(let sample): sample
        case .workout(let sample): sample
        }
    }

    public var uuid: UUID { base.uuid }
    public var sampleType: SampleType { base.sampleType }
    public var startDate: Date { base.startDate }
    public var endDate: Date { base.endDate }
    public var sourceRevision: SourceRevision { base.sourceRevision }
    public var device: Device? { base.device }
    public var metadata: Metadata { base.metadata }

    public func attributed(to sourceRevision: SourceRevision) -> Sample {
        switch self {
        case .quantity(let sample): .quantity(sample.attributed(to: sourceRevision))
        case .category(let sample): .category(sample.attributed(to: sourceRevision))
        case .correlation(let sample): .correlation(sample.attributed(to: sourceRevision))
        case .workout(let sample): .workout(sample.attributed(to: sourceRevision))
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SampleCodingKeys.self)
        switch try container.decode(SampleType.self, forKey: .type) {
        case .quantity: self = .quantity(try QuantitySample(from: decoder))
        case .category: self = .category(try CategorySample(from: decoder))
        case .correlation: self = .correlation(try Correlation(from: decoder))
        case .workout: self = .workout(try Workout(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try base.encode(to: encoder)
    }
}
