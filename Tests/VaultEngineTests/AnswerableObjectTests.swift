import AuditLog
import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine

/// A save never stores an object no answer could carry (docs/PROTOCOL.md, "Limits"): an app's
/// and the owner's saves refuse it naming it, and save nothing of the batch.
@Suite struct AnswerableObjectTests {
    static let app = "org.example.notes"
    static let largest = 8_192

    func steps(note: Int, at minute: Int) throws -> Sample {
        let start = Fixtures.start.addingTimeInterval(Double(minute) * 60)
        return .quantity(
            try QuantitySample(
                type: .stepCount,
                quantity: Quantity(10, .count),
                start: start,
                end: start.addingTimeInterval(60),
                sourceRevision: Fixtures.app,
                metadata: ["org.example.note": .string(String(repeating: "n", count: note))]
            )
        )
    }

    @Test func anObjectNoAnswerCouldCarryIsRefusedNamed() async throws {
        let test = try TestEngine(largestObjectJSONBytes: Self.largest)
        try await test.enroll(Self.app)
        try await test.grant(.share, .quantity(.stepCount), to: Self.app)
        try await test.grant(.read, .quantity(.stepCount), to: Self.app)
        let caller = Caller.app(Self.app)
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))])

        // Over the limit: the second object named, nothing of the batch saved, recorded as an error.
        let small = try steps(note: 100, at: 0)
        let refused = await healthError {
            try await test.engine.save([small, try steps(note: Self.largest, at: 1)], as: caller)
        }
        #expect(refused?.code == .dataSizeExceeded && refused?.field == "objects[1]")
        #expect(try await test.engine.samples(matching: query, as: caller).isEmpty)
        let entry = try #require(try test.auditEntries().last { $0.operation == .save })
        #expect(entry.outcome == .error)

        // Its JSON alone within the limit, but not with the 1,024 bytes its source counts: refused.
        var edge = try steps(note: Self.largest - 900, at: 3)
        let overhead = try JSONWriter.data(edge).count - (Self.largest - 900)
        edge = try steps(note: Self.largest - 500 - overhead, at: 3)
        #expect(try JSONWriter.data(edge).count == Self.largest - 500)
        let sourceCounted = await healthError { try await test.engine.save([edge], as: caller) }
        #expect(sourceCounted?.code == .dataSizeExceeded && sourceCounted?.field == "objects[0]")

        // Within it (its JSON and 1,024 bytes for its source): saved, and read back whole.
        let fits = try steps(note: Self.largest - 2_000, at: 2)
        try await test.engine.save([small, fits], as: caller)
        #expect(Set(try await test.engine.samples(matching: query, as: caller).map(\.uuid)) == [small.uuid, fits.uuid])
        #expect(try await test.engine.sample(uuid: fits.uuid, as: caller)?.metadata == fits.metadata)

        // The owner's entries are held to the same limit.
        var entryMetadata = fits.metadata
        entryMetadata["HKWasUserEntered"] = .number(1)
        entryMetadata["org.example.note"] = .string(String(repeating: "o", count: Self.largest))
        let start = Fixtures.start.addingTimeInterval(3_600)
        let large = try QuantitySample(
            type: .stepCount,
            quantity: Quantity(10, .count),
            start: start,
            end: start.addingTimeInterval(60),
            sourceRevision: Fixtures.app,
            metadata: entryMetadata
        )
        let owner = await healthError { try await test.engine.saveOwnerEntries([.quantity(large)]) }
        #expect(owner?.code == .dataSizeExceeded && owner?.field == "objects[0]")
    }

    @Test func theOwnersRestoreAndAFinishedWorkoutAreHeldToItToo() async throws {
        let test = try TestEngine(largestObjectJSONBytes: Self.largest)
        // A lossless JSON export's object: the import refuses it, naming it.
        let restored = await healthError {
            _ = try await test.engine.restoreSamples([
                ExportedSample(sample: try steps(note: 10, at: 0)),
                ExportedSample(sample: try steps(note: Self.largest, at: 1)),
            ])
        }
        #expect(restored?.code == .dataSizeExceeded && restored?.field == "objects[1]")
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))])
        #expect(try await test.engine.samples(matching: query, as: .owner).isEmpty)
        // The same object in an export's file (from a vault with the default limit): refused naming
        // the file and line.
        let larger = try TestEngine()
        try await larger.engine.restoreSamples([ExportedSample(sample: try steps(note: Self.largest, at: 1))])
        let (directory, _) = try await JSONExportRoundTripTests.export(larger.engine)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = await healthError { _ = try await test.engine.importJSONExport(at: directory) }
        #expect(file?.field == "path", "\(String(describing: file))")
        #expect(
            file?.message.hasPrefix("samples.jsonl, line 1: this object takes about") == true,
            "\(String(describing: file))"
        )

        // A live workout whose builder's metadata (within the builder's own 65,536 bytes) would
        // make the workout more than an answer holds: not saved, naming the session.
        let runner = "org.example.runner"
        try await test.enroll(runner)
        try await test.grant(.share, .workout, to: runner)
        let app = Caller.app(runner)
        let start = Date().addingTimeInterval(-600)
        let session = try await test.engine.startWorkoutSession(
            try WorkoutConfiguration(activityType: .running),
            as: app
        )
        try await test.engine.workoutSession(.startActivity, at: start, follower: session, as: app)
        try await test.engine.beginWorkoutCollection(at: start, follower: session, as: app)
        try await test.engine.addWorkoutMetadata(
            ["org.example.route-notes": .string(String(repeating: "r", count: Self.largest))],
            follower: session,
            as: app
        )
        let end = start.addingTimeInterval(300)
        try await test.engine.workoutSession(.end, at: end, follower: session, as: app)
        try await test.engine.endWorkoutCollection(at: end, follower: session, as: app)
        let finished = await healthError { _ = try await test.engine.finishWorkout(follower: session, as: app) }
        #expect(finished?.code == .dataSizeExceeded && finished?.field == "session", "\(String(describing: finished))")
    }

    @Test func aSeriesBuildersMetadataIsNamed() async throws {
        let test = try TestEngine(largestObjectJSONBytes: Self.largest)
        try await test.enroll(Self.app)
        try await test.grant(.share, .quantity(.heartRate), to: Self.app)
        let app = Caller.app(Self.app)
        let connection = UUID()
        let builder = try await test.engine.beginQuantitySeries(
            type: .heartRate,
            start: Fixtures.start,
            as: app,
            connection: connection
        )
        let bpm = try HealthUnit(from: "count/min")
        _ = try test.engine.insertQuantities(
            [.init(quantity: Quantity(80, bpm), at: Fixtures.start.addingTimeInterval(10))],
            into: builder,
            as: app,
            connection: connection
        )
        let refused = await healthError {
            _ = try await test.engine.finishQuantitySeries(
                builder,
                metadata: ["org.example.notes": .string(String(repeating: "m", count: Self.largest))],
                as: app,
                connection: connection
            )
        }
        #expect(refused?.code == .dataSizeExceeded && refused?.field == "metadata", "\(String(describing: refused))")
    }

    @Test func seriesDataDoesNotCount() async throws {
        // An electrocardiogram's voltages are answered in batches that shrink to fit a frame, so
        // they are not part of the object an answer holds.
        let test = try TestEngine(largestObjectJSONBytes: Self.largest)
        try await test.enroll(Self.app)
        try await test.grant(.share, .electrocardiogram, to: Self.app)
        let ecg = try Fixtures.electrocardiogram()
        #expect(try HealthJSON.encode(Sample.electrocardiogram(ecg)).count > Self.largest)
        try await test.engine.save([.electrocardiogram(ecg)], as: .app(Self.app))
    }
}
