/// A type of sample: what a query asks for and what a grant covers.
///
/// It reads and prints as HealthKit's identifier string, and decodes from it.
public enum SampleType: Hashable, Sendable, Codable, CustomStringConvertible {
    case quantity(QuantityTypeIdentifier)
    case category(CategoryTypeIdentifier)
    case correlation(CorrelationTypeIdentifier)
    /// HealthKit's workout type (`HKWorkoutTypeIdentifier`).
    case workout
    /// A workout's route (`HKWorkoutRouteTypeIdentifier`, HealthKit's `HKSeriesType.workoutRoute()`).
    case workoutRoute

    public static let workoutRouteTypeIdentifier = ObjectType.workoutRouteTypeIdentifier
    /// HealthKit's state of mind type (`HKSampleType.stateOfMindType()`, `"HKDataTypeStateOfMind"`).
    case stateOfMind
    /// A scored assessment type: GAD-7 or PHQ-9 (`HKScoredAssessmentType`).
    case scoredAssessment(ScoredAssessmentTypeIdentifier)
    /// HealthKit's electrocardiogram type (`HKObjectType.electrocardiogramType()`).
    case electrocardiogram
    /// HealthKit's audiogram type (`HKObjectType.audiogramSampleType()`).
    case audiogram
    /// HealthKit's heartbeat series type (`HKSeriesType.heartbeat()`).
    case heartbeatSeries
    /// HealthKit's vision prescription type (`HKObjectType.visionPrescriptionType()`), read
    /// object by object.
    case visionPrescription
    /// A document type (`HKObjectType.documentType(forIdentifier:)`): CDA documents, read object
    /// by object.
    case document(DocumentTypeIdentifier)

    /// HealthKit's identifier string.
    public var identifier: String {
        switch self {
        case .quantity(let id): id.rawValue
        case .category(let id): id.rawValue
        case .correlation(let id): id.rawValue
        case .workout: ObjectType.workoutTypeIdentifier
        case .workoutRoute: ObjectType.workoutRouteTypeIdentifier
        case .stateOfMind: ObjectType.stateOfMindTypeIdentifier
        case .scoredAssessment(let id): id.rawValue
        case .electrocardiogram: ObjectType.electrocardiogramTypeIdentifier
        case .audiogram: ObjectType.audiogramTypeIdentifier
        case .heartbeatSeries: ObjectType.heartbeatSeriesTypeIdentifier
        case .visionPrescription: ObjectType.visionPrescriptionTypeIdentifier
        case .document(let id): id.rawValue
        }
    }

    /// Whether apps read this type object by object, never by a type's read grant (HealthKit's
    /// `requestPerObjectReadAuthorization(for:predicate:)`): vision prescriptions and documents.
    public var isReadPerObject: Bool {
        switch self {
        case .visionPrescription, .document: true
        default: false
        }
    }

    public var description: String { identifier }

    /// Reads HealthKit's identifier string; throws `invalidArgument` for anything that is not a sample type.
    public init(identifier: String) throws(HealthError) {
        guard let type = try ObjectType(identifier: identifier).sampleType else {
            throw HealthError.invalidArgument("\"\(identifier)\" is not a sample type", field: "type")
        }
        self = type
    }

    /// Every sample type HealthVault stores.
    public static var allTypes: [SampleType] {
        QuantityTypeIdentifier.allCases.map(SampleType.quantity)
            + CategoryTypeIdentifier.allCases.map(SampleType.category)
            + CorrelationTypeIdentifier.allCases.map(SampleType.correlation)
            + [.workout, .workoutRoute]
            + [.stateOfMind] + ScoredAssessmentTypeIdentifier.allCases.map(SampleType.scoredAssessment)
            + [.electrocardiogram, .audiogram, .heartbeatSeries]
            + [.visionPrescription] + DocumentTypeIdentifier.allCases.map(SampleType.document)
    }

    public init(from decoder: any Decoder) throws {
        let identifier = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(identifier: identifier)
        } catch {
            throw error.field(at: decoder.codingPath)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}

/// Any type of object the vault holds: the sample types, the characteristics, and activity summaries.
///
/// Grants are per object type. It reads and prints as HealthKit's identifier string.
public enum ObjectType: Hashable, Sendable, Codable, CustomStringConvertible {
    case quantity(QuantityTypeIdentifier)
    case category(CategoryTypeIdentifier)
    case characteristic(CharacteristicTypeIdentifier)
    case correlation(CorrelationTypeIdentifier)
    case workout
    case workoutRoute
    /// HealthKit's activity summary type (`HKActivitySummaryTypeIdentifier`).
    case activitySummary
    case stateOfMind
    case scoredAssessment(ScoredAssessmentTypeIdentifier)
    case electrocardiogram
    case audiogram
    case heartbeatSeries
    case visionPrescription
    case document(DocumentTypeIdentifier)

