import Foundation
import HealthModel
import Synchronization
import VaultEngine
import VaultProtocol
import VaultStore

/// A workout session this connection follows: the engine's follower and the task that turns its
/// events into `workoutSession.event` notifications.
struct FollowedWorkout: Sendable {
    let follower: WorkoutSessionFollower
    let delivery: Task<Void, Never>
}

extension Session {
    /// Runs a live-workout method (docs/PROTOCOL.md, "Live workouts"); nil when `method` is not one.
    func dispatchWorkout(
        method: String,
        data: Data,
        caller: Caller,
        requestID: String
    ) async throws
        -> (any Encodable)?
    {
        let engine = try daemon.engine()
        switch method {
        case Method.workoutSessionStart:
            let p = try params(WorkoutSessionStartParams.self, from: data)
            let follower = try await engine.startWorkoutSession(p.configuration, as: caller, requestID: requestID)
            return follow(follower)
        case Method.workoutSessionRecover:
            // This connection's own follower of the session is replaced without a failed event.
            let own = Set(state.withLock { $0.workouts.values.map(\.follower.id) })
            guard
                let follower = try await engine.recoverWorkoutSession(as: caller, replacing: own, requestID: requestID)
            else {
                return WorkoutSessionResult(session: nil, elapsedTime: nil)
            }
            return follow(follower)
        case Method.workoutSessionMirror:
            let p = try params(WorkoutSessionParams.self, from: data)
            let follower = try await engine.mirrorWorkoutSession(p.session, as: caller, requestID: requestID)
            return follow(follower)
        case Method.workoutSessionUnfollow:
            let p = try params(WorkoutSessionParams.self, from: data)
            let followed = try followedWorkout(p.session)
            state.withLock { _ = $0.workouts.removeValue(forKey: p.session) }
            engine.stopFollowing(followed.follower)
            await followed.delivery.value
            return Empty()
        case Method.workoutSessionState:
            let p = try params(WorkoutDateParams.self, from: data)
            let follower = try followedWorkout(p.session).follower
            let session = try engine.workoutSession(follower: follower, as: caller)
            return WorkoutSessionResult(
                session: session,
                elapsedTime: session.elapsedTime(at: p.date ?? Date())
            )
        case Method.workoutSessionChange:
            let p = try params(WorkoutSessionChangeParams.self, from: data)
            let changes = try await engine.workoutSession(
                p.action,
                at: p.date,
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return WorkoutSessionChangeResult(changes: changes)
        case Method.workoutSessionSendData:
            let p = try params(WorkoutSendDataParams.self, from: data)
            guard let bytes = Data(base64Encoded: p.data) else {
                throw RPCError.from(HealthError.invalidArgument("the data is not base64", field: "data"))
            }
            try await engine.sendWorkoutData(
                bytes,
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return Empty()
        case Method.workoutBuilderBeginCollection, Method.workoutBuilderEndCollection, Method.workoutBuilderEndActivity:
            let p = try params(WorkoutDateParams.self, from: data)
            let follower = try followedWorkout(p.session).follower
            let date = p.date ?? Date()
            switch method {
            case Method.workoutBuilderBeginCollection:
                try await engine.beginWorkoutCollection(at: date, follower: follower, as: caller, requestID: requestID)
            case Method.workoutBuilderEndCollection:
                try await engine.endWorkoutCollection(at: date, follower: follower, as: caller, requestID: requestID)
            default:
                try await engine.endWorkoutActivity(at: date, follower: follower, as: caller, requestID: requestID)
            }
            return Empty()
        case Method.workoutBuilderCollect:
            let p = try params(WorkoutCollectParams.self, from: data)
            try await engine.setWorkoutCollectedTypes(
                Set(p.types),
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return Empty()
        case Method.workoutBuilderAdd:
            let p = try params(WorkoutAddParams.self, from: data)
            let outcome = try await engine.addWorkoutSamples(
                p.objects,
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return SaveResult(saved: outcome.saved)
        case Method.workoutBuilderAddEvents:
            let p = try params(WorkoutEventsParams.self, from: data)
            try await engine.addWorkoutEvents(
                p.events,
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return Empty()
        case Method.workoutBuilderAddMetadata:
            let p = try params(WorkoutMetadataParams.self, from: data)
            try await engine.addWorkoutMetadata(
                p.metadata,
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return Empty()
        case Method.workoutBuilderBeginActivity:
            let p = try params(WorkoutActivityParams.self, from: data)
            try await engine.beginWorkoutActivity(
                p.configuration,
                at: p.date,
                metadata: p.metadata ?? [:],
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return Empty()
        case Method.workoutBuilderStatistics:
            let p = try params(WorkoutStatisticsParams.self, from: data)
            let statistics = try await engine.workoutStatistics(
                p.type,
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return StatisticsResult(statistics: statistics)
        case Method.workoutBuilderFinish:
            let p = try params(WorkoutSessionParams.self, from: data)
            let workout = try await engine.finishWorkout(
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return WorkoutFinishResult(workout: workout)
        case Method.workoutBuilderDiscard:
            let p = try params(WorkoutSessionParams.self, from: data)
            try await engine.discardWorkout(
                follower: try followedWorkout(p.session).follower,
                as: caller,
                requestID: requestID
            )
            return Empty()
        case Method.workoutRouteBegin:
            return RouteBuilderParams(builder: try await engine.beginWorkoutRoute(as: caller, requestID: requestID))
        case Method.workoutRouteInsert:
            let p = try params(RouteInsertParams.self, from: data)
            let count = try await engine.insertRouteData(
                p.locations,
                builder: p.builder,
                as: caller,
                requestID: requestID
            )
            return RouteInsertResult(count: count)
        case Method.workoutRouteFinish:
            let p = try params(RouteFinishParams.self, from: data)
            let route = try await engine.finishWorkoutRoute(
                builder: p.builder,
                workout: p.workout,
                metadata: p.metadata ?? [:],
                as: caller,
                requestID: requestID
            )
            return RouteFinishResult(route: route)
        case Method.workoutRouteList:
            return RouteBuildersResult(
                builders: try await engine.workoutRouteBuilders(as: caller, requestID: requestID).map {
                    RouteBuilderInfo(
                        builder: $0.id,
                        createdAt: $0.createdAt,
                        count: $0.count,
                        lastTimestamp: $0.lastTimestamp
                    )
                }
            )
        case Method.workoutRouteDiscard:
            let p = try params(RouteBuilderParams.self, from: data)
            try await engine.discardWorkoutRoute(builder: p.builder, as: caller, requestID: requestID)
            return Empty()
        default:
            return nil
        }
    }

    /// Starts forwarding a follower's events; answers with the session as it is.
    private func follow(_ follower: WorkoutSessionFollower) -> WorkoutSessionResult {
        let delivery = Task { [self] in
            for await event in follower.events {
                await send(
                    notification: Method.workoutSessionEvent,
                    Self.params(of: event, session: follower.session.id)
                )
            }
            // The session finished or failed, or the follower was replaced: forget it here.
            state.withLock { state in
                if state.workouts[follower.session.id]?.follower.id == follower.id {
                    state.workouts[follower.session.id] = nil
                }
            }
        }
        let previous = state.withLock { state -> FollowedWorkout? in
            defer { state.workouts[follower.session.id] = FollowedWorkout(follower: follower, delivery: delivery) }
            return state.workouts[follower.session.id]
        }
        if let previous, let engine = try? daemon.engine() { engine.stopFollowing(previous.follower) }
        // The connection closed while this request ran (it timed out, say): stop at once.
        if state.withLock({ $0.ended }), let engine = try? daemon.engine() {
            state.withLock { _ = $0.workouts.removeValue(forKey: follower.session.id) }
            engine.stopFollowing(follower)
        }
        let session = follower.session
        return WorkoutSessionResult(session: session, elapsedTime: session.elapsedTime(at: Date()))
    }

    private func followedWorkout(_ session: UUID) throws -> FollowedWorkout {
        guard let followed = state.withLock({ $0.workouts[session] }) else {
            throw RPCError.from(
                HealthError.invalidArgument(
                    "this connection does not follow that workout session (start, recover or mirror it first)",
                    field: "session"
                )
            )
        }
        return followed
    }

    /// Stops following every session (the connection closed); the sessions go on.
    func endWorkouts() async {
        let followed = state.withLock { state in
            defer { state.workouts = [:] }
            return Array(state.workouts.values)
        }
        for workout in followed {
            (try? daemon.engine())?.stopFollowing(workout.follower)
            await workout.delivery.value
        }
    }

    static func params(of event: WorkoutSessionEvent, session: UUID) -> WorkoutSessionEventParams {
        switch event {
        case .stateChanged(let change):
            var params = WorkoutSessionEventParams(session: session, kind: .stateChanged)
            params.change = change
            return params
        case .generated(let workoutEvent):
            var params = WorkoutSessionEventParams(session: session, kind: .generated)
            params.event = workoutEvent
            return params
        case .collected(let types, let statistics, let elapsedTime):
            var params = WorkoutSessionEventParams(session: session, kind: .collected)
            params.types = types
            params.statistics = statistics
            params.elapsedTime = elapsedTime
            return params
        case .collectedEvents(let events):
            var params = WorkoutSessionEventParams(session: session, kind: .collectedEvents)
            params.events = events
            return params
        case .remoteData(let data):
            var params = WorkoutSessionEventParams(session: session, kind: .remoteData)
            params.data = data.base64EncodedString()
            return params
        case .finished(let workout):
            var params = WorkoutSessionEventParams(session: session, kind: .finished)
            params.workout = workout
            return params
        case .failed(let error):
            var params = WorkoutSessionEventParams(session: session, kind: .failed)
            params.error = error
            return params
        }
    }
}
