public import Foundation

/// HealthKit's background-delivery frequencies (`HKUpdateFrequency`): how often, at most, an
/// observer query is told of changes.
public enum UpdateFrequency: String, Hashable, Sendable, Codable, CaseIterable {
    case immediate, hourly, daily, weekly

    /// The shortest time between two notifications of one subscription.
    public var interval: TimeInterval {
        switch self {
        case .immediate: 0
        case .hourly: 3600
        case .daily: 86400
        case .weekly: 7 * 86400
        }
    }
}
