public import Foundation
import Glibc
import HealthModel
public import Logging
import NIOCore
import NIOPosix
public import ServiceLifecycle
import Synchronization
public import VaultCrypto
import VaultEngine
import VaultProtocol
public import VaultStore

/// healthvaultd's server: a Unix domain socket in the vault directory (0600, the directory 0700),
/// one task per connection, every request through the ``VaultEngine``. A `Service`: on graceful
/// shutdown (SIGTERM, SIGINT) it stops accepting, answers the requests under way, ends every
/// subscription, locks the vault (signing an audit checkpoint) and removes the socket file.
public final class VaultDaemon: Service, Sendable {
    public let configuration: DaemonConfiguration
    let logger: Logger
    let vaultID: UUID
    let ownerPublicKey: Ed25519.PublicKey

    /// The open vault and its engine; nil while the owner has it locked.
    private let unlocked: Mutex<(vault: Vault, engine: VaultEngine)?>
    private let connections: Mutex<ConnectionTable<Session>>
    private let server = Mutex<(any Channel)?>(nil)
    private let draining = Atomic<Bool>(false)
    /// The owner's session tokens: in memory only, forgotten on lock and with the process.
    let ownerTokens = OwnerTokens()

    /// Serves `vault`, already open. The caller holds the ``DaemonLock``.
    public init(vault: Vault, configuration: DaemonConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        self.vaultID = vault.vaultID
        self.ownerPublicKey = vault.ownerPublicKey
        self.unlocked = Mutex(
            (
                vault,
                try VaultEngine(
                    vault: vault,
                    largestObjectJSONBytes: VaultEngine.largestObjectJSONBytes(
                        forFrames: configuration.maximumFrameBytes
                    )
                )
            )
        )
        self.connections = Mutex(ConnectionTable(limits: configuration.connectionLimits))
    }

    /// Every open connection's session.
    private var sessions: [Session] {
        connections.withLock { $0.entries.values.map(\.member) }
    }

    var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    // MARK: The vault

    /// The engine, or the `vaultLocked` answer.
    func engine() throws(RPCError) -> VaultEngine {
        guard let engine = unlocked.withLock({ $0?.engine }) else {
            throw RPCError(
                code: RPCError.vaultLocked,
                message: "the vault is locked; its owner unlocks it with `healthvault unlock`",
                data: HealthError(.databaseInaccessible, "the vault is locked")
            )
        }
        return engine
    }

    var isLocked: Bool { unlocked.withLock { $0 == nil } }

    var vault: Vault? { unlocked.withLock { $0?.vault } }

    /// Ends every app session (their answers cannot be served), stops the engine, and locks the
    /// vault: the keys are wiped, a checkpoint signed.
    func lock() async throws {
        try beginTransition()
        defer { endTransition() }
        // A lock ends every owner session: unlocking again needs the passphrase.
        ownerTokens.forgetAll()
        guard
            let current = unlocked.withLock({ state -> (vault: Vault, engine: VaultEngine)? in
                defer { state = nil }
                return state
            })
        else { return }
        for session in sessions where session.isApp {
            session.close()
        }
        await current.engine.shutdown()
        let failure = await offPool { current.vault.lock() }
        if let failure {
            logger.error("the vault is locked, but its lock was not recorded and checkpointed: \(failure)")
            throw RPCError.from(
                HealthError(
                    .databaseInaccessible,
                    "the vault is locked, but its audit checkpoint could not be written (\(failure)); free space or fix the permissions of \(configuration.vaultDirectory.path)"
                )
            )
        }
        logger.info("vault locked")
    }

    /// Opens the vault with `passphrase` (Argon2id, off the Swift concurrency pool); a wrong one
    /// is `authorizationDenied`.
    func unlock(passphrase: SecureBytes) async throws {
        try beginTransition()
        defer { endTransition() }
        guard isLocked else { return }
        let directory = configuration.vaultDirectory
        let vaultID = vaultID
        let largestObject = VaultEngine.largestObjectJSONBytes(forFrames: configuration.maximumFrameBytes)
        let opened = try await offPool { () throws -> OpenVault in
            var vault: Vault?
            try Session.checkingPassphrase("wrong passphrase") {
                vault = try Vault.open(at: directory, passphrase: passphrase, by: .owner)
            }
            guard let vault else { throw DaemonError("the vault did not open") }
            guard vault.vaultID == vaultID else {
                vault.lock()
                throw DaemonError("the vault directory now holds another vault; restart healthvaultd")
            }
            do {
                return OpenVault(
                    vault: vault,
                    engine: try VaultEngine(vault: vault, largestObjectJSONBytes: largestObject)
                )
            } catch {
                vault.lock()
                throw error
            }
        }
        unlocked.withLock { $0 = (opened.vault, opened.engine) }
        reportCheckpointCoverage(opened.vault)
        logger.info("vault unlocked")
    }

