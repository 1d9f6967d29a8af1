import Foundation
import HealthModel
import HealthVaultKit
import Synchronization
import Testing
import VaultClient
import VaultProtocol

extension DaemonEndToEnd {
    /// Live workouts through the real daemon and HealthVaultKit: a run collecting a strap app's
    /// heart rate, live statistics pushed to the app, recovery after the app's connection dies and
    /// after the daemon is killed, a mirror, and the finished workout with its samples.
    @Suite struct DaemonWorkoutTests {
        static let runner = "org.example.runner"
        static let strap = "org.example.strap"
        static let bpm = try! HealthUnit(from: "count/min")

        /// The state changes and collections a session's delegate hears.
        final class Recorder: WorkoutSessionDelegate, LiveWorkoutBuilderDelegate, Sendable {
            let changes = Mutex<[WorkoutSessionState]>([])
            let collected = Mutex<[Set<SampleType>]>([])
            let remote = Mutex<[Data]>([])
            let failures = Mutex<[HealthError]>([])

            func workoutSession(_ session: WorkoutSession, didFailWithError error: HealthError) {
                failures.withLock { $0.append(error) }
            }

            func workoutSession(
                _ session: WorkoutSession,
                didChangeTo toState: WorkoutSessionState,
                from fromState: WorkoutSessionState,
                date: Date
            ) {
                changes.withLock { $0.append(toState) }
            }

            func workoutSession(_ session: WorkoutSession, didReceiveDataFromRemoteWorkoutSession data: [Data]) {
                remote.withLock { $0 += data }
            }

            func workoutBuilder(_ builder: LiveWorkoutBuilder, didCollectDataOf collectedTypes: Set<SampleType>) {
                collected.withLock { $0.append(collectedTypes) }
            }
        }

        /// Waits until `condition` holds (at most 15 s).
        static func eventually(_ condition: () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(15)
            while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        }

        static func heartRate(_ bpm: Double, at date: Date) throws -> Sample {
            .quantity(
                try QuantitySample(
                    type: .heartRate,
                    quantity: Quantity(bpm, Self.bpm),
                    start: date,
                    end: date,
                    sourceRevision: SourceRevision(source: Source(bundleIdentifier: strap, name: strap))
                )
            )
        }

        static func setUp() async throws -> TestDaemon {
            let daemon = try TestDaemon()
            let heart = SampleType.quantity(.heartRate)
            try await daemon.enroll(
                runner,
                read: [ObjectType(heart)],
                share: [.workout, .quantity(.activeEnergyBurned), .quantity(.distanceWalkingRunning)]
            )
            try await daemon.decide("grant", ["read"], [ObjectType(heart)], for: runner)
            try await daemon.decide(
                "grant",
                ["share"],
                [.workout, ObjectType(.quantity(.activeEnergyBurned)), ObjectType(.quantity(.distanceWalkingRunning))],
                for: runner
            )
            try await daemon.enroll(strap, read: [], share: [heart])
            try await daemon.decide("grant", ["share"], [ObjectType(heart)], for: strap)
            return daemon
        }

