import Foundation
import HealthInterchange
import HealthModel
import HealthVaultKit
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// `healthvault samples add`, the real binary against a real daemon: the owner's own entries,
    /// marked as entered by a person, under the source an app sees as "HealthVault".
    @Suite struct EntryCommandTests {
        static func json(_ output: String) throws -> [Sample] {
            try output.split(separator: "\n").map { try HealthJSON.decode(Sample.self, from: Data($0.utf8)) }
        }

        static func uuid(_ result: (status: Int32, out: String, err: String)) throws -> UUID {
            let words = result.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
            return try #require(words.last.flatMap { UUID(uuidString: String($0)) }, "\(result)")
        }

        @Test func theOwnerEntersAWeightABloodPressureASleepAndAWorkout() async throws {
            let daemon = try TestDaemon()
            #expect(try CLITests.healthvault(["timezone", "UTC"], daemon: daemon).status == 0)
            let weight = try CLITests.healthvault(
                ["samples", "add", "bodyMass", "72.5", "kg", "--at", "2026-03-02T08:00:00Z"],
                daemon: daemon
            )
            #expect(weight.status == 0, "\(weight)")
            #expect(weight.out.hasPrefix("Added bodyMass "), "\(weight.out)")
            let weightID = try Self.uuid(weight)
            // Without a unit: the owner's unit for the type.
            #expect(try CLITests.healthvault(["units", "bodyMass", "lb"], daemon: daemon).status == 0)
            let inPounds = try CLITests.healthvault(
                ["samples", "add", "bodyMass", "160", "--at", "2026-03-03T08:00:00Z", "--metadata", "note=after run"],
                daemon: daemon
            )
            #expect(inPounds.status == 0, "\(inPounds)")
            let weights = try CLITests.healthvault(["samples", "list", "bodyMass"], daemon: daemon)
            #expect(weights.out.contains("160 lb") && weights.out.contains("159.84 lb"), "\(weights.out)")
            #expect(weights.out.contains("HealthVault") && weights.out.contains(weightID.uuidString), "\(weights.out)")
            let listed = try Self.json(
                try CLITests.healthvault(["samples", "list", "bodyMass", "--json"], daemon: daemon).out
            )
            #expect(listed.count == 2)
            for sample in listed {
                #expect(sample.sourceRevision.source.bundleIdentifier == "owner:healthvault")
                #expect(sample.sourceRevision.source.name == "HealthVault")
                #expect(sample.metadata[.wasUserEntered] == .number(1))
            }
            #expect(listed.first?.metadata[MetadataKey("note")] == .string("after run"))

            // A blood pressure: one correlation, its two members stored once, as its members.
            let pressure = try CLITests.healthvault(
                ["samples", "add", "bloodPressure", "120/80", "mmHg", "--at", "2026-03-02T07:00:00Z"],
                daemon: daemon
            )
            #expect(pressure.status == 0, "\(pressure)")
            let pressures = try CLITests.healthvault(["samples", "list", "bloodPressure"], daemon: daemon)
            #expect(pressures.out.contains("120 mmHg / 80 mmHg"), "\(pressures.out)")
            let correlation = try #require(
                try Self.json(
                    try CLITests.healthvault(["samples", "list", "bloodPressure", "--json"], daemon: daemon).out
                ).first
            )
            guard case .correlation(let stored) = correlation else {
                Issue.record("not a correlation: \(correlation)")
                return
            }
            #expect(stored.uuid == (try Self.uuid(pressure)))
            #expect(stored.objects.count == 2)
            #expect(stored.objects.allSatisfy { $0.metadata[.wasUserEntered] == .number(1) })
            let data = try CLITests.healthvault(["data"], daemon: daemon)
            let systolic = try #require(data.out.split(separator: "\n").first { $0.hasPrefix("bloodPressureSystolic") })
            #expect(systolic.contains(" 1 ") && systolic.contains("HealthVault (1)"), "\(data.out)")

            // A night's sleep, by the value's name.
            let sleep = try CLITests.healthvault(
                [
                    "samples", "add", "sleepAnalysis", "asleepCore", "--from", "2026-03-01T23:00:00Z", "--to",
                    "2026-03-02T06:30:00Z",
                ],
                daemon: daemon
            )
            #expect(sleep.status == 0, "\(sleep)")
            let nights = try CLITests.healthvault(["samples", "list", "sleepAnalysis"], daemon: daemon)
            #expect(
                nights.out.contains("2026-03-01 23:00:00  2026-03-02 06:30:00  asleepCore  HealthVault"),
                "\(nights.out)"
            )
            let night = try #require(
                try Self.json(
                    try CLITests.healthvault(["samples", "list", "sleepAnalysis", "--json"], daemon: daemon).out
                ).first
            )
            guard case .category(let category) = night else {
                Issue.record("not a category sample: \(night)")
                return
            }
            #expect(category.value == CategoryValueSleepAnalysis.asleepCore.rawValue)
            #expect(category.endDate.timeIntervalSince(category.startDate) == 7.5 * 3600)

            // A workout.
            let run = try CLITests.healthvault(
                [
                    "samples", "add", "workout", "running", "--from", "2026-03-02T18:00:00Z", "--to",
                    "2026-03-02T18:30:00Z",
                ],
                daemon: daemon
            )
            #expect(run.status == 0, "\(run)")
            let workouts = try CLITests.healthvault(["workouts", "list"], daemon: daemon)
            #expect(workouts.out.contains("running") && workouts.out.contains("0:30:00"), "\(workouts.out)")

            // Each entry is one save by the owner in the audit log, with its types, never a value.
            let saves = try await daemon.auditEntries(operation: "save")
            #expect(saves.count == 5 && saves.allSatisfy { $0.actor == "owner" && $0.outcome == "ok" })
            #expect(
                saves.contains {
                    $0.types == [
                        "HKCorrelationTypeIdentifierBloodPressure", "HKQuantityTypeIdentifierBloodPressureDiastolic",
                        "HKQuantityTypeIdentifierBloodPressureSystolic",
                    ] && $0.count == 1
                }
            )
        }

        @Test func aUnitOfAnotherKindAndAnUnknownTypeAreRefused() async throws {
            let daemon = try TestDaemon()
            let unit = try CLITests.healthvault(["samples", "add", "bodyMass", "72", "mmHg"], daemon: daemon)
            #expect(unit.status != 0)
            #expect(
                unit.err == "healthvault: bodyMass: mmHg does not measure HKQuantityTypeIdentifierBodyMass "
                    + "(its unit is kg or one like it)\n",
                "\(unit)"
            )
            let unknown = try CLITests.healthvault(["samples", "add", "moodiness", "3"], daemon: daemon)
            #expect(unknown.status != 0)
            #expect(unknown.err.hasPrefix(#"healthvault: unknown type "moodiness""#), "\(unknown)")
            let value = try CLITests.healthvault(["samples", "add", "sleepAnalysis", "dozing"], daemon: daemon)
            #expect(value.status != 0)
            #expect(value.err.contains("asleepCore") && !value.err.contains("dozing"), "\(value)")
            #expect(try CLITests.healthvault(["data"], daemon: daemon).out == "The vault holds no samples.\n")
        }

        @Test func anAppReadsTheOwnersEntryUnderItsGrantAndCannotDeleteIt() async throws {
            let daemon = try TestDaemon()
            let weight = SampleType.quantity(.bodyMass)
            try await daemon.enroll("org.example.scale", read: [ObjectType(weight)], share: [weight])
            try await daemon.decide("grant", ["read", "share"], [ObjectType(weight)], for: "org.example.scale")
            let added = try CLITests.healthvault(["samples", "add", "bodyMass", "72.5", "kg"], daemon: daemon)
            let id = try Self.uuid(added)
            let app = try await daemon.store("org.example.scale")
            let seen = try await app.samples(
                matching: SampleQueryDescriptor(predicates: [.quantitySample(type: .bodyMass)])
            )
            #expect(seen.map(\.uuid) == [id])
            #expect(
                seen.first?.sourceRevision.source == Source(bundleIdentifier: "owner:healthvault", name: "HealthVault")
            )
            #expect(seen.first?.metadata[.wasUserEntered] == .number(1))
            // Not its own: deleting it deletes nothing, as for an unknown UUID.
            #expect(try await app.delete(uuids: [id]) == 0)
            #expect(try await app.deleteObjects(of: weight) == 0)
            await app.close()
            #expect(
                try CLITests.healthvault(["samples", "list", "bodyMass"], daemon: daemon).out.contains(id.uuidString)
            )
            // The owner may.
            let deleted = try CLITests.healthvault(["samples", "delete", id.uuidString, "--yes"], daemon: daemon)
            #expect(deleted.out == "Deleted 1 sample.\n", "\(deleted)")
        }
    }
}
