public import Foundation
public import HealthModel

/// An app's two permissions for one type.
public struct TypeGrant: Hashable, Sendable {
    public var type: ObjectType
    public var read: Determination
    public var share: Determination
    /// The read grant's window and expiry; for a grant that expired (`denied` by `expiry`), the
    /// instant it expired.
    public var readTerms: GrantTerms
    /// The share grant's expiry, as ``readTerms``.
    public var shareTerms: GrantTerms

    public init(
        type: ObjectType,
        read: Determination = .notDetermined,
        share: Determination = .notDetermined,
        readTerms: GrantTerms = .none,
        shareTerms: GrantTerms = .none
    ) {
        self.type = type
        self.read = read
        self.share = share
        self.readTerms = readTerms
        self.shareTerms = shareTerms
    }

    public subscript(access: Access) -> Determination {
        get { access == .read ? read : share }
        set {
            if access == .read { read = newValue } else { share = newValue }
        }
    }

    public func terms(_ access: Access) -> GrantTerms { access == .read ? readTerms : shareTerms }
}

/// What the owner sees of one app: its registration (purposes, key, enrolment date), every type
/// it declared or holds a decision for with both permissions, and its pending requests.
public struct AppGrants: Hashable, Sendable {
    public var app: AppRegistration
    /// By type identifier.
    public var grants: [TypeGrant]
    public var pendingRequests: [AuthorizationRequest]
}

/// A request an app made that still waits for the owner: the types it asked for that have no
/// decision yet. Approving or denying it decides all of them at once (see ``VaultPolicy``).
public struct AuthorizationRequest: Hashable, Sendable {
    /// The vault's number for the request (the owner names it to approve or deny it).
    public var id: Int64
    public var appID: String
    public var requestedAt: Date
    /// Types still waiting for a read decision, by identifier.
    public var read: [ObjectType]
    /// Types still waiting for a share decision, by identifier.
    public var share: [ObjectType]

    public subscript(access: Access) -> [ObjectType] { access == .read ? read : share }
}

/// An app that asked again for permissions the owner had all decided already: nothing new waits
/// for a decision, so no request appears, but the owner is told (`requests list`, `requests
/// review`) until they next decide something for the app.
public struct RepeatedRequest: Hashable, Sendable {
    public var appID: String
    /// The first and the latest such ask since the owner's last decision for the app.
    public var firstAskedAt: Date
    public var lastAskedAt: Date
    /// How many times it asked again.
    public var times: Int
    /// The types of its latest ask.
    public var read: [ObjectType]
    public var share: [ObjectType]
}
