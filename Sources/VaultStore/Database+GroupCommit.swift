import Foundation
import Glibc
import Synchronization

/// Writes that commit together (group commit, docs/PERFORMANCE.md "Group commit"): while one
/// transaction commits, the writes that arrive wait in a queue; the next of their threads to run
/// (or a thread that holds the writer after a read, ``takeWaiting(_:)``) takes every waiting write
/// into one immediate transaction, each write in a savepoint of its
/// own, and commits them at once: one `COMMIT`, one `fdatasync` of the write-ahead log, each page
/// the writes share (the audit log's) written once.
///
/// Each write keeps its own outcome: one that throws is rolled back to its savepoint (its
/// ``Connection/onRollback(_:)`` handlers run) and the others commit. A write returns only once
/// the transaction holding it has committed, durable as `synchronous = FULL` makes every commit,
/// so a read's audit entry is still durable before its answer leaves. A failure of the
/// transaction itself (its `COMMIT`, or an error after which SQLite rolled the whole transaction
/// back: a full disk, an I/O error) fails every write of the group, each rolled back. A write
/// that finds no other under way runs at once, alone, on its own thread.
final class CommitGroup: @unchecked Sendable {
    /// One write waiting in the queue or running in a group.
    final class Member {
        /// Runs the write's body on the group's connection, keeping its result; returns what it
        /// threw. Nil once run (or once its group failed before it ran).
        var run: ((Connection) -> (any Error)?)?
        /// What the write threw, or the error of its group's transaction; nil when it committed.
        var failure: (any Error)?
        /// Set when the group holding it has committed or failed.
        var done = false

        /// A write running `body`, which keeps its result itself; what it throws is its failure.
        init(_ body: @escaping (Connection) throws -> Void) {
            self.run = { db in
                do {
                    try body(db)
                    return nil
                } catch {
                    return error
                }
            }
        }
    }

    // Guarded by `condition`.
    private var waiting: [Member] = []
    private var leading = false
    private let condition = NSCondition()

    /// The most writes one transaction takes, so the first of a long queue waits for no more than
    /// this many bodies to run.
    static let largestGroup = 256

    /// How many writes wait for a group to take them, and whether a group is running (for tests).
    var queue: (waiting: Int, leading: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (waiting.count, leading)
    }

    /// Whether a write waits for the writer: queued, or taken into a group whose thread waits for
    /// the writer's lock.
    var hasWaitingWrites: Bool {
        condition.lock()
        defer { condition.unlock() }
        return leading || !waiting.isEmpty
    }

    /// Queues `member` and returns once the group holding it is done: the caller either waits
    /// while another thread runs its group, or runs a group itself (the writes waiting, its own
    /// among them) with `commit`.
    func submit(_ member: Member, commit: ([Member]) -> Void) {
        condition.lock()
        waiting.append(member)
        while !member.done {
            // Nothing waiting while this write is not done: a thread holding the writer took it
            // (``takeWaiting(_:)``) and will finish it.
            if leading || waiting.isEmpty {
                condition.wait()
                continue
            }
            leading = true
            let group = Array(waiting.prefix(Self.largestGroup))
            waiting.removeFirst(group.count)
            condition.unlock()
            commit(group)
            condition.lock()
            for finished in group { finished.done = true }
            leading = false
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Takes up to `limit` of the writes waiting, for a thread that holds the writer's lock to run
    /// in its own group (a warm read committing its entry, ``Database/read(_:thenWrite:)``); it
    /// must then ``finish(_:)`` them. Their threads wait meanwhile, as they would for a leader.
    func takeWaiting(_ limit: Int) -> [Member] {
        condition.lock()
        defer { condition.unlock() }
        let taken = Array(waiting.prefix(limit))
        waiting.removeFirst(taken.count)
        return taken
    }

    /// Marks `members` done (committed, or failed) and wakes their threads.
    func finish(_ members: [Member]) {
        condition.lock()
        for member in members { member.done = true }
        condition.broadcast()
        condition.unlock()
    }
}

extension Database {
    /// ``write(_:)``, committed together with the writes waiting at the same moment
    /// (``CommitGroup``): `body` runs in a savepoint of a transaction on the writer that may hold
    /// other writes before and after it, and sees what those before it wrote as if they had
    /// committed just before it.
    ///
    /// `body` may run on another thread while this one waits: it must not take a lock that a
    /// thread calling this may hold.
    public func writeGrouped<T>(_ body: (Connection) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var result: T?
            let member = CommitGroup.Member { db in result = try body(db) }
            commits.submit(member) { members in commit(members) }
            if let failure = member.failure { throw failure }
            guard let result else { throw StoreError.locked }
            return result
        }
    }

    /// Runs `members`' writes in one transaction on the writer, under its lock, as
    /// ``CommitGroup`` describes. A write whose error made SQLite roll back the
    /// whole transaction fails alone: the others run again, in a new transaction, as they would
    /// have had each committed on its own.
    private func commit(_ members: [CommitGroup.Member]) {
        writerLock.lock()
        writerThread = pthread_self()
        defer {
            writerThread = nil
            writerLock.unlock()
        }
        commitHoldingWriter(members)
    }

    /// ``commit(_:)`` by a thread that holds the writer's lock already.
    func commitHoldingWriter(_ members: [CommitGroup.Member]) {
        defer {
            // No body outlives its group: each caller's closure is released before it returns.
            for member in members { member.run = nil }
        }
        guard let writer else {
            for member in members { member.failure = StoreError.locked }
            return
        }
        let db = writer
        var group = members
        while true {
            var culprit: CommitGroup.Member?
            do {
                try db.transaction(immediate: true) {
                    for member in group {
                        guard let run = member.run else { continue }
                        do {
                            try db.savepoint { if let error = run(db) { throw error } }
                        } catch let lost as Connection.SavepointLost {
                            // Its writes could not be undone alone: nothing of the group stands.
                            member.failure = lost.cause
                            member.run = nil
                            culprit = member
                            throw lost.cause
                        } catch {
                            member.failure = error
                            member.run = nil
                            // SQLite rolled the whole transaction back: nothing of the group stands.
                            guard db.isInTransaction else {
                                culprit = member
                                throw error
                            }
                        }
                    }
                }
                committedGroups.add(1, ordering: .relaxed)
                return
            } catch {
                guard let culprit else {
                    // The transaction could not begin or commit: every write of it fails.
                    for member in group where member.failure == nil { member.failure = error }
                    return
                }
                group.removeAll { $0 === culprit }
            }
        }
    }
}
