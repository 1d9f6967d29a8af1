import AuditLog
import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import ProcessTestSupport
import Testing
import VaultCrypto
import VaultProtocol
import VaultStore

extension DaemonEndToEnd {
    /// The `healthvault` binary against a real daemon: human output, `--json`, one-line errors with
    /// non-zero exits.
    @Suite struct CLITests {
        /// Runs healthvault; returns its exit status, stdout and stderr.
        @discardableResult
        static func healthvault(
            _ arguments: [String],
            daemon: TestDaemon? = nil
        ) throws -> (status: Int32, out: String, err: String) {
            var all = [TestDaemon.binary("healthvault")] + arguments
            if let daemon { all += ["--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile] }
            return try runProcess(all)
        }

        @Test func theOwnersCommandsEndToEnd() async throws {
            let daemon = try TestDaemon()
            let root = daemon.directory.deletingLastPathComponent().path
            let keygen = try Self.healthvault([
                "apps", "keygen", "--private-key", root + "/a.key", "--public-key", root + "/a.pub",
            ])
            #expect(keygen.status == 0)
            let mode = try FileManager.default.attributesOfItem(atPath: root + "/a.key")[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let again = try Self.healthvault([
                "apps", "keygen", "--private-key", root + "/a.key", "--public-key", root + "/b.pub",
            ])
            #expect(again.status != 0 && again.err.contains("never overwritten"))

            let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("policies/apps/org.example.stepcounter.json").path
            #expect(
                try Self.healthvault(["apps", "enroll", manifest, "--key", root + "/a.pub"], daemon: daemon).status == 0
            )
            let list = try Self.healthvault(["apps", "list", "--json"], daemon: daemon)
            #expect(list.status == 0)
            let app = try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any]
            #expect(app?["app"] as? String == "org.example.stepcounter")

            #expect(
                try Self.healthvault(
                    ["grant", "org.example.stepcounter", "stepCount", "--read", "--share"],
                    daemon: daemon
                ).status == 0
            )
            let shown = try Self.healthvault(["apps", "show", "org.example.stepcounter"], daemon: daemon)
            #expect(shown.out.contains("HKQuantityTypeIdentifierStepCount  granted"))
            #expect(try Self.healthvault(["profile", "set", "biologicalSex", "1"], daemon: daemon).status == 0)
            let profile = try Self.healthvault(["profile", "show", "--json"], daemon: daemon)
            #expect(profile.out.contains(#""type":"HKCharacteristicTypeIdentifierBiologicalSex","value":1"#))

            // The owner deletes an app's sample.
            let store = try await HealthStore(
                appID: "org.example.stepcounter",
                keyFile: root + "/a.key",
                vaultDirectory: daemon.directory.path
            )
            let sample = try quantity(.stepCount, 5, .count, at: Date(timeIntervalSince1970: 1_790_000_000))
            try await store.save(sample)
            let deleted = try Self.healthvault(["samples", "delete", sample.uuid.uuidString, "--yes"], daemon: daemon)
            #expect(deleted.out.contains("Deleted 1 sample."))
            await store.close()

            // The audit log: show, export, verify, keep a checkpoint, tamper.
            let show = try Self.healthvault(
                ["audit", "show", "--app", "org.example.stepcounter", "--json"],
                daemon: daemon
            )
            let operations = show.out.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["operation"] as? String
            }
            #expect(operations == ["save"])
            #expect(try Self.healthvault(["audit", "export", root + "/export"], daemon: daemon).status == 0)
            let key = daemon.directory.appendingPathComponent("audit-key.pub").path
            let verified = try Self.healthvault([
                "audit", "verify", root + "/export", "--key", key, "--save-checkpoint", root + "/kept.note",
            ])
            #expect(verified.status == 0 && verified.out.hasPrefix("verified:"))
            #expect(try Self.healthvault(["audit", "export", root + "/export2"], daemon: daemon).status == 0)
            let extended = try Self.healthvault([
                "audit", "verify", root + "/export2", "--key", key, "--checkpoint", root + "/kept.note",
            ])
            #expect(extended.status == 0)
            let entries = root + "/export2/entries.bin"
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: entries)))
            bytes[bytes.count - 1] ^= 0x01
            try Data(bytes).write(to: URL(fileURLWithPath: entries))
            let tampered = try Self.healthvault(["audit", "verify", root + "/export2", "--key", key])
            #expect(tampered.status == 1)
            #expect(tampered.out.contains("TAMPERED") && tampered.out.contains("entry"))

            let status = try Self.healthvault(["status", "--detail", "--json"], daemon: daemon)
            #expect(status.status == 0 && status.out.contains(#""locked":false"#))
        }

        @Test func everyErrorIsOneLineWithANonZeroExit() async throws {
            let daemon = try TestDaemon()
            let wrongPassphrase = daemon.directory.deletingLastPathComponent().appendingPathComponent("wrong").path
            try TestDaemon.writePassphraseFile("wrong", to: wrongPassphrase)
            let cases: [[String]] = [
                [
                    "grant", "org.example.nobody", "stepCount", "--read", "--vault", daemon.directory.path,
                    "--passphrase-file", daemon.passphraseFile,
                ],
                [
                    "grant", "org.example.nobody", "notAType", "--read", "--vault", daemon.directory.path,
                    "--passphrase-file", daemon.passphraseFile,
                ],
                [
                    "grant", "org.example.nobody", "stepCount", "--vault", daemon.directory.path, "--passphrase-file",
                    daemon.passphraseFile,
                ],
                ["apps", "list", "--vault", daemon.directory.path, "--passphrase-file", wrongPassphrase],
                ["apps", "list", "--vault", "/nonexistent/vault", "--passphrase-file", daemon.passphraseFile],
                ["status", "--vault", "/nonexistent/vault"],
                [
                    "profile", "set", "biologicalSex", "\"maybe\"", "--vault", daemon.directory.path,
                    "--passphrase-file",
                    daemon.passphraseFile,
                ],
                ["no-such-command"],
            ]
            for arguments in cases {
                let result = try Self.healthvault(arguments)
                #expect(result.status != 0, "\(arguments)")
                let lines = result.err.split(separator: "\n")
                #expect(lines.count == 1, "\(arguments): \(result.err)")
                #expect(result.err.hasPrefix("healthvault: "), "\(arguments): \(result.err)")
            }
            // What keeps the verifier from verifying is no verdict on the log: exit 2, said on
            // standard error in one line like every error; nothing on standard output.
            let verify = try Self.healthvault(["audit", "verify", "/nonexistent/export", "--key", "/nonexistent/key"])
            #expect(verify.status == 2 && verify.out.isEmpty, "\(verify)")
            #expect(
                verify.err.split(separator: "\n").count == 1
                    && verify.err.hasPrefix("healthvault: there is no export at /nonexistent/export"),
                "\(verify)"
            )
        }

        @Test func passwdWithoutADaemonIsRecordedAsHealthvaultdRecordsIt() throws {
            let daemon = try TestDaemon(start: false)
            let newPassphrase = daemon.directory.deletingLastPathComponent().appendingPathComponent("new").path
            try TestDaemon.writePassphraseFile("another passphrase", to: newPassphrase)
            let changed = try Self.healthvault([
                "passwd", "--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile,
                "--new-passphrase-file", newPassphrase,
            ])
            #expect(changed.status == 0, "\(changed)")
            let vault = try Vault.open(at: daemon.directory, passphrase: SecureBytes(utf8: "another passphrase"))
            defer { vault.lock() }
            let operations = try vault.db().read { try vault.auditLog(in: $0).entries().map(\.operation.rawValue) }
            #expect(
                operations == ["vault.lock", "vault.unlock", "vault.passphrase-change", "vault.lock", "vault.unlock"],
                "\(operations)"
            )
        }

        @Test func aVaultWithoutItsCheckpointNoteIsServedOnlyAfterTheOwnersRecordedDecision() async throws {
            let daemon = try TestDaemon(start: false)
            let note = daemon.directory.appendingPathComponent("audit-checkpoint.note")
            try FileManager.default.removeItem(at: note)
            let (status, message) = try daemon.runAnotherDaemon()
            #expect(status != 0 && message.contains("accept-missing-checkpoint"), "\(message)")
            let vaultArguments = ["--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile]
            let accepted = try Self.healthvault(["audit", "accept-missing-checkpoint"] + vaultArguments)
            #expect(accepted.status == 0, "\(accepted)")
            #expect(FileManager.default.fileExists(atPath: note.path))
            #expect(
                try Self.healthvault(["audit", "accept-missing-checkpoint"] + vaultArguments).out.contains("nothing")
            )
            try daemon.start()
            let shown = try Self.healthvault(["audit", "show", "--json"] + vaultArguments)
            let operations = shown.out.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["operation"] as? String
            }
            #expect(
                operations == [
                    "vault.lock", "vault.open-without-checkpoint", "vault.unlock", "vault.lock", "vault.unlock",
                ],
                "\(shown.out)"
            )
            // An export into a directory that exists is refused, and recorded as what it was.
            let existing = daemon.directory.deletingLastPathComponent().appendingPathComponent("existing")
            try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
            #expect(try Self.healthvault(["audit", "export", existing.path] + vaultArguments).status != 0)
            let exports = try Self.healthvault(
                ["audit", "show", "--operation", "audit.export", "--json"] + vaultArguments
            )
            #expect(
                exports.out.contains(#""outcome":"error""#) && !exports.out.contains(#""outcome":"ok""#),
                "\(exports.out)"
            )
        }
    }
}

extension DaemonEndToEnd {
    /// A client written in Python from docs/PROTOCOL.md alone (standard library, libsodium through
    /// ctypes) drives the real daemon: the document is enough to write a client.
    @Suite struct NonSwiftClientTests {
        static var python: String? {
            ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        @Test(.enabled(if: python != nil, "needs python3 (make deps installs it)"))
        func thePythonClientPasses() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: try #require(Self.python))
            process.arguments = [
                root.appendingPathComponent("Tests/PythonClient/test_protocol.py").path, TestDaemon.binDirectory.path,
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text.suffix(3000))")
            #expect(text.contains("PASS"))
        }
    }
}
