import AuditLog
public import Foundation
public import VaultCrypto

/// A vault directory: the encrypted database, the key file and the audit public key.
///
/// `create` makes a new vault; `open` unlocks one with the owner's passphrase; ``lock()`` wipes
/// the keys from memory and closes the database. Layout (docs/VAULT_FORMAT.md):
///
///     <dir>/            0700
///       keyring.json    0600  wrapped database key and audit signing key
///       audit-key.pub   0600  the audit public key, in the clear, for auditors
///       vault.db        0600  SQLCipher 4 database (+ vault.db-wal, vault.db-shm)
public final class Vault: @unchecked Sendable {
    public static let databaseFileName = "vault.db"
    public static let auditPublicKeyFileName = "audit-key.pub"
    /// The files a create moves into a target directory, before the key file.
    static let stagedFileNames = [
        databaseFileName, databaseFileName + "-wal", databaseFileName + "-shm", auditPublicKeyFileName,
    ]

    public let directory: URL
    public let vaultID: UUID
    public let auditPublicKey: Ed25519.PublicKey
    /// The public half of the owner key (``ownerKey(at:passphrase:)``): kept while the vault is
    /// locked, so the daemon can still tell the owner from an app.
    public let ownerPublicKey: Ed25519.PublicKey
    // Set once in init; cleared under the lock by lock().
    private var signingKey: Ed25519.SigningKey?
    private var anchorSealer: TokenSealer?
    private var contentIdentifier: ContentIdentifier?
    private var database: Database?
    /// A copy of the database key while the vault is open, for the backup's connection to the
    /// copy it writes (``backup(to:method:requestID:progress:)``); wiped on lock.
    private var databaseKey: SecureBytes?
    private let lockState = NSLock()
    /// How many audit entries the log held when this vault was opened, and how many of them
    /// `audit-checkpoint.note` covered (``checkpointCoverage()``): fewer covered means the vault
    /// was last served without a clean lock. Nil for a vault just created.
    public private(set) var checkpointCoverageAtOpen: (entries: UInt64, checkpointed: UInt64?)?

    private init(
        directory: URL,
        vaultID: UUID,
        signingKey: Ed25519.SigningKey,
        ownerPublicKey: Ed25519.PublicKey,
        anchorSealer: TokenSealer,
        contentIdentifier: ContentIdentifier,
        database: Database,
        databaseKey: SecureBytes
    ) {
        let key = SecureBytes(count: databaseKey.count)
        key.withUnsafeMutableBytes { target in databaseKey.withUnsafeBytes { target.copyMemory(from: $0) } }
        self.databaseKey = key
        self.anchorSealer = anchorSealer
        self.contentIdentifier = contentIdentifier
        self.directory = directory
        self.vaultID = vaultID
        self.auditPublicKey = signingKey.publicKey
        self.ownerPublicKey = ownerPublicKey
        self.signingKey = signingKey
        self.database = database
    }

    /// Creates a vault in a new or empty directory: a random database key and audit key pair,
    /// both wrapped under the passphrase (Argon2id at `parameters`, MODERATE unless testing).
    ///
    /// The vault is built whole in a hidden sibling directory (`.<name>.creating-<random>`) and
    /// renamed into place, so `directory` is either untouched or a complete vault: a failed or
    /// interrupted create leaves no half-made vault, and of two concurrent creates one wins and
    /// the other reports `vaultExists` without touching the winner's files. Staging directories a
    /// killed create left behind (no running create holds their lock) are removed first.
    public static func create(
        at directory: URL,
        passphrase: SecureBytes,
        parameters: KeyDerivationParameters = .moderate
    ) throws(StoreError) -> Vault {
        try create(at: directory, passphrase: passphrase, parameters: parameters, stageBeside: true)
    }

