import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultCrypto

@testable import VaultStore

/// The audit log kept in the vault's database: appended in the access's own transaction,
/// append-only, the same tree as the reference log, checkpointed on lock and export, and a check
/// at open that catches a database rolled back behind its last checkpoint.
@Suite(.serialized)
struct VaultAuditTests {
    func entry(_ operation: AuditEntry.Operation, app: String = "org.example.steps", count: UInt64 = 1) -> AuditEntry {
        AuditEntry(
            time: Date(timeIntervalSince1970: 1_790_000_000),
            actor: .app(app),
            operation: operation,
            types: ["HKQuantityTypeIdentifierStepCount"],
            objectCount: count,
            outcome: .ok,
            requestID: UUID().uuidString
        )
    }

    func steps() throws -> Sample { .quantity(try Fixtures.quantity(.stepCount, 100)) }

    struct Abort: Error {}

    @Test func anEntryCommitsWithItsAccessOrNotAtAll() throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        let store = try test.store
        let committed = [try steps(), try steps()]
        try vault.db().write { db in
            try store.save(committed, in: db)
            try vault.auditLog(in: db).append(entry(.save, count: 2))
        }
        // The access fails after its entry was appended: neither stays.
        let lost = try steps()
        #expect(throws: Abort.self) {
            try vault.db().write { db in
                try store.save([lost], in: db)
                try vault.auditLog(in: db).append(entry(.save))
                throw Abort()
            }
        }
        // The entry cannot be written (an operation name that is not one): the save goes too.
        #expect(throws: AuditLogError.self) {
            try vault.db().write { db in
                try store.save([lost], in: db)
                try vault.auditLog(in: db).append(entry(AuditEntry.Operation(rawValue: "not an operation")))
            }
        }
        #expect(try store.sample(uuid: lost.uuid, scope: .owner) == nil)
        for sample in committed {
            #expect(try store.sample(uuid: sample.uuid, scope: .owner) == sample)
        }
        let entries = try vault.db().read { try vault.auditLog(in: $0).entries() }
        #expect(entries.map(\.operation) == [.save])
        #expect(entries.map(\.objectCount) == [2])
        // The store's caches were dropped with the rolled-back transaction: saving works on.
        try store.save([lost])
        #expect(try store.sample(uuid: lost.uuid, scope: .owner) == lost)
    }

    @Test func theStoredTreeIsTheReferenceTreeAtEverySizeAndSurvivesReopening() throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        let reference = AuditLog(storage: MemoryAuditStorage(), verifierKey: vault.verifierKey)
        var rng = Xoshiro(seed: (9, 8, 7, 6))
        var roots: [MerkleHash] = []
        for index in 0..<150 {
            let next = entry(
                [.save, .querySample, .delete, .authorizationGrant][Int(rng.next() % 4)],
                app: "org.example.app\(rng.next() % 5)",
                count: rng.next() % 1000
            )
            // Some entries alone, some several to a transaction.
            let batch = index % 3 == 0 ? 1 : Int(rng.next() % 3) + 1
            try vault.db().write { db in
                for _ in 0..<batch { try vault.auditLog(in: db).append(next) }
            }
            for _ in 0..<batch {
                try reference.append(next)
                roots.append(try reference.rootHash())
            }
        }
        try test.reopen()
        let reopened = try #require(test.vault)
        // Closing recorded the lock, opening the unlock: the reference takes the same entries.
        let recorded = try reopened.db().read { try reopened.auditLog(in: $0).entries(from: UInt64(roots.count)) }
        #expect(recorded.map(\.operation) == [.lock, .unlock])
        #expect(recorded.map(\.actor) == [.system, .system])
        for entry in recorded {
            try reference.append(entry)
            roots.append(try reference.rootHash())
        }
        try reopened.db().read { db in
            let log = reopened.auditLog(in: db)
            let storage = log.storage
            #expect(try log.size() == UInt64(roots.count))
            #expect(try log.rootHash() == roots.last)
            #expect(try log.entries().map { try $0.encoded() } == reference.entries().map { try $0.encoded() })
            for size in stride(from: 1, through: roots.count, by: 7) {
                #expect(try Merkle.root(size: UInt64(size), nodes: storage) == roots[size - 1])
                let proof = try Merkle.consistencyProof(size1: UInt64(size), size2: UInt64(roots.count), nodes: storage)
                try Merkle.verifyConsistency(
                    size1: UInt64(size),
                    size2: UInt64(roots.count),
                    proof: proof,
                    root1: roots[size - 1],
                    root2: roots.last!
                )
                let leaf = Merkle.leafHash(try storage.entry(at: UInt64(size - 1)))
                let inclusion = try Merkle.inclusionProof(
                    index: UInt64(size - 1),
                    size: UInt64(roots.count),
                    nodes: storage
                )
                try Merkle.verifyInclusion(
                    index: UInt64(size - 1),
                    size: UInt64(roots.count),
                    leafHash: leaf,
                    proof: inclusion,
                    root: roots.last!
                )
            }
        }
    }

    @Test func theStoredLogIsAppendOnly() throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        try vault.db().write { try vault.auditLog(in: $0).append(entry(.save)) }
        try vault.signAuditCheckpoint()
        for sql in [
            "UPDATE audit_entries SET entry = x'00'",
            "DELETE FROM audit_entries",
            "UPDATE audit_nodes SET hash = x'00'",
            "DELETE FROM audit_nodes",
            "DELETE FROM audit_checkpoints",
            "UPDATE audit_checkpoints SET note = ''",
        ] {
            #expect(throws: DatabaseError.self, "\(sql)") {
                try vault.db().write { try $0.execute(sql) }
            }
        }
        #expect(try vault.db().read { try vault.auditLog(in: $0).size() } == 1)
    }

    @Test func lockAndExportSignCheckpointsThatAnAuditorVerifies() throws {
        let test = try TestVault()
        var vault = try #require(test.vault)
        let store = try test.store
        for round in 0..<3 {
            try vault.db().write { db in
                try store.save([try steps()], in: db)
                try vault.auditLog(in: db).append(entry(.save))
            }
            if round < 2 { try test.reopen() }  // lock signs a checkpoint; open checks against it
            vault = try #require(test.vault)
        }
        let exportURL = test.directory.appendingPathExtension("export")
        defer { try? FileManager.default.removeItem(at: exportURL) }
        let signed = try vault.exportAuditLog(to: exportURL)
        // Each lock, open and the export recorded themselves: save, lock, unlock, save, lock,
        // unlock, save, export.
        #expect(signed.checkpoint.size == 8)
        #expect(signed.checkpoint.storeChangeCounter == 3)
        let operations = try vault.db().read { try vault.auditLog(in: $0).entries().map(\.operation) }
        #expect(operations == [.save, .lock, .unlock, .save, .lock, .unlock, .save, .auditExport])
        // Checkpoints at sizes 2 and 5 (the locks) and 8 (the export).
        let keyLine = try String(contentsOf: test.directory.appendingPathComponent("audit-key.pub"), encoding: .utf8)
        let trusted = try VerifierKey(line: keyLine.trimmingCharacters(in: .newlines))
        let report = AuditVerifier.verify(directory: exportURL, trustedKey: trusted)
        #expect(report.verdict == .verified, "\(report.summary)")
        #expect(report.entryCount == 8)
        #expect(report.warnings.isEmpty)
        let (export, _) = try AuditExport.read(from: exportURL)
        #expect(export.checkpoints.count == 3)
        // leaves.bin holds the leaf hashes as the vault stored them.
        let stored = try vault.db().read { db in
            try (0..<8).map { try DatabaseAuditStorage(db).node(level: 0, index: UInt64($0)) }
        }
        #expect(export.leafHashes == stored)
        // The note beside the database is the latest checkpoint.
        let note = try String(
            contentsOf: test.directory.appendingPathComponent("audit-checkpoint.note"),
            encoding: .utf8
        )
        #expect(note == signed.text)

        // An auditor who kept the first export's checkpoint verifies a later export against it.
        try vault.db().write { db in try vault.auditLog(in: db).append(entry(.querySample)) }
        let later = test.directory.appendingPathExtension("export2")
        defer { try? FileManager.default.removeItem(at: later) }
        try vault.exportAuditLog(to: later)
        let again = AuditVerifier.verify(directory: later, trustedKey: trusted, previousCheckpoint: signed.text)
        #expect(again.verdict == .verified, "\(again.summary)")
        #expect(again.entryCount == 10)
    }

    @Test func theVaultNeverSignsTwoCheckpointsThatContradictEachOther() throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        try vault.db().write { try vault.auditLog(in: $0).append(entry(.save)) }
        let first = try vault.signAuditCheckpoint()
        // Nothing changed: the same checkpoint, not a second one.
        #expect(try vault.signAuditCheckpoint() == first)
        // The store changed but the log did not: a second checkpoint at the same size would
        // contradict the first, so it is refused, and the note stays the first.
        try test.store.setCharacteristic(.bloodType(.oPositive))
        #expect(throws: AuditLogError.self) { try vault.signAuditCheckpoint() }
        let note = try String(
            contentsOf: test.directory.appendingPathComponent("audit-checkpoint.note"),
            encoding: .utf8
        )
        #expect(note == first.text)
        // Recorded, it is signable.
        let second = try vault.signAuditCheckpoint(recording: entry(.save))
        #expect(second.checkpoint.size == 2)
    }

    @Test func changesTheLogDidNotRecordNeverLeaveTheVaultUnopenable() throws {
        // Until the engine records every access, a change can reach the store with no entry (a
        // characteristic changes the state digest but not the counter). The lock records itself,
        // so its checkpoint is always signable and the note always current.
        let test = try TestVault()
        for value in [BloodType.oNegative, .aPositive, .bNegative] {
            try test.store.setCharacteristic(.bloodType(value))
            test.close()
            try test.reopen()
        }
        #expect(try test.store.characteristic(.bloodType) == .bloodType(.bNegative))
        // And a crash after such a change, before any lock (a copy of the running vault).
        try test.store.setCharacteristic(.bloodType(.abPositive))
        let crashed = try TestVault(create: false)
        try FileManager.default.copyItem(at: test.directory, to: crashed.directory)
        try crashed.reopen()
        #expect(try crashed.store.characteristic(.bloodType) == .bloodType(.abPositive))
    }

    @Test func aDatabaseRolledBackBehindItsLastCheckpointIsRefused() throws {
        let test = try TestVault()
        let store = try test.store
        try test.vault!.db().write { db in
            try store.save([try steps()], in: db)
            try test.vault!.auditLog(in: db).append(entry(.save))
        }
        test.close()
        let older = try test.files()
        try test.reopen()
        try test.vault!.db().write { db in
            try test.store.save([try steps()], in: db)
            try test.vault!.auditLog(in: db).append(entry(.save))
        }
        test.close()
        let newer = try test.files()
        let note = try #require(newer.first { $0.0 == "audit-checkpoint.note" }?.1)

        // The database restored from the older copy, the latest checkpoint kept.
        let database = try #require(older.first { $0.0 == "vault.db" }?.1)
        try database.write(to: test.databaseURL)
        try test.expectOpenFails(with: "rolledBack", containing: "older")

        // Its own older checkpoint beside it opens (the owner restored a whole backup).
        try #require(older.first { $0.0 == "audit-checkpoint.note" }?.1).write(
            to: test.directory.appendingPathComponent("audit-checkpoint.note")
        )
        try test.reopen()
        test.close()

        // A checkpoint note that does not verify (altered, or another vault's) is its own error.
        var lines = String(decoding: note, as: UTF8.self).components(separatedBy: "\n")
        lines[1] = String(try #require(Int(lines[1])) - 1)  // the signed size
        let altered = lines.joined(separator: "\n")
        try Data(altered.utf8).write(to: test.directory.appendingPathComponent("audit-checkpoint.note"))
        try test.expectOpenFails(with: "damagedCheckpointFile")
        let other = try TestVault()
        other.close()
        try Data(contentsOf: other.directory.appendingPathComponent("audit-checkpoint.note")).write(
            to: test.directory.appendingPathComponent("audit-checkpoint.note")
        )
        try test.expectOpenFails(with: "damagedCheckpointFile")
    }
}

