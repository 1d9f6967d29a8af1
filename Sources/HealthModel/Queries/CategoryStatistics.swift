public import Foundation

/// Statistics of a category type per time interval (docs/STATISTICS.md, "Category statistics"):
/// for each interval, how many samples reach into it and how much of it each value covers. A
/// night's sleep: the time in bed, asleep, and in each stage. HealthKit has no such query (its
/// statistics are for quantity types); the Health app shows these figures for sleep.
///
/// Intervals are laid out as a statistics collection's (``StatisticsIntervals``): from
/// `anchorDate`, every `intervalComponents`, in the calendar of `timeZone` (the owner's when nil).
/// Nights are days anchored at noon.
public struct CategoryStatisticsQueryDescriptor: Hashable, Sendable, Codable {
    public let categoryType: CategoryTypeIdentifier
    public let predicate: SamplePredicate?
    public let anchorDate: Date
    public let intervalComponents: IntervalComponents
    /// An IANA time zone name; nil: the owner's time zone.
    public let timeZone: String?

    public init(
        categoryType: CategoryTypeIdentifier,
        predicate: SamplePredicate? = nil,
        anchorDate: Date,
        intervalComponents: IntervalComponents,
        timeZone: String? = nil
    ) {
        self.categoryType = categoryType
        self.predicate = predicate
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.timeZone = timeZone
    }

    public func validate() throws(HealthError) {
        try predicate?.validate(for: .category(categoryType))
        try intervalComponents.validate()
        guard RFC3339.representableRange.contains(anchorDate) else {
            throw .invalidArgument("the anchor date is not between the years 0000 and 9999", field: "anchorDate")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw .invalidArgument("\"\(timeZone)\" is not a time zone name", field: "timeZone")
        }
    }
}

/// One interval's category statistics.
public struct CategoryStatistics: Hashable, Sendable, Codable {
    /// One value's figures in the interval.
    public struct ValueStatistics: Hashable, Sendable, Codable {
        /// The category value (HealthKit's raw value: `3` is `asleepCore`).
        public let value: Int
        /// The samples of this value that reach into the interval.
        public let count: Int
        /// The seconds of the interval covered by at least one sample of this value, whichever
        /// source: samples that overlap count once.
        public let duration: Double

        public init(value: Int, count: Int, duration: Double) {
            self.value = value
            self.count = count
            self.duration = duration
        }
    }

    public let startDate: Date
    public let endDate: Date
    /// The samples that reach into the interval (an instant sample: that holds its instant).
    public let count: Int
    /// The seconds of the interval covered by at least one sample, whatever its value.
    public let duration: Double
    /// Sleep analysis only: the seconds covered by at least one sample of an asleep value
    /// (`asleepUnspecified`, `asleepCore`, `asleepDeep`, `asleepREM`: HealthKit's
    /// `HKCategoryValueSleepAnalysis.allAsleepValues`), each moment once. Nil for other types.
    public let asleepDuration: Double?
    /// Each value with a sample in the interval, in value order.
    public let values: [ValueStatistics]
    /// The bundle identifiers of the sources whose samples reach into the interval, sorted.
    public let sources: [String]

    public init(
        startDate: Date,
        endDate: Date,
        count: Int,
        duration: Double,
        asleepDuration: Double?,
        values: [ValueStatistics],
        sources: [String]
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.count = count
        self.duration = duration
        self.asleepDuration = asleepDuration
        self.values = values
        self.sources = sources
    }

    /// The figures of one value, or nil when no sample of it reaches into the interval.
    public func statistics(of value: Int) -> ValueStatistics? {
        values.first { $0.value == value }
    }
}

/// The answer to a ``CategoryStatisticsQueryDescriptor``: the intervals with samples, in time order.
public struct CategoryStatisticsCollection: Hashable, Sendable, Codable {
    public let categoryType: CategoryTypeIdentifier
    public let anchorDate: Date
    public let intervalComponents: IntervalComponents
    /// The zone the intervals were counted in, as the query or the owner named it.
    public let timeZone: String
    public let statistics: [CategoryStatistics]

    public init(
        categoryType: CategoryTypeIdentifier,
        anchorDate: Date,
        intervalComponents: IntervalComponents,
        timeZone: String,
        statistics: [CategoryStatistics]
    ) {
        self.categoryType = categoryType
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.timeZone = timeZone
        self.statistics = statistics
    }
}

extension CategoryValueSleepAnalysis {
    /// The values that mean asleep (HealthKit's `allAsleepValues`).
    public static let allAsleepValues: Set<CategoryValueSleepAnalysis> = [
        .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM,
    ]
}
