/// Which statistics a statistics query computes (HealthKit's `HKStatisticsOptions`, same raw values).
///
/// JSON: an array of names, `["cumulativeSum", "separateBySource"]`.
public struct StatisticsOptions: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Also compute every statistic per source.
    public static let separateBySource = StatisticsOptions(rawValue: 1 << 0)
    public static let discreteAverage = StatisticsOptions(rawValue: 1 << 1)
    public static let discreteMin = StatisticsOptions(rawValue: 1 << 2)
    public static let discreteMax = StatisticsOptions(rawValue: 1 << 3)
    public static let cumulativeSum = StatisticsOptions(rawValue: 1 << 4)
    /// The most recent sample's quantity and span.
    public static let mostRecent = StatisticsOptions(rawValue: 1 << 5)
    /// The time covered by the samples, in seconds.
    public static let duration = StatisticsOptions(rawValue: 1 << 6)

    static let names: [(String, StatisticsOptions)] = [
        ("separateBySource", .separateBySource), ("discreteAverage", .discreteAverage),
        ("discreteMin", .discreteMin), ("discreteMax", .discreteMax), ("cumulativeSum", .cumulativeSum),
        ("mostRecent", .mostRecent), ("duration", .duration),
    ]

    public init(from decoder: any Decoder) throws {
        var options: StatisticsOptions = []
        for name in try decoder.singleValueContainer().decode([String].self) {
            guard let option = Self.names.first(where: { $0.0 == name })?.1 else {
                throw HealthError.invalidArgument("unknown statistics option \"\(name)\"").field(at: decoder.codingPath)
            }
            options.insert(option)
        }
        self = options
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.names.filter { contains($0.1) }.map(\.0))
    }

    /// Checks the options against the type's aggregation style, as HealthKit does: a sum needs a
    /// cumulative type; average, minimum, maximum and most recent need a discrete type; duration
    /// fits any type; at least one statistic.
    public func validate(for type: QuantityTypeIdentifier) throws(HealthError) {
        guard !subtracting(.separateBySource).isEmpty else {
            throw .invalidArgument("ask for at least one statistic", field: "options")
        }
        let style = type.aggregationStyle
        if contains(.cumulativeSum) && style != .cumulative {
            throw .invalidArgument(
                "cumulativeSum needs a cumulative type; \(type) is \(style.name)",
                field: "options"
            )
        }
        for (name, option) in Self.names
        where [.discreteAverage, .discreteMin, .discreteMax, .mostRecent].contains(option) {
            if contains(option) && !style.isDiscrete {
                throw .invalidArgument("\(name) needs a discrete type; \(type) is cumulative", field: "options")
            }
        }
    }
}

extension AggregationStyle {
    /// The style's name (`discreteArithmetic`).
    public var name: String {
        switch self {
        case .cumulative: "cumulative"
        case .discreteArithmetic: "discreteArithmetic"
        case .discreteTemporallyWeighted: "discreteTemporallyWeighted"
        case .discreteEquivalentContinuousLevel: "discreteEquivalentContinuousLevel"
        }
    }
}

extension StatisticsOptions {
    /// The statistics a live workout builder keeps of a type, as HealthKit's do: the sum of a
    /// cumulative type; the average, minimum, maximum and most recent value of a discrete one.
    public static func workout(for type: QuantityTypeIdentifier) -> StatisticsOptions {
        type.aggregationStyle == .cumulative
            ? [.cumulativeSum] : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
    }
}