extension VaultAuditTests {
    /// The entries of the vault's log, decoded, oldest first.
    func entries(_ vault: Vault) throws -> [AuditEntry] {
        try vault.db().read { db in
            let log = vault.auditLog(in: db)
            return try (0..<log.size()).map { try AuditEntry(decoding: log.storage.entry(at: $0)) }
        }
    }

    @Test func openingTheVaultRecordsVaultUnlockWithWhoOpenedItAndNoSecret() throws {
        let test = try TestVault()
        test.close()
        try test.reopen()
        var last = try #require(try entries(test.vault!).last)
        #expect(last.operation == .unlock && last.actor == .system && last.outcome == .ok)
        #expect(last.types.isEmpty && last.objectCount == 0 && last.requestID.isEmpty)
        test.close()
        let owner = try Vault.open(at: test.directory, passphrase: SecureBytes(utf8: TestVault.passphrase), by: .owner)
        defer { owner.lock() }
        last = try #require(try entries(owner).last)
        #expect(last.operation == .unlock && last.actor == .owner)
        // Closed and opened twice: lock, unlock, lock, unlock after the create.
        #expect(try entries(owner).map(\.operation) == [.lock, .unlock, .lock, .unlock])
    }

    @Test func aVaultWhoseLogHasEntriesAndNoCheckpointNoteOpensOnlyOnTheOwnersRecordedDecision() throws {
        let test = try TestVault()
        try test.store.save([try steps()])
        test.close()
        let older = try test.files()
        try test.reopen()
        try test.store.save([try steps()])
        test.close()
        // The older database restored and the note deleted: the rollback check has nothing to
        // check against, so the vault does not open, and nothing is changed.
        try #require(older.first { $0.0 == "vault.db" }?.1).write(to: test.databaseURL)
        let note = test.directory.appendingPathComponent("audit-checkpoint.note")
        try FileManager.default.removeItem(at: note)
        try test.expectOpenFails(with: "missingCheckpointFile", containing: "accept-missing-checkpoint")
        #expect(!FileManager.default.fileExists(atPath: note.path))
        // The owner's explicit decision opens it, on the record, and signs a new note at once.
        let opened = try Vault.open(
            at: test.directory,
            passphrase: SecureBytes(utf8: TestVault.passphrase),
            by: .owner,
            acceptingMissingCheckpoint: true
        )
        let recorded = try entries(opened).suffix(2)
        #expect(recorded.map(\.operation) == [.openWithoutCheckpoint, .unlock], "\(recorded)")
        #expect(recorded.first?.actor == .owner)
        #expect(FileManager.default.fileExists(atPath: note.path))
        opened.lock()
        try test.reopen()
        // A vault never locked nor exported (an empty log) has no note yet, and opens.
        let fresh = try TestVault()
        let copy = try TestVault(create: false)
        try FileManager.default.copyItem(at: fresh.directory, to: copy.directory)
        #expect(
            !FileManager.default.fileExists(atPath: copy.directory.appendingPathComponent(note.lastPathComponent).path)
        )
        try copy.reopen()
    }

    @Test func anExportRefusedForAnExistingDirectoryIsRecordedAsAnError() throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        let existing = test.directory.appendingPathExtension("export")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: existing) }
        let before = try vault.db().read { try vault.auditLog(in: $0).storage.checkpoints().count }
        #expect(throws: AuditLogError.self) { try vault.exportAuditLog(to: existing) }
        let last = try #require(try entries(vault).last)
        #expect(last.operation == .auditExport && last.outcome == .error && last.actor == .owner)
        // Nothing was signed for it.
        #expect(try vault.db().read { try vault.auditLog(in: $0).storage.checkpoints().count } == before)
    }
}
