import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine

/// Background delivery: the changes an app may see are counted as they commit, per type, and
/// stay pending until acknowledged.
@Suite struct BackgroundDeliveryTests {
    static let reader = "org.example.reader"
    static let writer = "org.example.writer"
    static let steps = SampleType.quantity(.stepCount)

    static func delivery(_ test: TestEngine) async throws -> BackgroundDelivery? {
        try await test.engine.backgroundDeliveries(of: [steps, .quantity(.heartRate)], as: .app(reader))[steps]
    }

    @Test func onlyChangesTheAppMaySeeAreCountedAndAcknowledgementsOnlyGrow() async throws {
        let test = try TestEngine()
        for app in [Self.reader, Self.writer] {
            try await test.enroll(app)
            try await test.grant(.share, Self.steps, .quantity(.heartRate), to: app)
        }
        try await test.engine.enableBackgroundDelivery(for: Self.steps, frequency: .hourly, as: .app(Self.reader))
        var delivery = try #require(try await Self.delivery(test))
        #expect(delivery.frequency == .hourly && delivery.changes == 0 && !delivery.isPending)

        // Another app's steps, unreadable: not counted. Its own: counted.
        let hidden = try quantitySample()
        try await test.engine.save([hidden], as: .app(Self.writer))
        try await test.engine.delete([hidden.uuid], as: .app(Self.writer))
        #expect(try await Self.delivery(test)?.changes == 0)
        try await test.engine.save([try quantitySample()], as: .app(Self.reader))
        #expect(try await Self.delivery(test)?.changes == 1)

        // Readable: another app's saves and deletes count, one per commit; other types do not.
        try await test.grant(.read, Self.steps, to: Self.reader)
        let shown = try quantitySample()
        try await test.engine.save([shown, try quantitySample()], as: .app(Self.writer))
        try await test.engine.delete([shown.uuid], as: .owner)
        try await test.engine.save([try quantitySample(.heartRate)], as: .app(Self.writer))
        delivery = try #require(try await Self.delivery(test))
        #expect(delivery.changes == 3 && delivery.acknowledged == 0 && delivery.isPending)

        // Revoked: quiet again at once.
        try await test.engine.decide(.revoke, .read, of: [ObjectType(Self.steps)], for: Self.reader)
        try await test.engine.save([try quantitySample()], as: .app(Self.writer))
        #expect(try await Self.delivery(test)?.changes == 3)

        // Acknowledgements: up to what was counted, never back.
        try await test.engine.acknowledgeBackgroundDelivery([Self.steps: 2], as: .app(Self.reader))
        #expect(try await Self.delivery(test)?.acknowledged == 2)
        try await test.engine.acknowledgeBackgroundDelivery([Self.steps: 1], as: .app(Self.reader))
        #expect(try await Self.delivery(test)?.acknowledged == 2)
        try await test.engine.acknowledgeBackgroundDelivery([Self.steps: 99], as: .app(Self.reader))
        delivery = try #require(try await Self.delivery(test))
        #expect(delivery.acknowledged == 3 && !delivery.isPending)

        // Enabled again: a new frequency, the counts kept. Disabled: gone.
        try await test.engine.enableBackgroundDelivery(for: Self.steps, frequency: .daily, as: .app(Self.reader))
        delivery = try #require(try await Self.delivery(test))
        #expect(delivery.frequency == .daily && delivery.changes == 3)
        // Disabled for one type: the others stay. For every type: gone.
        let heartRate = SampleType.quantity(.heartRate)
        try await test.engine.enableBackgroundDelivery(for: heartRate, frequency: .weekly, as: .app(Self.reader))
        try await test.engine.disableBackgroundDelivery(for: [heartRate], as: .app(Self.reader))
        let left = try await test.engine.backgroundDeliveries(of: [Self.steps, heartRate], as: .app(Self.reader))
        #expect(Array(left.keys) == [Self.steps])
        try await test.engine.disableBackgroundDelivery(for: nil, as: .app(Self.reader))
        #expect(try await Self.delivery(test) == nil)

        // Each enable and disable is audited with its types (disabling all: those it had).
        let entries = try test.auditEntries().filter {
            [.backgroundEnable, .backgroundDisable].contains($0.operation)
        }
        #expect(
            entries.map(\.operation) == [
                .backgroundEnable, .backgroundEnable, .backgroundEnable, .backgroundDisable, .backgroundDisable,
            ]
        )
        let steps = ["HKQuantityTypeIdentifierStepCount"]
        let heart = ["HKQuantityTypeIdentifierHeartRate"]
        #expect(entries.map(\.types) == [steps, steps, heart, heart, steps])

        // The owner has none; a removed app's go with it.
        let owner = await healthError {
            try await test.engine.enableBackgroundDelivery(for: Self.steps, frequency: .daily, as: .owner)
        }
        #expect(owner?.code == .invalidArgument)
        let other = Caller.app("org.example.other")
        try await test.enroll("org.example.other")
        try await test.engine.enableBackgroundDelivery(for: Self.steps, frequency: .daily, as: other)
        #expect(try await test.engine.backgroundDeliveries(of: [Self.steps], as: other).count == 1)
        try await test.engine.removeApp("org.example.other")
        try await test.enroll("org.example.other")
        #expect(try await test.engine.backgroundDeliveries(of: [Self.steps], as: other).isEmpty)
    }
}
