/// The order a sample query returns samples in (HealthKit's `SortDescriptor` on a sample key path).
public struct SampleSortDescriptor: Hashable, Sendable, Codable {
    /// What samples are sorted by.
    public enum Key: String, Hashable, Sendable, Codable, CaseIterable {
        case startDate
        case endDate
        /// The quantity (in the type's canonical unit) or the category value.
        case value
    }

    public enum Order: String, Hashable, Sendable, Codable {
        case ascending
        case descending
    }

    public let key: Key
    public let order: Order

    public init(_ key: Key, order: Order = .ascending) {
        self.key = key
        self.order = order
    }

    /// Whether `lhs` comes strictly before `rhs` by this key alone.
    public func orders(_ lhs: Sample, before rhs: Sample) -> Bool {
        let (a, b) = order == .ascending ? (lhs, rhs) : (rhs, lhs)
        switch key {
        case .startDate: return a.startDate < b.startDate
        case .endDate: return a.endDate < b.endDate
        case .value:
            // Samples without a value (workouts, correlations) come first, as SQL's NULLs do.
            let x: Double? = Self.sortValue(a)
            let y: Double? = Self.sortValue(b)
            guard let y else { return false }
            guard let x else { return true }
            return x < y
        }
    }

    /// A sample's value for sorting: a quantity's value in its type's canonical unit, taken to base
    /// units (so types with different canonical units of one dimension order correctly), or a
    /// category value.
    public static func sortValue(_ sample: Sample) -> Double? {
        switch sample {
        case .quantity(let sample):
            let canonical = sample.quantityType.canonicalUnit
            return (try? sample.quantity.doubleValue(for: canonical)).map { canonical.baseValue($0) }
        case .category(let sample): return Double(sample.value)
        case .correlation, .workout, .workoutRoute, .stateOfMind, .gad7Assessment, .phq9Assessment, .electrocardiogram,
            .audiogram, .heartbeatSeries, .visionPrescription, .cdaDocument:
            return nil
        }
    }
}
