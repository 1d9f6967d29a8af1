import AuditLog
public import Foundation
public import HealthModel
public import VaultStore

/// Live workouts (docs/WORKOUTS.md): HealthKit's `HKWorkoutSession` and `HKLiveWorkoutBuilder`
/// with its data source, kept in the vault so that a session survives its app's disconnection
/// and the daemon's restart. A session belongs to the app that started it; one session per app.
/// Every step is audited: `workout.session` for steps without health data, `workout.collect` for
/// statistics read, `save` for samples added, `workout.finish` and `workout.discard`.
extension VaultEngine {
    /// How far past the vault's clock a sample may start and still be collected (another
    /// device's clock may run a little ahead).
    public static let collectedClockSkew: TimeInterval = 60

    /// The most bytes one `sendToRemote` may carry.
    public static let maximumRemoteDataBytes = 65_536

    /// An app's new workout session, not started, with the connection that created it as its
    /// primary follower. The app needs a share grant for workouts (`authorizationDenied`
    /// otherwise), as HealthKit's does. A session of the app not yet finished or discarded ends
    /// (its followers get `failed` with `anotherWorkoutSessionStarted`; its builder's samples
    /// stay saved, associated with no workout).
    public func startWorkoutSession(
        _ configuration: WorkoutConfiguration,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> WorkoutSessionFollower {
        let appID = try Self.sessionApp(caller)
        let types = [ObjectType.workoutTypeIdentifier]
        let (session, replaced) = try await perform { [self] () throws -> (WorkoutSessionSnapshot, UUID?) in
            try audited(caller, .workoutSession, types: types, requestID: requestID) {
                try database.write { db in
                    _ = try requireApp(appID, db)
                    guard try GrantStore.grantedTypes(appID, .share, at: now(), db).contains(.workout) else {
                        throw HealthError(
                            .authorizationDenied,
                            "a workout session needs the app's share grant for \(ObjectType.workoutTypeIdentifier)",
                            field: "configuration"
                        )
                    }
                    // Read and changed under the writer's lock, with the rows (WorkoutSessions.change).
                    let previous = workoutSessions.session(of: appID)
                    if let previous {
                        try store.dissociate(workout: previous.builder.workoutUUID, in: db)
                        try store.deleteWorkoutSession(previous, in: db)
                        workoutSessions.change(previous.id, to: nil, in: db)
                        try append(entry(caller, .workoutDiscard, types: types, requestID: requestID), in: db)
                    }
                    let session = WorkoutSessionSnapshot(app: appID, configuration: configuration)
                    try store.saveWorkoutSession(session, in: db)
                    workoutSessions.change(session.id, to: session, in: db)
                    try append(entry(caller, .workoutSession, types: types, requestID: requestID), in: db)
                    return (session, previous?.id)
                }
            }
        }
        if let replaced {
            workoutSessions.remove(
                replaced,
                last: .failed(
                    HealthError(
                        .anotherWorkoutSessionStarted,
                        "the app started another workout session, which ended this one"
                    )
                )
            )
        }
        return workoutSessions.follow(session, mirror: false, replaced: Self.followedElsewhere)
    }

    /// The app's session not yet finished or discarded (HealthKit's
    /// `recoverActiveWorkoutSession`), followed from now on by this connection as its primary
    /// (another primary connection's stream ends with `failed`); nil when there is none.
    public func recoverWorkoutSession(
        as caller: Caller,
        replacing own: Set<UUID> = [],
        requestID: String = ""
    ) async throws -> WorkoutSessionFollower? {
        try await followWorkoutSession(nil, mirror: false, replacing: own, as: caller, requestID: requestID)
    }

    /// Follows the app's session as a mirror (HealthKit's mirrored session: the phone beside the
    /// watch): its state changes, generated events, live statistics and remote data arrive; it
    /// may read statistics and send data, not change the session. `invalidArgument` (field
    /// `session`) when the app has no such session.
    public func mirrorWorkoutSession(
        _ id: UUID,
        as caller: Caller,
        requestID: String = ""
    ) async throws
        -> WorkoutSessionFollower
    {
        guard let follower = try await followWorkoutSession(id, mirror: true, as: caller, requestID: requestID) else {
            throw Self.noSuchSession
        }
        return follower
    }

    private func followWorkoutSession(
        _ id: UUID?,
        mirror: Bool,
        replacing own: Set<UUID> = [],
        as caller: Caller,
        requestID: String
    ) async throws -> WorkoutSessionFollower? {
        let appID = try Self.sessionApp(caller)
        let session = try await perform { [self] () throws -> WorkoutSessionSnapshot? in
            try audited(caller, .workoutSession, types: [], requestID: requestID) {
                try database.write { db in
                    _ = try requireApp(appID, db)
                    var session = workoutSessions.session(of: appID)
                    if let id, session?.id != id { session = nil }
                    try append(
                        entry(
                            caller,
                            .workoutSession,
                            types: session == nil ? [] : [ObjectType.workoutTypeIdentifier],
                            count: session == nil ? 0 : 1,
                            requestID: requestID
                        ),
                        in: db
                    )
                    return session
                }
            }
        }
        guard let session else { return nil }
        return workoutSessions.follow(session, mirror: mirror, replaced: Self.followedElsewhere, silently: own)
    }

    /// Stops following a session (the connection closed, or the app asked); the session goes on.
    public func stopFollowing(_ follower: WorkoutSessionFollower) {
        workoutSessions.unfollow(follower.id, of: follower.session.id)
    }

    /// Takes a session action (prepare, start, pause, resume, stop, end) at `date` (now when
    /// nil) for the session's primary follower: the state changes it made, sent to every
    /// follower with the events it generated. `invalidArgument` (field `state`) for a transition
    /// HealthKit does not allow; a mirror may not change the session.
    @discardableResult
    public func workoutSession(
        _ action: WorkoutSessionAction,
        at date: Date? = nil,
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> [WorkoutSessionStateChange] {
        let date = date ?? Date()
        let (changes, events) = try await changeSession(follower, as: caller, requestID: requestID) { session in
            try session.take(action, at: date)
        }
        for change in changes { workoutSessions.send(.stateChanged(change), to: follower.session.id) }
        for event in events { workoutSessions.send(.generated(event), to: follower.session.id) }
        return changes
    }

    /// `beginCollection(at:)`: the builder starts collecting; once only, before it ends.
    public func beginWorkoutCollection(
        at date: Date,
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        try await changeSession(follower, as: caller, requestID: requestID) { session in
            guard session.state != .ended else {
                throw HealthError.invalidArgument("the session has ended", field: "state")
            }
            try session.builder.beginCollection(at: date)
        }
    }

    /// `endCollection(at:)`: the builder stops collecting; the workout will end at `date`.
    public func endWorkoutCollection(
        at date: Date,
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        try await changeSession(follower, as: caller, requestID: requestID) { session in
            try session.builder.endCollection(at: date)
        }
    }

    /// The data source's types (`enableCollection(for:predicate:)` and
    /// `disableCollection(for:)`): the builder collects the samples of these types saved into the
    /// vault while it collects and the session runs, by any app whose samples of the type the
    /// app may read, and its own. A type the app may neither read nor share is collected from no
    /// one, silently: it is absent from the live statistics as if no data came.
    public func setWorkoutCollectedTypes(
        _ types: Set<SampleType>,
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        try await changeSession(
            follower,
            types: types.sortedIdentifiers,
            as: caller,
            requestID: requestID
        ) { session in
            try session.builder.collect(types)
        }
    }

    /// `addWorkoutEvents`: laps, segments and markers (pauses and resumes come from the session),
    /// each within the collection's span; sent to every follower.
    public func addWorkoutEvents(
        _ events: [WorkoutEvent],
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        try await changeSession(follower, as: caller, requestID: requestID) { session in
            try session.builder.add(events)
        }
        workoutSessions.send(.collectedEvents(events), to: follower.session.id)
    }

    /// `addMetadata`: merged into the workout's metadata (a key given again replaces its value).
    public func addWorkoutMetadata(
        _ metadata: Metadata,
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        try await changeSession(follower, as: caller, requestID: requestID) { session in
            try session.builder.add(metadata)
        }
    }

    /// `beginNewActivity(configuration:date:metadata:)`: a new activity of a multi-activity
    /// workout, within the collection; the current one must have ended.
    public func beginWorkoutActivity(
        _ configuration: WorkoutConfiguration,
        at date: Date,
        metadata: Metadata = [:],
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        try await changeSession(follower, as: caller, requestID: requestID) { session in
            try session.builder.beginActivity(configuration, at: date, metadata: metadata)
        }
    }

    /// `endCurrentActivity(on:)`.
    public func endWorkoutActivity(
        at date: Date,
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        try await changeSession(follower, as: caller, requestID: requestID) { session in
            try session.builder.endActivity(at: date)
        }
    }

    /// `add(_:)`: saves the app's samples (as `samples.save` does: share grants, attribution,
    /// audit entry `save`) and associates them with the workout, whatever the data source
    /// collects.
    @discardableResult
    public func addWorkoutSamples(
        _ samples: [Sample],
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> SaveOutcome {
        let session = try primarySession(follower, of: caller)
        guard session.builder.startDate != nil, session.builder.endDate == nil else {
            throw HealthError.invalidArgument("the builder adds samples while it collects", field: "objects")
        }
        return try await save(
            samples,
            as: caller,
            requestID: requestID,
            addingTo: (workout: session.builder.workoutUUID, session: session.id)
        )
    }

    /// `statistics(for:)`: the statistics of one quantity type over the samples collected or
    /// added so far that the app may see now (a sum for a cumulative type; average, minimum,
    /// maximum and most recent for a discrete one; sources merged as for any statistics). Nil
    /// when there are none. A mirror may ask.
    public func workoutStatistics(
        _ type: QuantityTypeIdentifier,
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> Statistics? {
        let session = try followedSession(follower, of: caller)
        return try await collectedStatistics([type], of: session, as: caller, requestID: requestID).first
    }

    /// The builder's elapsed time at `date` (now when nil): the time the session ran since
    /// collection began, pauses excluded.
    public func workoutElapsedTime(
        at date: Date? = nil,
        follower: WorkoutSessionFollower,
        as caller: Caller
    ) throws
        -> TimeInterval
    {
        try followedSession(follower, of: caller).elapsedTime(at: date ?? Date())
    }

    /// The session as it is now, for any of its followers.
    public func workoutSession(follower: WorkoutSessionFollower, as caller: Caller) throws -> WorkoutSessionSnapshot {
        try followedSession(follower, of: caller)
    }

    /// `sendToRemoteWorkoutSession(data:)`: the bytes go to every other follower of the session
    /// (at most ``maximumRemoteDataBytes``); audited without them.
    public func sendWorkoutData(
        _ data: Data,
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        let session = try followedSession(follower, of: caller)
        guard data.count <= Self.maximumRemoteDataBytes else {
            throw HealthError(
                .dataSizeExceeded,
                "data sent to a remote session is at most \(Self.maximumRemoteDataBytes) bytes",
                field: "data"
            )
        }
        try await perform { [self] in try record(entry(caller, .workoutSession, requestID: requestID)) }
        workoutSessions.send(.remoteData(data), to: session.id, except: follower.id)
    }

    /// `finishWorkout()`: saves the workout, after `endCollection(at:)`: its span is the
    /// collection's, its duration the elapsed time, its events, metadata and activities (the
    /// current one ended with the collection) the builder's, its statistics those of every
    /// quantity type among its samples, its totals the energy burned and the distance of its
    /// activity's kind; the samples stay associated with it. The session ends if it had not.
    /// Needs the share grant for workouts, as any save.
    public func finishWorkout(
        follower: WorkoutSessionFollower,
        as caller: Caller,
        requestID: String = ""
    )
        async throws -> Workout
    {
        let appID = try Self.sessionApp(caller)
        let started = try primarySession(follower, of: caller)
        let types = [ObjectType.workoutTypeIdentifier]
        let (workout, changes, saved) = try await perform {
            [self] () throws -> (Workout, [WorkoutSessionStateChange], SampleChanges) in
            try audited(caller, .workoutFinish, types: types, requestID: requestID) {
                try database.write { db in
                    let app = try requireApp(appID, db)
                    guard var session = workoutSessions.session(started.id) else { throw Self.noSuchSession }
                    guard let end = session.builder.endDate, let start = session.builder.startDate else {
                        throw HealthError.invalidArgument(
                            "end the builder's collection before finishing the workout",
                            field: "session"
                        )
                    }
                    guard try GrantStore.grantedTypes(appID, .share, at: now(), db).contains(.workout) else {
                        throw HealthError(
                            .authorizationDenied,
                            "saving the workout needs the app's share grant for \(ObjectType.workoutTypeIdentifier)"
                        )
                    }
                    var changes: [WorkoutSessionStateChange] = []
                    if session.state != .ended {
                        changes = try session.take(.end, at: max(end, session.stateChanges.last?.date ?? end)).changes
                    }
                    let scope = try scope(for: caller, db)
                    let workout = try buildWorkout(session, start: start, end: end, app: app, scope: scope, db)
                    // Its events' and activities' metadata could make it more than an answer holds.
                    try checkAnswerable(.workout(workout), field: "session")
                    let sequence = try store.changeSequence(in: db)
                    _ = try store.save([.workout(workout)], in: db)
                    let saved = SampleChanges(
                        [.workout],
                        by: appID,
                        after: sequence,
                        through: try store.changeSequence(in: db)
                    )
                    try countBackgroundChanges(saved, db)
                    try store.deleteWorkoutSession(session, in: db)
                    workoutSessions.change(session.id, to: nil, in: db)
                    let read = Set(workout.allStatistics.map { SampleType.quantity($0.quantityType) }).sortedIdentifiers
                    try append(
                        entry(caller, .workoutFinish, types: types + read, count: 1, requestID: requestID),
                        in: db
                    )
                    return (workout, changes, saved)
                }
            }
        }
        // The session's end (when finishing ended it), then the workout, to every follower.
        for change in changes { workoutSessions.send(.stateChanged(change), to: started.id) }
        workoutSessions.remove(started.id, last: .finished(workout))
        await notifyObservers(saved)
        return workout
    }

    /// `discardWorkout()`: the session and its builder go, and no workout is saved; the samples
    /// the app added stay saved, associated with no workout.
    public func discardWorkout(follower: WorkoutSessionFollower, as caller: Caller, requestID: String = "") async throws
    {
        let session = try primarySession(follower, of: caller)
        try await perform { [self] in
            try audited(caller, .workoutDiscard, types: [], requestID: requestID) {
                try database.write { db in
                    guard workoutSessions.session(session.id) != nil else { throw Self.noSuchSession }
                    try store.dissociate(workout: session.builder.workoutUUID, in: db)
                    try store.deleteWorkoutSession(session, in: db)
                    workoutSessions.change(session.id, to: nil, in: db)
                    try append(entry(caller, .workoutDiscard, requestID: requestID), in: db)
                }
            }
        }
        workoutSessions.remove(
            session.id,
            last: .failed(HealthError(.userCanceled, "the workout was discarded"))
        )
    }

    // MARK: Collecting

    /// Associates the samples just saved (inside the save's transaction `db`) with every
    /// session whose builder collects them: one of its data source's types, saved while it
    /// collects and the session runs, starting at or after the collection's start in a span when
    /// the session ran, by its own app or by one whose samples of the type that app may read
    /// (inside its window, when it has one).
    /// Returns the types collected per session.
    func collectIntoWorkouts(
        _ samples: [Sample],
        savedBy appID: String,
        storedAfter sequence: Int64,
        _ db: Connection
    ) throws
        -> [UUID: Set<SampleType>]
    {
        let sessions = workoutSessions.collecting(Set(samples.map(\.sampleType)))
        guard !sessions.isEmpty else { return [:] }
        // A live builder collects what is happening: never a sample that starts in the future.
        let latest = Date().addingTimeInterval(Self.collectedClockSkew)
        var collected: [UUID: Set<SampleType>] = [:]
        for session in sessions {
            let scope = session.app == appID ? nil : try readScope(of: session.app, db)
            let chosen = samples.filter { sample in
                sample.startDate <= latest && session.collects(sample.sampleType, startingAt: sample.startDate)
                    && (scope.map { Self.reads(sample, $0) } ?? true)
            }
            guard !chosen.isEmpty else { continue }
            // Only the rows this save stored: a sample it passed over (an older sync version, one
            // superseded within the batch) is not collected, whatever row bears its UUID.
            let added = try store.associate(
                chosen.map { ($0.uuid, $0.sampleType) },
                ofSource: appID,
                withWorkout: session.builder.workoutUUID,
                storedAfter: sequence,
                in: db
            )
            if added > 0 { collected[session.id] = Set(chosen.map(\.sampleType)) }
        }
        return collected
    }

    /// Whether `scope` reads another app's `sample`: its type is read, and the sample lies inside
    /// the type's window, if it has one.
    static func reads(_ sample: Sample, _ scope: ReadScope) -> Bool {
        let type = sample.sampleType
        guard scope.readableTypes.contains(type) else { return false }
        return scope.windows[type]?.contains(start: sample.startDate, end: sample.endDate) ?? true
    }

    /// Tells a session's followers that samples of `types` were collected, with the statistics
    /// as they now are: one push at a time per session, later collections merged into the next
    /// one, off the saving caller's path. Nothing is read when no connection follows.
    func pushCollected(_ types: Set<SampleType>, for session: UUID) {
        guard workoutSessions.notePush(types, for: session) else { return }
        Task { [self] in
            while let types = workoutSessions.nextPush(for: session) {
                guard let current = workoutSessions.session(session), workoutSessions.hasFollowers(session) else {
                    continue
                }
                let caller = Caller.app(current.app)
                let quantityTypes = types.compactMap { type -> QuantityTypeIdentifier? in
                    if case .quantity(let id) = type { return id }
                    return nil
                }
                // A push that cannot be computed (the audit log cannot be written, the engine
                // stops) is not sent: an empty one would read as data gone.
                guard
                    let statistics = try? await collectedStatistics(
                        quantityTypes,
                        of: current,
                        as: caller,
                        requestID: ""
                    )
                else { continue }
                workoutSessions.send(
                    .collected(
                        types: types.sorted { $0.identifier < $1.identifier },
                        statistics: statistics,
                        elapsedTime: current.elapsedTime(at: Date())
                    ),
                    to: session
                )
            }
        }
    }

    /// The statistics of each type over the builder's samples the app may see now, audited as
    /// one `workout.collect` read. Each type's reading carries on from the last one
    /// (`SampleStore.liveWorkoutStatistics`): it reads only the rows collected since.
    private func collectedStatistics(
        _ types: [QuantityTypeIdentifier],
        of session: WorkoutSessionSnapshot,
        as caller: Caller,
        requestID: String
    ) async throws -> [Statistics] {
        let recorded = types.map(SampleType.quantity).sortedIdentifiers
        return try await perform { [self] in
            try audited(caller, .workoutCollect, types: recorded, requestID: requestID) {
                try readRecorded { db in
                    let scope = try scope(for: caller, db)
                    let statistics = try types.compactMap { type in
                        let (statistics, carry) = try store.liveWorkoutStatistics(
                            type,
                            workout: session.builder.workoutUUID,
                            scope: scope,
                            carrying: workoutSessions.carried(type, of: session.id),
                            in: db
                        )
                        workoutSessions.carry(carry, type, of: session.id)
                        return statistics
                    }
                    return (
                        statistics,
                        entry(caller, .workoutCollect, types: recorded, count: statistics.count, requestID: requestID)
                    )
                }
            }
        }
    }

    /// HealthKit's live statistics of a type: the sum of a cumulative type; the average, minimum,
    /// maximum and most recent value of a discrete one.
    static func workoutStatisticsQuery(
        _ type: QuantityTypeIdentifier,
        predicate: SamplePredicate
    )
        -> StatisticsQueryDescriptor
    {
        StatisticsQueryDescriptor(quantityType: type, predicate: predicate, options: .workout(for: type))
    }

    // MARK: Building the workout

    private func buildWorkout(
        _ session: WorkoutSessionSnapshot,
        start: Date,
        end: Date,
        app: AppRegistration,
        scope: ReadScope,
        _ db: Connection
    ) throws -> Workout {
        let association = SamplePredicate.workout(session.builder.workoutUUID)
        let types = try store.associatedQuantityTypes(workout: session.builder.workoutUUID, in: db)
        func statistics(_ predicate: SamplePredicate) throws -> [Statistics] {
            try types.compactMap { type in
                try store.statistics(
                    matching: Self.workoutStatisticsQuery(type, predicate: predicate),
                    scope: scope,
                    in: db
                )
            }
        }
        // The workout's statistics count its samples that start within its span.
        let all = try statistics(
            .and([association, .date(start: start, end: end, options: [.strictStartDate])])
        )
        var activities: [WorkoutActivity] = []
        for activity in session.builder.activities {
            let activityEnd = min(activity.endDate ?? end, end)
            let span = SamplePredicate.and([
                association,
                .date(start: activity.startDate, end: activityEnd, options: [.strictStartDate]),
            ])
            let ended = max(activityEnd, activity.startDate)
            // The builder's events within the activity's span are the activity's too.
            let events = session.builder.events.filter { $0.startDate >= activity.startDate && $0.endDate <= ended }
            activities.append(
                try WorkoutActivity(
                    uuid: activity.uuid,
                    configuration: activity.workoutConfiguration,
                    start: activity.startDate,
                    end: ended,
                    events: activity.workoutEvents + events.filter { !activity.workoutEvents.contains($0) },
                    metadata: activity.metadata,
                    statistics: try statistics(span)
                )
            )
        }
        let energy = all.first { $0.quantityType == .activeEnergyBurned }?.sumQuantity()
        let distance = session.configuration.activityType.distanceType.flatMap { type in
            all.first { $0.quantityType == type }?.sumQuantity()
        }
        var metadata = session.builder.metadata
        let configuration = session.configuration
        if configuration.locationType != .unknown, metadata[.indoorWorkout] == nil {
            metadata[.indoorWorkout] = .number(configuration.locationType == .indoor ? 1 : 0)
        }
        if configuration.swimmingLocationType != .unknown, metadata[.swimmingLocationType] == nil {
            metadata[.swimmingLocationType] = .number(Double(configuration.swimmingLocationType.rawValue))
        }
        if let lapLength = configuration.lapLength, metadata[.lapLength] == nil {
            metadata[.lapLength] = .quantity(lapLength)
        }
        return try Workout(
            uuid: session.builder.workoutUUID,
            activityType: configuration.activityType,
            start: start,
            end: end,
            duration: min(session.elapsedTime(at: end), end.timeIntervalSince(start)),
            totalEnergyBurned: energy,
            totalDistance: distance,
            events: session.builder.events.filter { $0.startDate >= start && $0.endDate <= end },
            activities: activities,
            statistics: all,
            sourceRevision: SourceRevision(source: app.source),
            metadata: metadata
        )
    }

    // MARK: Sessions and their followers

    static let noSuchSession = HealthError.invalidArgument(
        "no such workout session of this app (it was finished, discarded or replaced)",
        field: "session"
    )

    static let followedElsewhere = HealthError(
        .userCanceled,
        "another connection of the app recovered this workout session"
    )

    static func sessionApp(_ caller: Caller) throws(HealthError) -> String {
        guard case .app(let appID) = caller else {
            throw HealthError.invalidArgument("workout sessions are an app's", field: "session")
        }
        return appID
    }

    /// The session `follower` follows, for its own app, as it is now.
    private func followedSession(_ follower: WorkoutSessionFollower, of caller: Caller) throws -> WorkoutSessionSnapshot
    {
        let appID = try Self.sessionApp(caller)
        guard let session = workoutSessions.session(follower.session.id), session.app == appID,
            workoutSessions.follower(follower.id, of: session.id) != nil
        else { throw Self.noSuchSession }
        return session
    }

    /// The session, when `follower` is its primary: a mirror may not change it.
    private func primarySession(_ follower: WorkoutSessionFollower, of caller: Caller) throws -> WorkoutSessionSnapshot
    {
        let session = try followedSession(follower, of: caller)
        guard !follower.isMirror else {
            throw HealthError.invalidArgument(
                "a mirrored session cannot change the workout; its primary connection does",
                field: "session"
            )
        }
        return session
    }

    /// Changes the session for its primary follower, with the change stored and audited
    /// (`workout.session`) in one transaction.
    @discardableResult
    private func changeSession<T: Sendable>(
        _ follower: WorkoutSessionFollower,
        types: [String] = [],
        as caller: Caller,
        requestID: String,
        _ change: @escaping @Sendable (inout WorkoutSessionSnapshot) throws -> T
    ) async throws -> T {
        let started = try primarySession(follower, of: caller)
        let appID = started.app
        return try await perform { [self] () throws -> T in
            try audited(caller, .workoutSession, types: types, requestID: requestID) {
                try database.write { db in
                    _ = try requireApp(appID, db)
                    guard var session = workoutSessions.session(started.id) else { throw Self.noSuchSession }
                    let result = try change(&session)
                    try store.saveWorkoutSession(session, in: db)
                    workoutSessions.change(session.id, to: session, in: db)
                    try append(entry(caller, .workoutSession, types: types, requestID: requestID), in: db)
                    return result
                }
            }
        }
    }
}
