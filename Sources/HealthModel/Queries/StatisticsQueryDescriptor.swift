/// A statistics query: one set of statistics over every matching sample of a quantity type
/// (HealthKit's `HKStatisticsQueryDescriptor`).
public struct StatisticsQueryDescriptor: Hashable, Sendable, Codable {
    public let quantityType: QuantityTypeIdentifier
    public let predicate: SamplePredicate?
    public let options: StatisticsOptions

    public init(quantityType: QuantityTypeIdentifier, predicate: SamplePredicate? = nil, options: StatisticsOptions) {
        self.quantityType = quantityType
        self.predicate = predicate
        self.options = options
    }

    /// Checks the options against the type (a cumulative sum of a discrete type is an
    /// `invalidArgument`, as in HealthKit) and the predicate against the type.
    public func validate() throws(HealthError) {
        try options.validate(for: quantityType)
        try predicate?.validate(for: .quantity(quantityType))
    }
}
