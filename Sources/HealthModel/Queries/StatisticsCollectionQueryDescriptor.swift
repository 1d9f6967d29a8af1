public import Foundation

/// A statistics collection query: statistics per time bucket (HealthKit's
/// `HKStatisticsCollectionQueryDescriptor`), e.g. daily step sums.
///
/// Buckets start at `anchorDate` and repeat every `intervalComponents`, forwards and backwards,
/// in the calendar of `timeZone` (days and months follow that zone's clock changes); see
/// ``StatisticsIntervals``.
public struct StatisticsCollectionQueryDescriptor: Hashable, Sendable, Codable {
    public let quantityType: QuantityTypeIdentifier
    public let predicate: SamplePredicate?
    public let options: StatisticsOptions
    public let anchorDate: Date
    public let intervalComponents: IntervalComponents
    /// An IANA time zone name (`Europe/Paris`); buckets follow its calendar days. Nil: the
    /// owner's time zone, as the vault is set (HealthKit uses the device's calendar).
    public let timeZone: String?

    public init(
        quantityType: QuantityTypeIdentifier,
        predicate: SamplePredicate? = nil,
        options: StatisticsOptions,
        anchorDate: Date,
        intervalComponents: IntervalComponents,
        timeZone: String? = nil
    ) {
        self.quantityType = quantityType
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.timeZone = timeZone
    }

    public func validate() throws(HealthError) {
        try options.validate(for: quantityType)
        try predicate?.validate(for: .quantity(quantityType))
        try intervalComponents.validate()
        guard RFC3339.representableRange.contains(anchorDate) else {
            throw .invalidArgument("the anchor date is not between the years 0000 and 9999", field: "anchorDate")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw .invalidArgument("\"\(timeZone)\" is not a time zone name", field: "timeZone")
        }
    }
}

/// The length of a statistics bucket in calendar units (HealthKit takes `DateComponents`).
///
/// JSON: only the non-zero fields, `{"day": 1}`.
public struct IntervalComponents: Hashable, Sendable, Codable {
    public let year: Int
    public let month: Int
    public let weekOfYear: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int

    public init(
        year: Int = 0,
        month: Int = 0,
        weekOfYear: Int = 0,
        day: Int = 0,
        hour: Int = 0,
        minute: Int = 0,
        second: Int = 0
    ) {
        self.year = year
        self.month = month
        self.weekOfYear = weekOfYear
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    private var fields: [(String, Int)] {
        [
            ("year", year), ("month", month), ("weekOfYear", weekOfYear), ("day", day), ("hour", hour),
            ("minute", minute), ("second", second),
        ]
    }

    /// At least one positive field, none negative, and none absurdly large.
    public func validate() throws(HealthError) {
        for (name, value) in fields where value < 0 || value > 1_000_000 {
            throw .invalidArgument("\(name) must be between 0 and 1000000, not \(value)", field: "intervalComponents")
        }
        guard fields.contains(where: { $0.1 > 0 }) else {
            throw .invalidArgument("the interval must be longer than zero", field: "intervalComponents")
        }
    }

    /// The same interval as Foundation `DateComponents`.
    public var dateComponents: DateComponents {
        DateComponents(
            year: year,
            month: month,
            day: day,
            hour: hour,
            minute: minute,
            second: second,
            weekOfYear: weekOfYear
        )
    }

    private enum CodingKeys: String, CodingKey {
        case year, month, weekOfYear, day, hour, minute, second
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A whole number (absent or null: 0); anything else (1.5, 1e309, "1") is refused naming
        // the components, not as malformed JSON. validate() checks the range.
        func field(_ key: CodingKeys) throws -> Int {
            do {
                return try container.decodeIfPresent(Int.self, forKey: key) ?? 0
            } catch {
                throw HealthError.invalidArgument("\(key.stringValue) must be a whole number", field: nil)
                    .located(at: decoder.codingPath)
            }
        }
        self.init(
            year: try field(.year),
            month: try field(.month),
            weekOfYear: try field(.weekOfYear),
            day: try field(.day),
            hour: try field(.hour),
            minute: try field(.minute),
            second: try field(.second)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        for (name, value) in fields where value != 0 {
            try container.encode(value, forKey: CodingKeys(rawValue: name)!)
        }
    }
}
