public import Foundation

/// Quantity series (HealthKit's `HKQuantitySeriesSampleBuilder` and `HKQuantitySeriesSampleQuery`):
/// one quantity sample holding many quantities, each with its own date interval.
extension QuantitySample {
    /// The most quantities one series holds.
    public static let maximumCount = 50_000

    /// One quantity of a series with its date interval (HealthKit's
    /// `HKQuantitySeriesSampleQueryDescriptor.Result` without its sample).
    ///
    /// JSON: `{"quantity": {"value": 72, "unit": "count/min"}, "startDate": <date>, "endDate": <date>}`;
    /// an absent `endDate` on input is the start (an instant, HealthKit's `insert(_:at:)`).
    public struct SeriesQuantity: Hashable, Sendable, Codable {
        public let quantity: Quantity
        public let dateInterval: DateInterval

        public init(quantity: Quantity, dateInterval: DateInterval) {
            self.quantity = quantity
            self.dateInterval = dateInterval
        }

        /// A quantity at an instant: an interval of no duration.
        public init(quantity: Quantity, at date: Date) {
            self.init(quantity: quantity, dateInterval: DateInterval(start: date, duration: 0))
        }

        private enum CodingKeys: String, CodingKey {
            case quantity, startDate, endDate
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let quantity = try container.decode(Quantity.self, forKey: .quantity)
            let start = try container.decode(Date.self, forKey: .startDate)
            let end = try container.decodeIfPresent(Date.self, forKey: .endDate) ?? start
            guard end >= start else {
                throw HealthError.invalidArgument("the end date is before the start date", field: "endDate")
                    .located(at: decoder.codingPath)
            }
            self.init(quantity: quantity, dateInterval: DateInterval(start: start, end: end))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(dateInterval.end, forKey: .endDate)
            try container.encode(quantity, forKey: .quantity)
            try container.encode(dateInterval.start, forKey: .startDate)
        }
    }

    /// A discrete series' extremes and latest quantity (HealthKit's `HKDiscreteQuantitySample`:
    /// `minimumQuantity`, `maximumQuantity`, `mostRecentQuantity`, `mostRecentQuantityDateInterval`).
    public struct DiscreteSummary: Hashable, Sendable {
        public let minimum: Quantity
        public let maximum: Quantity
        /// The quantity with the latest start date.
        public let mostRecent: Quantity
        public let mostRecentDateInterval: DateInterval

        public init(minimum: Quantity, maximum: Quantity, mostRecent: Quantity, mostRecentDateInterval: DateInterval) {
            self.minimum = minimum
            self.maximum = maximum
            self.mostRecent = mostRecent
            self.mostRecentDateInterval = mostRecentDateInterval
        }

        private enum CodingKeys: String, CodingKey {
            case minimumQuantity, maximumQuantity, mostRecentQuantity
            case mostRecentQuantityStartDate, mostRecentQuantityEndDate
        }

        /// The summary's fields of a sample's JSON, or nil when it has none of them.
        static func decode(from decoder: any Decoder) throws -> DiscreteSummary? {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let minimum = try container.decodeIfPresent(Quantity.self, forKey: .minimumQuantity)
            let maximum = try container.decodeIfPresent(Quantity.self, forKey: .maximumQuantity)
            let mostRecent = try container.decodeIfPresent(Quantity.self, forKey: .mostRecentQuantity)
            let start = try container.decodeIfPresent(Date.self, forKey: .mostRecentQuantityStartDate)
            let end = try container.decodeIfPresent(Date.self, forKey: .mostRecentQuantityEndDate)
            if minimum == nil, maximum == nil, mostRecent == nil, start == nil, end == nil { return nil }
            let missing: [(Bool, CodingKeys)] = [
                (minimum == nil, .minimumQuantity), (maximum == nil, .maximumQuantity),
                (mostRecent == nil, .mostRecentQuantity), (start == nil, .mostRecentQuantityStartDate),
                (end == nil, .mostRecentQuantityEndDate),
            ]
            if let (_, key) = missing.first(where: \.0) {
                throw HealthError.invalidArgument(
                    "a discrete series' summary has its minimum, maximum and most recent quantity with its dates, or none",
                    field: key.stringValue
                )
                .located(at: decoder.codingPath)
            }
            guard let minimum, let maximum, let mostRecent, let start, let end else { return nil }
            guard end >= start else {
                throw HealthError.invalidArgument(
                    "the most recent quantity's end date is before its start date",
                    field: CodingKeys.mostRecentQuantityEndDate.stringValue
                )
                .located(at: decoder.codingPath)
            }
            return DiscreteSummary(
                minimum: minimum,
                maximum: maximum,
                mostRecent: mostRecent,
                mostRecentDateInterval: DateInterval(start: start, end: end)
            )
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(maximum, forKey: .maximumQuantity)
            try container.encode(minimum, forKey: .minimumQuantity)
            try container.encode(mostRecent, forKey: .mostRecentQuantity)
            try container.encode(mostRecentDateInterval.end, forKey: .mostRecentQuantityEndDate)
            try container.encode(mostRecentDateInterval.start, forKey: .mostRecentQuantityStartDate)
        }
    }

