import Foundation
import Glibc
import HealthModel
import ProcessTestSupport
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// `healthvault grants history`: what apps could read and share, replayed from the signed log,
    /// by the owner (the vault's log) and by an auditor (an export and the key), and by the
    /// independent verifier in scripts/, against the grants the daemon holds.
    @Suite struct GrantHistoryCommandTests {
        static let app = "org.example.history"
        static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        /// JSON lines as objects.
        static func objects(_ text: String) throws -> [[String: Any]] {
            try text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        /// (app, type, access, state) of each line, in order.
        static func summary(_ objects: [[String: Any]]) -> [String] {
            objects.map { "\($0["app"] ?? "") \($0["type"] ?? "") \($0["access"] ?? "") \($0["state"] ?? "")" }
        }

        static func now() -> String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: Date().addingTimeInterval(1))
        }

        @Test func theLogReplaysWhatEachAppCouldDoAndAnAuditorGetsTheSameAnswerOffline() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll(
                Self.app,
                read: [ObjectType(steps), ObjectType(heartRate)],
                share: [steps, heartRate]
            )
            let before = Self.now()
            try await Task.sleep(for: .milliseconds(1100))
            for decision in [
                ["grant", Self.app, "steps", "--read"],
                ["revoke", Self.app, "steps", "--read"],
                ["grant", Self.app, "heartRate", "--read", "--last", "30d", "--until", "2099-12-31T00:00:00Z"],
                ["grant", Self.app, "steps", "--share"],
                ["deny", Self.app, "heartRate", "--share"],
            ] {
                let result = try CLITests.healthvault(decision, daemon: daemon)
                #expect(result.status == 0, "\(decision): \(result)")
            }
            let at = Self.now()

            // The owner's replay at now: the grants the daemon holds.
            let owner = try CLITests.healthvault(["grants", "history", "--at", at, "--json"], daemon: daemon)
            #expect(owner.status == 0, "\(owner)")
            let states = try Self.objects(owner.out)
            #expect(
                Self.summary(states) == [
                    "\(Self.app) HKQuantityTypeIdentifierHeartRate read granted",
                    "\(Self.app) HKQuantityTypeIdentifierHeartRate share denied",
                    "\(Self.app) HKQuantityTypeIdentifierStepCount read denied",
                    "\(Self.app) HKQuantityTypeIdentifierStepCount share granted",
                ],
                "\(owner.out)"
            )
            let window = try #require(states[0]["attributes"] as? [String: String])
            #expect(window == ["window": "last", "window-seconds": "2592000", "expires": "2099-12-31T00:00:00.000Z"])
            let shown = try CLITests.healthvault(["apps", "show", Self.app, "--json"], daemon: daemon)
            let app = try #require(try Self.objects(shown.out).first)
            for grant in app["grants"] as? [[String: Any]] ?? [] {
                for access in ["read", "share"] {
                    let held = (grant[access] as? [String: Any])?["state"] as? String
                    let replayed =
                        states.first {
                            $0["type"] as? String == grant["type"] as? String && $0["access"] as? String == access
                        }?["state"] as? String
                    #expect(held == replayed ?? "notDetermined", "\(grant["type"] ?? "") \(access)")
                }
            }

            // What the vault holds now, in words.
            let words = try CLITests.healthvault(["grants"], daemon: daemon)
            #expect(words.status == 0, "\(words)")
            #expect(words.out.hasPrefix("\(Self.app) (\(Self.app))\n"), "\(words.out)")
            #expect(
                words.out.contains("\n  reads heart rate from the last 30 days, until 2099-12-31 00:00 "),
                "\(words.out)"
            )
            #expect(words.out.contains("\n  shares step count\n"), "\(words.out)")
            #expect(words.out.contains("\n  does not read step count (denied "), "\(words.out)")
            #expect(words.out.contains("\n  does not share heart rate (denied "), "\(words.out)")
            let unknown = try CLITests.healthvault(["grants", "list", "org.example.nobody"], daemon: daemon)
            #expect(unknown.status == 1 && unknown.err.contains("no app org.example.nobody is enrolled"), "\(unknown)")

            // Before the first decision nothing was decided; the timeline has every change.
            let early = try CLITests.healthvault(["grants", "history", "--at", before, "--json"], daemon: daemon)
            #expect(early.status == 0 && early.out.isEmpty, "\(early)")
            let timeline = try CLITests.healthvault(["grants", "history", Self.app], daemon: daemon)
            #expect(timeline.status == 0, "\(timeline)")
            #expect(timeline.out.contains("From the audit log: the vault's, "), "\(timeline.out)")
            #expect(
                timeline.out.contains(
                    "heartRate  read    granted (reading from the last 30 days, until 2099-12-31 00:00"
                ),
                "\(timeline.out)"
            )
            #expect(timeline.out.contains("stepCount  read    denied"), "\(timeline.out)")
            #expect(timeline.out.contains("authorization.revoke-read (entry "), "\(timeline.out)")
            let typed = try CLITests.healthvault(
                ["grants", "history", "--type", "steps", "--at", at, "--json"],
                daemon: daemon
            )
            #expect(try Self.objects(typed.out).count == 2, "\(typed.out)")

            // An auditor: an export and the key, neither vault nor daemon.
            let root = daemon.directory.deletingLastPathComponent()
            let export = root.appendingPathComponent("audit-export").path
            #expect(try CLITests.healthvault(["audit", "export", export], daemon: daemon).status == 0)
            let key = daemon.directory.appendingPathComponent("audit-key.pub").path
            let auditor = try CLITests.healthvault([
                "grants", "history", "--export", export, "--key", key, "--at", at, "--json",
            ])
            #expect(auditor.status == 0, "\(auditor)")
            #expect(Self.summary(try Self.objects(auditor.out)) == Self.summary(states))
            #expect(
                try Self.objects(auditor.out).map { $0["since"] as? String } == states.map { $0["since"] as? String }
            )

            // The independent verifier replays the same from the document alone.
            if let python = AuditVerifyAgreementTests.python {
                let process = ChildProcess()
                process.executableURL = URL(fileURLWithPath: python)
                process.arguments = [
                    Self.checkout.appendingPathComponent("scripts/audit-verify.py").path, export, "--key", key,
                    "--grants-at", at,
                ]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\(out)")
                let replayed = try Self.objects(out)
                #expect(Self.summary(replayed) == Self.summary(states), "\(out)")
                for (python, swift) in zip(replayed, states) {
                    #expect(python["since"] as? String == swift["since"] as? String)
                    #expect(python["entry"] as? Int == swift["entry"] as? Int)
                    #expect(python["attributes"] as? [String: String] == swift["attributes"] as? [String: String])
                }
            }

            // A log that does not verify is not replayed.
            let entries = URL(fileURLWithPath: export).appendingPathComponent("entries.bin")
            var bytes = try Data(contentsOf: entries)
            bytes[bytes.count - 3] ^= 0x01
            try bytes.write(to: entries)
            let tampered = try CLITests.healthvault([
                "grants", "history", "--export", export, "--key", key, "--at", at,
            ])
            #expect(tampered.status == 1, "\(tampered)")
            #expect(tampered.out.isEmpty, "\(tampered.out)")
            #expect(tampered.err.hasPrefix("healthvault: the log does not verify, so it is not replayed: "))
            let noKey = try CLITests.healthvault(["grants", "history", "--export", export])
            #expect(noKey.status == 64 && noKey.err.contains("--export needs --key"), "\(noKey)")
        }
    }
}
