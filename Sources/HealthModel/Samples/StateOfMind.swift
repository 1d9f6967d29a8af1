public import Foundation

/// How one feels at a moment, or felt over a day, as HealthKit's `HKStateOfMind`: a kind, a
/// valence from -1 (very unpleasant) to 1 (very pleasant), the labels chosen to describe it and
/// the parts of life it is associated with.
///
/// An instant sample: it starts and ends at its ``date``. Its ``valenceClassification`` is derived
/// from the valence, as HealthKit derives it.
public struct StateOfMind: HealthSample {
    public let uuid: UUID
    public let kind: Kind
    /// From -1 (very unpleasant) to 1 (very pleasant).
    public let valence: Double
    /// Zero or more words describing the feeling, each once, in the order given.
    public let labels: [Label]
    /// Zero or more parts of life the feeling is associated with, each once, in the order given.
    public let associations: [Association]
    public let startDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// The range of ``valence``.
    public static let valenceRange: ClosedRange<Double> = -1...1

    /// Creates a state of mind at `date`, or throws `invalidArgument`: a valence that is not a
    /// finite number from -1 to 1, a label or association listed twice, bad metadata, or a date
    /// outside the years 0000-9999.
    public init(
        uuid: UUID = .forNewObject(),
        date: Date,
        kind: Kind,
        valence: Double,
        labels: [Label] = [],
        associations: [Association] = [],
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: date, endDate: date, sourceRevision: sourceRevision, metadata: metadata)
        guard valence.isFinite, Self.valenceRange.contains(valence) else {
            throw .invalidArgument("the valence must be a number from -1 to 1", field: "valence")
        }
        _ = try HealthError.cases(labels.map(\.rawValue), of: Label.self, field: "labels")
        _ = try HealthError.cases(associations.map(\.rawValue), of: Association.self, field: "associations")
        self.uuid = uuid
        self.kind = kind
        self.valence = valence
        self.labels = labels
        self.associations = associations
        self.startDate = date
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    /// When the feeling was logged.
    public var date: Date { startDate }
    public var endDate: Date { startDate }

    /// The general region of pleasantness the valence falls in (HealthKit's
    /// `valenceClassification`).
    public var valenceClassification: ValenceClassification {
        ValenceClassification(valence: valence) ?? .neutral
    }

    public var sampleType: SampleType { .stateOfMind }