    public static let workoutTypeIdentifier = "HKWorkoutTypeIdentifier"
    public static let workoutRouteTypeIdentifier = "HKWorkoutRouteTypeIdentifier"
    public static let activitySummaryTypeIdentifier = "HKActivitySummaryTypeIdentifier"

    /// HealthKit types HealthVault does not store yet, by identifier, with their kind. Reading one
    /// gives a clear "not supported yet" error. (None at present: documents and vision
    /// prescriptions, the last ones, are stored since schema 16.)
    public static let unsupportedIdentifiers: [String: String] = [:]

    public init(_ sampleType: SampleType) {
        switch sampleType {
        case .quantity(let id): self = .quantity(id)
        case .category(let id): self = .category(id)
        case .correlation(let id): self = .correlation(id)
        case .workout: self = .workout
        case .workoutRoute: self = .workoutRoute
        case .stateOfMind: self = .stateOfMind
        case .scoredAssessment(let id): self = .scoredAssessment(id)
        case .electrocardiogram: self = .electrocardiogram
        case .audiogram: self = .audiogram
        case .heartbeatSeries: self = .heartbeatSeries
        case .visionPrescription: self = .visionPrescription
        case .document(let id): self = .document(id)
        }
    }

    /// Reads HealthKit's identifier string; throws `invalidArgument` for an unknown or unsupported one.
    public init(identifier: String) throws(HealthError) {
        if let id = QuantityTypeIdentifier(rawValue: identifier) {
            self = .quantity(id)
        } else if let id = CategoryTypeIdentifier(rawValue: identifier) {
            self = .category(id)
        } else if let id = CharacteristicTypeIdentifier(rawValue: identifier) {
            self = .characteristic(id)
        } else if let id = CorrelationTypeIdentifier(rawValue: identifier) {
            self = .correlation(id)
        } else if identifier == Self.workoutTypeIdentifier {
            self = .workout
        } else if identifier == Self.workoutRouteTypeIdentifier {
            self = .workoutRoute
        } else if identifier == Self.activitySummaryTypeIdentifier {
            self = .activitySummary
        } else if let type = Self.sampleKind(identifier: identifier) {
            self = type
        } else if let kind = Self.unsupportedIdentifiers[identifier] {
            throw HealthError.invalidArgument(
                "\"\(identifier)\" is a HealthKit \(kind) type that HealthVault does not support yet",
                field: "type"
            )
        } else {
            throw HealthError.invalidArgument(
                "unknown type identifier \"\(identifier)\"" + Self.spellingHint(identifier),
                field: "type"
            )
        }
    }

    /// HealthKit's identifier string.
    public var identifier: String {
        switch self {
        case .quantity(let id): id.rawValue
        case .category(let id): id.rawValue
        case .characteristic(let id): id.rawValue
        case .correlation(let id): id.rawValue
        case .workout: Self.workoutTypeIdentifier
        case .workoutRoute: Self.workoutRouteTypeIdentifier
        case .activitySummary: Self.activitySummaryTypeIdentifier
        case .stateOfMind: Self.stateOfMindTypeIdentifier
        case .scoredAssessment(let id): id.rawValue
        case .electrocardiogram: Self.electrocardiogramTypeIdentifier
        case .audiogram: Self.audiogramTypeIdentifier
        case .heartbeatSeries: Self.heartbeatSeriesTypeIdentifier
        case .visionPrescription: Self.visionPrescriptionTypeIdentifier
        case .document(let id): id.rawValue
        }
    }

    public var description: String { identifier }

    /// The sample type, when this object type is one.
    public var sampleType: SampleType? {
        switch self {
        case .quantity(let id): .quantity(id)
        case .category(let id): .category(id)
        case .correlation(let id): .correlation(id)
        case .workout: .workout
        case .workoutRoute: .workoutRoute
        case .stateOfMind: .stateOfMind
        case .scoredAssessment(let id): .scoredAssessment(id)
        case .electrocardiogram: .electrocardiogram
        case .audiogram: .audiogram
        case .heartbeatSeries: .heartbeatSeries
        case .visionPrescription: .visionPrescription
        case .document(let id): .document(id)
        case .characteristic, .activitySummary: nil
        }
    }

    /// Every object type HealthVault knows.
    public static var allTypes: [ObjectType] {
        SampleType.allTypes.map(ObjectType.init)
            + CharacteristicTypeIdentifier.allCases.map(ObjectType.characteristic)
            + [.activitySummary]
    }

    public init(from decoder: any Decoder) throws {
        let identifier = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(identifier: identifier)
        } catch {
            throw error.field(at: decoder.codingPath)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
