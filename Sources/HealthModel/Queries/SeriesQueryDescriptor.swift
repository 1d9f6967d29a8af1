public import Foundation

/// One batch of a series' points (an electrocardiogram's voltage measurements, a heartbeat
/// series' beats): the points from a position in the series, and where the next batch starts.
public struct SeriesBatch<Point: Hashable & Sendable>: Hashable, Sendable {
    /// The points, in time order.
    public var points: [Point]
    /// The position of the first point after these, when the series has more; nil when this
    /// batch reaches its end.
    public var next: Int?

    public init(points: [Point], next: Int?) {
        self.points = points
        self.next = next
    }
}

/// A query of one electrocardiogram's voltage measurements, in batches (HealthKit's
/// `HKElectrocardiogramQueryDescriptor` and `HKElectrocardiogramQuery`).
///
/// An electrocardiogram the caller may not see (another app's, without the read grant) is
/// answered as one that does not exist.
public struct ElectrocardiogramQueryDescriptor: Hashable, Sendable {
    /// The electrocardiogram's UUID.
    public var uuid: UUID

    /// The most measurements one batch holds.
    public static let maximumBatchSize = 10_000

    /// A query of `electrocardiogram`'s measurements.
    public init(_ electrocardiogram: Electrocardiogram) {
        self.uuid = electrocardiogram.uuid
    }

    /// A query of the measurements of the electrocardiogram with this UUID.
    public init(uuid: UUID) {
        self.uuid = uuid
    }
}

/// A query of one heartbeat series' beats, in batches (HealthKit's
/// `HKHeartbeatSeriesQueryDescriptor` and `HKHeartbeatSeriesQuery`).
///
/// A series the caller may not see is answered as one that does not exist.
public struct HeartbeatSeriesQueryDescriptor: Hashable, Sendable {
    /// HealthKit's `HKHeartbeatSeriesQueryDescriptor.Heartbeat`.
    public typealias Heartbeat = HeartbeatSeriesSample.Heartbeat

    /// The series' UUID.
    public var uuid: UUID

    /// The most beats one batch holds: a whole series.
    public static let maximumBatchSize = HeartbeatSeriesSample.maximumCount

    /// A query of `series`' beats.
    public init(_ series: HeartbeatSeriesSample) {
        self.uuid = series.uuid
    }

    /// A query of the beats of the series with this UUID.
    public init(uuid: UUID) {
        self.uuid = uuid
    }
}

extension SeriesBatch {
    /// Checks a batch request: `offset` at least 0, `limit` from 0 (as many as a batch holds) to
    /// `maximum`.
    public static func validate(offset: Int, limit: Int, maximum: Int) throws(HealthError) {
        guard offset >= 0 else {
            throw .invalidArgument("the offset is the position of a point in the series, at least 0", field: "offset")
        }
        guard (0...maximum).contains(limit) else {
            throw .invalidArgument(
                "a batch holds at most \(maximum) points (0: as many as it holds)",
                field: "limit"
            )
        }
    }
}
