public import Foundation
public import HealthModel
import Synchronization
import VaultClient
public import VaultProtocol

/// What a workout session tells its app (HealthKit's `HKWorkoutSessionDelegate`). Every method
/// but the state change has a default that does nothing. Called on a task of the session's own,
/// one call at a time, in the order the vault sent them.
public protocol WorkoutSessionDelegate: AnyObject, Sendable {
    func workoutSession(
        _ session: WorkoutSession,
        didChangeTo toState: WorkoutSessionState,
        from fromState: WorkoutSessionState,
        date: Date
    )
    func workoutSession(_ session: WorkoutSession, didFailWithError error: HealthError)
    func workoutSession(_ session: WorkoutSession, didGenerate event: WorkoutEvent)
    func workoutSession(_ session: WorkoutSession, didReceiveDataFromRemoteWorkoutSession data: [Data])
}

extension WorkoutSessionDelegate {
    public func workoutSession(_ session: WorkoutSession, didFailWithError error: HealthError) {}
    public func workoutSession(_ session: WorkoutSession, didGenerate event: WorkoutEvent) {}
    public func workoutSession(_ session: WorkoutSession, didReceiveDataFromRemoteWorkoutSession data: [Data]) {}
}

/// What a live builder tells its app (HealthKit's `HKLiveWorkoutBuilderDelegate`).
public protocol LiveWorkoutBuilderDelegate: AnyObject, Sendable {
    /// Samples of these types were collected; ``LiveWorkoutBuilder/statistics(for:)`` has their
    /// statistics as they are now.
    func workoutBuilder(_ builder: LiveWorkoutBuilder, didCollectDataOf collectedTypes: Set<SampleType>)
    func workoutBuilderDidCollectEvent(_ builder: LiveWorkoutBuilder)
}

extension LiveWorkoutBuilderDelegate {
    public func workoutBuilderDidCollectEvent(_ builder: LiveWorkoutBuilder) {}
}

/// A workout session (HealthKit's `HKWorkoutSession`), kept by the vault: it goes on when the app
/// disconnects, and ``HealthStore/recoverActiveWorkoutSession()`` finds it again. Start one with
/// ``HealthStore/startWorkoutSession(configuration:)``.
///
///     let session = try await store.startWorkoutSession(configuration: configuration)
///     let builder = session.associatedWorkoutBuilder()
///     builder.dataSource = LiveWorkoutDataSource(workoutConfiguration: configuration)
///     try await session.startActivity(with: .now)
///     try await builder.beginCollection(at: .now)
///     …
///     try await session.end()
///     try await builder.endCollection(at: .now)
///     let workout = try await builder.finishWorkout()
public final class WorkoutSession: Sendable {
    struct State {
        var snapshot: WorkoutSessionSnapshot
        var statistics: [QuantityTypeIdentifier: Statistics] = [:]
        var delegate: WeakDelegate<any WorkoutSessionDelegate>?
        var builderDelegate: WeakDelegate<any LiveWorkoutBuilderDelegate>?
        var eventContinuations: [UUID: AsyncStream<WorkoutSessionEventParams>.Continuation] = [:]
    }