        /// The shapes docs/PROTOCOL.md ("Live workouts") gives, on the wire.
        @Test func theWireSaysWhatProtocolMdSays() async throws {
            let daemon = try await Self.setUp()
            let connection = try await daemon.connection(Self.runner)
            defer { connection.close() }
            func object(_ data: Data) throws -> [String: Any] {
                try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
            // Nothing to recover: an empty result.
            let none = try object(try await connection.rawCall(Method.workoutSessionRecover, Empty()))
            #expect((none["result"] as? [String: Any])?.isEmpty == true, "\(none)")
            let started = try object(
                try await connection.rawCall(
                    Method.workoutSessionStart,
                    ["configuration": ["activityType": 37, "locationType": 3]]
                )
            )
            let result = try #require(started["result"] as? [String: Any])
            let session = try #require(result["session"] as? [String: Any])
            #expect(result["elapsedTime"] as? Double == 0)
            #expect(session["state"] as? Int == 1)
            let id = try #require(session["id"] as? String)
            func rpcError(
                _ method: String,
                _ params: [String: String],
                on connection: VaultConnection
            ) async
                -> RPCError?
            {
                do {
                    _ = try await connection.rawCall(method, params)
                    return nil
                } catch {
                    return error as? RPCError
                }
            }
            // An action the table refuses: invalidArgument, field state.
            let refused = await rpcError(
                Method.workoutSessionChange,
                ["session": id, "action": "pause"],
                on: connection
            )
            #expect(refused?.code == -32000)
            #expect(refused?.data?.code == .invalidArgument && refused?.data?.field == "state")
            // A session this connection does not follow: the same answer whether it exists or not.
            let unknown = await rpcError(
                Method.workoutSessionChange,
                ["session": UUID().uuidString, "action": "end"],
                on: connection
            )
            let other = try await daemon.connection(Self.runner)
            defer { other.close() }
            let notFollowed = await rpcError(Method.workoutSessionChange, ["session": id, "action": "end"], on: other)
            #expect(unknown?.data?.field == "session")
            #expect(unknown == notFollowed)
            // Statistics before any data: null, present.
            let statistics = try object(
                try await connection.rawCall(
                    Method.workoutBuilderStatistics,
                    ["session": id, "type": "HKQuantityTypeIdentifierHeartRate"]
                )
            )
            let answer = try #require(statistics["result"] as? [String: Any])
            #expect(answer.keys.contains("statistics") && answer["statistics"] is NSNull, "\(statistics)")
            // A state change arrives as a workoutSession.event of kind stateChanged.
            var events = connection.workoutEvents(of: try #require(UUID(uuidString: id))).makeAsyncIterator()
            let changed = try object(
                try await connection.rawCall(
                    Method.workoutSessionChange,
                    ["session": id, "action": "startActivity", "date": "2026-11-26T08:00:00.000Z"]
                )
            )
            let changes = try #require((changed["result"] as? [String: Any])?["changes"] as? [[String: Any]])
            #expect(changes.count == 1 && changes[0]["from"] as? Int == 1 && changes[0]["to"] as? Int == 2)
            let event = try #require(await events.next())
            #expect(event.kind == .stateChanged && event.change?.to == .running)
            // The owner has no such method.
            let owner = try await daemon.owner()
            defer { owner.close() }
            #expect(await rpcError(Method.workoutSessionRecover, [:], on: owner)?.code == -32601)
        }

        @Test func aRunSurvivesTheAppsDeathAndTheDaemonsAndSavesOneWorkout() async throws {
            let daemon = try await Self.setUp()
            let start = Date().addingTimeInterval(-1)
            var store = try await daemon.store(Self.runner)
            let strap = try await daemon.store(Self.strap)
            let configuration = try WorkoutConfiguration(activityType: .running, locationType: .outdoor)
            var session = try await store.startWorkoutSession(configuration: configuration)
            let recorder = Recorder()
            session.delegate = recorder
            var builder = session.associatedWorkoutBuilder()
            builder.delegate = recorder
            try await session.startActivity(with: start)
            try await builder.beginCollection(at: start)
            try await LiveWorkoutDataSource(workoutConfiguration: configuration).apply(to: builder)
            try await Self.eventually { recorder.changes.withLock { $0 } == [.running] }
            #expect(recorder.changes.withLock { $0 } == [.running])

            // The strap's heart rate reaches the runner as live statistics.
            try await strap.save([try Self.heartRate(120, at: Date())])
            try await Self.eventually { builder.statistics(for: .heartRate) != nil }
            #expect(recorder.collected.withLock { $0 }.first == [.quantity(.heartRate)])
            let live = try #require(builder.statistics(for: .heartRate))
            #expect(try live.maximumQuantity()?.doubleValue(for: Self.bpm) == 120)

            // The app's connection dies; the session goes on and collects; the app recovers it.
            await store.close()
            try await strap.save([try Self.heartRate(150, at: Date())])
            store = try await daemon.store(Self.runner)
            session = try #require(try await store.recoverActiveWorkoutSession())
            #expect(session.currentState == .running)
            builder = session.associatedWorkoutBuilder()
            #expect(
                try await builder.currentStatistics(for: .heartRate)?.maximumQuantity()?.doubleValue(for: Self.bpm)
                    == 150
            )

            // The daemon is killed; started again, it still has the session and what it collected.
            daemon.stop(signal: SIGKILL)
            await store.close()
            await strap.close()
            try daemon.start()
            store = try await daemon.store(Self.runner)
            session = try #require(try await store.recoverActiveWorkoutSession())
            builder = session.associatedWorkoutBuilder()
            let recovered = try await builder.currentStatistics(for: .heartRate)
            #expect(try recovered?.minimumQuantity()?.doubleValue(for: Self.bpm) == 120)
            #expect(try recovered?.maximumQuantity()?.doubleValue(for: Self.bpm) == 150)

            // A mirror on another connection hears the pause and can send data to the primary.
            let phone = try await daemon.store(Self.runner)
            let mirror = try await phone.mirrorWorkoutSession(session.id)
            let mirrored = Recorder()
            mirror.delegate = mirrored
            let primary = Recorder()
            session.delegate = primary
            try await session.pause()
            try await Self.eventually { mirrored.changes.withLock { $0 } == [.paused] }
            #expect(mirrored.changes.withLock { $0 } == [.paused])
            try await mirror.sendToRemoteWorkoutSession(data: Data("split".utf8))
            try await Self.eventually { !primary.remote.withLock { $0 }.isEmpty }
            #expect(primary.remote.withLock { $0 } == [Data("split".utf8)])
            // A mirror cannot end the session.
            do {
                try await mirror.end()
                Issue.record("a mirror ended the session")
            } catch let error as HealthError {
                #expect(error.code == .invalidArgument && error.field == "session")
            }

            try await session.resume()
            try await builder.addWorkoutEvents([WorkoutEvent(type: .lap, start: Date())])
            try await session.end()
            let end = Date()
            try await builder.endCollection(at: end)
            let workout = try await builder.finishWorkout()
            #expect(workout.workoutActivityType == .running)
            #expect(workout.workoutEvents.map(\.type) == [.pause, .resume, .lap])
            #expect(try workout.statistics(for: .heartRate)?.maximumQuantity()?.doubleValue(for: Self.bpm) == 150)
            #expect(workout.duration < end.timeIntervalSince(start))
            // Its samples, by the workout predicate.
            let samples = try await SampleQueryDescriptor(
                predicates: [SampleTypePredicate(.quantity(.heartRate), predicate: .objects(from: workout))]
            ).result(for: store)
            #expect(samples.count == 2)
            #expect(try await store.recoverActiveWorkoutSession() == nil)
            // Every step is in the audit log.
            let operations = Set(try await daemon.auditEntries().map(\.operation))
            #expect(operations.isSuperset(of: ["workout.session", "workout.collect", "workout.finish"]))
            await phone.close()
            await store.close()
        }

        @Test func recoveringTwiceOnOneConnectionKeepsTheNewSessionWhole() async throws {
            let daemon = try await Self.setUp()
            let store = try await daemon.store(Self.runner)
            defer { Task { await store.close() } }
            let first = try await store.startWorkoutSession(
                configuration: try WorkoutConfiguration(activityType: .hiking)
            )
            try await first.startActivity(with: Date())
            let recovered = try #require(try await store.recoverActiveWorkoutSession())
            let recorder = Recorder()
            recovered.delegate = recorder
            try await recovered.pause()
            try await Self.eventually { recorder.changes.withLock { $0 } == [.paused] }
            // It heard the pause and no failure: the replaced follower was this connection's own.
            try await Task.sleep(for: .milliseconds(200))
            #expect(recorder.changes.withLock { $0 } == [.paused])
            #expect(recorder.failures.withLock { $0 }.isEmpty)
        }

        @Test func aRouteGoesInPiecesAndComesBackInBatchesOnlyToWhoMayRead() async throws {
            let daemon = try await Self.setUp()
            let route = SampleType.workoutRoute
            try await daemon.enroll("org.example.mapper", read: [ObjectType(route)], share: [route, .workout])
            try await daemon.decide("grant", ["share"], [ObjectType(route), .workout], for: "org.example.mapper")
            let store = try await daemon.store("org.example.mapper")
            defer { Task { await store.close() } }
            let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
            let workout = try Workout(
                activityType: .running,
                start: start,
                end: start.addingTimeInterval(600),
                sourceRevision: SourceRevision(source: Source(bundleIdentifier: "org.example.mapper", name: "m"))
            )
            try await store.save([.workout(workout)])
            let builder = try await WorkoutRouteBuilder(healthStore: store)
            let locations = try (0..<600).map { second in
                try WorkoutRouteLocation(
                    timestamp: start.addingTimeInterval(Double(second)),
                    latitude: 52.52 + Double(second) * 1e-5,
                    longitude: 13.405,
                    altitude: 34,
                    horizontalAccuracy: 5,
                    speed: 3
                )
            }
            #expect(try await builder.insertRouteData(Array(locations[..<250])) == 250)
            // After a disconnection, the app finds its builder under way and takes it up again.
            await store.close()
            let again = try await daemon.store("org.example.mapper")
            defer { Task { await again.close() } }
            let spare = try await WorkoutRouteBuilder(healthStore: again)
            let underWay = try await again.workoutRouteBuilders()
            #expect(underWay.map(\.builder) == [builder.id, spare.id])
            #expect(underWay.map(\.count) == [250, 0])
            #expect(underWay.first?.lastTimestamp == locations[249].timestamp)
            #expect(underWay.last?.lastTimestamp == nil)
            try await spare.discard()
            let resumed = WorkoutRouteBuilder(healthStore: again, id: try #require(underWay.first?.builder))
            #expect(try await resumed.insertRouteData(Array(locations[250...])) == 600)
            let saved = try await resumed.finishRoute(with: workout)
            #expect(try await again.workoutRouteBuilders().isEmpty)
            #expect(saved.count == 600)
            var batches: [[WorkoutRouteLocation]] = []
            for try await batch in again.routeLocations(of: saved, batchSize: 256) { batches.append(batch) }
            #expect(batches.map(\.count) == [256, 256, 88])
            #expect(batches.flatMap { $0 } == locations)
            // Another app (no read grant for routes) gets what a UUID naming nothing gets.
            let other = try await daemon.connection(Self.runner)
            defer { other.close() }
            let hidden = try await other.rawCall(Method.queryRoute, RouteQueryParams(route: saved.uuid))
            let nothing = try await other.rawCall(Method.queryRoute, RouteQueryParams(route: UUID()))
            func result(_ frame: Data) throws -> String {
                let object = try #require(try JSONSerialization.jsonObject(with: frame) as? [String: Any])
                let result = try JSONSerialization.data(
                    withJSONObject: try #require(object["result"]),
                    options: .sortedKeys
                )
                return String(decoding: result, as: UTF8.self)
            }
            #expect(try result(hidden) == #"{"locations":[]}"#)
            #expect(try result(hidden) == result(nothing))
        }

        @Test func aRouteBatchTooLargeForAFrameComesInSmallerBatches() async throws {
            let daemon = try TestDaemon(["--max-frame-bytes", "65536"])
            let route = SampleType.workoutRoute
            try await daemon.enroll("org.example.mapper", read: [ObjectType(route)], share: [route, .workout])
            try await daemon.decide("grant", ["share", "read"], [ObjectType(route)], for: "org.example.mapper")
            try await daemon.decide("grant", ["share"], [.workout], for: "org.example.mapper")
            let store = try await daemon.store("org.example.mapper")
            defer { Task { await store.close() } }
            let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
            let workout = try Workout(
                activityType: .running,
                start: start,
                end: start.addingTimeInterval(900),
                sourceRevision: SourceRevision(source: Source(bundleIdentifier: "org.example.mapper", name: "m"))
            )
            try await store.save([.workout(workout)])
            let builder = try await WorkoutRouteBuilder(healthStore: store)
            let locations = try (0..<800).map { second in
                try WorkoutRouteLocation(
                    timestamp: start.addingTimeInterval(Double(second) + 0.125),
                    latitude: 52.52 + Double(second) * 1e-5,
                    longitude: 13.405,
                    altitude: 34,
                    horizontalAccuracy: 5,
                    verticalAccuracy: 3,
                    speed: 3,
                    course: 90,
                    speedAccuracy: 0.5,
                    courseAccuracy: 10
                )
            }
            for first in stride(from: 0, to: 800, by: 200) {
                try await builder.insertRouteData(Array(locations[first..<(first + 200)]))
            }
            let saved = try await builder.finishRoute(with: workout)
            // 800 locations do not fit in 64 KiB: the default batch comes halved, with its next.
            var batches: [[WorkoutRouteLocation]] = []
            for try await batch in store.routeLocations(of: saved) { batches.append(batch) }
            #expect(batches.count > 1)
            #expect(batches.flatMap { $0 } == locations)
            // The owner may not keep an activity summary query running; it asks again.
            let owner = try await daemon.owner()
            defer { owner.close() }
            do {
                _ = try await owner.call(
                    Method.queryActivitySummaries,
                    ActivitySummaryQueryParams(
                        query: ActivitySummaryQueryDescriptor(start: "2026-03-02", end: "2026-03-02"),
                        updates: true
                    ),
                    as: ActivitySummariesResult.self
                )
                Issue.record("the owner's running query was answered")
            } catch let error as RPCError {
                #expect(error.data?.field == "updates")
            }
        }
    }
}
