import AuditLog
public import Foundation
public import VaultCrypto

/// What a restore is about to do, for the owner to confirm before anything is written.
public struct RestorePlan: Sendable {
    public enum Target: Sendable {
        /// A new or empty directory.
        case new
        /// An existing vault (the same vault) that the backup replaces. `logEntries` is its audit
        /// log's size (nil when it could not be read); `rollback` says why restoring is a
        /// rollback (entries after the backup's that changed the vault, or another history), nil
        /// when it is not; `unkept` describes the entries after the backup's that changed nothing
        /// (reads, the vault's locking, backups, exports), which the restored log does not hold
        /// either, nil when there are none.
        case replaces(logEntries: UInt64?, rollback: String?, unkept: String?)
    }

    public let backup: URL
    public let target: URL
    public let vaultID: UUID
    public let targetState: Target
    /// The backup's check: whole, or the restore refuses before this plan is shown.
    public let report: CheckReport
    /// When the backup was taken (from its manifest), when it has one.
    public let createdAt: Date?
    /// What else the folder of the vault being replaced holds (not the vault's own files), by
    /// name: moved into the restored vault's folder, never removed with the replaced vault.
    public let otherFiles: [String]

    public var isRollback: Bool {
        if case .replaces(_, let rollback, _) = targetState, rollback != nil { return true }
        return false
    }

    /// The restored log will not hold the whole log of the vault it replaces (recorded as
    /// `vault.restore-older`).
    public var dropsLogEntries: Bool {
        if case .replaces(_, let rollback, let unkept) = targetState, rollback != nil || unkept != nil { return true }
        return false
    }
}

