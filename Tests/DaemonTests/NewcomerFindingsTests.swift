import Foundation
import Glibc
import HealthModel
import Testing

extension DaemonEndToEnd {
    /// Issue 22, what outside testers found reading only README and docs/: each point against the
    /// real `healthvault` and `healthvaultd` binaries on a real vault.
    @Suite struct NewcomerFindingsTests {
        typealias Run = (status: Int32, out: String, err: String)

        static func healthvault(_ arguments: [String], _ daemon: TestDaemon? = nil) throws -> Run {
            try CLITests.healthvault(arguments, daemon: daemon)
        }

        /// Runs `program` with `arguments` in `folder` (the tests' own folder when nil).
        static func run(_ program: String, _ arguments: [String], in folder: String? = nil) throws -> Run {
            try runProcess([program] + arguments, in: folder)
        }

        static let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("policies/apps/org.example.stepcounter.json").path

        /// The line of a table that holds `text`.
        static func line(_ table: String, holding text: String) -> String {
            table.split(separator: "\n").first { $0.contains(text) }.map(String.init) ?? ""
        }

        // MARK: 1. Numbers

        @Test func valuesShowWithOneRoundingPerUnitKindAndExportWithFifteenDigits() async throws {
            let daemon = try TestDaemon()
            #expect(try Self.healthvault(["units", "bodyMass", "lb"], daemon).status == 0)
            // 154 lb entered in kg: shown in lb, the double is 153.99999999999997.
            for entry in [
                ["weight", "69.85322498", "kg"], ["weight", "154.324", "lb"], ["heartRate", "62.44", "bpm"],
                ["activeEnergyBurned", "523.4", "kcal"], ["bodyTemperature", "36.65", "degC"],
            ] {
                let added = try Self.healthvault(["samples", "add"] + entry, daemon)
                #expect(added.status == 0, "\(entry): \(added)")
            }
            let weights = try Self.healthvault(["samples", "list", "weight"], daemon)
            #expect(weights.out.contains("  154 lb  ") && weights.out.contains("  154.32 lb  "), "\(weights.out)")
            #expect(!weights.out.contains("153.99"), "\(weights.out)")
            // The same rule in `stats`: two decimals at most for a mass, no trailing zeros.
            let stats = try Self.healthvault(["stats", "weight"], daemon)
            #expect(stats.out.contains("min 154  max 154.32"), "\(stats.out)")
            #expect(try Self.healthvault(["samples", "list", "heartRate"], daemon).out.contains("  62.4 count/min  "))
            #expect(
                try Self.healthvault(["samples", "list", "activeEnergyBurned"], daemon).out.contains("  523 kcal  ")
            )
            #expect(try Self.healthvault(["samples", "list", "bodyTemperature"], daemon).out.contains("  36.7 degC  "))
            let energy = try Self.healthvault(["stats", "activeEnergyBurned"], daemon)
            #expect(energy.out.contains("sum 523  ["), "\(energy.out)")

            // --json keeps the values exact: as entered, and the statistics in kg, every digit.
            let listed = try Self.healthvault(["samples", "list", "weight", "--json"], daemon).out
            #expect(listed.contains(#""quantity":{"unit":"kg","value":69.85322498}"#), "\(listed)")
            #expect(listed.contains(#""quantity":{"unit":"lb","value":154.324}"#), "\(listed)")
            let statistics = try Self.healthvault(["stats", "weight", "--json"], daemon).out
            #expect(statistics.contains(#""minimum":{"unit":"kg","value":69.85322498}"#), "\(statistics)")

            // The CSV export: 15 significant digits at most, so 154, never 153.99999999999997.
            let folder = daemon.directory.deletingLastPathComponent().appendingPathComponent("csv").path
            let exported = try Self.healthvault(["export", "--format", "csv", folder], daemon)
            #expect(exported.status == 0, "\(exported)")
            let csv = try String(contentsOfFile: folder + "/bodyMass.csv", encoding: .utf8)
            #expect(csv.contains(",154,lb,") && csv.contains(",154.324,lb,"), "\(csv)")
            #expect(!csv.contains("153.99"), "\(csv)")
        }

        // MARK: 2. A negative number is a value

