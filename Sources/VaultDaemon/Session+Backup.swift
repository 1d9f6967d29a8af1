import Foundation
import HealthModel
import Synchronization
import VaultEngine
import VaultProtocol
import VaultStore

extension Session {
    /// `vault.backup` (docs/PROTOCOL.md): the backup runs on the engine's threads while apps are
    /// served; `backup.progress` notifications go to this connection, at most ten a second.
    func backup(_ p: BackupParams, requestID: String) async throws -> BackupResult {
        guard p.directory.hasPrefix("/") else {
            throw RPCError.from(HealthError.invalidArgument("the path must be absolute", field: "directory"))
        }
        let method: BackupMethod
        if let name = p.method {
            guard let known = BackupMethod(rawValue: name) else {
                throw RPCError.from(HealthError.invalidArgument("online-backup or file-image", field: "method"))
            }
            method = known
        } else {
            method = .onlineBackup
        }
        // For tests of a backup cut short: a pause after each step of the copy.
        let pause = ProcessInfo.processInfo.environment["HEALTHVAULTD_TEST_BACKUP_STEP_PAUSE_MS"].flatMap(UInt32.init)
        let lastSent = Mutex(Date.distantPast)
        let manifest = try await daemon.engine().backup(
            to: URL(fileURLWithPath: p.directory),
            method: method,
            requestID: requestID
        ) { [self] progress in
            if let pause { usleep(pause * 1000) }
            let now = Date()
            let due = lastSent.withLock { last in
                guard now.timeIntervalSince(last) >= 0.1 || progress.bytesCopied == progress.totalBytes else {
                    return false
                }
                last = now
                return true
            }
            guard due else { return }
            Task {
                await send(
                    notification: Method.backupProgress,
                    BackupProgressParams(bytesCopied: progress.bytesCopied, totalBytes: progress.totalBytes)
                )
            }
        }
        return BackupResult(
            directory: p.directory,
            vault: manifest.vaultID,
            createdAt: manifest.createdAt,
            method: manifest.method,
            checkpointSize: manifest.checkpointSize,
            files: manifest.files.mapValues { BackupResult.File(bytes: $0.bytes, sha256: $0.sha256) }
        )
    }
}
