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

/// A query of the quantities of a quantity type's samples, each with its date interval
/// (HealthKit's `HKQuantitySeriesSampleQueryDescriptor` and `HKQuantitySeriesSampleQuery`): every
/// quantity of each series sample the predicate matches, and the single quantity of each sample
/// that is not a series, over the sample's span.
///
/// By default the quantities come in ascending order of their start dates across all samples;
/// with ``Options/orderByQuantitySampleStartDate`` sample after sample (by start date), each
/// sample's quantities in order. A sample the caller may not see is not in the answer.
public struct QuantitySeriesSampleQueryDescriptor: Hashable, Sendable {
    /// HealthKit's `HKQuantitySeriesSampleQueryDescriptor.Options`.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Each result carries the sample that holds its quantity.
        public static let includeSample = Options(rawValue: 1 << 0)
        /// Results grouped by sample, samples in order of their start dates.
        public static let orderByQuantitySampleStartDate = Options(rawValue: 1 << 1)
    }

    /// One quantity with its date interval (HealthKit's `HKQuantitySeriesSampleQueryDescriptor.Result`).
    public struct Result: Hashable, Sendable {
        public let quantity: Quantity
        public let dateInterval: DateInterval
        /// The sample holding the quantity, with ``Options/includeSample``; nil otherwise.
        public let sample: QuantitySample?

        public init(quantity: Quantity, dateInterval: DateInterval, sample: QuantitySample?) {
            self.quantity = quantity
            self.dateInterval = dateInterval
            self.sample = sample
        }
    }

    public let quantityType: QuantityTypeIdentifier
    public let predicate: SamplePredicate?
    public let options: Options

    /// The most quantities one batch of a series holds.
    public static let maximumBatchSize = 10_000

    /// A query of the quantities of `quantityType`'s samples that meet `predicate` (nil: all).
    public init(quantityType: QuantityTypeIdentifier, predicate: SamplePredicate? = nil, options: Options = []) {
        self.quantityType = quantityType
        self.predicate = predicate
        self.options = options
    }
}
