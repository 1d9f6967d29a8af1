public import Foundation
public import HealthModel
public import VaultProtocol

/// Builds a workout's route (HealthKit's `HKWorkoutRouteBuilder`): insert locations as they come,
/// then finish the route with the workout it belongs to. The vault keeps what was inserted, so a
/// builder survives a disconnection; ``id`` names it again.
///
///     let routeBuilder = try await WorkoutRouteBuilder(healthStore: store)
///     try await routeBuilder.insertRouteData(locations)
///     …
///     let route = try await routeBuilder.finishRoute(with: workout)
public final class WorkoutRouteBuilder: Sendable {
    let store: HealthStore
    public let id: UUID

    /// Begins a route; needs the share grant for `HKWorkoutRouteTypeIdentifier`.
    public init(healthStore: HealthStore) async throws {
        self.store = healthStore
        self.id = try await healthStore.call(Method.workoutRouteBegin, Empty(), as: RouteBuilderParams.self).builder
    }

    /// A builder begun earlier (by this app), by its id.
    public init(healthStore: HealthStore, id: UUID) {
        self.store = healthStore
        self.id = id
    }

    /// Appends locations, in time order; at most 10,000 per call. Returns how many the route holds.
    @discardableResult
    public func insertRouteData(_ locations: [WorkoutRouteLocation]) async throws -> Int {
        try await store.call(
            Method.workoutRouteInsert,
            RouteInsertParams(builder: id, locations: locations),
            as: RouteInsertResult.self
        ).count
    }

    /// Saves the route with the app's own workout it belongs to.
    public func finishRoute(with workout: Workout, metadata: Metadata? = nil) async throws -> WorkoutRoute {
        try await store.call(
            Method.workoutRouteFinish,
            RouteFinishParams(builder: id, workout: workout.uuid, metadata: metadata),
            as: RouteFinishResult.self
        ).route
    }

    /// Drops the route and what was inserted.
    public func discard() async throws {
        _ = try await store.call(Method.workoutRouteDiscard, RouteBuilderParams(builder: id), as: Empty.self)
    }
}

extension HealthStore {
    /// The app's route builders under way, oldest first, with what each holds: to take one up
    /// again after a disconnection or a crash (``WorkoutRouteBuilder/init(healthStore:id:)``), or
    /// discard it. An app has at most 8 under way.
    public func workoutRouteBuilders() async throws -> [RouteBuilderInfo] {
        try await call(Method.workoutRouteList, Empty(), as: RouteBuildersResult.self).builders
    }

    /// HealthKit's `HKWorkoutRouteQuery`: the route's locations in time order, in batches of at
    /// most `batchSize` (up to 10,000). A route the app may not read gives no batch at all, as a
    /// route that does not exist.
    public func routeLocations(
        of route: WorkoutRoute,
        batchSize: Int = 10_000
    )
        -> AsyncThrowingStream<[WorkoutRouteLocation], any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var offset: Int? = 0
                    while let from = offset, !Task.isCancelled {
                        let result = try await call(
                            Method.queryRoute,
                            RouteQueryParams(route: route.uuid, offset: from, limit: batchSize),
                            as: RouteQueryResult.self
                        )
                        if !result.locations.isEmpty { continuation.yield(result.locations) }
                        offset = result.next
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
