import Foundation
import Glibc
import HealthVaultKit
import Testing

/// Where the tools find the vault (--vault > $HEALTHVAULT_DIR > the config file > $XDG_DATA_HOME >
/// $HOME), and the config file's checks, through the real binaries with a made-up home.
@Suite struct ConfigurationTests {
    /// A fresh home with nothing in it.
    struct Home {
        let root: String

        init() throws {
            root = try #require(mkdtemp(strdup("/tmp/hvconf.XXXXXX")).map { String(cString: $0) })
            try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)
        }

        var home: String { root + "/home" }

        func writeConfig(_ text: String, at folder: String? = nil) throws {
            let folder = (folder ?? home + "/.config") + "/healthvault"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try text.write(toFile: folder + "/config", atomically: true, encoding: .utf8)
        }

        /// Runs `binary` with only these variables besides PATH (no $HEALTHVAULT_DIR or XDG
        /// variables from the tests' own environment).
        @discardableResult
        func run(
            _ arguments: [String],
            binary: String = "healthvault",
            environment: [String: String] = [:]
        ) throws -> (status: Int32, out: String, err: String) {
            try runProcess(
                [TestDaemon.binary(binary)] + arguments,
                environment: ["PATH": "/usr/bin:/bin", "HOME": home].merging(environment) { $1 }
            )
        }

        /// The folder `status` looked for (it names it when there is no vault there).
        func folderLookedAt(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> String {
            let result = try run(["status"] + arguments, environment: environment)
            #expect(result.status != 0)
            let prefix = "there is no vault at "
            guard let range = result.err.range(of: prefix) else { return result.err }
            return String(result.err[range.upperBound...].prefix { $0 != ":" })
        }
    }

