public import Foundation
public import HealthModel
import VaultStore

/// What a workout session tells the connections that follow it (docs/WORKOUTS.md): HealthKit's
/// `HKWorkoutSessionDelegate` and `HKLiveWorkoutBuilderDelegate` callbacks, and the data another
/// connection of the same session sent.
public enum WorkoutSessionEvent: Hashable, Sendable {
    /// `workoutSession(_:didChangeTo:from:date:)`.
    case stateChanged(WorkoutSessionStateChange)
    /// `workoutSession(_:didGenerate:)`: a pause or resume event the session recorded.
    case generated(WorkoutEvent)
    /// `workoutBuilder(_:didCollectDataOf:)`: samples of these types were collected; the
    /// statistics of each quantity type among them as they are now, and the elapsed time.
    case collected(types: [SampleType], statistics: [Statistics], elapsedTime: TimeInterval)
    /// `workoutBuilderDidCollectEvent(_:)`: events were added to the builder.
    case collectedEvents([WorkoutEvent])
    /// `workoutSession(_:didReceiveDataFromRemoteWorkoutSession:)`.
    case remoteData(Data)
    /// The builder saved its workout; the session is over.
    case finished(Workout)
    /// `workoutSession(_:didFailWithError:)`: the session ended without its workout (discarded,
    /// or replaced by a new session of the app, or followed by the same app elsewhere).
    case failed(HealthError)
}

/// A connection following a workout session: the session as it is now, and its events from now
/// on. It ends when the session finishes or fails, when ``VaultEngine/stopFollowing(_:)`` is
/// called, or when the engine shuts down.
public struct WorkoutSessionFollower: Sendable {
    public let id: UUID
    public let session: WorkoutSessionSnapshot
    /// Whether this connection mirrors the session (it may not change its state or its builder).
    public let isMirror: Bool
    public let events: AsyncStream<WorkoutSessionEvent>
}

/// The workout sessions of the vault, as stored, and the connections that follow them.
final class WorkoutSessions: @unchecked Sendable {
    struct Follower {
        let id: UUID
        let isMirror: Bool
        let continuation: AsyncStream<WorkoutSessionEvent>.Continuation
    }

    // Guarded by `lock`.
    private var sessions: [UUID: WorkoutSessionSnapshot] = [:]
    private var followers: [UUID: [UUID: Follower]] = [:]
    private var pendingPushes: [UUID: Set<SampleType>] = [:]
    private var pushing: Set<UUID> = []
    private var carried: [UUID: [QuantityTypeIdentifier: LiveStatisticsCarry]] = [:]
    private var loaded = false
    private let lock = NSLock()

    /// Loads the stored sessions once, unless already loaded.
    func loadIfNeeded(_ load: () throws -> [WorkoutSessionSnapshot]) rethrows {
        try lock.withLock {
            guard !loaded else { return }
            for session in try load() { sessions[session.id] = session }
            loaded = true
        }
    }

    func session(_ id: UUID) -> WorkoutSessionSnapshot? {
        lock.withLock { sessions[id] }
    }

    /// The app's session not yet finished or discarded, if any.
    func session(of app: String) -> WorkoutSessionSnapshot? {
        lock.withLock { sessions.values.first { $0.app == app } }
    }

    /// The sessions whose builders collect any of `types` now.
    func collecting(_ types: Set<SampleType>) -> [WorkoutSessionSnapshot] {
        lock.withLock {
            sessions.values.filter { session in
                session.state == .running && session.builder.startDate != nil && session.builder.endDate == nil
                    && session.builder.collectedTypes.contains(where: types.contains)
            }
        }
    }

    /// Changes a session (stores it, or forgets it when `session` is nil) inside the write
    /// transaction `db` that persists the same change, and undoes it if that transaction rolls
    /// back: every change is made under the writer's lock, so the sessions held here and those
    /// in the database never differ once a transaction has ended.
    func change(_ id: UUID, to session: WorkoutSessionSnapshot?, in db: Connection) {
        let previous = lock.withLock { () -> WorkoutSessionSnapshot? in
            defer { sessions[id] = session }
            return sessions[id]
        }
        db.onRollback { [self] in lock.withLock { sessions[id] = previous } }
    }

