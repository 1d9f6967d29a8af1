import CSQLCipher

/// Every SQLCipher call of HealthVault, in one internal place. Handles stay opaque pointers here;
/// the rest of the module speaks `Connection`, `Statement` and `DatabaseValue`.
enum SQLite {
    typealias Handle = OpaquePointer
    typealias StatementHandle = OpaquePointer

    static let ok = SQLITE_OK
    static let row = SQLITE_ROW
    static let done = SQLITE_DONE
    static let busy = SQLITE_BUSY
    static let lockedCode = SQLITE_LOCKED

    static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// The bytes SQLCipher holds from the heap now, page caches included, all connections together.
    static var memoryInUse: Int64 { sqlite3_memory_used() }

    static func open(path: String, readOnly: Bool) -> (Handle?, Int32) {
        var handle: Handle?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
            | SQLITE_OPEN_EXRESCODE | (path.hasPrefix("file:") ? SQLITE_OPEN_URI : 0)
        var code = sqlite3_open_v2(path, &handle, flags, nil)
        if code == SQLITE_OK, let handle {
            code = healthvault_no_checkpoint_on_close(handle, 1)
        }
        if code == SQLITE_OK, let handle {
            // hv_interval and hv_boundary, the statistics' interval lookups (shim.h).
            code = healthvault_register_functions(handle)
        }
        return (handle, code)
    }

    /// Lets closing this connection checkpoint the WAL and remove the -wal and -shm files: only
    /// for a clean shutdown of a database that opened and verified.
    static func allowCheckpointOnClose(_ handle: Handle) {
        _ = healthvault_no_checkpoint_on_close(handle, 0)
    }

    static func close(_ handle: Handle) {
        sqlite3_close_v2(handle)
    }

    /// Keys the connection. `key` is the exact key text (`x'<64 hex digits>'` for a raw key).
    static func key(_ handle: Handle, _ key: UnsafeRawBufferPointer) -> Int32 {
        sqlite3_key(handle, key.baseAddress, Int32(key.count))
    }

    static func exec(_ handle: Handle, _ sql: String) -> Int32 {
        sqlite3_exec(handle, sql, nil, nil, nil)
    }

    static func errorMessage(_ handle: Handle?) -> String {
        guard let handle, let message = sqlite3_errmsg(handle) else { return "no database" }
        return String(cString: message)
    }

    static func extendedErrorCode(_ handle: Handle) -> Int32 {
        sqlite3_extended_errcode(handle)
    }

    /// True outside a transaction (SQLite's autocommit mode).
    static func autocommit(_ handle: Handle) -> Bool {
        sqlite3_get_autocommit(handle) != 0
    }

    static func changes(_ handle: Handle) -> Int {
        Int(sqlite3_changes64(handle))
    }

    static func lastInsertRowID(_ handle: Handle) -> Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    static func busyTimeout(_ handle: Handle, milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Calls `callback` with `context` every `instructions` virtual machine instructions of a
    /// statement running on `handle`; a nonzero answer interrupts it (`SQLITE_INTERRUPT`). A nil
    /// callback removes it.
    static func progressHandler(
        _ handle: Handle,
        every instructions: Int32,
        context: UnsafeMutableRawPointer?,
        _ callback: (@convention(c) (UnsafeMutableRawPointer?) -> Int32)?
    ) {
        sqlite3_progress_handler(handle, instructions, callback, context)
    }

    // MARK: Online backup

    typealias BackupHandle = OpaquePointer

    /// SQLite's online backup from `source`'s main database into `destination`'s
    /// (https://www.sqlite.org/backup.html); nil with the destination's error when refused.
    static func backupInit(destination: Handle, source: Handle) -> BackupHandle? {
        sqlite3_backup_init(destination, "main", source, "main")
    }

    /// Copies up to `pages` more pages: `SQLITE_OK` (more to do), `SQLITE_DONE`, `SQLITE_BUSY`,
    /// `SQLITE_LOCKED` (try again) or an error.
    static func backupStep(_ backup: BackupHandle, pages: Int32) -> Int32 {
        sqlite3_backup_step(backup, pages)
    }

    /// The pages in the source, and those still to copy, as of the last step.
    static func backupPages(_ backup: BackupHandle) -> (total: Int, remaining: Int) {
        (Int(sqlite3_backup_pagecount(backup)), Int(sqlite3_backup_remaining(backup)))
    }

    /// Releases the backup; its result is the first error any step met, or `SQLITE_OK`.
    static func backupFinish(_ backup: BackupHandle) -> Int32 {
        sqlite3_backup_finish(backup)
    }

    // MARK: Statements

    static func prepare(_ handle: Handle, _ sql: String) -> (StatementHandle?, Int32) {
        var statement: StatementHandle?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        return (statement, code)
    }

    static func finalize(_ statement: StatementHandle) {
        sqlite3_finalize(statement)
    }

    static func reset(_ statement: StatementHandle) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    static func step(_ statement: StatementHandle) -> Int32 {
        sqlite3_step(statement)
    }

    static func bind(_ statement: StatementHandle, _ index: Int32, _ value: DatabaseValue) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(statement, index)
        case .integer(let integer):
            return sqlite3_bind_int64(statement, index, integer)
        case .real(let real):
            return sqlite3_bind_double(statement, index, real)
        case .text(let text):
            // With its byte count, so a NUL inside the string is kept, not a terminator.
            var text = text
            return text.withUTF8 { bytes in
                sqlite3_bind_text64(
                    statement,
                    index,
                    UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                        .assumingMemoryBound(to: CChar.self),
                    UInt64(bytes.count),
                    healthvault_sqlite_transient(),
                    UInt8(SQLITE_UTF8)
                )
            }
        case .blob(let bytes):
            return bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(
                    statement,
                    index,
                    buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                    UInt64(buffer.count),
                    healthvault_sqlite_transient()
                )
            }
        }
    }

    /// Binds raw bytes (copied by SQLite), without making an array of them first.
    static func bind(_ statement: StatementHandle, _ index: Int32, bytes buffer: UnsafeRawBufferPointer) -> Int32 {
        sqlite3_bind_blob64(
            statement,
            index,
            buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
            UInt64(buffer.count),
            healthvault_sqlite_transient()
        )
    }

    static func columnCount(_ statement: StatementHandle) -> Int32 {
        sqlite3_column_count(statement)
    }

    static func column(_ statement: StatementHandle, _ index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let pointer = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let pointer = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default:
            return .null
        }
    }

    /// A blob column's bytes in place (valid until the statement steps or resets); nil for
    /// anything that is not a blob of `count` bytes.
    static func columnBlob(_ statement: StatementHandle, _ index: Int32, count: Int) -> UnsafeRawBufferPointer? {
        guard sqlite3_column_type(statement, index) == SQLITE_BLOB,
            Int(sqlite3_column_bytes(statement, index)) == count,
            let pointer = sqlite3_column_blob(statement, index)
        else { return nil }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    static func columnInt64(_ statement: StatementHandle, _ index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }

    static func columnDouble(_ statement: StatementHandle, _ index: Int32) -> Double {
        sqlite3_column_double(statement, index)
    }

    static func columnIsNull(_ statement: StatementHandle, _ index: Int32) -> Bool {
        sqlite3_column_type(statement, index) == SQLITE_NULL
    }

    static func sql(_ statement: StatementHandle) -> String {
        sqlite3_sql(statement).map { String(cString: $0) } ?? ""
    }
}
