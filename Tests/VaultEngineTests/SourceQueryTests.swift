import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine

/// The source query: the apps that saved samples of a type, among what the caller may read.
@Suite struct SourceQueryTests {
    @Test func sourcesFollowTheCallersReadScope() async throws {
        let test = try TestEngine()
        for app in ["org.example.b", "org.example.a", "org.example.reader"] {
            try await test.enroll(app)
            try await test.grant(.share, .quantity(.stepCount), .quantity(.heartRate), to: app)
        }
        let later = Fixtures.start.addingTimeInterval(86_400)
        try await test.engine.save([try quantitySample(start: Fixtures.start)], as: .app("org.example.b"))
        try await test.engine.save([try quantitySample(start: later)], as: .app("org.example.a"))
        try await test.engine.save([try quantitySample(.heartRate)], as: .app("org.example.a"))
        let steps = SourceQueryDescriptor(sampleType: .quantity(.stepCount))

        // The owner and a granted reader see every app that saved steps, by bundle identifier.
        let everyone = [
            Source(bundleIdentifier: "org.example.a", name: "App org.example.a"),
            Source(bundleIdentifier: "org.example.b", name: "App org.example.b"),
        ]
        #expect(try await test.engine.sources(matching: steps, as: .owner) == everyone)
        try await test.grant(.read, .quantity(.stepCount), to: "org.example.reader")
        #expect(try await test.engine.sources(matching: steps, as: .app("org.example.reader")) == everyone)

        // The predicate narrows the samples, and so the sources.
        let onlyLater = SourceQueryDescriptor(
            sampleType: .quantity(.stepCount),
            predicate: .samples(withStart: later, end: later.addingTimeInterval(3600))
        )
        #expect(
            try await test.engine.sources(matching: onlyLater, as: .owner).map(\.bundleIdentifier) == ["org.example.a"]
        )

        // Without a read grant: only itself, and only once it has saved some.
        try await test.engine.decide(.revoke, .read, of: [.quantity(.stepCount)], for: "org.example.reader")
        #expect(try await test.engine.sources(matching: steps, as: .app("org.example.reader")).isEmpty)
        #expect(
            try await test.engine.sources(matching: steps, as: .app("org.example.b")).map(\.bundleIdentifier) == [
                "org.example.b"
            ]
        )
        try await test.engine.save([try quantitySample()], as: .app("org.example.reader"))
        #expect(
            try await test.engine.sources(matching: steps, as: .app("org.example.reader")).map(\.bundleIdentifier) == [
                "org.example.reader"
            ]
        )

        // Audited as a source query of the type, denied-served-empty when held back.
        let last = try #require(try test.auditEntries().last)
        #expect(last.operation == .querySource && last.types == ["HKQuantityTypeIdentifierStepCount"])
        #expect(last.outcome == .deniedServedEmpty && last.objectCount == 1)
    }
}
