import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import ProcessTestSupport
import Testing
import VaultClient
import VaultProtocol
import VaultStore

extension DaemonEndToEnd {
    /// `healthvault backup`, `restore` and `check`, the real binaries against a real daemon: a
    /// backup made while an app saves restores elsewhere and serves the same answers; a flipped
    /// byte is caught; a daemon killed mid-backup leaves the vault and the last good backup whole;
    /// an older backup over a newer vault is a rollback, refused unless insisted on.
    @Suite struct BackupCommandTests {
        static let app = "org.example.stepcounter"
        static let start = Date(timeIntervalSince1970: 1_790_000_000)

        /// Runs healthvault with `environment` added; its exit status, stdout and stderr.
        @discardableResult
        static func healthvault(
            _ arguments: [String],
            daemon: TestDaemon? = nil,
            environment: [String: String] = [:]
        ) throws -> (status: Int32, out: String, err: String) {
            var all = [TestDaemon.binary("healthvault")] + arguments
            if let daemon { all += ["--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile] }
            return try runProcess(all, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        }

        /// A daemon on a restored vault, once it accepts connections (its socket file can appear
        /// a moment before it listens, which a loaded machine makes visible).
        static func serving(_ directory: URL) async throws -> TestDaemon {
            let daemon = try TestDaemon(existing: directory)
            let deadline = Date().addingTimeInterval(10)
            while true {
                do {
                    let connection = try await daemon.owner()
                    await connection.closeAndWait()
                    return daemon
                } catch {
                    guard Date() < deadline else { throw error }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        }

        /// A vault with an app that may read and share steps, and `count` steps saved.
        static func vaultWithSteps(_ count: Int, environment: [String: String] = [:]) async throws -> TestDaemon {
            let daemon = try TestDaemon(start: false)
            try daemon.start(environment: environment)
            try await daemon.enroll(app, read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: app)
            try await save(count, from: 0, to: daemon)
            return daemon
        }

        static func save(_ count: Int, from first: Int, to daemon: TestDaemon) async throws {
            let store = try await daemon.store(app)
            var index = first
            while index < first + count {
                let batch = try (index..<min(index + 10_000, first + count)).map {
                    try quantity(.stepCount, Double($0 % 97), .count, at: start.addingTimeInterval(Double($0) * 60))
                }
                try await store.save(batch)
                index += batch.count
            }
            await store.close()
        }

        /// What the app is answered: the newest samples, the sum of all, the sources.
        static func answers(_ daemon: TestDaemon) async throws -> String {
            let store = try await daemon.store(app)
            defer { Task { await store.close() } }
            // The newest 50,000 (a query answers at most 100,000), newest first; no two start alike.
            let samples = try await store.samples(
                matching: SampleQueryDescriptor(
                    predicates: [SampleTypePredicate(steps)],
                    sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)],
                    limit: 50_000
                )
            )
            let sum = try await StatisticsQueryDescriptor(quantityType: .stepCount, options: [.cumulativeSum])
                .result(for: store)?.sumQuantity()
            let sources = try await store.sources(matching: SourceQueryDescriptor(sampleType: steps))
            return
                "\(samples.count) samples, sum \(String(describing: sum)), sources \(sources.map(\.bundleIdentifier).sorted()): "
                + String(decoding: try HealthJSON.encode(samples), as: UTF8.self)
        }

        @Test func aBackupWhileAnAppSavesRestoresElsewhereAndServesTheSameAnswers() async throws {
            let daemon = try await Self.vaultWithSteps(20_000)
            let root = daemon.directory.deletingLastPathComponent()
            // The app keeps saving while the first backup runs.
            let writer = Task {
                var first = 1_000_000
                while !Task.isCancelled {
                    try? await Self.save(100, from: first, to: daemon)
                    first += 100
                }
            }
            let during = try Self.healthvault(["backup", root.appendingPathComponent("during").path], daemon: daemon)
            writer.cancel()
            _ = await writer.value
            #expect(during.status == 0, "\(during)")
            #expect(during.out.contains("still encrypted"), "\(during.out)")
            let checked = try Self.healthvault(["check", root.appendingPathComponent("during").path], daemon: daemon)
            #expect(checked.status == 0 && checked.out.contains("Whole"), "\(checked)")

            let backup = root.appendingPathComponent("quiet")
            let quiet = try Self.healthvault(["backup", backup.path, "--json"], daemon: daemon)
            #expect(quiet.status == 0, "\(quiet)")
            let result = try HealthJSON.decode(BackupResult.self, from: Data(quiet.out.utf8))
            #expect(Set(result.files.keys) == ["vault.db", "keyring.json", "audit-key.pub", "audit-checkpoint.note"])
            // The backup is recorded, by the owner, before its checkpoint.
            let recorded = try await daemon.auditEntries(operation: "vault.backup")
            #expect(recorded.count == 2 && recorded.allSatisfy { $0.actor == "owner" && $0.outcome == "ok" })
            #expect(recorded.last?.index == result.checkpointSize - 1)
            // Never a plaintext byte: no file of the backup holds the app's id or a type's name,
            // which the vault stores in its tables.
            for name in try FileManager.default.contentsOfDirectory(atPath: backup.path) {
                let bytes = try Data(contentsOf: backup.appendingPathComponent(name))
                for text in [Self.app, "HKQuantityTypeIdentifierStepCount"] {
                    #expect(bytes.range(of: Data(text.utf8)) == nil, "\(name) holds \(text) in the clear")
                }
            }
            let expected = try await Self.answers(daemon)

            // Restored on another path: it opens with the same passphrase and answers alike.
            let restoredDirectory = root.appendingPathComponent("restored")
            let restore = try Self.healthvault([
                "restore", backup.path, "--vault", restoredDirectory.path, "--passphrase-file", daemon.passphraseFile,
            ])
            #expect(restore.status == 0, "\(restore)")
            let restored = try await Self.serving(restoredDirectory)
            #expect(try await Self.answers(restored) == expected)
            let restoredLog = try await restored.auditEntries()
            #expect(restoredLog.contains { $0.operation == "vault.restore" && $0.actor == "owner" })
            // The backup made during the saves is one consistent state: whole batches only.
            let duringRestored = root.appendingPathComponent("during-restored")
            #expect(
                try Self.healthvault([
                    "restore", root.appendingPathComponent("during").path, "--vault", duringRestored.path,
                    "--passphrase-file", daemon.passphraseFile,
                ]).status == 0
            )
            let other = try await Self.serving(duringRestored)
            let store = try await other.store(Self.app)
            let count = try await store.samples(
                matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)])
            )
            .count
            await store.close()
            #expect(count >= 20_000 && count % 100 == 0)
        }

