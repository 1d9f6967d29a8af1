import Foundation
import HealthModel
import HealthVaultKit
import Synchronization
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// The anchored object query through the real daemon: HealthVaultKit's one-shot and
    /// long-running forms.
    @Suite struct DaemonQueryTests {
        static let steps = SampleType.quantity(.stepCount)

        @Test func anchoredQueriesPageAndStreamWhatTheAppMaySee() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.writer", read: [], share: [Self.steps])
            try await daemon.decide("grant", ["share"], [ObjectType(Self.steps)], for: "org.example.writer")
            try await daemon.enroll("org.example.reader", read: [ObjectType(Self.steps)], share: [])
            try await daemon.decide("grant", ["read"], [ObjectType(Self.steps)], for: "org.example.reader")
            let writer = try await daemon.store("org.example.writer")
            let reader = try await daemon.store("org.example.reader")
            let start = RFC3339.date(from: "2026-11-02T08:00:00.000Z")!
            let saved = try (0..<3).map {
                try quantity(.stepCount, Double(10 + $0), .count, at: start.addingTimeInterval(Double($0) * 60))
            }
            try await writer.save(saved)

            // One shot: everything from the start, then nothing new from its anchor.
            let query = AnchoredObjectQueryDescriptor(predicates: [SampleTypePredicate(Self.steps)])
            let all = try await query.result(for: reader)
            #expect(all.addedSamples.map(\.uuid) == saved.map(\.uuid))
            let none = try await AnchoredObjectQueryDescriptor(
                predicates: query.predicates,
                anchor: all.newAnchor
            )
            .result(for: reader)
            #expect(none.addedSamples.isEmpty && none.deletedObjects.isEmpty && none.newAnchor == all.newAnchor)

            // Long-running, two at a time: the pages up to now, then each change as it happens.
            let paged = AnchoredObjectQueryDescriptor(predicates: query.predicates, limit: 2)
            var updates = paged.results(for: reader).makeAsyncIterator()
            #expect(try await updates.next()?.addedSamples.map(\.uuid) == Array(saved.prefix(2)).map(\.uuid))
            let third = try #require(try await updates.next())
            #expect(third.addedSamples.map(\.uuid) == [saved[2].uuid])
            #expect(third.newAnchor == all.newAnchor)
            let more = try quantity(.stepCount, 99, .count, at: start.addingTimeInterval(3600))
            try await writer.save(more)
            #expect(try await updates.next()?.addedSamples.map(\.uuid) == [more.uuid])
            #expect(try await writer.delete(saved[0]) == 1)
            let deletion = try #require(try await updates.next())
            #expect(deletion.deletedObjects == [DeletedObject(uuid: saved[0].uuid, sampleType: Self.steps)])
            #expect(deletion.addedSamples.isEmpty)

            // A made-up anchor is refused as bad input, and the connection goes on serving.
            await #expect(throws: HealthError.self) {
                _ = try await AnchoredObjectQueryDescriptor(
                    predicates: query.predicates,
                    anchor: QueryAnchor(token: "1.bm90IGFuIGFuY2hvciBhdCBhbGwsIGp1c3QgdGV4dA")
                )
                .result(for: reader)
            }
            #expect(try await query.result(for: reader).addedSamples.count == 3)
            await reader.close()
            await writer.close()
        }

        @Test func activitySummariesThroughTheCLIAndHealthVaultKit() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.fitness", read: [.activitySummary], share: [Self.steps, .workout])
            try await daemon.decide("grant", ["share"], [ObjectType(Self.steps), .workout], for: "org.example.fitness")
            #expect(try CLITests.healthvault(["timezone", "UTC"], daemon: daemon).status == 0)
            let goals = try CLITests.healthvault(["goals", "--move", "600", "--stand", "10"], daemon: daemon)
            #expect(goals.out == "Goals: move 600 kcal, exercise 30 min, stand 10 h\n", "\(goals)")

            let app = try await daemon.store("org.example.fitness")
            let morning = RFC3339.date(from: "2020-11-02T08:00:00.000Z")!
            try await app.save(try quantity(.stepCount, 300, .count, at: morning))
            try await app.save(try quantity(.stepCount, 200, .count, at: morning.addingTimeInterval(7200)))
            try await app.save(
                .workout(
                    try Workout(
                        activityType: .walking,
                        start: morning,
                        end: morning.addingTimeInterval(45 * 60),
                        sourceRevision: SourceRevision(source: Source(bundleIdentifier: "x", name: "x"))
                    )
                )
            )
            let shown = try CLITests.healthvault(
                ["activity", "--from", "2020-11-01", "--to", "2020-11-03"],
                daemon: daemon
            )
            // Goals apply from the day they were set (today), so these earlier days keep the standard ones.
            #expect(shown.out == "2020-11-02  move 0/500 kcal  exercise 45/30 min  stand 2/12 h\n", "\(shown)")

            // The app without the activity summary grant: only its own samples (here the same).
            let query = ActivitySummaryQueryDescriptor(start: "2020-11-02", end: "2020-11-02")
            let own = try await query.result(for: app)
            #expect(own.count == 1 && own.first?.appleStandHours == Quantity(2, .count))
            await app.close()
        }

        @Test func aRunningActivitySummaryQueryHearsAnotherAppsStepsThroughHealthVaultKit() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.rings", read: [.activitySummary], share: [])
            try await daemon.decide("grant", ["read"], [.activitySummary], for: "org.example.rings")
            try await daemon.enroll("org.example.watch", read: [], share: [Self.steps, .quantity(.activeEnergyBurned)])
            try await daemon.decide(
                "grant",
                ["share"],
                [ObjectType(Self.steps), .quantity(.activeEnergyBurned)],
                for: "org.example.watch"
            )
            #expect(try CLITests.healthvault(["timezone", "UTC"], daemon: daemon).status == 0)
            let rings = try await daemon.store("org.example.rings")
            let watch = try await daemon.store("org.example.watch")
            let morning = RFC3339.date(from: "2026-03-02T08:00:00.000Z")!

            let query = try await rings.observeActivitySummaries(
                matching: ActivitySummaryQueryDescriptor(start: "2026-03-02", end: "2026-03-02")
            )
            #expect(query.summaries.isEmpty)
            final class Received: Sendable {
                let updates = Mutex<[ActivitySummaryQuery.Update]>([])
            }
            let received = Received()
            let gather = Task {
                for try await update in query.updates { received.updates.withLock { $0.append(update) } }
            }
            func waitFor(_ count: Int) async throws {
                let deadline = ContinuousClock.now + .seconds(10)
                while received.updates.withLock({ $0.count }) < count, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }

            try await watch.save(try quantity(.activeEnergyBurned, 120, .kilocalorie, at: morning))
            try await waitFor(1)
            let first = try #require(received.updates.withLock { $0.first })
            #expect(first.summaries.map(\.day) == ["2026-03-02"])
            #expect(first.summaries.first?.activeEnergyBurned == Quantity(120, .kilocalorie))
            #expect(first.summaries.first?.appleStandHours == Quantity(0, .count))

            // Stopped: the updates end, and the next change is not sent.
            try await query.stop()
            try await gather.value
            try await watch.save(
                try quantity(.activeEnergyBurned, 30, .kilocalorie, at: morning.addingTimeInterval(3600))
            )
            try await Task.sleep(for: .milliseconds(300))
            #expect(received.updates.withLock { $0.count } == 1)
            // Stopping it again: no such subscription.
            await #expect(throws: (any Error).self) { try await query.stop() }
            await rings.close()
            await watch.close()
        }

        @Test func preferredUnitsFromTheCLIReachAppsAndStats() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.scale", read: [], share: [.quantity(.bodyMass)])
            try await daemon.decide("grant", ["share"], [.quantity(.bodyMass)], for: "org.example.scale")
            let set = try CLITests.healthvault(["units", "bodyMass", "lb"], daemon: daemon)
            #expect(set.status == 0 && set.out == "HKQuantityTypeIdentifierBodyMass  lb\n", "\(set)")
            #expect(try CLITests.healthvault(["units"], daemon: daemon).out == "HKQuantityTypeIdentifierBodyMass  lb\n")
            let refused = try CLITests.healthvault(["units", "bodyMass", "kcal"], daemon: daemon)
            #expect(refused.status != 0 && refused.err.contains("does not measure"), "\(refused)")

            // An app is told the owner's unit, without any read grant.
            let scale = try await daemon.store("org.example.scale")
            #expect(try await scale.preferredUnits(for: [.bodyMass, .height]) == [.bodyMass: .pound, .height: .meter])
            try await scale.save(
                try quantity(.bodyMass, 70, .kilogram, at: RFC3339.date(from: "2020-11-02T08:00:00.000Z")!)
            )
            await scale.close()
            // stats shows values in it.
            let stats = try CLITests.healthvault(["stats", "bodyMass", "--interval", "year"], daemon: daemon)
            #expect(stats.out.contains(", lb, "), "\(stats.out)")
            #expect(stats.out.contains("154.3"), "\(stats.out)")
            #expect(
                try CLITests.healthvault(["units", "bodyMass", "--reset"], daemon: daemon).out
                    == "HKQuantityTypeIdentifierBodyMass  kg\n"
            )
        }
    }
}
