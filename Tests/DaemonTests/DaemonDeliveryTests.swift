import Foundation
import HealthModel
import HealthVaultKit
import Synchronization
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// Background delivery through the real daemon: a change the app has not acknowledged is
    /// delivered when it observes again, across reconnections and restarts, and nothing past an
    /// acknowledgement is delivered twice.
    @Suite struct DaemonDeliveryTests {
        static let steps = SampleType.quantity(.stepCount)

        /// The updates of one observer query, collected as they arrive.
        final class Collector: Sendable {
            private let updates = Mutex<[ObserverQuery.Update]>([])

            init(_ query: ObserverQuery) {
                Task { [self] in
                    for await update in query.updates { updates.withLock { $0.append(update) } }
                }
            }

            var all: [ObserverQuery.Update] { updates.withLock { $0 } }
            var count: Int { all.count }

            /// Waits until `count` updates have arrived (at most 15 s).
            func wait(for count: Int) async throws {
                let deadline = ContinuousClock.now + .seconds(15)
                while self.count < count, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
        }

        /// Observes steps, then makes one more request: anything the daemon had pending for the
        /// subscription is written before that request's answer, so it has arrived by then.
        static func observe(_ store: HealthStore) async throws -> (ObserverQuery, Collector) {
            let query = try await store.observe([steps])
            let collector = Collector(query)
            _ = try await store.authorizationStatus(for: ObjectType(steps))
            // Arrived updates reach the collector's task within this.
            try await Task.sleep(for: .milliseconds(300))
            return (query, collector)
        }

        @Test func unacknowledgedChangesSurviveReconnectionAndRestart() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.writer", read: [], share: [Self.steps])
            try await daemon.decide("grant", ["share"], [ObjectType(Self.steps)], for: "org.example.writer")
            try await daemon.enroll("org.example.reader", read: [ObjectType(Self.steps)], share: [])
            try await daemon.decide("grant", ["read"], [ObjectType(Self.steps)], for: "org.example.reader")
            let start = RFC3339.date(from: "2026-11-02T08:00:00.000Z")!
            func save(_ minute: Int) async throws {
                let writer = try await daemon.store("org.example.writer")
                try await writer.save(
                    try quantity(.stepCount, 10, .count, at: start.addingTimeInterval(Double(minute) * 60))
                )
                await writer.close()
            }

            // Enabled, nothing pending yet: observing brings nothing.
            var reader = try await daemon.store("org.example.reader")
            try await reader.enableBackgroundDelivery(for: Self.steps, frequency: .immediate)
            var (query, collector) = try await Self.observe(reader)
            #expect(collector.count == 0)

            // A change arrives with a delivery to acknowledge; the app does not acknowledge it.
            try await save(0)
            try await collector.wait(for: 1)
            #expect(collector.count == 1)
            #expect(collector.all.first?.delivery != nil)
            #expect(collector.all.first?.types == [Self.steps])

            // The daemon restarts, and one more change commits while the app is away.
            await reader.close()
            #expect(daemon.stop() == 0)
            try daemon.start()
            try await save(1)

            // Back: both changes in one update, right after observing, once.
            reader = try await daemon.store("org.example.reader")
            (query, collector) = try await Self.observe(reader)
            #expect(collector.count == 1)
            let missed = try #require(collector.all.first)
            #expect(missed.types == [Self.steps] && missed.delivery != nil)
            try await query.acknowledge(missed)
            // A delivery is acknowledged once, on the connection it came on.
            await #expect(throws: HealthError.self) { try await query.acknowledge(missed) }

            // Acknowledged: after another restart (killed outright this time) nothing comes back.
            await reader.close()
            daemon.stop(signal: SIGKILL)
            try? FileManager.default.removeItem(atPath: daemon.socketPath)
            try daemon.start()
            reader = try await daemon.store("org.example.reader")
            (query, collector) = try await Self.observe(reader)
            #expect(collector.count == 0, "an acknowledged change is not delivered again")

            // The next change comes once; acknowledged, a reconnection brings nothing.
            try await save(2)
            try await collector.wait(for: 1)
            #expect(collector.count == 1)
            try await query.acknowledge(try #require(collector.all.first))
            await reader.close()
            reader = try await daemon.store("org.example.reader")
            (query, collector) = try await Self.observe(reader)
            #expect(collector.count == 0)

            // Hourly: after one update, another change within the hour waits (it is still
            // pending, so a reconnection brings it at once).
            try await reader.enableBackgroundDelivery(for: Self.steps, frequency: .hourly)
            await reader.close()
            reader = try await daemon.store("org.example.reader")
            (query, collector) = try await Self.observe(reader)
            #expect(collector.count == 0)
            try await save(10)
            try await collector.wait(for: 1)
            try await save(11)
            _ = try await reader.authorizationStatus(for: ObjectType(Self.steps))
            try await Task.sleep(for: .milliseconds(300))
            #expect(collector.count == 1, "the second change waits for the hour")
            await reader.close()
            reader = try await daemon.store("org.example.reader")
            (query, collector) = try await Self.observe(reader)
            #expect(collector.count == 1, "unacknowledged, both changes come on reconnection")
            try await query.acknowledge(try #require(collector.all.first))

            // Disabled: changes while away are not kept, and updates carry no delivery.
            try await reader.disableAllBackgroundDelivery()
            await reader.close()
            try await save(3)
            reader = try await daemon.store("org.example.reader")
            (query, collector) = try await Self.observe(reader)
            #expect(collector.count == 0)
            try await save(4)
            try await collector.wait(for: 1)
            #expect(collector.all.first?.delivery == nil)
            try await query.stop()
            await reader.close()
        }
    }
}
