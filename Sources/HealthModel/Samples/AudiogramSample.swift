public import Foundation

/// The result of a hearing test, as HealthKit's `HKAudiogramSample`: the hearing sensitivity of
/// each ear at each tested frequency.
public struct AudiogramSample: HealthSample {
    public let uuid: UUID
    /// 1 to 30 points, by ascending frequency, each frequency once.
    public let sensitivityPoints: [SensitivityPoint]
    public let startDate: Date
    public let endDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// The most points one audiogram holds (HealthKit's limit).
    public static let maximumSensitivityPoints = 30

    /// Creates an audiogram, or throws `invalidArgument` naming the field: no points or more
    /// than 30, frequencies not strictly ascending, a point out of range or with neither ear, an
    /// end before the start, or bad metadata.
    public init(
        uuid: UUID = .forNewObject(),
        sensitivityPoints: [SensitivityPoint],
        start: Date,
        end: Date,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: start, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        guard (1...Self.maximumSensitivityPoints).contains(sensitivityPoints.count) else {
            throw .invalidArgument(
                "an audiogram has 1 to \(Self.maximumSensitivityPoints) sensitivity points",
                field: "sensitivityPoints"
            )
        }
        var previous = -Double.infinity
        for (index, point) in sensitivityPoints.enumerated() {
            let field = "sensitivityPoints[\(index)]"
            do {
                try point.validate()
            } catch {
                throw error.nested(in: field)
            }
            // Valid points convert to hertz.
            let hertz = (try? point.frequency.doubleValue(for: .hertz)) ?? .nan
            guard hertz > previous else {
                throw .invalidArgument(
                    "sensitivity points are ordered by ascending frequency, each frequency once",
                    field: field + ".frequency"
                )
            }
            previous = hertz
        }
        self.uuid = uuid
        self.sensitivityPoints = sensitivityPoints
        self.startDate = start
        self.endDate = end
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    public var sampleType: SampleType { .audiogram }

    public func attributed(to sourceRevision: SourceRevision) -> AudiogramSample {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    private enum CodingKeys: String, CodingKey {
        case sensitivityPoints
    }

    public init(from decoder: any Decoder) throws {
        let common = try decoder.container(keyedBy: SampleCodingKeys.self)
        guard try common.decode(SampleType.self, forKey: .type) == .audiogram else {
            throw HealthError.invalidArgument("expected \(ObjectType.audiogramTypeIdentifier)")
                .field(at: decoder.codingPath + [SampleCodingKeys.type])
        }
        let (uuid, start, end, source, device, metadata) = try common.decodeCommon()
        let points = try decoder.container(keyedBy: CodingKeys.self)
            .decode([SensitivityPoint].self, forKey: .sensitivityPoints)
        self = try validating(decoder) { () throws(HealthError) in
            try AudiogramSample(
                uuid: uuid,
                sensitivityPoints: points,
                start: start,
                end: end,
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var common = encoder.container(keyedBy: SampleCodingKeys.self)
        try common.encodeCommon(self)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sensitivityPoints, forKey: .sensitivityPoints)
    }
}

extension AudiogramSample {
    /// The hearing sensitivity of each ear at one frequency (`HKAudiogramSensitivityPoint`).
    ///
    /// JSON: `{"frequency": {"unit": "Hz", "value": 1000}, "leftEarSensitivity": {"unit": "dBHL",
    /// "value": 20}, "rightEarSensitivity": {"unit": "dBHL", "value": 25}}`, either ear absent
    /// when it was not tested.
    public struct SensitivityPoint: Hashable, Sendable, Codable {
        /// The tested frequency, in a unit compatible with `Hz`.
        public let frequency: Quantity
        /// The left ear's hearing level in `dBHL` (0 is the baseline; more is less sensitive).
        public let leftEarSensitivity: Quantity?
        /// The right ear's hearing level in `dBHL`.
        public let rightEarSensitivity: Quantity?

        /// The frequency range, in `Hz` (HealthKit's).
        public static let frequencyRange: ClosedRange<Double> = 0...30_000
        /// The sensitivity range, in `dBHL` (HealthKit's).
        public static let sensitivityRange: ClosedRange<Double> = -20...160

        /// A point; ``AudiogramSample`` checks it (HealthKit's
        /// `sensitivityPointWithFrequency:leftEarSensitivity:rightEarSensitivity:error:`).
        public init(frequency: Quantity, leftEarSensitivity: Quantity?, rightEarSensitivity: Quantity?) {
            self.frequency = frequency
            self.leftEarSensitivity = leftEarSensitivity
            self.rightEarSensitivity = rightEarSensitivity
        }

        /// Checks the point: a frequency from 0 to 30,000 Hz, each sensitivity given in `dBHL`
        /// from -20 to 160, and at least one of them.
        public func validate() throws(HealthError) {
            try HealthError.check(frequency, compatibleWith: .hertz, in: Self.frequencyRange, field: "frequency")
            guard leftEarSensitivity != nil || rightEarSensitivity != nil else {
                throw .invalidArgument(
                    "a sensitivity point needs the left or the right ear's sensitivity, or both",
                    field: "leftEarSensitivity"
                )
            }
            for (sensitivity, field) in [
                (leftEarSensitivity, "leftEarSensitivity"), (rightEarSensitivity, "rightEarSensitivity"),
            ] {
                guard let sensitivity else { continue }
                try HealthError.check(
                    sensitivity,
                    compatibleWith: .decibelHearingLevel,
                    in: Self.sensitivityRange,
                    field: field
                )
            }
        }
    }
}
