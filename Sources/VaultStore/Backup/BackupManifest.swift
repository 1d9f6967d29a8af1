public import Foundation
import VaultCrypto

/// `backup.json`: what a backup directory holds (docs/VAULT_FORMAT.md, "Backups"), so that a
/// restore or a check tells a damaged or incomplete backup from a whole one before it trusts any
/// of its files.
///
/// The checksums are not a MAC (anyone can recompute them): they name the file a flipped byte is
/// in. Tampering is caught by what each file carries itself: the key file's authenticated
/// wrapping, every database page's HMAC, the checkpoint's signature.
public struct BackupManifest: Codable, Hashable, Sendable {
    public static let fileName = "backup.json"
    public static let currentFormat = "healthvault-backup 1"

    /// A file's size and SHA-256 (64 lowercase hex digits).
    public struct FileDigest: Codable, Hashable, Sendable {
        public var bytes: Int
        public var sha256: String
    }

    /// `healthvault-backup 1`.
    public var format: String
    public var vaultID: UUID
    /// When the backup's snapshot was taken (RFC 3339).
    public var createdAt: Date
    /// How the database was copied: `online-backup` or `file-image` (``BackupMethod``).
    public var method: String
    /// The audit log entries the backup's checkpoint covers (its `vault.backup` entry the last).
    public var checkpointSize: UInt64
    /// Every file of the backup but this one, by name.
    public var files: [String: FileDigest]

    /// The files a backup holds, in the order a restore copies them (the key file last).
    public static let fileNames = [
        Vault.databaseFileName, Vault.auditPublicKeyFileName, Vault.latestCheckpointFileName, Keyring.fileName,
    ]

    static func digest(of url: URL) throws(StoreError) -> FileDigest {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw .io("cannot read \(url.path)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var bytes = 0
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw .io("cannot read \(url.path): \(error)")
            }
            if chunk.isEmpty { break }
            bytes += chunk.count
            chunk.withUnsafeBytes { hasher.update(bytes: $0) }
        }
        return FileDigest(bytes: bytes, sha256: hasher.finalize().map { String(format: "%02x", $0) }.joined())
    }

    func encoded() throws(StoreError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return try encoder.encode(self) + Data("\n".utf8)
        } catch {
            throw .io("cannot encode \(Self.fileName): \(error)")
        }
    }

    /// Reads `backup.json` from `directory`; nil when there is none (a vault, not a backup).
    static func read(from directory: URL) throws(StoreError) -> BackupManifest? {
        let url = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = FileManager.default.contents(atPath: url.path),
            let manifest = try? decoder.decode(BackupManifest.self, from: data)
        else {
            throw .damagedBackup("\(url.path) is not a backup manifest: it is damaged")
        }
        guard manifest.format == currentFormat else {
            throw .damagedBackup("\(url.path) is of format \(manifest.format), not \(currentFormat)")
        }
        return manifest
    }
}

/// How a backup copies the database.
public enum BackupMethod: String, Sendable, CaseIterable {
    /// SQLite's online backup API (`sqlite3_backup_*`) from a snapshot of the live database into
    /// a new database keyed with the same key: SQLCipher encrypts every page afresh (new IVs), so
    /// no two backups share a page's bytes.
    case onlineBackup = "online-backup"
    /// The database file's pages as they are on disk, copied from a frozen snapshot
    /// (``Database/copyFileImage(to:chunkBytes:progress:)``): a page that did not change since
    /// the last backup is the same bytes, so a deduplicating store (restic) keeps it once.
    case fileImage = "file-image"
}

/// How far a backup has got.
public struct BackupProgress: Sendable, Hashable {
    public var bytesCopied: Int
    public var totalBytes: Int
}
