import AuditLog
public import Foundation
public import HealthModel
public import VaultStore

/// Workout routes (docs/WORKOUTS.md, "Routes"): HealthKit's `HKWorkoutRouteBuilder` and
/// `HKWorkoutRouteQuery`. Location is the most sensitive data the vault holds: it has its own
/// grant (`HKWorkoutRouteTypeIdentifier`), a route another app may not read is, to a reader, a
/// route that does not exist, and no coordinate is ever logged or audited (only counts).
extension VaultEngine {
    /// The most route builders one app may have under way.
    public static let maximumRouteBuilders = 8
    /// The most locations a route query returns at once.
    public static let maximumRouteBatch = 10_000

    /// A new route builder of the app (HealthKit's `HKWorkoutRouteBuilder(healthStore:device:)`);
    /// needs the share grant for routes (`authorizationDenied`). Kept in the vault: it survives
    /// the app's disconnection and the daemon's restart.
    public func beginWorkoutRoute(as caller: Caller, requestID: String = "") async throws -> UUID {
        let appID = try Self.sessionApp(caller)
        let types = [SampleType.workoutRoute.identifier]
        return try await perform { [self] in
            try audited(caller, .workoutRoute, types: types, requestID: requestID) {
                try database.write { db in
                    _ = try requireApp(appID, db)
                    try requireRouteShareGrant(appID, db)
                    let open =
                        try db.scalarInt("SELECT count(*) FROM route_builders WHERE app_id = ?", [appID]) ?? 0
                    guard open < Self.maximumRouteBuilders else {
                        throw HealthError(
                            .dataSizeExceeded,
                            "an app has at most \(Self.maximumRouteBuilders) route builders under way; finish or discard one",
                            field: "builder"
                        )
                    }
                    let id = UUID()
                    try store.beginRoute(id, appID: appID, in: db)
                    try append(entry(caller, .workoutRoute, types: types, requestID: requestID), in: db)
                    return id
                }
            }
        }
    }

