public import AuditLog
public import Foundation
public import HealthModel
import VaultStore

/// What the owner does to a permission.
public enum Decision: Hashable, Sendable, CustomStringConvertible {
    case grant
    case deny
    /// Withdraws a grant: the permission becomes denied, from the app's next request on.
    case revoke

    public var description: String {
        switch self {
        case .grant: "grant"
        case .deny: "deny"
        case .revoke: "revoke"
        }
    }

    func operation(_ access: Access) -> AuditEntry.Operation {
        switch (self, access) {
        case (.grant, .read): .authorizationGrantRead
        case (.grant, .share): .authorizationGrantShare
        case (.deny, .read): .authorizationDenyRead
        case (.deny, .share): .authorizationDenyShare
        case (.revoke, .read): .authorizationRevokeRead
        case (.revoke, .share): .authorizationRevokeShare
        }
    }
}

extension VaultEngine {
    // MARK: The app's side

    /// Asks the owner for access, as HealthKit's `requestAuthorization(toShare:read:)`: the types
    /// not yet decided (nor already waiting) become a pending request the owner sees. It returns
    /// once the request is recorded, not when the owner decides, and says nothing about decisions.
    ///
    /// Refused with `invalidArgument`: no types at all, a type the app's manifest does not
    /// declare, a type no app may share, a correlation type (ask for its member types).
    public func requestAuthorization(
        toShare share: Set<SampleType>,
        read: Set<ObjectType>,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        let appID = try Self.appID(of: caller)
        let types = Set(share.map(ObjectType.init)).union(read)
        try await perform { [self] in
            try audited(caller, .authorizationRequest, types: types.sortedIdentifiers, requestID: requestID) {
                try database.write { db in
                    try checkRequest(toShare: share, read: read, by: appID, db)
                    let grants = try GrantStore.grants(appID, at: now(), db)
                    var asked: [Access: [ObjectType]] = [:]
                    var askedAgain = false
                    for (access, wanted) in [(Access.share, Set(share.map(ObjectType.init))), (.read, read)] {
                        let decided = Set(grants.values.filter { $0[access].isDetermined }.map(\.type))
                        let pending = try GrantStore.pendingTypes(appID, access, db)
                        asked[access] = wanted.subtracting(decided).subtracting(pending).sorted(
                            by: VaultPolicy.identifierOrder
                        )
                        askedAgain = askedAgain || !wanted.isDisjoint(with: decided)
                    }
                    let askedAt = now()
                    if try GrantStore.addRequest(appID, types: asked, at: askedAt, db) == nil, askedAgain {
                        // Nothing new to decide, but it asked for what the owner decided: say so to
                        // the owner (never to the app, whose answer is the same either way).
                        try GrantStore.recordRepeat(
                            appID,
                            read: read.sorted(by: VaultPolicy.identifierOrder),
                            share: share.map(ObjectType.init).sorted(by: VaultPolicy.identifierOrder),
                            at: askedAt,
                            db
                        )
                    }
                    try append(
                        entry(caller, .authorizationRequest, types: types.sortedIdentifiers, requestID: requestID),
                        in: db
                    )
                }
            }
        }
    }

