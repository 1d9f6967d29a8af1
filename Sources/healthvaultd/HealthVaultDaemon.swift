import ArgumentParser
import CommandSupport
import Foundation
import Glibc
import Logging
import ServiceLifecycle
import UnixSignals
import VaultCrypto
import VaultDaemon
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
            """
    )

    @Option(name: .long, help: "The vault directory.")
    var vault: String

    @Option(name: .long, help: "Read the passphrase from this open file descriptor.")
    var passphraseFd: Int32?

    @Option(name: .long, help: "Read the passphrase from this file (its first line).")
    var passphraseFile: String?

    @Option(name: .long, help: "The largest frame accepted, bytes.")
    var maxFrameBytes: Int = 16 * 1024 * 1024

    @Option(name: .long, help: "Connections served at once.")
    var maxConnections: Int = 128

    @Option(name: .long, help: "Requests per second allowed on one connection.")
    var maxRequestsPerSecond: Int = 1000

    @Option(name: .long, help: "Seconds a request may run before it is answered timedOut.")
    var requestTimeout: Double = 30

    @Option(name: .long, help: "Seconds a new connection has to authenticate.")
    var authenticationTimeout: Double = 10

    @Option(name: .long, help: "Seconds a frame, once begun, may take to arrive whole.")
    var frameTimeout: Double = 10

    @Option(
        name: .long,
        help: "Another user id allowed to connect (repeatable); the daemon's own user always is."
    )
    var allowedUid: [UInt32] = []

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func run() async throws {
        do {
            try await serve()
        } catch {
            FileHandle.standardError.write(Data("healthvaultd: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    func serve() async throws {
        // No core dumps: the keys live in this process's memory.
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)

        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ToolError("unknown log level \(logLevel)")
        }
        for (name, value) in [
            ("--max-frame-bytes", Double(maxFrameBytes)), ("--max-connections", Double(maxConnections)),
            ("--max-requests-per-second", Double(maxRequestsPerSecond)), ("--request-timeout", requestTimeout),
            ("--authentication-timeout", authenticationTimeout), ("--frame-timeout", frameTimeout),
        ] where !(value > 0) {
            throw ToolError("\(name) must be positive")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "healthvaultd")
        let directory = URL(fileURLWithPath: vault).standardizedFileURL
        let lock = try DaemonLock(directory: directory)
        let source = try PassphraseSource(fd: passphraseFd, file: passphraseFile)
        let passphrase = try source.read(prompt: "Passphrase for \(directory.path): ")
        let opened: Vault
        do {
            defer { passphrase.wipe() }
            opened = try Vault.open(at: directory, passphrase: passphrase)
        }
        var configuration = DaemonConfiguration(vaultDirectory: directory)
        configuration.maximumFrameBytes = maxFrameBytes
        configuration.maximumConnections = maxConnections
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
