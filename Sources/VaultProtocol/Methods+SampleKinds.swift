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
    associatedtype Point
    /// The batch's points (nil: no such series the caller may see).
    var batch: [Point]? { get set }
    /// The offset to ask from next; nil when the batch reaches the end.
    var next: Int? { get set }
    /// The position of the batch's first point.
    var offset: Int { get }
}

extension BatchedResult {
    /// The first half of the points, with `next` after them; nil when there is no smaller batch
    /// (one point or none).
    public func halved() -> (any BatchedResult)? {
        guard let points = batch, points.count > 1 else { return nil }
        var half = self
        half.batch = Array(points.prefix(points.count / 2))
        half.next = offset + points.count / 2
        return half
    }
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

    public var batch: [Electrocardiogram.VoltageMeasurement]? {
        get { voltageMeasurements }
        set { voltageMeasurements = newValue }
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

    public var batch: [HeartbeatSeriesSample.Heartbeat]? {
        get { heartbeats }
        set { heartbeats = newValue }
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

// MARK: Quantity series

/// The quantity series methods (docs/PROTOCOL.md, "The quantity series builder and query").
extension Method {
    public static let queryQuantitySeries = "query.quantitySeries"  // owner too
    public static let quantitySeriesBuilderBegin = "quantitySeriesBuilder.begin"
    public static let quantitySeriesBuilderInsert = "quantitySeriesBuilder.insert"
    public static let quantitySeriesBuilderFinish = "quantitySeriesBuilder.finish"
    public static let quantitySeriesBuilderDiscard = "quantitySeriesBuilder.discard"
}

/// `query.quantitySeries`: one batch of the quantities of the `quantityType` sample with the
/// UUID, from `offset` (0 when absent), at most `limit` (0 or absent: as many as a batch holds).
public struct QuantitySeriesQueryParams: Hashable, Sendable, Codable {
    public var quantityType: QuantityTypeIdentifier
    public var uuid: UUID
    public var offset: Int?
    public var limit: Int?

    public init(quantityType: QuantityTypeIdentifier, uuid: UUID, offset: Int? = nil, limit: Int? = nil) {
        self.quantityType = quantityType
        self.uuid = uuid
        self.offset = offset
        self.limit = limit
    }
}

/// One batch of a quantity sample's quantities, or `{}` when the caller sees no such sample.
public struct SeriesQuantitiesResult: BatchedResult, Decodable, Hashable {
    /// Absent when there is no such sample the caller may see.
    public var quantities: [QuantitySample.SeriesQuantity]?
    /// The offset to ask from for the next batch; absent when this batch reaches the end.
    public var next: Int?
    /// The position of the first quantity, not sent.
    public var offset: Int

    public init(_ batch: SeriesBatch<QuantitySample.SeriesQuantity>?, offset: Int) {
        self.quantities = batch?.points
        self.next = batch?.next
        self.offset = offset
    }

    public var batch: [QuantitySample.SeriesQuantity]? {
        get { quantities }
        set { quantities = newValue }
    }

    private enum CodingKeys: String, CodingKey {
        case quantities, next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        quantities = try container.decodeIfPresent([QuantitySample.SeriesQuantity].self, forKey: .quantities)
        next = try container.decodeIfPresent(Int.self, forKey: .next)
        offset = 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(quantities, forKey: .quantities)
        try container.encodeIfPresent(next, forKey: .next)
    }
}

public struct QuantitySeriesBeginParams: Hashable, Sendable, Codable {
    public var quantityType: QuantityTypeIdentifier
    public var startDate: Date
    public var device: Device?

    public init(quantityType: QuantityTypeIdentifier, startDate: Date, device: Device?) {
        self.quantityType = quantityType
        self.startDate = startDate
        self.device = device
    }
}

public struct QuantitySeriesInsertParams: Hashable, Sendable, Codable {
    public var builder: UUID
    public var quantities: [QuantitySample.SeriesQuantity]

    public init(builder: UUID, quantities: [QuantitySample.SeriesQuantity]) {
        self.builder = builder
        self.quantities = quantities
    }
}

public struct QuantitySeriesFinishParams: Hashable, Sendable, Codable {
    public var builder: UUID
    public var metadata: Metadata?
    public var endDate: Date?

    public init(builder: UUID, metadata: Metadata? = nil, endDate: Date? = nil) {
        self.builder = builder
        self.metadata = metadata
        self.endDate = endDate
    }
}

public struct QuantitySeriesFinishResult: Hashable, Sendable, Codable {
    /// The saved samples (one), as a query answers them.
    public var samples: [QuantitySample]

    public init(samples: [QuantitySample]) {
        self.samples = samples
    }
}
