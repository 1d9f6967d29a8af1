public import Foundation

/// A series of heartbeats, as HealthKit's `HKHeartbeatSeriesSample`: each beat's time since the
/// series' start, and whether a gap in the recording came before it (so the time since the beat
/// before is not an interval between two beats).
///
/// A query answers a series without its beats, with only their ``count``; they are read in
/// batches by a heartbeat series query (``HeartbeatSeriesQueryDescriptor``), as in HealthKit.
/// An app builds a series with a heartbeat series builder (HealthVaultKit's
/// `HeartbeatSeriesBuilder`), or saves one whole with its beats.
public struct HeartbeatSeriesSample: HealthSample {
    public let uuid: UUID
    /// How many beats the series holds (HealthKit's `HKSeriesSample.count`).
    public let count: Int
    /// The beats in time order, when this value carries them: a series to save does; one a query
    /// answered does not (nil).
    public let heartbeats: [Heartbeat]?
    public let startDate: Date
    public let endDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// The most beats one series holds (HealthKit's `HKHeartbeatSeriesBuilder.maximumCount`).
    public static let maximumCount = 1000

    /// Creates a series, or throws `invalidArgument` naming the field: no beat or more than
    /// ``maximumCount``, beats not in time order or outside the series' span, a `count` that does
    /// not count them, an end before the start, or bad metadata.
    ///
    /// - Parameters:
    ///   - heartbeats: the beats (required to save); nil for a series read back without them,
    ///     which then needs `count`.
    ///   - count: how many beats there are; nil to count `heartbeats`.
    public init(
        uuid: UUID = .forNewObject(),
        start: Date,
        end: Date,
        heartbeats: [Heartbeat]?,
        count: Int? = nil,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: start, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        let total: Int
        if let heartbeats {
            guard !heartbeats.isEmpty else {
                throw .invalidArgument("a heartbeat series needs at least one heartbeat", field: "heartbeats")
            }
            try Self.validate(heartbeats, after: nil, span: end.timeIntervalSince(start), total: heartbeats.count)
            if let count, count != heartbeats.count {
                throw .invalidArgument("count must count the heartbeats given", field: "count")
            }
            total = heartbeats.count
        } else {
            guard let count else {
                throw .invalidArgument("a heartbeat series needs its heartbeats, or their count", field: "heartbeats")
            }
            guard (1...Self.maximumCount).contains(count) else {
                throw .invalidArgument("a heartbeat series holds 1 to \(Self.maximumCount) heartbeats", field: "count")
            }
            total = count
        }
        self.uuid = uuid
        self.count = total
        self.heartbeats = heartbeats
        self.startDate = start
        self.endDate = end
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    /// Checks beats to add after `previous` (the time of the last beat already in the series, or
    /// nil): each a finite number of seconds, at least 0, later than the one before, and, with a
    /// `span`, at most the series' duration (a millisecond of slack for rounding by other
    /// systems); `total`, the beats of the series with these, at most ``maximumCount``. Fields
    /// are `heartbeats[i]…`, `i` counted in `beats`.
    public static func validate(
        _ beats: [Heartbeat],
        after previous: TimeInterval?,
        span: TimeInterval?,
        total: Int
    ) throws(HealthError) {
        guard total <= maximumCount else {
            throw .invalidArgument("a heartbeat series holds at most \(maximumCount) heartbeats", field: "heartbeats")
        }
        var previous = previous ?? -Double.infinity
        for (index, beat) in beats.enumerated() {
            let time = beat.timeSinceSeriesStart
            let field = "heartbeats[\(index)].timeSinceSeriesStart"
            guard time.isFinite, time >= 0 else {
                throw .invalidArgument(
                    "a heartbeat's timeSinceSeriesStart is a number of seconds, at least 0",
                    field: field
                )
            }
            if let span, time > span + 0.001 {
                throw .invalidArgument("a heartbeat lies after the end of its series", field: field)
            }
            guard time > previous else {
                throw .invalidArgument("heartbeats must be in time order, each later than the one before", field: field)
            }
            previous = time
        }
    }

    /// Checks metadata a heartbeat series would carry (a builder's, before its finish), as a
    /// sample's is checked, naming the key.
    public static func validate(metadata: Metadata) throws(HealthError) {
        try metadata.validate()
    }

    /// The most a builder's metadata holds, as JSON, as a live workout's builder's: the builder
    /// keeps it in the daemon's memory between the app's calls, each of which may add more.
    public static let maximumBuilderMetadataBytes = WorkoutBuilderSnapshot.maximumMetadataBytes

    public var sampleType: SampleType { .heartbeatSeries }

    /// The series as a query answers it: without its beats.
    public var withoutHeartbeats: HeartbeatSeriesSample { HeartbeatSeriesSample(copying: self) }

    private init(copying other: HeartbeatSeriesSample) {
        uuid = other.uuid
        count = other.count
        heartbeats = nil
        startDate = other.startDate
        endDate = other.endDate
        sourceRevision = other.sourceRevision
        device = other.device
        metadata = other.metadata
    }

    public func attributed(to sourceRevision: SourceRevision) -> HeartbeatSeriesSample {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    private enum CodingKeys: String, CodingKey {
        case count, heartbeats
    }

    public init(from decoder: any Decoder) throws {
        let common = try decoder.container(keyedBy: SampleCodingKeys.self)
        guard try common.decode(SampleType.self, forKey: .type) == .heartbeatSeries else {
            throw HealthError.invalidArgument("expected \(ObjectType.heartbeatSeriesTypeIdentifier)")
                .field(at: decoder.codingPath + [SampleCodingKeys.type])
        }
        let (uuid, start, end, source, device, metadata) = try common.decodeCommon()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let count = try container.decodeIfPresent(Int.self, forKey: .count)
        let heartbeats = try container.decodeIfPresent([Heartbeat].self, forKey: .heartbeats)
        self = try validating(decoder) { () throws(HealthError) in
            try HeartbeatSeriesSample(
                uuid: uuid,
                start: start,
                end: end,
                heartbeats: heartbeats,
                count: count,
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
        try container.encode(count, forKey: .count)
        try container.encodeIfPresent(heartbeats, forKey: .heartbeats)
    }
}

extension HeartbeatSeriesSample {
    /// One beat of a series (HealthKit's `HKHeartbeatSeriesQueryDescriptor.Heartbeat`).
    ///
    /// JSON: `{"timeSinceSeriesStart": 0.853, "precededByGap": false}` (`precededByGap` a JSON
    /// boolean, false when absent on input).
    public struct Heartbeat: Hashable, Sendable, Codable {
        /// Seconds since the series' start.
        public let timeSinceSeriesStart: TimeInterval
        /// Whether the recording had a gap before this beat: one or more beats may be missing.
        public let precededByGap: Bool

        public init(timeSinceSeriesStart: TimeInterval, precededByGap: Bool = false) {
            self.timeSinceSeriesStart = timeSinceSeriesStart
            self.precededByGap = precededByGap
        }

        private enum CodingKeys: String, CodingKey {
            case timeSinceSeriesStart, precededByGap
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            timeSinceSeriesStart = try container.decode(TimeInterval.self, forKey: .timeSinceSeriesStart)
            precededByGap = try container.decodeIfPresent(Bool.self, forKey: .precededByGap) ?? false
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(precededByGap, forKey: .precededByGap)
            try container.encode(timeSinceSeriesStart, forKey: .timeSinceSeriesStart)
        }
    }
}
