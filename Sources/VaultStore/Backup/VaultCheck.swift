public import AuditLog
public import Foundation
public import VaultCrypto

/// What `healthvault check` finds in a vault or a backup directory: each file, its permissions,
/// the database's integrity (SQLCipher's `cipher_integrity_check`, SQLite's `integrity_check`),
/// and the audit log against its signed checkpoints. Reads only: it writes nothing, not even in
/// the database's log, so it runs on a vault its daemon is serving and on a read-only backup.
public struct CheckReport: Sendable {
    public enum Status: String, Sendable {
        case ok
        /// Not damage, but worth fixing (a permission wider than the vault sets).
        case warning
        /// Damaged, missing or unsafe: the vault or backup is not whole.
        case problem
    }

    public struct Finding: Sendable {
        public let status: Status
        /// The file (or `directory`, `audit log`) the finding is about.
        public let subject: String
        public let detail: String
        /// A finding about who may read or write a file, not about what it holds: a restore,
        /// which writes its own files 0600 in a 0700 folder, is not stopped by one.
        public let isPermission: Bool
    }

    public private(set) var findings: [Finding] = []
    public internal(set) var vaultID: UUID?
    /// Whether the directory is a backup (it has `backup.json`).
    public internal(set) var isBackup = false
    /// The audit log's size in the database, and the size its latest signed checkpoint covers.
    public internal(set) var auditEntries: UInt64?
    public internal(set) var checkpointSize: UInt64?

    public var isWhole: Bool { !findings.contains { $0.status == .problem } }
    public var problems: [Finding] { findings.filter { $0.status == .problem } }

    mutating func add(_ status: Status, _ subject: String, _ detail: String, permission: Bool = false) {
        findings.append(Finding(status: status, subject: subject, detail: detail, isPermission: permission))
    }
}

extension Vault {
    /// Checks the vault or backup in `directory` with `passphrase` (it unwraps the database key;
    /// nothing is written). A wrong passphrase throws `wrongPassphrase`; a directory that is no
    /// vault throws `notAVault`; any damage is a finding of the report.
    public static func check(_ directory: URL, passphrase: SecureBytes) throws(StoreError) -> CheckReport {
        var report = CheckReport()
        let directory = directory.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw .notAVault("\(directory.path) is not a directory") }
        let manifest: BackupManifest?
        do {
            manifest = try BackupManifest.read(from: directory)
        } catch {
            report.isBackup = true
            report.add(.problem, BackupManifest.fileName, error.description)
            manifest = nil
        }
        if manifest != nil { report.isBackup = true }
        checkFiles(directory, manifest: manifest, into: &report)

