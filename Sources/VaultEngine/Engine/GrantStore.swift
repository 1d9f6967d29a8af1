import Foundation
import HealthModel
import VaultCrypto
import VaultStore

/// The engine's tables (apps, grants, authorization requests, settings; schema version 3) read
/// and written inside a transaction the engine holds, so a decision and its audit entry commit
/// together, and a query sees the grants of its own snapshot.
enum GrantStore {
    // MARK: Apps

    static func registration(_ appID: String, _ db: Connection) throws -> AppRegistration? {
        try db.statement(
            """
            SELECT app_id, display_name, public_key, read_purpose, share_purpose, declared_read, declared_share,
                enrolled_at, type_purposes FROM apps WHERE app_id = ?
            """
        ).rows([appID]).first.map(registration)
    }

    /// The enrolled app's public key bytes alone: what authentication needs, read with as little
    /// work for a known app as for an unknown one.
    static func publicKey(_ appID: String, _ db: Connection) throws -> [UInt8]? {
        try db.statement("SELECT public_key FROM apps WHERE app_id = ?").rows([appID]).first?[0].bytes
    }

    static func registrations(_ db: Connection) throws -> [AppRegistration] {
        try db.rows(
            """
            SELECT app_id, display_name, public_key, read_purpose, share_purpose, declared_read, declared_share,
                enrolled_at, type_purposes FROM apps ORDER BY app_id
            """
        ).map(registration)
    }

    private static func registration(_ row: Row) throws -> AppRegistration {
        AppRegistration(
            appID: row[0].string ?? "",
            displayName: row[1].string ?? "",
            publicKey: try Ed25519.PublicKey(rawRepresentation: row[2].bytes ?? []),
            readPurpose: row[3].string ?? "",
            sharePurpose: row[4].string ?? "",
            declaredRead: Set(identifiers(row[5].string).compactMap { try? ObjectType(identifier: $0) }),
            declaredShare: Set(identifiers(row[6].string).compactMap { try? SampleType(identifier: $0) }),
            typePurposes: typePurposes(row[8].string),
            enrolledAt: Date(timeIntervalSinceReferenceDate: row[7].double ?? 0)
        )
    }

