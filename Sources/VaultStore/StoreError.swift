/// Why the vault or its store could not do what was asked: one case per cause a person would act
/// on differently, each with a message that says what happened and what to do.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The passphrase does not unwrap the vault's keys.
    case wrongPassphrase
    /// The database does not open with the vault's key (damaged, replaced, or another vault's).
    case wrongKey(String)
    /// A key file is missing.
    case missingKeyFile(String)
    /// A key file exists but cannot be read as one.
    case damagedKeyFile(String)
    /// The database file is missing, truncated, or fails its page authentication.
    case damagedDatabase(String)
    /// The database is older than the last checkpoint the vault signed, or from another history.
    case rolledBack(String)
    /// `audit-checkpoint.note` does not verify with the vault's audit key.
    case damagedCheckpointFile(String)
    /// `audit-checkpoint.note` is missing although the database's audit log has entries, so a
    /// rollback could not be told; the owner may accept that once, on the record.
    case missingCheckpointFile(String)
    /// The directory already holds a vault (on create) or holds no vault (on open).
    case vaultExists(String)
    case notAVault(String)
    /// The database was written by a newer HealthVault.
    case newerSchema(String)
    /// The database holds something the next schema version cannot take (it is left as it was).
    case cannotMigrate(String)
    /// The linked library is not a SQLCipher 4.5 or later, or plain SQLite is loaded too.
    case unsupportedLibrary(String)
    case invalidKey(String)
    case cannotOpen(String)
    /// The vault is locked: its keys were wiped.
    case locked
    /// A backup is incomplete or damaged (a file missing, or not what its manifest or its own
    /// authentication says); nothing was restored from it.
    case damagedBackup(String)
    /// A restore would put back an older state of the vault (or another history) over one whose
    /// audit log is further along; the owner may insist, on the record.
    case rollbackRefused(String)
    /// The owner did not confirm a destructive step; nothing was changed.
    case cancelled(String)
    /// A file-system operation failed.
    case io(String)
    /// The vault's files have permissions that are unsafe, or that do not let it be served.
    case permission(String)
    /// SQLCipher reported an error.
    case database(DatabaseError)

    /// Any error from the layers below, as a StoreError.
    init(_ error: any Error) {
        switch error {
        case let error as StoreError: self = error
        case let error as DatabaseError: self = .database(error)
        default: self = .io("\(error)")
        }
    }

    public var description: String {
        switch self {
        case .wrongPassphrase: "wrong passphrase"
        case .wrongKey(let message): message
        case .missingKeyFile(let message): message
        case .damagedKeyFile(let message): message
        case .damagedDatabase(let message): message
        case .rolledBack(let message): message
        case .damagedCheckpointFile(let message): message
        case .missingCheckpointFile(let message): message
        case .vaultExists(let message): message
        case .notAVault(let message): message
        case .permission(let message): message
        case .newerSchema(let message): message
        case .cannotMigrate(let message): message
        case .unsupportedLibrary(let message): message
        case .invalidKey(let message): message
        case .cannotOpen(let message): message
        case .locked: "the vault is locked"
        case .io(let message): message
        case .damagedBackup(let message): message
        case .rollbackRefused(let message): message
        case .cancelled(let message): message
        case .database(let error): "database error: \(error)"
        }
    }
}