    @Test func theDefaultVaultFollowsXDGDataHomeThenHome() throws {
        let home = try Home()
        defer { try? FileManager.default.removeItem(atPath: home.root) }
        #expect(try home.folderLookedAt() == home.home + "/.local/share/healthvault")
        #expect(
            try home.folderLookedAt(environment: ["XDG_DATA_HOME": home.root + "/data"])
                == home.root + "/data/healthvault"
        )
        // A relative XDG_DATA_HOME is ignored, as the XDG specification says.
        #expect(
            try home.folderLookedAt(environment: ["XDG_DATA_HOME": "data"]) == home.home + "/.local/share/healthvault"
        )
        // A new vault goes there too.
        try TestDaemon.writePassphraseFile("correct horse battery staple 42", to: home.root + "/pass")
        let created = try home.run(
            ["init", "--passphrase-file", home.root + "/pass"],
            environment: ["XDG_DATA_HOME": home.root + "/data"]
        )
        #expect(created.status == 0, "\(created)")
        #expect(FileManager.default.fileExists(atPath: home.root + "/data/healthvault/keyring.json"))
    }

    @Test func flagThenEnvironmentThenConfigThenDefault() throws {
        let home = try Home()
        defer { try? FileManager.default.removeItem(atPath: home.root) }
        try home.writeConfig("# my vault\nvault = ~/vaults/health\n\nsession = 1h\n")
        #expect(try home.folderLookedAt() == home.home + "/vaults/health")
        let environment = ["HEALTHVAULT_DIR": home.root + "/from-env"]
        #expect(try home.folderLookedAt(environment: environment) == home.root + "/from-env")
        #expect(
            try home.folderLookedAt(["--vault", home.root + "/from-flag"], environment: environment) == home.root
                + "/from-flag"
        )
        // The config file follows $XDG_CONFIG_HOME when it is set.
        try home.writeConfig("vault = \(home.root)/xdg-config-vault\n", at: home.root + "/xdg")
        #expect(
            try home.folderLookedAt(environment: ["XDG_CONFIG_HOME": home.root + "/xdg"]) == home.root
                + "/xdg-config-vault"
        )
        // healthvaultd finds the vault the same way.
        let daemon = try home.run(["--passphrase-file", "/dev/null"], binary: "healthvaultd")
        #expect(daemon.status != 0 && daemon.err.contains(home.home + "/vaults/health"), "\(daemon.err)")
    }

    /// Apps (HealthVaultKit) look for the vault where the owner's tools put it.
    @Test func appsFindTheVaultWhereTheToolsDo() throws {
        let home = try Home()
        defer { try? FileManager.default.removeItem(atPath: home.root) }
        let environment = ["HOME": home.home]
        #expect(HealthStore.defaultVaultDirectory(environment: environment) == home.home + "/.local/share/healthvault")
        #expect(
            HealthStore.defaultVaultDirectory(
                environment: environment.merging(["XDG_DATA_HOME": home.root + "/d"]) { $1 }
            )
                == home.root + "/d/healthvault"
        )
        try home.writeConfig("vault = ~/vaults/health\n")
        #expect(HealthStore.defaultVaultDirectory(environment: environment) == home.home + "/vaults/health")
        #expect(try home.folderLookedAt() == home.home + "/vaults/health")
        #expect(
            HealthStore.defaultVaultDirectory(
                environment: environment.merging(["HEALTHVAULT_DIR": "/elsewhere"]) { $1 }
            )
                == "/elsewhere"
        )
    }

    @Test func aConfigFileMistakeIsSaidWithTheFileAndLine() throws {
        let home = try Home()
        defer { try? FileManager.default.removeItem(atPath: home.root) }
        let file = home.home + "/.config/healthvault/config"
        let cases = [
            (
                "vault = /tmp/a\n# fine\nvalut = /tmp/b\n",
                "\(file), line 3: unknown key `valut` (known: vault, session)"
            ),
            ("vault /tmp/a\n", "\(file), line 1: `vault /tmp/a` is not `key = value`"),
            ("vault = relative/path\n", "\(file), line 1: `vault` must be an absolute path or start with ~/"),
            ("vault = /a\nvault = /b\n", "\(file), line 2: `vault` is given twice"),
            ("session =\n", "\(file), line 1: `session` has no value"),
        ]
        for (text, message) in cases {
            try home.writeConfig(text)
            let result = try home.run(["status"])
            #expect(result.status != 0 && result.err.contains(message), "\(text): \(result.err)")
            #expect(result.err.split(separator: "\n").count == 1, "one line: \(result.err)")
            // Even with --vault: a broken file is said, not skipped.
            let flagged = try home.run(["apps", "list", "--vault", home.root])
            #expect(flagged.status != 0 && flagged.err.contains(message), "\(flagged.err)")
            let daemon = try home.run(["--vault", home.root], binary: "healthvaultd")
            #expect(daemon.status != 0 && daemon.err.contains(message), "\(daemon.err)")
        }
    }

    @Test func loginTakesItsLengthFromTheConfigFile() throws {
        let home = try Home()
        defer { try? FileManager.default.removeItem(atPath: home.root) }
        let daemon = try TestDaemon()
        let runtime = home.root + "/run"
        #expect(mkdir(runtime, 0o700) == 0)
        let arguments = ["login", "--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile]
        try home.writeConfig("session = 2h\n")
        let login = try home.run(arguments, environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(login.status == 0, "\(login)")
        let until = login.out.range(of: "until ").map { String(login.out[$0.upperBound...].prefix(20)) } ?? ""
        let expires = try #require(ISO8601DateFormatter().date(from: until), "\(login.out)")
        #expect(abs(expires.timeIntervalSinceNow - 7200) < 60, "\(login.out)")
        // --for wins over the file.
        let flagged = try home.run(arguments + ["--for", "10m"], environment: ["XDG_RUNTIME_DIR": runtime])
        let shorter = flagged.out.range(of: "until ").map { String(flagged.out[$0.upperBound...].prefix(20)) } ?? ""
        let flaggedExpiry = try #require(ISO8601DateFormatter().date(from: shorter), "\(flagged.out)")
        #expect(abs(flaggedExpiry.timeIntervalSinceNow - 600) < 60)
        try home.writeConfig("session = 2 hours\n")
        let bad = try home.run(arguments, environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(bad.status != 0 && bad.err.contains("session = 2 hours is not a session length"), "\(bad.err)")
        #expect(bad.err.contains(home.home + "/.config/healthvault/config"))
    }
}