    /// `stageBeside` false goes straight to the fallback for an existing empty directory whose
    /// parent cannot take the staging directory (a mount point, a parent the owner cannot write).
    static func create(
        at directory: URL,
        passphrase: SecureBytes,
        parameters: KeyDerivationParameters,
        stageBeside: Bool
    ) throws(StoreError) -> Vault {
        VaultFiles.restrictUmask()
        let directory = directory.standardizedFileURL
        VaultFiles.removeAbandonedStaging(for: directory)
        try VaultFiles.checkCreatable(directory)
        // A fresh account may have no ~/.local/share yet: the folders above are made owner-only.
        try VaultFiles.createMissingFolders(above: directory)
        let name = ".\(directory.lastPathComponent).creating-\(UUID().uuidString)"
        let beside = directory.deletingLastPathComponent().appendingPathComponent(name)
        var staging = beside
        var inside = !stageBeside
        var stagingLock: StagingLock?
        defer { stagingLock?.release() }
        if stageBeside {
            do {
                stagingLock = try VaultFiles.createStaging(beside)
            } catch {
                guard VaultFiles.isEmptyDirectory(directory) else { throw error }
                inside = true
            }
        }
        if inside {
            // Inside the target: its files are moved in one by one, the key file last, so the
            // directory becomes a vault (one that opens) only when everything is there.
            staging = directory.appendingPathComponent(".creating-\(UUID().uuidString)")
            stagingLock = try VaultFiles.createStaging(staging)
        }
        let databaseKey = SecureBytes.random(count: 32)
        defer { databaseKey.wipe() }
        let vaultID = UUID()
        let signingKey = Ed25519.SigningKey()
        do {
            try build(
                at: staging,
                vaultID: vaultID,
                databaseKey: databaseKey,
                signingKey: signingKey,
                passphrase: passphrase,
                parameters: parameters
            )
            if inside {
                try VaultFiles.moveFiles(from: staging, into: directory, last: Keyring.fileName)
            } else if try !VaultFiles.moveIntoPlace(staging, at: directory) {
                // A mount point: build again, inside it.
                try? FileManager.default.removeItem(at: staging)
                return try create(at: directory, passphrase: passphrase, parameters: parameters, stageBeside: false)
            }
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
        let database = try Database(
            path: directory.appendingPathComponent(databaseFileName).path,
            key: databaseKey,
            create: false
        )
        return Vault(
            directory: directory,
            vaultID: vaultID,
            signingKey: signingKey,
            ownerPublicKey: try ownerKey(databaseKey: databaseKey).publicKey,
            anchorSealer: try anchorSealer(databaseKey: databaseKey),
            contentIdentifier: try contentIdentifier(databaseKey: databaseKey),
            database: database,
            databaseKey: databaseKey
        )
    }

    /// Writes a complete vault into the empty directory `staging` and closes its database.
    private static func build(
        at staging: URL,
        vaultID: UUID,
        databaseKey: SecureBytes,
        signingKey: Ed25519.SigningKey,
        passphrase: SecureBytes,
        parameters: KeyDerivationParameters
    ) throws(StoreError) {
        let database = try Database(
            path: staging.appendingPathComponent(databaseFileName).path,
            key: databaseKey,
            create: true
        )
        try Schema.migrate(database)
        database.close()
        let keyring = try Keyring.make(
            vaultID: vaultID,
            databaseKey: databaseKey,
            signingKey: signingKey,
            passphrase: passphrase,
            parameters: parameters
        )
        try keyring.write(to: staging)
        try VaultFiles.writeAtomically(
            Data((VerifierKey(name: logName(vaultID), publicKey: signingKey.publicKey).description + "\n").utf8),
            to: staging.appendingPathComponent(auditPublicKeyFileName)
        )
    }

    /// Who opens a vault: the actor of the `vault.unlock` entry the open records.
    public enum Opener: Sendable {
        /// The vault itself: healthvaultd opening it at start, a test, a tool of its own.
        case system
        /// The owner: `healthvault unlock` through the daemon, or the owner's command opening the
        /// vault itself.
        case owner

        var actor: AuditEntry.Actor { self == .owner ? .owner : .system }
    }

    /// Unlocks an existing vault and records it (`vault.unlock` by `opener`; no secret, no
    /// request id). A wrong passphrase is `StoreError.wrongPassphrase`; a missing or damaged file
    /// has its own error; nothing is written before every check has passed.
    ///
    /// A vault whose log has entries but whose `audit-checkpoint.note` is gone is refused
    /// (`missingCheckpointFile`): without the note a database restored from an older copy would
    /// open unchecked. With `acceptingMissingCheckpoint` the owner opens it anyway: the decision
    /// is recorded (`vault.open-without-checkpoint` by the owner) and a checkpoint signed at once,
    /// which writes a new note.
    public static func open(
        at directory: URL,
        passphrase: SecureBytes,
        by opener: Opener = .system,
        acceptingMissingCheckpoint: Bool = false
    ) throws(StoreError) -> Vault {
        VaultFiles.restrictUmask()
        try checkAccessible(directory)
        let databasePath = directory.appendingPathComponent(databaseFileName).path
        var databaseStatus = stat()
        if lstat(databasePath, &databaseStatus) == 0, access(databasePath, R_OK) != 0 {
            throw .permission(FileAccess.denied(databasePath, databaseStatus, what: "read the vault's database"))
        }
        let keyring = try Keyring.read(from: directory)
        let (databaseKey, signingKey) = try keyring.unwrap(passphrase: passphrase)
        defer { databaseKey.wipe() }
        let database: Database
        do {
            database = try Database(
                path: directory.appendingPathComponent(databaseFileName).path,
                key: databaseKey,
                create: false
            )
            try Schema.migrate(database)
        } catch {
            throw damage(error)
        }
        let noteMissing = try checkAgainstLatestCheckpoint(
            directory: directory,
            verifierKey: VerifierKey(name: logName(keyring.vaultID), publicKey: signingKey.publicKey),
            database: database,
            acceptingMissing: acceptingMissingCheckpoint
        )
        let vault = Vault(
            directory: directory,
            vaultID: keyring.vaultID,
            signingKey: signingKey,
            ownerPublicKey: try ownerKey(databaseKey: databaseKey).publicKey,
            anchorSealer: try anchorSealer(databaseKey: databaseKey),
            contentIdentifier: try contentIdentifier(databaseKey: databaseKey),
            database: database,
            databaseKey: databaseKey
        )
        // Before this open writes anything: what the note covers of the log as the last serving
        // of the vault left it.
        vault.checkpointCoverageAtOpen = try? vault.checkpointCoverage()
        do {
            if noteMissing {
                try vault.signAuditCheckpoint(
                    recording: AuditEntry(time: Date(), actor: .owner, operation: .openWithoutCheckpoint, outcome: .ok)
                )
            }
            try vault.db().write { db in
                _ = try vault.auditLog(in: db).append(
                    AuditEntry(time: Date(), actor: opener.actor, operation: .unlock, outcome: .ok)
                )
            }
        } catch {
            vault.lock()
            throw StoreError(error)
        }
        return vault
    }

    /// The key was authenticated by the key file, so a database it does not open, or one SQLCipher
    /// finds corrupt, is a damaged (or replaced) database, never a wrong key.
    private static func damage(_ error: StoreError) -> StoreError {
        switch error {
        case .wrongKey:
            return .damagedDatabase(
                "the database does not open with this vault's key, although the passphrase is right: "
                    + "its first page is damaged, or the file was replaced by another database; restore it from a backup"
            )
        // SQLITE_IOERR_SHORT_READ (522): a page that is not there. Other I/O errors (a read-only
        // medium, a lock) are not damage and keep their own message.
        case .database(let error)
        where [.corrupt, .notADatabase].contains(error.resultCode)
            || error.extendedResultCode == 522:
            return .damagedDatabase(
                "the database is damaged (\(error.message)); restore it from a backup"
            )
        default:
            return error
        }
    }

    /// Rewraps the keys under a new passphrase (and fresh salt) without touching the database.
    /// The key file is replaced atomically: after a crash either passphrase works, never neither.
    public func changePassphrase(
        from old: SecureBytes,
        to new: SecureBytes,
        parameters: KeyDerivationParameters = .moderate
    ) throws(StoreError) {
        let keyring = try Keyring.read(from: directory)
        let (databaseKey, signingKey) = try keyring.unwrap(passphrase: old)
        defer { databaseKey.wipe() }
        let rewrapped = try Keyring.make(
            vaultID: keyring.vaultID,
            databaseKey: databaseKey,
            signingKey: signingKey,
            passphrase: new,
            parameters: parameters
        )
        try rewrapped.write(to: directory)
    }

    // MARK: The owner key

    /// The owner key: an Ed25519 key pair derived from the database key, so only someone who
    /// knows the passphrase can make it, and it survives a passphrase change. The owner's tools
    /// sign the daemon's challenge with it (docs/PROTOCOL.md); it is never stored.
    public static func ownerKey(at directory: URL, passphrase: SecureBytes) throws(StoreError) -> Ed25519.SigningKey {
        let keyring = try Keyring.read(from: directory)
        let (databaseKey, signingKey) = try keyring.unwrap(passphrase: passphrase)
        defer {
            databaseKey.wipe()
            signingKey.secretKey.wipe()
        }
        return try ownerKey(databaseKey: databaseKey)
    }

    static func ownerKey(databaseKey: SecureBytes) throws(StoreError) -> Ed25519.SigningKey {
        do {
            let seed = try SubkeyDerivation.subkey(of: databaseKey, context: "hvowner1")
            defer { seed.wipe() }
            return try Ed25519.SigningKey(seed: seed)
        } catch {
            throw .io("cannot derive the owner key: \(error)")
        }
    }

    /// The sealer of query anchors (keys derived from the database key, context `hvanchor`), or
    /// `locked`.
    public func queryAnchorSealer() throws(StoreError) -> TokenSealer {
        lockState.lock()
        defer { lockState.unlock() }
        guard let anchorSealer else { throw .locked }
        return anchorSealer
    }

    static func anchorSealer(databaseKey: SecureBytes) throws(StoreError) -> TokenSealer {
        do {
            return try TokenSealer(masterKey: databaseKey, context: "hvanchor")
        } catch {
            throw .io("cannot derive the anchor keys: \(error)")
        }
    }

    /// The identifier of content that arrives without a UUID (an import's records: keyed by a
    /// key derived from the database key, context `hvimport`), or `locked`.
    public func importIdentifier() throws(StoreError) -> ContentIdentifier {
        lockState.lock()
        defer { lockState.unlock() }
        guard let contentIdentifier else { throw .locked }
        return contentIdentifier
    }

    static func contentIdentifier(databaseKey: SecureBytes) throws(StoreError) -> ContentIdentifier {
        do {
            return try ContentIdentifier(masterKey: databaseKey, context: "hvimport")
        } catch {
            throw .io("cannot derive the import identity key: \(error)")
        }
    }

    /// The database, or `locked`.
    public func db() throws(StoreError) -> Database {
        lockState.lock()
        defer { lockState.unlock() }
        guard let database else { throw .locked }
        return database
    }

    /// The database key, or `locked`: the caller must not keep it past the vault's lock.
    func currentDatabaseKey() throws(StoreError) -> SecureBytes {
        lockState.lock()
        defer { lockState.unlock() }
        guard let databaseKey else { throw .locked }
        return databaseKey
    }

    /// The audit signing key, or `locked`.
    public func auditSigningKey() throws(StoreError) -> Ed25519.SigningKey {
        lockState.lock()
        defer { lockState.unlock() }
        guard let signingKey else { throw .locked }
        return signingKey
    }

    public var isLocked: Bool {
        lockState.lock()
        defer { lockState.unlock() }
        return database == nil
    }

    /// Records the lock in the audit log (`vault.lock` by the system) and signs a checkpoint
    /// (``signAuditCheckpoint(recording:)``), then wipes the keys from memory and closes the
    /// database; the vault must be opened again. Returns why the entry or the checkpoint could not
    /// be written (a full disk, a read-only file), nil when both were: the vault is locked either
    /// way, but the rollback check at the next open then compares against an older checkpoint.
    @discardableResult
    public func lock() -> (any Error)? {
        var failure: (any Error)?
        if !isLocked {
            do {
                try signAuditCheckpoint(
                    recording: AuditEntry(time: Date(), actor: .system, operation: .lock, outcome: .ok)
                )
            } catch {
                failure = error
            }
        }
        lockState.lock()
        defer { lockState.unlock() }
        signingKey?.secretKey.wipe()
        signingKey = nil
        anchorSealer?.wipe()
        anchorSealer = nil
        contentIdentifier?.wipe()
        contentIdentifier = nil
        databaseKey?.wipe()
        databaseKey = nil
        database?.close()
        database = nil
        return failure
    }

    deinit {
        lock()
    }
}
