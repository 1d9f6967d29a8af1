import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import Synchronization
import Testing
import VaultEngine
import VaultStore

/// An import stopped part-way (the owner's Ctrl-C) keeps whole batches only, every correlation
/// with its members and every workout with its route, and importing the export again finishes
/// the job.
@Suite struct ImportInterruptionTests {
    @Test func anImportStoppedPartWayKeepsWholeBatchesAndARerunFinishesIt() async throws {
        let test = try TestEngine()
        let engine = test.engine
        let days = 30
        let folder = try ExportFolderFixture.write(days: days)
        defer { try? FileManager.default.removeItem(at: folder) }

        // Stop once two batches are under way (a batch ends at 700 objects here).
        let batches = Mutex(0)
        let error = await #expect(throws: HealthError.self) {
            _ = try await engine.importAppleHealth(
                at: folder,
                batchSize: 700,
                stopRequested: { batches.withLock { $0 >= 2 } },
                progress: { _ in batches.withLock { $0 += 1 } }
            )
        }
        #expect(error?.code == .userCanceled)
        let partial = try await engine.typeSummaries()
        let heartRate = partial.first { $0.type == .quantity(.heartRate) }?.count ?? 0
        #expect(heartRate > 0 && heartRate < days * 720)
        try await Self.expectWhole(engine)

        // Again, to the end: everything once.
        let summary = try await engine.importAppleHealth(at: folder, batchSize: 700)
        #expect(summary.total.alreadyPresent > 0)
        let counts = Dictionary(uniqueKeysWithValues: try await engine.typeSummaries().map { ($0.type, $0.count) })
        #expect(counts[.quantity(.heartRate)] == days * 720)
        #expect(counts[.quantity(.bloodPressureSystolic)] == days)
        #expect(counts[.correlation(.bloodPressure)] == days)
        #expect(counts[.workout] == days)
        #expect(counts[.workoutRoute] == days)
        try await Self.expectWhole(engine)
    }

    /// Every blood pressure has its two members; every workout its route with its 60 locations.
    static func expectWhole(_ engine: VaultEngine) async throws {
        let pressures = try await engine.correlations(
            matching: CorrelationQueryDescriptor(type: .bloodPressure),
            as: .owner
        )
        #expect(pressures.allSatisfy { $0.objects.count == 2 })
        let workouts = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.workout)]),
            as: .owner
        )
        for workout in workouts {
            let routes = try await engine.samples(
                matching: SampleQueryDescriptor(predicates: [
                    SampleTypePredicate(.workoutRoute, predicate: .workout(workout.uuid))
                ]),
                as: .owner
            )
            #expect(routes.count == 1)
            if let route = routes.first {
                #expect(try await engine.routeLocations(route.uuid, as: .owner).locations.count == 60)
            }
        }
    }
}
