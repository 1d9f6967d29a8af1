public import Foundation

// The owner's backup (docs/PROTOCOL.md, "The owner's methods": `vault.backup`).

/// `vault.backup`: back the vault up into a new directory of the daemon's file system.
public struct BackupParams: Hashable, Sendable, Codable {
    /// An absolute path: a directory that does not exist yet, or an empty one.
    public var directory: String
    /// How the database is copied: `online-backup` (SQLite's online backup; the default) or
    /// `file-image` (the file's pages as they are on disk, for deduplicating stores).
    public var method: String?

    public init(directory: String, method: String? = nil) {
        self.directory = directory
        self.method = method
    }
}

/// What a backup wrote: its manifest's fields (docs/VAULT_FORMAT.md, "Backups").
public struct BackupResult: Hashable, Sendable, Codable {
    public struct File: Hashable, Sendable, Codable {
        public var bytes: Int
        public var sha256: String

        public init(bytes: Int, sha256: String) {
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    public var directory: String
    public var vault: UUID
    public var createdAt: Date
    public var method: String
    /// The audit entries the backup's checkpoint covers (its own `vault.backup` entry the last).
    public var checkpointSize: UInt64
    public var files: [String: File]

    public init(
        directory: String,
        vault: UUID,
        createdAt: Date,
        method: String,
        checkpointSize: UInt64,
        files: [String: File]
    ) {
        self.directory = directory
        self.vault = vault
        self.createdAt = createdAt
        self.method = method
        self.checkpointSize = checkpointSize
        self.files = files
    }
}

/// A `backup.progress` notification: how much of the database a backup has copied.
public struct BackupProgressParams: Hashable, Sendable, Codable {
    public var bytesCopied: Int
    public var totalBytes: Int

    public init(bytesCopied: Int, totalBytes: Int) {
        self.bytesCopied = bytesCopied
        self.totalBytes = totalBytes
    }
}
