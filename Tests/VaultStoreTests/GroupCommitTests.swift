import Foundation
import HealthModel
import Testing

@testable import VaultStore

/// Writes that wait while another commits are committed together (``Database/writeGrouped(_:)``,
/// docs/PERFORMANCE.md "Group commit"), each keeping its own outcome: a failing write is rolled
/// back alone, a write whose error rolled back the whole transaction fails alone and the others
/// commit after it, and nothing returns before it is committed.
@Suite struct GroupCommitTests {
    /// Holds the writer's lock on another thread until `release` is signalled.
    final class HeldWrite: @unchecked Sendable {
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)

        init(_ database: Database) {
            let held = DispatchSemaphore(value: 0)
            Thread.detachNewThread { [self] in
                _ = try? database.write { _ in
                    held.signal()
                    _ = release.wait(timeout: .now() + 60)
                }
                done.signal()
            }
            held.wait()
        }

        func end() {
            release.signal()
            done.wait()
        }
    }

    /// A grouped write on its own thread, its outcome kept.
    final class Writer: @unchecked Sendable {
        private let lock = NSLock()
        private var outcome: Result<Int64, any Error>?
        private let finished = DispatchSemaphore(value: 0)

        init(_ database: Database, _ body: @escaping @Sendable (Connection) throws -> Int64) {
            Thread.detachNewThread { [self] in
                let result = Result { try database.writeGrouped(body) }
                lock.withLock { outcome = result }
                finished.signal()
            }
        }

        func wait() -> Result<Int64, any Error> {
            _ = finished.wait(timeout: .now() + 60)
            return lock.withLock { outcome! }
        }
    }

    /// A flag a rollback handler sets.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var set = false
        func raise() { lock.withLock { set = true } }
        var isRaised: Bool { lock.withLock { set } }
    }

    struct Failure: Error, Equatable {
        let name: String
    }

    static func insert(_ name: String, _ db: Connection) throws -> Int64 {
        try db.execute("INSERT INTO settings (name, value) VALUES ('\(name)', 'x')")
        return db.lastInsertRowID
    }

    static func names(_ database: Database) throws -> Set<String> {
        try database.read { db in
            Set(try db.rows("SELECT name FROM settings WHERE name LIKE 'group-%'").compactMap { $0[0].string })
        }
    }

    /// Starts the writes in order, each queued behind the one before (the writer's lock is held
    /// meanwhile), so that after the first, which leads a group of its own, the rest make one group.
    static func queued(
        _ database: Database,
        _ bodies: [@Sendable (Connection) throws -> Int64]
    ) throws -> [Result<Int64, any Error>] {
        let held = HeldWrite(database)
        var writers: [Writer] = []
        for (index, body) in bodies.enumerated() {
            writers.append(Writer(database, body))
            // The first leads a group of its own and waits for the lock; each later one waits
            // in the queue behind the ones before it.
            let deadline = Date().addingTimeInterval(30)
            while database.commits.queue != (index, true) && Date() < deadline { usleep(1000) }
            #expect(database.commits.queue == (index, true))
        }
        held.end()
        return writers.map { $0.wait() }
    }

    @Test func writesWaitingTogetherCommitInOneTransactionEachWithItsOutcome() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        let before = database.groupsCommitted
        let handlers = [Flag(), Flag(), Flag()]
        let results = try Self.queued(
            database,
            [
                { db in try Self.insert("group-first", db) },
                { db in
                    _ = try Self.insert("group-failing", db)
                    db.onRollback { handlers[0].raise() }
                    throw Failure(name: "its own")
                },
                { db in
                    db.onRollback { handlers[1].raise() }
                    return try Self.insert("group-after", db)
                },
                { db in
                    // Sees what the writes before it in its group wrote.
                    let seen = try db.scalarInt("SELECT count(*) FROM settings WHERE name = 'group-after'")
                    db.onRollback { handlers[2].raise() }
                    _ = try Self.insert("group-last-\(seen ?? -1)", db)
                    return seen ?? -1
                },
            ]
        )
        #expect(database.groupsCommitted - before == 2)
        #expect((try? results[0].get()) != nil)
        #expect(throws: Failure(name: "its own")) { try results[1].get() }
        #expect((try? results[2].get()) != nil)
        #expect(try results[3].get() == 1)
        #expect(try Self.names(database) == ["group-first", "group-after", "group-last-1"])
        #expect(handlers.map(\.isRaised) == [true, false, false])
    }

    @Test func aWriteThatEndsTheTransactionFailsAloneAndTheOthersCommitAfterIt() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        let handlers = [Flag(), Flag(), Flag()]
        let results = try Self.queued(
            database,
            [
                { db in try Self.insert("group-first", db) },
                { db in
                    db.onRollback { handlers[0].raise() }
                    return try Self.insert("group-before", db)
                },
                { db in
                    _ = try Self.insert("group-culprit", db)
                    db.onRollback { handlers[1].raise() }
                    // As SQLite does after a full disk or an I/O error: the whole transaction goes.
                    try db.execute("ROLLBACK")
                    throw Failure(name: "transaction lost")
                },
                { db in
                    db.onRollback { handlers[2].raise() }
                    return try Self.insert("group-after", db)
                },
            ]
        )
        #expect(throws: Failure(name: "transaction lost")) { try results[2].get() }
        for index in [0, 1, 3] { #expect((try? results[index].get()) != nil, "write \(index)") }
        #expect(try Self.names(database) == ["group-first", "group-before", "group-after"])
        // The rolled-back transaction's handlers ran once (the write before the culprit ran again).
        #expect(handlers.map(\.isRaised) == [true, true, false])
    }

    @Test func manyThreadsWritingAtOnceLoseNothingAndShareCommits() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        let before = database.groupsCommitted
        let threads = 16
        let writes = 40
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for write in 0..<writes {
                let name = "group-\(thread)-\(write)"
                let id = try? database.writeGrouped { db in try Self.insert(name, db) }
                // Committed when it returns: another connection reads it at once.
                let seen = try? database.read { db in
                    try db.scalarInt("SELECT count(*) FROM settings WHERE name = '\(name)'")
                }
                #expect(id != nil && seen == 1, "\(name)")
            }
        }
        #expect(try Self.names(database).count == threads * writes)
        let groups = database.groupsCommitted - before
        #expect(groups >= 1 && groups <= threads * writes)
    }
}
