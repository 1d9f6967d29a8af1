import AuditLog
import Foundation
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