    /// Says in the log when the vault was last served without a clean lock: its log has entries
    /// that `audit-checkpoint.note` does not cover (the daemon was killed, or could not write the
    /// note at its last stop), so the rollback check could not cover them.
    func reportCheckpointCoverage(_ vault: Vault) {
        guard let coverage = vault.checkpointCoverageAtOpen, let checkpointed = coverage.checkpointed else { return }
        if checkpointed < coverage.entries {
            logger.warning(
                "the vault was not locked cleanly when it was last served: audit-checkpoint.note covers \(checkpointed) of \(coverage.entries) audit entries (the daemon was killed, or could not write the note: a full disk, a read-only file); the next lock or export signs them"
            )
        }
    }

    /// Runs `bind`, saying a failure as what it is (no system call's name): a path too long for a
    /// Unix socket, or the system's reason.
    static func listening<T>(on path: String, _ bind: () async throws -> T) async throws -> T {
        do {
            return try await bind()
        } catch let error as IOError {
            throw DaemonError("cannot listen on \(path): \(String(cString: strerror(error.errnoCode)))")
        } catch let error as SocketAddressError {
            if case .unixDomainSocketPathTooLong = error {
                throw DaemonError(
                    "cannot listen on \(path): the path is longer than a Unix socket's 107 bytes; move the vault to a shorter path"
                )
            }
            throw DaemonError("cannot listen on \(path): \(error)")
        }
    }

    struct OpenVault: Sendable {
        let vault: Vault
        let engine: VaultEngine
    }

    /// One lock or unlock at a time; another meanwhile is refused.
    private let transition = Mutex(false)

    private func beginTransition() throws(RPCError) {
        let free = transition.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard free else {
            throw RPCError.from(HealthError(.databaseInaccessible, "the vault is being locked or unlocked; try again"))
        }
    }

    private func endTransition() {
        transition.withLock { $0 = false }
    }

    /// Closes every connection of an app (it was removed).
    func closeSessions(ofApp appID: String) {
        for session in sessions {
            if case .app(let id) = session.identity, id == appID { session.close() }
        }
    }

    // MARK: Sessions

    /// Admits a session from `peer` to authenticate (docs/PROTOCOL.md, "Connections"); a waiting
    /// connection shed to make room is closed.
    func admit(_ session: Session, peer: Int32) throws(ConnectionRefusal) {
        let shed = try connections.withLock { table throws(ConnectionRefusal) in
            try table.admit(session.id, session, peer: peer)
        }
        if let shed {
            logger.notice(
                "closed a connection waiting to authenticate to make room",
                metadata: ["connection": "\(shed.id)"]
            )
            shed.close()
        }
    }

    /// Counts an authenticated session under its app or the owner, within their limits.
    func authenticated(_ session: Session, as identity: Session.Identity) throws(ConnectionRefusal) {
        try connections.withLock { table throws(ConnectionRefusal) in
            switch identity {
            case .owner: try table.authenticate(session.id, as: .owner)
            case .app(let appID): try table.authenticate(session.id, as: .app(appID))
            }
        }
    }

    func remove(_ session: Session) {
        _ = connections.withLock { $0.remove(session.id) }
    }

    var connectionCount: Int { connections.withLock { $0.count } }

    // MARK: Serving

