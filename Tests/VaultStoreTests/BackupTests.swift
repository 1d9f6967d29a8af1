import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultCrypto

@testable import VaultStore

/// Backups of an open vault (both ways of copying the database), their check, and restores: a
/// flipped byte is named and refused, an older backup over a newer vault is a rollback.
@Suite struct BackupTests {
    static let passphrase = SecureBytes(utf8: TestVault.passphrase)

    static func addSteps(_ vault: Vault, count: Int) throws {
        let store = SampleStore(database: try vault.db())
        _ = try store.save((0..<count).map { _ in .quantity(try Fixtures.quantity(.stepCount, 250)) })
    }

    /// A test vault with `steps` step samples, backed up into `b` in a scratch folder (`root`),
    /// which the caller removes.
    static func backedUpVault(steps: Int) throws -> (test: TestVault, vault: Vault, root: URL, backup: URL) {
        let test = try TestVault()
        let vault = try #require(test.vault)
        try addSteps(vault, count: steps)
        let root = scratch()
        let backup = root.appendingPathComponent("b")
        try vault.backup(to: backup)
        return (test, vault, root, backup)
    }

    static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hv-backup-\(UUID().uuidString)")
    }

    @Test(arguments: BackupMethod.allCases)
    func aBackupChecksWholeAndRestoresTheSameSamples(method: BackupMethod) throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        try Self.addSteps(vault, count: 500)
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        var reports: [BackupProgress] = []
        let manifest = try vault.backup(to: root.appendingPathComponent("b"), method: method) { reports.append($0) }
        #expect(manifest.method == method.rawValue)
        #expect(reports.last.map { $0.bytesCopied == $0.totalBytes } == true)
        let backup = root.appendingPathComponent("b")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: backup.path).sorted()
                == ["audit-checkpoint.note", "audit-key.pub", "backup.json", "keyring.json", "vault.db"]
        )
        for name in try FileManager.default.contentsOfDirectory(atPath: backup.path) {
            let mode = try FileManager.default.attributesOfItem(atPath: backup.appendingPathComponent(name).path)[
                .posixPermissions
            ]
            #expect(mode as? Int == 0o600, "\(name)")
        }
        let report = try Vault.check(backup, passphrase: Self.passphrase)
        #expect(report.isWhole, "\(report.problems)")
        #expect(report.isBackup && report.vaultID == vault.vaultID)
        // The backup recorded itself, in the live vault and in the copy.
        let entries = try vault.db().read { db in try vault.auditLog(in: db).newestEntries(limit: 10) { _ in true } }
        #expect(entries.contains { $0.operation == .backup && $0.actor == .owner && $0.outcome == .ok })

        let restoredDirectory = root.appendingPathComponent("restored")
        try Vault.restore(from: backup, to: restoredDirectory, passphrase: Self.passphrase)
        let restored = try Vault.open(at: restoredDirectory, passphrase: Self.passphrase)
        defer { restored.lock() }
        let count = try restored.db().read { try $0.scalarInt("SELECT count(*) FROM samples") }
        #expect(count == 500)
        let operations = try restored.db().read { db in
            try restored.auditLog(in: db).newestEntries(limit: 10) { _ in true }.map(\.operation.rawValue)
        }
        #expect(operations.contains("vault.backup") && operations.contains("vault.restore"), "\(operations)")
        #expect(try Vault.check(restoredDirectory, passphrase: Self.passphrase).isWhole)
    }

    /// Since schema 21 no index refuses a second row of a UUID: the check finds one written by
    /// anything but HealthVault's insert.
    @Test func aUUIDHeldByTwoSamplesIsAProblem() throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        try Self.addSteps(vault, count: 3)
        let before = try Vault.check(test.directory, passphrase: Self.passphrase)
        #expect(
            before.findings.contains { $0.status == .ok && $0.detail == "every UUID names one object" },
            "\(before.findings)"
        )
        try vault.db().write { db in
            try db.execute("UPDATE samples SET uuid = (SELECT uuid FROM samples ORDER BY id LIMIT 1)")
        }
        test.close()
        let report = try Vault.check(test.directory, passphrase: Self.passphrase)
        #expect(
            report.problems.contains {
                $0.subject == "vault.db" && $0.detail.contains("1 UUID is held by more than one")
            },
            "\(report.problems)"
        )
    }

    @Test func aFlippedByteIsNamedAndTheRestoreRefused() throws {
        let (test, vault, root, backup) = try Self.backedUpVault(steps: 2000)
        defer { try? FileManager.default.removeItem(at: root) }
        let database = backup.appendingPathComponent(Vault.databaseFileName)
        var bytes = try Data(contentsOf: database)
        // In the last page, written after the schema's: the middle page was at times one the open
        // reads (twice in full runs after schema 21 made the file smaller), and the check, which
        // cannot open past it, then names no page.
        bytes[bytes.count - 2048] ^= 0x01
        try bytes.write(to: database)
        let report = try Vault.check(backup, passphrase: Self.passphrase)
        #expect(!report.isWhole)
        #expect(report.problems.contains { $0.subject == "vault.db" && $0.detail.contains("SHA-256") })
        #expect(
            report.problems.contains { $0.subject == "vault.db" && $0.detail.contains("cipher_integrity_check") },
            "\(report.problems)"
        )
        let target = root.appendingPathComponent("restored")
        #expect {
            try Vault.restore(from: backup, to: target, passphrase: Self.passphrase)
        } throws: { error in
            guard case StoreError.damagedBackup(let message) = error else { return false }
            return message.contains("vault.db")
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    /// A flipped byte in a page of the schema, which the check's own open reads and cannot get
    /// past: the check still names the page, from a page check on a connection that is only keyed.
    @Test func aFlippedByteInASchemaPageTheOpenReadsIsNamedToo() throws {
        let (test, vault, root, backup) = try Self.backedUpVault(steps: 200)
        defer { try? FileManager.default.removeItem(at: root) }
        let database = backup.appendingPathComponent(Vault.databaseFileName)
        let (key, _) = try Keyring.read(from: backup).unwrap(passphrase: Self.passphrase)
        // The first page after page 1 (which fails as a wrong key, told apart) whose flipped byte
        // keeps the database from opening: one the open reads, a page of the schema.
        let original = try Data(contentsOf: database)
        var page: Int?
        for candidate in 2...(original.count / 4096) {
            var bytes = original
            bytes[(candidate - 1) * 4096 + 2048] ^= 0x01
            try bytes.write(to: database)
            if (try? Connection.standalone(path: database.path, key: key)) == nil {
                page = candidate
                break
            }
        }
        let damaged = try #require(page, "no page the open reads")
        let report = try Vault.check(backup, passphrase: Self.passphrase)
        #expect(!report.isWhole)
        #expect(
            report.problems.contains {
                $0.subject == "vault.db" && $0.detail.contains("cannot be opened")
                    && $0.detail.range(of: "page \(damaged)([^0-9]|$)", options: .regularExpression) != nil
                    && $0.detail.contains("cipher_integrity_check")
            },
            "\(report.problems)"
        )
    }

    @Test func theLatestBackupOverAVaultThatOnlyOpenedAndLockedSinceIsNoRollback() throws {
        let (test, vault, root, backup) = try Self.backedUpVault(steps: 10)
        defer { try? FileManager.default.removeItem(at: root) }
        // The vault's log goes on after the backup (its locking, an unlock, a lock again), but
        // nothing in it changes: restoring the backup loses no change, only those entries.
        test.close()
        try test.reopen()
        let sizeOpen = try #require(test.vault).db().read { db in
            try #require(test.vault).auditLog(in: db).size()
        }
        test.close()
        let replacedSize = sizeOpen + 1  // and the lock of that close
        // Checking the stopped vault, and weighing a restore over it, write nothing there: no
        // -wal or -shm made (so a vault on read-only media is checked too).
        func logFiles() -> [String] {
            ["vault.db-wal", "vault.db-shm"].filter {
                FileManager.default.fileExists(atPath: test.directory.appendingPathComponent($0).path)
            }
        }
        #expect(logFiles() == [])
        // Such a look keeps its temporary tables in memory, as every connection of the vault does.
        let key = try Keyring.read(from: test.directory).unwrap(passphrase: Self.passphrase).0
        defer { key.wipe() }
        let tempStore = try Connection.inspecting(
            path: test.directory.appendingPathComponent("vault.db").path,
            key: key
        ) {
            try $0.scalarInt("PRAGMA temp_store")
        }
        #expect(tempStore == 2)
        #expect(try Vault.check(test.directory, passphrase: Self.passphrase).isWhole)
        #expect(throws: StoreError.self) {
            try Vault.restore(from: backup, to: test.directory, passphrase: Self.passphrase) { _ in false }
        }
        #expect(logFiles() == [])
        let plan = try Vault.restore(from: backup, to: test.directory, passphrase: Self.passphrase)
        #expect(!plan.isRollback && plan.dropsLogEntries)
        guard case .replaces(_, nil, let unkept?) = plan.targetState else {
            Issue.record("\(plan.targetState)")
            return
        }
        #expect(unkept.contains("none of which changed it") && unkept.contains("vault.lock"), "\(unkept)")
        try test.reopen()
        let reopened = try #require(test.vault)
        #expect(try reopened.db().read { try $0.scalarInt("SELECT count(*) FROM samples") } == 10)
        let entries = try reopened.db().read { db in
            try reopened.auditLog(in: db).newestEntries(limit: 10) { _ in true }
        }
        // On the record all the same: the replaced log's size, just before the restore.
        let older = try #require(entries.first { $0.operation == .restoreOlder })
        #expect(older.actor == .owner && older.objectCount == replacedSize)
    }

    @Test func aBackupsWiderModesDoNotStopARestoreButItsAlteredManifestDoes() throws {
        let (test, vault, root, backup) = try Self.backedUpVault(steps: 10)
        defer { try? FileManager.default.removeItem(at: root) }
        test.close()
        // As a FAT-formatted stick shows them: every file writable by all.
        for name in ["keyring.json", "vault.db", "backup.json"] {
            chmod(backup.appendingPathComponent(name).path, 0o666)
        }
        let report = try Vault.check(backup, passphrase: Self.passphrase)
        #expect(!report.isWhole && report.problems.allSatisfy(\.isPermission), "\(report.problems)")
        let restored = root.appendingPathComponent("restored")
        try Vault.restore(from: backup, to: restored, passphrase: Self.passphrase)
        let mode = try FileManager.default.attributesOfItem(
            atPath: restored.appendingPathComponent("keyring.json").path
        )[
            .posixPermissions
        ]
        #expect(mode as? Int == 0o600)
        // backup.json's own fields are checked against the note and the methods there are.
        let manifestURL = backup.appendingPathComponent("backup.json")
        let original = try Data(contentsOf: manifestURL)
        for (field, value) in [("checkpointSize", 99 as Any), ("method", "bogus")] {
            var manifest = try #require(JSONSerialization.jsonObject(with: original) as? [String: Any])
            manifest[field] = value
            try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
            let altered = try Vault.check(backup, passphrase: Self.passphrase)
            #expect(
                altered.problems.contains { $0.subject == "backup.json" && $0.detail.contains("it was altered") },
                "\(field): \(altered.problems)"
            )
            #expect(throws: StoreError.self) {
                try Vault.restore(
                    from: backup,
                    to: root.appendingPathComponent("r-\(field)"),
                    passphrase: Self.passphrase
                )
            }
        }
    }

    @Test func whatChangesNothingABackupHolds() {
        func entry(_ operation: AuditEntry.Operation, _ outcome: AuditEntry.Outcome = .ok) -> AuditEntry {
            AuditEntry(time: Date(), actor: .owner, operation: operation, outcome: outcome)
        }
        for operation: AuditEntry.Operation in [
            .querySample, .lock, .unlock, .backup, .export, .sessionOpen, .sessionClose, .restore, .restoreOlder,
        ] {
            #expect(Vault.changesNothingRestored(entry(operation)), "\(operation)")
        }
        for operation: AuditEntry.Operation in [
            .save, .delete, .authorizationGrantRead, .settingsSet, .passphraseChange, .import, .openWithoutCheckpoint,
        ] {
            #expect(!Vault.changesNothingRestored(entry(operation)), "\(operation)")
        }
        #expect(Vault.changesNothingRestored(entry(.save, .denied)))
    }

    @Test func anOlderBackupOverANewerVaultIsARollbackRefusedUnlessInsistedOn() throws {
        let (test, vault, root, backup) = try Self.backedUpVault(steps: 10)
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.addSteps(vault, count: 10)
        test.close()
        #expect {
            try Vault.restore(from: backup, to: test.directory, passphrase: Self.passphrase)
        } throws: { error in
            guard case StoreError.rollbackRefused = error else { return false }
            return true
        }
        try Vault.restore(from: backup, to: test.directory, passphrase: Self.passphrase, allowingRollback: true)
        try test.reopen()
        let reopened = try #require(test.vault)
        let count = try reopened.db().read { try $0.scalarInt("SELECT count(*) FROM samples") }
        #expect(count == 10)
        let entries = try reopened.db().read { db in
            try reopened.auditLog(in: db).newestEntries(limit: 10) { _ in true }
        }
        #expect(entries.contains { $0.operation == .restoreOlder && $0.actor == .owner && $0.objectCount > 0 })
        // A newer backup over an older copy of the vault is no rollback: its log extends the copy's.
        test.close()
        let older = root.appendingPathComponent("older")
        try FileManager.default.copyItem(at: test.directory, to: older)
        try test.reopen()
        let newer = try #require(test.vault)
        try Self.addSteps(newer, count: 5)
        let again = root.appendingPathComponent("again")
        try newer.backup(to: again)
        test.close()
        try Vault.restore(from: again, to: older, passphrase: Self.passphrase)
        let restored = try Vault.open(at: older, passphrase: Self.passphrase)
        defer { restored.lock() }
        #expect(try restored.db().read { try $0.scalarInt("SELECT count(*) FROM samples") } == 15)
    }
    @Test(arguments: BackupMethod.allCases)
    func writesGoOnDuringABackupAndItHoldsOneConsistentSnapshot(method: BackupMethod) throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        try Self.addSteps(vault, count: 20_000)
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let writing = Thread {
            for _ in 0..<40 { try? Self.addSteps(vault, count: 200) }
        }
        writing.start()
        var saved: [Int64] = []
        for index in 0..<4 {
            try vault.backup(to: root.appendingPathComponent("b\(index)"), method: method)
            saved.append(try vault.db().read { try $0.scalarInt("SELECT count(*) FROM samples") } ?? 0)
        }
        while writing.isExecuting { usleep(10_000) }
        for index in 0..<4 {
            let backup = root.appendingPathComponent("b\(index)")
            let report = try Vault.check(backup, passphrase: Self.passphrase)
            #expect(report.isWhole, "\(report.problems)")
            let restored = root.appendingPathComponent("r\(index)")
            try Vault.restore(from: backup, to: restored, passphrase: Self.passphrase)
            let opened = try Vault.open(at: restored, passphrase: Self.passphrase)
            let count = try opened.db().read { try $0.scalarInt("SELECT count(*) FROM samples") } ?? 0
            opened.lock()
            // Whole batches only, and never more than the vault held just after the backup.
            #expect(count % 200 == 0 && count >= 20_000 && count <= saved[index])
        }
    }
    /// What makes a backup deduplicate: SQLite's online backup writes every page afresh (SQLCipher
    /// encrypts each with a new IV), so two backups of the same data share no page's bytes; the
    /// file image keeps every page the vault did not rewrite.
    @Test func onlyTheFileImageKeepsUnchangedPagesByteForByte() throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        try Self.addSteps(vault, count: 5_000)
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        func pages(_ name: String) throws -> [Data] {
            let data = try Data(contentsOf: root.appendingPathComponent(name).appendingPathComponent("vault.db"))
            return stride(from: 0, to: data.count, by: 4096).map { data.subdata(in: $0..<min($0 + 4096, data.count)) }
        }
        func shared(_ a: [Data], _ b: [Data]) -> Int { zip(a, b).filter { $0 == $1 }.count }
        for (index, method) in [BackupMethod.onlineBackup, .onlineBackup, .fileImage, .fileImage].enumerated() {
            try vault.backup(to: root.appendingPathComponent("\(index)"), method: method)
        }
        let online = (try pages("0"), try pages("1"))
        #expect(shared(online.0, online.1) == 0)
        let image = (try pages("2"), try pages("3"))
        // Each backup appends its entry and checkpoint: a handful of pages change, page 1 among them.
        #expect(
            image.1.count - shared(image.0, image.1) < 16,
            "\(image.1.count) pages, \(shared(image.0, image.1)) shared"
        )
    }
}