    /// `insertRouteData(_:)`: appends locations, in time order (each at or after the one before,
    /// and after those already inserted), at most ``SampleStore/maximumRouteChunk`` per call and
    /// ``SampleStore/maximumRouteLocations`` per route. Returns how many the builder now holds.
    @discardableResult
    public func insertRouteData(
        _ locations: [WorkoutRouteLocation],
        builder: UUID,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> Int {
        let appID = try Self.sessionApp(caller)
        let types = [SampleType.workoutRoute.identifier]
        return try await perform { [self] in
            try audited(caller, .workoutRoute, types: types, requestID: requestID) {
                try database.write { db in
                    _ = try requireApp(appID, db)
                    try requireRouteBuilder(builder, of: appID, db)
                    try requireRouteShareGrant(appID, db)
                    guard !locations.isEmpty else {
                        throw HealthError.invalidArgument("there are no locations to insert", field: "locations")
                    }
                    guard locations.count <= SampleStore.maximumRouteChunk else {
                        throw HealthError(
                            .dataSizeExceeded,
                            "insert at most \(SampleStore.maximumRouteChunk) locations at a time",
                            field: "locations"
                        )
                    }
                    let (held, last) = try store.routeBuilderProgress(builder, in: db)
                    guard held + locations.count <= SampleStore.maximumRouteLocations else {
                        throw HealthError(
                            .dataSizeExceeded,
                            "a route holds at most \(SampleStore.maximumRouteLocations) locations",
                            field: "locations"
                        )
                    }
                    var previous = last
                    for (index, location) in locations.enumerated() {
                        if let previous, location.timestamp < previous {
                            throw HealthError.invalidArgument(
                                "locations go in time order: this one is earlier than the one before",
                                field: "locations[\(index)].timestamp"
                            )
                        }
                        previous = location.timestamp
                    }
                    try store.insertRouteLocations(locations, builder: builder, in: db)
                    try append(
                        entry(caller, .workoutRoute, types: types, count: locations.count, requestID: requestID),
                        in: db
                    )
                    return held + locations.count
                }
            }
        }
    }

    /// `finishRoute(with:metadata:)`: saves the route (its span from its first to its last
    /// location) associated with the app's own workout `workout`, and ends the builder. A
    /// workout that is not the app's own, or does not exist, is `invalidArgument` (field
    /// `workout`), one answer for both. Audited as `save`.
    public func finishWorkoutRoute(
        builder: UUID,
        workout: UUID,
        metadata: Metadata = [:],
        as caller: Caller,
        requestID: String = ""
    ) async throws -> WorkoutRoute {
        let appID = try Self.sessionApp(caller)
        let types = [SampleType.workoutRoute.identifier]
        let (route, changes) = try await perform { [self] () throws -> (WorkoutRoute, SampleChanges) in
            try audited(caller, .save, types: types, requestID: requestID) {
                try database.write { db in
                    let app = try requireApp(appID, db)
                    try requireRouteBuilder(builder, of: appID, db)
                    try requireRouteShareGrant(appID, db)
                    let own = ReadScope.app(appID, readableTypes: [])
                    guard case .workout? = try store.sample(uuid: workout, scope: own, in: db) else {
                        throw HealthError.invalidArgument("no workout of this app has that UUID", field: "workout")
                    }
                    let (count, _) = try store.routeBuilderProgress(builder, in: db)
                    guard count > 0, let span = try store.routeBuilderSpan(builder, in: db) else {
                        throw HealthError.invalidArgument("the route holds no location yet", field: "builder")
                    }
                    let route = try WorkoutRoute(
                        start: span.start,
                        end: span.end,
                        count: count,
                        sourceRevision: SourceRevision(source: app.source),
                        metadata: metadata
                    )
                    let sequence = try store.changeSequence(in: db)
                    try store.finishRoute(route, builder: builder, workout: workout, in: db)
                    let changes = SampleChanges(
                        [.workoutRoute],
                        by: appID,
                        after: sequence,
                        through: try store.changeSequence(in: db)
                    )
                    try countBackgroundChanges(changes, db)
                    try append(entry(caller, .save, types: types, count: 1, requestID: requestID), in: db)
                    return (route, changes)
                }
            }
        }
        await notifyObservers(changes)
        return route
    }

    /// The app's route builders under way, oldest first (to take one up again after a
    /// disconnection or a crash, or discard it): each one's id, when it began, how many locations
    /// it holds and the last one's time. Audited as `workout.route` (count: the builders).
    public func workoutRouteBuilders(as caller: Caller, requestID: String = "") async throws -> [RouteBuilderState] {
        let appID = try Self.sessionApp(caller)
        let types = [SampleType.workoutRoute.identifier]
        return try await perform { [self] in
            try audited(caller, .workoutRoute, types: types, requestID: requestID) {
                try database.write { db in
                    _ = try requireApp(appID, db)
                    let builders = try store.routeBuilders(of: appID, in: db).map { builder in
                        let progress = try store.routeBuilderProgress(builder.id, in: db)
                        return RouteBuilderState(
                            id: builder.id,
                            createdAt: builder.createdAt,
                            count: progress.count,
                            lastTimestamp: progress.last
                        )
                    }
                    try append(
                        entry(caller, .workoutRoute, types: types, count: builders.count, requestID: requestID),
                        in: db
                    )
                    return builders
                }
            }
        }
    }

    /// Drops a route builder and its locations.
    public func discardWorkoutRoute(builder: UUID, as caller: Caller, requestID: String = "") async throws {
        let appID = try Self.sessionApp(caller)
        try await perform { [self] in
            try audited(caller, .workoutRoute, types: [], requestID: requestID) {
                try database.write { db in
                    _ = try requireApp(appID, db)
                    try requireRouteBuilder(builder, of: appID, db)
                    try store.discardRoute(builder, in: db)
                    try append(entry(caller, .workoutRoute, requestID: requestID), in: db)
                }
            }
        }
    }

    /// HealthKit's `HKWorkoutRouteQuery`: a route's locations from `offset`, at most `limit`
    /// (1 to ``maximumRouteBatch``), in time order, with the offset to ask from next when more
    /// follow. A route the caller may not read (another app's, without the read grant for
    /// routes) answers exactly as a UUID that names nothing: no locations, no next offset.
    public func routeLocations(
        _ route: UUID,
        offset: Int = 0,
        limit: Int = maximumRouteBatch,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> (locations: [WorkoutRouteLocation], next: Int?) {
        guard offset >= 0 else { throw HealthError.invalidArgument("the offset is negative", field: "offset") }
        guard (1...Self.maximumRouteBatch).contains(limit) else {
            throw HealthError.invalidArgument("the limit must be 1 to \(Self.maximumRouteBatch)", field: "limit")
        }
        return try await read(.queryRoute, types: [.workoutRoute], as: caller, requestID: requestID) {
            [self] db, scope in
            let result = try store.routeLocations(route, scope: scope, offset: offset, limit: limit, in: db)
            return ((result.locations, result.next), result.locations.count)
        }
    }

    private func requireRouteShareGrant(_ appID: String, _ db: Connection) throws {
        guard try GrantStore.grantedTypes(appID, .share, at: now(), db).contains(.workoutRoute) else {
            throw HealthError(
                .authorizationDenied,
                "a route needs the app's share grant for \(SampleType.workoutRoute.identifier)",
                field: "builder"
            )
        }
    }

    private func requireRouteBuilder(_ builder: UUID, of appID: String, _ db: Connection) throws {
        guard try store.routeBuilderApp(builder, in: db) == appID else {
            throw HealthError.invalidArgument(
                "no route builder of this app has that id (finished, discarded or never begun)",
                field: "builder"
            )
        }
    }
}

/// A route builder under way: its id, when it began, how many locations it holds, and the last
/// one's time (nil when it holds none).
public struct RouteBuilderState: Hashable, Sendable, Codable {
    public let id: UUID
    public let createdAt: Date
    public let count: Int
    public let lastTimestamp: Date?

    public init(id: UUID, createdAt: Date, count: Int, lastTimestamp: Date?) {
        self.id = id
        self.createdAt = createdAt
        self.count = count
        self.lastTimestamp = lastTimestamp
    }
}
