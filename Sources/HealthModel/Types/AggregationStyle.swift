/// How the values of a quantity type combine over an interval; it decides which statistics apply.
///
/// Raw values are HealthKit's (`HKQuantityAggregationStyle`).
public enum AggregationStyle: Int, HealthKitEnumeration {
    /// Values add up (steps, energy, distance): sums are meaningful.
    case cumulative = 0
    /// Independent readings (body mass, blood glucose): averages, minimum, maximum.
    case discreteArithmetic = 1
    /// Readings weighted by the time they cover (heart rate).
    case discreteTemporallyWeighted = 2
    /// Sound levels, averaged as energy (dBASPL).
    case discreteEquivalentContinuousLevel = 3
}

extension AggregationStyle {
    public static let healthKitName = "HKQuantityAggregationStyle"

    public var healthKitConstant: String { constantFromCaseName }

    /// Deprecated HealthKit alias of ``discreteArithmetic``.
    public static let discrete = AggregationStyle.discreteArithmetic

    /// Whether the style is one of the discrete ones.
    public var isDiscrete: Bool { self != .cumulative }
}
