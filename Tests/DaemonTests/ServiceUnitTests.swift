import Foundation
import Glibc
import ProcessTestSupport
import Testing
import VaultCrypto
import VaultProtocol
import VaultStore

/// The systemd user unit `make install-service` writes (contrib/systemd): where it goes, that
/// systemd accepts it, and that its ExecStart, run as written, serves the vault.
@Suite struct ServiceUnitTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `command`; its status, stdout and stderr.
    static func run(_ command: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }

    /// Installs the unit into a fake home; returns the home and the unit's text.
    static func install(healthVaultDir: String = "") throws -> (home: String, unit: String) {
        let home = try #require(mkdtemp(strdup("/tmp/hvunit.XXXXXX")).map { String(cString: $0) })
        try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
        symlink(TestDaemon.binary("healthvaultd"), home + "/bin/healthvaultd")
        let (status, out, err) = try run(
            [
                "/usr/bin/make", "-s", "-C", repository.path, "install-service", "HOME=\(home)",
                "XDG_CONFIG_HOME=\(home)/config", "XDG_DATA_HOME=\(home)/data", "BINDIR=\(home)/bin",
            ],
            environment: ["HEALTHVAULT_DIR": healthVaultDir]
        )
        #expect(status == 0, "\(out)\(err)")
        #expect(out.contains("systemctl --user daemon-reload && systemctl --user enable --now healthvaultd"))
        let path = home + "/config/systemd/user/healthvaultd.service"
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int
        #expect(mode == 0o644)
        return (home, try String(contentsOfFile: path, encoding: .utf8))
    }

    /// The value of `key` in the unit (comments and other sections' keys aside).
    static func value(_ key: String, in unit: String) -> String? {
        unit.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    @Test func theInstalledUnitIsValidAndItsExecStartServesTheVault() async throws {
        let (home, unit) = try Self.install()
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(!unit.contains("@"), "every placeholder filled: \(unit)")
        for section in ["[Unit]", "[Service]", "[Install]"] { #expect(unit.contains(section + "\n")) }
        #expect(Self.value("WantedBy", in: unit) == "default.target")
        #expect(Self.value("UMask", in: unit) == "0077")
        let exec = try #require(Self.value("ExecStart", in: unit)).split(separator: " ").map(String.init)
        let vault = home + "/data/healthvault"
        let passphraseFile = home + "/config/healthvault/passphrase"
        #expect(exec == [home + "/bin/healthvaultd", "--vault", vault, "--passphrase-file", passphraseFile])

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
            let (status, out, err) = try Self.run([
                "/usr/bin/systemd-analyze", "verify", home + "/config/systemd/user/healthvaultd.service",
            ])
            #expect(status == 0 && err.isEmpty, "systemd-analyze verify: \(out)\(err)")
        }

        // Run as systemd would: the command line as written, on a vault at the XDG default.
        let created = try Vault.create(
            at: URL(fileURLWithPath: vault),
            passphrase: SecureBytes(utf8: TestDaemon.passphrase),
            parameters: .minimumForTesting
        )
        created.lock()
        try FileManager.default.createDirectory(atPath: home + "/config/healthvault", withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: passphraseFile,
                contents: Data((TestDaemon.passphrase + "\n").utf8),
                attributes: [.posixPermissions: 0o600]
            )
        )
        let daemon = ChildProcess()
        daemon.executableURL = URL(fileURLWithPath: exec[0])
        daemon.arguments = Array(exec.dropFirst())
        daemon.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try daemon.run()
        let socket = vault + "/" + WireProtocol.socketFileName
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, daemon.isRunning, !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: socket), "the unit's command serves the vault")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0, "SIGTERM (the unit's KillSignal) stops it cleanly")
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test func theUnitFollowsHealthVaultDirWhenSet() throws {
        let (home, unit) = try Self.install(healthVaultDir: "/srv/vault")
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(Self.value("ExecStart", in: unit)?.contains("--vault /srv/vault --passphrase-file") == true)
        #expect(Self.value("ConditionPathExists", in: unit) == "/srv/vault/keyring.json")
    }

    @Test func aPathWithASpaceIsRefusedNotWrittenHalf() throws {
        let home = try #require(mkdtemp(strdup("/tmp/hvunit.XXXXXX")).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: home) }
        let (status, _, err) = try Self.run(
            [
                "/usr/bin/make", "-s", "-C", Self.repository.path, "install-service", "HOME=\(home)",
                "XDG_CONFIG_HOME=\(home)/config",
            ],
            environment: ["HEALTHVAULT_DIR": "/srv/my vault"]
        )
        #expect(status != 0 && err.contains("a path with a space"), "\(err)")
        #expect(!FileManager.default.fileExists(atPath: home + "/config/systemd/user/healthvaultd.service"))
    }
}
