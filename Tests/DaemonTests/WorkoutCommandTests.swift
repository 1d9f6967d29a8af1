import Foundation
import HealthModel
import HealthVaultKit
import Testing

extension DaemonEndToEnd {
    /// `healthvault workouts list|show`, the real binary against a real daemon, on workouts a live
    /// builder saved through HealthVaultKit as an app would.
    @Suite struct WorkoutCommandTests {
        typealias Apps = DaemonWorkoutTests

        /// The runner and the strap of ``DaemonWorkoutTests``, the runner sharing routes too.
        static func setUp() async throws -> TestDaemon {
            let daemon = try TestDaemon()
            let heart = SampleType.quantity(.heartRate)
            let shared: [SampleType] = [
                .workout, .workoutRoute, .quantity(.activeEnergyBurned), .quantity(.distanceWalkingRunning),
            ]
            try await daemon.enroll(Apps.runner, read: [ObjectType(heart)], share: shared)
            try await daemon.decide("grant", ["read"], [ObjectType(heart)], for: Apps.runner)
            try await daemon.decide("grant", ["share"], shared.map(ObjectType.init), for: Apps.runner)
            try await daemon.enroll(Apps.strap, read: [], share: [heart])
            try await daemon.decide("grant", ["share"], [ObjectType(heart)], for: Apps.strap)
            return daemon
        }

        /// A run the way the example run tracker replays one: every step at its own date in the
        /// past. `minutes` long, paused from 5:00 to 6:00, a lap over the first 5 minutes; the
        /// strap's heart rate before, during and after the pause. Returns the workout and the
        /// heart-rate sample taken during the pause (not the workout's).
        static func run(
            _ activity: WorkoutActivityType,
            at start: Date,
            minutes: Double,
            metres: Double,
            runner: HealthStore,
            strap: HealthStore
        ) async throws -> (workout: Workout, paused: Sample) {
            let configuration = try WorkoutConfiguration(activityType: activity, locationType: .outdoor)
            let session = try await runner.startWorkoutSession(configuration: configuration)
            let builder = session.associatedWorkoutBuilder()
            try await session.startActivity(with: start)
            try await builder.beginCollection(at: start)
            try await LiveWorkoutDataSource(workoutConfiguration: configuration).apply(to: builder)
            try await strap.save([
                try Apps.heartRate(120, at: start.addingTimeInterval(60)),
                try Apps.heartRate(150, at: start.addingTimeInterval(240)),
            ])
            try await session.change(.pause, at: start.addingTimeInterval(300))
            let paused = try Apps.heartRate(90, at: start.addingTimeInterval(330))
            try await strap.save([paused])
            try await session.change(.resume, at: start.addingTimeInterval(360))
            // The session's copy follows the vault's once the state changes arrive.
            try await Apps.eventually { session.currentState == .running }
            #expect(builder.elapsedTime(at: start.addingTimeInterval(400)) == 340)
            // The vault stamps the app's own source on what it saves.
            let source = SourceRevision(source: Source(bundleIdentifier: Apps.runner, name: "Runner"))
            let end = start.addingTimeInterval(minutes * 60)
            try await builder.add([
                .quantity(
                    try QuantitySample(
                        type: .distanceWalkingRunning,
                        quantity: Quantity(metres, .meter),
                        start: start,
                        end: end,
                        sourceRevision: source
                    )
                ),
                .quantity(
                    try QuantitySample(
                        type: .activeEnergyBurned,
                        quantity: Quantity(metres / 20, .kilocalorie),
                        start: start,
                        end: end,
                        sourceRevision: source
                    )
                ),
            ])
            try await builder.addWorkoutEvents([
                WorkoutEvent(type: .lap, start: start, end: start.addingTimeInterval(300))
            ])
            try await session.change(.end, at: end)
            try await builder.endCollection(at: end)
            return (try await builder.finishWorkout(), paused)
        }