extension Vault {
    /// Restores the backup in `backup` (a directory `backup(to:)` wrote) into `target`: verified
    /// first (``check(_:passphrase:)``: every file against the manifest, the key file, each
    /// database page's HMAC, `integrity_check`, the audit log against its signed checkpoints and
    /// its note); a backup with any problem is refused with them named, and nothing is written.
    ///
    /// `target` is a new or empty directory, or the same vault, served by no daemon (the caller
    /// holds its daemon lock). Replacing a vault whose audit log is further along than the
    /// backup's (or from another history) is a rollback, refused unless `allowingRollback`; then
    /// the restored log records it (`vault.restore-older` by the owner, its count the replaced
    /// log's size). `confirm` sees the plan and may refuse it (nothing written). Every restore
    /// then records `vault.restore` by the owner and signs a checkpoint in the restored vault,
    /// which is built whole in a hidden sibling directory and renamed into place; a replaced
    /// vault is renamed aside (`.<name>.replaced-<random>`) and removed after the swap.
    @discardableResult
    public static func restore(
        from backup: URL,
        to target: URL,
        passphrase: SecureBytes,
        allowingRollback: Bool = false,
        confirm: (RestorePlan) -> Bool = { _ in true }
    ) throws(StoreError) -> RestorePlan {
        VaultFiles.restrictUmask()
        let backup = backup.standardizedFileURL
        // Through a symbolic link to the vault's folder: the folder it names is replaced, not
        // the link (which would leave the old vault where the link led).
        let target = VaultFiles.resolvingLinks(target.standardizedFileURL)
        if VaultFiles.resolvingLinks(backup).path == target.path {
            throw .vaultExists(
                "\(backup.path) is the folder the restore would write: restore it into another folder (it stays as it is)"
            )
        }
        // What a restore killed before its end left beside the target (a whole copy, still
        // encrypted): staging folders no running restore holds.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path))
            ?? []
        where name.hasPrefix(".\(target.lastPathComponent).restoring-") {
            _ = VaultFiles.removeIfAbandoned(target.deletingLastPathComponent().appendingPathComponent(name))
        }
        let report = try check(backup, passphrase: passphrase)
        // Who may write the backup's files is no damage to what they hold, which the check proved
        // (every page's HMAC, the signatures, the key file's checksum); the restored files are 0600.
        let damage = report.problems.filter { !$0.isPermission }
        guard damage.isEmpty, let vaultID = report.vaultID else {
            throw .damagedBackup(
                "\(backup.path) is damaged; nothing was restored: "
                    + damage.map { "\($0.subject): \($0.detail)" }.joined(separator: "; ")
            )
        }
        let manifest = try? BackupManifest.read(from: backup)
        let keyring = try Keyring.read(from: backup)
        let (databaseKey, signingKey) = try keyring.unwrap(passphrase: passphrase)
        defer {
            databaseKey.wipe()
            signingKey.secretKey.wipe()
        }
        let state = try targetState(
            target,
            vaultID: vaultID,
            backupDatabase: backup.appendingPathComponent(databaseFileName),
            key: databaseKey
        )
        let plan = RestorePlan(
            backup: backup,
            target: target,
            vaultID: vaultID,
            targetState: state,
            report: report,
            createdAt: manifest?.createdAt,
            otherFiles: state.isNew ? [] : VaultFiles.otherFiles(in: target)
        )
        if case .replaces(_, let rollback?, _) = state, !allowingRollback {
            throw .rollbackRefused(
                "restoring \(backup.path) over \(target.path) would roll the vault back: \(rollback). "
                    + "Nothing was changed. If you mean to go back to the backup's state, say so with --allow-rollback: "
                    + "the restored vault's audit log records that you did"
            )
        }
        guard confirm(plan) else { throw .cancelled("nothing was restored") }
        try VaultFiles.createParent(of: target)

        let parent = target.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(target.lastPathComponent).restoring-\(UUID().uuidString)")
        let stagingLock = try VaultFiles.createStaging(staging)
        defer { stagingLock.release() }
        do {
            for name in BackupManifest.fileNames {
                let source = backup.appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                try VaultFiles.copyFile(source, to: staging.appendingPathComponent(name))
            }
            // A vault's folder (no manifest: not a backup) may still hold transactions in its
            // write-ahead log, which the check read: they come along, and the open below takes them.
            let log = backup.appendingPathComponent(databaseFileName + "-wal")
            if manifest == nil, ((try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0) > 0
            {
                try VaultFiles.copyFile(log, to: staging.appendingPathComponent(databaseFileName + "-wal"))
            }
            VaultFiles.syncDirectory(staging)
            let restored = try open(at: staging, passphrase: passphrase, by: .owner)
            do {
                if case .replaces(let entries, _, _) = state, plan.dropsLogEntries {
                    try restored.signAuditCheckpoint(
                        recording: AuditEntry(
                            time: Date(),
                            actor: .owner,
                            operation: .restoreOlder,
                            objectCount: entries ?? 0,
                            outcome: .ok
                        )
                    )
                }
                try restored.signAuditCheckpoint(
                    recording: AuditEntry(time: Date(), actor: .owner, operation: .restore, outcome: .ok)
                )
            } catch {
                restored.lock()
                throw StoreError(error)
            }
            if let failure = restored.lock() { throw StoreError(failure) }
            switch state {
            case .new:
                guard try VaultFiles.moveIntoPlace(staging, at: target) else {
                    try VaultFiles.moveFiles(from: staging, into: target, last: Keyring.fileName)
                    return plan
                }
            case .replaces:
                // What the owner keeps beside the vault in its folder moves into the restored one.
                let moved = try VaultFiles.move(VaultFiles.otherFiles(in: target), from: target, to: staging)
                let aside = parent.appendingPathComponent(".\(target.lastPathComponent).replaced-\(UUID().uuidString)")
                guard rename(target.path, aside.path) == 0 else {
                    let message = String(cString: strerror(errno))
                    _ = try? VaultFiles.move(moved, from: staging, to: target)
                    throw StoreError.io("cannot move \(target.path) aside: \(message)")
                }
                guard rename(staging.path, target.path) == 0 else {
                    let message = String(cString: strerror(errno))
                    _ = rename(aside.path, target.path)
                    _ = try? VaultFiles.move(moved, from: staging, to: target)
                    throw StoreError.io("cannot move the restored vault into \(target.path): \(message)")
                }
                VaultFiles.syncDirectory(parent)
                try? FileManager.default.removeItem(at: aside)
            }
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw StoreError(error)
        }
        return plan
    }

    /// What is at `target`: nothing (or an empty directory), or this vault, with how far its log
    /// is compared with the backup's.
    private static func targetState(
        _ target: URL,
        vaultID: UUID,
        backupDatabase: URL,
        key: SecureBytes
    ) throws(StoreError) -> RestorePlan.Target {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) else { return .new }
        guard isDirectory.boolValue else { throw .vaultExists("\(target.path) exists and is not a directory") }
        if VaultFiles.isEmptyDirectory(target) { return .new }
        let existing: Keyring
        do {
            existing = try Keyring.read(from: target)
        } catch {
            throw .vaultExists(
                "\(target.path) is not empty and holds no vault whose key file can be read; restore into a new directory"
            )
        }
        guard existing.vaultID == vaultID else {
            throw .vaultExists(
                "\(target.path) holds another vault (\(existing.vaultID)), not the backup's (\(vaultID)); restore into a new directory"
            )
        }
        // The same vault has the same database key: its log is read from its database, or, when
        // that cannot be opened, from its note.
        guard let backupLog = try? logState(databaseAt: backupDatabase, key: key) else {
            throw .damagedBackup("the audit log of \(backupDatabase.path) cannot be read")
        }
        let targetDatabase = target.appendingPathComponent(databaseFileName)
        var targetSize: UInt64?
        var targetRoot: MerkleHash?
        var fromNote = false
        if let log = try? logState(databaseAt: targetDatabase, key: key) {
            (targetSize, targetRoot) = (log.size, log.root)
        } else if let data = FileManager.default.contents(
            atPath: target.appendingPathComponent(latestCheckpointFileName).path
        ),
            let note = try? SignedCheckpoint(text: String(decoding: data, as: UTF8.self))
        {
            (targetSize, targetRoot) = (note.checkpoint.size, note.checkpoint.rootHash)
            fromNote = true
        }
        guard let targetSize, let targetRoot else { return .replaces(logEntries: nil, rollback: nil, unkept: nil) }
        let anotherHistory = "the backup's audit log and the vault's part ways (another history)"
        if targetSize > backupLog.size {
            // The vault went on after the backup. Its later entries are read from its database,
            // once its log is known to extend the backup's; a vault whose database cannot be
            // opened (its log read from its note) cannot say what they did.
            let later: [AuditEntry]?
            do {
                later = try laterEntries(databaseAt: targetDatabase, key: key, after: backupLog)
            } catch {
                return .replaces(
                    logEntries: targetSize,
                    rollback: fromNote
                        ? "the vault's database cannot be read, and its note says its audit log has \(targetSize) entries, "
                            + "the backup's \(backupLog.size): what the later ones did cannot be known"
                        : "the vault's audit log has \(targetSize) entries, the backup's \(backupLog.size)",
                    unkept: nil
                )
            }
            guard let later else { return .replaces(logEntries: targetSize, rollback: anotherHistory, unkept: nil) }
            let afterBackup =
                "the vault's audit log has \(later.count) \(later.count == 1 ? "entry" : "entries") after the backup's \(backupLog.size)"
            let changes = later.filter { !Self.changesNothingRestored($0) }
            // What the log says is checked against the data: the samples, deletions and
            // characteristics must be as the backup holds them.
            let sameData =
                (try? storeDigest(databaseAt: targetDatabase, key: key))
                == (try? storeDigest(databaseAt: backupDatabase, key: key))
            if changes.isEmpty, !sameData {
                return .replaces(
                    logEntries: targetSize,
                    rollback:
                        "\(afterBackup), and its samples or characteristics are not the backup's: restoring loses those changes",
                    unkept: nil
                )
            }
            if changes.isEmpty {
                return .replaces(
                    logEntries: targetSize,
                    rollback: nil,
                    unkept: "\(afterBackup), none of which changed it (\(Self.counted(later)))"
                )
            }
            return .replaces(
                logEntries: targetSize,
                rollback:
                    "\(afterBackup), which changed it since (\(Self.counted(changes))): restoring loses those changes",
                unkept: nil
            )
        }
        let backupRoot = try? logRoot(databaseAt: backupDatabase, key: key, size: targetSize)
        if backupRoot != targetRoot {
            return .replaces(logEntries: targetSize, rollback: anotherHistory, unkept: nil)
        }
        return .replaces(logEntries: targetSize, rollback: nil, unkept: nil)
    }

