import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultCrypto
import VaultEngine
import VaultStore

/// Workout routes through the engine: built in pieces, kept across a restart, finished with the
/// app's own workout, read back exactly in batches, and invisible to an app without the grant.
@Suite struct WorkoutRouteTests {
    static let runner = "org.example.runner"
    static let other = "org.example.other"
    static let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static func vault() async throws -> TestEngine {
        let test = try TestEngine()
        try await test.enroll(runner)
        try await test.enroll(other)
        try await test.grant(.share, .workout, .workoutRoute, to: runner)
        try await test.grant(.share, .workout, to: other)
        return test
    }

    /// A walk north at about 2.8 m/s, one location a second, with awkward doubles.
    static func locations(_ count: Int, from start: Int = 0) throws -> [WorkoutRouteLocation] {
        try (start..<(start + count)).map { index -> WorkoutRouteLocation in
            let step = Double(index)
            let vertical: Double = index % 5 == 0 ? -1 : 3.1
            let courseAccuracy: Double = index % 2 == 0 ? -1 : 5
            return try WorkoutRouteLocation(
                timestamp: t0.addingTimeInterval(step),
                latitude: 48.137154 + step * 0.000025,
                longitude: 11.576124 + Double(index % 7) * 1e-7,
                altitude: 519.3 + Double(index % 13) / 3,
                horizontalAccuracy: 4.7,
                verticalAccuracy: vertical,
                speed: 2.8 + Double(index % 3) / 10,
                course: Double(index % 360),
                speedAccuracy: 0.4,
                courseAccuracy: courseAccuracy
            )
        }
    }

