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
            guard let x = Self.sortValue(a), let y = Self.sortValue(b) else { return false }
            return x < y
        }
    }

    /// A sample's value for sorting: a quantity in base units (so types with different canonical
    /// units of one dimension order correctly), or a category value.
    static func sortValue(_ sample: Sample) -> Double? {
        switch sample {
        case .quantity(let sample): sample.quantity.unit.baseValue(sample.quantity.value)
        case .category(let sample): Double(sample.value)
        case .correlation, .workout: nil
        }
    }
}