    /// A series of `quantities` (at least one, in any order, no two with the same start date)
    /// saved as one sample from `start` to `end`, as a quantity series builder finishes it: its
    /// quantity is their sum (a cumulative type) or their average (a discrete type) in `unit`, and
    /// a discrete series keeps its minimum, maximum and most recent. One quantity makes an
    /// ordinary sample of it over the whole span. Refused naming the field (`quantities[i]…`, or
    /// `quantities` for a sum outside the type's range).
    public init(
        uuid: UUID = .forNewObject(),
        type: QuantityTypeIdentifier,
        series quantities: [SeriesQuantity],
        unit: HealthUnit,
        start: Date,
        end: Date,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        guard !quantities.isEmpty else {
            throw .invalidArgument("a series holds at least one quantity", field: "quantities")
        }
        guard quantities.count <= Self.maximumCount else {
            throw HealthError(
                .dataSizeExceeded,
                "a series holds at most \(Self.maximumCount) quantities",
                field: "quantities"
            )
        }
        let sorted = quantities.sorted { $0.dateInterval.start < $1.dateInterval.start }
        var values: [Double] = []
        values.reserveCapacity(sorted.count)
        for (index, entry) in sorted.enumerated() {
            let field = "quantities[\(index)]"
            try type.validate(entry.quantity, field: field + ".quantity")
            guard entry.dateInterval.start >= start else {
                throw .invalidArgument("a quantity starts before its series", field: field + ".startDate")
            }
            guard entry.dateInterval.end <= end else {
                throw .invalidArgument("a quantity ends after its series", field: field + ".endDate")
            }
            if index > 0, sorted[index - 1].dateInterval.start == entry.dateInterval.start {
                throw .invalidArgument(
                    "two quantities of a series have the same start date",
                    field: field + ".startDate"
                )
            }
            do {
                values.append(try entry.quantity.doubleValue(for: unit))
            } catch {
                throw .invalidArgument("the quantity cannot be expressed in \(unit)", field: field + ".quantity.unit")
            }
        }
        let series = zip(sorted, values).map {
            SeriesQuantity(quantity: Quantity($1, unit), dateInterval: $0.dateInterval)
        }
        let total = values.reduce(0, +)
        let cumulative = type.aggregationStyle == .cumulative
        let quantity = Quantity(cumulative ? total : total / Double(values.count), unit)
        do {
            try type.validate(quantity, field: "quantities")
        } catch {
            throw .invalidArgument("the series' sum is outside the range \(type.rawValue) allows", field: "quantities")
        }
        let summary =
            cumulative || series.count == 1
            ? nil
            : DiscreteSummary(
                minimum: Quantity(values.min()!, unit),
                maximum: Quantity(values.max()!, unit),
                mostRecent: series.last!.quantity,
                mostRecentDateInterval: series.last!.dateInterval
            )
        try self.init(
            uuid: uuid,
            type: type,
            quantity: quantity,
            start: start,
            end: end,
            count: series.count,
            discreteSummary: summary,
            seriesQuantities: series.count == 1 ? nil : series,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }

    /// Checks what makes a sample a series: a count from 1 to ``maximumCount``, and a summary
    /// exactly for a discrete type's series, of the type's units, its minimum at most its maximum,
    /// its most recent quantity inside the sample's span.
    static func validate(
        count: Int,
        discreteSummary: DiscreteSummary?,
        type: QuantityTypeIdentifier,
        span: DateInterval
    ) throws(HealthError) {
        guard (1...maximumCount).contains(count) else {
            throw .invalidArgument("a quantity sample holds 1 to \(maximumCount) quantities", field: "count")
        }
        let discreteSeries = count > 1 && type.aggregationStyle != .cumulative
        guard let summary = discreteSummary else {
            if discreteSeries {
                throw .invalidArgument(
                    "a discrete type's series carries its minimum, maximum and most recent quantity",
                    field: "minimumQuantity"
                )
            }
            return
        }
        guard discreteSeries else {
            throw .invalidArgument(
                "only a discrete type's series (count above 1) has a minimum, maximum and most recent quantity",
                field: "minimumQuantity"
            )
        }
        try type.validate(summary.minimum, field: "minimumQuantity")
        try type.validate(summary.maximum, field: "maximumQuantity")
        try type.validate(summary.mostRecent, field: "mostRecentQuantity")
        let unit = type.canonicalUnit
        if let low = try? summary.minimum.doubleValue(for: unit),
            let high = try? summary.maximum.doubleValue(for: unit),
            low > high
        {
            throw .invalidArgument("the minimum quantity is above the maximum", field: "minimumQuantity")
        }
        guard summary.mostRecentDateInterval.start >= span.start, summary.mostRecentDateInterval.end <= span.end
        else {
            throw .invalidArgument(
                "the most recent quantity lies outside the sample's span",
                field: "mostRecentQuantityStartDate"
            )
        }
    }

    /// Whether the sample holds more than one quantity.
    public var isSeries: Bool { count > 1 }

    /// The sum of a cumulative type's sample (HealthKit's `HKCumulativeQuantitySample.sumQuantity`);
    /// nil for a discrete type.
    public var sumQuantity: Quantity? { quantityType.aggregationStyle == .cumulative ? quantity : nil }

    /// The average of a discrete type's sample (HealthKit's `HKDiscreteQuantitySample.averageQuantity`);
    /// nil for a cumulative type.
    public var averageQuantity: Quantity? { quantityType.aggregationStyle == .cumulative ? nil : quantity }

    /// A discrete type's smallest quantity (HealthKit's `minimumQuantity`); nil for a cumulative type.
    public var minimumQuantity: Quantity? { averageQuantity.map { discreteSummary?.minimum ?? $0 } }

    /// A discrete type's largest quantity (HealthKit's `maximumQuantity`); nil for a cumulative type.
    public var maximumQuantity: Quantity? { averageQuantity.map { discreteSummary?.maximum ?? $0 } }

    /// A discrete type's quantity with the latest start (HealthKit's `mostRecentQuantity`); nil for
    /// a cumulative type.
    public var mostRecentQuantity: Quantity? { averageQuantity.map { discreteSummary?.mostRecent ?? $0 } }

    /// When ``mostRecentQuantity`` was measured (HealthKit's `mostRecentQuantityDateInterval`); nil
    /// for a cumulative type.
    public var mostRecentQuantityDateInterval: DateInterval? {
        averageQuantity.map { _ in
            discreteSummary?.mostRecentDateInterval ?? DateInterval(start: startDate, end: endDate)
        }
    }

    /// The sample as a query answers it: without its series' quantities.
    public var withoutSeriesQuantities: QuantitySample {
        guard seriesQuantities != nil else { return self }
        // Nothing to check again: only the quantities go.
        return try! QuantitySample(
            uuid: uuid,
            type: quantityType,
            quantity: quantity,
            start: startDate,
            end: endDate,
            count: count,
            discreteSummary: discreteSummary,
            seriesQuantities: nil,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }

    /// The same sample as a series of `count` quantities with `summary`, as the store reads one
    /// back; refused as ``init(uuid:type:quantity:start:end:count:discreteSummary:sourceRevision:device:metadata:)``
    /// refuses it.
    public func series(count: Int, discreteSummary: DiscreteSummary?) throws(HealthError) -> QuantitySample {
        try QuantitySample(
            uuid: uuid,
            type: quantityType,
            quantity: quantity,
            start: startDate,
            end: endDate,
            count: count,
            discreteSummary: discreteSummary,
            seriesQuantities: nil,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }
}
