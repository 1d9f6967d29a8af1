import Foundation
import Glibc
import Synchronization
public import VaultCrypto

/// The vault's database: one writer connection and a few reader connections over SQLCipher in
/// WAL mode, each used by one thread at a time, as GRDB's `DatabasePool` with `read { }` and
/// `write { }` (a write is one immediate transaction; a read sees one consistent snapshot, and
/// reads on the readers run side by side with each other and with the write; a recorded read may
/// run on the writer, ``read(_:thenWrite:)``).
///
/// Calls block the calling thread: callers on an event loop hand them to a thread pool.
public final class Database: @unchecked Sendable {
    /// How many reads can run at once.
    public static let readerCount = 4

    /// The bytes SQLCipher holds in this process, all databases together: above all the page
    /// caches, at most 64 MiB for the writer and 16 MiB for each reader (so 128 MiB in all).
    public static var memoryInUse: Int { Int(SQLite.memoryInUse) }
    // The writer is only touched while its lock is held; a reader only by the thread that took
    // it from `idleReaders` (under `readers`).
    var writer: Connection?
    let writerLock = NSLock()
    /// The thread holding `writerLock`, for the check that no read runs inside a write.
    var writerThread: pthread_t?
    /// The writes waiting to commit together (``writeGrouped(_:)``).
    let commits = CommitGroup()
    let committedGroups = Atomic<Int>(0)
    /// How many transactions ``writeGrouped(_:)`` has committed (for tests and benchmarks).
    public var groupsCommitted: Int { committedGroups.load(ordering: .relaxed) }
    private var idleReaders: [Connection] = []
    private var readersOut = 0
    private var isClosed = false
    private let readers = NSCondition()
    public let path: String

    /// Opens the database at `path` with a raw 32-byte key, configures it (DESIGN.md 6) and checks
    /// every page's authentication code, and that the write-ahead log lost no committed frame.
    /// Creates the file when `create` is true.
    public init(path: String, key: SecureBytes, create: Bool, verifyPages: Bool = true) throws(StoreError) {
        try Self.refusePlainSQLite()
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists && !create {
            throw .damagedDatabase("the database file \(path) is missing")
        }
        if exists && create {
            throw .vaultExists("a database already exists at \(path)")
        }
        if exists {
            try Self.checkFileShape(path)
            if verifyPages { try WriteAheadLog.check(databasePath: path, openElsewhere: Self.isOpen(path)) }
        }
        self.path = path
        let hadLog = FileManager.default.fileExists(atPath: path + "-wal")
        do {
            (writer, idleReaders) = try Self.openConnections(path: path, key: key, verifyPages: verifyPages)
            Self.register(path)
        } catch {
            // The connections are closed now, without a checkpoint (they never fold the log into a
            // database that failed its checks). Remove the empty log files the attempt created.
            if !hadLog { Self.removeEmptyLog(path) }
            throw error
        }
    }

    private static func openConnections(
        path: String,
        key: SecureBytes,
        verifyPages: Bool
    ) throws(StoreError) -> (Connection, [Connection]) {
        let writer = try Connection(path: path, key: key)
        if verifyPages {
            try Self.verifyPages(writer)
        }
        do {
            try writer.execute("PRAGMA cache_size = -65536")  // 64 MiB: the index-heavy ingest needs it
            let journal = try writer.scalarText("PRAGMA journal_mode = WAL")
            guard journal == "wal" else { throw StoreError.unsupportedLibrary("WAL mode refused: \(journal ?? "")") }
            try Self.configure(writer)
        } catch {
            throw StoreError(error)
        }
        var readers: [Connection] = []
        for _ in 0..<readerCount {
            let reader = try Connection(path: path, key: key)
            do {
                try reader.execute("PRAGMA cache_size = -16384")
                try Self.configure(reader)
            } catch {
                throw StoreError(error)
            }
            readers.append(reader)
        }
        return (writer, readers)
    }

