/// The two independent permissions an app holds for a type, as in HealthKit: reading it and
/// sharing (saving) it.
public enum Access: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case read = 0
    case share = 1

    public var description: String {
        switch self {
        case .read: "read"
        case .share: "share"
        }
    }
}