    /// Forgets a session; its followers get `last` (when given) and their streams end.
    func remove(_ id: UUID, last: WorkoutSessionEvent?) {
        let ended = lock.withLock { () -> [Follower] in
            sessions[id] = nil
            pendingPushes[id] = nil
            carried[id] = nil
            return Array((followers.removeValue(forKey: id) ?? [:]).values)
        }
        for follower in ended {
            if let last { follower.continuation.yield(last) }
            follower.continuation.finish()
        }
    }

    /// A new follower of `session`. A primary follower replaces any other primary one, whose
    /// stream ends with `replaced` (without it for those in `quiet`: the same connection's).
    func follow(
        _ session: WorkoutSessionSnapshot,
        mirror: Bool,
        replaced: HealthError,
        silently quiet: Set<UUID> = []
    ) -> WorkoutSessionFollower {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(
            of: WorkoutSessionEvent.self,
            bufferingPolicy: .bufferingNewest(256)
        )
        continuation.onTermination = { [weak self] _ in self?.unfollow(id, of: session.id) }
        let displaced = lock.withLock { () -> [Follower] in
            var current = followers[session.id] ?? [:]
            let displaced = mirror ? [] : current.values.filter { !$0.isMirror }
            for follower in displaced { current[follower.id] = nil }
            current[id] = Follower(id: id, isMirror: mirror, continuation: continuation)
            followers[session.id] = current
            return displaced
        }
        for follower in displaced {
            // A follower of the same connection is replaced without a word.
            if !quiet.contains(follower.id) { follower.continuation.yield(.failed(replaced)) }
            follower.continuation.finish()
        }
        return WorkoutSessionFollower(id: id, session: session, isMirror: mirror, events: stream)
    }

    func unfollow(_ follower: UUID, of session: UUID) {
        let removed = lock.withLock { followers[session]?.removeValue(forKey: follower) }
        removed?.continuation.finish()
    }

    /// The follower, if it follows `session`.
    func follower(_ id: UUID, of session: UUID) -> Follower? {
        lock.withLock { followers[session]?[id] }
    }

    func hasFollowers(_ session: UUID) -> Bool {
        lock.withLock { !(followers[session]?.isEmpty ?? true) }
    }

    /// Sends an event to the session's followers (but `except`).
    func send(_ event: WorkoutSessionEvent, to session: UUID, except: UUID? = nil) {
        let targets = lock.withLock { Array((followers[session] ?? [:]).values) }
        for follower in targets where follower.id != except {
            follower.continuation.yield(event)
        }
    }

    /// Notes that samples of `types` were collected for `session`; true when the caller should
    /// start pushing (no push is under way for it: the one under way takes these types too).
    func notePush(_ types: Set<SampleType>, for session: UUID) -> Bool {
        lock.withLock {
            pendingPushes[session, default: []].formUnion(types)
            return pushing.insert(session).inserted
        }
    }

    /// The types collected since the last push, or nil (and the push ends) when there are none.
    func nextPush(for session: UUID) -> Set<SampleType>? {
        lock.withLock {
            guard let types = pendingPushes.removeValue(forKey: session), !types.isEmpty else {
                pushing.remove(session)
                return nil
            }
            return types
        }
    }

    /// The live statistics of a session's type carried from its last reading, if any.
    func carried(_ type: QuantityTypeIdentifier, of session: UUID) -> LiveStatisticsCarry? {
        lock.withLock { carried[session]?[type] }
    }

    /// Keeps a reading's carry for the next one, while the session lasts. Readings may end out
    /// of order; an older carry only makes the next reading read a few more rows.
    func carry(_ carry: LiveStatisticsCarry, _ type: QuantityTypeIdentifier, of session: UUID) {
        lock.withLock {
            guard sessions[session] != nil else { return }
            carried[session, default: [:]][type] = carry
        }
    }

    /// Ends every follower's stream (the engine shuts down).
    func finishAll() {
        let all = lock.withLock { () -> [Follower] in
            defer { followers = [:] }
            return followers.values.flatMap(\.values)
        }
        for follower in all { follower.continuation.finish() }
    }
}
