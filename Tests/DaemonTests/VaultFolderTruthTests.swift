import Foundation
import Glibc
import Testing
import VaultCrypto
import VaultStore

extension DaemonEndToEnd {
    /// Issue 22, "Errors that tell the truth": a vault the user cannot read is a permission
    /// problem naming the path, never "not a vault; create one", "healthvaultd is not running" or
    /// "the key file is damaged"; a missing daemon is said only when it is missing; a folder that
    /// is not a vault is left as it was.
    @Suite struct VaultFolderTruthTests {
        /// Runs `program` (through `launcher`, as another user) with `arguments`, stdin closed.
        @discardableResult
        static func run(
            _ program: String,
            _ arguments: [String],
            launcher: [String] = []
        ) throws -> (status: Int32, out: String, err: String) {
            try runProcess(launcher + [program] + arguments)
        }

        /// Copies of the two binaries in a folder every user may enter (as root the build folder
        /// may be closed to `nobody`).
        static func reachableBinaries() throws -> URL {
            let folder = try #require(mkdtemp(strdup("/tmp/hvbin.XXXXXX")).map { String(cString: $0) })
            chmod(folder, 0o755)
            for name in ["healthvault", "healthvaultd"] {
                try FileManager.default.copyItem(atPath: TestDaemon.binary(name), toPath: folder + "/" + name)
            }
            return URL(fileURLWithPath: folder)
        }

        /// The messages that would send the owner to a wrong fix.
        static func misleads(_ text: String) -> Bool {
            ["not a vault", "create one", "is not running", "damaged", "missing"].contains { text.contains($0) }
        }

        @Test func aVaultThisUserCannotReadIsAPermissionProblemNamingThePath() async throws {
            let daemon = try TestDaemon(start: false)
            let vault = daemon.directory.path
            let root = daemon.directory.deletingLastPathComponent().path
            // As root, permissions do not bite: the vault is root's, and the commands run as
            // nobody, as another user's would. Otherwise the owner's own vault is shut (mode 000).
            let asRoot = getuid() == 0
            let binaries = try Self.reachableBinaries()
            defer { try? FileManager.default.removeItem(at: binaries) }
            let launcher = TestDaemon.asUnprivileged([])
            let healthvault = binaries.appendingPathComponent("healthvault").path
            let healthvaultd = binaries.appendingPathComponent("healthvaultd").path
            // The passphrase file where the other user can read it: only the vault is closed.
            let passphrase = binaries.appendingPathComponent("passphrase").path
            try TestDaemon.writePassphraseFile(TestDaemon.passphrase, to: passphrase)
            chmod(passphrase, 0o644)
            if asRoot {
                chmod(root, 0o755)
            } else {
                chmod(vault, 0o000)
            }
            defer { chmod(vault, 0o700) }

            let commands: [(String, [String])] = [
                (healthvault, ["status", "--vault", vault]),
                (healthvault, ["apps", "list", "--vault", vault, "--passphrase-file", passphrase]),
                (healthvault, ["passwd", "--vault", vault, "--passphrase-file", passphrase]),
                (healthvaultd, ["--vault", vault, "--passphrase-file", passphrase]),
            ]
            for (program, arguments) in commands {
                let result = try Self.run(program, arguments, launcher: launcher)
                #expect(result.status != 0, "\(arguments)")
                #expect(
                    result.err.contains("permission denied") && result.err.contains(vault),
                    "\(arguments): \(result.err)"
                )
                #expect(!Self.misleads(result.err), "\(arguments): \(result.err)")
                #expect(result.err.split(separator: "\n").count == 1, "\(arguments): \(result.err)")
            }
            // Nothing was written in it.
            chmod(vault, 0o700)
            #expect(!FileManager.default.fileExists(atPath: vault + "/healthvaultd.lock"))

