import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// With healthvaultd stopped, the owner still reads their data and exports the audit log:
    /// the command opens the vault itself, with the same engine, rules and audit entries.
    @Suite struct DaemonStoppedTests {
        @Test func theOwnerReadsAndExportsTheLogWithTheDaemonStopped() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.phone", read: [], share: [steps])
            try await daemon.decide("grant", ["share"], [ObjectType(steps)], for: "org.example.phone")
            let phone = try await daemon.store("org.example.phone")
            try await phone.save(try quantity(.stepCount, 300, .count, at: RFC3339.date(from: "2026-03-02T08:00:00Z")!))
            await phone.close()
            let served = try await daemon.auditEntries().count
            daemon.stop()
            #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))

            let data = try CLITests.healthvault(["data"], daemon: daemon)
            #expect(data.status == 0, "\(data)")
            #expect(data.out.contains("stepCount") && data.out.contains("org.example.phone (1)"), "\(data.out)")
            // Nothing went wrong, so nothing is said on standard error (the vault served for the
            // command alone stops when it is done; its stop is no failure of its socket).
            #expect(data.err.isEmpty, "\(data.err)")

            let root = daemon.directory.deletingLastPathComponent().path
            let export = try CLITests.healthvault(["audit", "export", root + "/log"], daemon: daemon)
            #expect(export.status == 0, "\(export)")
            let verify = try CLITests.healthvault([
                "audit", "verify", root + "/log", "--key", daemon.directory.path + "/audit-key.pub",
            ])
            #expect(verify.status == 0, "\(verify)")

            // Changes stay with healthvaultd.
            let grant = try CLITests.healthvault(["grant", "org.example.phone", "stepCount", "--read"], daemon: daemon)
            #expect(grant.status != 0 && grant.err.contains("healthvaultd is not running"), "\(grant.err)")
            // No lock, socket or private folder is left, and the vault was locked cleanly.
            #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
            try daemon.start()
            #expect(!daemon.logText.contains("not locked cleanly"), "\(daemon.logText)")
            let entries = try await daemon.auditEntries()
            let offline = entries.dropFirst(served).map { "\($0.operation) \($0.actor)" }
            // The summary's own open, read and lock; then the export's.
            #expect(
                Array(offline.prefix(7)) == [
                    "vault.lock system", "vault.unlock owner", "query.summary owner", "vault.lock system",
                    "vault.unlock owner", "audit.export owner", "vault.lock system",
                ],
                "\(offline)"
            )
        }

        @Test func aFailureWithTheDaemonStoppedStillLocksTheVaultCleanly() async throws {
            let daemon = try TestDaemon()
            daemon.stop()
            let root = daemon.directory.deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: root + "/taken", withIntermediateDirectories: false)
            // Refused inside the engine, after the vault was opened.
            let refused = try CLITests.healthvault(["audit", "export", root + "/taken"], daemon: daemon)
            #expect(refused.status != 0, "\(refused)")
            // A wrong passphrase opens nothing and leaves no lock behind.
            try TestDaemon.writePassphraseFile("not it", to: root + "/wrong")
            let wrong = try CLITests.healthvault([
                "data", "--vault", daemon.directory.path, "--passphrase-file", root + "/wrong",
            ])
            #expect(wrong.status != 0 && wrong.err.contains("wrong passphrase"), "\(wrong.err)")
            #expect(try CLITests.healthvault(["data"], daemon: daemon).status == 0)
            try daemon.start()
            #expect(!daemon.logText.contains("not locked cleanly"), "\(daemon.logText)")
            let operations = try await daemon.auditEntries().map { "\($0.operation) \($0.outcome)" }
            #expect(operations.contains("audit.export error"), "\(operations)")
        }
    }
}