        @Test func aNegativeNumberIsReadAsAValueAndRefusedAsOutOfRange() async throws {
            let daemon = try TestDaemon()
            let cases: [([String], String)] = [
                (["samples", "add", "weight", "-5", "kg"], "weight -5 kg is out of range: give 0 kg or more"),
                (["samples", "add", "weight", "-72.5", "lb"], "weight -72.5 lb is out of range: give 0 lb or more"),
                // Without a unit, the owner's unit of the type (kg until one is chosen).
                (["samples", "add", "weight", "-5"], "weight -5 kg is out of range: give 0 kg or more"),
                (
                    ["samples", "add", "bloodPressure", "-120/80", "mmHg"],
                    "the systolic pressure -120 mmHg is out of range: give 0 mmHg or more"
                ),
                (["samples", "add", "spo2", "2", "%"], "spo2 2 % is out of range: give 0 to 1 %"),
                (
                    ["requests", "approve", "-3"],
                    "request -3 is out of range: requests are numbered from 1 (`healthvault requests list` shows them)"
                ),
                (
                    ["requests", "deny", "-3"],
                    "request -3 is out of range: requests are numbered from 1 (`healthvault requests list` shows them)"
                ),
                (["samples", "add", "weight", "70", "--bogus"], "Unknown option '--bogus'"),
                (["samples", "add", "weight"], "Missing expected argument '<value>'"),
                (["samples", "add", "weight", "70", "kg", "extra"], "Unexpected argument 'extra'"),
            ]
            for (arguments, message) in cases {
                let result = try Self.healthvault(arguments, daemon)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.err == "healthvault: \(message)\n", "\(arguments): \(result.err)")
                #expect(result.out.isEmpty, "\(arguments): \(result.out)")
            }
            // An option's negative value is its value too.
            let session = try Self.healthvault(["login", "--for", "-5m"], daemon)
            #expect(session.status == 64 && session.err.contains("--for -5m is not a session length"), "\(session)")
            // Nothing was saved; a positive value still is.
            #expect(try Self.healthvault(["samples", "list", "weight"], daemon).out == "No bodyMass samples.\n")
            #expect(try Self.healthvault(["samples", "add", "weight", "72.5", "kg"], daemon).status == 0)

