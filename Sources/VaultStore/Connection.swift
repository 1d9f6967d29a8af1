import Foundation
import VaultCrypto

/// One SQLCipher connection: keyed, configured and checked when opened. Not thread-safe: a
/// ``Database`` owns its connections and serializes their use.
public final class Connection {
    let handle: SQLite.Handle
    private var cache: [String: Statement] = [:]
    public let path: String

    /// Opens (creating when `create`) the database at `path` and keys it with a 32-byte raw key.
    ///
    /// After keying it reads back every cipher setting and refuses a SQLCipher older than 4.5;
    /// the first read turns a wrong key into `StoreError.wrongKey`, never a crash.
    convenience init(path: String, key: SecureBytes, readOnly: Bool = false) throws(StoreError) {
        try self.init(path: path, key: key, readOnly: readOnly, checked: true)
    }

    private init(path: String, key: SecureBytes, readOnly: Bool, checked: Bool) throws(StoreError) {
        self.path = path
        let (handle, code) = SQLite.open(path: path, readOnly: readOnly)
        guard let handle, code == SQLite.ok else {
            let message = SQLite.errorMessage(handle)
            if let handle { SQLite.close(handle) }
            throw .cannotOpen("cannot open the database at \(path): \(message)")
        }
        self.handle = handle
        try applyKey(key)
        // SQLCipher's own log (a process-wide setting, taken only once a key is set) writes every
        // damaged page it meets to standard error, in its words and format ("ERROR CORE
        // sqlcipher_page_cipher: hmac check failed for pgno=501"), beside the command's one line;
        // what is damaged is said by the caller (`healthvault check` names the pages).
        try? execute("PRAGMA cipher_log_level = NONE")
        if checked { try checkCipher() }
    }

    /// The pages of the database at `path` whose HMAC does not verify with `key`, as SQLCipher's
    /// `PRAGMA cipher_integrity_check` names them, read on a connection that is only keyed: it
    /// reads no table, so it names damaged pages even where the damage keeps the database from
    /// opening (a page of the schema). Nil when even that check cannot run.
    static func unauthenticatedPages(path: String, key: SecureBytes) -> [String]? {
        try? Connection.withInspectablePath(path) { opened, readOnly in
            guard let connection = try? Connection(path: opened, key: key, readOnly: readOnly, checked: false),
                let rows = try? connection.rows("PRAGMA cipher_integrity_check")
            else { return nil }
            return rows.compactMap { $0[0].string }
        } ?? nil
    }

    deinit {
        cache.removeAll()
        SQLite.close(handle)
    }

    // MARK: Keying

    /// SQLCipher takes a raw key only as the text `x'<64 hex digits>'`; anything else (32 binary
    /// bytes, malformed hex) it silently treats as a passphrase. Built here and nowhere else.
    static func rawKeyText(_ key: SecureBytes) throws(StoreError) -> SecureBytes {
        guard key.count == 32 else { throw .invalidKey("a database key must be 32 bytes, not \(key.count)") }
        let hex = key.hexEncoded()
        let text = SecureBytes(count: 67)
        text.withUnsafeMutableBytes { out in
            out[0] = UInt8(ascii: "x")
            out[1] = UInt8(ascii: "'")
            hex.withUnsafeBytes { digits in
                for index in 0..<64 { out[2 + index] = digits[index] }
            }
            out[66] = UInt8(ascii: "'")
        }
        hex.wipe()
        precondition(text.count == 67, "raw key text must be x' + 64 hex digits + '")
        return text
    }

    private func applyKey(_ key: SecureBytes) throws(StoreError) {
        let text = try Self.rawKeyText(key)
        let code = text.withUnsafeBytes { SQLite.key(handle, $0) }
        text.wipe()
        guard code == SQLite.ok else {
            throw .database(error(code: code, sql: nil))
        }
    }

    /// The SQLCipher version in use, as `4.6.1 community`.
    public func cipherVersion() throws(DatabaseError) -> String {
        try scalarText("PRAGMA cipher_version") ?? ""
    }

    /// Whether a `PRAGMA cipher_version` answer is SQLCipher 4.5 or later.
    static func isSupported(cipherVersion version: String) -> Bool {
        let numbers = version.split(separator: " ").first?.split(separator: ".").compactMap { Int($0) } ?? []
        return numbers.count >= 2 && (numbers[0], numbers[1]) >= (4, 5)
    }

