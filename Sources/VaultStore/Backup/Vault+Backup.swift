import AuditLog
import CSQLCipher
public import Foundation
import VaultCrypto

extension Vault {
    /// Backs the open vault up into `destination`, a new or empty directory, while it goes on
    /// serving: the database (one consistent snapshot, still encrypted, copied by `method`), the
    /// key file, the audit public key and the checkpoint that covers the backup's own entry, with
    /// a manifest (`backup.json`, ``BackupManifest``) of their sizes and checksums.
    ///
    /// Recorded first: `vault.backup` by the owner with `requestID`, in the transaction that signs
    /// the checkpoint the backup carries, so the backup holds its own entry and opens against its
    /// note. A backup that fails after that is followed by a second `vault.backup` entry with
    /// outcome `error`. The backup is written whole in a hidden sibling directory
    /// (`.<name>.partial-<random>`, 0700, locked while it runs) and renamed onto `destination`
    /// only when every file is written, flushed and checked, so `destination` is either absent
    /// (or empty) or a whole backup; a partial directory a killed backup left is removed by the
    /// next backup to the same destination. No byte of it is ever plaintext: the database's
    /// pages are SQLCipher's, the keys wrapped under the passphrase.
    @discardableResult
    public func backup(
        to destination: URL,
        method: BackupMethod = .onlineBackup,
        requestID: String = "",
        progress: (BackupProgress) -> Void = { _ in }
    ) throws -> BackupManifest {
        VaultFiles.restrictUmask()
        let destination = destination.standardizedFileURL
        let vaultPath = VaultFiles.resolvingLinks(directory).path
        let destinationPath = VaultFiles.resolvingLinks(destination).path
        if destinationPath == vaultPath || destinationPath.hasPrefix(vaultPath + "/") {
            throw StoreError.vaultExists(
                "\(destination.path) is inside the vault's own folder \(directory.path): a restore replaces that folder, "
                    + "and a disk that loses the vault loses the backup with it; back up into a folder outside it"
            )
        }
        try VaultFiles.checkBackupDestination(destination)
        try VaultFiles.createParent(of: destination)
        VaultFiles.removeAbandonedPartials(for: destination)
        let staging = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString)")
        let stagingLock = try VaultFiles.createStaging(staging)
        defer { stagingLock.release() }
        let signed: SignedCheckpoint
        do {
            signed = try signAuditCheckpoint(
                recording: AuditEntry(
                    time: Date(),
                    actor: .owner,
                    operation: .backup,
                    outcome: .ok,
                    requestID: requestID
                )
            )
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
        do {
            let manifest = try writeBackup(into: staging, checkpoint: signed, method: method, progress: progress)
            guard try VaultFiles.moveIntoPlace(staging, at: destination) else {
                throw StoreError.io(
                    "\(destination.path) is an empty directory that cannot be replaced (a mount point?): "
                        + "back up into a new directory inside it"
                )
            }
            return manifest
        } catch {
            try? FileManager.default.removeItem(at: staging)
            try? recordBackupFailure(requestID: requestID)
            throw error
        }
    }

    /// Records that a backup recorded as `vault.backup` failed after that entry: a second
    /// `vault.backup` entry, outcome `error` (a copy that could not be written, or one that never
    /// reached its restic repository).
    public func recordBackupFailure(requestID: String = "") throws {
        _ = try db().write { db in
            try auditLog(in: db).append(
                AuditEntry(time: Date(), actor: .owner, operation: .backup, outcome: .error, requestID: requestID)
            )
        }
    }

    /// Writes every file of a backup into the empty directory `staging`.
    private func writeBackup(
        into staging: URL,
        checkpoint: SignedCheckpoint,
        method: BackupMethod,
        progress: (BackupProgress) -> Void
    ) throws -> BackupManifest {
        let database = try db()
        let key = try currentDatabaseKey()
        let databaseCopy = staging.appendingPathComponent(Self.databaseFileName)
        // To the second, as backup.json writes it, so that every report of the backup says the same.
        let createdAt = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        switch method {
        case .onlineBackup:
            try database.onlineBackup(to: databaseCopy.path, key: key) { copied, total in
                progress(BackupProgress(bytesCopied: copied * 4096, totalBytes: total * 4096))
            }
        case .fileImage:
            try database.copyFileImage(to: databaseCopy.path) { copied, total in
                progress(BackupProgress(bytesCopied: copied, totalBytes: total))
            }
        }
        // The copy stands alone: a rollback journal instead of a write-ahead log (one file, which
        // opens without creating any), and every page authenticated before it counts as a backup.
        try Self.sealDatabaseCopy(at: databaseCopy, key: key)
        for name in [Keyring.fileName, Self.auditPublicKeyFileName] {
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
                throw StoreError.io("cannot read \(directory.appendingPathComponent(name).path)")
            }
            try VaultFiles.writeAtomically(data, to: staging.appendingPathComponent(name))
        }
        try VaultFiles.writeAtomically(
            Data(checkpoint.text.utf8),
            to: staging.appendingPathComponent(Self.latestCheckpointFileName)
        )
        var files: [String: BackupManifest.FileDigest] = [:]
        for name in BackupManifest.fileNames {
            files[name] = try BackupManifest.digest(of: staging.appendingPathComponent(name))
        }
        let manifest = BackupManifest(
            format: BackupManifest.currentFormat,
            vaultID: vaultID,
            createdAt: createdAt,
            method: method.rawValue,
            checkpointSize: checkpoint.checkpoint.size,
            files: files
        )
        try VaultFiles.writeAtomically(
            try manifest.encoded(),
            to: staging.appendingPathComponent(BackupManifest.fileName)
        )
        VaultFiles.syncDirectory(staging)
        return manifest
    }

    /// Turns a copied database into a stand-alone file: rollback-journal mode (so opening it, to
    /// check or restore it, creates no `-wal` or `-shm` beside it) and every page's HMAC checked.
    static func sealDatabaseCopy(at url: URL, key: SecureBytes) throws {
        let connection = try Connection.standalone(path: url.path, key: key)
        let mode = try connection.scalarText("PRAGMA journal_mode = DELETE")
        guard mode == "delete" else { throw StoreError.io("the backup's database kept journal mode \(mode ?? "?")") }
        let problems = try connection.rows("PRAGMA cipher_integrity_check").compactMap { $0[0].string }
        guard problems.isEmpty else {
            throw StoreError.damagedDatabase(
                "the backup's copy of the database failed its page authentication: "
                    + problems.prefix(3).joined(separator: "; ")
            )
        }
        SQLite.allowCheckpointOnClose(connection.handle)
    }
}

