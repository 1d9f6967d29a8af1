import CSQLCipher
import Foundation
import HealthModel
import HealthModelTestSupport
import Synchronization
import Testing

@testable import VaultStore

/// The database's readers: reads run side by side, a recorded read runs on the writer's warm
/// cache unless the writer stays busy, and closing waits for reads under way and still folds the
/// log into the database.
@Suite struct ReaderPoolTests {
    /// Holds a read transaction open on another thread until `release` is signalled (or a minute
    /// passes, so a failure cannot hang the suite).
    final class HeldRead: @unchecked Sendable {
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var timedOut = false

        init(_ database: Database) {
            Thread.detachNewThread { [self] in
                _ = try? database.read { db in
                    _ = try db.scalarInt("SELECT count(*) FROM samples")
                    held.signal()
                    if release.wait(timeout: .now() + 60) == .timedOut { lock.withLock { timedOut = true } }
                }
                done.signal()
            }
            held.wait()
        }

        var releasedByTimeout: Bool { lock.withLock { timedOut } }
    }

    @Test func readsRunSideBySide() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        let holders = (0..<(Database.readerCount - 1)).map { _ in HeldRead(database) }
        // Every reader but one is busy: a read still goes through at once, and so does a write.
        #expect(try database.read { try $0.scalarInt("SELECT 1") } == 1)
        try database.write { try $0.execute("UPDATE counters SET value = value WHERE name = 'change_sequence'") }
        #expect(holders.allSatisfy { !$0.releasedByTimeout })
        for holder in holders {
            holder.release.signal()
            holder.done.wait()
        }
    }

    /// The pages a read on `db` decrypted that its cache did not hold.
    static func pagesMissed(_ db: Connection, _ body: () throws -> Void) rethrows -> Int32 {
        var missed: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(db.handle, SQLITE_DBSTATUS_CACHE_MISS, &missed, &highest, 1)
        try body()
        sqlite3_db_status(db.handle, SQLITE_DBSTATUS_CACHE_MISS, &missed, &highest, 1)
        return missed
    }

    @Test func aRecordedReadRunsOnTheWritersWarmCacheUnlessTheWriterStaysBusy() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        let store = SampleStore(database: database)
        try store.save((0..<500).map { _ in .quantity(try! Fixtures.quantity()) })
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))])
        let record = { (db: Connection, _: Int32) in
            try db.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('probe', hex(randomblob(8)))")
        }
        let readMissing = { (db: Connection) in
            try Self.pagesMissed(db) { _ = try store.samples(matching: query, scope: .owner, in: db) }
        }
        // A reader's cache is emptied by the writer's commits: the read decrypts every page it needs.
        let cold = try database.read(readMissing)
        #expect(cold > 0)
        // Recorded reads, with the writer free, run on it; their entries commit there too, so after
        // the first none decrypts a page again.
        var missed: [Int32] = []
        for _ in 0..<3 { missed.append(try database.read(readMissing, thenWrite: record)) }
        #expect(missed[1...].allSatisfy { $0 == 0 }, "\(missed)")
        // A save commits on the writer, as every write does, and leaves its cache valid: the next
        // recorded read still finds its pages decrypted (on a reader it would decrypt them all).
        try database.write { try record($0, 0) }
        #expect(try database.read(readMissing, thenWrite: record) == 0)
        // While a write holds the writer longer than a recorded read waits for it, the read runs
        // on a reader, cold; its entry commits once the write is done.
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? database.write { db in
                try db.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('probe', 'held')")
                holding.signal()
                _ = release.wait(timeout: .now() + 60)
            }
            written.signal()
        }
        #expect(holding.wait(timeout: .now() + 60) == .success)
        let whileHeld = try database.read(
            { db in
                defer { release.signal() }
                return try readMissing(db)
            },
            thenWrite: record
        )
        written.wait()
        #expect(whileHeld == cold, "\(whileHeld) against \(cold)")
    }

    @Test func aLongReadOnTheWriterGivesItUpToAWaitingWriteAndIsReadAgainOnAReader() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        let writer = ObjectIdentifier(try #require(database.writer))
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let runs = Mutex<[Bool]>([])  // for each run of the body: was it on the writer?
        let completed = Mutex(0)  // the runs of the body that read to the end
        let answer = Mutex<Int64?>(nil)
        // A read of a second or so: three million rows counted by a recursive query.
        let long =
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) FROM c"
        Thread.detachNewThread {
            let count = try? database.read(
                { db -> Int64? in
                    runs.withLock { $0.append(ObjectIdentifier(db) == writer) }
                    started.signal()
                    let count = try db.scalarInt(long)
                    completed.withLock { $0 += 1 }
                    return count
                },
                thenWrite: { db, _ in
                    try db.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('probe', 'read')")
                }
            )
            answer.withLock { $0 = count ?? nil }
            finished.signal()
        }
        #expect(started.wait(timeout: .now() + 60) == .success)
        // A save arrives while the long read holds the writer: it commits long before the read ends.
        try database.writeGrouped { db in
            try db.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('probe', 'write')")
        }
        let readsEnded = completed.withLock { $0 }
        #expect(finished.wait(timeout: .now() + 120) == .success)
        #expect(readsEnded == 0, "the write waited for the whole read")
        // The read was cut short on the writer and read again, whole, on a reader.
        #expect(runs.withLock { $0 } == [true, false])
        #expect(answer.withLock { $0 } == 3_000_000)
    }

    /// A recorded read on the writer commits its write before any other: no write commits between
    /// its snapshot and its entry (so statistics hours it computed are kept, not refused as
    /// possibly stale), and the writes queued meanwhile commit in its group.
    @Test func aRecordedReadOnTheWriterCommitsItsWriteFirstWithTheWritesQueuedBehindIt() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        // Each write's place in the order of commits: how many such writes committed before it.
        let place: @Sendable (String, Connection) throws -> Int64 = { name, db in
            try db.execute(
                "INSERT INTO settings (name, value) VALUES (?, (SELECT count(*) FROM settings WHERE name LIKE 'order-%'))",
                ["order-\(name)"]
            )
            return 0
        }
        let reading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let seen = Mutex<(read: Int64?, atWrite: Int64?)>((nil, nil))
        let groupsBefore = database.groupsCommitted
        Thread.detachNewThread {
            _ = try? database.read(
                { db -> Int64 in
                    let count = try db.scalarInt("SELECT count(*) FROM settings") ?? -1
                    reading.signal()
                    _ = release.wait(timeout: .now() + 60)
                    return count
                },
                thenWrite: { db, count in
                    let now = try db.scalarInt("SELECT count(*) FROM settings")
                    seen.withLock { $0 = (count, now) }
                    _ = try place("read", db)
                }
            )
            finished.signal()
        }
        #expect(reading.wait(timeout: .now() + 60) == .success)
        // The first write leads a group of its own and waits for the writer; the next two queue.
        let first = GroupCommitTests.Writer(database) { try place("first", $0) }
        var deadline = Date().addingTimeInterval(30)
        while database.commits.queue != (0, true) && Date() < deadline { usleep(1000) }
        let second = GroupCommitTests.Writer(database) { try place("second", $0) }
        deadline = Date().addingTimeInterval(30)
        while database.commits.queue != (1, true) && Date() < deadline { usleep(1000) }
        let third = GroupCommitTests.Writer(database) { try place("third", $0) }
        deadline = Date().addingTimeInterval(30)
        while database.commits.queue != (2, true) && Date() < deadline { usleep(1000) }
        #expect(database.commits.queue == (2, true))
        release.signal()
        #expect(finished.wait(timeout: .now() + 60) == .success)
        for writer in [first, second, third] { _ = try writer.wait().get() }

        let order = try database.read { db in
            try db.rows("SELECT name, value FROM settings WHERE name LIKE 'order-%' ORDER BY value").compactMap {
                $0[0].string
            }
        }
        #expect(order == ["order-read", "order-second", "order-third", "order-first"])
        let (read, atWrite) = seen.withLock { $0 }
        #expect(read != nil && read == atWrite, "a write committed between the read and its entry")
        // The read's group (its write and the two queued) and the first write's own.
        #expect(database.groupsCommitted - groupsBefore == 2)
    }

    @Test func closingWaitsForReadsUnderWayAndLeavesNoLog() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        try SampleStore(database: database).save([.quantity(try Fixtures.quantity())])
        let holder = HeldRead(database)
        let closed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            database.close()
            closed.signal()
        }
        #expect(closed.wait(timeout: .now() + 0.5) == .timedOut, "close did not wait for the read")
        holder.release.signal()
        closed.wait()
        holder.done.wait()
        #expect(!holder.releasedByTimeout)
        #expect(!FileManager.default.fileExists(atPath: test.databaseURL.path + "-wal"))
        #expect(throws: StoreError.self) { try database.read { _ in 1 } }
    }
}
