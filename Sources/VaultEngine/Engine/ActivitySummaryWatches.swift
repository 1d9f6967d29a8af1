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

/// A running activity summary query: its first answer, and its updates until it is stopped, its
/// app removed, or the engine shut down.
public struct ActivitySummaryObservation: Sendable {
    public let id: UUID
    public let summaries: [ActivitySummary]
    public let updates: AsyncStream<ActivitySummaryUpdate>
}

/// The running activity summary queries, each with its caller, query and last answer.
final class ActivitySummaryWatches: @unchecked Sendable {
    struct Watch {
        let caller: Caller
        let query: ActivitySummaryQueryDescriptor
        /// The last answer the app holds, by day.
        var answer: [String: ActivitySummary]
        let continuation: AsyncStream<ActivitySummaryUpdate>.Continuation
    }

    // Guarded by `lock`.
    private var watches: [UUID: Watch] = [:]
    private var pending: Set<UUID> = []
    private var running: Set<UUID> = []
    private let lock = NSLock()

    func add(
        _ caller: Caller,
        query: ActivitySummaryQueryDescriptor,
        answer: [ActivitySummary]
    ) -> ActivitySummaryObservation {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(
            of: ActivitySummaryUpdate.self,
            bufferingPolicy: .bufferingNewest(256)
        )
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        lock.withLock {
            watches[id] = Watch(
                caller: caller,
                query: query,
                answer: Dictionary(answer.map { ($0.day, $0) }, uniquingKeysWith: { $1 }),
                continuation: continuation
            )
        }
        return ActivitySummaryObservation(id: id, summaries: answer, updates: stream)
    }

    /// Ends one query (only its own caller's, when `caller` is given); false when none was running.
    @discardableResult
    func remove(_ id: UUID, of caller: Caller? = nil) -> Bool {
        let watch = lock.withLock { () -> Watch? in
            guard let watch = watches[id], caller == nil || watch.caller == caller else { return nil }
            pending.remove(id)
            return watches.removeValue(forKey: id)
        }
        watch?.continuation.finish()
        return watch != nil
    }

    func isLive(_ id: UUID, of caller: Caller) -> Bool {
        lock.withLock { watches[id]?.caller == caller }
    }

    func finish(appID: String) {
        let ended = lock.withLock {
            let ids = watches.filter { $0.value.caller == .app(appID) }.map(\.key)
            return ids.compactMap { watches.removeValue(forKey: $0) }
        }
        for watch in ended { watch.continuation.finish() }
    }

    func finishAll() {
        let ended = lock.withLock {
            defer { watches = [:] }
            return Array(watches.values)
        }
        for watch in ended { watch.continuation.finish() }
    }

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
            guard let watch = watches[id], pending.remove(id) != nil else {
                running.remove(id)
                return nil
            }
            return (watch.caller, watch.query)
        }
    }

    /// Keeps a new answer and tells the app what changed from the last, if anything did.
    func answer(_ summaries: [ActivitySummary], for id: UUID) {
        let (continuation, update) = lock.withLock {
            () -> (AsyncStream<ActivitySummaryUpdate>.Continuation?, ActivitySummaryUpdate?) in
            guard var watch = watches[id] else { return (nil, nil) }
            let answer = Dictionary(summaries.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
            let changed = summaries.filter { watch.answer[$0.day] != $0 }
            let removed = watch.answer.keys.filter { answer[$0] == nil }.sorted()
            watch.answer = answer
            watches[id] = watch
            guard !changed.isEmpty || !removed.isEmpty else { return (nil, nil) }
            return (watch.continuation, ActivitySummaryUpdate(summaries: changed, removedDays: removed))
        }
        if let continuation, let update { continuation.yield(update) }
    }
}