    /// Removes `<path>-wal` when it is empty, and `<path>-shm` with it.
    private static func removeEmptyLog(_ path: String) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? nil
        guard size == 0 else { return }
        unlink(path + "-wal")
        unlink(path + "-shm")
    }

    /// The settings every connection gets, each read back (unknown PRAGMAs succeed silently).
    private static func configure(_ connection: Connection) throws {
        try connection.execute(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON; PRAGMA temp_store = MEMORY"
        )
        let expected: [(String, Int64)] = [
            ("synchronous", 2), ("foreign_keys", 1), ("secure_delete", 1), ("temp_store", 2),
        ]
        for (pragma, value) in expected {
            let actual = try connection.scalarInt("PRAGMA \(pragma)")
            guard actual == value else {
                throw StoreError.unsupportedLibrary(
                    "PRAGMA \(pragma) is \(actual.map(String.init) ?? "unset"), expected \(value)"
                )
            }
        }
        SQLite.busyTimeout(connection.handle, milliseconds: 5000)
    }

    /// A database file is a whole number of 4 KiB pages; anything else was truncated or is not one.
    private static func checkFileShape(_ path: String) throws(StoreError) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size else { throw .damagedDatabase("the database file \(path) cannot be read") }
        guard size > 0, size % 4096 == 0 else {
            throw .damagedDatabase(
                "the database file \(path) is \(size) bytes, not a whole number of 4096-byte pages: it was truncated or damaged"
            )
        }
    }

    /// Checks every page's HMAC (`PRAGMA cipher_integrity_check`): a flipped byte anywhere is
    /// found now, with the page it is on, instead of failing some later query.
    private static func verifyPages(_ connection: Connection) throws(StoreError) {
        let rows: [Row]
        do {
            rows = try connection.rows("PRAGMA cipher_integrity_check")
        } catch {
            throw .damagedDatabase("the database failed its integrity check: \(error.message)")
        }
        let problems = rows.compactMap { $0[0].string }
        guard problems.isEmpty else {
            throw .damagedDatabase(
                "the database failed its page authentication (altered or damaged): "
                    + problems.prefix(3).joined(separator: "; ")
            )
        }
    }

    // The databases open in this process (SQLite's file locks do not show a process its own).
    private static let openPathsLock = NSLock()
    nonisolated(unsafe) private static var openPaths: [String: Int] = [:]

    private static func key(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    static func isOpen(_ path: String) -> Bool {
        openPathsLock.withLock { openPaths[key(path), default: 0] > 0 }
    }

    private static func register(_ path: String) {
        openPathsLock.withLock { openPaths[key(path), default: 0] += 1 }
    }

    private static func unregister(_ path: String) {
        openPathsLock.withLock {
            let name = key(path)
            openPaths[name, default: 0] -= 1
            if openPaths[name, default: 0] <= 0 { openPaths[name] = nil }
        }
    }

    /// Refuses to run when plain libsqlite3 is loaded next to SQLCipher: two SQLite copies in one
    /// process bind symbols to the wrong one (DESIGN.md decision 2).
    static func refusePlainSQLite() throws(StoreError) {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
        if let library = plainSQLiteLibrary(inMaps: maps) {
            throw .unsupportedLibrary(
                "plain SQLite (\(library)) is loaded in this process next to SQLCipher; refusing to run"
            )
        }
    }

    /// The plain libsqlite3 mapped into a process, from its `/proc/<pid>/maps`, or nil.
    static func plainSQLiteLibrary(inMaps maps: String) -> String? {
        guard let line = maps.split(separator: "\n").first(where: { $0.contains("/libsqlite3.so") }) else { return nil }
        return line.split(separator: " ").last.map(String.init)
    }

    /// Runs `body` in one immediate write transaction; everything it does commits or nothing does.
    /// Several stores' writes (a save and its audit entry) share one transaction by taking the
    /// connection `body` is given; each registers with ``Connection/onRollback(_:)`` what it must
    /// forget if the transaction does not commit.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        writerLock.lock()
        writerThread = pthread_self()
        defer {
            writerThread = nil
            writerLock.unlock()
        }
        guard let writer else { throw StoreError.locked }
        return try writer.transaction(immediate: true) { try body(writer) }
    }

    /// Runs `body` in one read transaction: it sees a single consistent snapshot.
    /// Waits while every reader is busy.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        var reader: Connection? = try checkOutReader()
        defer { checkIn(&reader) }
        // No other reference to the connection: checkIn's is the last.
        return try reader!.transaction(immediate: false) { try body(reader!) }
    }

    /// Runs `body` in one read transaction, then `record` with its result in a write committed
    /// with the writes waiting at that moment (``writeGrouped(_:)``): a read and the audit entry
    /// that records it, durable when this returns.
    ///
    /// The read runs on the writer's connection if it comes free within ``warmReadWait``, else on
    /// a reader. In WAL mode a connection's page cache stays valid across its own commits but is
    /// emptied when it begins a transaction after another connection committed, and every call
    /// commits (a save, or a read's audit entry). Every commit is the writer's, so the writer's
    /// cache is the one that stays warm: a read there finds most of its pages decrypted already,
    /// where a reader's decrypts each page it touches again (docs/PERFORMANCE.md, "Reads on the
    /// warm connection"). An app's reads one after another, with nothing else under way, all run
    /// there, so a read over B-trees that other apps' rows make deeper costs what the same read
    /// costs in a vault without them (docs/ACCESS_RULES.md, "What this does not protect"). A read
    /// on the writer holds writes back while it runs: once it has run ``warmReadBudget`` with a
    /// write waiting, it gives the writer up and is read again on a reader (``WarmRead``). A read
    /// that ran on the writer commits `record` before it gives the writer up, first in a group with
    /// the writes waiting (``recordHoldingWriter(_:)``), so nothing commits between its snapshot and
    /// its write.
    ///
    /// `body` must only read through the connection it is given: it may run twice, and it may
    /// run holding the writer's lock (so it must not write, nor read through this database).
    public func read<T>(_ body: (Connection) throws -> T, thenWrite record: (Connection, T) throws -> Void) throws -> T
    {
        if writerLock.lock(before: Date(timeIntervalSinceNow: Self.warmReadWait)) {
            writerThread = pthread_self()
            defer {
                writerThread = nil
                writerLock.unlock()
            }
            guard let writer else { throw StoreError.locked }
            let turn = WarmRead(commits: commits, budget: Self.warmReadBudget)
            let attempt = Result { try writer.transaction(immediate: false) { try turn.run(body, on: writer) } }
            // A read that gave the writer up is read again on a reader, whatever it returned: its
            // statements were cut short, and the body has nothing to undo.
            if !turn.yielded {
                let result = try attempt.get()
                try recordHoldingWriter { try record($0, result) }
                return result
            }
        }
        let result = try read(body)
        try writeGrouped { try record($0, result) }
        return result
    }

    /// Commits `write` at once, first of a group with the writes waiting (up to the largest group),
    /// by a thread that holds the writer's lock since its read: no other write commits between
    /// that read's snapshot and `write`, so what `write` keeps of the read (statistics hours
    /// computed, docs/STATISTICS.md) is never stale, and the read's entry takes no second turn
    /// for the writer.
    private func recordHoldingWriter(_ write: (Connection) throws -> Void) throws {
        try withoutActuallyEscaping(write) { write in
            let member = CommitGroup.Member(write)
            let group = [member] + commits.takeWaiting(CommitGroup.largestGroup - 1)
            commitHoldingWriter(group)
            commits.finish(group)
            if let failure = member.failure { throw failure }
        }
    }

    /// How long a recorded read waits for the writer's connection before it runs on a reader
    /// (``read(_:thenWrite:)``): long enough to wait out a group's commit or a short read, short
    /// enough that a long read on the writer sends the reads behind it to the readers.
    static let warmReadWait: TimeInterval = 0.005

    /// How long a recorded read keeps the writer while writes wait for it; past this it gives the
    /// writer up and is read again on a reader (``WarmRead``). Far above a common query's time,
    /// so that only long ones are read twice: with 5 ms, the queries of the many clients' mix
    /// that the machine's load stretched were read again, and the mix lost what the warm cache
    /// gave it.
    static let warmReadBudget: Duration = .milliseconds(50)

    /// A recorded read on the writer's connection, which gives the writer up to the writes
    /// waiting for it once it has run ``Database/warmReadBudget``: SQLite's progress handler
    /// interrupts its statements, and ``Database/read(_:thenWrite:)`` reads again on a reader. A
    /// long query therefore never holds saves and other reads' audit entries behind it for long.
    final class WarmRead {
        let commits: CommitGroup
        let deadline: ContinuousClock.Instant
        /// Set once the read gave the writer up; every later statement is interrupted at once.
        private(set) var yielded = false

        init(commits: CommitGroup, budget: Duration) {
            self.commits = commits
            self.deadline = ContinuousClock.now + budget
        }

        /// Runs `body` on `writer` with the progress handler installed (about every thousand
        /// instructions: a check of the clock, and of the queue once the budget is spent).
        func run<T>(_ body: (Connection) throws -> T, on writer: Connection) throws -> T {
            SQLite.progressHandler(writer.handle, every: 1000, context: Unmanaged.passUnretained(self).toOpaque()) {
                context in
                guard let context else { return 0 }
                let turn = Unmanaged<WarmRead>.fromOpaque(context).takeUnretainedValue()
                return turn.shouldYield() ? 1 : 0
            }
            defer { SQLite.progressHandler(writer.handle, every: 0, context: nil, nil) }
            return try withExtendedLifetime(self) { try body(writer) }
        }

        private func shouldYield() -> Bool {
            if yielded { return true }
            guard ContinuousClock.now >= deadline, commits.hasWaitingWrites else { return false }
            yielded = true
            return true
        }
    }

    private func checkOutReader() throws(StoreError) -> Connection {
        // A read inside a write would wait for a reader while holding the write lock, which a
        // reader may wait for (a backup's copy holds a reader, then takes the writer's lock).
        assert(writerThread.map { pthread_equal($0, pthread_self()) == 0 } ?? true, "a read inside a write")
        readers.lock()
        defer { readers.unlock() }
        while true {
            if isClosed { throw .locked }
            if let reader = idleReaders.popLast() {
                readersOut += 1
                return reader
            }
            readers.wait()
        }
    }

    /// Returns a reader to the pool; after ``close()`` it is closed here, before `close()` goes
    /// on to the writer, so the writer is the last connection.
    private func checkIn(_ reader: inout Connection?) {
        readers.lock()
        defer { readers.unlock() }
        readersOut -= 1
        if !isClosed, let reader { idleReaders.append(reader) }
        reader = nil
        readers.broadcast()
    }

    /// Runs `body` on the writer outside any transaction (migrations, maintenance).
    func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        writerLock.lock()
        writerThread = pthread_self()
        defer {
            writerThread = nil
            writerLock.unlock()
        }
        guard let writer else { throw StoreError.locked }
        return try body(writer)
    }

    /// Closes both connections; SQLCipher wipes its copy of the key. Later calls throw `locked`.
    public func close() {
        // The readers first (waiting for reads under way), so the writer is the last connection:
        // closed with checkpointing allowed, it folds the WAL into the database and removes the
        // -wal and -shm files.
        readers.lock()
        isClosed = true
        idleReaders = []
        readers.broadcast()
        while readersOut > 0 { readers.wait() }
        readers.unlock()
        writerLock.lock()
        if let writer {
            try? writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            SQLite.allowCheckpointOnClose(writer.handle)
            self.writer = nil
            Self.unregister(path)
        }
        writerLock.unlock()
    }

    deinit {
        close()
    }
}

