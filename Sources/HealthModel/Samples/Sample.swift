public import Foundation

/// Any sample: what queries return and what apps save.
///
/// JSON: the sample's own form; its `type` field (a HealthKit identifier) says which kind it is.
public enum Sample: HealthSample {
    case quantity(QuantitySample)
    case category(CategorySample)
    case correlation(Correlation)
    case workout(Workout)
    case workoutRoute(WorkoutRoute)

    // Each property switches on the case rather than boxing the sample in an existential: the
    // store reads these per row on its hot paths.
    public var uuid: UUID {
        switch self {
        case .quantity(let sample): sample.uuid
        case .category(let sample): sample.uuid
        case .correlation(let sample): sample.uuid
        case .workout(let sample): sample.uuid
        case .workoutRoute(let sample): sample.uuid
        }
    }

    public var sampleType: SampleType {
        switch self {
        case .quantity(let sample): sample.sampleType
        case .category(let sample): sample.sampleType
        case .correlation(let sample): sample.sampleType
        case .workout(let sample): sample.sampleType
        case .workoutRoute(let sample): sample.sampleType
        }
    }

    public var startDate: Date {
        switch self {
        case .quantity(let sample): sample.startDate
        case .category(let sample): sample.startDate
        case .correlation(let sample): sample.startDate
        case .workout(let sample): sample.startDate
        case .workoutRoute(let sample): sample.startDate
        }
    }

    public var endDate: Date {
        switch self {
        case .quantity(let sample): sample.endDate
        case .category(let sample): sample.endDate
        case .correlation(let sample): sample.endDate
        case .workout(let sample): sample.endDate
        case .workoutRoute(let sample): sample.endDate
        }
    }

    public var sourceRevision: SourceRevision {
        switch self {
        case .quantity(let sample): sample.sourceRevision
        case .category(let sample): sample.sourceRevision
        case .correlation(let sample): sample.sourceRevision
        case .workout(let sample): sample.sourceRevision
        case .workoutRoute(let sample): sample.sourceRevision
        }
    }

    public var device: Device? {
        switch self {
        case .quantity(let sample): sample.device
        case .category(let sample): sample.device
        case .correlation(let sample): sample.device
        case .workout(let sample): sample.device
        case .workoutRoute(let sample): sample.device
        }
    }

    public var metadata: Metadata {
        switch self {
        case .quantity(let sample): sample.metadata
        case .category(let sample): sample.metadata
        case .correlation(let sample): sample.metadata
        case .workout(let sample): sample.metadata
        case .workoutRoute(let sample): sample.metadata
        }
    }

    public func attributed(to sourceRevision: SourceRevision) -> Sample {
        switch self {
        case .quantity(let sample): .quantity(sample.attributed(to: sourceRevision))
        case .category(let sample): .category(sample.attributed(to: sourceRevision))
        case .correlation(let sample): .correlation(sample.attributed(to: sourceRevision))
        case .workout(let sample): .workout(sample.attributed(to: sourceRevision))
        case .workoutRoute(let sample): .workoutRoute(sample.attributed(to: sourceRevision))
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SampleCodingKeys.self)
        switch try container.decode(SampleType.self, forKey: .type) {
        case .quantity: self = .quantity(try QuantitySample(from: decoder))
        case .category: self = .category(try CategorySample(from: decoder))
        case .correlation: self = .correlation(try Correlation(from: decoder))
        case .workout: self = .workout(try Workout(from: decoder))
        case .workoutRoute: self = .workoutRoute(try WorkoutRoute(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .quantity(let sample): try sample.encode(to: encoder)
        case .category(let sample): try sample.encode(to: encoder)
        case .correlation(let sample): try sample.encode(to: encoder)
        case .workout(let sample): try sample.encode(to: encoder)
        case .workoutRoute(let sample): try sample.encode(to: encoder)
        }
    }
}
