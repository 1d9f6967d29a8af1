import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultCrypto

@testable import VaultStore

/// The vault directory: keys, passphrases, permissions, damage, and what is on disk.
@Suite(.serialized)
struct VaultTests {
    func steps(_ value: Double = 1200, metadata: Metadata = [:]) throws -> Sample {
        .quantity(try Fixtures.quantity(.stepCount, value, metadata: metadata))
    }

    @Test func createdVaultReopensWithItsPassphraseAndKeepsItsData() throws {
        let test = try TestVault()
        let sample = try steps()
        try test.store.save([sample])
        try test.reopen()
        #expect(try test.store.sample(uuid: sample.uuid, scope: .owner) == sample)
    }

    @Test func wrongPassphraseIsOneClearError() throws {
        let test = try TestVault()
        try test.store.save([try steps()])
        test.close()
        #expect(storeError { try test.reopen(passphrase: "wrong horse") } == "wrongPassphrase")
        #expect(StoreError.wrongPassphrase.description == "wrong passphrase")
        try test.reopen()
        #expect(
            try test.store.samples(
                matching: SampleQueryDescriptor(predicates: [.quantitySample(type: .stepCount)]),
                scope: .owner
            ).count == 1
        )
    }

    @Test func directoryIs0700AndEveryFile0600() throws {
        let test = try TestVault()
        try test.store.save([try steps()])
        let mode = { (path: String) -> Int in
            ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1) ?? -1
        }
        #expect(mode(test.directory.path) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: test.directory.path)
        #expect(
            Set(names).isSuperset(of: ["keyring.json", "audit-key.pub", "vault.db", "vault.db-wal", "vault.db-shm"])
        )
        for name in names {
            #expect(mode(test.directory.appendingPathComponent(name).path) == 0o600, "\(name)")
        }
    }

    @Test func changingThePassphraseRewrapsKeysWithoutReencryptingTheDatabase() throws {
        let test = try TestVault()
        let sample = try steps()
        try test.store.save([sample])
        test.close()
        try test.reopen()
        // The database files and key, before and after: untouched (closing would write the lock's
        // audit entry, so they are compared while open).
        func database() throws -> [Data] {
            try test.files().filter { $0.0.hasPrefix("vault.db") && !$0.0.hasSuffix("-shm") }.map(\.1)
        }
        let before = try database()
        let keyBefore = try test.rawDatabaseKeyHex()
        try test.vault!.changePassphrase(
            from: SecureBytes(utf8: TestVault.passphrase),
            to: SecureBytes(utf8: "new passphrase"),
            parameters: .minimumForTesting
        )
        #expect(try database() == before)
        test.close()
        #expect(try test.rawDatabaseKeyHex(passphrase: "new passphrase") == keyBefore)
        #expect(storeError { try test.reopen() } == "wrongPassphrase")
        try test.reopen(passphrase: "new passphrase")
        #expect(try test.store.sample(uuid: sample.uuid, scope: .owner) == sample)
        // The old passphrase cannot change it back.
        let changeBack = storeError {
            try test.vault!.changePassphrase(
                from: SecureBytes(utf8: TestVault.passphrase),
                to: SecureBytes(utf8: "x"),
                parameters: .minimumForTesting
            )
        }
        #expect(changeBack == "wrongPassphrase")
    }

    @Test func aPassphraseChangeCutShortLeavesTheOldPassphraseWorking() throws {
        let test = try TestVault()
        let keyring = try Keyring.read(from: test.directory)
        let (databaseKey, signingKey) = try keyring.unwrap(passphrase: SecureBytes(utf8: TestVault.passphrase))
        let rewrapped = try Keyring.make(
            vaultID: keyring.vaultID,
            databaseKey: databaseKey,
            signingKey: signingKey,
            passphrase: SecureBytes(utf8: "new passphrase"),
            parameters: .minimumForTesting
        )
        test.close()
        // A crash after the new key file was written beside the old one, before the rename:
        let encoder = JSONEncoder()
        try encoder.encode(rewrapped).write(to: test.directory.appendingPathComponent("keyring.json.tmp"))
        try test.reopen()
        test.close()
        // And after the rename, the new one works.
        try rewrapped.write(to: test.directory)
        try test.reopen(passphrase: "new passphrase")
    }

    @Test func lockWipesTheKeysAndClosesTheDatabase() throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        let database = try vault.db()
        let signingKey = try vault.auditSigningKey()
        vault.lock()
        #expect(vault.isLocked)
        #expect(signingKey.secretKey.withUnsafeBytes { $0.allSatisfy { $0 == 0 } })
        #expect(storeError { _ = try vault.db() } == "locked")
        #expect(storeError { _ = try vault.auditSigningKey() } == "locked")
        #expect(storeError { _ = try database.read { _ in 1 } } == "locked")
    }

    @Test func importIdentitiesAreTheVaultsOwnAndSurviveAReopen() throws {
        let test = try TestVault()
        let content = Array("HKQuantityTypeIdentifierBodyMass|Ana's iPhone|70.2|kg|2026-03-03".utf8)
        let first = try test.vault!.importIdentifier().uuid(for: content)
        #expect(first == (try test.vault!.importIdentifier().uuid(for: content)))
        #expect(first != (try test.vault!.importIdentifier().uuid(for: content + [0x20])))
        // Version 8 (custom), RFC variant.
        #expect(first.uuid.6 >> 4 == 8 && first.uuid.8 >> 6 == 2)
        try test.reopen()
        #expect(first == (try test.vault!.importIdentifier().uuid(for: content)))
        // Another vault names the same content otherwise: nobody without this vault's key can.
        let other = try TestVault()
        #expect(first != (try other.vault!.importIdentifier().uuid(for: content)))
        test.vault!.lock()
        #expect(storeError { _ = try test.vault!.importIdentifier() } == "locked")
    }

    @Test func auditPublicKeyIsWrittenInTheClearAsAVerifierKey() throws {
        let test = try TestVault()
        let text = try String(
            contentsOf: test.directory.appendingPathComponent(Vault.auditPublicKeyFileName),
            encoding: .utf8
        )
        let parts = text.trimmingCharacters(in: .newlines).split(separator: "+", maxSplits: 2)
        #expect(parts.count == 3)
        #expect(parts[0] == "healthvault/\(test.vault!.vaultID.uuidString.lowercased())")
        let keyBytes = try #require(Data(base64Encoded: String(parts[2])))
        #expect(Array(keyBytes) == [0x01] + test.vault!.auditPublicKey.rawRepresentation)
        let signature = try test.vault!.auditSigningKey().signature(for: Array("hello".utf8))
        #expect(test.vault!.auditPublicKey.isValidSignature(signature, for: Array("hello".utf8)))
    }

    @Test func nothingIsStoredInPlaintext() throws {
        let test = try TestVault()
        let markers = ["MARKER-SOURCE-NAME-7f3a", "MARKER-METADATA-19bc", "MARKER-DEVICE-42de", "MARKER-KEY-88aa"]
        let sample = Sample.quantity(
            try QuantitySample(
                type: .heartRate,
                quantity: Quantity(61, .countPerMinute),
                start: Fixtures.start,
                end: Fixtures.start,
                sourceRevision: SourceRevision(
                    source: Source(bundleIdentifier: "org.example.marker", name: markers[0])
                ),
                device: Device(name: markers[2]),
                metadata: [MetadataKey(markers[3]): .string(markers[1])]
            )
        )
        try test.store.save([sample])
        try test.store.save((0..<200).map { _ in try steps(metadata: ["org.example.note": .string(markers[1])]) })
        try test.store.setCharacteristic(.bloodType(.abNegative))
        // Before and after closing: the -wal and -shm files must be clean too.
        for phase in ["open", "closed"] {
            for (name, data) in try test.files() {
                for marker in markers + ["HKQuantityTypeIdentifierHeartRate", "CREATE TABLE", "SQLite format 3"] {
                    #expect(data.range(of: Data(marker.utf8)) == nil, "\(marker) in \(name) (\(phase))")
                }
            }
            test.close()
        }
    }

    @Test func theSqlcipherShellReadsTheDatabaseOnlyWithTheRawKey() throws {
        guard let shell = which("sqlcipher") else {
            Issue.record("Debian's sqlcipher shell is not installed; run make deps")
            return
        }
        let test = try TestVault()
        try test.store.save([try steps(), try steps()])
        let key = try test.rawDatabaseKeyHex()
        test.close()
        let (_, withoutKey) = try run(shell, [test.databaseURL.path], input: "SELECT count(*) FROM samples;\n")
        #expect(withoutKey.contains("file is not a database"), "\(withoutKey)")
        let (status, withKey) = try run(
            shell,
            [test.databaseURL.path],
            input: "PRAGMA key = \"x'\(key)'\";\nSELECT count(*) FROM samples;\nPRAGMA cipher_version;\n"
        )
        #expect(status == 0)
        #expect(withKey.split(separator: "\n").contains("2"), "\(withKey)")
        #expect(withKey.contains("4."))
        let (_, wrongKey) = try run(
            shell,
            [test.databaseURL.path],
            input: "PRAGMA key = \"x'\(String(repeating: "0", count: 64))'\";\nSELECT count(*) FROM samples;\n"
        )
        #expect(wrongKey.contains("file is not a database"))
    }

    @Test func damageGivesItsOwnClearErrorAndLosesNothing() throws {
        let test = try TestVault()
        let samples = try (0..<50).map { _ in try steps() }
        try test.store.save(samples)
        test.close()
        let original = try Data(contentsOf: test.databaseURL)
        let keyringURL = test.directory.appendingPathComponent("keyring.json")
        let keyring = try Data(contentsOf: keyringURL)

        // Missing key file.
        try FileManager.default.moveItem(at: keyringURL, to: test.directory.appendingPathComponent("keyring.moved"))
        try test.expectOpenFails(with: "missingKeyFile")
        try FileManager.default.moveItem(at: test.directory.appendingPathComponent("keyring.moved"), to: keyringURL)

        // Damaged key file: not one at all, or one flipped byte in a wrapped key.
        try Data("{\"format\": 1}".utf8).write(to: keyringURL)
        try test.expectOpenFails(with: "damagedKeyFile")
        var keyringText = String(decoding: keyring, as: UTF8.self)
        let ciphertext = try #require(keyringText.range(of: "\"ciphertext\" : \""))
        let target = try #require(
            keyringText[keyringText.index(ciphertext.upperBound, offsetBy: 10)...].firstIndex { $0.isLetter }
        )
        keyringText.replaceSubrange(target...target, with: keyringText[target] == "A" ? "B" : "A")
        try Data(keyringText.utf8).write(to: keyringURL)
        try test.expectOpenFails(with: "damagedKeyFile", containing: "checksum")
        try keyring.write(to: keyringURL)

        // A wrong passphrase on the intact files is still a wrong passphrase.
        let before = try test.files()
        #expect(storeError { try test.reopen(passphrase: "not it") } == "wrongPassphrase")
        #expect(try test.files().map(\.1) == before.map(\.1))

        // Truncated database: a partial page, or a whole page missing.
        try original.prefix(original.count - 1000).write(to: test.databaseURL)
        try test.expectOpenFails(with: "damagedDatabase")
        try original.prefix(original.count - 4096).write(to: test.databaseURL)
        try test.expectOpenFails(with: "damagedDatabase")

        // One flipped byte in a page: the first page (which holds the header), or another.
        for offset in [100, 4096 + 1500, original.count - 2000] {
            var flipped = original
            flipped[offset] ^= 0x20
            try flipped.write(to: test.databaseURL)
            try test.expectOpenFails(with: "damagedDatabase")
        }

        // Restored, everything is there.
        try original.write(to: test.databaseURL)
        try test.reopen()
        for sample in samples {
            #expect(try test.store.sample(uuid: sample.uuid, scope: .owner) == sample)
        }
    }

    @Test func aFailedOpenOfADamagedCopyWithItsWALChangesNoFile() throws {
        // A vault copied while open (or left by a crash) has its -wal and -shm beside it.
        let test = try TestVault()
        try test.store.save(try (0..<20).map { _ in try steps() })
        let copy = try TestVault(create: false)
        try FileManager.default.copyItem(at: test.directory, to: copy.directory)
        test.close()
        #expect(FileManager.default.fileExists(atPath: copy.databaseURL.path + "-wal"))
        var damaged = try Data(contentsOf: copy.databaseURL)
        damaged[4096 + 700] ^= 0x01
        try damaged.write(to: copy.databaseURL)
        try copy.expectOpenFails(with: "damagedDatabase")
    }

    @Test func creatingOverAnExistingVaultIsRefused() throws {
        let test = try TestVault()
        let overwrite = storeError {
            _ = try Vault.create(at: test.directory, passphrase: SecureBytes(utf8: "x"), parameters: .minimumForTesting)
        }
        #expect(overwrite == "vaultExists")
        let missing = storeError {
            _ = try Vault.open(at: test.directory.appendingPathComponent("nope"), passphrase: SecureBytes(utf8: "x"))
        }
        #expect(missing == "notAVault")
    }

    @Test func everyConnectionSettingIsReadBack() throws {
        let test = try TestVault()
        let database = try test.vault!.db()
        try database.read { db throws in
            #expect(try db.scalarText("PRAGMA journal_mode") == "wal")
            #expect(try db.scalarInt("PRAGMA synchronous") == 2)
            #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)
            #expect(try db.scalarInt("PRAGMA secure_delete") == 1)
            #expect(try db.scalarInt("PRAGMA temp_store") == 2)
            #expect(try db.cipherVersion().hasPrefix("4."))
        }
    }

    @Test func oldSQLCipherAndPlainSQLiteAreRecognized() {
        #expect(Connection.isSupported(cipherVersion: "4.6.1 community"))
        #expect(Connection.isSupported(cipherVersion: "4.5.0 community"))
        #expect(!Connection.isSupported(cipherVersion: "4.4.3 community"))
        #expect(!Connection.isSupported(cipherVersion: "3.4.1"))
        #expect(!Connection.isSupported(cipherVersion: ""))
        let maps = "7f00-7f01 r-xp 00000000 08:01 123 /usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6"
        #expect(Database.plainSQLiteLibrary(inMaps: maps) == "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6")
        #expect(
            Database.plainSQLiteLibrary(inMaps: "7f00 r-xp 0 0 0 /usr/lib/x86_64-linux-gnu/libsqlcipher.so.1") == nil
        )
        // And this process runs SQLCipher alone.
        #expect(throws: Never.self) { try Database.refusePlainSQLite() }
    }
}

