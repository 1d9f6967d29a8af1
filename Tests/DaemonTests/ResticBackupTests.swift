import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import ProcessTestSupport
import Testing
import VaultProtocol

/// The path of `name` on `PATH`, or nil.
private func executable(_ name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

extension DaemonEndToEnd {
    /// `healthvault backup --restic` and `restore --restic` with the real restic, into a local
    /// repository and into one served over HTTP by `rclone serve restic`, both made by the test.
    /// `make deps` installs restic and rclone (scripts/install-deps.sh).
    @Suite struct ResticBackupTests {
        static let restic = executable("restic")
        static let rclone = executable("rclone")

        enum Repository: String, CaseIterable, CustomStringConvertible {
            case local
            case rcloneREST
            var description: String { rawValue }
        }

        /// A free TCP port on the loopback interface (bound and released).
        static func freePort() throws -> UInt16 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            guard bound else { throw DaemonTestError("no free port") }
            return UInt16(bigEndian: address.sin_port)
        }

        /// Whether something accepts connections on the loopback `port`.
        static func accepts(_ port: UInt16) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = port.bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }

        /// The bytes of the files under `path` (0 for nil).
        static func bytes(under path: String?) -> Int {
            guard let path else { return 0 }
            return (FileManager.default.subpaths(atPath: path) ?? []).reduce(0) {
                $0 + ((try? FileManager.default.attributesOfItem(atPath: path + "/" + $1)[.size] as? Int) ?? 0)
            }
        }

        static func run(
            _ program: String,
            _ arguments: [String],
            environment: [String: String]
        ) throws -> (Int32, String) {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let out = Pipe()
            process.standardOutput = out
            process.standardError = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }

        @Test(
            .enabled(if: restic != nil && rclone != nil, "needs restic and rclone: `make deps` installs them"),
            arguments: Repository.allCases
        )
        func snapshotsGoInIncrementallyAndComeBackServingTheSameAnswers(repository: Repository) async throws {
            let samples =
                ProcessInfo.processInfo.environment["HEALTHVAULT_RESTIC_TEST_SAMPLES"].flatMap(Int.init) ?? 30_000
            let daemon = try await BackupCommandTests.vaultWithSteps(samples)
            let root = daemon.directory.deletingLastPathComponent()
            let passwordFile = root.appendingPathComponent("restic-password")
            try Data("restic test password\n".utf8).write(to: passwordFile)
            var environment = [
                "RESTIC_PASSWORD_FILE": passwordFile.path,
                "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
                "RESTIC_CACHE_DIR": root.appendingPathComponent("restic-cache").path,
            ]
            var server: ChildProcess?
            defer {
                if let server, server.isRunning {
                    kill(server.processIdentifier, SIGKILL)
                    server.waitUntilExit()
                }
            }
            let repo: String
            switch repository {
            case .local:
                repo = root.appendingPathComponent("repo").path
            case .rcloneREST:
                let port = try Self.freePort()
                let process = ChildProcess()
                process.executableURL = URL(fileURLWithPath: try #require(Self.rclone))
                process.arguments = [
                    "serve", "restic", "--addr", "127.0.0.1:\(port)", root.appendingPathComponent("served").path,
                ]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                server = process
                let deadline = Date().addingTimeInterval(20)
                while !Self.accepts(port), Date() < deadline, process.isRunning { usleep(50_000) }
                #expect(Self.accepts(port), "rclone serve restic did not start")
                repo = "rest:http://127.0.0.1:\(port)/"
            }
            // restic's own settings: the repository from RESTIC_REPOSITORY, the password from its file.
            environment["RESTIC_REPOSITORY"] = repo
            let initialized = try Self.run(try #require(Self.restic), ["init"], environment: environment)
            #expect(initialized.0 == 0, "\(initialized.1)")

            let first = try BackupCommandTests.healthvault(
                ["backup", "--restic", "--json"],
                daemon: daemon,
                environment: environment
            )
            #expect(first.status == 0, "\(first)")
            let firstRepositoryBytes = Self.bytes(under: repository == .local ? repo : nil)
            // A day of new samples (one a minute), then a second snapshot, named by its repository.
            try await BackupCommandTests.save(1_440, from: 5_000_000, to: daemon)
            let second = try BackupCommandTests.healthvault(
                ["backup", "--restic", repo, "--json"],
                daemon: daemon,
                environment: environment
            )
            #expect(second.status == 0, "\(second)")
            struct Report: Decodable {
                var snapshot: String
                var bytes: Int
                var bytesAdded: Int
            }
            let firstReport = try JSONDecoder().decode(Report.self, from: Data(first.out.utf8))
            let secondReport = try JSONDecoder().decode(Report.self, from: Data(second.out.utf8))
            let repositoryBytes = Self.bytes(under: repository == .local ? repo : nil)
            print(
                "restic (\(repository)): repository \(firstRepositoryBytes) bytes on disk after the first snapshot, \(repositoryBytes) after both; \(samples) samples, backup \(firstReport.bytes) bytes; first snapshot added \(firstReport.bytesAdded), the second after 1,440 new samples \(secondReport.bytesAdded)"
            )
            // Incremental: the second snapshot stores far less than the whole backup again.
            #expect(secondReport.bytesAdded < secondReport.bytes / 2)
            // Nothing is left staged but the staging directory's lock.
            let staged = root.appendingPathComponent("cache/healthvault/restic")
            #expect(
                (try? FileManager.default.contentsOfDirectory(atPath: staged.path))?.allSatisfy {
                    $0.hasSuffix(".lock")
                }
                    == true
            )

            let expected = try await BackupCommandTests.answers(daemon)
            let restoredDirectory = root.appendingPathComponent("restored")
            let restore = try BackupCommandTests.healthvault(
                [
                    "restore", "--restic", "--vault", restoredDirectory.path, "--passphrase-file",
                    daemon.passphraseFile,
                ],
                environment: environment
            )
            #expect(restore.status == 0, "\(restore)")
            let restored = try await BackupCommandTests.serving(restoredDirectory)
            #expect(try await BackupCommandTests.answers(restored) == expected)
            restored.stop()
            // An earlier snapshot by its id: the state before the day's samples.
            let earlier = root.appendingPathComponent("earlier")
            let old = try BackupCommandTests.healthvault(
                [
                    "restore", "--restic", "--snapshot", String(firstReport.snapshot.prefix(8)), "--vault",
                    earlier.path, "--passphrase-file", daemon.passphraseFile,
                ],
                environment: environment
            )
            #expect(old.status == 0, "\(old)")
            let before = try await BackupCommandTests.serving(earlier)
            let summary = try await before.ownerCall(Method.samplesSummary, Empty(), as: SamplesSummaryResult.self)
            #expect(summary.types.first { $0.type == steps }?.count == samples)
        }
        @Test(.enabled(if: restic != nil, "needs restic: `make deps` installs it"))
        func aResticFailureIsRecordedAfterTheCopyAndRefusedBeforeIt() async throws {
            let daemon = try await BackupCommandTests.vaultWithSteps(100)
            let root = daemon.directory.deletingLastPathComponent()
            let passwordFile = root.appendingPathComponent("restic-password")
            try Data("restic test password\n".utf8).write(to: passwordFile)
            let wrongPassword = root.appendingPathComponent("wrong-password")
            try Data("not it\n".utf8).write(to: wrongPassword)
            // A restic whose backup fails once the repository is open (as a network cut midway would).
            let failing = root.appendingPathComponent("failing-restic")
            try Data(
                """
                #!/bin/sh
                for argument in "$@"; do
                  if [ "$argument" = backup ]; then echo "Fatal: the test's restic fails its backup" >&2; exit 1; fi
                done
                exec \(try #require(Self.restic)) "$@"

                """.utf8
            ).write(to: failing)
            chmod(failing.path, 0o700)
            let environment = [
                "RESTIC_PASSWORD_FILE": passwordFile.path,
                "RESTIC_REPOSITORY": root.appendingPathComponent("repo").path,
                "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
                "RESTIC_CACHE_DIR": root.appendingPathComponent("restic-cache").path,
            ]
            #expect(try Self.run(try #require(Self.restic), ["init"], environment: environment).0 == 0)
            func backups() async throws -> [String] {
                try await daemon.auditEntries(operation: "vault.backup").map(\.outcome)
            }
            let before = try await backups()

            // Found before the copy: nothing recorded.
            for (change, said) in [
                (["RESTIC_PASSWORD_FILE": wrongPassword.path], "wrong password"),
                (["RESTIC_REPOSITORY": root.appendingPathComponent("no-such-repo").path], "restic cat failed"),
                (["RESTIC_REPOSITORY": ""], "name the restic repository"),
            ] {
                let refused = try BackupCommandTests.healthvault(
                    ["backup", "--restic"],
                    daemon: daemon,
                    environment: environment.merging(change) { $1 }
                )
                #expect(refused.status == 1 && refused.err.contains(said), "\(refused)")
                #expect(!refused.err.contains("recorded as vault.backup"), "\(refused)")
            }
            #expect(try await backups() == before)

            // A second backup of the vault while one holds the staging directory: refused.
            let cache = root.appendingPathComponent("cache/healthvault/restic")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            let keyring = try JSONSerialization.jsonObject(
                with: Data(contentsOf: daemon.directory.appendingPathComponent("keyring.json"))
            )
            let vaultID = try #require((keyring as? [String: Any])?["vaultID"] as? String).lowercased()
            let held = open(cache.appendingPathComponent("healthvault-\(vaultID).lock").path, O_RDWR | O_CREAT, 0o600)
            #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
            let second = try BackupCommandTests.healthvault(
                ["backup", "--restic"],
                daemon: daemon,
                environment: environment
            )
            #expect(second.status == 1 && second.err.contains("is under way"), "\(second)")
            close(held)
            #expect(try await backups() == before)

            // Failing after the copy, through the daemon and with none: the copy's entry, then an error.
            let served = try BackupCommandTests.healthvault(
                ["backup", "--restic"],
                daemon: daemon,
                environment: environment.merging(["RESTIC": failing.path]) { $1 }
            )
            #expect(served.status == 1, "\(served)")
            #expect(served.err.contains("recorded as vault.backup, outcome error"), "\(served)")
            #expect(try await backups() == before + ["ok", "error"])
            daemon.stop()
            let offline = try BackupCommandTests.healthvault(
                ["backup", "--restic"],
                daemon: daemon,
                environment: environment.merging(["RESTIC": failing.path]) { $1 }
            )
            #expect(offline.status == 1 && offline.err.contains("outcome error"), "\(offline)")
            try daemon.start()
            #expect(try await backups() == before + ["ok", "error", "ok", "error"])
            // And a backup that succeeds is one entry.
            let good = try BackupCommandTests.healthvault(
                ["backup", "--restic"],
                daemon: daemon,
                environment: environment
            )
            #expect(good.status == 0, "\(good)")
            #expect(try await backups() == before + ["ok", "error", "ok", "error", "ok"])
            // Stopped while restic runs (SIGTERM to the command, as Ctrl-C is to its group): the
            // stop goes to restic, and the failure is on the record.
            let slow = root.appendingPathComponent("slow-restic")
            let started = root.appendingPathComponent("restic-started")
            try Data(
                """
                #!/bin/sh
                for argument in "$@"; do
                  if [ "$argument" = backup ]; then touch \(started.path); exec sleep 30; fi
                done
                exec \(try #require(Self.restic)) "$@"

                """.utf8
            ).write(to: slow)
            chmod(slow.path, 0o700)
            let stopped = ChildProcess()
            stopped.executableURL = URL(fileURLWithPath: TestDaemon.binary("healthvault"))
            stopped.arguments = [
                "backup", "--restic", "--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile,
            ]
            stopped.environment = ProcessInfo.processInfo.environment.merging(
                environment.merging(["RESTIC": slow.path]) { $1 }
            ) { $1 }
            let stoppedErr = Pipe()
            stopped.standardOutput = FileHandle.nullDevice
            stopped.standardError = stoppedErr
            try stopped.run()
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: started.path), Date() < deadline { usleep(20_000) }
            kill(stopped.processIdentifier, SIGTERM)
            let said = String(decoding: stoppedErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            stopped.waitUntilExit()
            #expect(stopped.terminationReason == .exit && stopped.terminationStatus == 1, "\(said)")
            #expect(said.contains("recorded as vault.backup, outcome error"), "\(said)")
            #expect(try await backups() == before + ["ok", "error", "ok", "error", "ok", "ok", "error"])
            // A restore killed midway left its scratch folder beside the target: the next one removes it.
            let abandoned = root.appendingPathComponent(".restored.restic-abandoned")
            try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: false)
            try Data("encrypted pages".utf8).write(to: abandoned.appendingPathComponent("page"))
            let restore = try runProcess(
                [
                    TestDaemon.binary("healthvault"), "restore", "--restic", "--vault",
                    root.appendingPathComponent("restored").path, "--passphrase-file", daemon.passphraseFile,
                ],
                environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }
            )
            #expect(restore.status == 0, "\(restore)")
            #expect(!FileManager.default.fileExists(atPath: abandoned.path))
            #expect(
                (try FileManager.default.contentsOfDirectory(atPath: root.path)).filter { $0.contains(".restic-") }
                    == []
            )
        }

        @Test(.enabled(if: restic != nil, "needs restic: `make deps` installs it"))
        func killingTheDaemonDuringAResticBackupLeavesTheLastSnapshotWhole() async throws {
            let daemon = try await BackupCommandTests.vaultWithSteps(5_000)
            let root = daemon.directory.deletingLastPathComponent()
            let passwordFile = root.appendingPathComponent("restic-password")
            try Data("restic test password\n".utf8).write(to: passwordFile)
            let environment = [
                "RESTIC_PASSWORD_FILE": passwordFile.path,
                "RESTIC_REPOSITORY": root.appendingPathComponent("repo").path,
                "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
                "RESTIC_CACHE_DIR": root.appendingPathComponent("restic-cache").path,
            ]
            let restic = try #require(Self.restic)
            #expect(try Self.run(restic, ["init"], environment: environment).0 == 0)
            let first = try BackupCommandTests.healthvault(
                ["backup", "--restic"],
                daemon: daemon,
                environment: environment
            )
            #expect(first.status == 0, "\(first)")

            // The next backup pauses in its copy; the daemon is killed there.
            daemon.stop()
            try daemon.start(environment: ["HEALTHVAULTD_TEST_BACKUP_STEP_PAUSE_MS": "3000"])
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: TestDaemon.binary("healthvault"))
            process.arguments = [
                "backup", "--restic", "--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile,
            ]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let cache = root.appendingPathComponent("cache/healthvault/restic")
            func partials() -> [String] {
                ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter {
                    $0.contains(".partial-")
                }
            }
            let deadline = Date().addingTimeInterval(20)
            while partials().isEmpty, Date() < deadline { usleep(20_000) }
            #expect(!partials().isEmpty)
            usleep(300_000)
            daemon.stop(signal: SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0)

            // The repository still holds the one snapshot, whole; the vault serves again, and the
            // next backup clears what the killed one left and stores a second snapshot.
            let snapshots = try Self.run(
                restic,
                ["snapshots", "--json", "--tag", "healthvault"],
                environment: environment
            )
            let listed = try JSONSerialization.jsonObject(with: Data(snapshots.1.utf8)) as? [Any]
            #expect(listed?.count == 1, "\(snapshots.1)")
            #expect(try Self.run(restic, ["check"], environment: environment).0 == 0)
            try daemon.start()
            let second = try BackupCommandTests.healthvault(
                ["backup", "--restic"],
                daemon: daemon,
                environment: environment
            )
            #expect(second.status == 0, "\(second)")
            // Nothing but the staging directory's lock is left.
            #expect(
                (try? FileManager.default.contentsOfDirectory(atPath: cache.path))?.allSatisfy { $0.hasSuffix(".lock") }
                    == true
            )
            let restored = root.appendingPathComponent("restored")
            let restore = try BackupCommandTests.healthvault(
                ["restore", "--restic", "--vault", restored.path, "--passphrase-file", daemon.passphraseFile],
                environment: environment
            )
            #expect(restore.status == 0, "\(restore)")
        }
    }
}
