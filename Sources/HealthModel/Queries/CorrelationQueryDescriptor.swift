/// A correlation query: correlations of a type meeting a predicate, whose members meet per-type
/// predicates (HealthKit's `HKCorrelationQuery`).
public struct CorrelationQueryDescriptor: Hashable, Sendable, Codable {
    public let correlationType: CorrelationTypeIdentifier
    /// A condition on the correlation itself (its dates, source, metadata).
    public let predicate: SamplePredicate?
    /// Conditions on members, per member type: a correlation matches when, for every entry, one of
    /// its members of that type meets the predicate.
    public let samplePredicates: [SampleTypePredicate]

    public init(
        type: CorrelationTypeIdentifier,
        predicate: SamplePredicate? = nil,
        samplePredicates: [SampleTypePredicate] = []
    ) {
        self.correlationType = type
        self.predicate = predicate
        self.samplePredicates = samplePredicates
    }

    /// Checks the predicates, and that every member predicate names a type the correlation holds.
    public func validate() throws(HealthError) {
        try predicate?.validate(for: .correlation(correlationType))
        for (index, entry) in samplePredicates.enumerated() {
            guard correlationType.allows(entry.sampleType) else {
                throw .invalidArgument(
                    "\(correlationType) cannot hold \(entry.sampleType) samples",
                    field: "samplePredicates[\(index)].sampleType"
                )
            }
            do {
                try entry.validate()
            } catch {
                throw error.nested(in: "samplePredicates[\(index)]")
            }
        }
    }

    /// Whether a correlation meets the query.
    public func matches(_ correlation: Correlation) -> Bool {
        guard correlation.correlationType == correlationType,
            predicate?.matches(.correlation(correlation)) ?? true
        else { return false }
        return samplePredicates.allSatisfy { entry in correlation.objects.contains(where: entry.matches) }
    }
}
