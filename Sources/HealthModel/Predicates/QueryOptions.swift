/// How a date predicate compares a sample's span with the predicate's interval (`HKQueryOptions`).
///
/// With no option a sample matches when it overlaps the interval: `endDate >= start` and
/// `startDate < end`. `strictStartDate` replaces the first test with `startDate >= start`;
/// `strictEndDate` replaces the second with `endDate <= end`. With both, the sample lies wholly
/// inside `[start, end]`.
public struct QueryOptions: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public static let strictStartDate = QueryOptions(rawValue: 1 << 0)
    public static let strictEndDate = QueryOptions(rawValue: 1 << 1)

    private static let names: [(String, QueryOptions)] = [
        ("strictStartDate", .strictStartDate), ("strictEndDate", .strictEndDate),
    ]

    /// JSON: an array of option names, `["strictStartDate"]`.
    public init(from decoder: any Decoder) throws {
        var options: QueryOptions = []
        for name in try decoder.singleValueContainer().decode([String].self) {
            guard let option = Self.names.first(where: { $0.0 == name })?.1 else {
                throw HealthError.invalidArgument("unknown query option \"\(name)\"").field(at: decoder.codingPath)
            }
            options.insert(option)
        }
        self = options
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.names.filter { contains($0.1) }.map(\.0))
    }
}
