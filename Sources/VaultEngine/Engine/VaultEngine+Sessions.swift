public import AuditLog
public import Foundation
public import HealthModel
import VaultStore

extension VaultEngine {
    /// Records a refused authentication (`authentication.failure`, `denied`): by the app it
    /// claimed to be when that is a well-formed app id, else by the system. `requestID` names the
    /// connection. Never says why: the auditor sees that it failed, the claimant learns nothing.
    public func recordAuthenticationFailure(claimedApp: String?, requestID: String) async throws {
        var actor = AuditEntry.Actor.system
        if let claimedApp, (try? AppID.validate(claimedApp)) != nil { actor = .app(claimedApp) }
        let failure = AuditEntry(
            time: now(),
            actor: actor,
            operation: .authenticationFailure,
            outcome: .denied,
            requestID: requestID
        )
        try await perform { [self] in try record(failure) }
    }

    /// Records an owner's session opened or closed (`session.open`, `session.close`: owner, no
    /// types, count 0, `ok`), durable when this returns; the token is never part of it.
    public func recordOwnerSession(_ operation: AuditEntry.Operation, requestID: String) async throws {
        let entry = AuditEntry(time: now(), actor: .owner, operation: operation, outcome: .ok, requestID: requestID)
        try await perform { [self] in try record(entry) }
    }

    /// The audit log's entries that match `filter`, the newest `limit` of them, oldest first, and
    /// how many entries the log holds in all.
    public func auditEntries(
        matching filter: AuditEntryFilter,
        limit: Int
    ) async throws -> (
        entries: [AuditEntry], total: UInt64
    ) {
        try await perform { [self] in
            try database.read { db in
                let log = vault.auditLog(in: db)
                return (try log.newestEntries(limit: max(limit, 0), where: filter.matches), try log.size())
            }
        }
    }

    /// Writes the whole audit log as an export directory (docs/AUDIT_LOG.md), recording the
    /// export; returns the checkpoint it ends with.
    public func exportAuditLog(to directory: URL) async throws -> SignedCheckpoint {
        try await perform { [self] in
            do {
                return try vault.exportAuditLog(to: directory, actor: .owner)
            } catch let error as StoreError {
                throw HealthError(.invalidArgument, "cannot export the audit log: \(error)")
            }
        }
    }

    /// How many entries the audit log holds.
    public func auditLogSize() async throws -> UInt64 {
        try await perform { [self] in try database.read { try vault.auditLog(in: $0).size() } }
    }

    /// How many apps are enrolled and how many requests wait, for the owner's status.
    public func counts() async throws -> (apps: Int, pendingRequests: Int) {
        async let apps = apps()
        async let requests = pendingRequests()
        return (try await apps.count, try await requests.count)
    }
}
