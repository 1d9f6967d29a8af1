import CSQLCipher
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing

@testable import VaultStore

/// The database's readers: reads run side by side, a read recorded by its own reader keeps that
/// reader's pages decrypted, and closing waits for reads under way and still folds the log into
/// the database.
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

    @Test func aReadRecordedByItsReaderFindsItsPagesDecryptedNextTime() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        let store = SampleStore(database: database)
        try store.save((0..<500).map { _ in .quantity(try! Fixtures.quantity()) })
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))])
        let record = { (db: Connection, _: Int32) in
            try db.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('probe', hex(randomblob(8)))")
        }
        var missed: [Int32] = []
        for _ in 0..<3 {
            missed.append(
                try database.read(
                    { db in try Self.pagesMissed(db) { _ = try store.samples(matching: query, scope: .owner, in: db) }
                    },
                    thenWrite: record
                )
            )
        }
        // The first read decrypts its pages; the next ones, after the reads' own commits, none.
        #expect(missed[0] > 0 && missed[1...].allSatisfy { $0 == 0 }, "\(missed)")
        // A commit by another connection (the writer) empties the cache: the same read decrypts
        // its pages again, as every read did when the writer recorded them.
        try database.write { try record($0, 0) }
        let afterWriter = try database.read { db in
            try Self.pagesMissed(db) { _ = try store.samples(matching: query, scope: .owner, in: db) }
        }
        #expect(afterWriter == missed[0], "\(afterWriter) against \(missed)")
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
