public import Foundation

/// The owner's decision on one permission (read or share) of one app for one type: not made yet,
/// or granted or denied, with when and by whom. A revocation is a denial.
public enum Determination: Hashable, Sendable, CustomStringConvertible {
    case notDetermined
    case granted(at: Date, by: String)
    case denied(at: Date, by: String)

    public var isGranted: Bool {
        if case .granted = self { return true }
        return false
    }

    public var isDetermined: Bool { self != .notDetermined }

    public var description: String {
        switch self {
        case .notDetermined: "not determined"
        case .granted(let date, let who): "granted \(date) by \(who)"
        case .denied(let date, let who): "denied \(date) by \(who)"
        }
    }
}
