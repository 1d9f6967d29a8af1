public import Foundation
public import HealthModel
import Synchronization
import VaultProtocol

/// The builder of a session's workout (HealthKit's `HKLiveWorkoutBuilder`): it collects samples
/// while the session runs, shows live statistics, and saves one workout at the end. Its state is
/// the vault's: two builders of one session are the same builder.
public struct LiveWorkoutBuilder: Sendable {
    public let workoutSession: WorkoutSession

    init(session: WorkoutSession) {
        self.workoutSession = session
    }

    var store: HealthStore { workoutSession.store }
    var id: UUID { workoutSession.id }

    public var delegate: (any LiveWorkoutBuilderDelegate)? {
        get { workoutSession.state.withLock { $0.builderDelegate?.value } }
        nonmutating set { workoutSession.state.withLock { $0.builderDelegate = newValue.map(WeakDelegate.init) } }
    }

    /// The data source (HealthKit's `HKLiveWorkoutDataSource`); setting it sends its types to the
    /// vault in the background (``LiveWorkoutDataSource/apply(to:)`` does it and reports errors).
    public var dataSource: LiveWorkoutDataSource? {
        get { workoutSession.dataSource.withLock { $0 } }
        nonmutating set {
            workoutSession.dataSource.withLock { $0 = newValue }
            if let newValue {
                let builder = self
                Task { try? await newValue.apply(to: builder) }
            }
        }
    }

    public var startDate: Date? { workoutSession.state.withLock { $0.snapshot.builder.startDate } }
    public var endDate: Date? { workoutSession.state.withLock { $0.snapshot.builder.endDate } }
    public var workoutConfiguration: WorkoutConfiguration { workoutSession.workoutConfiguration }
    public var workoutEvents: [WorkoutEvent] { workoutSession.state.withLock { $0.snapshot.builder.events } }
    public var metadata: Metadata { workoutSession.state.withLock { $0.snapshot.builder.metadata } }
    public var workoutActivities: [WorkoutActivity] {
        workoutSession.state.withLock { $0.snapshot.builder.activities }
    }

    /// The time the session ran since collection began, pauses excluded (HealthKit's
    /// `elapsedTime`), now: from the session's state changes as the vault reported them.
    public var elapsedTime: TimeInterval { elapsedTime(at: Date()) }

    /// The elapsed time at `date`, pauses excluded (HealthKit's `elapsedTime(at:)`), from the
    /// session's state changes and the collection's span as the vault last told them: a display
    /// that shows another moment than now (a replay, a scrubbed timeline) asks for that moment.
    public func elapsedTime(at date: Date) -> TimeInterval {
        workoutSession.state.withLock { $0.snapshot.elapsedTime(at: date) }
    }

    /// The statistics of a type as the vault last pushed them (HealthKit's `statistics(for:)`);
    /// nil before any came.
    public func statistics(for type: QuantityTypeIdentifier) -> Statistics? {
        workoutSession.state.withLock { $0.statistics[type] }
    }

    /// Every type's statistics as last pushed (HealthKit's `allStatistics`).
    public var allStatistics: [QuantityTypeIdentifier: Statistics] {
        workoutSession.state.withLock { $0.statistics }
    }

    /// Asks the vault for a type's statistics now.
    public func currentStatistics(for type: QuantityTypeIdentifier) async throws -> Statistics? {
        let statistics = try await store.call(
            Method.workoutBuilderStatistics,
            WorkoutStatisticsParams(session: id, type: type),
            as: StatisticsResult.self
        ).statistics
        if let statistics { workoutSession.state.withLock { $0.statistics[type] = statistics } }
        return statistics
    }

    public func beginCollection(at date: Date) async throws {
        try await dated(Method.workoutBuilderBeginCollection, date)
        workoutSession.state.withLock { $0.snapshot.builder.startDate = date }
    }

    public func endCollection(at date: Date) async throws {
        try await dated(Method.workoutBuilderEndCollection, date)
        workoutSession.state.withLock { $0.snapshot.builder.endDate = date }
    }

    /// Saves the samples (this app's, with its share grants) and adds them to the workout.
    public func add(_ samples: [Sample]) async throws {
        _ = try await store.call(
            Method.workoutBuilderAdd,
            WorkoutAddParams(session: id, objects: samples),
            as: SaveResult.self
        )
    }

    public func addWorkoutEvents(_ events: [WorkoutEvent]) async throws {
        _ = try await store.call(
            Method.workoutBuilderAddEvents,
            WorkoutEventsParams(session: id, events: events),
            as: Empty.self
        )
    }