extension Connection {
    /// A connection of its own to the database at `path` (a backup's copy, a vault checked or
    /// compared), keyed with `key`, with temporary tables and indexes in memory: a sort that
    /// `integrity_check` spills never reaches the disk as a file.
    static func standalone(path: String, key: SecureBytes) throws -> Connection {
        let connection = try Connection(path: path, key: key)
        try connection.execute("PRAGMA temp_store = MEMORY")
        return connection
    }

    /// Runs `body` with a connection that only reads the database at `path`, for a check or a
    /// restore's comparison, leaving the folder as it was:
    /// - with no write-ahead log beside it (no connection has it open, and none crashed with one),
    ///   the database opened immutable (``immutableURI(_:)``): no lock taken and no `-wal` or
    ///   `-shm` made, so a vault on read-only media is checked too;
    /// - with a log that a connection has open (a daemon serving it), as ``standalone(path:key:)``,
    ///   beside it, as SQLite's processes share a database;
    /// - with a log no connection has open (a daemon killed), a private copy of the three files:
    ///   the first connection to open the original would rebuild its wal-index from the log, and
    ///   with it the count of committed frames that the log's check (``WriteAheadLog``) compares,
    ///   so a damaged log would pass the next check, and the next open would drop what it lost.
    static func inspecting<T>(path: String, key: SecureBytes, _ body: (Connection) throws -> T) throws -> T {
        try withInspectablePath(path) { opened, readOnly in
            try body(try Connection.opened(forInspection: opened, key: key, readOnly: readOnly))
        }
    }

    /// A connection on what ``withInspectablePath(_:_:)`` gave, its temporary tables in memory
    /// (a sort `integrity_check` spills never reaches the disk in the clear).
    static func opened(forInspection path: String, key: SecureBytes, readOnly: Bool) throws -> Connection {
        guard readOnly else { return try standalone(path: path, key: key) }
        let connection = try Connection(path: path, key: key, readOnly: true)
        try connection.execute("PRAGMA temp_store = MEMORY")
        return connection
    }

    /// The path to open for ``inspecting(path:key:_:)`` (and whether read-only), a private copy
    /// made and removed around `body` when one is needed.
    static func withInspectablePath<T>(_ path: String, _ body: (String, Bool) throws -> T) throws -> T {
        guard access(path + "-wal", F_OK) == 0 else { return try body(immutableURI(path), true) }
        if Database.isOpen(path) || healthvault_shm_in_use(path + "-shm") != 0 { return try body(path, false) }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthvault-inspect-\(UUID().uuidString)"
        )
        try VaultFiles.createDirectory(copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let name = URL(fileURLWithPath: path).lastPathComponent
        for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            try VaultFiles.copyFile(
                URL(fileURLWithPath: path + suffix),
                to: copy.appendingPathComponent(name + suffix)
            )
        }
        return try body(copy.appendingPathComponent(name).path, false)
    }

    /// `file:<path>?immutable=1`, the path's `%`, `?` and `#` escaped (SQLite's URI filenames).
    static func immutableURI(_ path: String) -> String {
        let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f")
            .replacingOccurrences(of: "#", with: "%23")
        return "file:\(escaped)?immutable=1"
    }
}

extension VaultFiles {
    /// `url` with every symbolic link on its way resolved, the part that does not exist yet kept
    /// as it is (Foundation's `resolvingSymlinksInPath` resolves nothing of a path that does not
    /// exist, so a new folder under a link to the vault's folder would look outside it).
    static func resolvingLinks(_ url: URL) -> URL {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        for component in rest { resolved = resolved.appendingPathComponent(component) }
        return resolved.standardizedFileURL
    }

    /// Refuses a backup destination that exists as anything but an empty directory.
    static func checkBackupDestination(_ url: URL) throws(StoreError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue, isEmptyDirectory(url) else {
            throw .vaultExists("\(url.path) exists; a backup is written to a new or empty directory")
        }
    }

    /// Creates the directories above `url` that are missing (0700), as `mkdir -p` would.
    static func createParent(of url: URL) throws(StoreError) {
        let parent = url.deletingLastPathComponent()
        guard !FileManager.default.fileExists(atPath: parent.path) else { return }
        do {
            try FileManager.default.createDirectory(
                at: parent,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .io("cannot create \(parent.path): \(error.localizedDescription)")
        }
    }

    /// Removes the partial backups (`.<name>.partial-*`) killed backups of `destination` left
    /// beside it, those no running backup holds.
    static func removeAbandonedPartials(for destination: URL) {
        let parent = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent).partial-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        where name.hasPrefix(prefix) {
            removeIfAbandoned(parent.appendingPathComponent(name))
        }
    }
}

extension Vault {
    /// The id of the vault (or backup) in `directory`, from its key file; no passphrase needed.
    public static func identifier(at directory: URL) throws(StoreError) -> UUID {
        try Keyring.read(from: directory).vaultID
    }
}
