public import Foundation
public import HealthModel

/// What a running activity summary query tells its app when the answer changes (HealthKit's
/// `HKActivitySummaryQuery.updateHandler`): the new or modified summaries, and the days that had
/// one and have none now.
public struct ActivitySummaryUpdate: Hashable, Sendable {
    /// New or modified summaries, oldest day first.
    public let summaries: [ActivitySummary]
    /// Days (`YYYY-MM-DD`) whose summary went (their data was deleted, or may no longer be
    /// counted for the app), oldest first.
    public let removedDays: [String]

    public init(summaries: [ActivitySummary], removedDays: [String]) {
        self.summaries = summaries
        self.removedDays = removedDays
    }
}

/// A running activity summary query: its first answer, and its updates until it is stopped
/// (``VaultEngine/stopObservingActivitySummaries(_:as:)``), its app removed, or the engine shut
/// down; they end with an error when a new answer cannot be computed.
///
/// Updates are taken, not queued: each one is the difference between the answer the consumer
/// last took and the latest, so a consumer that reads slowly gets fewer, merged updates and never
/// misses a change.
public struct ActivitySummaryObservation: Sendable {
    public let id: UUID
    public let summaries: [ActivitySummary]
    public let updates: AsyncThrowingStream<ActivitySummaryUpdate, any Error>
}

/// The running activity summary queries, each with its caller, query, the answer its consumer
/// holds and the latest one computed.
final class ActivitySummaryWatches: @unchecked Sendable {
    struct Watch {
        let caller: Caller
        let query: ActivitySummaryQueryDescriptor
        /// What the consumer holds: the first answer and every update it took since, by day.
        var taken: [String: ActivitySummary] = [:]
        /// The latest answer computed, by day.
        var latest: [String: ActivitySummary] = [:]
        /// Why the query stopped, when a new answer could not be computed.
        var failure: HealthError?
        /// The consumer waiting for an update, and what has changed since it looked.
        var waiter: CheckedContinuation<Void, Never>?
        var version = 0
    }

    // Guarded by `lock`.
    private var watches: [UUID: Watch] = [:]
    private var pending: Set<UUID> = []
    private var running: Set<UUID> = []
    private let lock = NSLock()

    /// Registers a query before its first answer is computed: a change meanwhile is noted, and
    /// answered once the first answer is in (``started(_:answer:)``).
    func register(_ caller: Caller, query: ActivitySummaryQueryDescriptor) -> UUID {
        let id = UUID()
        lock.withLock {
            watches[id] = Watch(caller: caller, query: query)
            running.insert(id)
        }
        return id
    }

    /// Keeps the first answer; true when a change came while it was computed (the caller then
    /// answers again, ``next(_:)`` onwards), false when nothing did. False, too, for a query
    /// already gone.
    func started(_ id: UUID, answer: [ActivitySummary]) -> Bool {
        lock.withLock {
            guard watches[id] != nil else {
                running.remove(id)
                return false
            }
            let byDay = Dictionary(answer.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
            watches[id]?.taken = byDay
            watches[id]?.latest = byDay
            if pending.contains(id) { return true }
            running.remove(id)
            return false
        }
    }

    /// Ends a query (only its own caller's, when `caller` is given); false when none was running.
    @discardableResult
    func remove(_ id: UUID, of caller: Caller? = nil) -> Bool {
        let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>?? in
            guard let watch = watches[id], caller == nil || watch.caller == caller else { return nil }
            forget(id)
            return .some(watch.waiter)
        }
        guard let waiter else { return false }
        waiter?.resume()
        return true
    }

    func isLive(_ id: UUID, of caller: Caller) -> Bool {
        lock.withLock { watches[id]?.caller == caller }
    }

    func finish(appID: String) {
        let waiters = lock.withLock {
            let ids = watches.filter { $0.value.caller == .app(appID) }.map(\.key)
            return ids.compactMap { id in
                defer { forget(id) }
                return watches[id]?.waiter
            }
        }
        for waiter in waiters { waiter.resume() }
    }

