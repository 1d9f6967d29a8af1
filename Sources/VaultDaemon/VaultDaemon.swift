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
    private let sessions = Mutex<[UUID: Session]>([:])
    private let server = Mutex<(any Channel)?>(nil)
    private let draining = Atomic<Bool>(false)

    /// Serves `vault`, already open. The caller holds the ``DaemonLock``.
    public init(vault: Vault, configuration: DaemonConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        self.vaultID = vault.vaultID
        self.ownerPublicKey = vault.ownerPublicKey
        self.unlocked = Mutex((vault, try VaultEngine(vault: vault)))
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
        guard
            let current = unlocked.withLock({ state -> (vault: Vault, engine: VaultEngine)? in
                defer { state = nil }
                return state
            })
        else { return }
        for session in sessions.withLock({ Array($0.values) }) where session.isApp {
            session.close()
        }
        await current.engine.shutdown()
        await offPool { current.vault.lock() }
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
                return OpenVault(vault: vault, engine: try VaultEngine(vault: vault))
            } catch {
                vault.lock()
                throw error
            }
        }
        unlocked.withLock { $0 = (opened.vault, opened.engine) }
        logger.info("vault unlocked")
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
        for session in sessions.withLock({ Array($0.values) }) {
            if case .app(let id) = session.identity, id == appID { session.close() }
        }
    }

    // MARK: Sessions

    /// Admits a session unless as many are open as the limit allows.
    func admit(_ session: Session) -> Bool {
        sessions.withLock { sessions in
            guard sessions.count < configuration.maximumConnections else { return false }
            sessions[session.id] = session
            return true
        }
    }

    func remove(_ session: Session) {
        _ = sessions.withLock { $0.removeValue(forKey: session.id) }
    }

    var connectionCount: Int { sessions.withLock { $0.count } }

    // MARK: Serving

    public func run() async throws {
        let path = configuration.socketPath
        guard path.utf8.count < 108 else {
            throw DaemonError(
                "the socket path \(path) is longer than a Unix socket allows (107 bytes); use a shorter vault path"
            )
        }
        let maximumFrameBytes = configuration.maximumFrameBytes
        let frameTimeout = TimeAmount.nanoseconds(configuration.frameTimeout.nanoseconds)
        // Created 0600 whatever the umask; a socket left by a daemon that died is replaced (the
        // daemon lock says no other daemon is using it).
        let previousMask = umask(0o177)
        let channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
        do {
            defer { umask(previousMask) }
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true) { child in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(
                            FrameHandler(maximumFrameBytes: maximumFrameBytes, frameTimeout: frameTimeout)
                        )
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child)
                    }
                }
        }
        chmod(path, 0o600)
        server.withLock { $0 = channel.channel }
        logger.info(
            "serving",
            metadata: [
                "vault": "\(vaultID)", "socket": "\(path)", "maxConnections": "\(configuration.maximumConnections)",
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
        } catch {
            // The listening socket failed: still lock the vault and remove the socket.
            logger.error("the listening socket failed: \(error)")
            await finish(socketPath: path)
            throw error
        }
        await finish(socketPath: path)
    }

    /// Stops accepting and stops reading new requests; answers under way are still written.
    private func beginShutdown() {
        guard !draining.exchange(true, ordering: .sequentiallyConsistent) else { return }
        logger.info("shutting down: finishing requests under way")
        server.withLock { $0 }?.close(promise: nil)
        let sessions = sessions.withLock { Array($0.values) }
        for session in sessions { session.stopReading() }
        // Sessions that do not finish in time (a client that does not read its answers) are closed.
        let drainTimeout = configuration.drainTimeout
        Task {
            try? await Task.sleep(for: drainTimeout)
            for session in self.sessions.withLock({ Array($0.values) }) { session.close() }
        }
    }

    private func finish(socketPath: String) async {
        if let current = unlocked.withLock({ state -> (vault: Vault, engine: VaultEngine)? in
            defer { state = nil }
            return state
        }) {
            await current.engine.shutdown()
            await offPool { current.vault.lock() }
        }
        unlink(socketPath)
        logger.info("stopped: the vault is locked and the socket removed")
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

func offPool(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            body()
            continuation.resume()
        }.start()
    }
}