    public func run() async throws {
        let path = configuration.socketPath
        guard path.utf8.count < 108 else {
            throw DaemonError(
                "the socket path \(path) is longer than a Unix socket allows (107 bytes); use a shorter vault path"
            )
        }
        if let vault { reportCheckpointCoverage(vault) }
        let maximumFrameBytes = configuration.maximumFrameBytes
        let frameTimeout = TimeAmount.nanoseconds(configuration.frameTimeout.nanoseconds)
        // Created 0600 whatever the umask; a socket left by a daemon that died is replaced (the
        // daemon lock says no other daemon is using it).
        let previousMask = umask(0o177)
        let channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
        do {
            defer { umask(previousMask) }
            channel = try await Self.listening(on: path) {
                try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .serverChannelOption(.backlog, value: 256)
                    .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true) { child in
                        child.eventLoop.makeCompletedFuture {
                            try child.pipeline.syncOperations.addHandler(
                                FrameHandler(maximumFrameBytes: maximumFrameBytes, frameTimeout: frameTimeout)
                            )
                            // Closed on deinit: a connection accepted while the server shuts down may
                            // never reach the accept loop, and one wrapped without that closing traps
                            // the process as it is dropped (swift-nio issues 2637 and 3481).
                            return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(synchronouslyWrapping: child)
                        }
                    }
            }
        }
        chmod(path, 0o600)
        server.withLock { $0 = channel.channel }
        // Each limit under its flag's name (`maxConnections` is --max-connections, the apps'
        // ceiling), and `connectionsAtOnce` their sum, the most connections open at once.
        let limits = configuration.connectionLimits
        logger.info(
            "serving",
            metadata: [
                "vault": "\(vaultID)", "socket": "\(path)",
                "maxConnections": "\(limits.apps)", "maxConnectionsPerApp": "\(limits.perApp)",
                "maxOwnerConnections": "\(limits.owner)", "maxUnauthenticated": "\(limits.unauthenticated)",
                "connectionsAtOnce": "\(limits.total)",
            ]
        )

        do {
            try await withGracefulShutdownHandler {
                try await withThrowingDiscardingTaskGroup { group in
                    try await channel.executeThenClose { inbound in
                        for try await connection in inbound {
                            group.addTask { await self.serve(connection) }
                        }
                    }
                }
            } onGracefulShutdown: {
                self.beginShutdown()
            }
        } catch is CancellationError {
            // Cancelled by what runs the daemon (a command that served the vault for itself is
            // done): a stop like any other, below.
        } catch {
            // The listening socket failed: still lock the vault and remove the socket.
            logger.error("the listening socket failed: \(error)")
            _ = await finish(socketPath: path)
            throw error
        }
        if let failure = await finish(socketPath: path) {
            throw DaemonError(
                "the vault is locked, but its lock could not be recorded and checkpointed (\(failure)): audit-checkpoint.note is older than the log; free space or fix the permissions of \(configuration.vaultDirectory.path)"
            )
        }
    }

    /// Stops accepting and stops reading new requests; answers under way are still written.
    private func beginShutdown() {
        guard !draining.exchange(true, ordering: .sequentiallyConsistent) else { return }
        logger.info("shutting down: finishing requests under way")
        server.withLock { $0 }?.close(promise: nil)
        for session in sessions { session.stopReading() }
        // Sessions that do not finish in time (a client that does not read its answers) are closed.
        let drainTimeout = configuration.drainTimeout
        Task {
            try? await Task.sleep(for: drainTimeout)
            for session in self.sessions { session.close() }
        }
    }

    /// Locks the vault and removes the socket; returns why the lock could not be checkpointed.
    private func finish(socketPath: String) async -> (any Error)? {
        var failure: (any Error)?
        if let current = unlocked.withLock({ state -> (vault: Vault, engine: VaultEngine)? in
            defer { state = nil }
            return state
        }) {
            await current.engine.shutdown()
            failure = await offPool { current.vault.lock() }
        }
        unlink(socketPath)
        if let failure {
            logger.error("stopped: the vault is locked, but its lock was not recorded and checkpointed: \(failure)")
        } else {
            logger.info("stopped: the vault is locked and the socket removed")
        }
        return failure
    }

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                let session = Session(daemon: self, channel: connection.channel, outbound: outbound)
                await session.run(inbound)
            }
        } catch {
            logger.debug("connection ended: \(error)")
        }
    }
}

/// Runs blocking work (Argon2id, a checkpoint's fsync) on a thread of its own, so it never holds
/// one of the Swift concurrency pool's few threads (DESIGN.md decision 11).
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
