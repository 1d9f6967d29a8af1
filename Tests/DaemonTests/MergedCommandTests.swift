import Foundation
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// Issue 22's two halves together: the commands that delete ask, take --yes and --dry-run
    /// (and, with --json, say what they would do as one object), and `--to` after `--from` is
    /// checked on dates as the owner writes them (relative ones, days in the owner's time zone).
    @Suite struct MergedCommandTests {
        static func json(_ text: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }

        @Test func aDryRunWithJSONIsOneObjectAndNothingChanges() async throws {
            let daemon = try await DestructiveCommandTests.vaultWithSteps()

            // samples delete by an alias and days in the owner's zone (UTC here): what would go.
            let dry = try CLITests.healthvault(
                [
                    "samples", "delete", "--type", "steps", "--from", "2026-11-19", "--to", "2026-11-20", "--dry-run",
                    "--json",
                ],
                daemon: daemon
            )
            #expect(dry.status == 0, "\(dry)")
            #expect(dry.out.split(separator: "\n").count == 1, "\(dry.out)")
            let plan = try Self.json(dry.out)
            #expect(plan["dryRun"] as? Bool == true && plan["count"] as? Int == 2, "\(dry.out)")
            let types = try #require(plan["types"] as? [[String: Any]])
            #expect(types.first?["type"] as? String == "HKQuantityTypeIdentifierStepCount", "\(dry.out)")
            #expect(try await DestructiveCommandTests.stepCount(daemon) == 5)

            // Without --yes in a script: refused on standard error, nothing on standard output.
            let refused = try CLITests.healthvault(
                ["samples", "delete", "--type", "steps", "--all", "--json"],
                daemon: daemon
            )
            #expect(
                refused.status == 1 && refused.out.isEmpty && refused.err.contains("confirm with --yes"),
                "\(refused)"
            )

            // apps remove and profile remove: the same.
            let app = try CLITests.healthvault(
                ["apps", "remove", "org.example.phone", "--dry-run", "--json"],
                daemon: daemon
            )
            let appPlan = try Self.json(app.out)
            #expect(app.status == 0 && appPlan["dryRun"] as? Bool == true && appPlan["removed"] as? Bool == false)
            #expect(
                appPlan["app"] as? String == "org.example.phone" && appPlan["shareTypes"] as? Int == 1,
                "\(app.out)"
            )
            #expect(
                try CLITests.healthvault(["apps", "list", "--json"], daemon: daemon).out.contains("org.example.phone")
            )
            #expect(try CLITests.healthvault(["profile", "set", "bloodType", "A+"], daemon: daemon).status == 0)
            let profile = try CLITests.healthvault(
                ["profile", "remove", "bloodType", "--dry-run", "--json"],
                daemon: daemon
            )
            let profilePlan = try Self.json(profile.out)
            #expect(profilePlan["type"] as? String == "HKCharacteristicTypeIdentifierBloodType", "\(profile.out)")
            #expect(profilePlan["dryRun"] as? Bool == true)

            // With --yes: the result, one object.
            let deleted = try CLITests.healthvault(
                [
                    "samples", "delete", "--type", "steps", "--from", "2026-11-19", "--to", "2026-11-20", "--yes",
                    "--json",
                ],
                daemon: daemon
            )
            #expect(try Self.json(deleted.out)["deleted"] as? Int == 2, "\(deleted)")
            #expect(try await DestructiveCommandTests.stepCount(daemon) == 3)
            let cleared = try CLITests.healthvault(
                ["profile", "remove", "bloodType", "--yes", "--json"],
                daemon: daemon
            )
            #expect(cleared.out == #"{"type":"HKCharacteristicTypeIdentifierBloodType"}"# + "\n", "\(cleared)")
        }

        @Test func toMustComeAfterFromInEveryDateForm() async throws {
            let daemon = try await DestructiveCommandTests.vaultWithSteps()
            // Relative dates the wrong way round, said with the options' names as written.
            let commands: [[String]] = [
                ["samples", "list", "steps"],
                ["samples", "delete", "--type", "steps", "--yes"],
                ["stats", "steps"],
                ["stats", "sleep"],
                ["workouts", "list"],
                ["audit", "show"],
                [
                    "export", "--format", "json",
                    daemon.directory.deletingLastPathComponent().appendingPathComponent("x").path,
                ],
            ]
            for command in commands {
                let run = try CLITests.healthvault(command + ["--from", "-1d", "--to", "-7d"], daemon: daemon)
                #expect(run.status == 1, "\(command): \(run)")
                #expect(
                    run.err == "healthvault: --to -7d is not after --from -1d: no time lies between them\n",
                    "\(command): \(run.err)"
                )
            }
            #expect(try await DestructiveCommandTests.stepCount(daemon) == 5)

            // Said before anything is asked when the zone cannot change it: even of a folder that
            // holds no vault.
            let nowhere = daemon.directory.deletingLastPathComponent().appendingPathComponent("nowhere").path
            let early = try CLITests.healthvault(
                ["samples", "list", "steps", "--from", "today", "--to", "yesterday", "--vault", nowhere]
            )
            #expect(early.status == 1 && early.err.contains("--to yesterday is not after --from today"), "\(early)")

            // A day against an instant: once the owner's zone is known (UTC here, so the day's
            // midnight is the instant's).
            let mixed = try CLITests.healthvault(
                ["samples", "list", "steps", "--from", "2026-11-19T00:00:00Z", "--to", "2026-11-19"],
                daemon: daemon
            )
            #expect(mixed.status == 1 && mixed.err.contains("--to 2026-11-19 is not after --from 2026-11-19T00:00:00Z"))
            try await daemon.ownerCall(
                Method.settingsSetTimeZone,
                TimeZoneParams(timeZone: "America/New_York"),
                as: Empty.self
            )
            // In New York that midnight is five hours after the instant: a range, and it holds none.
            let later = try CLITests.healthvault(
                ["samples", "list", "steps", "--from", "2026-11-19T00:00:00Z", "--to", "2026-11-19", "--json"],
                daemon: daemon
            )
            #expect(later.status == 0, "\(later)")

            // samples add: a sample may not end before it starts.
            let backwards = try CLITests.healthvault(
                ["samples", "add", "sleep", "asleepCore", "--from", "2026-11-19 08:00", "--to", "2026-11-18 23:00"],
                daemon: daemon
            )
            #expect(
                backwards.status == 1 && backwards.err.contains("--to 2026-11-18 23:00 is before --from"),
                "\(backwards)"
            )
        }
    }
}