// MARK: Backups

extension Database {
    /// Copies the database, as one consistent snapshot, into a new database at `path` keyed with
    /// `key` (the same key: SQLCipher re-encrypts every page with a fresh IV as it writes it),
    /// through SQLite's online backup (`sqlite3_backup_init`, `_step`, `_finish`). The snapshot
    /// is a read transaction held on a reader for the whole copy, so writes go on meanwhile (WAL)
    /// and never make the backup start again. `progress` gets the pages copied and the total
    /// after each step of `pagesPerStep`.
    func onlineBackup(
        to path: String,
        key: SecureBytes,
        pagesPerStep: Int32 = 1024,
        progress: (_ copied: Int, _ total: Int) -> Void
    ) throws {
        let destination = try Connection(path: path, key: key)
        try destination.execute("PRAGMA temp_store = MEMORY")
        var reader: Connection? = try checkOutReader()
        defer { checkIn(&reader) }
        try reader!.transaction(immediate: false) {
            // The first read pins the snapshot.
            _ = try reader!.scalarInt("SELECT count(*) FROM sqlite_master")
            guard let backup = SQLite.backupInit(destination: destination.handle, source: reader!.handle) else {
                throw StoreError.io("the online backup did not start: \(SQLite.errorMessage(destination.handle))")
            }
            var code = SQLite.ok
            while true {
                code = SQLite.backupStep(backup, pages: pagesPerStep)
                if code == SQLite.done { break }
                if code == SQLite.busy || code == SQLite.lockedCode {
                    usleep(10_000)
                    continue
                }
                guard code == SQLite.ok else { break }
                let pages = SQLite.backupPages(backup)
                progress(pages.total - pages.remaining, pages.total)
            }
            let pages = SQLite.backupPages(backup)
            let finished = SQLite.backupFinish(backup)
            guard code == SQLite.done, finished == SQLite.ok else {
                throw StoreError.io("the online backup failed: \(SQLite.errorMessage(destination.handle))")
            }
            progress(pages.total, pages.total)
        }
        // The copy is a database of its own: closing it folds its log in and removes it.
        SQLite.allowCheckpointOnClose(destination.handle)
    }