extension StoreError {
    /// The case's name, for tests that check which error arrived.
    var caseName: String {
        switch self {
        case .wrongPassphrase: "wrongPassphrase"
        case .wrongKey: "wrongKey"
        case .missingKeyFile: "missingKeyFile"
        case .damagedKeyFile: "damagedKeyFile"
        case .damagedDatabase: "damagedDatabase"
        case .rolledBack: "rolledBack"
        case .damagedCheckpointFile: "damagedCheckpointFile"
        case .missingCheckpointFile: "missingCheckpointFile"
        case .vaultExists: "vaultExists"
        case .notAVault: "notAVault"
        case .newerSchema: "newerSchema"
        case .cannotMigrate: "cannotMigrate"
        case .unsupportedLibrary: "unsupportedLibrary"
        case .invalidKey: "invalidKey"
        case .cannotOpen: "cannotOpen"
        case .locked: "locked"
        case .io: "io"
        case .permission: "permission"
        case .database: "database"
        case .damagedBackup: "damagedBackup"
        case .rollbackRefused: "rollbackRefused"
        case .cancelled: "cancelled"
        }
    }
}

extension VaultTests {
    /// The hidden staging directories `create` leaves beside `directory`, if any.
    func stagingLeftovers(of directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".\(directory.lastPathComponent).creating-") }
    }

    @Test func aFailedCreateLeavesNothingBehindForARetry() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hv-failed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Argon2id refuses these parameters, after the new database has been written.
        let impossible = KeyDerivationParameters(opsLimit: 0, memLimit: 0)
        #expect(throws: StoreError.self) {
            _ = try Vault.create(at: directory, passphrase: SecureBytes(utf8: "x"), parameters: impossible)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(try stagingLeftovers(of: directory).isEmpty)
        // An empty directory made beforehand stays as it was.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        #expect(throws: StoreError.self) {
            _ = try Vault.create(at: directory, passphrase: SecureBytes(utf8: "x"), parameters: impossible)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let vault = try Vault.create(at: directory, passphrase: SecureBytes(utf8: "x"), parameters: .minimumForTesting)
        vault.lock()
        _ = try Vault.open(at: directory, passphrase: SecureBytes(utf8: "x"))
    }

    @Test func anEmptyDirectoryWhoseParentTakesNoStagingStillBecomesAVault() throws {
        // A mount point or a parent the owner cannot write: the vault is staged inside it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hv-inside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let vault = try Vault.create(
            at: directory,
            passphrase: SecureBytes(utf8: "x"),
            parameters: .minimumForTesting,
            stageBeside: false
        )
        vault.lock()
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == ["audit-checkpoint.note", "audit-key.pub", "keyring.json", "vault.db"]
        )
        #expect(try stagingLeftovers(of: directory).isEmpty)
        _ = try Vault.open(at: directory, passphrase: SecureBytes(utf8: "x"))
        // A failure on that path leaves the directory empty again.
        let other = directory.appendingPathExtension("second")
        defer { try? FileManager.default.removeItem(at: other) }
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: false)
        #expect(throws: StoreError.self) {
            _ = try Vault.create(
                at: other,
                passphrase: SecureBytes(utf8: "x"),
                parameters: KeyDerivationParameters(opsLimit: 0, memLimit: 0),
                stageBeside: false
            )
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).isEmpty)
    }

    /// A staging directory as a create killed half way leaves it: wrapped keys and a database.
    func abandonedStaging(at url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        for name in ["vault.db", "keyring.json"] {
            try Data("left by a crash".utf8).write(to: url.appendingPathComponent(name))
        }
    }

    @Test func aCreateCleansUpWhatAnInterruptedCreateLeftAndNothingInUse() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("hv-abandoned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("vault")
        // Beside the target: one abandoned, one a running create still holds (its flock).
        let abandoned = parent.appendingPathComponent(".vault.creating-\(UUID().uuidString)")
        let running = parent.appendingPathComponent(".vault.creating-\(UUID().uuidString)")
        let otherTarget = parent.appendingPathComponent(".other.creating-\(UUID().uuidString)")
        for url in [abandoned, running, otherTarget] { try abandonedStaging(at: url) }
        let held = open(running.path, O_RDONLY | O_DIRECTORY)
        #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        defer { close(held) }
        let vault = try Vault.create(at: directory, passphrase: SecureBytes(utf8: "x"), parameters: .minimumForTesting)
        vault.lock()
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: running.appendingPathComponent("keyring.json").path))
        #expect(FileManager.default.fileExists(atPath: otherTarget.path))

        // Inside the target (the mount-point path), killed while moving files in: the key file,
        // moved last, is not there, so the target never became a vault and is made one now.
        let inside = parent.appendingPathComponent("mounted")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: false)
        try abandonedStaging(at: inside.appendingPathComponent(".creating-\(UUID().uuidString)"))
        for name in ["vault.db", "audit-key.pub"] {
            try Data("moved in before the crash".utf8).write(to: inside.appendingPathComponent(name))
        }
        let second = try Vault.create(at: inside, passphrase: SecureBytes(utf8: "y"), parameters: .minimumForTesting)
        second.lock()
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: inside.path).sorted()
                == ["audit-checkpoint.note", "audit-key.pub", "keyring.json", "vault.db"]
        )
        _ = try Vault.open(at: inside, passphrase: SecureBytes(utf8: "y"))

        // A create still running inside a target (its staging directory locked, files moved in)
        // beside an abandoned one: only the abandoned directory goes; the running create's files stay.
        let busy = parent.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: false)
        let runningInside = busy.appendingPathComponent(".creating-\(UUID().uuidString)")
        let abandonedInside = busy.appendingPathComponent(".creating-\(UUID().uuidString)")
        for url in [runningInside, abandonedInside] { try abandonedStaging(at: url) }
        let heldInside = open(runningInside.path, O_RDONLY | O_DIRECTORY)
        #expect(heldInside >= 0 && flock(heldInside, LOCK_EX | LOCK_NB) == 0)
        defer { close(heldInside) }
        for name in ["vault.db", "audit-key.pub"] {
            try Data("moved in by the running create".utf8).write(to: busy.appendingPathComponent(name))
        }
        #expect(
            storeError {
                _ = try Vault.create(at: busy, passphrase: SecureBytes(utf8: "w"), parameters: .minimumForTesting)
            } == "vaultExists"
        )
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: busy.path).sorted()
                == [runningInside.lastPathComponent, "audit-key.pub", "vault.db"].sorted()
        )

        // A directory holding anything else is not a half-made vault: nothing is removed.
        let foreign = parent.appendingPathComponent("foreign")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false)
        try abandonedStaging(at: foreign.appendingPathComponent(".creating-\(UUID().uuidString)"))
        try Data("the owner's".utf8).write(to: foreign.appendingPathComponent("vault.db"))
        try Data("the owner's".utf8).write(to: foreign.appendingPathComponent("notes.txt"))
        #expect(
            storeError {
                _ = try Vault.create(at: foreign, passphrase: SecureBytes(utf8: "z"), parameters: .minimumForTesting)
            } == "vaultExists"
        )
        #expect(try Data(contentsOf: foreign.appendingPathComponent("vault.db")) == Data("the owner's".utf8))
    }

    @Test func ofTwoConcurrentCreatesOneWinsAndTheOtherTouchesNothing() async throws {
        for _ in 0..<5 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "hv-race-\(UUID().uuidString)"
            )
            defer { try? FileManager.default.removeItem(at: directory) }
            let outcomes = await withTaskGroup(of: String.self) { group in
                for passphrase in ["first", "second"] {
                    group.addTask {
                        do {
                            let vault = try Vault.create(
                                at: directory,
                                passphrase: SecureBytes(utf8: passphrase),
                                parameters: .minimumForTesting
                            )
                            vault.lock()
                            return passphrase
                        } catch {
                            return (error as? StoreError)?.caseName ?? "\(error)"
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.filter { $0 == "first" || $0 == "second" }
            #expect(winners.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0 == "vaultExists" }.count == 1, "\(outcomes)")
            if let winner = winners.first {
                let vault = try Vault.open(at: directory, passphrase: SecureBytes(utf8: winner))
                vault.lock()
            }
            #expect(try stagingLeftovers(of: directory).isEmpty)
        }
    }
}
