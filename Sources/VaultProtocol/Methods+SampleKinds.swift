public import Foundation
public import HealthModel

/// The methods of the series (docs/PROTOCOL.md, "Series: electrocardiograms and heartbeat
/// series"): an electrocardiogram's measurements and a heartbeat series' beats read in batches,
/// and the heartbeat series builder.
extension Method {
    public static let queryElectrocardiogram = "query.electrocardiogram"  // owner too
    public static let queryHeartbeatSeries = "query.heartbeatSeries"  // owner too
    public static let heartbeatSeriesBuilderBegin = "heartbeatSeriesBuilder.begin"
    public static let heartbeatSeriesBuilderAdd = "heartbeatSeriesBuilder.add"
    public static let heartbeatSeriesBuilderAddMetadata = "heartbeatSeriesBuilder.addMetadata"
    public static let heartbeatSeriesBuilderFinish = "heartbeatSeriesBuilder.finish"
    public static let heartbeatSeriesBuilderDiscard = "heartbeatSeriesBuilder.discard"
}

/// A result the daemon may send smaller, with fewer points, when it does not fit a frame: the
/// caller asks again from its `next`.
public protocol BatchedResult: Encodable, Sendable {
    /// The first half of the points, with `next` after them; nil when there is no smaller batch
    /// (one point or none).
    func halved() -> (any BatchedResult)?
}

/// `query.electrocardiogram` and `query.heartbeatSeries`: one batch of a series, from `offset`
/// (0 when absent), at most `limit` points (0 or absent: as many as a batch holds).
public struct SeriesQueryParams: Hashable, Sendable, Codable {
    public var uuid: UUID
    public var offset: Int?
    public var limit: Int?

    public init(uuid: UUID, offset: Int? = nil, limit: Int? = nil) {
        self.uuid = uuid
        self.offset = offset
        self.limit = limit
    }
}

/// One batch of an electrocardiogram's measurements, or `{}` when the caller sees no
/// electrocardiogram with the UUID.
public struct VoltageMeasurementsResult: BatchedResult, Decodable, Hashable {
    /// Absent when there is no such electrocardiogram the caller may see.
    public var voltageMeasurements: [Electrocardiogram.VoltageMeasurement]?
    /// The offset to ask from for the next batch; absent when this batch reaches the end.
    public var next: Int?
    /// The position of the first measurement, not sent: where a halved batch's `next` counts from.
    public var offset: Int

    public init(_ batch: SeriesBatch<Electrocardiogram.VoltageMeasurement>?, offset: Int) {
        self.voltageMeasurements = batch?.points
        self.next = batch?.next
        self.offset = offset
    }

    public func halved() -> (any BatchedResult)? {
        guard let points = voltageMeasurements, points.count > 1 else { return nil }
        var half = self
        half.voltageMeasurements = Array(points.prefix(points.count / 2))
        half.next = offset + points.count / 2
        return half
    }

    private enum CodingKeys: String, CodingKey {
        case voltageMeasurements, next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        voltageMeasurements = try container.decodeIfPresent(
            [Electrocardiogram.VoltageMeasurement].self,
            forKey: .voltageMeasurements
        )
        next = try container.decodeIfPresent(Int.self, forKey: .next)
        offset = 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(voltageMeasurements, forKey: .voltageMeasurements)
        try container.encodeIfPresent(next, forKey: .next)
    }
}

/// One batch of a heartbeat series' beats, or `{}` when the caller sees no series with the UUID.
public struct HeartbeatsResult: BatchedResult, Decodable, Hashable {
    /// Absent when there is no such series the caller may see.
    public var heartbeats: [HeartbeatSeriesSample.Heartbeat]?
    /// The offset to ask from for the next batch; absent when this batch reaches the end.
    public var next: Int?
    /// The position of the first beat, not sent.
    public var offset: Int

    public init(_ batch: SeriesBatch<HeartbeatSeriesSample.Heartbeat>?, offset: Int) {
        self.heartbeats = batch?.points
        self.next = batch?.next
        self.offset = offset
    }

    public func halved() -> (any BatchedResult)? {
        guard let points = heartbeats, points.count > 1 else { return nil }
        var half = self
        half.heartbeats = Array(points.prefix(points.count / 2))
        half.next = offset + points.count / 2
        return half
    }

    private enum CodingKeys: String, CodingKey {
        case heartbeats, next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        heartbeats = try container.decodeIfPresent([HeartbeatSeriesSample.Heartbeat].self, forKey: .heartbeats)
        next = try container.decodeIfPresent(Int.self, forKey: .next)
        offset = 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(heartbeats, forKey: .heartbeats)
        try container.encodeIfPresent(next, forKey: .next)
    }
}

// MARK: The heartbeat series builder

public struct HeartbeatSeriesBeginParams: Hashable, Sendable, Codable {
    public var startDate: Date
    public var device: Device?

    public init(startDate: Date, device: Device?) {
        self.startDate = startDate
        self.device = device
    }
}

public struct HeartbeatSeriesBuilderResult: Hashable, Sendable, Codable {
    /// The builder's id, for the other builder methods on this connection.
    public var builder: UUID

    public init(builder: UUID) {
        self.builder = builder
    }
}

public struct HeartbeatSeriesAddParams: Hashable, Sendable, Codable {
    public var builder: UUID
    public var heartbeats: [HeartbeatSeriesSample.Heartbeat]

    public init(builder: UUID, heartbeats: [HeartbeatSeriesSample.Heartbeat]) {
        self.builder = builder
        self.heartbeats = heartbeats
    }
}

public struct HeartbeatSeriesCountResult: Hashable, Sendable, Codable {
    /// The beats the builder holds now.
    public var count: Int

    public init(count: Int) {
        self.count = count
    }
}

public struct HeartbeatSeriesMetadataParams: Hashable, Sendable, Codable {
    public var builder: UUID
    public var metadata: Metadata

    public init(builder: UUID, metadata: Metadata) {
        self.builder = builder
        self.metadata = metadata
    }
}

public struct HeartbeatSeriesBuilderParams: Hashable, Sendable, Codable {
    public var builder: UUID

    public init(builder: UUID) {
        self.builder = builder
    }
}

public struct HeartbeatSeriesFinishResult: Hashable, Sendable, Codable {
    /// The saved series, without its beats.
    public var sample: HeartbeatSeriesSample

    public init(sample: HeartbeatSeriesSample) {
        self.sample = sample
    }
}
