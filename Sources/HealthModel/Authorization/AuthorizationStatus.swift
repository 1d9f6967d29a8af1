/// Whether an app may share (save) a type, as HealthKit's `HKAuthorizationStatus`.
///
/// It says nothing about reading: whether an app may read a type is never revealed to it (a
/// denied read looks like no data), exactly as in HealthKit.
public enum AuthorizationStatus: Int, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// The owner has not decided yet.
    case notDetermined = 0
    /// The owner denied (or revoked) sharing this type.
    case sharingDenied = 1
    /// The app may save samples of this type.
    case sharingAuthorized = 2

    public var description: String {
        switch self {
        case .notDetermined: "notDetermined"
        case .sharingDenied: "sharingDenied"
        case .sharingAuthorized: "sharingAuthorized"
        }
    }
}

/// Whether asking for authorization would show the owner anything new, as HealthKit's
/// `HKAuthorizationRequestStatus`: `unnecessary` once the owner has decided every type asked for,
/// whatever the decisions were.
public enum AuthorizationRequestStatus: Int, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case unknown = 0
    /// At least one of the types has not been decided: requesting adds it to the owner's list.
    case shouldRequest = 1
    /// Every type has been decided; a request would change nothing.
    case unnecessary = 2

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .shouldRequest: "shouldRequest"
        case .unnecessary: "unnecessary"
        }
    }
}
