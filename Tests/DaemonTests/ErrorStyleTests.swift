import Foundation
import Glibc
import Testing
import VaultCrypto
import VaultStore

extension DaemonEndToEnd {
    /// Issue 22, "Errors that tell the truth": one style (`healthvault: <what happened>; <what to
    /// do>`, README "Errors and exit codes"), no protocol codes, Swift decoder text or system call
    /// names, the option's own name, out-of-range numbers said as such, and the exit codes
    /// `--help` promises.
    @Suite struct ErrorStyleTests {
        /// What reads as a bug: a code as a prefix (`invalidArgument:`), a field name after it,
        /// the decoder's words, a system call.
        static func readsAsABug(_ text: String) -> Bool {
            text.range(
                of:
                    #"(invalidArgument|unknownError|noData|authorizationDenied|databaseInaccessible|dataSizeExceeded|healthDataUnavailable|truncated|malformed|unreadable): "#,
                options: .regularExpression
            ) != nil
                || ["Expected to decode", "errno", "connect(", "(descriptor:", "io: ", "Missing value"].contains {
                    text.contains($0)
                }
        }

        @Test func everyRefusalIsOneLineInWordsWithTheOptionsOwnNames() async throws {
            let daemon = try TestDaemon()
            let existing = daemon.directory.deletingLastPathComponent().path
            let cases: [([String], Int32, String)] = [
                (
                    ["goals", "--move", "-5"], 64,
                    "--move -5 is out of range: give more than 0 and at most 100,000 kcal"
                ),
                (["goals", "--stand", "25"], 64, "--stand 25 is out of range"),
                (["audit", "show", "--limit", "-3"], 64, "--limit -3 is out of range"),
                (["audit", "show", "--outcome", "maybe"], 64, "--outcome is ok, denied, denied-served-empty or error"),
                (["samples", "list", "stepCount", "--limit", "-1"], 1, "--limit must be 0 (all) or more, not -1"),
                (
                    ["samples", "list", "stepCount", "--from", "2026-11-02", "--to", "2026-11-01"], 1,
                    "--to 2026-11-01 is not after --from 2026-11-02"
                ),
                (
                    ["stats", "stepCount", "--from", "2026-11-02", "--to", "2026-11-02"], 1,
                    "--to 2026-11-02 is not after"
                ),
                (["audit", "show", "--from", "2026-11-02", "--to", "2026-11-01"], 1, "--to 2026-11-01 is not after"),
                (["apps", "show", "org.example.nobody"], 1, "no app org.example.nobody is enrolled"),
                (["apps", "remove", "org.example.nobody", "--yes"], 1, "no app org.example.nobody is enrolled"),
                (["grant", "org.example.nobody", "stepCount", "--read"], 1, "no app org.example.nobody is enrolled"),
                (
                    ["profile", "set", "biologicalSex", "\"maybe\""], 1,
                    "biologicalSex is female, male or other, not \"maybe\""
                ),
                (["timezone", "Mars/Base"], 1, "\"Mars/Base\" is not a time zone name"),
                (
                    ["audit", "export", existing], 1,
                    "\(existing) already exists; an export is written to a new directory"
                ),
                (["requests", "approve", "7"], 1, "there is no request 7"),
                (["passwd", "--new-passphrase-fd", "-1"], 1, "--new-passphrase-fd -1 is out of range"),
            ]
            for (arguments, status, expected) in cases {
                let result = try CLITests.healthvault(arguments, daemon: daemon)
                #expect(result.status == status, "\(arguments): \(result)")
                #expect(
                    result.err.hasPrefix("healthvault: ") && result.err.contains(expected),
                    "\(arguments): \(result.err)"
                )
                #expect(result.err.split(separator: "\n").count == 1, "\(arguments): \(result.err)")
                #expect(!Self.readsAsABug(result.err), "\(arguments): \(result.err)")
            }
            // The locked vault: said with what to do.
            #expect(try CLITests.healthvault(["lock"], daemon: daemon).status == 0)
            let locked = try CLITests.healthvault(["apps", "list"], daemon: daemon)
            #expect(locked.err == "healthvault: the vault is locked; its owner unlocks it with `healthvault unlock`\n")
        }

        @Test func auditVerifyExitsAsItsHelpSays() async throws {
            let daemon = try TestDaemon()
            let root = daemon.directory.deletingLastPathComponent()
            let export = root.appendingPathComponent("export").path
            #expect(try CLITests.healthvault(["audit", "export", export], daemon: daemon).status == 0)
            let key = daemon.directory.appendingPathComponent("audit-key.pub").path
            #expect(try CLITests.healthvault(["audit", "verify", export, "--key", key]).status == 0)

            // Another vault's key: not this vault's key, exit 2, never TAMPERED (1).
            let other = try Vault.create(
                at: root.appendingPathComponent("other"),
                passphrase: SecureBytes(utf8: "another vault's passphrase"),
                parameters: .minimumForTesting
            )
            other.lock()
            let otherKey = root.appendingPathComponent("other/audit-key.pub").path
            let wrong = try CLITests.healthvault(["audit", "verify", export, "--key", otherKey])
            #expect(wrong.status == 2, "\(wrong)")
            // Not a verdict on the log: said on standard error, as every error is.
            #expect(wrong.out.isEmpty, "\(wrong.out)")
            #expect(
                wrong.err.hasPrefix("healthvault: not this vault's key: ") && !wrong.err.contains("TAMPERED")
                    && wrong.err.split(separator: "\n").count == 1,
                "\(wrong.err)"
            )
            let json = try CLITests.healthvault(["audit", "verify", export, "--key", otherKey, "--json"])
            #expect(json.status == 2 && json.out.contains(#""verdict":"unreadable""#), "\(json.out)")
            // The independent verifier says the same.
            if let python = NonSwiftClientTests.python {
                let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("scripts/audit-verify.py").path
                let result = try VaultFolderTruthTests.run(python, [script, export, "--key", otherKey, "--json"])
                #expect(result.status == 2 && result.out.contains(#""verdict":"unreadable""#), "\(result)")
                #expect(result.out.contains("not this vault's key"), "\(result)")
            }

            // Whatever keeps it from verifying is 2: no --key, a key file missing, no export
            // named, a checkpoint that cannot be saved.
            let blocked = root.appendingPathComponent("plain").path
            try Data().write(to: URL(fileURLWithPath: blocked))
            let cases: [[String]] = [
                ["audit", "verify", export],
                ["audit", "verify", export, "--key", root.appendingPathComponent("missing.pub").path],
                ["audit", "verify"],
                ["audit", "verify", export, "--key", key, "--save-checkpoint", blocked + "/kept.note"],
            ]
            for arguments in cases {
                let result = try CLITests.healthvault(arguments)
                #expect(result.status == 2, "\(arguments): \(result)")
                #expect(!(result.out + result.err).contains("TAMPERED"), "\(arguments)")
            }
        }
    }
}
