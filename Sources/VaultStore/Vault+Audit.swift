public import AuditLog
public import Foundation
import VaultCrypto

/// The vault's audit log: kept in the database, appended inside the transaction of the access it
/// records, checkpointed with the vault's Ed25519 audit key on every export and on lock.
extension Vault {
    /// `audit-checkpoint.note`: the latest signed checkpoint, also kept outside the database, so
    /// that opening the vault catches a database rolled back to an older copy (DESIGN.md 7).
    public static let latestCheckpointFileName = "audit-checkpoint.note"

    /// The log's origin and signer name: `healthvault/<vault id, lowercase>`.
    static func logName(_ vaultID: UUID) -> String {
        "healthvault/\(vaultID.uuidString.lowercased())"
    }

    /// The audit public key as a C2SP verifier key; `audit-key.pub` holds it.
    public var verifierKey: VerifierKey {
        VerifierKey(name: Self.logName(vaultID), publicKey: auditPublicKey)
    }

    /// The audit log over `db`, a transaction of this vault's database: an entry appended through
    /// it commits with whatever else that transaction does, or not at all.
    public func auditLog(in db: Connection) -> AuditLog<DatabaseAuditStorage> {
        AuditLog(storage: DatabaseAuditStorage(db), verifierKey: verifierKey)
    }

    /// Signs a checkpoint of the log as it is now, with the store's change counter and state
    /// digest, stores it in the database and in `audit-checkpoint.note`. Signing again with
    /// nothing changed returns the latest checkpoint. Refuses (`AuditLogError.inconsistent`) a
    /// checkpoint that would contradict the latest one.
    ///
    /// With `recording`, that entry (numbered by the log) is appended first, in the same
    /// transaction: the lock and the export record themselves, so their checkpoint always covers a
    /// log that grew, and a change the log did not record cannot leave it unsignable.
    @discardableResult
    public func signAuditCheckpoint(recording entry: AuditEntry? = nil) throws -> SignedCheckpoint {
        let key = try auditSigningKey()
        let signed = try db().write { db in
            if let entry { try auditLog(in: db).append(entry) }
            let state = try Self.storeState(db)
            return try auditLog(in: db).signCheckpoint(
                with: key,
                storeChangeCounter: state.counter,
                storeDigest: state.digest
            )
        }
        try VaultFiles.writeAtomically(
            Data(signed.text.utf8),
            to: directory.appendingPathComponent(Self.latestCheckpointFileName)
        )
        return signed
    }

    /// Records the export (`audit.export` by `actor`), signs a checkpoint and writes the whole log,
    /// with every checkpoint and the verifier key, as an export directory (docs/AUDIT_LOG.md) that
    /// an auditor verifies offline. Returns the checkpoint the export ends with.
    ///
    /// An export refused because `exportDirectory` exists is recorded as `audit.export` with
    /// outcome `error`, and nothing is signed; one that fails while writing, after its `ok`
    /// entry was signed, is followed by a second `audit.export` entry with outcome `error`.
    @discardableResult
    public func exportAuditLog(to exportDirectory: URL, actor: AuditEntry.Actor = .owner) throws -> SignedCheckpoint {
        func recordFailure() throws {
            try db().write { db in
                _ = try auditLog(in: db).append(
                    AuditEntry(time: Date(), actor: actor, operation: .auditExport, outcome: .error)
                )
            }
        }
        guard !FileManager.default.fileExists(atPath: exportDirectory.path) else {
            try recordFailure()
            throw AuditLogError(
                .io,
                "\(exportDirectory.path) already exists; an export is written to a new directory"
            )
        }
        let signed = try signAuditCheckpoint(
            recording: AuditEntry(time: Date(), actor: actor, operation: .auditExport, outcome: .ok)
        )
        do {
            // One snapshot, taken after the signature: the entries up to the latest checkpoint.
            let export = try db().read { try AuditExport(log: auditLog(in: $0)) }
            try export.write(to: exportDirectory)
        } catch {
            try? recordFailure()
            throw error
        }
        return signed
    }

    /// How many entries the log holds, and how many of them `audit-checkpoint.note` covers (nil
    /// without a readable note). After a clean lock the two are equal; fewer covered means the
    /// vault was last served without being locked (the daemon was killed, or could not write the
    /// note), so the entries after it are not yet covered by a checkpoint outside the database.
    public func checkpointCoverage() throws -> (entries: UInt64, checkpointed: UInt64?) {
        let url = directory.appendingPathComponent(Self.latestCheckpointFileName)
        let checkpointed = FileManager.default.contents(atPath: url.path).flatMap {
            try? SignedCheckpoint(text: String(decoding: $0, as: UTF8.self)).checkpoint.size
        }
        return (try db().read { try auditLog(in: $0).size() }, checkpointed)
    }