    public func addMetadata(_ metadata: Metadata) async throws {
        _ = try await store.call(
            Method.workoutBuilderAddMetadata,
            WorkoutMetadataParams(session: id, metadata: metadata),
            as: Empty.self
        )
        workoutSession.state.withLock { state in
            for (key, value) in metadata { state.snapshot.builder.metadata[key] = value }
        }
    }

    public func beginNewActivity(
        configuration: WorkoutConfiguration,
        date: Date,
        metadata: Metadata? = nil
    )
        async throws
    {
        _ = try await store.call(
            Method.workoutBuilderBeginActivity,
            WorkoutActivityParams(session: id, configuration: configuration, date: date, metadata: metadata),
            as: Empty.self
        )
        try await workoutSession.refresh()
    }

    public func endCurrentActivity(on date: Date) async throws {
        try await dated(Method.workoutBuilderEndActivity, date)
        try await workoutSession.refresh()
    }

    /// Saves the workout with everything collected and added; the session is over.
    public func finishWorkout() async throws -> Workout {
        try await store.call(
            Method.workoutBuilderFinish,
            WorkoutSessionParams(session: id),
            as: WorkoutFinishResult.self
        )
        .workout
    }

    /// Drops the workout; samples already saved stay.
    public func discardWorkout() async throws {
        _ = try await store.call(Method.workoutBuilderDiscard, WorkoutSessionParams(session: id), as: Empty.self)
    }

    private func dated(_ method: String, _ date: Date) async throws {
        _ = try await store.call(method, WorkoutDateParams(session: id, date: date), as: Empty.self)
    }
}

/// What a live builder collects (HealthKit's `HKLiveWorkoutDataSource`): the samples of its
/// types that any app the owner lets this app read saves while the session runs, and this app's
/// own.
public final class LiveWorkoutDataSource: Sendable {
    private let types: Mutex<Set<SampleType>>

    /// A data source collecting what HealthKit collects for the activity: heart rate, active
    /// energy, and the activity's distance (and swimming strokes for a swim).
    public init(workoutConfiguration: WorkoutConfiguration) {
        var types: Set<SampleType> = [.quantity(.heartRate), .quantity(.activeEnergyBurned)]
        if let distance = workoutConfiguration.activityType.distanceType {
            types.insert(.quantity(distance))
        }
        if workoutConfiguration.activityType == .swimming { types.insert(.quantity(.swimmingStrokeCount)) }
        self.types = Mutex(types)
    }

    /// The types it collects.
    public var typesToCollect: Set<SampleType> { types.withLock { $0 } }

    /// Collects `type` too; sent to the vault when the builder is given.
    public func enableCollection(for type: SampleType) {
        types.withLock { _ = $0.insert(type) }
    }

    public func disableCollection(for type: SampleType) {
        types.withLock { _ = $0.remove(type) }
    }

    /// Sends the types to the session's builder in the vault.
    public func apply(to builder: LiveWorkoutBuilder) async throws {
        _ = try await builder.store.call(
            Method.workoutBuilderCollect,
            WorkoutCollectParams(session: builder.id, types: typesToCollect.sorted { $0.identifier < $1.identifier }),
            as: Empty.self
        )
    }
}

extension HealthStore {
    /// Starts a new workout session (HealthKit's `HKWorkoutSession(healthStore:configuration:)`);
    /// this connection is its primary. The app's session not yet finished ends
    /// (`anotherWorkoutSessionStarted`).
    public func startWorkoutSession(configuration: WorkoutConfiguration) async throws -> WorkoutSession {
        let result = try await call(
            Method.workoutSessionStart,
            WorkoutSessionStartParams(configuration: configuration),
            as: WorkoutSessionResult.self
        )
        return try WorkoutSession(store: self, result: result, isMirror: false)
    }

    /// The app's session not yet finished or discarded, if any (HealthKit's
    /// `recoverActiveWorkoutSession`), after a disconnection or a restart of either side.
    public func recoverActiveWorkoutSession() async throws -> WorkoutSession? {
        let result = try await call(Method.workoutSessionRecover, Empty(), as: WorkoutSessionResult.self)
        guard result.session != nil else { return nil }
        return try WorkoutSession(store: self, result: result, isMirror: false)
    }

    /// Mirrors the app's session on this connection (the phone beside the watch).
    public func mirrorWorkoutSession(_ id: UUID) async throws -> WorkoutSession {
        let result = try await call(
            Method.workoutSessionMirror,
            WorkoutSessionParams(session: id),
            as: WorkoutSessionResult.self
        )
        return try WorkoutSession(store: self, result: result, isMirror: true)
    }
}
