import AuditLog
import Foundation
import HealthModel
import HealthVaultKit
import ProcessTestSupport
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// Issue 23 through the real binaries: `grant --last/--from/--to/--since-grant/--until`,
    /// `apps show` saying windows and expiries in words and in JSON, the audit log carrying them
    /// (and verifying with both verifiers), and an expiry ending a live observer's view of other
    /// apps' samples at its instant.
    @Suite struct GrantWindowCommandTests {
        static let app = "org.example.trial"

        static func run(_ arguments: [String], _ daemon: TestDaemon) throws -> (status: Int32, out: String, err: String)
        {
            try CLITests.healthvault(arguments, daemon: daemon)
        }

        static func json(_ text: some StringProtocol) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }

        @Test func grantTakesAWindowAndAnExpiryAndAppsShowSaysThemInWords() async throws {
            let daemon = try TestDaemon()
            #expect(try Self.run(["timezone", "Europe/Paris"], daemon).status == 0)
            try await daemon.enroll(
                Self.app,
                read: [
                    ObjectType(heartRate), ObjectType(steps), .quantity(.bloodPressureSystolic),
                    .characteristic(.dateOfBirth),
                ],
                share: [steps]
            )
            let last = try Self.run(
                ["grant", Self.app, "heartRate", "--read", "--last", "30d", "--until", "2099-12-31"],
                daemon
            )
            #expect(last.status == 0, "\(last)")
            #expect(
                last.out
                    == "Granted read of HKQuantityTypeIdentifierHeartRate for org.example.trial, reading from the last 30 days, until 2099-12-31 00:00 Europe/Paris.\n"
            )
            let fixed = try Self.run(
                ["grant", Self.app, "steps", "--read", "--from", "2026-01-01", "--to", "2026-07-01", "--json"],
                daemon
            )
            #expect(fixed.status == 0, "\(fixed)")
            let decided = try Self.json(fixed.out)
            #expect(
                decided["window"] as? [String: String]
                    == ["kind": "fixed", "start": "2025-12-31T23:00:00.000Z", "end": "2026-06-30T22:00:00.000Z"]
            )
            #expect(
                try Self.run(["grant", Self.app, "bloodPressureSystolic", "--read", "--since-grant"], daemon).status
                    == 0
            )
            #expect(
                try Self.run(["grant", Self.app, "steps", "--share", "--until", "2099-12-31T12:00"], daemon).status == 0
            )

            let shown = try Self.run(["apps", "show", Self.app], daemon)
            #expect(shown.status == 0, "\(shown)")
            let lines = shown.out.split(separator: "\n").map(String.init)
            let limits = Array(lines.drop { $0 != "limits:" }.dropFirst())
            #expect(limits.count == 4, "\(shown.out)")
            #expect(limits.contains("  reads heart rate from the last 30 days, until 2099-12-31 00:00 Europe/Paris"))
            #expect(
                limits.contains(
                    "  reads step count from 2026-01-01 00:00 Europe/Paris to 2026-07-01 00:00 Europe/Paris"
                )
            )
            #expect(limits.contains("  shares step count until 2099-12-31 12:00 Europe/Paris"))
            #expect(limits.contains { $0.hasPrefix("  reads blood pressure systolic from the grant on (20") })

            // JSON: the window and the expiry as members of each permission.
            let info = try Self.json(try Self.run(["apps", "show", Self.app, "--json"], daemon).out)
            let grants = try #require(info["grants"] as? [[String: Any]])
            func permission(_ type: String, _ access: String) -> [String: Any]? {
                grants.first { $0["type"] as? String == type }?[access] as? [String: Any]
            }
            let heart = try #require(permission("HKQuantityTypeIdentifierHeartRate", "read"))
            #expect(heart["state"] as? String == "granted")
            let window = try #require(heart["window"] as? [String: Any])
            #expect(window["kind"] as? String == "last" && (window["seconds"] as? NSNumber)?.intValue == 2_592_000)
            #expect(window.count == 2)
            #expect(heart["expiresAt"] as? String == "2099-12-30T23:00:00.000Z")
            let systolic = try #require(permission("HKQuantityTypeIdentifierBloodPressureSystolic", "read"))
            let since = try #require(systolic["window"] as? [String: Any])
            #expect(since["kind"] as? String == "sinceGrant" && since["start"] as? String == systolic["at"] as? String)
            #expect(
                permission("HKQuantityTypeIdentifierStepCount", "share")?["expiresAt"] as? String
                    == "2099-12-31T11:00:00.000Z"
            )
            #expect(permission("HKQuantityTypeIdentifierStepCount", "share")?["window"] == nil)

            // The log: each grant's entry carries its new state; both verifiers accept the export.
            let audit = try Self.run(["audit", "show", "--operation", "authorization.grant-read", "--json"], daemon)
            let entries = try audit.out.split(separator: "\n").map { try Self.json($0) }
            #expect(entries.count == 3)
            #expect(
                entries.first?["attributes"] as? [String: String]
                    == ["window": "last", "window-seconds": "2592000", "expires": "2099-12-30T23:00:00.000Z"]
            )
            let table = try Self.run(["audit", "show", "--operation", "authorization.grant-read"], daemon)
            #expect(
                table.out.contains("DETAILS") && table.out.contains("window=fixed window-end=2026-06-30T22:00:00.000Z")
            )
            let root = daemon.directory.deletingLastPathComponent()
            let export = root.appendingPathComponent("windows-export").path
            #expect(try Self.run(["audit", "export", export], daemon).status == 0)
            let key = daemon.directory.appendingPathComponent("audit-key.pub").path
            let verified = try CLITests.healthvault(["audit", "verify", export, "--key", key])
            #expect(verified.status == 0 && verified.out.hasPrefix("verified:"), "\(verified)")
            if let python = AuditVerifyAgreementTests.python {
                let process = ChildProcess()
                process.executableURL = URL(fileURLWithPath: python)
                process.arguments = [
                    AuditVerifyAgreementTests.checkout.appendingPathComponent("scripts/audit-verify.py").path, export,
                    "--key", key,
                ]
                process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
                try process.run()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "the Python verifier reads the windows' entries")
            }

            // A plain grant replaces the window: `apps show` has nothing more to say of it.
            #expect(try Self.run(["grant", Self.app, "heartRate", "--read"], daemon).status == 0)
            let plain = try Self.run(["apps", "show", Self.app], daemon)
            #expect(!plain.out.contains("heart rate"))
        }

        @Test func termsTheCommandCannotTakeAreOneLineRefusals() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll(
                Self.app,
                read: [ObjectType(heartRate), .characteristic(.dateOfBirth)],
                share: [heartRate]
            )
            let cases: [([String], Int32, String)] = [
                (
                    ["--share", "--last", "30d"], 64,
                    "a window (--last, --from, --to, --since-grant) limits reading: add --read"
                ),
                (
                    ["--read", "--last", "30d", "--since-grant"], 64,
                    "give one window: --last, --from and --to, or --since-grant"
                ),
                (
                    ["--read", "--from", "2026-02-01", "--to", "2026-01-01"], 1,
                    "--to 2026-01-01 is not after --from 2026-02-01"
                ),
                (["--read", "--until", "2020-01-01"], 1, "--until 2020-01-01 is not in the future; give a later date"),
                (["--read", "--last", "30x"], 64, "--last"),
                (["--read", "--last", "-7d"], 64, "--last"),
            ]
            for (options, status, expected) in cases {
                let result = try Self.run(["grant", Self.app, "heartRate"] + options, daemon)
                #expect(result.status == status, "\(options): \(result)")
                #expect(
                    result.err.hasPrefix("healthvault: ") && result.err.contains(expected),
                    "\(options): \(result.err)"
                )
                #expect(result.err.split(separator: "\n").count == 1, "\(options): \(result.err)")
                #expect(!ErrorStyleTests.readsAsABug(result.err), "\(options): \(result.err)")
            }
            // Refused by the daemon, before anything is decided: a characteristic has no dates.
            let characteristic = try Self.run(
                ["grant", Self.app, "heartRate", "dateOfBirth", "--read", "--last", "7d"],
                daemon
            )
            #expect(characteristic.status == 1)
            #expect(characteristic.err.contains("is a characteristic, without dates, so a window cannot limit it"))
            #expect(
                characteristic.err.split(separator: "\n").count == 1 && !ErrorStyleTests.readsAsABug(characteristic.err)
            )
            // A window and a share in one command: the window is for reading, the expiry for both.
            let both = try Self.run(
                ["grant", Self.app, "heartRate", "--read", "--share", "--last", "7d", "--until", "2099-01-01"],
                daemon
            )
            #expect(both.status == 0, "\(both)")
            let info = try Self.json(try Self.run(["apps", "show", Self.app, "--json"], daemon).out)
            let grant = try #require(
                (info["grants"] as? [[String: Any]])?.first {
                    $0["type"] as? String == "HKQuantityTypeIdentifierHeartRate"
                }
            )
            #expect((grant["read"] as? [String: Any])?["window"] != nil)
            #expect((grant["share"] as? [String: Any])?["window"] == nil)
            #expect((grant["share"] as? [String: Any])?["expiresAt"] != nil)
        }

        @Test func anExpiryEndsALiveObserversViewOfOtherAppsAtItsInstant() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.writer", read: [], share: [steps])
            try await daemon.enroll("org.example.watcher", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["share"], [ObjectType(steps)], for: "org.example.writer")
            try await daemon.decide("grant", ["share"], [ObjectType(steps)], for: "org.example.watcher")
            let granted = try Self.run(["grant", "org.example.watcher", "steps", "--read", "--until", "+3s"], daemon)
            #expect(granted.status == 0, "\(granted)")
            let expiry = Date().addingTimeInterval(3)
            let writer = try await daemon.store("org.example.writer")
            let watcher = try await daemon.store("org.example.watcher")
            let observer = try await watcher.observe([steps])
            let updates = Updates(observer.updates)
            let now = Date()
            try await writer.save(try quantity(.stepCount, 10, .count, at: now.addingTimeInterval(-600)))
            #expect(try await updates.next(within: 5)?.types == [steps])

            // The daemon writes the expiry when its instant comes, with no request to prompt it.
            var expired: [AuditEntryInfo] = []
            for _ in 0..<80 where expired.isEmpty {
                try await Task.sleep(for: .milliseconds(100))
                expired = try await daemon.auditEntries(operation: "authorization.expire-read")
            }
            let entry = try #require(expired.first)
            #expect(entry.actor == "system" && entry.request == "org.example.watcher")
            #expect(entry.types == ["HKQuantityTypeIdentifierStepCount"])
            let instant = try #require(entry.attributes?["expired"].flatMap(RFC3339.date(from:)))
            #expect(abs(instant.timeIntervalSince(expiry)) < 2)
            #expect(entry.time >= instant)

            // From then on, another app's writes are not announced; the watcher's own still are.
            try await writer.save(try quantity(.stepCount, 11, .count, at: now.addingTimeInterval(-500)))
            #expect(try await updates.next(within: 1) == nil)
            try await watcher.save(try quantity(.stepCount, 12, .count, at: now.addingTimeInterval(-400)))
            #expect(try await updates.next(within: 5)?.types == [steps])
            let seen = try await watcher.samples(
                matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)])
            )
            #expect(seen.count == 1)
            let shown = try Self.run(["apps", "show", "org.example.watcher"], daemon)
            #expect(shown.out.contains("reading step count expired "), "\(shown.out)")
            try await observer.stop()
            await writer.close()
            await watcher.close()
        }
    }
}