        @Test func theOwnerListsAndShowsWorkoutsALiveBuilderSaved() async throws {
            let daemon = try await Self.setUp()
            func healthvault(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
                try CLITests.healthvault(arguments, daemon: daemon)
            }
            #expect(try healthvault(["workouts", "list"]).out == "No workouts.\n")
            #expect(try healthvault(["timezone", "UTC"]).status == 0)
            #expect(try healthvault(["units", "distanceWalkingRunning", "km"]).status == 0)
            #expect(try healthvault(["units", "heartRate", "count/min"]).status == 0)

            let runner = try await daemon.store(Apps.runner)
            let strap = try await daemon.store(Apps.strap)
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let yesterday = now.addingTimeInterval(-86_400)
            let walk = try await Self.run(
                .walking,
                at: yesterday,
                minutes: 10,
                metres: 800,
                runner: runner,
                strap: strap
            ).workout
            let runStart = now.addingTimeInterval(-3600)
            let (run, paused) = try await Self.run(
                .running,
                at: runStart,
                minutes: 10,
                metres: 2500,
                runner: runner,
                strap: strap
            )
            // The run's route: a location every 6 s from its start.
            let route = try await WorkoutRouteBuilder(healthStore: runner)
            let locations = try (0..<100).map { index in
                try WorkoutRouteLocation(
                    timestamp: runStart.addingTimeInterval(Double(index) * 6),
                    latitude: 48.85 + Double(index) * 1e-4,
                    longitude: 2.35,
                    horizontalAccuracy: 5
                )
            }
            #expect(try await route.insertRouteData(locations) == 100)
            _ = try await route.finishRoute(with: run)
            await runner.close()
            await strap.close()

            // The list: newest first, in the owner's units, one lap each.
            let list = try healthvault(["workouts", "list"])
            #expect(list.status == 0, "\(list)")
            let lines = list.out.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(list.out)")
            #expect(lines.first?.hasPrefix("START (UTC)") == true, "\(list.out)")
            #expect(
                lines[1].range(
                    of: #"  running +0:09:00 +2\.5 km +125 kcal +[0-9]+ count/min +1$"#,
                    options: .regularExpression
                ) != nil,
                "\(list.out)"
            )
            #expect(lines[2].contains("  walking ") && lines[2].contains(" 0.8 km "), "\(list.out)")
            #expect(try healthvault(["workouts", "list", "--limit", "1"]).out.split(separator: "\n").count == 2)
            let before = try healthvault([
                "workouts", "list", "--to", RFC3339.string(from: now.addingTimeInterval(-7200)),
            ])
            #expect(before.out.contains("walking") && !before.out.contains("running"), "\(before.out)")
            let json = try healthvault(["workouts", "list", "--json"]).out.split(separator: "\n")
            let uuids = try json.map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["uuid"] as? String
            }
            #expect(uuids == [run.uuid.uuidString, walk.uuid.uuidString])

            // Everything about the run.
            let show = try healthvault(["workouts", "show", run.uuid.uuidString])
            #expect(show.status == 0, "\(show)")
            for expected in [
                "Workout \(run.uuid.uuidString): running",
                "Source      org.example.runner\n",
                "Duration    0:09:00 of 0:10:00",
                "Distance    2.5 km",
                "Energy      125 kcal",
                "max 150 count/min  [org.example.strap]",
                "Laps        1",
                "Route       100 locations, 0:00:00-0:09:54",
                "  0:00:00-0:05:00  lap\n  0:05:00          pause\n  0:06:00          resume\n",
                "HKQuantityTypeIdentifierDistanceWalkingRunning  sum 2.5 km  [org.example.runner]",
                "HKIndoorWorkout  0",
                """
                Samples of the workout
                  HKQuantityTypeIdentifierActiveEnergyBurned      1
                  HKQuantityTypeIdentifierDistanceWalkingRunning  1
                  HKQuantityTypeIdentifierHeartRate               2
                """,
                "  HKWorkoutRouteTypeIdentifier                    1\n",
            ] {
                #expect(show.out.contains(expected), "\(expected) not in:\n\(show.out)")
            }
            let walkShown = try healthvault(["workouts", "show", walk.uuid.uuidString]).out
            #expect(walkShown.contains("Route       none\n"), "\(walkShown)")
            let shown = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(try healthvault(["workouts", "show", run.uuid.uuidString, "--json"]).out.utf8)
                ) as? [String: Any]
            )
            #expect((shown["workout"] as? [String: Any])?["uuid"] as? String == run.uuid.uuidString)
            #expect((shown["associatedSamples"] as? [String: Int])?["HKQuantityTypeIdentifierHeartRate"] == 2)

            // What is not a workout: one line, a non-zero exit.
            let unknown = UUID().uuidString
            for (arguments, message) in [
                (["workouts", "show", unknown], "healthvault: no workout has the UUID \(unknown)\n"),
                (
                    ["workouts", "show", paused.uuid.uuidString],
                    "healthvault: \(paused.uuid.uuidString) is a HKQuantityTypeIdentifierHeartRate sample, "
                        + "not a workout\n"
                ),
                (["workouts", "show", "not-a-uuid"], "healthvault: not-a-uuid is not a UUID\n"),
                (["workouts", "list", "--limit=-1"], "healthvault: --limit must be 0 (all) or more, not -1\n"),
            ] {
                let result = try healthvault(arguments)
                #expect(result.status != 0 && result.out.isEmpty, "\(arguments): \(result)")
                #expect(result.err == message, "\(arguments)")
            }
        }
    }
}
