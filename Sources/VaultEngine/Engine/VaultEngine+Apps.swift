public import AuditLog
public import Foundation
public import HealthModel
public import VaultCrypto
import VaultStore

extension VaultEngine {
    /// Enrolls an app: it can then connect with its key and ask for what it declared. Refused
    /// (`invalidArgument`, naming the field): a malformed registration, a declaration the vault's
    /// policy forbids, an app id already enrolled. Returns the registration as stored.
    ///
    /// An app owns the samples saved under its app id: it reads and deletes them without a read
    /// grant. When the vault already holds samples under this id (an app removed and enrolled
    /// again, or samples imported from that source), the owner must say so with
    /// `adoptingExistingSamples`, or the enrolment is refused: a new key never quietly inherits
    /// data.
    @discardableResult
    public func enroll(
        _ registration: AppRegistration,
        adoptingExistingSamples: Bool = false
    ) async throws
        -> AppRegistration
    {
        try await perform { [self] in
            try audited(.owner, .appEnroll, types: [], requestID: registration.appID) {
                try database.write { db in
                    try registration.validate(policy: GrantStore.policy(db))
                    // What the vault already holds, not what the registration says: no field, so
                    // no manifest key is blamed (``enroll(manifest:publicKey:adoptingExistingSamples:)``).
                    guard try GrantStore.registration(registration.appID, db) == nil else {
                        throw HealthError(
                            .invalidArgument,
                            "\(registration.appID) is already enrolled; to enroll it again, remove it first "
                                + "(`healthvault apps remove \(registration.appID)`)"
                        )
                    }
                    if !adoptingExistingSamples, try GrantStore.holdsSamples(of: registration.appID, db) {
                        throw HealthError(
                            .invalidArgument,
                            "the vault already holds samples saved as \(registration.appID), which enrolling it lets "
                                + "the app read and delete; enroll it adopting them (`healthvault apps enroll "
                                + "--adopt-existing-samples`), or delete them first"
                        )
                    }
                    var stored = registration
                    // Whole milliseconds, as the audit entry that records it.
                    stored.enrolledAt = Date(
                        timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000
                    )
                    try GrantStore.insert(stored, db)
                    let declared = Set(registration.declaredRead).union(registration.declaredShare.map(ObjectType.init))
                    try append(
                        entry(.owner, .appEnroll, types: declared.sortedIdentifiers, requestID: registration.appID),
                        in: db
                    )
                    return stored
                }
            }
        }
    }

    /// Enrolls an app from its manifest (`policies/apps/<id>.json`) with `publicKey`, or the key
    /// the manifest carries. Problems with the manifest are `PolicyError`s naming its file and key;
    /// a refusal because of what the vault holds (the app already enrolled, samples saved under
    /// its id) is the `invalidArgument` it is, naming the app, not the file.
    @discardableResult
    public func enroll(
        manifest: AppManifest,
        publicKey: Ed25519.PublicKey? = nil,
        adoptingExistingSamples: Bool = false
    ) async throws -> AppRegistration {
        guard let key = publicKey ?? manifest.publicKey else {
            throw PolicyError(
                file: manifest.file,
                key: "publicKey",
                problem: "is missing, and no key was given: generate one for the app and enroll with it"
            )
        }
        do {
            return try await enroll(
                manifest.registration(publicKey: key),
                adoptingExistingSamples: adoptingExistingSamples
            )
        } catch let error as HealthError where error.code == .invalidArgument && error.field != nil {
            throw PolicyError(file: manifest.file, key: error.field, problem: error.message)
        }
    }

    /// Removes an app with its grants and pending requests: it can no longer connect, and its
    /// next request is refused. The samples it saved stay in the vault (they are the owner's);
    /// the owner deletes them separately if wanted (enrolling the id again then needs
    /// `adoptingExistingSamples`).
    public func removeApp(_ appID: String) async throws {
        try await perform { [self] in
            try audited(.owner, .appRemove, types: [], requestID: appID) {
                try database.write { db in
                    guard try GrantStore.remove(appID, db) else {
                        throw HealthError.invalidArgument("no app \(appID) is enrolled", field: "app")
                    }
                    try append(entry(.owner, .appRemove, requestID: appID), in: db)
                }
            }
        }
        observers.finish(appID: appID)
        activityWatches.finish(appID: appID)
        // Its workout session went with its rows (ON DELETE CASCADE); its followers hear so.
        if let session = workoutSessions.session(of: appID) {
            workoutSessions.remove(
                session.id,
                last: .failed(HealthError(.authorizationDenied, "\(appID) is not enrolled in this vault"))
            )
        }
        heartbeatSeriesBuilders.discardAll(appID: appID)
        quantitySeriesBuilders.discardAll(appID: appID)
    }

    /// Every enrolled app, by app id.
    public func apps() async throws -> [AppRegistration] {
        try await perform { [self] in try database.read { try GrantStore.registrations($0) } }
    }

    /// One enrolled app, or nil (the daemon looks up an app's key here when it connects).
    public func app(_ appID: String) async throws -> AppRegistration? {
        try await perform { [self] in try database.read { try GrantStore.registration(appID, $0) } }
    }

    /// The enrolled app's Ed25519 public key bytes, or nil: the lookup of authentication, which
    /// does the same work whether the app is enrolled or not.
    public func appPublicKey(_ appID: String) async throws -> [UInt8]? {
        try await perform { [self] in try database.read { try GrantStore.publicKey(appID, $0) } }
    }

    /// What the owner sees of an app: its purposes and key, both permissions for every type it
    /// declared or holds a decision for (with when and by whom), and its pending requests.
    public func grants(of appID: String) async throws -> AppGrants {
        try await perform { [self] in
            try database.read { db in
                guard let app = try GrantStore.registration(appID, db) else {
                    throw HealthError.invalidArgument("no app \(appID) is enrolled", field: "app")
                }
                var grants = try GrantStore.grants(appID, at: now(), db)
                for type in app.declaredRead.union(app.declaredShare.map(ObjectType.init)) where grants[type] == nil {
                    grants[type] = TypeGrant(type: type)
                }
                return AppGrants(
                    app: app,
                    grants: grants.values.sorted { VaultPolicy.identifierOrder($0.type, $1.type) },
                    pendingRequests: try GrantStore.pendingRequests(of: appID, db)
                )
            }
        }
    }
}
