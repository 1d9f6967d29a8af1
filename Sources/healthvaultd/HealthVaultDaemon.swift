import ArgumentParser
import CommandSupport
import Foundation
import Glibc
import Logging
import ServiceLifecycle
import UnixSignals
import VaultClient
import VaultCrypto
import VaultDaemon
import VaultProtocol
import VaultStore

/// healthvaultd: serves one vault to apps and its owner over a Unix socket in the vault directory.
@main
struct HealthVaultDaemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthvaultd",
        abstract: "Serve a HealthVault vault to apps and its owner over a Unix socket (docs/PROTOCOL.md).",
        discussion: """
            Runs in the foreground, logging to stderr. SIGTERM or SIGINT stops it cleanly: requests \
            under way finish, the vault is locked and the socket removed. The passphrase comes from \
            a prompt, --passphrase-fd or --passphrase-file, never from the command line.

            Examples:
              healthvaultd --vault ~/.local/share/healthvault
              healthvaultd --vault ~/.local/share/healthvault --passphrase-fd 3 3< <(pass show healthvault)
            """,
        version: HealthVaultVersion.current
    )

    @Option(
        name: .long,
        help:
            "The vault directory (default: $HEALTHVAULT_DIR, else `vault` in ~/.config/healthvault/config, else $XDG_DATA_HOME/healthvault, else ~/.local/share/healthvault)."
    )
    var vault: String?

    @Option(name: .long, parsing: .unconditional, help: "Read the passphrase from this open file descriptor.")
    var passphraseFd: Int32?

    @Option(name: .long, help: "Read the passphrase from this file (its first line).")
    var passphraseFile: String?

    @Option(name: .long, parsing: .unconditional, help: "The largest frame accepted, bytes.")
    var maxFrameBytes: Int = 16 * 1024 * 1024

    @Option(
        name: .long,
        parsing: .unconditional,
        help: "Authenticated app connections served at once, all apps together."
    )
    var maxConnections: Int = ConnectionLimits().apps

    @Option(name: .long, parsing: .unconditional, help: "Authenticated connections of one app.")
    var maxConnectionsPerApp: Int = ConnectionLimits().perApp

    @Option(name: .long, parsing: .unconditional, help: "Authenticated owner connections (never taken by apps).")
    var maxOwnerConnections: Int = ConnectionLimits().owner

    @Option(name: .long, parsing: .unconditional, help: "Connections waiting to authenticate, all peers together.")
    var maxUnauthenticated: Int = ConnectionLimits().unauthenticated

    @Option(name: .long, parsing: .unconditional, help: "Connections waiting to authenticate from one process.")
    var maxUnauthenticatedPerPeer: Int = ConnectionLimits().unauthenticatedPerPeer

    @Option(
        name: .long,
        parsing: .unconditional,
        help: "Seconds an authenticated connection without a live subscription may stay idle."
    )
    var idleTimeout: Double = 300

    @Option(name: .long, parsing: .unconditional, help: "Requests per second allowed on one connection.")
    var maxRequestsPerSecond: Int = 1000

    @Option(name: .long, parsing: .unconditional, help: "Seconds a request may run before it is answered timedOut.")
    var requestTimeout: Double = 30

    @Option(name: .long, parsing: .unconditional, help: "Seconds a new connection has to authenticate.")
    var authenticationTimeout: Double = 10

    @Option(name: .long, parsing: .unconditional, help: "Seconds a frame, once begun, may take to arrive whole.")
    var frameTimeout: Double = 10

    @Option(
        name: .long,
        parsing: .unconditionalSingleValue,
        help: "Another user id allowed to connect (repeatable); the daemon's own user always is."
    )
    var allowedUid: [UInt32] = []

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    /// Parses and runs; a command line it cannot use is said in one line in the tools' style
    /// (`healthvaultd: Unknown option '--bogus'`, README "Errors and exit codes") and exits 64;
    /// help and the version print as ArgumentParser prints them.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is CleanExit { exit(withError: error) }
            let message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            FileHandle.standardError.write(Data("healthvaultd: \(message)\n".utf8))
            Foundation.exit(code.rawValue)
        }
    }

    /// Every limit must be positive: said with the option's name and the value as written, before
    /// anything is opened (exit 64, as any value out of range on the command line).
    func validate() throws {
        for (name, value) in [
            ("--max-frame-bytes", Double(maxFrameBytes)), ("--max-connections", Double(maxConnections)),
            ("--max-connections-per-app", Double(maxConnectionsPerApp)),
            ("--max-owner-connections", Double(maxOwnerConnections)),
            ("--max-unauthenticated", Double(maxUnauthenticated)),
            ("--max-unauthenticated-per-peer", Double(maxUnauthenticatedPerPeer)), ("--idle-timeout", idleTimeout),
            ("--max-requests-per-second", Double(maxRequestsPerSecond)), ("--request-timeout", requestTimeout),
            ("--authentication-timeout", authenticationTimeout), ("--frame-timeout", frameTimeout),
        ] where !(value > 0) {
            let written = value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
            throw ValidationError("\(name) \(written) is out of range: give more than 0")
        }
    }

    func run() async throws {
        do {
            try await serve()
        } catch {
            FileHandle.standardError.write(Data("healthvaultd: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    func serve() async throws {
        HeapTuning.apply()
        // The keys will live in this process's memory.
        try ProcessHardening.apply()

        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ToolError(
                "--log-level is trace, debug, info, notice, warning, error or critical, not \(logLevel)"
            )
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "healthvaultd")
        let directory = try VaultLocation.resolve(flag: vault, configuration: ToolConfiguration.load())
        // Before anything is written: a folder that is not a vault, or one this user may not
        // read, is said as what it is, and left as it was (no lock file in it).
        try VaultFolder.require(directory)
        let lock = try DaemonLock(directory: directory, forDaemon: true)
        for warning in try Vault.checkServable(directory, socketFileName: WireProtocol.socketFileName) {
            logger.warning("\(warning)")
        }
        let source = try PassphraseSource(fd: passphraseFd, file: passphraseFile)
        let passphrase = try source.read(prompt: "Passphrase for \(directory.path): ")
        let opened: Vault
        do {
            defer { passphrase.wipe() }
            opened = try Vault.open(at: directory, passphrase: passphrase)
        } catch {
            // Said with what to do: which passphrase, and where it was read.
            if case .wrongPassphrase = error { throw ToolError(source.wrongPassphrase(for: directory.path)) }
            throw ToolError(VaultFolder.message(for: error, directory: directory))
        }
        var configuration = DaemonConfiguration(vaultDirectory: directory)
        configuration.maximumFrameBytes = maxFrameBytes
        configuration.connectionLimits.apps = maxConnections
        configuration.connectionLimits.perApp = maxConnectionsPerApp
        configuration.connectionLimits.owner = maxOwnerConnections
        configuration.connectionLimits.unauthenticated = maxUnauthenticated
        configuration.connectionLimits.unauthenticatedPerPeer = maxUnauthenticatedPerPeer
        configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        try ProcessHardening.reserveFileDescriptors(forConnections: configuration.connectionLimits.total)
        configuration.requestsPerSecond = maxRequestsPerSecond
        configuration.requestTimeout = .milliseconds(Int64(requestTimeout * 1000))
        configuration.authenticationTimeout = .milliseconds(Int64(authenticationTimeout * 1000))
        configuration.frameTimeout = .milliseconds(Int64(frameTimeout * 1000))
        configuration.allowedUIDs.formUnion(allowedUid)
        let daemon = try VaultDaemon(vault: opened, configuration: configuration, logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: daemon)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
        withExtendedLifetime(lock) {}
    }
}
