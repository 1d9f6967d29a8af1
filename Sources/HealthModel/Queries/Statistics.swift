public import Foundation

/// The statistics of a quantity type over one interval: what a statistics query returns and one
/// bucket of a statistics collection (HealthKit's `HKStatistics`).
public struct Statistics: Hashable, Sendable, Codable {
    public let quantityType: QuantityTypeIdentifier
    public let startDate: Date
    public let endDate: Date
    /// The statistics over every source.
    public let values: StatisticsValues
    /// The sources whose samples went into `values`, by bundle identifier. With overlapping
    /// sources merged (docs/STATISTICS.md), a source whose samples were all covered by a source
    /// of higher priority did not contribute to the sum.
    public let sources: [Source]
    /// The statistics of each source (its own samples, unmerged), when the query asked
    /// `separateBySource`.
    public let valuesBySource: [SourceStatistics]

    public init(
        quantityType: QuantityTypeIdentifier,
        startDate: Date,
        endDate: Date,
        values: StatisticsValues,
        sources: [Source] = [],
        valuesBySource: [SourceStatistics] = []
    ) {
        self.quantityType = quantityType
        self.startDate = startDate
        self.endDate = endDate
        self.values = values
        self.sources = sources
        self.valuesBySource = valuesBySource
    }

    public func sumQuantity() -> Quantity? { values.sum }
    public func averageQuantity() -> Quantity? { values.average }
    public func minimumQuantity() -> Quantity? { values.minimum }
    public func maximumQuantity() -> Quantity? { values.maximum }
    public func mostRecentQuantity() -> Quantity? { values.mostRecent }
    public func duration() -> Quantity? { values.duration }

    /// The span of the most recent sample.
    public func mostRecentQuantityDateInterval() -> DateInterval? {
        guard let start = values.mostRecentStartDate, let end = values.mostRecentEndDate else { return nil }
        return DateInterval(start: start, end: end)
    }

    public func sumQuantity(for source: Source) -> Quantity? { values(for: source)?.sum }
    public func averageQuantity(for source: Source) -> Quantity? { values(for: source)?.average }
    public func minimumQuantity(for source: Source) -> Quantity? { values(for: source)?.minimum }
    public func maximumQuantity(for source: Source) -> Quantity? { values(for: source)?.maximum }
    public func mostRecentQuantity(for source: Source) -> Quantity? { values(for: source)?.mostRecent }

    private func values(for source: Source) -> StatisticsValues? {
        valuesBySource.first { $0.source == source }?.values
    }
}

/// The statistics themselves; each is nil when not asked for or when there was no data.
public struct StatisticsValues: Hashable, Sendable, Codable {
    public let sum: Quantity?
    public let average: Quantity?
    public let minimum: Quantity?
    public let maximum: Quantity?
    public let mostRecent: Quantity?
    public let mostRecentStartDate: Date?
    public let mostRecentEndDate: Date?
    /// The time the samples cover, in seconds.
    public let duration: Quantity?

    public init(
        sum: Quantity? = nil,
        average: Quantity? = nil,
        minimum: Quantity? = nil,
        maximum: Quantity? = nil,
        mostRecent: Quantity? = nil,
        mostRecentStartDate: Date? = nil,
        mostRecentEndDate: Date? = nil,
        duration: Quantity? = nil
    ) {
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.mostRecent = mostRecent
        self.mostRecentStartDate = mostRecentStartDate
        self.mostRecentEndDate = mostRecentEndDate
        self.duration = duration
    }
}

/// One source's statistics.
public struct SourceStatistics: Hashable, Sendable, Codable {
    public let source: Source
    public let values: StatisticsValues

    public init(source: Source, values: StatisticsValues) {
        self.source = source
        self.values = values
    }
}

/// Statistics per time bucket: what a statistics collection query returns (HealthKit's
/// `HKStatisticsCollection`). Buckets without data are absent.
public struct StatisticsCollection: Hashable, Sendable, Codable {
    public let quantityType: QuantityTypeIdentifier
    public let anchorDate: Date
    public let intervalComponents: IntervalComponents
    public let timeZone: String
    /// The buckets with data, in time order.
    public let statistics: [Statistics]

    public init(
        quantityType: QuantityTypeIdentifier,
        anchorDate: Date,
        intervalComponents: IntervalComponents,
        timeZone: String,
        statistics: [Statistics]
    ) {
        self.quantityType = quantityType
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.timeZone = timeZone
        // Usually in order already (the store keeps it).
        let ordered = zip(statistics, statistics.dropFirst()).allSatisfy { $0.startDate <= $1.startDate }
        self.statistics = ordered ? statistics : statistics.sorted { $0.startDate < $1.startDate }
    }

    /// As read from the wire: the statistics in the order given, as the Codable form reads them.
    init(
        quantityType: QuantityTypeIdentifier,
        anchorDate: Date,
        intervalComponents: IntervalComponents,
        timeZone: String,
        inWireOrder statistics: [Statistics]
    ) {
        self.quantityType = quantityType
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.timeZone = timeZone
        self.statistics = statistics
    }

    /// The bucket holding a date, if it has data (`HKStatisticsCollection.statistics(for:)`).
    public func statistics(for date: Date) -> Statistics? {
        statistics.first { $0.startDate <= date && date < $0.endDate }
    }

    /// The sources that contributed to any bucket, by bundle identifier.
    public func sources() -> [Source] {
        var seen = Set<Source>()
        return statistics.flatMap(\.sources).filter { seen.insert($0).inserted }
            .sorted { $0.bundleIdentifier.utf8.lexicographicallyPrecedes($1.bundleIdentifier.utf8) }
    }
}
