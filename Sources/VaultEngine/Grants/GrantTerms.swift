public import Foundation
public import HealthModel
public import VaultStore

/// Which of other apps' samples of a type a read grant shows: those lying wholly within a fixed
/// date range, within the last so many seconds before each request, or from the instant of the
/// grant on (docs/ACCESS_RULES.md, "Windows"). The app's own samples are outside any window's
/// reach: it always reads them.
public enum GrantWindow: Hashable, Sendable {
    /// From `start` to `end`, either of which may be open (not both).
    case fixed(start: Date?, end: Date?)
    /// The last `seconds` before each request's instant: a window that moves with time.
    case last(seconds: TimeInterval)
    /// From the instant of the grant on.
    case sinceGrant

    /// The window as the store applies it to a request at `now`, for a grant made at `grantedAt`.
    /// A rolling window has no end: a sample dated after the request (a clock ahead, a plan)
    /// is inside it.
    public func readWindow(at now: Date, grantedAt: Date) -> ReadWindow {
        switch self {
        case .fixed(let start, let end): ReadWindow(start: start, end: end)
        case .last(let seconds): ReadWindow(start: now.addingTimeInterval(-seconds), end: nil)
        case .sinceGrant: ReadWindow(start: grantedAt, end: nil)
        }
    }

    /// The longest rolling window: a hundred years.
    public static let longestRolling: TimeInterval = 100 * 366 * 86_400

    /// Refuses a window that shows nothing or is malformed (`invalidArgument`).
    public func validate() throws(HealthError) {
        switch self {
        case .fixed(let start, let end):
            guard start != nil || end != nil else {
                throw .invalidArgument("a fixed window needs a start, an end or both", field: "window")
            }
            if let start, let end, end <= start {
                throw .invalidArgument("the window's end is not after its start", field: "window")
            }
        case .last(let seconds):
            guard seconds.isFinite, seconds >= 1, seconds <= Self.longestRolling else {
                throw .invalidArgument(
                    "a rolling window lasts from 1 second to 100 years",
                    field: "window"
                )
            }
        case .sinceGrant:
            break
        }
    }
}

/// A grant's terms beyond "granted": the read window, if any, and the instant the grant expires,
/// if it does (an expiry is a revocation at that instant).
public struct GrantTerms: Hashable, Sendable {
    /// Only for read grants.
    public var window: GrantWindow?
    public var expiresAt: Date?

    public init(window: GrantWindow? = nil, expiresAt: Date? = nil) {
        self.window = window
        self.expiresAt = expiresAt
    }

    /// A plain grant: everything, for good.
    public static let none = GrantTerms()

    public var isEmpty: Bool { window == nil && expiresAt == nil }
}
