import Foundation
import HealthModel
import VaultStore

/// The owner's choices of objects per app, and the apps' requests to read a type object by
/// object (schema 16's `object_grants` and `object_requests`), read and written inside a
/// transaction the engine holds, so a choice and its audit entry commit together.
enum ObjectGrantStore {
    /// The objects an app may read now, by type.
    static func readableObjects(_ appID: String, _ db: Connection) throws -> [SampleType: Set<UUID>] {
        var objects: [SampleType: Set<UUID>] = [:]
        for row in try db.statement(
            "SELECT type, uuid FROM object_grants WHERE app_id = ? AND revoked_seq IS NULL"
        ).rows([appID]) {
            guard let type = try? SampleType(identifier: row[0].string ?? ""),
                let uuid = row[1].uuid
            else { continue }
            objects[type, default: []].insert(uuid)
        }
        return objects
    }

    /// Whether the app may read the object now.
    static func isReadable(_ uuid: UUID, by appID: String, _ db: Connection) throws -> Bool {
        try db.scalarInt(
            "SELECT count(*) FROM object_grants WHERE app_id = ? AND uuid = ? AND revoked_seq IS NULL",
            [DatabaseValue.text(appID), .uuid(uuid)]
        ) == 1
    }

    /// Lets the app read the object from change position `sequence` on; false when it already
    /// may (its position then stays).
    static func grant(
        _ uuid: UUID,
        of type: SampleType,
        to appID: String,
        at sequence: Int64,
        on date: Date,
        _ db: Connection
    ) throws -> Bool {
        try db.execute(
            """
            INSERT INTO object_grants (app_id, uuid, type, granted_seq, revoked_seq, decided_at)
            VALUES (?, ?, ?, ?, NULL, ?)
            ON CONFLICT (app_id, uuid) DO UPDATE SET type = excluded.type, granted_seq = excluded.granted_seq,
                revoked_seq = NULL, decided_at = excluded.decided_at
            WHERE object_grants.revoked_seq IS NOT NULL
            """,
            [
                DatabaseValue.text(appID), .uuid(uuid), .text(type.identifier), .integer(sequence),
                .real(date.timeIntervalSinceReferenceDate),
            ]
        )
        return db.changes > 0
    }

    /// Takes the object back from change position `sequence` on (the row stays, so an anchored
    /// query tells the app it went); false when the app may not read it.
    static func revoke(
        _ uuid: UUID,
        from appID: String,
        at sequence: Int64,
        on date: Date,
        _ db: Connection
    ) throws
        -> Bool
    {
        try db.execute(
            """
            UPDATE object_grants SET revoked_seq = ?, decided_at = ?
            WHERE app_id = ? AND uuid = ? AND revoked_seq IS NULL
            """,
            [
                DatabaseValue.integer(sequence), .real(date.timeIntervalSinceReferenceDate), .text(appID),
                .uuid(uuid),
            ]
        )
        return db.changes > 0
    }

    /// The type of the chosen object `uuid` of the app (chosen now or before).
    static func chosenType(_ uuid: UUID, of appID: String, _ db: Connection) throws -> SampleType? {
        try db.scalarText(
            "SELECT type FROM object_grants WHERE app_id = ? AND uuid = ?",
            [DatabaseValue.text(appID), .uuid(uuid)]
        ).flatMap { try? SampleType(identifier: $0) }
    }

    /// The apps that may read one of the objects deleted after change position `sequence`, by the
    /// objects' types: they are told of the deletion as of their own samples'.
    static func holders(ofObjectsDeletedAfter sequence: Int64, _ db: Connection) throws -> [SampleType: Set<String>] {
        var holders: [SampleType: Set<String>] = [:]
        for row in try db.rows(
            """
            SELECT DISTINCT g.type, g.app_id FROM tombstones t INDEXED BY tombstones_by_uuid
            JOIN object_grants g INDEXED BY object_grants_by_uuid ON g.uuid = t.uuid
            WHERE t.seq > ? AND g.revoked_seq IS NULL AND g.granted_seq < t.seq
            """,
            [sequence]
        ) {
            guard let type = try? SampleType(identifier: row[0].string ?? ""), let appID = row[1].string else {
                continue
            }
            holders[type, default: []].insert(appID)
        }
        return holders
    }