    static func workout(by app: String, _ engine: VaultEngine) async throws -> Workout {
        let workout = try Workout(
            activityType: .walking,
            start: t0,
            end: t0.addingTimeInterval(3600),
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: app, name: app))
        )
        try await engine.save([.workout(workout)], as: .app(app))
        return workout
    }

    @Test func aRouteBuiltInPiecesReadsBackExactlyInBatchesAndSurvivesARestart() async throws {
        let test = try await Self.vault()
        let app = Caller.app(Self.runner)
        let workout = try await Self.workout(by: Self.runner, test.engine)
        let builder = try await test.engine.beginWorkoutRoute(as: app)
        let all = try Self.locations(2_500)
        #expect(try await test.engine.insertRouteData(Array(all[0..<1000]), builder: builder, as: app) == 1000)
        #expect(try await test.engine.insertRouteData(Array(all[1000..<1001]), builder: builder, as: app) == 1001)
        await test.engine.shutdown()

        // The builder is in the vault: a new engine (a restarted daemon) carries on with it.
        let engine = try VaultEngine(vault: test.vault)
        defer { Task { await engine.shutdown() } }
        #expect(try await engine.insertRouteData(Array(all[1001...]), builder: builder, as: app) == 2500)
        let route = try await engine.finishWorkoutRoute(builder: builder, workout: workout.uuid, as: app)
        #expect(route.count == 2500)
        #expect(route.startDate == all.first!.timestamp && route.endDate == all.last!.timestamp)

        var read: [WorkoutRouteLocation] = []
        var offset: Int? = 0
        var batches = 0
        while let from = offset {
            let (locations, next) = try await engine.routeLocations(route.uuid, offset: from, limit: 1000, as: app)
            read += locations
            offset = next
            batches += 1
        }
        #expect(batches == 3)
        #expect(read == all)
        // The route is a sample of its type, associated with its workout.
        let found = try await engine.samples(
            matching: SampleQueryDescriptor(
                predicates: [SampleTypePredicate(.workoutRoute, predicate: .objects(from: workout))]
            ),
            as: app
        )
        #expect(found == [.workoutRoute(route)])
        // The builder is gone.
        let again = await healthError { try await engine.insertRouteData(Array(all[0..<1]), builder: builder, as: app) }
        #expect(again?.field == "builder")
    }

    @Test func anotherAppsRouteIsARouteThatDoesNotExist() async throws {
        let test = try await Self.vault()
        let app = Caller.app(Self.runner)
        let workout = try await Self.workout(by: Self.runner, test.engine)
        let builder = try await test.engine.beginWorkoutRoute(as: app)
        try await test.engine.insertRouteData(try Self.locations(10), builder: builder, as: app)
        let route = try await test.engine.finishWorkoutRoute(builder: builder, workout: workout.uuid, as: app)

        let other = Caller.app(Self.other)
        let hidden = try await test.engine.routeLocations(route.uuid, as: other)
        let unknown = try await test.engine.routeLocations(UUID(), as: other)
        #expect(hidden.locations.isEmpty && hidden.next == nil)
        #expect(unknown.locations.isEmpty && unknown.next == nil)
        #expect(try await test.engine.sample(uuid: route.uuid, as: other) == nil)
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(.workoutRoute)])
        #expect(try await test.engine.samples(matching: query, as: other).isEmpty)
        // With the read grant, it reads the route.
        try await test.grant(.read, .workoutRoute, to: Self.other)
        #expect(try await test.engine.routeLocations(route.uuid, as: other).locations.count == 10)
        // The owner reads it too; no coordinate is in the audit log.
        #expect(try await test.engine.routeLocations(route.uuid, as: .owner).locations.count == 10)
        let entries = try test.auditEntries()
        #expect(entries.contains { $0.operation == .queryRoute && $0.objectCount == 10 })
        let logged = try entries.map { String(decoding: try $0.encoded(), as: UTF8.self) }.joined()
        #expect(!logged.contains("48.13"))
    }

    @Test func badRoutesAreRefusedWithTheirField() async throws {
        let test = try await Self.vault()
        let app = Caller.app(Self.runner)
        // Without the share grant for routes.
        let denied = await healthError { _ = try await test.engine.beginWorkoutRoute(as: .app(Self.other)) }
        #expect(denied?.code == .authorizationDenied)
        let builder = try await test.engine.beginWorkoutRoute(as: app)
        try await test.engine.insertRouteData(try Self.locations(5, from: 10), builder: builder, as: app)
        // Earlier than what is there.
        let early = await healthError {
            try await test.engine.insertRouteData(try Self.locations(1, from: 3), builder: builder, as: app)
        }
        #expect(early?.field == "locations[0].timestamp")
        // Another app's workout and no workout: one answer.
        let theirs = try await Self.workout(by: Self.other, test.engine)
        let notOwn = await healthError {
            _ = try await test.engine.finishWorkoutRoute(builder: builder, workout: theirs.uuid, as: app)
        }
        let none = await healthError {
            _ = try await test.engine.finishWorkoutRoute(builder: builder, workout: UUID(), as: app)
        }
        #expect(notOwn?.field == "workout" && notOwn == none)
        // A route is not saved whole.
        let route = try WorkoutRoute(
            start: Self.t0,
            end: Self.t0,
            count: 1,
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: Self.runner, name: "r"))
        )
        let whole = await healthError { try await test.engine.save([.workoutRoute(route)], as: app) }
        #expect(whole?.field == "objects[0]")
        // Locations out of range.
        #expect(throws: HealthError.self) {
            _ = try WorkoutRouteLocation(timestamp: Self.t0, latitude: 91, longitude: 0, horizontalAccuracy: 1)
        }
        #expect(throws: HealthError.self) {
            _ = try WorkoutRouteLocation(timestamp: Self.t0, latitude: 0, longitude: 0, horizontalAccuracy: -1)
        }
        #expect(throws: HealthError.self) {
            _ = try WorkoutRouteLocation(timestamp: Self.t0, latitude: 0, longitude: .nan, horizontalAccuracy: 1)
        }
        // A limit out of range.
        let limit = await healthError { _ = try await test.engine.routeLocations(UUID(), limit: 10_001, as: app) }
        #expect(limit?.field == "limit")
    }
}