    /// The entries of the log in `url` after `backupLog`'s, when that log extends the backup's;
    /// nil when it does not (another history). Throws when the log cannot be read.
    private static func laterEntries(
        databaseAt url: URL,
        key: SecureBytes,
        after backupLog: (size: UInt64, root: MerkleHash)
    ) throws -> [AuditEntry]? {
        guard FileManager.default.fileExists(atPath: url.path) else { throw StoreError.io("no database") }
        return try Connection.inspecting(path: url.path, key: key) { connection in
            try connection.transaction(immediate: false) {
                let storage = DatabaseAuditStorage(connection)
                let size = try storage.compactRange().size
                guard try Merkle.root(size: backupLog.size, nodes: storage) == backupLog.root else { return nil }
                return try (backupLog.size..<size).map { try AuditEntry(decoding: storage.entry(at: $0)) }
            }
        }
    }

    /// The store's state digest (``Vault/storeState(_:)``: its change counter, samples,
    /// deletions and characteristics) of the database in `url`.
    private static func storeDigest(databaseAt url: URL, key: SecureBytes) throws -> [UInt8] {
        return try Connection.inspecting(path: url.path, key: key) { connection in
            try connection.transaction(immediate: false) { try storeState(connection).digest }
        }
    }

    /// Operations that change nothing a backup holds: reads, the vault's locking and unlocking,
    /// backups, exports, reports, a failed authentication, the owner's sessions (`healthvault
    /// login`: a token the daemon keeps in memory), a restore (of this backup: the store's state
    /// digest is compared as well); and any operation refused (`denied`). Losing such entries
    /// loses the record of what happened, not a change of the vault.
    static func changesNothingRestored(_ entry: AuditEntry) -> Bool {
        if entry.outcome == .denied || entry.outcome == .deniedServedEmpty { return true }
        if entry.operation.rawValue.hasPrefix("query.") { return true }
        return [
            .unlock, .lock, .backup, .export, .auditExport, .report, .authenticationFailure, .authorizationStatus,
            .subscribe, .unsubscribe, .workoutCollect, .sessionOpen, .sessionClose, .restore, .restoreOlder,
        ].contains(entry.operation)
    }

