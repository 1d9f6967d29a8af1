import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// Issue 22, "Never lose data by mistake": every owner command that deletes or replaces what
    /// cannot be got back says first what it would do, asks at a terminal, needs --yes in a
    /// script (refused with nothing changed otherwise) and has --dry-run; every sample of a type
    /// goes only with --all.
    @Suite struct DestructiveCommandTests {
        static let day = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

        /// Two apps' steps on three days, and the owner's own.
        static func vaultWithSteps() async throws -> TestDaemon {
            let daemon = try TestDaemon()
            for (app, offsets) in [("org.example.phone", [0.0, 1, 2]), ("org.example.watch", [1.0, 2])] {
                try await daemon.enroll(app, read: [.quantity(.stepCount)], share: [steps])
                try await daemon.decide("grant", ["share"], [.quantity(.stepCount)], for: app)
                let store = try await daemon.store(app)
                for offset in offsets {
                    try await store.save(
                        try quantity(.stepCount, 100, .count, at: day.addingTimeInterval(offset * 86_400 + 3_600))
                    )
                }
                await store.close()
            }
            // Dates are shown in the owner's time zone.
            try await daemon.ownerCall(Method.settingsSetTimeZone, TimeZoneParams(timeZone: "UTC"), as: Empty.self)
            return daemon
        }

        static func stepCount(_ daemon: TestDaemon) async throws -> Int {
            try await daemon.ownerCall(
                Method.querySamples,
                SampleQueryParams(query: SampleQueryDescriptor(predicates: [.quantitySample(type: .stepCount)])),
                as: SamplesResult.self
            ).samples.count
        }

        @Test func deletingSamplesSaysWhatGoesAsksAndNeedsAllForAWholeType() async throws {
            let daemon = try await Self.vaultWithSteps()
            #expect(try await Self.stepCount(daemon) == 5)

            // No dates and no --all: refused, saying so (the first try deleted everything).
            let bare = try CLITests.healthvault(["samples", "delete", "--type", "stepCount"], daemon: daemon)
            #expect(bare.status != 0 && bare.err.contains("--all"), "\(bare.err)")
            #expect(try await Self.stepCount(daemon) == 5)

            // In a script, without --yes: refused with what it would do, nothing deleted.
            let script = try CLITests.healthvault(
                ["samples", "delete", "--type", "stepCount", "--all"],
                daemon: daemon
            )
            #expect(script.status == 1, "\(script)")
            #expect(
                script.err.hasPrefix("healthvault: this deletes 5 samples of stepCount from 2 sources, ")
                    && script.err.contains("nothing was deleted: confirm with --yes"),
                "\(script.err)"
            )
            #expect(script.err.split(separator: "\n").count == 1)
            #expect(try await Self.stepCount(daemon) == 5)

            // --dry-run: how many, of which sources, which dates; nothing deleted.
            let dry = try CLITests.healthvault(
                ["samples", "delete", "--type", "stepCount", "--all", "--dry-run"],
                daemon: daemon
            )
            #expect(dry.status == 0, "\(dry)")
            #expect(dry.out.contains("This deletes 5 samples, every app's, for good:"), "\(dry.out)")
            #expect(dry.out.contains("stepCount  5  from 2026-11-18 "), "\(dry.out)")
            #expect(
                dry.out.contains("(org.example.phone)  3") && dry.out.contains("(org.example.watch)  2"),
                "\(dry.out)"
            )
            #expect(dry.out.hasSuffix("Dry run: nothing was deleted.\n"))
            #expect(try await Self.stepCount(daemon) == 5)

            // At a terminal: the plan and a question; "n" deletes nothing, "y" deletes what it said.
            let range = ["--type", "stepCount", "--from", "2026-11-19", "--to", "2026-11-20"]
            let vault = ["--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile]
            let declined = try TerminalProcess(TestDaemon.binary("healthvault"), ["samples", "delete"] + range + vault)
            #expect(declined.waitFor("Delete them? [y/N]"), "\(declined.output)")
            #expect(declined.output.contains("This deletes 2 samples"), "\(declined.output)")
            declined.type("n\n")
            #expect(TerminalProcess.exitCode(try #require(declined.wait())) == 1)
            #expect(declined.output.contains("nothing was deleted"))
            #expect(try await Self.stepCount(daemon) == 5)
            let accepted = try TerminalProcess(TestDaemon.binary("healthvault"), ["samples", "delete"] + range + vault)
            #expect(accepted.waitFor("Delete them? [y/N]"))
            accepted.type("y\n")
            #expect(TerminalProcess.exitCode(try #require(accepted.wait())) == 0, "\(accepted.output)")
            #expect(accepted.output.contains("Deleted 2 samples."))
            #expect(try await Self.stepCount(daemon) == 3)

            // By UUID, the same: refused in a script, deleted with --yes.
            let one = try await daemon.ownerCall(
                Method.querySamples,
                SampleQueryParams(
                    query: SampleQueryDescriptor(predicates: [.quantitySample(type: .stepCount)], limit: 1)
                ),
                as: SamplesResult.self
            ).samples[0].uuid.uuidString
            let unconfirmed = try CLITests.healthvault(["samples", "delete", one], daemon: daemon)
            #expect(
                unconfirmed.status == 1 && unconfirmed.err.contains("this deletes 1 sample of stepCount"),
                "\(unconfirmed.err)"
            )
            #expect(
                try CLITests.healthvault(["samples", "delete", one, "--yes"], daemon: daemon).out
                    == "Deleted 1 sample.\n"
            )
            let unknown = try CLITests.healthvault(["samples", "delete", UUID().uuidString], daemon: daemon)
            #expect(unknown.status == 0 && unknown.out.contains("nothing to delete"), "\(unknown)")

            // --all --yes, as a script deletes all of a type on purpose.
            let all = try CLITests.healthvault(
                ["samples", "delete", "--type", "stepCount", "--all", "--yes"],
                daemon: daemon
            )
            #expect(all.out == "Deleted 2 samples.\n", "\(all)")
            #expect(try await Self.stepCount(daemon) == 0)

            // Each preview is an audit entry of its own: a summary, no value.
            let previews = try await daemon.auditEntries(operation: "query.summary")
            #expect(previews.count >= 5)
            #expect(previews.contains { $0.types == ["HKQuantityTypeIdentifierStepCount"] && $0.count == 5 })
        }

        @Test func removingAnAppSaysWhatGoesAndTwiceIsTheSameAnswerAsShow() async throws {
            let daemon = try await Self.vaultWithSteps()
            let script = try CLITests.healthvault(["apps", "remove", "org.example.phone"], daemon: daemon)
            #expect(script.status == 1, "\(script)")
            #expect(
                script.err.contains("this removes org.example.phone with its grants (read 0 types, share 1)")
                    && script.err.contains("nothing was removed"),
                "\(script.err)"
            )
            let dry = try CLITests.healthvault(["apps", "remove", "org.example.phone", "--dry-run"], daemon: daemon)
            #expect(dry.status == 0 && dry.out.contains("its samples stay"), "\(dry)")
            #expect(
                try CLITests.healthvault(["apps", "list", "--json"], daemon: daemon).out.contains("org.example.phone")
            )
            let removed = try CLITests.healthvault(["apps", "remove", "org.example.phone", "--yes"], daemon: daemon)
            #expect(removed.out == "Removed org.example.phone.\n", "\(removed)")
            #expect(try await Self.stepCount(daemon) == 5, "its samples stay")

            // Removed twice, or shown once removed: one answer, in words, no protocol code.
            let again = try CLITests.healthvault(["apps", "remove", "org.example.phone", "--yes"], daemon: daemon)
            let shown = try CLITests.healthvault(["apps", "show", "org.example.phone"], daemon: daemon)
            #expect(again.status == 1 && again.err == shown.err && shown.status == 1, "\(again.err) / \(shown.err)")
            #expect(again.err == "healthvault: no app org.example.phone is enrolled\n", "\(again.err)")
        }

        @Test func clearingACharacteristicAsksFirst() async throws {
            let daemon = try TestDaemon()
            #expect(try CLITests.healthvault(["profile", "set", "biologicalSex", "1"], daemon: daemon).status == 0)
            let script = try CLITests.healthvault(["profile", "remove", "biologicalSex"], daemon: daemon)
            #expect(
                script.status == 1 && script.err.contains("nothing was cleared: confirm with --yes"),
                "\(script.err)"
            )
            #expect(
                try CLITests.healthvault(["profile", "show", "--json"], daemon: daemon).out.contains("BiologicalSex")
            )
            #expect(
                try CLITests.healthvault(["profile", "remove", "biologicalSex", "--yes"], daemon: daemon).status == 0
            )
            #expect(
                !(try CLITests.healthvault(["profile", "show", "--json"], daemon: daemon).out.contains("BiologicalSex"))
            )
        }

        @Test func restoreHasADryRunThatWritesNothing() async throws {
            let daemon = try TestDaemon()
            let root = daemon.directory.deletingLastPathComponent()
            let backup = root.appendingPathComponent("backup").path
            #expect(try CLITests.healthvault(["backup", backup], daemon: daemon).status == 0)
            daemon.stop()
            let passphrase = ["--passphrase-file", daemon.passphraseFile]
            // An empty --snapshot is no snapshot (it was taken as "the latest").
            let empty = try CLITests.healthvault(["restore", "--restic", "--snapshot", "", "--vault", root.path + "/e"])
            #expect(empty.status == 64 && empty.err.contains("--snapshot needs the snapshot's id"), "\(empty)")
            // A wrong passphrase is said with where it was read and which one opens a backup.
            let wrongFile = root.appendingPathComponent("wrong").path
            try TestDaemon.writePassphraseFile("not the passphrase", to: wrongFile)
            let wrong = try CLITests.healthvault(
                ["restore", backup, "--vault", root.appendingPathComponent("w").path, "--passphrase-file", wrongFile]
            )
            #expect(wrong.status != 0, "\(wrong)")
            #expect(
                wrong.err.contains("wrong passphrase for the backup \(backup) in \(wrongFile) (its first line)"),
                "\(wrong)"
            )
            // Into a new folder: checked, said, nothing made.
            let fresh = root.appendingPathComponent("fresh").path
            let intoNew = try CLITests.healthvault(["restore", backup, "--vault", fresh, "--dry-run"] + passphrase)
            #expect(intoNew.status == 0 && intoNew.out.contains("would create the vault"), "\(intoNew)")
            #expect(intoNew.out.hasSuffix("Dry run: nothing was restored.\n"))
            #expect(!FileManager.default.fileExists(atPath: fresh))
            // Over the vault, whose log went on after the backup only with the daemon's lock when it
            // stopped: no rollback, but the restored log will not hold that entry, and says so.
            let before = try Data(contentsOf: daemon.directory.appendingPathComponent("vault.db"))
            // The daemon is stopped: its lock's file may go, and a dry run must not make it again.
            let lockFile = daemon.directory.appendingPathComponent("healthvaultd.lock")
            try? FileManager.default.removeItem(at: lockFile)
            let over = try CLITests.healthvault(
                ["restore", backup, "--vault", daemon.directory.path, "--dry-run"] + passphrase
            )
            #expect(over.status == 0 && over.out.contains("This replaces the vault in"), "\(over)")
            #expect(!over.out.contains("It rolls the vault back"), "\(over)")
            #expect(over.out.contains("none of which changed it (1 vault.lock)"), "\(over)")
            let overJSON = try CLITests.healthvault(
                ["restore", backup, "--vault", daemon.directory.path, "--dry-run", "--json"] + passphrase
            )
            let plan = try #require(
                JSONSerialization.jsonObject(with: Data(overJSON.out.utf8)) as? [String: Any],
                "\(overJSON)"
            )
            #expect(plan["replaces"] as? Bool == true && plan["rollback"] == nil)
            #expect((plan["unkeptEntries"] as? String)?.contains("1 vault.lock") == true, "\(plan)")
            #expect(try Data(contentsOf: daemon.directory.appendingPathComponent("vault.db")) == before)
            // The dry runs wrote nothing there, not even the daemon lock's file.
            #expect(!FileManager.default.fileExists(atPath: lockFile.path))
            // In a script without --yes: one line, saying what it would have done.
            let script = try CLITests.healthvault(["restore", backup, "--vault", daemon.directory.path] + passphrase)
            #expect(script.status == 1 && script.err.split(separator: "\n").count == 1, "\(script)")
            #expect(script.err.contains("confirm with --yes") && script.err.contains("This replaces the vault"))
            // Done: a restore's JSON gives its numbers as numbers.
            let done = try CLITests.healthvault(
                ["restore", backup, "--vault", daemon.directory.path, "--yes", "--json"] + passphrase
            )
            let restored = try #require(
                JSONSerialization.jsonObject(with: Data(done.out.utf8)) as? [String: Any],
                "\(done)"
            )
            #expect(restored["auditEntries"] is NSNumber, "\(restored)")
        }
    }
}