    public func attributed(to sourceRevision: SourceRevision) -> StateOfMind {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    private enum CodingKeys: String, CodingKey {
        case kind, valence, valenceClassification, labels, associations
    }

    public init(from decoder: any Decoder) throws {
        let common = try decoder.container(keyedBy: SampleCodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try common.decode(SampleType.self, forKey: .type) == .stateOfMind else {
            throw HealthError.invalidArgument("expected \(ObjectType.stateOfMindTypeIdentifier)")
                .field(at: decoder.codingPath + [SampleCodingKeys.type])
        }
        let (uuid, start, end, source, device, metadata) = try common.decodeCommon()
        let kind = try container.decode(Kind.self, forKey: .kind)
        let valence = try container.decode(Double.self, forKey: .valence)
        let classification = try container.decodeIfPresent(Int.self, forKey: .valenceClassification)
        let labels = try container.decodeIfPresent([Int].self, forKey: .labels) ?? []
        let associations = try container.decodeIfPresent([Int].self, forKey: .associations) ?? []
        self = try validating(decoder) { () throws(HealthError) in
            try HealthError.checkInstant(start: start, end: end, kind: "a state of mind")
            let state = try StateOfMind(
                uuid: uuid,
                date: start,
                kind: kind,
                valence: valence,
                labels: try HealthError.cases(labels, of: Label.self, field: "labels"),
                associations: try HealthError.cases(associations, of: Association.self, field: "associations"),
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
            // Derived from the valence; when sent, it must say the same.
            if let classification, classification != state.valenceClassification.rawValue {
                throw .invalidArgument(
                    "the valence classification is derived from the valence and does not match it",
                    field: "valenceClassification"
                )
            }
            return state
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var common = encoder.container(keyedBy: SampleCodingKeys.self)
        try common.encodeCommon(self)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(valence, forKey: .valence)
        try container.encode(valenceClassification, forKey: .valenceClassification)
        try container.encode(labels, forKey: .labels)
        try container.encode(associations, forKey: .associations)
    }
}

extension StateOfMind {
    /// The kind of feeling logged, by the time it concerns (`HKStateOfMind.Kind`).
    public enum Kind: Int, HealthKitEnumeration {
        /// How one feels right now.
        case momentaryEmotion = 1
        /// How one has felt over the day.
        case dailyMood = 2

        public static let healthKitName = "HKStateOfMindKind"
        public var healthKitConstant: String { constantFromCaseName }
    }

    /// A general region of pleasantness (`HKStateOfMind.ValenceClassification`).
    public enum ValenceClassification: Int, HealthKitEnumeration {
        case veryUnpleasant = 1
        case unpleasant = 2
        case slightlyUnpleasant = 3
        case neutral = 4
        case slightlyPleasant = 5
        case pleasant = 6
        case veryPleasant = 7

        public static let healthKitName = "HKStateOfMindValenceClassification"
        public var healthKitConstant: String { constantFromCaseName }

        /// The classification of a valence, or nil when it is not a number from -1 to 1
        /// (HealthKit's `HKStateOfMind.ValenceClassification(valence:)`).
        ///
        /// Seven equal bands of width 2/7 from -1: the three unpleasant ones end below their upper
        /// bound, `neutral` holds both its bounds (-1/7 and 1/7), and the three pleasant ones
        /// hold their upper bound. Each bound is computed as `Double(i) * (2.0 / 7.0) - 1.0`,
        /// i = 1...6, as HealthKit's `HKStateOfMindValenceClassificationForValence` does.
        public init?(valence: Double) {
            guard valence.isFinite, StateOfMind.valenceRange.contains(valence) else { return nil }
            func bound(_ index: Int) -> Double { Double(index) * (2.0 / 7.0) - 1.0 }
            if valence < bound(1) {
                self = .veryUnpleasant
            } else if valence < bound(2) {
                self = .unpleasant
            } else if valence < bound(3) {
                self = .slightlyUnpleasant
            } else if valence <= bound(4) {
                self = .neutral
            } else if valence <= bound(5) {
                self = .slightlyPleasant
            } else if valence <= bound(6) {
                self = .pleasant
            } else {
                self = .veryPleasant
            }
        }
    }

    /// A word describing a felt experience (`HKStateOfMind.Label`).
    public enum Label: Int, HealthKitEnumeration {
        case amazed = 1
        case amused = 2
        case angry = 3
        case anxious = 4
        case ashamed = 5
        case brave = 6
        case calm = 7
        case content = 8
        case disappointed = 9
        case discouraged = 10
        case disgusted = 11
        case embarrassed = 12
        case excited = 13
        case frustrated = 14
        case grateful = 15
        case guilty = 16
        case happy = 17
        case hopeless = 18
        case irritated = 19
        case jealous = 20
        case joyful = 21
        case lonely = 22
        case passionate = 23
        case peaceful = 24
        case proud = 25
        case relieved = 26
        case sad = 27
        case scared = 28
        case stressed = 29
        case surprised = 30
        case worried = 31
        case annoyed = 32
        case confident = 33
        case drained = 34
        case hopeful = 35
        case indifferent = 36
        case overwhelmed = 37
        case satisfied = 38

        public static let healthKitName = "HKStateOfMindLabel"
        public var healthKitConstant: String { constantFromCaseName }
    }

    /// A part of life a felt experience may be associated with (`HKStateOfMind.Association`).
    public enum Association: Int, HealthKitEnumeration {
        case community = 1
        case currentEvents = 2
        case dating = 3
        case education = 4
        case family = 5
        case fitness = 6
        case friends = 7
        case health = 8
        case hobbies = 9
        case identity = 10
        case money = 11
        case partner = 12
        case selfCare = 13
        case spirituality = 14
        case tasks = 15
        case travel = 16
        case work = 17
        case weather = 18

        public static let healthKitName = "HKStateOfMindAssociation"
        public var healthKitConstant: String { constantFromCaseName }
    }
}
