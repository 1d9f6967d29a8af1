import AuditLog
public import Foundation
import HealthModel
import Synchronization
import VaultStore

extension VaultEngine {
    /// Writes every expiry whose instant has come (at the engine's `now`): each grant becomes
    /// denied from its expiry on, recorded as `authorization.expire-read` or `-share` (actor
    /// `system`; one entry per app, permission and instant, naming the types), its `expired`
    /// attribute the instant it took effect. Then the timer is armed for the next expiry, and
    /// the apps' running activity summary queries answer again. Returns how many grants expired.
    ///
    /// The engine calls it itself when an expiry's instant comes and when it starts; a grant
    /// past its expiry is treated as revoked by every request before that too (docs/AUDIT_LOG.md,
    /// "Grants and their history").
    @discardableResult
    public func expireDueGrants() async throws -> Int {
        let (expired, next) = try await perform { [self] in try writeDueExpiries() }
        armExpiryTimer(next: next)
        if !expired.isEmpty { await refreshActivitySummaries(nil, apps: Set(expired.map(\.appID))) }
        return expired.count
    }

    /// ``expireDueGrants()``'s transaction, on the calling thread: the expiries written, and the
    /// next one still standing.
    func writeDueExpiries() throws -> (expired: [GrantStore.DueExpiry], next: Date?) {
        let now = now()
        return try database.write { db in
            let due = try GrantStore.dueExpiries(at: now, db)
            // One entry per app, permission and instant (grants made together expire together).
            var groups: [(key: GrantStore.DueExpiry, types: [ObjectType])] = []
            for expiry in due {
                try GrantStore.expire(expiry, db)
                if let last = groups.last, last.key.appID == expiry.appID, last.key.access == expiry.access,
                    last.key.expiresAt == expiry.expiresAt
                {
                    groups[groups.count - 1].types.append(expiry.type)
                } else {
                    groups.append((expiry, [expiry.type]))
                }
            }
            for (key, types) in groups {
                try append(
                    AuditEntry(
                        time: now,
                        actor: .system,
                        operation: key.access == .read ? .authorizationExpireRead : .authorizationExpireShare,
                        types: types.sortedIdentifiers,
                        outcome: .ok,
                        requestID: key.appID,
                        attributes: ["expired": AuditEntry.attributeTime(key.expiresAt)]
                    ),
                    in: db
                )
            }
            return (due, try GrantStore.nextExpiry(db))
        }
    }

    /// Arms the timer for the expiry at `next` (none: disarms it): at that instant the engine
    /// writes it (``expireDueGrants()``). It wakes at least hourly to look again, so a clock
    /// changed meanwhile cannot make it late by more than that.
    func armExpiryTimer(next: Date?) {
        expiryTimer.withLock { task in
            task?.cancel()
            task = nil
            guard let next, !isShutDown else { return }
            let delay = min(max(0, next.timeIntervalSince(now())), 3600)
            task = Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(Int64((delay * 1000).rounded(.up)) + 1))
                guard !Task.isCancelled, let self, !self.isShutDown else { return }
                if self.now() >= next {
                    if (try? await self.expireDueGrants()) == nil {
                        // Not written (the audit log failed): again in a minute. Requests treat the
                        // grant as expired meanwhile.
                        self.armExpiryTimer(next: self.now().addingTimeInterval(60))
                    }
                } else {
                    self.armExpiryTimer(next: next)
                }
            }
        }
    }
}