        let keyring: Keyring
        do {
            keyring = try Keyring.read(from: directory)
        } catch {
            if case .missingKeyFile = error, manifest == nil, !report.isBackup,
                !FileManager.default.fileExists(atPath: directory.appendingPathComponent(databaseFileName).path)
            {
                throw .notAVault("\(directory.path) holds no vault and no backup")
            }
            report.add(.problem, Keyring.fileName, error.description)
            return report
        }
        report.vaultID = keyring.vaultID
        if let manifest, manifest.vaultID != keyring.vaultID {
            report.add(
                .problem,
                BackupManifest.fileName,
                "names vault \(manifest.vaultID), the key file \(keyring.vaultID): the files are from two vaults"
            )
        }
        let (databaseKey, signingKey) = try keyring.unwrap(passphrase: passphrase)
        defer {
            databaseKey.wipe()
            signingKey.secretKey.wipe()
        }
        report.add(.ok, Keyring.fileName, "intact; the passphrase unwraps its keys")
        let verifierKey = VerifierKey(name: logName(keyring.vaultID), publicKey: signingKey.publicKey)
        let publicKeyText = FileManager.default.contents(
            atPath: directory.appendingPathComponent(auditPublicKeyFileName).path
        )
        .map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        if publicKeyText == nil {
            report.add(.problem, auditPublicKeyFileName, "missing (auditors verify the log with it)")
        } else if publicKeyText != verifierKey.description {
            report.add(.problem, auditPublicKeyFileName, "is not this vault's audit key: it was altered or replaced")
        } else {
            report.add(.ok, auditPublicKeyFileName, "this vault's audit key")
        }
        let note = readNote(directory, verifierKey: verifierKey, into: &report)
        if let manifest {
            // Its own fields, against what the signed note and this HealthVault say.
            if let note, manifest.checkpointSize != note.checkpoint.size {
                report.add(
                    .problem,
                    BackupManifest.fileName,
                    "says the backup's checkpoint covers \(manifest.checkpointSize) entries, its signed note \(note.checkpoint.size): it was altered"
                )
            }
            if BackupMethod(rawValue: manifest.method) == nil {
                report.add(
                    .problem,
                    BackupManifest.fileName,
                    "names the copy method \(manifest.method), which HealthVault never writes: it was altered"
                )
            }
        }
        checkDatabase(directory, key: databaseKey, verifierKey: verifierKey, note: note, into: &report)
        return report
    }

    /// The directory's and files' presence, modes and owner; a backup's files against its manifest.
    private static func checkFiles(_ directory: URL, manifest: BackupManifest?, into report: inout CheckReport) {
        let fm = FileManager.default
        let uid = getuid()
        func mode(_ path: String) -> (mode: Int, owner: UInt32)? {
            guard let attributes = try? fm.attributesOfItem(atPath: path),
                let mode = attributes[.posixPermissions] as? Int,
                let owner = attributes[.ownerAccountID] as? NSNumber
            else { return nil }
            return (mode, owner.uint32Value)
        }
        if let (dirMode, owner) = mode(directory.path) {
            if dirMode & 0o022 != 0 {
                report.add(
                    .problem,
                    "directory",
                    "\(directory.path) has mode \(String(dirMode, radix: 8)): other users can replace its files; `chmod 700 \(directory.path)`",
                    permission: true
                )
            } else if dirMode & 0o077 != 0 {
                report.add(
                    .warning,
                    "directory",
                    "\(directory.path) has mode \(String(dirMode, radix: 8)), not 700: other users can list it; `chmod 700 \(directory.path)`"
                )
            } else {
                report.add(.ok, "directory", "mode 700")
            }
            if owner != uid {
                report.add(.warning, "directory", "owned by uid \(owner), not by this user (uid \(uid))")
            }
        }
        let known: Set<String> = [
            databaseFileName, databaseFileName + "-wal", databaseFileName + "-shm", auditPublicKeyFileName,
            latestCheckpointFileName, Keyring.fileName, BackupManifest.fileName, "healthvaultd.lock",
            "healthvaultd.sock",
            Keyring.fileName + ".tmp",
        ]
        let names = ((try? fm.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        for name in names {
            let path = directory.appendingPathComponent(name).path
            guard known.contains(name) else {
                report.add(.warning, name, "not a file of a vault or a backup")
                continue
            }
            guard name != "healthvaultd.sock", let (fileMode, owner) = mode(path) else { continue }
            if fileMode & 0o077 != 0 {
                report.add(
                    fileMode & 0o022 != 0 ? .problem : .warning,
                    name,
                    "mode \(String(fileMode, radix: 8)), not 600: `chmod 600 \(path)`",
                    permission: true
                )
            }
            if owner != uid {
                report.add(.warning, name, "owned by uid \(owner), not by this user (uid \(uid))")
            }
        }
        guard let manifest else { return }
        for name in BackupManifest.fileNames where manifest.files[name] == nil {
            report.add(.problem, BackupManifest.fileName, "does not list \(name): the backup is incomplete")
        }
        for (name, expected) in manifest.files.sorted(by: { $0.key < $1.key }) {
            let url = directory.appendingPathComponent(name)
            guard fm.fileExists(atPath: url.path) else {
                report.add(.problem, name, "missing from the backup")
                continue
            }
            guard let actual = try? BackupManifest.digest(of: url) else {
                report.add(.problem, name, "cannot be read")
                continue
            }
            if actual.bytes != expected.bytes {
                report.add(
                    .problem,
                    name,
                    "is \(actual.bytes) bytes, \(expected.bytes) when backed up: cut short, grown or replaced"
                )
            } else if actual.sha256 != expected.sha256 {
                report.add(.problem, name, "differs from the file backed up (its SHA-256 changed): damaged")
            } else {
                report.add(.ok, name, "\(actual.bytes) bytes, as backed up")
            }
        }
    }

    /// The latest checkpoint kept beside the database, verified with the vault's key.
    private static func readNote(
        _ directory: URL,
        verifierKey: VerifierKey,
        into report: inout CheckReport
    ) -> SignedCheckpoint? {
        let url = directory.appendingPathComponent(latestCheckpointFileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            report.add(
                .warning,
                latestCheckpointFileName,
                "missing: opening the vault cannot check it against a rollback (refused when its log has entries)"
            )
            return nil
        }
        do {
            let signed = try SignedCheckpoint(text: String(decoding: data, as: UTF8.self))
            try signed.verify(with: verifierKey)
            report.checkpointSize = signed.checkpoint.size
            report.add(
                .ok,
                latestCheckpointFileName,
                "signed by this vault's audit key, at \(signed.checkpoint.size) entries"
            )
            return signed
        } catch {
            report.add(.problem, latestCheckpointFileName, "not a checkpoint this vault signed: altered or damaged")
            return nil
        }
    }

    /// The database's pages, its structure, and its audit log against its checkpoints and `note`.
    private static func checkDatabase(
        _ directory: URL,
        key: SecureBytes,
        verifierKey: VerifierKey,
        note: SignedCheckpoint?,
        into report: inout CheckReport
    ) {
        let path = directory.appendingPathComponent(databaseFileName).path
        let name = databaseFileName
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size else { return report.add(.problem, name, "missing") }
        guard size > 0, size % 4096 == 0 else {
            return report.add(
                .problem,
                name,
                "\(size) bytes, not a whole number of 4096-byte pages: cut short or damaged"
            )
        }
        do {
            try WriteAheadLog.check(databasePath: path, openElsewhere: Database.isOpen(path))
        } catch {
            report.add(.problem, name + "-wal", error.description)
        }
        // Read where it leaves the folder as it was (``Connection/withInspectablePath(_:_:)``); a
        // private copy that cannot be made is said as such.
        do {
            try Connection.withInspectablePath(path) { opened, readOnly in
                let connection: Connection
                do {
                    connection = try Connection.opened(forInspection: opened, key: key, readOnly: readOnly)
                } catch {
                    if case .wrongKey? = error as? StoreError {
                        return report.add(
                            .problem,
                            name,
                            "page 1 does not open with this vault's key: damaged, or the file is another database"
                        )
                    }
                    // The open reads the schema, so damage to one of its pages stops it there: the pages
                    // are checked anyway, on a connection that is only keyed, to name the damaged ones.
                    guard let pages = Connection.unauthenticatedPages(path: path, key: key), !pages.isEmpty else {
                        return report.add(.problem, name, "cannot be opened: \(Self.inWords(error))")
                    }
                    return report.add(
                        .problem,
                        name,
                        "cannot be opened: \(Self.inWords(error)); " + Self.damaged(pages)
                    )
                }
                do {
                    let pages = try connection.rows("PRAGMA cipher_integrity_check").compactMap { $0[0].string }
                    if pages.isEmpty {
                        report.add(.ok, name, "\(size / 4096) pages, each authenticated (cipher_integrity_check)")
                    } else {
                        report.add(.problem, name, Self.damaged(pages))
                    }
                } catch {
                    report.add(.problem, name, "its pages cannot be checked: \(Self.inWords(error))")
                }
                do {
                    let rows = try connection.rows("PRAGMA integrity_check(20)").compactMap { $0[0].string }
                    if rows == ["ok"] {
                        report.add(.ok, name, "its tables and indexes are consistent (integrity_check)")
                    } else {
                        // One finding a line; SQLite heads them with the database's name.
                        let found = rows.flatMap { $0.split(separator: "\n") }.map(String.init).filter {
                            !$0.hasPrefix("*** in database")
                        }
                        report.add(
                            .problem,
                            name,
                            "its tables or indexes are damaged (integrity_check: \(found.count)\(found.count >= 20 ? " or more" : "") "
                                + "finding\(found.count == 1 ? "" : "s"), the first: \(found.first ?? "unnamed"))"
                        )
                    }
                    let version = try connection.scalarInt("PRAGMA user_version") ?? 0
                    if version > Schema.latestVersion {
                        report.add(.problem, name, "schema version \(version) is newer than this HealthVault knows")
                    }
                    // Since schema 21 no index refuses a second row of a UUID (the store's insert does):
                    // a vault written by anything else is checked here for one.
                    if version >= 7 {
                        let shared = try Schema.sharedUUIDs(connection)
                        if shared > 0 {
                            report.add(
                                .problem,
                                name,
                                "\(shared) UUID\(shared == 1 ? " is" : "s are") held by more than one sample (a UUID names one object)"
                            )
                        } else {
                            report.add(.ok, name, "every UUID names one object")
                        }
                    }
                } catch {
                    report.add(
                        .problem,
                        name,
                        "its tables or indexes cannot be checked (integrity_check could not run: \(Self.inWords(error)))"
                    )
                }
                checkAuditLog(connection, verifierKey: verifierKey, note: note, into: &report)
            }
        } catch {
            report.add(.problem, name, "cannot be read: \(error)")
        }
    }

    /// What went wrong opening a database, in SQLite's words without its codes and statement
    /// ("database disk image is malformed").
    private static func inWords(_ error: any Error) -> String {
        switch error {
        case StoreError.database(let database): database.message
        case let database as DatabaseError: database.message
        default: "\(error)"
        }
    }

    /// The damaged pages `cipher_integrity_check` named, the first five of them.
    private static func damaged(_ pages: [String]) -> String {
        "\(pages.count) damaged: " + pages.prefix(5).joined(separator: "; ") + (pages.count > 5 ? "; …" : "")
            + " (cipher_integrity_check)"
    }

    /// The log in the database: every entry against every checkpoint signed in it (as an auditor
    /// verifies an export), then against the note kept beside it (the rollback check of open).
    private static func checkAuditLog(
        _ connection: Connection,
        verifierKey: VerifierKey,
        note: SignedCheckpoint?,
        into report: inout CheckReport
    ) {
        let subject = "audit log"
        do {
            try connection.transaction(immediate: false) {
                let storage = DatabaseAuditStorage(connection)
                let log = AuditLog(storage: storage, verifierKey: verifierKey)
                let range = try storage.compactRange()
                report.auditEntries = range.size
                let export = try AuditExport(log: log)
                let verdict = AuditVerifier.verify(export, trustedKey: verifierKey)
                switch verdict.verdict {
                case .verified:
                    let signed = UInt64(export.entries.count)
                    let tail = range.size - signed
                    report.add(
                        .ok,
                        subject,
                        "\(range.size) entries; the \(signed) up to its latest checkpoint verify against \(export.checkpoints.count) signed checkpoints"
                            + (tail > 0 ? " (\(tail) later ones are signed at the next lock, backup or export)" : "")
                    )
                case .tampered(let fault):
                    report.add(.problem, subject, "does not verify: \(fault)")
                case .unreadable(let message):
                    report.add(.problem, subject, "cannot be read: \(message)")
                case .otherVault(let message):
                    report.add(.problem, subject, "is not this vault's: \(message)")
                }
                guard let note else { return }
                let checkpoint = note.checkpoint
                guard range.size >= checkpoint.size else {
                    return report.add(
                        .problem,
                        subject,
                        "has \(range.size) entries, \(latestCheckpointFileName) \(checkpoint.size): the database is older than its checkpoint (rolled back)"
                    )
                }
                let root =
                    range.size == checkpoint.size ? range.root : try Merkle.root(size: checkpoint.size, nodes: storage)
                let counter = try changeCounter(connection)
                if root != checkpoint.rootHash {
                    report.add(
                        .problem,
                        subject,
                        "does not extend the log \(latestCheckpointFileName) signed: the database is from another history"
                    )
                } else if counter < checkpoint.storeChangeCounter {
                    report.add(
                        .problem,
                        subject,
                        "the store's change counter \(counter) is below the checkpoint's \(checkpoint.storeChangeCounter): rolled back"
                    )
                } else {
                    report.add(.ok, latestCheckpointFileName, "the database extends it (no rollback)")
                }
            }
        } catch {
            report.add(.problem, subject, "cannot be read from the database: \(error)")
        }
    }
}