    private func checkCipher() throws(StoreError) {
        let version: String
        do {
            version = try cipherVersion()
        } catch {
            throw .database(error)
        }
        guard !version.isEmpty else {
            throw .unsupportedLibrary("the linked SQLite is not SQLCipher (PRAGMA cipher_version is empty)")
        }
        guard Self.isSupported(cipherVersion: version) else {
            throw .unsupportedLibrary("SQLCipher \(version) is too old: HealthVault needs 4.5 or later")
        }
        // The first read of a page proves the key: SQLITE_NOTADB means this key does not open it.
        do {
            _ = try scalarInt("SELECT count(*) FROM sqlite_master")
        } catch  where error.resultCode == .notADatabase {
            throw .wrongKey("the database does not open with this key: it is damaged or belongs to another vault")
        } catch {
            throw .database(error)
        }
        // Unknown cipher PRAGMAs succeed silently, so every setting is read back.
        do {
            try execute("PRAGMA cipher_memory_security = OFF")
            let expected: [(String, String)] = [
                ("cipher_page_size", "4096"),
                ("cipher_hmac_algorithm", "HMAC_SHA512"),
                ("cipher_kdf_algorithm", "PBKDF2_HMAC_SHA512"),
                ("cipher_use_hmac", "1"),
                ("cipher_plaintext_header_size", "0"),
                ("cipher_memory_security", "0"),
            ]
            for (pragma, value) in expected {
                let actual = try scalarText("PRAGMA \(pragma)") ?? "(none)"
                guard actual == value else {
                    throw StoreError.unsupportedLibrary("SQLCipher setting \(pragma) is \(actual), expected \(value)")
                }
            }
        } catch {
            throw StoreError(error)
        }
    }

    // MARK: Running SQL

    func error(code: Int32, sql: String?) -> DatabaseError {
        let extended = SQLite.extendedErrorCode(handle)
        return DatabaseError(
            extendedResultCode: extended != 0 ? extended : code,
            message: SQLite.errorMessage(handle),
            sql: sql
        )
    }

    /// Runs one or more statements without parameters.
    public func execute(_ sql: String) throws(DatabaseError) {
        let code = SQLite.exec(handle, sql)
        guard code == SQLite.ok else { throw error(code: code, sql: sql) }
    }

    /// Runs one statement with parameters.
    public func execute(_ sql: String, _ values: [any DatabaseValueConvertible]) throws(DatabaseError) {
        try statement(sql).execute(values)
    }

    /// The most statements kept prepared; queries built from predicates vary in shape, so the
    /// cache is emptied when it grows past this rather than growing without end.
    static let maximumCachedStatements = 256

    /// A prepared statement for `sql`, cached.
    public func statement(_ sql: String) throws(DatabaseError) -> Statement {
        if let cached = cache[sql] { return cached }
        let (statement, code) = SQLite.prepare(handle, sql)
        guard let statement, code == SQLite.ok else { throw error(code: code, sql: sql) }
        let prepared = Statement(handle: statement, connection: self)
        if cache.count >= Self.maximumCachedStatements {
            cache.removeAll()
        }
        cache[sql] = prepared
        return prepared
    }

    var cachedStatementCount: Int { cache.count }

    public func rows(_ sql: String, _ values: [any DatabaseValueConvertible] = []) throws(DatabaseError) -> [Row] {
        try statement(sql).rows(values)
    }

    public func scalarInt(_ sql: String, _ values: [any DatabaseValueConvertible] = []) throws(DatabaseError) -> Int64?
    {
        try rows(sql, values).first?[0].int64
    }

    public func scalarText(
        _ sql: String,
        _ values: [any DatabaseValueConvertible] = []
    ) throws(DatabaseError) -> String? {
        let value = try rows(sql, values).first?[0]
        switch value {
        case .text(let text): return text
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        default: return nil
        }
    }

    public var changes: Int { SQLite.changes(handle) }
    public var lastInsertRowID: Int64 { SQLite.lastInsertRowID(handle) }

    private var rollbackHandlers: [() -> Void] = []

    /// Registers `handler` to run if the current transaction rolls back (after the rollback,
    /// before the transaction's caller sees the error): state derived from the transaction, such
    /// as cached row ids it minted, is dropped before any other transaction can run.
    public func onRollback(_ handler: @escaping () -> Void) {
        rollbackHandlers.append(handler)
    }

    /// Whether a transaction is open on this connection (SQLite rolls one back by itself after
    /// some errors: a full disk, an I/O error).
    var isInTransaction: Bool { !SQLite.autocommit(handle) }

    /// Runs `body` in a savepoint of the open transaction: released when it returns; rolled back
    /// to when it throws, and the rollback handlers registered since it began run. When SQLite
    /// has rolled back the whole transaction, `body`'s error is thrown as it is, the handlers
    /// left to the transaction; when the savepoint cannot be rolled back to, the transaction is
    /// rolled back and ``SavepointLost`` thrown.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT grouped")
        let mark = rollbackHandlers.count
        do {
            let result = try body()
            try execute("RELEASE grouped")
            return result
        } catch {
            guard isInTransaction else { throw error }
            do {
                try execute("ROLLBACK TO grouped; RELEASE grouped")
            } catch {
                // What the body wrote cannot be undone alone: the whole transaction goes.
                try? execute("ROLLBACK")
                throw SavepointLost(cause: error)
            }
            let handlers = rollbackHandlers[mark...]
            rollbackHandlers.removeSubrange(mark...)
            for handler in handlers { handler() }
            throw error
        }
    }

    /// A savepoint that could not be rolled back to: the transaction holding it must not commit.
    struct SavepointLost: Error {
        let cause: any Error
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        rollbackHandlers = []
        do {
            let result = try body()
            try execute("COMMIT")
            rollbackHandlers = []
            return result
        } catch {
            try? execute("ROLLBACK")
            let handlers = rollbackHandlers
            rollbackHandlers = []
            for handler in handlers { handler() }
            throw error
        }
    }
}