    func finishAll() {
        let waiters = lock.withLock {
            defer {
                watches = [:]
                pending = []
                running = []
            }
            return watches.values.compactMap(\.waiter)
        }
        for waiter in waiters { waiter.resume() }
    }

    var isEmpty: Bool { lock.withLock { watches.isEmpty } }

    /// Every running query's id and caller.
    var snapshot: [(id: UUID, caller: Caller)] { lock.withLock { watches.map { ($0.key, $0.value.caller) } } }

    /// Notes that the query's answer may have changed; true when the caller should start
    /// answering again (no answer is under way: the one under way is followed by another).
    func note(_ id: UUID) -> Bool {
        lock.withLock {
            guard watches[id] != nil else { return false }
            pending.insert(id)
            return running.insert(id).inserted
        }
    }

    /// The query to answer again, or nil (and answering ends) when nothing changed since.
    func next(_ id: UUID) -> (caller: Caller, query: ActivitySummaryQueryDescriptor)? {
        lock.withLock {
            guard let watch = watches[id], pending.remove(id) != nil, watch.failure == nil else {
                running.remove(id)
                return nil
            }
            return (watch.caller, watch.query)
        }
    }

    /// Keeps a new answer; its consumer takes the difference when it is ready.
    func answer(_ summaries: [ActivitySummary], for id: UUID) {
        changing(id) { $0.latest = Dictionary(summaries.map { ($0.day, $0) }, uniquingKeysWith: { $1 }) }
    }

    /// Stops the query: a new answer could not be computed. Its consumer gets the error.
    func fail(_ id: UUID, _ error: HealthError) {
        changing(id) { $0.failure = error }
    }

    /// The next update: waits until the latest answer differs from what the consumer holds, and
    /// takes the difference. Nil when the query has ended; throws why it stopped, once.
    func nextUpdate(_ id: UUID) async throws(HealthError) -> ActivitySummaryUpdate? {
        while true {
            enum Step {
                case update(ActivitySummaryUpdate)
                case end
                case failure(HealthError)
                case wait(version: Int)
            }
            let step = lock.withLock { () -> Step in
                guard var watch = watches[id] else { return .end }
                if let failure = watch.failure {
                    forget(id)
                    return .failure(failure)
                }
                let changed = watch.latest.values.filter { watch.taken[$0.day] != $0 }.sorted { $0.day < $1.day }
                let removed = watch.taken.keys.filter { watch.latest[$0] == nil }.sorted()
                guard changed.isEmpty, removed.isEmpty else {
                    watch.taken = watch.latest
                    watches[id] = watch
                    return .update(ActivitySummaryUpdate(summaries: changed, removedDays: removed))
                }
                return .wait(version: watch.version)
            }
            switch step {
            case .update(let update): return update
            case .end: return nil
            case .failure(let error): throw error
            case .wait(let version):
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let now = lock.withLock { () -> Bool in
                            guard let watch = watches[id], watch.version == version, !Task.isCancelled else {
                                return true
                            }
                            watches[id]?.waiter = continuation
                            return false
                        }
                        if now { continuation.resume() }
                    }
                } onCancel: {
                    lock.withLock { () -> CheckedContinuation<Void, Never>? in
                        defer { watches[id]?.waiter = nil }
                        return watches[id]?.waiter
                    }?.resume()
                }
                if Task.isCancelled { return nil }
            }
        }
    }

    /// Changes a watch and wakes its consumer.
    private func changing(_ id: UUID, _ change: (inout Watch) -> Void) {
        let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard var watch = watches[id] else { return nil }
            change(&watch)
            watch.version += 1
            let waiter = watch.waiter
            watch.waiter = nil
            watches[id] = watch
            return waiter
        }
        waiter?.resume()
    }

    /// Drops a watch and its bookkeeping; under `lock`.
    private func forget(_ id: UUID) {
        watches[id] = nil
        pending.remove(id)
        running.remove(id)
    }
}