    /// Copies the database file's bytes as they are on disk (its pages still encrypted as
    /// SQLCipher wrote them, so a page that did not change since the last copy is the same bytes)
    /// into a new file at `path`, as one consistent snapshot, without stopping writes.
    ///
    /// Under the write lock (no commit meanwhile) the whole write-ahead log is folded into the
    /// file (`wal_checkpoint(FULL)`), and a reader begins a read transaction then: with every
    /// frame folded in, SQLite has it read the database file alone, holding the WAL's read lock 0,
    /// and no checkpoint can write the file until that lock is released (a checkpoint needs it
    /// exclusively; the automatic ones give up, and the log grows instead). The write lock is
    /// released at once; the file's first `page_count` pages are copied while the reader holds
    /// its transaction. Returns the bytes copied.
    @discardableResult
    func copyFileImage(
        to path: String,
        chunkBytes: Int = 1 << 20,
        progress: (_ copied: Int, _ total: Int) -> Void
    ) throws -> Int {
        var reader: Connection? = try checkOutReader()
        defer { checkIn(&reader) }
        let pageCount: Int
        writerLock.lock()
        do {
            defer { writerLock.unlock() }
            guard let writer else { throw StoreError.locked }
            var folded = false
            for _ in 0..<50 {
                let row = try writer.rows("PRAGMA wal_checkpoint(FULL)").first
                if let row, row[0].int64 == 0, row[1].int64 == row[2].int64 {
                    folded = true
                    break
                }
                usleep(20_000)
            }
            guard folded else {
                throw StoreError.io(
                    "the write-ahead log could not be folded into the database for the backup; try again"
                )
            }
            try reader!.execute("BEGIN DEFERRED")
            do {
                _ = try reader!.scalarInt("SELECT count(*) FROM sqlite_master")
                pageCount = Int(try reader!.scalarInt("PRAGMA page_count") ?? 0)
            } catch {
                try? reader!.execute("ROLLBACK")
                throw error
            }
        }
        defer { try? reader!.execute("COMMIT") }
        let total = pageCount * 4096
        let input = open(self.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw StoreError.io("cannot read \(self.path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(input) }
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw StoreError.io("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(output) }
        var buffer = [UInt8](repeating: 0, count: chunkBytes)
        var offset = 0
        while offset < total {
            let wanted = min(chunkBytes, total - offset)
            let read = buffer.withUnsafeMutableBytes { pread(input, $0.baseAddress, wanted, off_t(offset)) }
            guard read == wanted else {
                throw StoreError.io(
                    "\(self.path) ended at byte \(offset + max(read, 0)), before its \(pageCount) pages"
                )
            }
            var written = 0
            while written < read {
                let n = buffer.withUnsafeBytes {
                    pwrite(output, $0.baseAddress! + written, read - written, off_t(offset + written))
                }
                guard n > 0 else { throw StoreError.io("cannot write \(path): \(String(cString: strerror(errno)))") }
                written += n
            }
            offset += read
            progress(offset, total)
        }
        guard fsync(output) == 0 else { throw StoreError.io("cannot flush \(path) to disk") }
        progress(total, total)
        return total
    }
}