        @Test func aFlippedByteInABackupIsCaughtByRestoreAndNamedByCheck() async throws {
            let daemon = try await Self.vaultWithSteps(5_000)
            let root = daemon.directory.deletingLastPathComponent()
            let backup = root.appendingPathComponent("b")
            #expect(try Self.healthvault(["backup", backup.path], daemon: daemon).status == 0)
            let database = backup.appendingPathComponent("vault.db")
            var bytes = try Data(contentsOf: database)
            bytes[bytes.count / 2 + 100] ^= 0x20
            try bytes.write(to: database)

            let target = root.appendingPathComponent("restored")
            let restore = try Self.healthvault([
                "restore", backup.path, "--vault", target.path, "--passphrase-file", daemon.passphraseFile,
            ])
            #expect(restore.status != 0)
            #expect(
                restore.err.contains("is damaged; nothing was restored") && restore.err.contains("vault.db"),
                "\(restore)"
            )
            #expect(!FileManager.default.fileExists(atPath: target.path))

            let check = try Self.healthvault(["check", backup.path], daemon: daemon)
            #expect(check.status == 1, "\(check)")
            #expect(
                check.out.contains("PROBLEM  vault.db") && check.out.contains("cipher_integrity_check"),
                "\(check.out)"
            )
            #expect(
                check.out.contains("1 problem") == false && check.out.contains("problems found: vault.db."),
                "\(check.out)"
            )
            let json = try Self.healthvault(["check", backup.path, "--json"], daemon: daemon)
            let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
            let findings = object?["findings"] as? [[String: String]] ?? []
            #expect(json.status == 1 && object?["whole"] as? Bool == false && object?["backup"] as? Bool == true)
            #expect(findings.contains { $0["status"] == "problem" && $0["subject"] == "vault.db" }, "\(json.out)")

            // A damaged copy of the vault itself (the daemon stopped): the page is named.
            daemon.stop()
            let copy = root.appendingPathComponent("copy")
            try FileManager.default.copyItem(at: daemon.directory, to: copy)
            let live = copy.appendingPathComponent("vault.db")
            var liveBytes = try Data(contentsOf: live)
            liveBytes[4096 * 3 + 500] ^= 0x01
            try liveBytes.write(to: live)
            let damaged = try Self.healthvault(["check", copy.path], daemon: daemon)
            #expect(damaged.status == 1, "\(damaged)")
            #expect(damaged.out.contains("PROBLEM  vault.db") && damaged.out.contains("page 4"), "\(damaged.out)")
            // Said in the report's lines alone: nothing of SQLCipher's own log on standard error,
            // and no finding spread over several lines or naming a SQLite code.
            #expect(damaged.err.isEmpty, "\(damaged.err)")
            #expect(!damaged.out.contains("*** in database") && !damaged.out.contains("SQLITE code"), "\(damaged.out)")
            // A key file altered: named as such; a wrong passphrase: exit 2.
            let keyring = copy.appendingPathComponent("keyring.json")
            try FileManager.default.removeItem(at: live)
            try FileManager.default.copyItem(at: daemon.directory.appendingPathComponent("vault.db"), to: live)
            var keyText = try String(contentsOf: keyring, encoding: .utf8)
            keyText = keyText.replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : 2")
            try keyText.write(to: keyring, atomically: true, encoding: .utf8)
            let key = try Self.healthvault(["check", copy.path], daemon: daemon)
            #expect(key.status == 1 && key.out.contains("PROBLEM  keyring.json"), "\(key)")
            let wrong = root.appendingPathComponent("wrong")
            try TestDaemon.writePassphraseFile("not the passphrase", to: wrong.path)
            let refused = try Self.healthvault(["check", daemon.directory.path, "--passphrase-file", wrong.path])
            #expect(refused.status == 2 && refused.err.contains("wrong passphrase"), "\(refused)")
            #expect(refused.err.contains("the one the vault was created with"), "\(refused)")
            // A backup's is the vault's passphrase when it was made, and the message says that one.
            let refusedBackup = try Self.healthvault(["check", backup.path, "--passphrase-file", wrong.path])
            #expect(refusedBackup.status == 2, "\(refusedBackup)")
            #expect(refusedBackup.err.contains("the one the vault had when the backup was made"), "\(refusedBackup)")
        }

        @Test func killingTheDaemonDuringABackupLeavesTheVaultAndTheLastGoodBackupWhole() async throws {
            let daemon = try await Self.vaultWithSteps(
                20_000,
                environment: ["HEALTHVAULTD_TEST_BACKUP_STEP_PAUSE_MS": "3000"]
            )
            let root = daemon.directory.deletingLastPathComponent()
            let good = root.appendingPathComponent("good")
            #expect(try Self.healthvault(["backup", good.path], daemon: daemon).status == 0)
            try await Self.save(1_000, from: 50_000, to: daemon)

            let next = root.appendingPathComponent("next")
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: TestDaemon.binary("healthvault"))
            process.arguments = [
                "backup", next.path, "--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Under way: its partial directory is there, its copy paused after a step.
            let deadline = Date().addingTimeInterval(20)
            func partials() -> [String] {
                ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter {
                    $0.hasPrefix(".next.partial-")
                }
            }
            while partials().isEmpty, Date() < deadline { usleep(20_000) }
            #expect(!partials().isEmpty)
            usleep(300_000)
            daemon.stop(signal: SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0)
            #expect(!FileManager.default.fileExists(atPath: next.path))

            // The last good backup is whole, and so is the vault, which serves again.
            let checkGood = try Self.healthvault(["check", good.path], daemon: daemon)
            #expect(checkGood.status == 0, "\(checkGood)")
            let checkVault = try Self.healthvault(["check"], daemon: daemon)
            #expect(checkVault.status == 0, "\(checkVault)")
            try daemon.start()
            let store = try await daemon.store(Self.app)
            let count = try await store.samples(
                matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)])
            )
            .count
            await store.close()
            #expect(count == 21_000)
            // The next backup to the same place removes what the killed one left, and succeeds.
            let again = try Self.healthvault(["backup", next.path], daemon: daemon)
            #expect(again.status == 0, "\(again)")
            #expect(partials().isEmpty)
        }

        @Test func aBackupInsideTheVaultsFolderIsRefusedAndARestoreKeepsWhatElseTheFolderHolds() async throws {
            let daemon = try await Self.vaultWithSteps(100)
            let root = daemon.directory.deletingLastPathComponent()
            let inside = try Self.healthvault(
                ["backup", daemon.directory.appendingPathComponent("inside").path],
                daemon: daemon
            )
            #expect(inside.status == 1 && inside.err.contains("inside the vault's own folder"), "\(inside)")
            #expect(!FileManager.default.fileExists(atPath: daemon.directory.appendingPathComponent("inside").path))
            // Nor through a link to the vault's folder.
            let link = root.appendingPathComponent("link-to-vault")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: daemon.directory)
            let throughLink = try Self.healthvault(["backup", link.appendingPathComponent("bk").path], daemon: daemon)
            #expect(
                throughLink.status == 1 && throughLink.err.contains("inside the vault's own folder"),
                "\(throughLink)"
            )
            let backup = root.appendingPathComponent("b")
            #expect(try Self.healthvault(["backup", backup.path], daemon: daemon).status == 0)
            daemon.stop()
            // The owner keeps a note, and a copy of the backup, in the vault's folder.
            let note = daemon.directory.appendingPathComponent("notes.txt")
            try Data("mine\n".utf8).write(to: note)
            let copy = daemon.directory.appendingPathComponent("copy-of-b")
            try FileManager.default.copyItem(at: backup, to: copy)
            let dry = try Self.healthvault(["restore", copy.path, "--dry-run"], daemon: daemon)
            #expect(dry.status == 0 && dry.out.contains("moved into the restored one: copy-of-b, notes.txt"), "\(dry)")
            // A restore killed midway left its staging folder beside the vault.
            let abandoned = root.appendingPathComponent(".\(daemon.directory.lastPathComponent).restoring-abandoned")
            try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: false)
            // Through the link: the folder it names is restored, and the link stays a link.
            let restored = try runProcess(
                [
                    TestDaemon.binary("healthvault"), "restore", copy.path, "--yes", "--vault", link.path,
                    "--passphrase-file", daemon.passphraseFile,
                ]
            )
            #expect(restored.status == 0, "\(restored)")
            #expect(restored.out.contains("copy-of-b, notes.txt"), "\(restored)")
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != nil)
            #expect(try String(contentsOf: note, encoding: .utf8) == "mine\n")
            #expect(try Self.healthvault(["check", copy.path], daemon: daemon).status == 0)
            #expect(!FileManager.default.fileExists(atPath: abandoned.path))
            // A backup restored into its own folder: refused, the backup as it was.
            let intoItself = try runProcess(
                [
                    TestDaemon.binary("healthvault"), "restore", backup.path, "--yes", "--vault", backup.path,
                    "--passphrase-file", daemon.passphraseFile,
                ]
            )
            #expect(
                intoItself.status == 1 && intoItself.err.contains("is the folder the restore would write"),
                "\(intoItself)"
            )
            #expect(try Self.healthvault(["check", backup.path], daemon: daemon).status == 0)
        }

        @Test func checkingAKilledDaemonsDamagedLogLeavesItsEvidenceForTheNextCheck() async throws {
            let daemon = try await Self.vaultWithSteps(50)
            try await Self.save(30, from: 5_000, to: daemon)
            daemon.stop(signal: SIGKILL)
            let log = daemon.directory.appendingPathComponent("vault.db-wal")
            let index = daemon.directory.appendingPathComponent("vault.db-shm")
            var frames = try Data(contentsOf: log)
            let frameCount = (frames.count - 32) / (24 + 4096)
            #expect(frameCount > 2)
            // One byte of the last frame's page: that frame, the last commit's, no longer verifies.
            frames[32 + (frameCount - 1) * (24 + 4096) + 24 + 100] ^= 0x01
            try frames.write(to: log)
            let indexBefore = try Data(contentsOf: index)
            for round in 1...2 {
                let checked = try Self.healthvault(["check"], daemon: daemon)
                #expect(checked.status == 1 && checked.out.contains("vault.db-wal"), "round \(round): \(checked)")
                #expect(try Data(contentsOf: index) == indexBefore, "round \(round): the check rewrote the wal-index")
            }
            let restore = try runProcess(
                [
                    TestDaemon.binary("healthvault"), "restore", daemon.directory.path, "--vault",
                    daemon.directory.deletingLastPathComponent().appendingPathComponent("from-damaged").path,
                    "--passphrase-file", daemon.passphraseFile,
                ]
            )
            #expect(restore.status == 1 && restore.err.contains("is damaged"), "\(restore)")
            #expect(try Data(contentsOf: index) == indexBefore)
        }

        @Test func aVaultsOwnFolderIsRestoredWithItsLogAndNeverWhileServed() async throws {
            let daemon = try await Self.vaultWithSteps(300)
            let root = daemon.directory.deletingLastPathComponent()
            let passphrase = ["--passphrase-file", daemon.passphraseFile]
            let healthvault = TestDaemon.binary("healthvault")
            // Served: what it saved lately may be in its write-ahead log only.
            let served = try runProcess(
                [healthvault, "restore", daemon.directory.path, "--vault", root.appendingPathComponent("r1").path]
                    + passphrase
            )
            #expect(served.status == 1 && served.err.contains("is a vault healthvaultd is serving"), "\(served)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("r1").path))
            // A daemon killed with saves in its log: the restore from its folder keeps them.
            try await Self.save(200, from: 10_000, to: daemon)
            daemon.stop(signal: SIGKILL)
            let log = daemon.directory.appendingPathComponent("vault.db-wal")
            #expect(((try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0) > 0)
            let restored = root.appendingPathComponent("r2")
            let fromFolder = try runProcess(
                [healthvault, "restore", daemon.directory.path, "--vault", restored.path] + passphrase
            )
            #expect(fromFolder.status == 0, "\(fromFolder)")
            let again = try await Self.serving(restored)
            let store = try await again.store(Self.app)
            let count = try await store.samples(
                matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)])
            )
            .count
            await store.close()
            again.stop()
            #expect(count == 500)
        }

        @Test func anOlderBackupOverTheVaultIsARollbackRefusedUnlessInsistedOnAndThenRecorded() async throws {
            let daemon = try await Self.vaultWithSteps(1_000)
            let root = daemon.directory.deletingLastPathComponent()
            let backup = root.appendingPathComponent("b")
            #expect(try Self.healthvault(["backup", backup.path], daemon: daemon).status == 0)
            try await Self.save(500, from: 10_000, to: daemon)
            // Not over a served vault.
            let served = try Self.healthvault(["restore", backup.path, "--yes"], daemon: daemon)
            #expect(served.status != 0 && served.err.contains("healthvaultd is serving"), "\(served)")
            daemon.stop()
            // With no daemon, the command backs the vault up itself.
            let offline = try Self.healthvault(["backup", root.appendingPathComponent("offline").path], daemon: daemon)
            #expect(offline.status == 0, "\(offline)")
            #expect(
                try Self.healthvault(["check", root.appendingPathComponent("offline").path], daemon: daemon).status == 0
            )
            let refused = try Self.healthvault(["restore", backup.path, "--yes"], daemon: daemon)
            #expect(refused.status != 0 && refused.err.contains("would roll the vault back"), "\(refused)")
            #expect(refused.err.contains("which changed it since (") && refused.err.contains(" save"), "\(refused)")
            // A dry run describes the rollback (exit 0) rather than refusing it.
            let dry = try Self.healthvault(["restore", backup.path, "--dry-run"], daemon: daemon)
            #expect(dry.status == 0 && dry.out.contains("It rolls the vault back"), "\(dry)")
            #expect(dry.out.contains("a restore needs --allow-rollback"), "\(dry)")
            // Insisting, in a script, still needs --yes to replace the vault.
            let unconfirmed = try Self.healthvault(["restore", backup.path, "--allow-rollback"], daemon: daemon)
            #expect(unconfirmed.status != 0 && unconfirmed.err.contains("--yes"), "\(unconfirmed)")
            let insisted = try Self.healthvault(["restore", backup.path, "--allow-rollback", "--yes"], daemon: daemon)
            #expect(insisted.status == 0 && insisted.out.contains("vault.restore-older"), "\(insisted)")
            try daemon.start()
            let log = try await daemon.auditEntries()
            let rollback = try #require(log.first { $0.operation == "vault.restore-older" })
            #expect(rollback.actor == "owner" && rollback.count > 0)
            let store = try await daemon.store(Self.app)
            let count = try await store.samples(
                matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)])
            )
            .count
            await store.close()
            #expect(count == 1_000)
        }
    }
}