    /// "2 query.sample, 1 vault.lock": the entries' operations, the most frequent first.
    private static func counted(_ entries: [AuditEntry]) -> String {
        var counts: [String: Int] = [:]
        for entry in entries { counts[entry.operation.rawValue, default: 0] += 1 }
        let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let shown = sorted.prefix(5).map { "\($0.value) \($0.key)" }
        return (shown + (sorted.count > 5 ? ["..."] : [])).joined(separator: ", ")
    }

    private static func logState(databaseAt url: URL, key: SecureBytes) throws -> (size: UInt64, root: MerkleHash) {
        guard FileManager.default.fileExists(atPath: url.path) else { throw StoreError.io("no database") }
        return try Connection.inspecting(path: url.path, key: key) { connection in
            try connection.transaction(immediate: false) {
                let range = try DatabaseAuditStorage(connection).compactRange()
                return (range.size, range.root)
            }
        }
    }

    private static func logRoot(databaseAt url: URL, key: SecureBytes, size: UInt64) throws -> MerkleHash {
        return try Connection.inspecting(path: url.path, key: key) { connection in
            try connection.transaction(immediate: false) {
                try Merkle.root(size: size, nodes: DatabaseAuditStorage(connection))
            }
        }
    }
}

extension RestorePlan.Target {
    var isNew: Bool {
        if case .new = self { true } else { false }
    }
}

extension VaultFiles {
    /// The names in a vault's folder that are the vault's own (its files, their log and the
    /// daemon's lock and socket); a restore replaces these and keeps anything else.
    static let vaultOwnNames: Set<String> = [
        Vault.databaseFileName, Vault.databaseFileName + "-wal", Vault.databaseFileName + "-shm",
        Vault.auditPublicKeyFileName, Vault.latestCheckpointFileName, Keyring.fileName, Keyring.fileName + ".tmp",
        "healthvaultd.lock", "healthvaultd.sock",
    ]

    /// The entries of `directory` that are not the vault's own, sorted.
    static func otherFiles(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            !vaultOwnNames.contains($0)
        }
        .sorted()
    }

    /// Renames each of `names` from `source` into `destination` (one file system: the two are
    /// siblings); the names moved. On a failure, those already moved are moved back.
    @discardableResult
    static func move(_ names: [String], from source: URL, to destination: URL) throws(StoreError) -> [String] {
        var moved: [String] = []
        for name in names {
            guard rename(source.appendingPathComponent(name).path, destination.appendingPathComponent(name).path) == 0
            else {
                let message = String(cString: strerror(errno))
                for done in moved {
                    _ = rename(destination.appendingPathComponent(done).path, source.appendingPathComponent(done).path)
                }
                throw .io("cannot move \(name) from \(source.path) into the restored vault: \(message)")
            }
            moved.append(name)
        }
        return moved
    }

    /// Copies `source` to the new file `destination` (0600), flushed.
    static func copyFile(_ source: URL, to destination: URL) throws(StoreError) {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .io("cannot read \(source.path): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw .io("cannot create \(destination.path): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            guard n >= 0 else { throw .io("cannot read \(source.path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, n - written) }
                guard w > 0 else { throw .io("cannot write \(destination.path): \(String(cString: strerror(errno)))") }
                written += w
            }
        }
        guard fsync(output) == 0 else { throw .io("cannot flush \(destination.path) to disk") }
    }
}
