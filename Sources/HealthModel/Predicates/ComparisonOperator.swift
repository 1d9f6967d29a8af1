/// How a predicate compares a sample's value with the predicate's (`NSComparisonPredicate.Operator`).
public enum ComparisonOperator: String, Hashable, Sendable, Codable, CaseIterable {
    case lessThan
    case lessThanOrEqualTo
    case greaterThan
    case greaterThanOrEqualTo
    case equalTo
    case notEqualTo

    /// Applies the operator to `lhs` (the sample's value) and `rhs` (the predicate's).
    public func evaluate<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
        switch self {
        case .lessThan: lhs < rhs
        case .lessThanOrEqualTo: lhs <= rhs
        case .greaterThan: lhs > rhs
        case .greaterThanOrEqualTo: lhs >= rhs
        case .equalTo: lhs == rhs
        case .notEqualTo: lhs != rhs
        }
    }
}