    /// `type_purposes` (schema version 14): a JSON object from identifiers to purposes, or NULL.
    private static func typePurposes(_ json: String?) -> [ObjectType: String] {
        guard let json, let object = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8)) else {
            return [:]
        }
        var purposes: [ObjectType: String] = [:]
        for (identifier, purpose) in object {
            if let type = try? ObjectType(identifier: identifier) { purposes[type] = purpose }
        }
        return purposes
    }

    private static func typePurposesJSON(_ purposes: [ObjectType: String]) -> String? {
        guard !purposes.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let object = Dictionary(uniqueKeysWithValues: purposes.map { ($0.key.identifier, $0.value) })
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) }
    }

    static func insert(_ app: AppRegistration, _ db: Connection) throws {
        try db.execute(
            """
            INSERT INTO apps (app_id, display_name, public_key, read_purpose, share_purpose, declared_read,
                declared_share, enrolled_at, type_purposes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                app.appID, app.displayName, DatabaseValue.blob(app.publicKey.rawRepresentation), app.readPurpose,
                app.sharePurpose, json(app.declaredRead.map(\.identifier)), json(app.declaredShare.map(\.identifier)),
                app.enrolledAt.timeIntervalSinceReferenceDate,
                typePurposesJSON(app.typePurposes).map(DatabaseValue.text) ?? DatabaseValue.null,
            ]
        )
    }

    /// Whether any sample in the vault was saved under this app id.
    static func holdsSamples(of appID: String, _ db: Connection) throws -> Bool {
        try db.scalarInt(
            "SELECT EXISTS (SELECT 1 FROM samples WHERE source_id = (SELECT id FROM sources WHERE bundle_id = ?))",
            [appID]
        ) == 1
    }

    /// Removes the app with its grants and requests (the tables cascade); false when unknown.
    static func remove(_ appID: String, _ db: Connection) throws -> Bool {
        try db.execute("DELETE FROM apps WHERE app_id = ?", [appID])
        return db.changes > 0
    }

    // MARK: Grants

    /// Who an expired grant's denial names as its author (``Determination/denied(at:by:)``).
    static let expiry = "expiry"

    /// The decision in force at `now`: a grant whose expiry has come is denied from that
    /// instant, whether or not the engine has written its expiry yet.
    static func determination(
        _ appID: String,
        _ access: Access,
        _ type: ObjectType,
        at now: Date,
        _ db: Connection
    ) throws
        -> Determination
    {
        let row = try db.statement(
            "SELECT decision, decided_at, decided_by, expires_at FROM grants WHERE app_id = ? AND access = ? AND type = ?"
        ).rows([appID, access.rawValue, type.identifier]).first
        return row.map { determination($0[0], $0[1], $0[2], expiresAt: $0[3], now: now) } ?? .notDetermined
    }

    private static func determination(
        _ decision: DatabaseValue,
        _ at: DatabaseValue,
        _ by: DatabaseValue,
        expiresAt: DatabaseValue,
        now: Date
    )
        -> Determination
    {
        let date = Date(timeIntervalSinceReferenceDate: at.double ?? 0)
        let who = by.string ?? ""
        guard decision.int64 == 1 else { return .denied(at: date, by: who) }
        if let expiry = expiresAt.double, expiry <= now.timeIntervalSinceReferenceDate {
            return .denied(at: Date(timeIntervalSinceReferenceDate: expiry), by: Self.expiry)
        }
        return .granted(at: date, by: who)
    }

    /// The window and expiry stored with a decision (a denial keeps only the instant it expired).
    private static func terms(_ row: Row, from column: Int) -> GrantTerms {
        let start = row[column + 1].double.map(Date.init(timeIntervalSinceReferenceDate:))
        let end = row[column + 2].double.map(Date.init(timeIntervalSinceReferenceDate:))
        let window: GrantWindow? =
            switch row[column].int64 {
            case 1: .fixed(start: start, end: end)
            case 2: row[column + 3].double.map { .last(seconds: $0) }
            case 3: .sinceGrant
            default: nil
            }
        return GrantTerms(
            window: window,
            expiresAt: row[column + 4].double.map(Date.init(timeIntervalSinceReferenceDate:))
        )
    }

    private static let termColumns = "window_kind, window_start, window_end, window_seconds, expires_at"

    /// Every decision the app holds, by type, as in force at `now`, with its terms.
    static func grants(_ appID: String, at now: Date, _ db: Connection) throws -> [ObjectType: TypeGrant] {
        var grants: [ObjectType: TypeGrant] = [:]
        for row in try db.rows(
            "SELECT access, type, decision, decided_at, decided_by, \(termColumns) FROM grants WHERE app_id = ?",
            [appID]
        ) {
            guard let access = row[0].int64.flatMap({ Access(rawValue: Int($0)) }),
                let type = try? ObjectType(identifier: row[1].string ?? "")
            else { continue }
            var grant = grants[type, default: TypeGrant(type: type)]
            grant[access] = determination(row[2], row[3], row[4], expiresAt: row[9], now: now)
            if access == .read { grant.readTerms = terms(row, from: 5) } else { grant.shareTerms = terms(row, from: 5) }
            grants[type] = grant
        }
        return grants
    }

    /// The types the app holds a grant for, in force at `now`.
    static func grantedTypes(
        _ appID: String,
        _ access: Access,
        at now: Date,
        _ db: Connection
    ) throws -> Set<ObjectType> {
        Set(
            try db.statement(
                "SELECT type FROM grants WHERE app_id = ? AND access = ? AND decision = 1 AND (expires_at IS NULL OR expires_at > ?)"
            )
            .rows([appID, access.rawValue, now.timeIntervalSinceReferenceDate])
            .compactMap { try? ObjectType(identifier: $0[0].string ?? "") }
        )
    }

    /// The app's read grants in force at `now`: when each was made, and its window.
    static func readGrants(
        _ appID: String,
        at now: Date,
        _ db: Connection
    ) throws -> [ObjectType: (grantedAt: Date, window: GrantWindow?)] {
        var grants: [ObjectType: (grantedAt: Date, window: GrantWindow?)] = [:]
        for row in try db.statement(
            """
            SELECT type, decided_at, \(termColumns) FROM grants
            WHERE app_id = ? AND access = 0 AND decision = 1 AND (expires_at IS NULL OR expires_at > ?)
            """
        ).rows([appID, now.timeIntervalSinceReferenceDate]) {
            guard let type = try? ObjectType(identifier: row[0].string ?? "") else { continue }
            grants[type] = (Date(timeIntervalSinceReferenceDate: row[1].double ?? 0), terms(row, from: 2).window)
        }
        return grants
    }

    /// Records a decision for each type, replacing the one before: a grant with its terms (a
    /// window only for reading), a denial without any.
    static func decide(
        _ appID: String,
        _ access: Access,
        _ types: [ObjectType],
        granted: Bool,
        terms: GrantTerms,
        at date: Date,
        by who: String,
        _ db: Connection
    ) throws {
        let statement = try db.statement(
            """
            INSERT INTO grants (app_id, access, type, decision, decided_at, decided_by, \(termColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (app_id, access, type) DO UPDATE SET decision = excluded.decision,
                decided_at = excluded.decided_at, decided_by = excluded.decided_by,
                window_kind = excluded.window_kind, window_start = excluded.window_start,
                window_end = excluded.window_end, window_seconds = excluded.window_seconds,
                expires_at = excluded.expires_at
            """
        )
        let terms = granted ? terms : .none
        var kind: DatabaseValue = .null
        var start: DatabaseValue = .null
        var end: DatabaseValue = .null
        var seconds: DatabaseValue = .null
        switch terms.window {
        case .none:
            break
        case .fixed(let from, let to):
            kind = .integer(1)
            start = from.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
            end = to.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
        case .last(let duration):
            kind = .integer(2)
            seconds = .real(duration)
        case .sinceGrant:
            kind = .integer(3)
            start = .real(date.timeIntervalSinceReferenceDate)
        }
        let expires: DatabaseValue = terms.expiresAt.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
        for type in types {
            try statement.execute(values: [
                .text(appID), .integer(Int64(access.rawValue)), .text(type.identifier), .integer(granted ? 1 : 2),
                .real(date.timeIntervalSinceReferenceDate), .text(who), kind, start, end, seconds, expires,
            ])
        }
        try clearRepeats(appID, db)
    }

    /// A grant whose expiry has come and that is not yet written as expired.
    struct DueExpiry: Hashable, Sendable {
        let appID: String
        let access: Access
        let type: ObjectType
        let expiresAt: Date
    }

    /// The grants whose expiry is at or before `now` and still stand as granted, in order of
    /// expiry.
    static func dueExpiries(at now: Date, _ db: Connection) throws -> [DueExpiry] {
        try db.rows(
            """
            SELECT app_id, access, type, expires_at FROM grants
            WHERE decision = 1 AND expires_at IS NOT NULL AND expires_at <= ?
            ORDER BY expires_at, app_id, access, type
            """,
            [now.timeIntervalSinceReferenceDate]
        ).compactMap { row in
            guard let appID = row[0].string, let access = row[1].int64.flatMap({ Access(rawValue: Int($0)) }),
                let type = try? ObjectType(identifier: row[2].string ?? ""), let expiry = row[3].double
            else { return nil }
            return DueExpiry(
                appID: appID,
                access: access,
                type: type,
                expiresAt: Date(timeIntervalSinceReferenceDate: expiry)
            )
        }
    }

    /// The earliest expiry of a grant still standing, if any.
    static func nextExpiry(_ db: Connection) throws -> Date? {
        try db.rows("SELECT min(expires_at) FROM grants WHERE decision = 1 AND expires_at IS NOT NULL").first?[0]
            .double.map(Date.init(timeIntervalSinceReferenceDate:))
    }

    /// Writes a grant as expired: denied from its expiry instant, by ``expiry``, the instant kept.
    static func expire(_ due: DueExpiry, _ db: Connection) throws {
        try db.execute(
            """
            UPDATE grants SET decision = 2, decided_at = expires_at, decided_by = ?, window_kind = NULL,
                window_start = NULL, window_end = NULL, window_seconds = NULL
            WHERE app_id = ? AND access = ? AND type = ? AND decision = 1 AND expires_at = ?
            """,
            [
                DatabaseValue.text(Self.expiry), .text(due.appID), .integer(Int64(due.access.rawValue)),
                .text(due.type.identifier), .real(due.expiresAt.timeIntervalSinceReferenceDate),
            ]
        )
    }

    // MARK: Requests

    /// The types the app asked for, without a decision yet, for `access`.
    static func pendingTypes(_ appID: String, _ access: Access, _ db: Connection) throws -> Set<ObjectType> {
        Set(
            try db.statement(
                """
                SELECT rt.type FROM authorization_request_types rt JOIN authorization_requests r ON r.id = rt.request_id
                WHERE r.app_id = ? AND rt.access = ? AND NOT EXISTS (SELECT 1 FROM grants g
                    WHERE g.app_id = r.app_id AND g.access = rt.access AND g.type = rt.type)
                """
            ).rows([appID, access.rawValue]).compactMap { try? ObjectType(identifier: $0[0].string ?? "") }
        )
    }

    /// Records a request for the types given (already filtered to undecided, not pending ones);
    /// returns its number, or nil when there is nothing to add.
    static func addRequest(
        _ appID: String,
        types: [Access: [ObjectType]],
        at date: Date,
        _ db: Connection
    ) throws -> Int64? {
        guard types.values.contains(where: { !$0.isEmpty }) else { return nil }
        try db.execute(
            "INSERT INTO authorization_requests (app_id, requested_at) VALUES (?, ?)",
            [appID, date.timeIntervalSinceReferenceDate]
        )
        let id = db.lastInsertRowID
        let statement = try db.statement(
            "INSERT INTO authorization_request_types (request_id, access, type) VALUES (?, ?, ?)"
        )
        for (access, list) in types {
            for type in list { try statement.execute([id, access.rawValue, type.identifier]) }
        }
        return id
    }

    /// Requests with at least one type still undecided (only those types), oldest first; of one
    /// app, or of every app.
    static func pendingRequests(
        of appID: String?,
        id: Int64? = nil,
        _ db: Connection
    ) throws
        -> [AuthorizationRequest]
    {
        var sql = """
            SELECT r.id, r.app_id, r.requested_at, rt.access, rt.type FROM authorization_requests r
            JOIN authorization_request_types rt ON rt.request_id = r.id
            WHERE NOT EXISTS (SELECT 1 FROM grants g WHERE g.app_id = r.app_id AND g.access = rt.access AND g.type = rt.type)
            """
        var arguments: [any DatabaseValueConvertible] = []
        if let appID {
            sql += " AND r.app_id = ?"
            arguments.append(appID)
        }
        if let id {
            sql += " AND r.id = ?"
            arguments.append(id)
        }
        var requests: [AuthorizationRequest] = []
        for row in try db.rows(sql + " ORDER BY r.id, rt.access, rt.type", arguments) {
            guard let id = row[0].int64, let access = row[3].int64.flatMap({ Access(rawValue: Int($0)) }),
                let type = try? ObjectType(identifier: row[4].string ?? "")
            else { continue }
            if requests.last?.id != id {
                requests.append(
                    AuthorizationRequest(
                        id: id,
                        appID: row[1].string ?? "",
                        requestedAt: Date(timeIntervalSinceReferenceDate: row[2].double ?? 0),
                        read: [],
                        share: []
                    )
                )
            }
            if access == .read {
                requests[requests.count - 1].read.append(type)
            } else {
                requests[requests.count - 1].share.append(type)
            }
        }
        return requests
    }

    /// The app that made request `id`, or nil when there is no such request.
    static func appID(ofRequest id: Int64, _ db: Connection) throws -> String? {
        try db.scalarText("SELECT app_id FROM authorization_requests WHERE id = ?", [id])
    }

    // MARK: Settings

    static func policy(_ db: Connection) throws -> VaultPolicy {
        guard let json = try VaultSettings.value("policy", db) else { return .standard }
        return try VaultPolicy(json: Data(json.utf8), file: "the vault's stored policy")
    }

    static func setPolicy(_ policy: VaultPolicy, _ db: Connection) throws {
        try VaultSettings.setValue(String(decoding: policy.jsonData(), as: UTF8.self), for: "policy", db)
    }

    // MARK: Helpers

    static func json(_ identifiers: [String]) -> String {
        let sorted = identifiers.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return String(decoding: (try? JSONEncoder().encode(sorted)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func identifiers(_ json: String?) -> [String] {
        guard let json, let list = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { return [] }
        return list
    }
}
