import Foundation
import HealthModel
import VaultStore

/// Asks again for what the owner decided (the table `authorization_repeats`, schema version 13).
extension GrantStore {
    /// Counts one more ask by `appID` for types all decided already.
    static func recordRepeat(
        _ appID: String,
        read: [ObjectType],
        share: [ObjectType],
        at date: Date,
        _ db: Connection
    )
        throws
    {
        try db.execute(
            """
            INSERT INTO authorization_repeats (app_id, first_at, last_at, times, read, share) VALUES (?, ?, ?, 1, ?, ?)
            ON CONFLICT (app_id) DO UPDATE SET last_at = excluded.last_at, times = times + 1,
                read = excluded.read, share = excluded.share
            """,
            [
                appID, date.timeIntervalSinceReferenceDate, date.timeIntervalSinceReferenceDate,
                json(read.map(\.identifier)), json(share.map(\.identifier)),
            ]
        )
    }

    /// The owner decided something for the app: its repeated asks have been answered.
    static func clearRepeats(_ appID: String, _ db: Connection) throws {
        try db.execute("DELETE FROM authorization_repeats WHERE app_id = ?", [appID])
    }

    /// Every app's repeated asks (or one app's), by app id.
    static func repeats(of appID: String?, _ db: Connection) throws -> [RepeatedRequest] {
        var sql = "SELECT app_id, first_at, last_at, times, read, share FROM authorization_repeats"
        var arguments: [any DatabaseValueConvertible] = []
        if let appID {
            sql += " WHERE app_id = ?"
            arguments.append(appID)
        }
        return try db.rows(sql + " ORDER BY app_id", arguments).map { row in
            RepeatedRequest(
                appID: row[0].string ?? "",
                firstAskedAt: Date(timeIntervalSinceReferenceDate: row[1].double ?? 0),
                lastAskedAt: Date(timeIntervalSinceReferenceDate: row[2].double ?? 0),
                times: Int(row[3].int64 ?? 0),
                read: identifiers(row[4].string).compactMap { try? ObjectType(identifier: $0) },
                share: identifiers(row[5].string).compactMap { try? ObjectType(identifier: $0) }
            )
        }
    }
}