    /// HealthKit's `getRequestStatusForAuthorization(toShare:read:)`: `unnecessary` when the owner
    /// has decided every one of these permissions (whatever the decisions), else `shouldRequest`.
    public func authorizationRequestStatus(
        toShare share: Set<SampleType>,
        read: Set<ObjectType>,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> AuthorizationRequestStatus {
        let appID = try Self.appID(of: caller)
        let types = Set(share.map(ObjectType.init)).union(read)
        return try await perform { [self] in
            try audited(caller, .authorizationStatus, types: types.sortedIdentifiers, requestID: requestID) {
                try readRecorded { db -> (AuthorizationRequestStatus, AuditEntry) in
                    try checkRequest(toShare: share, read: read, by: appID, db)
                    let grants = try GrantStore.grants(appID, at: now(), db)
                    let undecided =
                        share.contains { !(grants[ObjectType($0)]?.share.isDetermined ?? false) }
                        || read.contains { !(grants[$0]?.read.isDetermined ?? false) }
                    return (
                        undecided ? .shouldRequest : .unnecessary,
                        entry(caller, .authorizationStatus, types: types.sortedIdentifiers, requestID: requestID)
                    )
                }
            }
        }
    }

    /// HealthKit's `authorizationStatus(for:)`: whether the app may share the type. It never
    /// tells anything about reading.
    public func authorizationStatus(
        for type: ObjectType,
        as caller: Caller,
        requestID: String = ""
    ) async throws
        -> AuthorizationStatus
    {
        let appID = try Self.appID(of: caller)
        return try await perform { [self] in
            try audited(caller, .authorizationStatus, types: [type.identifier], requestID: requestID) {
                try readRecorded { db -> (AuthorizationStatus, AuditEntry) in
                    _ = try requireApp(appID, db)
                    let status: AuthorizationStatus =
                        switch try GrantStore.determination(appID, .share, type, at: now(), db) {
                        case .notDetermined: .notDetermined
                        case .granted: .sharingAuthorized
                        case .denied: .sharingDenied
                        }
                    return (status, entry(caller, .authorizationStatus, types: [type.identifier], requestID: requestID))
                }
            }
        }
    }

    /// Refuses what no request may ask (`invalidArgument`): nothing at all, a type the app's
    /// manifest does not declare, a type the vault's policy reserves, a correlation type. The
    /// status call refuses the same, so it never answers `shouldRequest` for a request that
    /// cannot be made.
    private func checkRequest(
        toShare share: Set<SampleType>,
        read: Set<ObjectType>,
        by appID: String,
        _ db: Connection
    )
        throws
    {
        let app = try requireApp(appID, db)
        guard !share.isEmpty || !read.isEmpty else {
            throw HealthError.invalidArgument("ask for at least one type to share or read", field: "read")
        }
        try GrantStore.policy(db).checkRequest(toShare: share, read: read, fieldPrefix: "")
        try Self.refuseTypeReadOfObjects(read)
        let undeclared =
            share.subtracting(app.declaredShare).map { "share \($0)" }.sorted()
            + read.subtracting(app.declaredRead).map { "read \($0)" }.sorted()
        guard undeclared.isEmpty else {
            throw HealthError.invalidArgument(
                "\(appID)'s manifest does not declare \(undeclared.joined(separator: ", ")); "
                    + "the owner enrolls it again with a manifest that does"
            )
        }
    }

    /// Refuses reading a vision prescription or document type by a type's grant: they are read
    /// object by object (docs/ACCESS_RULES.md, "Per-object reads"). Sharing them is by type.
    static func refuseTypeReadOfObjects(_ read: Set<ObjectType>, field: String = "read") throws(HealthError) {
        guard
            let type = read.sorted(by: VaultPolicy.identifierOrder).first(where: {
                $0.sampleType?.isReadPerObject == true
            })
        else { return }
        throw .invalidArgument(
            "\(type) is read object by object, never by a type's grant: an app asks with requestPerObjectReadAuthorization and the owner chooses the objects (healthvault objects)",
            field: field
        )
    }

    static func appID(of caller: Caller) throws(HealthError) -> String {
        guard case .app(let appID) = caller else {
            throw HealthError.invalidArgument("only an app asks for authorization; the owner decides")
        }
        return appID
    }

    // MARK: The owner's side

    /// The requests still waiting for the owner, oldest first (of one app, or of all).
    public func pendingRequests(of appID: String? = nil) async throws -> [AuthorizationRequest] {
        try await perform { [self] in try database.read { try GrantStore.pendingRequests(of: appID, $0) } }
    }

    /// Apps that asked again for permissions the owner had all decided, since the owner's last
    /// decision for each (of one app, or of all), by app id.
    public func repeatedRequests(of appID: String? = nil) async throws -> [RepeatedRequest] {
        try await perform { [self] in try database.read { try GrantStore.repeats(of: appID, $0) } }
    }

    /// Grants, denies or revokes one permission of an app for each of `types`, recorded as one
    /// audit entry carrying the permission's new state (a grant's window and expiry as its
    /// attributes: docs/AUDIT_LOG.md, "Grants and their history"). A grant replaces whatever the
    /// permission was, its terms included: granting again without a window reads everything.
    /// Refused: an unknown app, a type the app's manifest does not declare for this access,
    /// sharing a type the policy reserves, a correlation type; terms with a denial or a
    /// revocation, a window on sharing or on a characteristic, a window that shows nothing, an
    /// expiry not in the future.
    public func decide(
        _ decision: Decision,
        _ access: Access,
        of types: Set<ObjectType>,
        for appID: String,
        terms: GrantTerms = .none
    ) async throws {
        let next = try await perform { [self] in
            try audited(.owner, decision.operation(access), types: types.sortedIdentifiers, requestID: appID) {
                guard !types.isEmpty else {
                    throw HealthError.invalidArgument("name at least one type", field: "types")
                }
                let now = Self.millisecond(now())
                let terms = try Self.checkTerms(terms, decision, access, of: types, at: now)
                return try database.write { db in
                    guard let app = try GrantStore.registration(appID, db) else {
                        throw HealthError.invalidArgument("no app \(appID) is enrolled", field: "app")
                    }
                    try decide(
                        decision,
                        access,
                        of: types,
                        for: app,
                        terms: terms,
                        at: now,
                        policy: GrantStore.policy(db),
                        in: db
                    )
                    return try GrantStore.nextExpiry(db)
                }
            }
        }
        armExpiryTimer(next: next)
        await refreshActivitySummaries(nil, apps: [appID])
    }

    /// Refuses terms `decision` cannot take for `access` of `types` now (`invalidArgument`), as
    /// ``decide(_:_:of:for:terms:)`` would, before anything is decided.
    public func checkTerms(
        _ terms: GrantTerms,
        _ decision: Decision,
        _ access: Access,
        of types: Set<ObjectType>
    ) throws {
        _ = try Self.checkTerms(terms, decision, access, of: types, at: Self.millisecond(now()))
    }

    /// Refuses terms a decision cannot take (`invalidArgument`); returns them to the millisecond,
    /// as the audit log keeps instants, so the log replays exactly what the engine applies.
    static func checkTerms(
        _ terms: GrantTerms,
        _ decision: Decision,
        _ access: Access,
        of types: Set<ObjectType>,
        at now: Date
    ) throws -> GrantTerms {
        guard !terms.isEmpty else { return terms }
        guard decision == .grant else {
            throw HealthError.invalidArgument(
                "a window or an expiry goes with a grant; to \(decision) a permission, give neither",
                field: "terms"
            )
        }
        var checked = GrantTerms()
        if let window = terms.window {
            guard access == .read else {
                throw HealthError.invalidArgument(
                    "a window limits what an app reads; a share grant takes only an expiry",
                    field: "window"
                )
            }
            if let type = types.sortedByIdentifier().first(where: {
                if case .characteristic = $0 { true } else { false }
            }) {
                throw HealthError.invalidArgument(
                    "\(type) is a characteristic, without dates, so a window cannot limit it; grant it apart, without one",
                    field: "window"
                )
            }
            switch window {
            case .fixed(let start, let end):
                checked.window = .fixed(start: start.map(millisecond), end: end.map(millisecond))
            case .last(let seconds):
                guard seconds.rounded() == seconds else {
                    throw HealthError.invalidArgument("a rolling window lasts whole seconds", field: "window")
                }
                checked.window = window
            case .sinceGrant:
                checked.window = window
            }
            try checked.window?.validate()
        }
        if let expiry = terms.expiresAt {
            let expiry = millisecond(expiry)
            guard expiry > now else {
                throw HealthError.invalidArgument(
                    "the expiry \(AuditEntry.attributeTime(expiry)) is not in the future; give a later one",
                    field: "expiresAt"
                )
            }
            checked.expiresAt = expiry
        }
        return checked
    }

    /// The instant to the millisecond (below it), as the audit log writes instants.
    static func millisecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    /// A decision's new state as its entry's attributes (docs/AUDIT_LOG.md, "Attributes"): a
    /// grant's window and expiry; nothing for a plain grant, a denial or a revocation.
    static func attributes(_ terms: GrantTerms, grantedAt: Date) -> [String: String] {
        var attributes: [String: String] = [:]
        switch terms.window {
        case .none:
            break
        case .fixed(let start, let end):
            attributes["window"] = "fixed"
            attributes["window-start"] = start.map(AuditEntry.attributeTime)
            attributes["window-end"] = end.map(AuditEntry.attributeTime)
        case .last(let seconds):
            attributes["window"] = "last"
            attributes["window-seconds"] = String(Int64(seconds))
        case .sinceGrant:
            attributes["window"] = "since-grant"
            attributes["window-start"] = AuditEntry.attributeTime(grantedAt)
        }
        attributes["expires"] = terms.expiresAt.map(AuditEntry.attributeTime)
        return attributes
    }

    /// Records one decision and its entry inside the write transaction `db`.
    private func decide(
        _ decision: Decision,
        _ access: Access,
        of types: Set<ObjectType>,
        for app: AppRegistration,
        terms: GrantTerms = .none,
        at now: Date,
        policy: VaultPolicy,
        in db: Connection
    ) throws {
        if decision == .grant {
            try checkGrantable(types, access, for: app, policy: policy)
        }
        try GrantStore.decide(
            app.appID,
            access,
            types.sorted(by: VaultPolicy.identifierOrder),
            granted: decision == .grant,
            terms: terms,
            at: now,
            by: Caller.owner.description,
            db
        )
        try append(
            entry(
                .owner,
                decision.operation(access),
                types: types.sortedIdentifiers,
                requestID: app.appID,
                attributes: decision == .grant ? Self.attributes(terms, grantedAt: now) : [:]
            ),
            in: db
        )
    }

    /// Only what the app declared, and nothing the policy forbids, can be granted.
    private func checkGrantable(
        _ types: Set<ObjectType>,
        _ access: Access,
        for app: AppRegistration,
        policy: VaultPolicy
    )
        throws
    {
        let share = access == .share ? Set(types.compactMap(\.sampleType)) : []
        if access == .share, let type = types.first(where: { $0.sampleType == nil }) {
            throw HealthError.invalidArgument(
                "\(type) is not a sample type; only samples can be shared",
                field: "types"
            )
        }
        try policy.checkRequest(toShare: share, read: access == .read ? types : [], fieldPrefix: "")
        if access == .read { try Self.refuseTypeReadOfObjects(types, field: "types") }
        let declared: Set<ObjectType> =
            access == .read ? app.declaredRead : Set(app.declaredShare.map(ObjectType.init))
        let undeclared = types.subtracting(declared)
        guard undeclared.isEmpty else {
            throw HealthError.invalidArgument(
                "\(app.appID)'s manifest does not declare \(access == .read ? "reading" : "sharing") "
                    + undeclared.sortedIdentifiers.joined(separator: ", "),
                field: "types"
            )
        }
    }

    /// Approves a whole pending request: every type in it gets the permission asked for, except
    /// types the policy keeps for an explicit decision, which stay pending. Returns the request
    /// as it stands afterwards (what still waits), or nil when nothing does.
    @discardableResult
    public func approveRequest(_ id: Int64) async throws -> AuthorizationRequest? {
        try await decideRequest(id, .grant)
    }

    /// Denies every type still pending in a request.
    public func denyRequest(_ id: Int64) async throws {
        _ = try await decideRequest(id, .deny)
    }

    /// Decides every type still pending in request `id` in one transaction (one entry per
    /// permission), and returns what still waits.
    /// A refusal is an `authorization.grant` (or `.deny`) entry with outcome `error`, its request
    /// id naming the request (`request 7`).
    private func decideRequest(_ id: Int64, _ decision: Decision) async throws -> AuthorizationRequest? {
        let operation: AuditEntry.Operation = decision == .grant ? .authorizationGrant : .authorizationDeny
        let (waiting, appID) = try await perform { [self] in
            try audited(.owner, operation, types: [], requestID: "request \(id)") {
                try decideRequest(id, decision)
            }
        }
        await refreshActivitySummaries(nil, apps: [appID])
        return waiting
    }

    private func decideRequest(_ id: Int64, _ decision: Decision) throws -> (AuthorizationRequest?, String) {
        try database.write { db -> (AuthorizationRequest?, String) in
            // A request to read object by object: denied, it is answered with no object; it is
            // never approved whole (the owner chooses its objects).
            if try ObjectGrantStore.isObjectRequest(id, db) {
                guard decision == .deny else {
                    throw HealthError.invalidArgument(
                        "request \(id) asks to read objects one by one: choose them with healthvault objects grant, or deny it",
                        field: "request"
                    )
                }
                return (nil, try denyObjectRequest(id, db))
            }
            guard let appID = try GrantStore.appID(ofRequest: id, db),
                let app = try GrantStore.registration(appID, db)
            else {
                throw HealthError.invalidArgument("there is no request \(id)", field: "request")
            }
            guard let request = try GrantStore.pendingRequests(of: appID, id: id, db).first else {
                throw HealthError.invalidArgument("request \(id) has nothing left to decide", field: "request")
            }
            let policy = try GrantStore.policy(db)
            let explicit = decision == .grant ? policy.explicitDecision : []
            let now = Self.millisecond(now())
            for access in Access.allCases {
                let types = Set(request[access]).subtracting(explicit)
                if !types.isEmpty {
                    try decide(decision, access, of: types, for: app, at: now, policy: policy, in: db)
                }
            }
            return (try GrantStore.pendingRequests(of: appID, id: id, db).first, appID)
        }
    }

    // MARK: Policy

    /// The vault's access policy (``VaultPolicy/standard`` until the owner sets one).
    public func policy() async throws -> VaultPolicy {
        try await perform { [self] in try database.read { try GrantStore.policy($0) } }
    }

    /// Replaces the vault's access policy. Decisions already made stay as they are.
    public func setPolicy(_ policy: VaultPolicy) async throws {
        try await perform { [self] in
            try audited(.owner, .policySet, types: [], requestID: "") {
                // Stored only in a form that reads back: the file's rules apply to code too.
                _ = try VaultPolicy(json: policy.jsonData(), file: "the policy to set")
                try database.write { db in
                    try GrantStore.setPolicy(policy, db)
                    try append(entry(.owner, .policySet, requestID: ""), in: db)
                }
            }
        }
    }
}
