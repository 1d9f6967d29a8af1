import Foundation
import HealthModel
import HealthVaultKit
import Testing

extension DaemonEndToEnd {
    /// `healthvault data` and `healthvault samples list`, the real binary against a real daemon:
    /// the owner sees every app's samples, per type and one by one.
    @Suite struct OwnerViewCommandTests {
        @Test func theOwnerSeesWhatIsThereAtAGlanceAndOneByOne() async throws {
            let daemon = try TestDaemon()
            let steps = SampleType.quantity(.stepCount)
            let weight = SampleType.quantity(.bodyMass)
            for app in ["org.example.phone", "org.example.watch"] {
                try await daemon.enroll(app, read: [], share: [steps, weight])
                try await daemon.decide("grant", ["share"], [ObjectType(steps), ObjectType(weight)], for: app)
            }
            #expect(try CLITests.healthvault(["timezone", "UTC"], daemon: daemon).status == 0)
            #expect(try CLITests.healthvault(["data"], daemon: daemon).out == "The vault holds no samples.\n")
            let morning = RFC3339.date(from: "2026-03-02T08:00:00.000Z")!
            let phone = try await daemon.store("org.example.phone")
            try await phone.save(try quantity(.stepCount, 300, .count, at: morning))
            try await phone.save(try quantity(.stepCount, 200, .count, at: morning.addingTimeInterval(3600)))
            try await phone.save(try quantity(.bodyMass, 70.25, .kilogram, at: morning))
            await phone.close()
            let watch = try await daemon.store("org.example.watch")
            try await watch.save(try quantity(.stepCount, 50, .count, at: morning.addingTimeInterval(7200)))
            await watch.close()

            let data = try CLITests.healthvault(["data"], daemon: daemon)
            #expect(data.status == 0, "\(data)")
            let lines = data.out.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("TYPE") == true)
            let stepLine = try #require(lines.first { $0.hasPrefix("stepCount") }, "\(data.out)")
            #expect(stepLine.contains(" 3 "), "\(stepLine)")
            #expect(stepLine.contains("2026-03-02 08:00") && stepLine.contains("2026-03-02 10:00"), "\(stepLine)")
            #expect(stepLine.hasSuffix("org.example.phone (2), org.example.watch (1)"), "\(stepLine)")
            #expect(lines.contains { $0.hasPrefix("bodyMass") })
            let json = try CLITests.healthvault(["data", "--json"], daemon: daemon)
            #expect(json.out.split(separator: "\n").count == 2)

            // One by one, newest first, in the owner's unit; a source; a limit; JSON lines.
            #expect(try CLITests.healthvault(["units", "bodyMass", "lb"], daemon: daemon).status == 0)
            let listed = try CLITests.healthvault(["samples", "list", "stepCount"], daemon: daemon)
            #expect(listed.status == 0, "\(listed)")
            let rows = listed.out.split(separator: "\n").dropFirst().map(String.init)
            #expect(rows.count == 3)
            #expect(rows.first?.hasPrefix("2026-03-02 10:00:00") == true, "\(listed.out)")
            #expect(rows.first?.contains("50 count") == true, "\(listed.out)")
            let weighed = try CLITests.healthvault(["samples", "list", "bodyMass"], daemon: daemon)
            #expect(weighed.out.contains("154.87 lb"), "\(weighed.out)")
            let one = try CLITests.healthvault(
                ["samples", "list", "stepCount", "--source", "org.example.watch", "--json"],
                daemon: daemon
            )
            let decoded = try one.out.split(separator: "\n").map {
                try HealthJSON.decode(Sample.self, from: Data($0.utf8))
            }
            #expect(decoded.count == 1 && decoded.first?.sourceRevision.source.bundleIdentifier == "org.example.watch")
            let limited = try CLITests.healthvault(["samples", "list", "stepCount", "--limit", "1"], daemon: daemon)
            #expect(limited.out.split(separator: "\n").count == 2)
            let none = try CLITests.healthvault(["samples", "list", "heartRate"], daemon: daemon)
            #expect(none.out == "No heartRate samples.\n")
            // Each look is an owner read in the audit log, without a value.
            let summaries = try await daemon.auditEntries(operation: "query.summary")
            #expect(summaries.count == 3)
        }
    }
}