    let store: HealthStore
    public let id: UUID
    /// Whether this is a mirror of the app's session on another connection: it hears
    /// everything and may send data, not change the session or its builder.
    public let isMirror: Bool
    let state: Mutex<State>
    let dataSource: Mutex<LiveWorkoutDataSource?> = Mutex(nil)
    private let listener: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(store: HealthStore, result: WorkoutSessionResult, isMirror: Bool) throws(HealthError) {
        guard let snapshot = result.session else {
            throw HealthError(.unknownError, "the vault answered without a session")
        }
        self.store = store
        self.id = snapshot.id
        self.isMirror = isMirror
        self.state = Mutex(State(snapshot: snapshot))
        let events = store.connection.workoutEvents(of: snapshot.id)
        listener.withLock {
            $0 = Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    self.handle(event)
                }
            }
        }
    }

    deinit {
        listener.withLock { $0?.cancel() }
    }

    public var workoutConfiguration: WorkoutConfiguration { state.withLock { $0.snapshot.configuration } }
    /// The session's state as the vault last told it.
    public var currentState: WorkoutSessionState { state.withLock { $0.snapshot.state } }
    public var startDate: Date? { state.withLock { $0.snapshot.startDate } }
    public var endDate: Date? { state.withLock { $0.snapshot.endDate } }

    public var delegate: (any WorkoutSessionDelegate)? {
        get { state.withLock { $0.delegate?.value } }
        set { state.withLock { $0.delegate = newValue.map(WeakDelegate.init) } }
    }

    /// Every event of the session as the vault sends it, for apps that prefer a sequence to a
    /// delegate (each call gives a new stream, from now on).
    public func events() -> AsyncStream<WorkoutSessionMessage> {
        let (stream, continuation) = AsyncStream.makeStream(of: WorkoutSessionEventParams.self)
        let key = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.eventContinuations.removeValue(forKey: key) }
        }
        state.withLock { $0.eventContinuations[key] = continuation }
        return stream
    }

    // MARK: HKWorkoutSession

    public func prepare() async throws { try await change(.prepare, at: nil) }
    public func startActivity(with date: Date? = nil) async throws { try await change(.startActivity, at: date) }
    public func pause() async throws { try await change(.pause, at: nil) }
    public func resume() async throws { try await change(.resume, at: nil) }
    public func stopActivity(with date: Date? = nil) async throws { try await change(.stopActivity, at: date) }
    public func end() async throws { try await change(.end, at: nil) }

    /// Takes an action at `date` (now when nil); the delegate hears the state changes.
    public func change(_ action: WorkoutSessionAction, at date: Date?) async throws {
        _ = try await store.call(
            Method.workoutSessionChange,
            WorkoutSessionChangeParams(session: id, action: action, date: date),
            as: WorkoutSessionChangeResult.self
        )
    }

    /// The builder of this session's workout (one per session).
    public func associatedWorkoutBuilder() -> LiveWorkoutBuilder {
        LiveWorkoutBuilder(session: self)
    }

    /// Sends bytes to the session's other connections (its mirror, or its primary).
    public func sendToRemoteWorkoutSession(data: Data) async throws {
        _ = try await store.call(
            Method.workoutSessionSendData,
            WorkoutSendDataParams(session: id, data: data),
            as: Empty.self
        )
    }

    /// Asks the vault for the session as it is now.
    public func refresh() async throws {
        let result = try await store.call(
            Method.workoutSessionState,
            WorkoutDateParams(session: id, date: nil),
            as: WorkoutSessionResult.self
        )
        if let snapshot = result.session {
            state.withLock { $0.snapshot = snapshot }
        }
    }

    // MARK: Events

    private func handle(_ event: WorkoutSessionEventParams) {
        let (delegate, builderDelegate, continuations) = state.withLock { state in
            switch event.kind {
            case .stateChanged:
                if let change = event.change { state.snapshot = state.snapshot.applying(change) }
            case .collected:
                // A type listed without statistics has none the app may read now (a grant revoked).
                for case .quantity(let type) in event.types ?? [] { state.statistics[type] = nil }
                for statistics in event.statistics ?? [] { state.statistics[statistics.quantityType] = statistics }
            case .finished:
                if state.snapshot.state != .ended, let date = state.snapshot.stateChanges.last?.date {
                    state.snapshot.record(WorkoutSessionStateChange(from: state.snapshot.state, to: .ended, date: date))
                }
            case .generated:
                if let generated = event.event { state.snapshot.builder.events.append(generated) }
            case .collectedEvents:
                for added in event.events ?? [] where !state.snapshot.builder.events.contains(added) {
                    state.snapshot.builder.events.append(added)
                }
            default:
                break
            }
            return (state.delegate?.value, state.builderDelegate?.value, Array(state.eventContinuations.values))
        }
        for continuation in continuations { continuation.yield(event) }
        switch event.kind {
        case .stateChanged:
            if let change = event.change {
                delegate?.workoutSession(self, didChangeTo: change.to, from: change.from, date: change.date)
            }
        case .generated:
            if let generated = event.event { delegate?.workoutSession(self, didGenerate: generated) }
        case .collected:
            if let builderDelegate {
                builderDelegate.workoutBuilder(
                    LiveWorkoutBuilder(session: self),
                    didCollectDataOf: Set(event.types ?? [])
                )
            }
        case .collectedEvents:
            builderDelegate?.workoutBuilderDidCollectEvent(LiveWorkoutBuilder(session: self))
        case .remoteData:
            if let data = event.data.flatMap({ Data(base64Encoded: $0) }) {
                delegate?.workoutSession(self, didReceiveDataFromRemoteWorkoutSession: [data])
            }
        case .finished:
            break
        case .failed:
            if let error = event.error { delegate?.workoutSession(self, didFailWithError: error) }
        }
        if event.kind == .finished || event.kind == .failed {
            for continuation in continuations { continuation.finish() }
        }
    }
}

/// One event of a workout session as the vault sends it (docs/PROTOCOL.md, `workoutSession.event`):
/// its `kind` says which members are present.
public typealias WorkoutSessionMessage = WorkoutSessionEventParams

/// A weak reference to a delegate.
struct WeakDelegate<Delegate>: @unchecked Sendable {
    private weak var object: AnyObject?
    init(_ value: Delegate) { object = value as AnyObject }
    var value: Delegate? { object as? Delegate }
}

extension WorkoutSessionSnapshot {
    /// The snapshot with a state change the vault reported applied.
    func applying(_ change: WorkoutSessionStateChange) -> WorkoutSessionSnapshot {
        var copy = self
        copy.record(change)
        return copy
    }
}
