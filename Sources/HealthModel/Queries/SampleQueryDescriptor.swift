/// A sample query: samples of one or more types that meet their predicates, sorted and limited
/// (HealthKit's `HKSampleQueryDescriptor`).
public struct SampleQueryDescriptor: Hashable, Sendable, Codable {
    public let predicates: [SampleTypePredicate]
    /// Applied in order; ties fall to the next descriptor. Empty leaves the order to the vault.
    public let sortDescriptors: [SampleSortDescriptor]
    /// The most samples returned; 0 means no limit.
    public let limit: Int

    public init(predicates: [SampleTypePredicate], sortDescriptors: [SampleSortDescriptor] = [], limit: Int = 0) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// Checks the predicates against their types, the limit, and that sorting by value is asked
    /// only of quantity types of one dimension or of category types.
    public func validate() throws(HealthError) {
        try HealthModel.validate(predicates)
        try HealthModel.validate(limit: limit)
        if sortDescriptors.contains(where: { $0.key == .value }) {
            let types = predicates.map(\.sampleType)
            let units = types.compactMap { type -> HealthUnit? in
                if case .quantity(let id) = type { return id.canonicalUnit } else { return nil }
            }
            let allCategory = types.allSatisfy { if case .category = $0 { true } else { false } }
            let oneDimension = units.count == types.count && units.allSatisfy { $0.isCompatible(with: units[0]) }
            guard allCategory || oneDimension else {
                throw .invalidArgument(
                    "sorting by value needs quantity types of compatible units, or category types",
                    field: "sortDescriptors"
                )
            }
        }
    }
}