            // healthvaultd reads its limits the same way, and says so in the tools' style.
            let limit = try Self.run(
                TestDaemon.binary("healthvaultd"),
                ["--vault", daemon.directory.path, "--max-connections", "-5"]
            )
            #expect(limit.status == 64, "\(limit)")
            #expect(limit.err == "healthvaultd: --max-connections -5 is out of range: give more than 0\n", "\(limit)")
            let unknown = try Self.run(TestDaemon.binary("healthvaultd"), ["--bogus"])
            #expect(unknown.status == 64 && unknown.err == "healthvaultd: Unknown option '--bogus'\n", "\(unknown)")
        }

        // MARK: 3. Did you mean, with aliases

        @Test func aMistypedAliasIsSuggestedAsTheAliasWithItsShortName() throws {
            let cases: [([String], String)] = [
                (["stats", "wieght"], "did you mean one of weight (bodyMass), height?"),
                (["samples", "list", "stpes"], "did you mean steps (stepCount)?"),
                (["samples", "add", "slep", "asleepCore"], "did you mean sleep (sleepAnalysis)?"),
                (["stats", "stepcont"], "did you mean stepCount?"),
            ]
            let daemon = try TestDaemon()
            for (arguments, suggestion) in cases {
                let result = try Self.healthvault(arguments, daemon)
                #expect(result.status == 1, "\(arguments): \(result)")
                #expect(
                    result.err.hasPrefix("healthvault: unknown type \"")
                        && result.err.hasSuffix("\"; \(suggestion) (`healthvault types` lists every type)\n"),
                    "\(arguments): \(result.err)"
                )
            }
        }

        // MARK: 4. types TEXT is a filter, whatever it holds

        @Test func aTypesFilterThatMatchesNothingIsAnEmptyList() throws {
            let none = try Self.healthvault(["types", "zzz"])
            #expect(none.status == 0 && none.err.isEmpty, "\(none)")
            #expect(none.out == "No type's name or identifier holds \"zzz\" (`healthvault types` lists every type).\n")
            let json = try Self.healthvault(["types", "zzz", "--json"])
            #expect(json.status == 0 && json.out.isEmpty && json.err.isEmpty, "\(json)")
            let close = try Self.healthvault(["types", "wieght"])
            #expect(close.status == 0 && close.out.contains("did you mean weight (bodyMass)"), "\(close)")
            let otherKind = try Self.healthvault(["types", "stepCount", "--kind", "category"])
            #expect(otherKind.status == 0 && otherKind.out.hasPrefix("No category type's name"), "\(otherKind)")
            // A filter that matches lists, as before.
            let heart = try Self.healthvault(["types", "heart"])
            #expect(heart.status == 0 && heart.out.contains("heartRate  "), "\(heart)")
        }

        // MARK: 5. audit show --operation takes only operations

        @Test func anOperationTheLogNeverRecordsIsRefusedWithTheClosest() throws {
            let daemon = try TestDaemon()
            let bogus = try Self.healthvault(["audit", "show", "--operation", "bogus"], daemon)
            #expect(bogus.status == 64, "\(bogus)")
            #expect(
                bogus.err.hasPrefix(
                    "healthvault: --operation bogus is no operation the audit log records; give one of app.enroll, "
                ) && bogus.err.contains("vault.unlock") && bogus.err.split(separator: "\n").count == 1,
                "\(bogus.err)"
            )
            let close = try Self.healthvault(["audit", "show", "--operation", "query.sampel"], daemon)
            #expect(close.status == 64, "\(close)")
            #expect(
                close.err
                    == "healthvault: --operation query.sampel is no operation the audit log records; did you mean "
                    + "query.sample? (docs/AUDIT_LOG.md lists them all)\n"
            )
            let known = try Self.healthvault(["audit", "show", "--operation", "vault.unlock"], daemon)
            #expect(known.status == 0 && known.out.contains("vault.unlock"), "\(known)")
            let rare = try Self.healthvault(["audit", "show", "--operation", "vault.open-without-checkpoint"], daemon)
            #expect(rare.status == 0, "\(rare)")
        }

        // MARK: 6. Messages in the house style

        @Test func refusalsSayWhatHappenedAndWhatToDo() async throws {
            let daemon = try TestDaemon(start: false)
            let root = daemon.directory.deletingLastPathComponent().path
            let vault = daemon.directory.path
            let wrong = root + "/wrong"
            try TestDaemon.writePassphraseFile("not the passphrase", to: wrong)
            let advice = "put there the one the vault was created with, or last given to `healthvault passwd`"

            // A wrong passphrase: where it was read, and what to do, from both tools.
            let daemonRun = try Self.run(
                TestDaemon.binary("healthvaultd"),
                ["--vault", vault, "--passphrase-file", wrong]
            )
            #expect(daemonRun.status == 1, "\(daemonRun)")
            #expect(
                daemonRun.err
                    == "healthvaultd: wrong passphrase for \(vault) in \(wrong) (its first line); \(advice)\n",
                "\(daemonRun.err)"
            )
            let stopped = try Self.healthvault(["data", "--vault", vault, "--passphrase-file", wrong])
            #expect(
                stopped.err == "healthvault: wrong passphrase for \(vault) in \(wrong) (its first line); \(advice)\n"
            )

            // A passphrase file that is not there, or is a folder.
            for program in ["healthvault", "healthvaultd"] {
                let arguments = (program == "healthvault" ? ["data"] : []) + ["--vault", vault, "--passphrase-file"]
                let missing = try Self.run(TestDaemon.binary(program), arguments + [root + "/nowhere"])
                #expect(
                    missing.status == 1
                        && missing.err
                            == "\(program): the passphrase file \(root)/nowhere does not exist; name the file whose "
                            + "first line is the passphrase\n",
                    "\(program): \(missing)"
                )
                let folder = try Self.run(TestDaemon.binary(program), arguments + [root])
                #expect(folder.err.hasPrefix("\(program): the passphrase file \(root) is a folder; "), "\(folder)")
                #expect(!(missing.err + folder.err).contains("No such file"), "strerror text")
            }

            // Not this user's to read: said with the modes and owners (as root, run as nobody).
            if getuid() == 0 {
                let binaries = try VaultFolderTruthTests.reachableBinaries()
                defer { try? FileManager.default.removeItem(at: binaries) }
                let open = try #require(mkdtemp(strdup("/tmp/hvopen.XXXXXX")).map { String(cString: $0) })
                defer { try? FileManager.default.removeItem(atPath: open) }
                chmod(open, 0o777)
                chmod(root, 0o755)
                let denied = try VaultFolderTruthTests.run(
                    binaries.appendingPathComponent("healthvault").path,
                    ["init", "--vault", open + "/new", "--passphrase-file", wrong],
                    launcher: TestDaemon.asUnprivileged([])
                )
                #expect(
                    denied.status == 1
                        && denied.err.hasPrefix(
                            "healthvault: permission denied: you (uid 65534, nobody) may not read the passphrase file "
                                + "\(wrong) (mode 600; it belongs to uid 0, root); "
                        ),
                    "\(denied)"
                )
            }

            // A unit that is not one: once, in words, with the closest of the type's kind.
            try daemon.start()
            let unit = try Self.healthvault(["samples", "add", "weight", "70", "kgs"], daemon)
            #expect(unit.status == 1, "\(unit)")
            #expect(unit.err == "healthvault: unknown unit \"kgs\"; did you mean kg? (docs/UNITS.md lists them)\n")
            let option = try Self.healthvault(["stats", "weight", "--unit", "lbz"], daemon)
            #expect(option.err.hasPrefix("healthvault: --unit: unknown unit \"lbz\"; did you mean "), "\(option.err)")

            // Enrolling an app twice: about the app, not a field of the manifest.
            let key = root + "/app.pub"
            #expect(
                try Self.healthvault(["apps", "keygen", "--private-key", root + "/app.key", "--public-key", key]).status
                    == 0
            )
            #expect(try Self.healthvault(["apps", "enroll", Self.manifest, "--key", key], daemon).status == 0)
            let again = try Self.healthvault(["apps", "enroll", Self.manifest, "--key", key], daemon)
            #expect(again.status == 1, "\(again)")
            #expect(
                again.err
                    == "healthvault: org.example.stepcounter is already enrolled; to enroll it again, remove it first "
                    + "(`healthvault apps remove org.example.stepcounter`)\n",
                "\(again.err)"
            )

            // audit verify: the verdict on standard output; what kept it from verifying on
            // standard error, prefixed like every error.
            let export = root + "/audit"
            #expect(try Self.healthvault(["audit", "export", export], daemon).status == 0)
            let auditKey = vault + "/audit-key.pub"
            let verified = try Self.healthvault(["audit", "verify", export, "--key", auditKey])
            #expect(verified.status == 0 && verified.out.hasPrefix("verified: ") && verified.err.isEmpty, "\(verified)")
            let noKey = try Self.healthvault(["audit", "verify", export, "--key", root + "/missing.pub"])
            #expect(noKey.status == 2 && noKey.out.isEmpty, "\(noKey)")
            #expect(
                noKey.err
                    == "healthvault: the key file \(root)/missing.pub does not exist; give the vault's audit-key.pub, "
                    + "as you received it, with --key\n"
            )
            let noExport = try Self.healthvault(["audit", "verify", root + "/nowhere", "--key", auditKey])
            #expect(noExport.status == 2 && noExport.out.isEmpty, "\(noExport)")
            #expect(
                noExport.err.hasPrefix("healthvault: there is no export at \(root)/nowhere: the folder does not exist;")
            )
        }

        // MARK: 7. A passphrase file others may read

        @Test func aPassphraseFileOthersMayReadIsUsedWithAWarning() async throws {
            let daemon = try TestDaemon(start: false)
            let file = daemon.passphraseFile
            chmod(file, 0o644)
            // The daemon warns in its log, and serves.
            try daemon.start()
            #expect(
                daemon.logText.contains(
                    "healthvaultd: warning: the passphrase file \(file) can be read by other users (mode 644); "
                        + "`chmod 600 \(file)`\n"
                ),
                "\(daemon.logText)"
            )
            // The command warns, in one line, and does what it was asked.
            let listed = try Self.healthvault(["apps", "list"], daemon)
            #expect(listed.status == 0, "\(listed)")
            #expect(
                listed.err
                    == "healthvault: warning: the passphrase file \(file) can be read by other users (mode 644); "
                    + "`chmod 600 \(file)`\n"
            )
            chmod(file, 0o640)
            #expect(try Self.healthvault(["apps", "list"], daemon).err.contains("(mode 640)"))
            // Owner-only: no warning.
            chmod(file, 0o600)
            let quiet = try Self.healthvault(["apps", "list"], daemon)
            #expect(quiet.status == 0 && quiet.err.isEmpty, "\(quiet)")
        }

        // MARK: 8. --json leaves empty members out

        @Test func jsonObjectsLeaveOutEmptyMembers() async throws {
            let daemon = try TestDaemon()
            let added = try Self.healthvault(
                ["samples", "add", "weight", "70", "kg", "--metadata", "note=", "--json"],
                daemon
            )
            // A metadata value is data: an empty one stays.
            #expect(added.out.contains(#""metadata":{"HKWasUserEntered":1,"note":""}"#), "\(added.out)")
            let stats = try Self.healthvault(["stats", "weight", "--json"], daemon).out
            #expect(!stats.isEmpty && !stats.contains("valuesBySource") && !stats.contains("[]"), "\(stats)")
            let audit = try Self.healthvault(["audit", "show", "--json"], daemon).out
            #expect(audit.contains(#""operation":"vault.unlock""#), "\(audit)")
            #expect(!audit.contains(#""requestID":"""#) && !audit.contains(#""types":[]"#), "\(audit)")
            let reset = try Self.healthvault(["priority", "reset", "steps", "--json"], daemon)
            #expect(reset.out == "{\"type\":\"HKQuantityTypeIdentifierStepCount\"}\n", "\(reset)")
            let preview = try Self.healthvault(
                ["samples", "delete", "--type", "heartRate", "--all", "--dry-run", "--json"],
                daemon
            )
            #expect(preview.out == "{\"count\":0,\"dryRun\":true}\n", "\(preview)")
            try await daemon.enroll("org.example.app", read: [.quantity(.stepCount)], share: [])
            let apps = try Self.healthvault(["apps", "list", "--json"], daemon).out
            #expect(apps.contains(#""app":"org.example.app""#) && !apps.contains("pendingRequests"), "\(apps)")
            let root = daemon.directory.deletingLastPathComponent().path
            #expect(try Self.healthvault(["audit", "export", root + "/audit"], daemon).status == 0)
            let verdict = try Self.healthvault([
                "audit", "verify", root + "/audit", "--key", daemon.directory.path + "/audit-key.pub", "--json",
            ])
            #expect(verdict.status == 0 && !verdict.out.contains("warnings"), "\(verdict)")
        }

        // MARK: 9. Absolute paths

        @Test func keygenPrintsAbsolutePaths() throws {
            let folder = try #require(mkdtemp(strdup("/tmp/hvkeys.XXXXXX")).map { String(cString: $0) })
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let made = try Self.run(
                TestDaemon.binary("healthvault"),
                ["apps", "keygen", "--private-key", "keys/app.key", "--public-key", "app.pub", "--json"],
                in: folder
            )
            #expect(made.status == 0, "\(made)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(made.out.utf8)) as? [String: Any])
            #expect(object["privateKey"] as? String == folder + "/keys/app.key")
            #expect(object["publicKey"] as? String == folder + "/app.pub")
            #expect(FileManager.default.fileExists(atPath: folder + "/keys/app.key"))
            let text = try Self.run(
                TestDaemon.binary("healthvault"),
                ["apps", "keygen", "--private-key", "other.key", "--public-key", "other.pub"],
                in: folder
            )
            #expect(text.out.hasPrefix("Wrote the private key to \(folder)/other.key (0600)"), "\(text)")
        }

        // MARK: 10. The limits the daemon logs

        /// The daemon's log once it has said it serves (the line may follow the socket by a moment).
        static func servingLog(_ daemon: TestDaemon) -> String {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, !daemon.logText.contains(" serving") { usleep(20_000) }
            return daemon.logText
        }

        @Test func theDaemonLogsEachLimitUnderItsFlagsName() throws {
            let standard = try TestDaemon()
            #expect(
                Self.servingLog(standard).contains(
                    "connectionsAtOnce=200 maxConnections=128 maxConnectionsPerApp=16 maxOwnerConnections=8 "
                        + "maxUnauthenticated=64 "
                ),
                "\(standard.logText)"
            )
            let set = try TestDaemon(["--max-connections", "50"])
            #expect(Self.servingLog(set).contains("connectionsAtOnce=122 maxConnections=50 "), "\(set.logText)")
        }
    }
}
