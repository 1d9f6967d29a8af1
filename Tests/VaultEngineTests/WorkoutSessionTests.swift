import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultCrypto
import VaultEngine
import VaultStore

/// Live workouts through the engine: a session's life, its builder collecting another app's
/// samples, live statistics, the finished workout and its samples, the rules of access, recovery.
@Suite struct WorkoutSessionTests {
    static let runner = "org.example.runner"
    static let strap = "org.example.strap"
    static let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)
    static let bpm = try! HealthUnit(from: "count/min")

    /// A heart rate in beats per minute, rounded to a millionth (statistics answer in count/s).
    static func bpm(_ quantity: Quantity?) -> Double? {
        guard let value = try? quantity?.doubleValue(for: bpm) else { return nil }
        return (value * 1e6).rounded() / 1e6
    }

    /// A vault with a running app (shares workouts, energy and distance; reads heart rate when
    /// `readsHeartRate`) and a heart-rate strap app.
    static func vault(readsHeartRate: Bool = true) async throws -> TestEngine {
        let test = try TestEngine()
        try await test.enroll(runner)
        try await test.enroll(strap)
        try await test.grant(
            .share,
            .workout,
            .quantity(.activeEnergyBurned),
            .quantity(.distanceWalkingRunning),
            .quantity(.heartRate),
            to: runner
        )
        if readsHeartRate { try await test.grant(.read, .quantity(.heartRate), to: runner) }
        try await test.grant(.share, .quantity(.heartRate), to: strap)
        return test
    }

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    static func heartRate(_ bpm: Double, at seconds: Double, by app: String = strap) throws -> Sample {
        .quantity(
            try QuantitySample(
                type: .heartRate,
                quantity: Quantity(bpm, Self.bpm),
                start: at(seconds),
                end: at(seconds),
                sourceRevision: SourceRevision(source: Source(bundleIdentifier: app, name: app))
            )
        )
    }

    static func quantity(
        _ type: QuantityTypeIdentifier,
        _ value: Double,
        _ unit: HealthUnit,
        from: Double,
        to: Double
    )
        throws -> Sample
    {
        .quantity(
            try QuantitySample(
                type: type,
                quantity: Quantity(value, unit),
                start: at(from),
                end: at(to),
                sourceRevision: SourceRevision(source: Source(bundleIdentifier: runner, name: runner))
            )
        )
    }

    /// Waits for the next `collected` event, skipping others; nil after a few seconds.
    static func nextCollected(
        _ iterator: inout AsyncStream<WorkoutSessionEvent>.Iterator
    ) async
        -> (types: [SampleType], statistics: [Statistics], elapsedTime: TimeInterval)?
    {
        while let event = await iterator.next() {
            if case .collected(let types, let statistics, let elapsed) = event { return (types, statistics, elapsed) }
        }
        return nil
    }

    @Test func aRunCollectsTheStrapsHeartRatePausesAndSavesOneWorkoutWithItsSamples() async throws {
        let test = try await Self.vault()
        let engine = test.engine
        let app = Caller.app(Self.runner)
        let strap = Caller.app(Self.strap)
        let configuration = try WorkoutConfiguration(activityType: .running, locationType: .outdoor)
        let session = try await engine.startWorkoutSession(configuration, as: app)
        var events = session.events.makeAsyncIterator()
        #expect(session.session.state == .notStarted)

        try await engine.workoutSession(.prepare, at: Self.at(0), follower: session, as: app)
        try await engine.workoutSession(.startActivity, at: Self.at(0), follower: session, as: app)
        try await engine.beginWorkoutCollection(at: Self.at(0), follower: session, as: app)
        try await engine.setWorkoutCollectedTypes(
            [.quantity(.heartRate), .quantity(.activeEnergyBurned), .quantity(.distanceWalkingRunning)],
            follower: session,
            as: app
        )
        // The strap's heart rate while the run runs: collected, and pushed with live statistics.
        try await engine.save([try Self.heartRate(120, at: 10), try Self.heartRate(140, at: 20)], as: strap)
        let first = try #require(await Self.nextCollected(&events))
        #expect(first.types == [.quantity(.heartRate)])
        let live = try #require(first.statistics.first)
        #expect(live.quantityType == .heartRate)
        #expect(Self.bpm(live.minimumQuantity()) == 120)
        #expect(Self.bpm(live.maximumQuantity()) == 140)
        // The runner's own energy and distance, added.
        try await engine.addWorkoutSamples(
            [
                try Self.quantity(.activeEnergyBurned, 30, .kilocalorie, from: 0, to: 300),
                try Self.quantity(.distanceWalkingRunning, 1000, .meter, from: 0, to: 300),
            ],
            follower: session,
            as: app
        )
        // Paused from 300 s to 400 s: a heart rate saved then is not collected.
        try await engine.workoutSession(.pause, at: Self.at(300), follower: session, as: app)
        try await engine.save([try Self.heartRate(90, at: 350)], as: strap)
        try await engine.workoutSession(.resume, at: Self.at(400), follower: session, as: app)
        try await engine.addWorkoutEvents([WorkoutEvent(type: .lap, start: Self.at(450))], follower: session, as: app)
        try await engine.save([try Self.heartRate(160, at: 500)], as: strap)
        // Another app's heart rate before the collection began (saved now) is not collected either.
        try await engine.save([try Self.heartRate(60, at: -100)], as: strap)
        #expect(try engine.workoutElapsedTime(at: Self.at(600), follower: session, as: app) == 500)
        let changes = try await engine.workoutSession(.end, at: Self.at(600), follower: session, as: app)
        #expect(changes.map(\.to) == [.stopped, .ended])
        try await engine.endWorkoutCollection(at: Self.at(600), follower: session, as: app)
        let workout = try await engine.finishWorkout(follower: session, as: app)

        #expect(workout.workoutActivityType == .running)
        #expect(workout.startDate == Self.at(0) && workout.endDate == Self.at(600))
        #expect(workout.duration == 500)
        #expect(workout.totalEnergyBurned == Quantity(30, .kilocalorie))
        #expect(workout.totalDistance == Quantity(1000, .meter))
        #expect(workout.workoutEvents.map(\.type) == [.pause, .resume, .lap])
        #expect(workout.metadata[.indoorWorkout] == .number(0))
        let heart = try #require(workout.statistics(for: .heartRate))
        #expect(Self.bpm(heart.minimumQuantity()) == 120)
        #expect(Self.bpm(heart.maximumQuantity()) == 160)
        #expect(
            Set(workout.allStatistics.map(\.quantityType)) == [
                .heartRate, .activeEnergyBurned, .distanceWalkingRunning,
            ]
        )

        // The workout is saved once, and its samples are exactly the collected and added ones.
        let saved = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.workout)]),
            as: app
        )
        #expect(saved == [.workout(workout)])
        let associated = try await engine.samples(
            matching: SampleQueryDescriptor(
                predicates: [
                    SampleTypePredicate(.quantity(.heartRate), predicate: .objects(from: workout)),
                    SampleTypePredicate(.quantity(.activeEnergyBurned), predicate: .objects(from: workout)),
                    SampleTypePredicate(.quantity(.distanceWalkingRunning), predicate: .objects(from: workout)),
                ],
                sortDescriptors: [SampleSortDescriptor(.startDate)]
            ),
            as: app
        )
        #expect(associated.count == 5)
        #expect(
            associated.compactMap { sample -> Double? in
                guard case .quantity(let q) = sample, q.quantityType == .heartRate else { return nil }
                return q.quantity.value
            } == [120, 140, 160]
        )
        // The followers heard the end; the session is gone.
        var sawFinish = false
        while let event = await events.next() {
            if case .finished(let finished) = event { sawFinish = finished == workout }
        }
        #expect(sawFinish)
        #expect(try await engine.recoverWorkoutSession(as: app) == nil)
        // Deleting the workout takes its associations with it; its samples stay.
        #expect(try await engine.delete([workout.uuid], as: app) == 1)
        let orphaned = try await engine.samples(
            matching: SampleQueryDescriptor(
                predicates: [SampleTypePredicate(.quantity(.heartRate), predicate: .objects(from: workout))]
            ),
            as: app
        )
        #expect(orphaned.isEmpty)
        #expect(try test.vault.db().read { try $0.scalarInt("SELECT count(*) FROM workout_samples") } == 0)
        // Every step is in the audit log, without values.
        let operations = try test.auditEntries().map(\.operation.rawValue)
        #expect(operations.contains("workout.session") && operations.contains("workout.collect"))
        #expect(operations.contains("workout.finish"))
    }

    @Test func aFutureSampleIsNotCollectedAndTheWorkoutCountsOnlyItsSpan() async throws {
        let test = try await Self.vault()
        let engine = test.engine
        let app = Caller.app(Self.runner)
        let session = try await engine.startWorkoutSession(try WorkoutConfiguration(activityType: .running), as: app)
        try await engine.workoutSession(.startActivity, at: Self.at(0), follower: session, as: app)
        try await engine.beginWorkoutCollection(at: Self.at(0), follower: session, as: app)
        try await engine.setWorkoutCollectedTypes([.quantity(.heartRate)], follower: session, as: app)
        let workout = session.session.builder.workoutUUID
        // The strap's clock says next year: not collected. Its sample of now is.
        let nextYear = Date().addingTimeInterval(365 * 86_400).timeIntervalSince(Self.t0)
        try await engine.save(
            [try Self.heartRate(200, at: nextYear), try Self.heartRate(120, at: 30)],
            as: .app(Self.strap)
        )
        let live = try await engine.workoutStatistics(.heartRate, follower: session, as: app)
        #expect(Self.bpm(live?.maximumQuantity()) == 120)
        // A heart rate after the collection's end, added while collecting: associated, not counted.
        try await engine.addWorkoutSamples(
            [try Self.heartRate(150, at: 700, by: Self.runner)],
            follower: session,
            as: app
        )
        try await engine.endWorkoutCollection(at: Self.at(600), follower: session, as: app)
        let finished = try await engine.finishWorkout(follower: session, as: app)
        let statistics = try #require(finished.allStatistics.first { $0.quantityType == .heartRate })
        #expect(Self.bpm(statistics.maximumQuantity()) == 120)
        #expect(Self.bpm(statistics.averageQuantity()) == 120)
        let associated = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [
                SampleTypePredicate(.quantity(.heartRate), predicate: .workout(workout))
            ]),
            as: app
        )
        #expect(associated.count == 2)
    }

    @Test func aTypeTheAppMayNotReadIsAbsentFromLiveStatisticsAsIfNoDataCame() async throws {
        let test = try await Self.vault(readsHeartRate: false)
        let engine = test.engine
        let app = Caller.app(Self.runner)
        let session = try await engine.startWorkoutSession(try WorkoutConfiguration(activityType: .running), as: app)
        try await engine.workoutSession(.startActivity, at: Self.at(0), follower: session, as: app)
        try await engine.beginWorkoutCollection(at: Self.at(0), follower: session, as: app)
        try await engine.setWorkoutCollectedTypes([.quantity(.heartRate)], follower: session, as: app)
        try await engine.save([try Self.heartRate(120, at: 10)], as: .app(Self.strap))
        #expect(try await engine.workoutStatistics(.heartRate, follower: session, as: app) == nil)
        // Its own heart rate is collected.
        try await engine.save([try Self.heartRate(100, at: 20, by: Self.runner)], as: app)
        let own = try await engine.workoutStatistics(.heartRate, follower: session, as: app)
        #expect(Self.bpm(own?.averageQuantity()) == 100)
    }

    @Test func aSessionSurvivesTheEnginesRestartAndAMirrorCannotChangeIt() async throws {
        let test = try await Self.vault()
        let app = Caller.app(Self.runner)
        let session = try await test.engine.startWorkoutSession(
            try WorkoutConfiguration(activityType: .cycling, locationType: .indoor),
            as: app
        )
        try await test.engine.workoutSession(.startActivity, at: Self.at(0), follower: session, as: app)
        try await test.engine.beginWorkoutCollection(at: Self.at(0), follower: session, as: app)
        await test.engine.shutdown()

        let restarted = try VaultEngine(vault: test.vault)
        defer { Task { await restarted.shutdown() } }
        let recovered = try #require(try await restarted.recoverWorkoutSession(as: app))
        #expect(recovered.session.id == session.session.id)
        #expect(recovered.session.state == .running)
        #expect(recovered.session.builder.startDate == Self.at(0))
        // Another app has no session to recover.
        #expect(try await restarted.recoverWorkoutSession(as: .app(Self.strap)) == nil)

        let mirror = try await restarted.mirrorWorkoutSession(recovered.session.id, as: app)
        let refused = await healthError {
            try await restarted.workoutSession(.end, follower: mirror, as: app)
        }
        #expect(refused?.code == .invalidArgument && refused?.field == "session")
        // Data goes from the mirror to the primary, not back to the mirror.
        var primaryEvents = recovered.events.makeAsyncIterator()
        try await restarted.sendWorkoutData(Data("lap button".utf8), follower: mirror, as: app)
        #expect(await primaryEvents.next() == .remoteData(Data("lap button".utf8)))
        // The state changes reach the mirror.
        var mirrorEvents = mirror.events.makeAsyncIterator()
        try await restarted.workoutSession(.pause, at: Self.at(60), follower: recovered, as: app)
        #expect(
            await mirrorEvents.next()
                == .stateChanged(WorkoutSessionStateChange(from: .running, to: .paused, date: Self.at(60)))
        )
        #expect(await mirrorEvents.next() == .generated(WorkoutEvent(type: .pause, start: Self.at(60))))
    }

    @Test func aNewSessionOfTheAppEndsTheOldOneAndASessionNeedsTheWorkoutShareGrant() async throws {
        let test = try await Self.vault()
        let app = Caller.app(Self.runner)
        let first = try await test.engine.startWorkoutSession(try WorkoutConfiguration(activityType: .walking), as: app)
        var events = first.events.makeAsyncIterator()
        _ = try await test.engine.startWorkoutSession(try WorkoutConfiguration(activityType: .running), as: app)
        let ended = await events.next()
        guard case .failed(let error) = ended else {
            Issue.record("expected failed, got \(String(describing: ended))")
            return
        }
        #expect(error.code == .anotherWorkoutSessionStarted)
        #expect(await events.next() == nil)
        let refused = await healthError {
            _ = try await test.engine.startWorkoutSession(
                try WorkoutConfiguration(activityType: .running),
                as: .app(Self.strap)
            )
        }
        #expect(refused?.code == .authorizationDenied)
    }

    @Test func removingTheAppEndsItsSessionForGood() async throws {
        let test = try await Self.vault()
        let app = Caller.app(Self.runner)
        let session = try await test.engine.startWorkoutSession(
            try WorkoutConfiguration(activityType: .rowing),
            as: app
        )
        var events = session.events.makeAsyncIterator()
        try await test.engine.removeApp(Self.runner)
        guard case .failed(let error) = await events.next() else {
            Issue.record("the follower heard nothing")
            return
        }
        #expect(error.code == .authorizationDenied)
        #expect(try test.vault.db().read { try $0.scalarInt("SELECT count(*) FROM workout_sessions") } == 0)
        // Enrolled again, the app finds no session.
        try await test.enroll(Self.runner)
        #expect(try await test.engine.recoverWorkoutSession(as: app) == nil)
    }

    @Test func anAddedSampleOfACollectedTypeIsPushedOnce() async throws {
        let test = try await Self.vault()
        let app = Caller.app(Self.runner)
        let session = try await test.engine.startWorkoutSession(
            try WorkoutConfiguration(activityType: .running),
            as: app
        )
        var events = session.events.makeAsyncIterator()
        try await test.engine.workoutSession(.startActivity, at: Self.at(0), follower: session, as: app)
        try await test.engine.beginWorkoutCollection(at: Self.at(0), follower: session, as: app)
        try await test.engine.setWorkoutCollectedTypes([.quantity(.activeEnergyBurned)], follower: session, as: app)
        try await test.engine.addWorkoutSamples(
            [try Self.quantity(.activeEnergyBurned, 5, .kilocalorie, from: 1, to: 60)],
            follower: session,
            as: app
        )
        #expect(await Self.nextCollected(&events)?.types == [.quantity(.activeEnergyBurned)])
        // Nothing more: the save pushed once, for the data source and the add together.
        try await Task.sleep(for: .milliseconds(300))
        let collects = try test.auditEntries().filter { $0.operation == .workoutCollect }
        #expect(collects.count == 1)
    }

    @Test func anotherReaderOfTheWorkoutSeesNoStatisticsOfDataItMayNotRead() async throws {
        let test = try await Self.vault()
        let app = Caller.app(Self.runner)
        try await test.enroll("org.example.coach")
        try await test.grant(.read, .workout, to: "org.example.coach")
        let session = try await test.engine.startWorkoutSession(
            try WorkoutConfiguration(activityType: .running),
            as: app
        )
        try await test.engine.workoutSession(.startActivity, at: Self.at(0), follower: session, as: app)
        try await test.engine.beginWorkoutCollection(at: Self.at(0), follower: session, as: app)
        try await test.engine.setWorkoutCollectedTypes([.quantity(.heartRate)], follower: session, as: app)
        try await test.engine.save([try Self.heartRate(130, at: 10)], as: .app(Self.strap))
        try await test.engine.addWorkoutSamples(
            [try Self.quantity(.activeEnergyBurned, 12, .kilocalorie, from: 0, to: 60)],
            follower: session,
            as: app
        )
        try await test.engine.endWorkoutCollection(at: Self.at(120), follower: session, as: app)
        let workout = try await test.engine.finishWorkout(follower: session, as: app)
        #expect(workout.statistics(for: .heartRate) != nil && workout.totalEnergyBurned != nil)

        // The coach reads workouts, not heart rate nor energy: the workout it reads carries no
        // statistics of them and no totals from them, and names no strap.
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(.workout)])
        let seen = try await test.engine.samples(matching: query, as: .app("org.example.coach"))
        guard case .workout(let coached)? = seen.first else {
            Issue.record("the coach does not see the workout")
            return
        }
        #expect(coached.allStatistics.isEmpty && coached.totalEnergyBurned == nil)
        #expect(!String(decoding: try HealthJSON.encode(coached), as: UTF8.self).contains(Self.strap))
        // The runner, and the owner, read it whole.
        #expect(try await test.engine.samples(matching: query, as: app) == [.workout(workout)])
        #expect(try await test.engine.samples(matching: query, as: .owner) == [.workout(workout)])
    }
}
