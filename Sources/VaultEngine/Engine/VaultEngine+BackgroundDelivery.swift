import AuditLog
public import Foundation
public import HealthModel
import VaultStore

/// An app's background delivery of one type (HealthKit's `enableBackgroundDelivery`): the
/// changes to the type it may see are counted as they commit, and stay pending until it
/// acknowledges them, across reconnections and restarts.
public struct BackgroundDelivery: Hashable, Sendable {
    public let type: SampleType
    public let frequency: UpdateFrequency
    /// The visible changes counted since delivery was enabled.
    public let changes: Int64
    /// How many of them the app has acknowledged.
    public let acknowledged: Int64

    /// Changes the app has not acknowledged: it is told of them when it next observes the type.
    public var isPending: Bool { changes > acknowledged }
}

extension VaultEngine {
    /// Enables background delivery of `type` for an app at `frequency` (again: a new frequency,
    /// and what is pending stays pending). Any type may be named, read or not, with the same
    /// answer: what it brings is only ever what the app may see.
    public func enableBackgroundDelivery(
        for type: SampleType,
        frequency: UpdateFrequency,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        let appID = try Self.appOnly(caller, "background delivery")
        try await perform { [self] in
            try audited(caller, .backgroundEnable, types: [type.identifier], requestID: requestID) {
                try database.write { db in
                    _ = try requireApp(appID, db)
                    try db.execute(
                        """
                        INSERT INTO background_deliveries (app_id, type, frequency, enabled_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (app_id, type) DO UPDATE SET frequency = excluded.frequency
                        """,
                        [
                            appID, type.identifier, frequency.rawValue,
                            Date().timeIntervalSinceReferenceDate,
                        ]
                    )
                    try append(
                        entry(caller, .backgroundEnable, types: [type.identifier], count: 1, requestID: requestID),
                        in: db
                    )
                }
            }
        }
    }

    /// Disables background delivery of `types` (every type when nil) for an app; what was
    /// pending is forgotten. Types without it are left alone, with the same answer.
    public func disableBackgroundDelivery(
        for types: Set<SampleType>?,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        let appID = try Self.appOnly(caller, "background delivery")
        let named = types?.sortedIdentifiers ?? []
        try await perform { [self] in
            try audited(caller, .backgroundDisable, types: named, requestID: requestID) {
                try database.write { db in
                    _ = try requireApp(appID, db)
                    var recorded = named
                    if types == nil {
                        recorded = try db.rows(
                            "SELECT type FROM background_deliveries WHERE app_id = ? ORDER BY type",
                            [appID]
                        ).compactMap { $0[0].string }
                        try db.execute("DELETE FROM background_deliveries WHERE app_id = ?", [appID])
                    } else {
                        try db.execute(
                            "DELETE FROM background_deliveries WHERE app_id = ? AND type IN (SELECT value FROM json_each(?))",
                            [appID, DatabaseValue.jsonArray(named)]
                        )
                    }
                    try append(
                        entry(caller, .backgroundDisable, types: recorded, count: recorded.count, requestID: requestID),
                        in: db
                    )
                }
            }
        }
    }

    /// The caller's background deliveries among `types`, by type (none for the owner). Reading
    /// them is no access to health data, so it is not audited.
    public func backgroundDeliveries(
        of types: Set<SampleType>,
        as caller: Caller
    ) async throws
        -> [SampleType: BackgroundDelivery]
    {
        guard case .app(let appID) = caller, !types.isEmpty else { return [:] }
        return try await perform { [self] in
            try database.read { db in
                var deliveries: [SampleType: BackgroundDelivery] = [:]
                for row in try db.rows(
                    """
                    SELECT type, frequency, changes, acknowledged FROM background_deliveries
                    WHERE app_id = ? AND type IN (SELECT value FROM json_each(?))
                    """,
                    [appID, DatabaseValue.jsonArray(types.sortedIdentifiers)]
                ) {
                    guard let identifier = row[0].string, let type = try? SampleType(identifier: identifier),
                        let frequency = row[1].string.flatMap(UpdateFrequency.init(rawValue:))
                    else { continue }
                    deliveries[type] = BackgroundDelivery(
                        type: type,
                        frequency: frequency,
                        changes: row[2].int64 ?? 0,
                        acknowledged: row[3].int64 ?? 0
                    )
                }
                return deliveries
            }
        }
    }

    /// Records that the app has handled the changes counted up to `counts` (from
    /// ``backgroundDeliveries(of:as:)`` when it was told): they are no longer pending. An
    /// acknowledgement never goes back, nor past what was counted.
    public func acknowledgeBackgroundDelivery(_ counts: [SampleType: Int64], as caller: Caller) async throws {
        let appID = try Self.appOnly(caller, "background delivery")
        guard !counts.isEmpty else { return }
        try await perform { [self] in
            try database.write { db in
                for (type, count) in counts {
                    try db.execute(
                        """
                        UPDATE background_deliveries SET acknowledged = max(acknowledged, min(?, changes))
                        WHERE app_id = ? AND type = ?
                        """,
                        [count, appID, type.identifier]
                    )
                }
            }
        }
    }

    /// Counts a committed change, inside its own write transaction, for every app with
    /// background delivery of a changed type that may see it: its own samples, or a type it may
    /// read at this moment (within its window, when it has one: a change inside it).
    func countBackgroundChanges(_ changes: SampleChanges, _ db: Connection) throws {
        guard !changes.isEmpty else { return }
        let byIdentifier = Dictionary(uniqueKeysWithValues: changes.sources.map { ($0.key.identifier, $0.key) })
        let registrations = try db.rows(
            "SELECT app_id, type FROM background_deliveries WHERE type IN (SELECT value FROM json_each(?))",
            [DatabaseValue.jsonArray(byIdentifier.keys.sorted())]
        )
        var scopes: [String: ReadScope] = [:]
        for row in registrations {
            guard let appID = row[0].string, let identifier = row[1].string, let type = byIdentifier[identifier]
            else { continue }
            if scopes[appID] == nil { scopes[appID] = try readScope(of: appID, db) }
            guard let scope = scopes[appID], try sees(type, of: changes, scope: scope, db) else { continue }
            try db.execute(
                "UPDATE background_deliveries SET changes = changes + 1 WHERE app_id = ? AND type = ?",
                [appID, identifier]
            )
        }
    }

    static func appOnly(_ caller: Caller, _ what: String) throws(HealthError) -> String {
        guard case .app(let appID) = caller else {
            throw HealthError(.invalidArgument, "\(what) is an app's; the owner has none")
        }
        return appID
    }
}