    // MARK: Requests

    /// Records an app's request to read `type` object by object, unless one of the type is still
    /// waiting (its predicate then becomes this one); returns the request's number.
    static func addRequest(
        _ appID: String,
        type: SampleType,
        predicate: SamplePredicate?,
        at date: Date,
        _ db: Connection
    ) throws -> Int64 {
        let json = try predicate.map { String(decoding: try HealthJSON.encode($0), as: UTF8.self) }
        if let waiting = try db.scalarInt(
            """
            SELECT o.request_id FROM object_requests o JOIN authorization_requests r ON r.id = o.request_id
            WHERE r.app_id = ? AND o.type = ? AND o.answered_at IS NULL
            """,
            [appID, type.identifier]
        ) {
            try db.execute(
                "UPDATE object_requests SET predicate = ? WHERE request_id = ?",
                [json.map(DatabaseValue.text) ?? .null, .integer(waiting)]
            )
            return waiting
        }
        try db.execute(
            "INSERT INTO authorization_requests (app_id, requested_at) VALUES (?, ?)",
            [appID, date.timeIntervalSinceReferenceDate]
        )
        let id = db.lastInsertRowID
        try db.execute(
            "INSERT INTO object_requests (request_id, type, predicate) VALUES (?, ?, ?)",
            [DatabaseValue.integer(id), .text(type.identifier), json.map(DatabaseValue.text) ?? .null]
        )
        return id
    }

    /// The requests to read object by object still waiting for the owner, oldest first; of one
    /// app, or of every app; or the one numbered `id`.
    static func pendingRequests(of appID: String?, id: Int64? = nil, _ db: Connection) throws -> [ObjectRequest] {
        var sql = """
            SELECT r.id, r.app_id, r.requested_at, o.type, o.predicate FROM object_requests o
            JOIN authorization_requests r ON r.id = o.request_id WHERE o.answered_at IS NULL
            """
        var arguments: [DatabaseValue] = []
        if let appID {
            sql += " AND r.app_id = ?"
            arguments.append(.text(appID))
        }
        if let id {
            sql += " AND r.id = ?"
            arguments.append(.integer(id))
        }
        return try db.rows(sql + " ORDER BY r.id", arguments).compactMap { row in
            guard let id = row[0].int64, let type = try? SampleType(identifier: row[3].string ?? "") else {
                return nil
            }
            return ObjectRequest(
                id: id,
                appID: row[1].string ?? "",
                requestedAt: Date(timeIntervalSinceReferenceDate: row[2].double ?? 0),
                type: type,
                predicate: try row[4].string.map { try HealthJSON.decode(SamplePredicate.self, from: Data($0.utf8)) }
            )
        }
    }

    /// Whether request `id` is a request to read object by object (answered or not).
    static func isObjectRequest(_ id: Int64, _ db: Connection) throws -> Bool {
        try db.scalarInt("SELECT count(*) FROM object_requests WHERE request_id = ?", [id]) == 1
    }

    /// Marks the app's waiting requests of `type` (or request `id` alone) answered; returns their numbers.
    @discardableResult
    static func answer(
        _ appID: String,
        type: SampleType?,
        id: Int64? = nil,
        at date: Date,
        _ db: Connection
    ) throws
        -> [Int64]
    {
        let waiting = try pendingRequests(of: appID, id: id, db).filter { type == nil || $0.type == type }
        for request in waiting {
            try db.execute(
                "UPDATE object_requests SET answered_at = ? WHERE request_id = ?",
                [date.timeIntervalSinceReferenceDate, request.id]
            )
        }
        return waiting.map(\.id)
    }
}