    /// The store's change counter and a digest of its state: SHA-256 of
    /// `"healthvault store state 1" ‖ 0x00 ‖` the change counter, the number of samples, the
    /// highest sample row id and the number of tombstones (each 8 bytes, big-endian) `‖` SHA-256
    /// of the characteristics (each type and value, length-prefixed, in type order).
    static func storeState(_ db: Connection) throws -> (counter: UInt64, digest: [UInt8]) {
        let counter = try changeCounter(db)
        let samples = try db.rows("SELECT count(*), coalesce(max(id), 0) FROM samples").first
        let tombstones = try db.scalarInt("SELECT count(*) FROM tombstones") ?? 0
        var characteristics: [UInt8] = []
        for row in try db.rows("SELECT type, value FROM characteristics ORDER BY type") {
            for field in [row[0].string ?? "", row[1].string ?? ""] {
                characteristics += bigEndian(UInt64(field.utf8.count)) + Array(field.utf8)
            }
        }
        var input = Array("healthvault store state 1".utf8) + [0]
        for value in [counter, UInt64(samples?[0].int64 ?? 0), UInt64(samples?[1].int64 ?? 0), UInt64(tombstones)] {
            input += bigEndian(value)
        }
        input += SHA256.hash(data: characteristics)
        return (counter, SHA256.hash(data: input))
    }

    static func changeCounter(_ db: Connection) throws -> UInt64 {
        UInt64(try db.scalarInt("SELECT value FROM counters WHERE name = 'change_sequence'") ?? 0)
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// Checks the database against the latest checkpoint kept outside it: the log must extend
    /// that checkpoint's tree and the store's counter must not have gone back. A database
    /// restored from an older copy (every lock appends an entry, so any copy older than the last
    /// lock has a shorter log), or one from another history, fails with `rolledBack`. The state
    /// digest is not compared: a change the log did not record (a crash before the lock) may
    /// legitimately have moved it.
    ///
    /// Without the note, the log must be empty (a vault never locked nor exported); otherwise
    /// `missingCheckpointFile`, unless `acceptingMissing`. Returns whether the note was missing
    /// from a vault whose log has entries (and so accepted).
    static func checkAgainstLatestCheckpoint(
        directory: URL,
        verifierKey: VerifierKey,
        database: Database,
        acceptingMissing: Bool = false
    ) throws(StoreError) -> Bool {
        let url = directory.appendingPathComponent(latestCheckpointFileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            let size: UInt64
            do {
                size = try database.read { try DatabaseAuditStorage($0).compactRange().size }
            } catch {
                throw .damagedDatabase("the audit log in the database cannot be read: \(error)")
            }
            guard size > 0 else { return false }
            guard acceptingMissing else {
                throw .missingCheckpointFile(
                    "\(url.path) is missing, but the vault's audit log has \(size) entries: without it a database "
                        + "restored from an older copy would open unchecked. Put the note back (from a backup taken "
                        + "with the database), or, if you know the database is the latest, accept opening it once "
                        + "without the note with `healthvault audit accept-missing-checkpoint`, which records your "
                        + "decision in the log"
                )
            }
            return true
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .damagedCheckpointFile("\(url.path) cannot be read")
        }
        let signed: SignedCheckpoint
        do {
            signed = try SignedCheckpoint(text: String(decoding: data, as: UTF8.self))
            try signed.verify(with: verifierKey)
        } catch {
            throw .damagedCheckpointFile(
                "\(url.path) is not a checkpoint this vault signed (\(error)); it was altered or damaged"
            )
        }
        let checkpoint = signed.checkpoint
        let problem: String?
        do {
            problem = try database.read { db -> String? in
                let storage = DatabaseAuditStorage(db)
                let range = try storage.compactRange()
                guard range.size >= checkpoint.size else {
                    return "its audit log has \(range.size) entries, the checkpoint signed at lock \(checkpoint.size)"
                }
                let root =
                    range.size == checkpoint.size ? range.root : try Merkle.root(size: checkpoint.size, nodes: storage)
                guard root == checkpoint.rootHash else {
                    return "its audit log does not extend the one checkpointed at \(checkpoint.size) entries"
                }
                let counter = try changeCounter(db)
                guard counter >= checkpoint.storeChangeCounter else {
                    return "its change counter is \(counter), the checkpoint's \(checkpoint.storeChangeCounter)"
                }
                return nil
            }
        } catch {
            throw .damagedDatabase("the audit log in the database cannot be read: \(error)")
        }
        if let problem {
            throw .rolledBack(
                "the database is older than, or diverges from, the last checkpoint this vault signed (\(url.path)): "
                    + problem + ". It was restored from an older copy or replaced; restore the latest backup"
            )
        }
        return false
    }
}
