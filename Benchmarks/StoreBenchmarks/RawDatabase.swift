import CSQLCipherBench
import Foundation
import HealthModel
import VaultCrypto
import VaultStore

/// The rows the store writes for `makeSamples`, precomputed, for the raw baselines.
struct RawRows {
    let uuids: [[UInt8]]
    let starts: [Double]
    let values: [Double]

    /// `count` rows a minute apart, from `offset` minutes after the first `makeSamples` sample.
    init(count: Int, offset: Int = 0) {
        var uuids: [[UInt8]] = []
        uuids.reserveCapacity(count)
        for _ in 0..<count { uuids.append(withUnsafeBytes(of: UUID.forNewObject().uuid) { Array($0) }) }
        self.uuids = uuids
        starts = (0..<count).map { 700_000_000 + Double(offset + $0) * 60 }
        values = (0..<count).map { Double($0 % 120) }
    }
}

/// The store's schema and settings driven through SQLCipher's C API with one prepared statement:
/// the floor the store is measured against. With `key: nil` the same library is plain SQLite.
final class RawDatabase {
    let directory: URL
    var handle: OpaquePointer?

    /// With `seeded`, the one type, source, revision and unit the ingest rows name are inserted.
    init(key: SecureBytes?, seeded: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hv-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard sqlite3_open(directory.appendingPathComponent("raw.db").path, &handle) == SQLITE_OK else {
            throw BenchError.sqlite("open")
        }
        if let key {
            let hex = key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
            let text = "x'\(hex)'"
            guard sqlite3_key(handle, text, Int32(text.utf8.count)) == SQLITE_OK else { throw BenchError.sqlite("key") }
        }
        try exec(
            "PRAGMA cache_size = -65536; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; "
                + "PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON; PRAGMA temp_store = MEMORY"
        )
        for statement in Schema.statements { try exec(statement) }
        guard seeded else { return }
        try exec(
            """
            INSERT INTO types (code, identifier) VALUES (1, 'HKQuantityTypeIdentifierStepCount');
            INSERT INTO sources (id, bundle_id) VALUES (1, 'org.example.bench');
            INSERT INTO revisions (id, source_id, identity, name, version) VALUES (1, 1, 'r', 'org.example.bench', '1.0');
            INSERT INTO units (id, unit) VALUES (1, 'count');
            """
        )
    }

    deinit {
        sqlite3_close(handle)
        try? FileManager.default.removeItem(at: directory)
    }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Inserts every row in one transaction with one prepared statement.
    func insert(_ rows: RawRows) throws {
        var statement: OpaquePointer?
        let sql = """
            INSERT INTO samples (uuid, type, source_id, revision_id, device_id, start_date, end_date, value,
                given_value, unit_id, parent_id, sync_identifier, sync_version, seq)
            SELECT ?1, 1, 1, 1, NULL, ?2, ?3, ?4, ?5, 1, NULL, NULL, NULL, ?6
            WHERE NOT EXISTS (SELECT 1 FROM samples WHERE uuid = ?1)
            """
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        try exec("BEGIN IMMEDIATE")
        for index in rows.uuids.indices {
            rows.uuids[index].withUnsafeBytes { _ = sqlite3_bind_blob(statement, 1, $0.baseAddress, 16, nil) }
            sqlite3_bind_double(statement, 2, rows.starts[index])
            sqlite3_bind_double(statement, 3, rows.starts[index] + 60)
            sqlite3_bind_double(statement, 4, rows.values[index])
            sqlite3_bind_double(statement, 5, rows.values[index])
            sqlite3_bind_int64(statement, 6, Int64(index + 1))
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
            }
            sqlite3_reset(statement)
        }
        try exec("UPDATE counters SET value = \(rows.uuids.count) WHERE name = 'change_sequence'; COMMIT")
    }
}

enum BenchError: Error {
    case sqlite(String)
}

extension RawDatabase {
    /// Inserts audit entries as bare blobs (no tree, no range) in one transaction: the floor an
    /// audit append is measured against.
    func insertAuditEntries(_ entries: [[UInt8]], from start: Int) throws {
        var statement: OpaquePointer?
        let sql = "INSERT INTO audit_entries (sequence, entry) VALUES (?, ?)"
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        try exec("BEGIN IMMEDIATE")
        for (offset, entry) in entries.enumerated() {
            sqlite3_bind_int64(statement, 1, Int64(start + offset))
            entry.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), nil) }
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
            }
            sqlite3_reset(statement)
        }
        try exec("COMMIT")
    }
}
