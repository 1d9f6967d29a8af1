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
    case stateOfMind(StateOfMind)
    case gad7Assessment(GAD7Assessment)
    case phq9Assessment(PHQ9Assessment)
    case electrocardiogram(Electrocardiogram)
    case audiogram(AudiogramSample)
    case heartbeatSeries(HeartbeatSeriesSample)
    // Boxed: the two largest kinds, rare, that would make every sample as large, copied whole
    // wherever samples move (a vision prescription is 568 bytes inline, measured when a sample's
    // stride was 360; a CDA document 136, the largest other kind a workout's 128).
    indirect case visionPrescription(VisionPrescription)
    indirect case cdaDocument(CDADocumentSample)

    // Each property switches on the case rather than boxing the sample in an existential: the
    // store reads these per row on its hot paths.
    public var uuid: UUID {
        switch self {
        case .quantity(let sample): sample.uuid
        case .category(let sample): sample.uuid
        case .correlation(let sample): sample.uuid
        case .workout(let sample): sample.uuid
        case .workoutRoute(let sample): sample.uuid
        case .stateOfMind(let sample): sample.uuid
        case .gad7Assessment(let sample): sample.uuid
        case .phq9Assessment(let sample): sample.uuid
        case .electrocardiogram(let sample): sample.uuid
        case .audiogram(let sample): sample.uuid
        case .heartbeatSeries(let sample): sample.uuid
        case .visionPrescription(let sample): sample.uuid
        case .cdaDocument(let sample): sample.uuid
        }
    }

    public var sampleType: SampleType {
        switch self {
        case .quantity(let sample): sample.sampleType
        case .category(let sample): sample.sampleType
        case .correlation(let sample): sample.sampleType
        case .workout(let sample): sample.sampleType
        case .workoutRoute(let sample): sample.sampleType
        case .stateOfMind(let sample): sample.sampleType
        case .gad7Assessment(let sample): sample.sampleType
        case .phq9Assessment(let sample): sample.sampleType
        case .electrocardiogram(let sample): sample.sampleType
        case .audiogram(let sample): sample.sampleType
        case .heartbeatSeries(let sample): sample.sampleType
        case .visionPrescription(let sample): sample.sampleType
        case .cdaDocument(let sample): sample.sampleType
        }
    }

    public var startDate: Date {
        switch self {
        case .quantity(let sample): sample.startDate
        case .category(let sample): sample.startDate
        case .correlation(let sample): sample.startDate
        case .workout(let sample): sample.startDate
        case .workoutRoute(let sample): sample.startDate
        case .stateOfMind(let sample): sample.startDate
        case .gad7Assessment(let sample): sample.startDate
        case .phq9Assessment(let sample): sample.startDate
        case .electrocardiogram(let sample): sample.startDate
        case .audiogram(let sample): sample.startDate
        case .heartbeatSeries(let sample): sample.startDate
        case .visionPrescription(let sample): sample.startDate
        case .cdaDocument(let sample): sample.startDate
        }
    }

    public var endDate: Date {
        switch self {
        case .quantity(let sample): sample.endDate
        case .category(let sample): sample.endDate
        case .correlation(let sample): sample.endDate
        case .workout(let sample): sample.endDate
        case .workoutRoute(let sample): sample.endDate
        case .stateOfMind(let sample): sample.endDate
        case .gad7Assessment(let sample): sample.endDate
        case .phq9Assessment(let sample): sample.endDate
        case .electrocardiogram(let sample): sample.endDate
        case .audiogram(let sample): sample.endDate
        case .heartbeatSeries(let sample): sample.endDate
        case .visionPrescription(let sample): sample.endDate
        case .cdaDocument(let sample): sample.endDate
        }
    }

    public var sourceRevision: SourceRevision {
        switch self {
        case .quantity(let sample): sample.sourceRevision
        case .category(let sample): sample.sourceRevision
        case .correlation(let sample): sample.sourceRevision
        case .workout(let sample): sample.sourceRevision
        case .workoutRoute(let sample): sample.sourceRevision
        case .stateOfMind(let sample): sample.sourceRevision
        case .gad7Assessment(let sample): sample.sourceRevision
        case .phq9Assessment(let sample): sample.sourceRevision
        case .electrocardiogram(let sample): sample.sourceRevision
        case .audiogram(let sample): sample.sourceRevision
        case .heartbeatSeries(let sample): sample.sourceRevision
        case .visionPrescription(let sample): sample.sourceRevision
        case .cdaDocument(let sample): sample.sourceRevision
        }
    }

    public var device: Device? {
        switch self {
        case .quantity(let sample): sample.device
        case .category(let sample): sample.device
        case .correlation(let sample): sample.device
        case .workout(let sample): sample.device
        case .workoutRoute(let sample): sample.device
        case .stateOfMind(let sample): sample.device
        case .gad7Assessment(let sample): sample.device
        case .phq9Assessment(let sample): sample.device
        case .electrocardiogram(let sample): sample.device
        case .audiogram(let sample): sample.device
        case .heartbeatSeries(let sample): sample.device
        case .visionPrescription(let sample): sample.device
        case .cdaDocument(let sample): sample.device
        }
    }

    public var metadata: Metadata {
        switch self {
        case .quantity(let sample): sample.metadata
        case .category(let sample): sample.metadata
        case .correlation(let sample): sample.metadata
        case .workout(let sample): sample.metadata
        case .workoutRoute(let sample): sample.metadata
        case .stateOfMind(let sample): sample.metadata
        case .gad7Assessment(let sample): sample.metadata
        case .phq9Assessment(let sample): sample.metadata
        case .electrocardiogram(let sample): sample.metadata
        case .audiogram(let sample): sample.metadata
        case .heartbeatSeries(let sample): sample.metadata
        case .visionPrescription(let sample): sample.metadata
        case .cdaDocument(let sample): sample.metadata
        }
    }

    public func attributed(to sourceRevision: SourceRevision) -> Sample {
        switch self {
        case .quantity(let sample): .quantity(sample.attributed(to: sourceRevision))
        case .category(let sample): .category(sample.attributed(to: sourceRevision))
        case .correlation(let sample): .correlation(sample.attributed(to: sourceRevision))
        case .workout(let sample): .workout(sample.attributed(to: sourceRevision))
        case .workoutRoute(let sample): .workoutRoute(sample.attributed(to: sourceRevision))
        case .stateOfMind(let sample): .stateOfMind(sample.attributed(to: sourceRevision))
        case .gad7Assessment(let sample): .gad7Assessment(sample.attributed(to: sourceRevision))
        case .phq9Assessment(let sample): .phq9Assessment(sample.attributed(to: sourceRevision))
        case .electrocardiogram(let sample): .electrocardiogram(sample.attributed(to: sourceRevision))
        case .audiogram(let sample): .audiogram(sample.attributed(to: sourceRevision))
        case .heartbeatSeries(let sample): .heartbeatSeries(sample.attributed(to: sourceRevision))
        case .visionPrescription(let sample): .visionPrescription(sample.attributed(to: sourceRevision))
        case .cdaDocument(let sample): .cdaDocument(sample.attributed(to: sourceRevision))
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
        case .stateOfMind: self = .stateOfMind(try StateOfMind(from: decoder))
        case .scoredAssessment(.gad7): self = .gad7Assessment(try GAD7Assessment(from: decoder))
        case .scoredAssessment(.phq9): self = .phq9Assessment(try PHQ9Assessment(from: decoder))
        case .electrocardiogram: self = .electrocardiogram(try Electrocardiogram(from: decoder))
        case .audiogram: self = .audiogram(try AudiogramSample(from: decoder))
        case .heartbeatSeries: self = .heartbeatSeries(try HeartbeatSeriesSample(from: decoder))
        case .visionPrescription: self = .visionPrescription(try VisionPrescription(from: decoder))
        case .document(.cda): self = .cdaDocument(try CDADocumentSample(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .quantity(let sample): try sample.encode(to: encoder)
        case .category(let sample): try sample.encode(to: encoder)
        case .correlation(let sample): try sample.encode(to: encoder)
        case .workout(let sample): try sample.encode(to: encoder)
        case .workoutRoute(let sample): try sample.encode(to: encoder)
        case .stateOfMind(let sample): try sample.encode(to: encoder)
        case .gad7Assessment(let sample): try sample.encode(to: encoder)
        case .phq9Assessment(let sample): try sample.encode(to: encoder)
        case .electrocardiogram(let sample): try sample.encode(to: encoder)
        case .audiogram(let sample): try sample.encode(to: encoder)
        case .heartbeatSeries(let sample): try sample.encode(to: encoder)
        case .visionPrescription(let sample): try sample.encode(to: encoder)
        case .cdaDocument(let sample): try sample.encode(to: encoder)
        }
    }
}
