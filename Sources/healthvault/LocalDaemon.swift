import CommandSupport
import Foundation
import Glibc
import Logging
import Synchronization
import VaultCrypto
import VaultDaemon
import VaultStore

/// The vault served to this command alone while healthvaultd is stopped: the command takes the
/// daemon lock (no healthvaultd can start meanwhile), opens the vault with the passphrase
/// (recorded as `vault.unlock` by the owner), and runs the daemon's own server in this process on
/// a socket in a private folder (0700, only this uid admitted). Every request then goes through
/// the same engine, with the same rules and the same audit entries as through healthvaultd;
/// ``stop()`` locks the vault (`vault.lock`, a signed checkpoint) before the command exits.
enum LocalDaemon {
    /// Whether the command running may serve the vault to itself when no healthvaultd runs (it
    /// is one of ``ServedWithoutDaemon``); others say that healthvaultd is not running.
    static let permitted = Atomic<Bool>(false)

    private struct Running: @unchecked Sendable {
        let socketPath: String
        let folder: String
        let server: Task<Void, any Error>
        let lock: DaemonLock
    }

    private static let running = Mutex<Running?>(nil)

    /// The private socket, while this process serves the vault to itself.
    static var socketPath: String? { running.withLock { $0?.socketPath } }

    /// Opens the vault at `directory` with `passphrase` and serves it on a private socket; the
    /// owner key is derived by the caller.
    static func start(directory: URL, passphrase: SecureBytes) throws {
        let lock = try DaemonLock(directory: directory)
        let vault: Vault
        do {
            vault = try Vault.open(at: directory, passphrase: passphrase, by: .owner)
        } catch {
            throw ToolError(VaultFolder.message(for: error, directory: directory))
        }
        guard let made = mkdtemp(strdup("/tmp/healthvault-XXXXXX")) else {
            vault.lock()
            throw ToolError("cannot make a private folder in /tmp: \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: made)
        var configuration = DaemonConfiguration(vaultDirectory: directory)
        configuration.socketPath = folder + "/s.sock"
        // Only errors, on stderr: the command's own output stays its own.
        var logger = Logger(label: "healthvault") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let daemon: VaultDaemon
        do {
            daemon = try VaultDaemon(vault: vault, configuration: configuration, logger: logger)
        } catch {
            vault.lock()
            rmdir(folder)
            throw ToolError("cannot serve \(directory.path): \(error)")
        }
        let server = Task { try await daemon.run() }
        running.withLock {
            $0 = Running(socketPath: configuration.socketPath, folder: folder, server: server, lock: lock)
        }
        // Ready when its socket is there.
        let deadline = Date().addingTimeInterval(10)
        while access(configuration.socketPath, F_OK) != 0, Date() < deadline { usleep(5_000) }
    }

    /// Stops serving, if this process was: the server ends, the vault is locked and checkpointed,
    /// the private folder removed, the daemon lock released.
    static func stop() async {
        guard
            let current = running.withLock({ state -> Running? in
                defer { state = nil }
                return state
            })
        else { return }
        current.server.cancel()
        _ = await current.server.result
        unlink(current.socketPath)
        rmdir(current.folder)
        withExtendedLifetime(current.lock) {}
    }
}

/// The owner's commands that work with healthvaultd stopped (issue 22): the reads of the owner's
/// own data and the audit log's export and entries. Changes to the vault (grants, apps, entries,
/// imports, deletes) stay with healthvaultd, which apps reach too.
protocol ServedWithoutDaemon {}

extension Audit.Export: ServedWithoutDaemon {}
extension Audit.Show: ServedWithoutDaemon {}
extension Grants.History: ServedWithoutDaemon {}
extension Profile.Show: ServedWithoutDaemon {}
extension DataSummary: ServedWithoutDaemon {}
extension Samples.List: ServedWithoutDaemon {}
extension Objects.List: ServedWithoutDaemon {}
extension Stats: ServedWithoutDaemon {}
extension Activity: ServedWithoutDaemon {}
extension Workouts.List: ServedWithoutDaemon {}
extension Workouts.Show: ServedWithoutDaemon {}
extension Export: ServedWithoutDaemon {}
extension Report: ServedWithoutDaemon {}
