public import Foundation
import HealthModel
public import VaultStore

extension VaultEngine {
    /// Backs the vault up into `directory` while it goes on serving (``Vault/backup(to:method:requestID:progress:)``):
    /// recorded as `vault.backup` by the owner. A destination that exists and is not an empty
    /// directory is `invalidArgument`; nothing is written then.
    public func backup(
        to directory: URL,
        method: BackupMethod,
        requestID: String,
        progress: @escaping @Sendable (BackupProgress) -> Void
    ) async throws -> BackupManifest {
        try await perform { [self] in
            do {
                return try vault.backup(to: directory, method: method, requestID: requestID, progress: progress)
            } catch let error as StoreError {
                if case .vaultExists(let message) = error {
                    throw HealthError.invalidArgument(message, field: "directory")
                }
                throw HealthError(.databaseInaccessible, "the backup failed: \(error)")
            }
        }
    }

    /// `vault.backupFailed`: a backup recorded as `vault.backup` did not reach where it was going
    /// (a restic repository the owner's command stores it in); recorded as `vault.backup`,
    /// outcome `error`.
    public func recordBackupFailure(requestID: String) async throws {
        try await perform { [self] in try vault.recordBackupFailure(requestID: requestID) }
    }
}