            // The folder open, the key file shut: its path is named, not "damaged" nor "missing".
            let keyring = vault + "/keyring.json"
            if asRoot {
                chmod(vault, 0o755)
            } else {
                chmod(keyring, 0o000)
            }
            defer { chmod(keyring, 0o600) }
            for arguments in [["apps", "list"], ["passwd"], ["check"]] {
                let result = try Self.run(
                    healthvault,
                    arguments + ["--vault", vault, "--passphrase-file", passphrase],
                    launcher: launcher
                )
                // `check` cannot check what it may not read: 2, as its help says, not 1 (damaged).
                #expect(result.status == (arguments == ["check"] ? 2 : 1), "\(arguments)")
                #expect(
                    result.err.contains("permission denied") && result.err.contains(keyring),
                    "\(arguments): \(result.err)"
                )
                #expect(!Self.misleads(result.err), "\(arguments): \(result.err)")
            }
        }

        /// A daemon of another user refuses this one before any challenge: said as that, not as a
        /// wrong passphrase or a failed authentication. Needs root, to run the daemon as nobody.
        @Test(.enabled(if: getuid() == 0, "needs root to run healthvaultd as another user"))
        func aDaemonOfAnotherUserIsSaidToRefuseThisUser() async throws {
            let daemon = try TestDaemon(start: false)
            try daemon.startUnprivileged()
            // Root reads the vault's files, so the passphrase is checked and the owner key made.
            let refused = try CLITests.healthvault(["apps", "list"], daemon: daemon)
            #expect(refused.status == 1)
            #expect(
                refused.err == "healthvault: healthvaultd refused you (uid 0): it runs as uid 65534 and serves only "
                    + "that user and those its --allowed-uid names; run this as that user\n",
                "\(refused.err)"
            )
            #expect(daemon.stop() == 0)
        }

        @Test func healthvaultdTouchesNothingInAFolderThatIsNotAVault() throws {
            let root = try #require(mkdtemp(strdup("/tmp/hvd.XXXXXX")).map { String(cString: $0) })
            defer { try? FileManager.default.removeItem(atPath: root) }
            let empty = root + "/empty"
            let other = root + "/other"
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
            try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
            try Data("notes\n".utf8).write(to: URL(fileURLWithPath: other + "/notes.txt"))
            let passphrase = root + "/passphrase"
            try TestDaemon.writePassphraseFile("a passphrase nobody guesses", to: passphrase)

            let emptyRun = try Self.run(
                TestDaemon.binary("healthvaultd"),
                ["--vault", empty, "--passphrase-file", passphrase]
            )
            #expect(emptyRun.status != 0)
            #expect(emptyRun.err.contains("\(empty) is empty: no vault was created there"), "\(emptyRun.err)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty)
            let otherRun = try Self.run(
                TestDaemon.binary("healthvaultd"),
                ["--vault", other, "--passphrase-file", passphrase]
            )
            #expect(otherRun.status != 0)
            #expect(otherRun.err.contains("\(other) is not a vault"), "\(otherRun.err)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: other) == ["notes.txt"])
            let missing = try Self.run(
                TestDaemon.binary("healthvaultd"),
                ["--vault", root + "/nowhere", "--passphrase-file", passphrase]
            )
            #expect(missing.status != 0 && missing.err.contains("does not exist"), "\(missing.err)")
            #expect(!FileManager.default.fileExists(atPath: root + "/nowhere"))

            // So the owner's next step works: init takes the folder the daemon was pointed at.
            let created = try Self.run(
                TestDaemon.binary("healthvault"),
                ["init", "--vault", empty, "--passphrase-file", passphrase]
            )
            #expect(created.status == 0, "\(created.err)")
        }

        @Test func aMissingDaemonIsSaidOnlyWhenItIsMissing() async throws {
            let daemon = try TestDaemon()
            let arguments = ["--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile]
            let served = try CLITests.healthvault(["apps", "list"] + arguments)
            #expect(served.status == 0, "\(served.err)")
            // Killed, it leaves its socket: no daemon listens, and that is what is said.
            daemon.stop(signal: SIGKILL)
            #expect(FileManager.default.fileExists(atPath: daemon.socketPath))
            let killed = try CLITests.healthvault(["apps", "list"] + arguments)
            #expect(killed.status != 0)
            #expect(
                killed.err.contains("healthvaultd is not running for \(daemon.directory.path)")
                    && killed.err.contains("killed left its socket"),
                "\(killed.err)"
            )
            #expect(!killed.err.contains("connect("), "no system call's name: \(killed.err)")
            let status = try CLITests.healthvault(["status", "--vault", daemon.directory.path])
            #expect(status.status == 0 && status.out.contains("a vault, not served"), "\(status)")
            // Stopped cleanly, the socket is gone: not running, and nothing about a socket left.
            try daemon.start()
            daemon.stop()
            let stopped = try CLITests.healthvault(["apps", "list"] + arguments)
            #expect(
                stopped.err == "healthvault: healthvaultd is not running for \(daemon.directory.path); "
                    + "start it with `healthvaultd --vault \(daemon.directory.path)`\n",
                "\(stopped.err)"
            )
        }
    }
}
