import AuditLog
import Foundation
import Testing
import VaultCrypto

/// The auditor's verifier against every kind of tampering the issue names.
struct VerifierTests {
    func fault(_ report: AuditVerifier.Report) -> AuditVerifier.Fault? {
        if case .tampered(let fault) = report.verdict { return fault }
        return nil
    }

    func verify(
        _ export: AuditExport,
        key: VerifierKey? = nil,
        previous: SignedCheckpoint? = nil
    ) -> AuditVerifier.Report {
        AuditVerifier.verify(export, trustedKey: key, previousCheckpoint: previous?.text)
    }

    /// The same export with leaves.bin recomputed from its (tampered) entries, as a careful forger would.
    func withRecomputedLeaves(_ export: AuditExport) -> AuditExport {
        var copy = export
        copy.leafHashes = export.entries.map(Merkle.leafHash)
        return copy
    }

    @Test func anUntouchedExportVerifiesFromDisk() throws {
        let fixture = try AuditLogFixture(count: 1000, checkpointSizes: [100, 500, 1000])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hv-audit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try fixture.export().write(to: directory)
        let previous = try fixture.log.storage.checkpoints()[1]
        let report = AuditVerifier.verify(
            directory: directory,
            trustedKey: fixture.verifierKey,
            previousCheckpoint: previous.text
        )
        #expect(report.verdict == .verified, "\(report.summary)")
        #expect(report.verdict.exitCode == 0 && report.entryCount == 1000 && report.warnings.isEmpty)
        #expect(report.latestCheckpoint?.checkpoint.size == 1000)
        // An unreadable export is its own exit code.
        let missing = AuditVerifier.verify(directory: directory.appendingPathComponent("nope"))
        #expect(missing.verdict.exitCode == 2, "\(missing.summary)")
    }

    @Test func everyFlippedByteOfEveryEntryIsFoundAndNamed() throws {
        let fixture = try AuditLogFixture(count: 1000, checkpointSizes: [250, 1000])
        let export = try fixture.export()
        var rng = SystemRandomNumberGenerator()
        // One random byte of every entry, then every bit of one entry (a debug build verifies about
        // 100 exports a second; the release benchmark verifies a million entries).
        var flips: [(entry: Int, byte: Int, bit: Int)] = export.entries.indices.map {
            ($0, Int.random(in: 0..<export.entries[$0].count, using: &rng), Int.random(in: 0..<8, using: &rng))
        }
        for entry in [617] {
            for byte in export.entries[entry].indices {
                for bit in 0..<8 { flips.append((entry, byte, bit)) }
            }
        }
        #expect(verify(export, key: fixture.verifierKey).verdict == .verified)
        for flip in flips {
            var tampered = export
            tampered.entries[flip.entry][flip.byte] ^= 1 << flip.bit
            let found = fault(verify(tampered, key: fixture.verifierKey))
            #expect(
                found?.kind == .modified && found?.entry == UInt64(flip.entry),
                "\(flip): \(String(describing: found))"
            )
        }
    }

    @Test func removedReorderedDuplicatedInsertedAndCutEntriesAreNamed() throws {
        let fixture = try AuditLogFixture(count: 300, checkpointSizes: [100, 300])
        let export = try fixture.export()
        // An entry of another vault's log, numbered to fit in.
        var strangers = AuditLogFixture.entry(150, tag: "another vault")
        strangers.sequence = 150
        let foreign = try strangers.encoded()
        let cases: [(String, AuditVerifier.FaultKind, UInt64, (inout [[UInt8]]) -> Void)] = [
            ("delete", .missing, 150, { $0.remove(at: 150) }),
            ("swap", .reordered, 150, { $0.swapAt(150, 151) }),
            ("move", .reordered, 150, { $0.insert($0.remove(at: 180), at: 150) }),
            ("duplicate", .inserted, 151, { $0.insert($0[150], at: 151) }),
            ("foreign", .inserted, 150, { $0.insert(foreign, at: 150) }),
            ("truncate", .truncated, 290, { $0.removeLast(10) }),
            ("append", .inserted, 300, { $0.append(foreign) }),
        ]
        for (name, kind, entry, change) in cases {
            var tampered = export
            change(&tampered.entries)
            let found = fault(verify(tampered, key: fixture.verifierKey))
            #expect(found?.kind == kind && found?.entry == entry, "\(name): \(String(describing: found))")
            // A forger who also rewrites leaves.bin is still caught (by numbering and roots).
            let forged = fault(verify(withRecomputedLeaves(tampered), key: fixture.verifierKey))
            #expect(forged != nil, "\(name) with forged leaves verified")
            if name != "foreign" && name != "duplicate" {
                #expect(forged?.kind == kind, "\(name) with forged leaves: \(String(describing: forged))")
            }
        }
    }

    @Test func aRollbackToAnEarlierExportIsCaughtWithTheAuditorsCheckpoint() throws {
        let fixture = try AuditLogFixture(count: 200, checkpointSizes: [100, 200])
        let earlier = try fixture.export()
        try fixture.extend(to: 400, checkpointSizes: [300, 400])
        let auditorKept = try #require(try fixture.log.storage.checkpoints().last)
        // Without the auditor's checkpoint the earlier export is self-consistent...
        #expect(verify(earlier, key: fixture.verifierKey).verdict == .verified)
        // ...with it, it is an export rolled back.
        let found = fault(verify(earlier, key: fixture.verifierKey, previous: auditorKept))
        #expect(found?.kind == .truncated && found?.entry == 200, "\(String(describing: found))")
        // The later export is consistent with any checkpoint the auditor kept before.
        let first = try fixture.log.storage.checkpoints()[0]
        #expect(verify(try fixture.export(), key: fixture.verifierKey, previous: first).verdict == .verified)
    }

    @Test func contradictorySignedCheckpointsAreReportedAsAFork() throws {
        let vault = UUID()
        let fixture = try AuditLogFixture(count: 100, checkpointSizes: [100], vault: vault)
        // The same key signs a second history that shares the first 60 entries.
        let fork = AuditLog(storage: MemoryAuditStorage(), verifierKey: fixture.verifierKey)
        for index in 0..<150 {
            try fork.append(AuditLogFixture.entry(index, tag: index < 60 ? "" : "fork"))
        }
        try fork.signCheckpoint(
            with: fixture.key,
            storeChangeCounter: 1000,
            storeDigest: Array(repeating: 9, count: 32)
        )
        let auditorKept = try #require(try fixture.log.storage.checkpoints().last)
        let found = fault(verify(try AuditExport(log: fork), key: fixture.verifierKey, previous: auditorKept))
        #expect(found?.kind == .forked, "\(String(describing: found))")
        // Two checkpoints of one size with different roots in one export.
        var both = try fixture.export()
        let other = try #require(try fork.storage.checkpoints().last)
        let clash = SignedCheckpoint(
            signing: Checkpoint(
                origin: fixture.verifierKey.name,
                size: 100,
                rootHash: try Merkle.root(size: 100, nodes: fork.storage),
                storeChangeCounter: other.checkpoint.storeChangeCounter,
                storeDigest: other.checkpoint.storeDigest
            ),
            with: fixture.key,
            as: fixture.verifierKey
        )
        both.checkpoints.append(clash.text)
        #expect(fault(verify(both, key: fixture.verifierKey))?.kind == .forked)
    }

    @Test func aStoreCounterThatGoesBackIsARolledBackDatabase() throws {
        let fixture = try AuditLogFixture(count: 10, checkpointSizes: [10])
        try fixture.extend(to: 20, checkpointSizes: [])
        // The vault itself refuses to sign it...
        #expect(throws: AuditLogError.self) {
            try fixture.log.signCheckpoint(
                with: fixture.key,
                storeChangeCounter: 1,
                storeDigest: Array(repeating: 0, count: 32)
            )
        }
        // ...and a verifier given such a pair reports it.
        var export = try fixture.export()
        let rolledBack = SignedCheckpoint(
            signing: Checkpoint(
                origin: fixture.verifierKey.name,
                size: 20,
                rootHash: try fixture.log.rootHash(),
                storeChangeCounter: 1,
                storeDigest: Array(repeating: 0, count: 32)
            ),
            with: fixture.key,
            as: fixture.verifierKey
        )
        export.checkpoints.append(rolledBack.text)
        export.entries = try (0..<20).map { try fixture.log.storage.entry(at: $0) }
        export.leafHashes = export.entries.map(Merkle.leafHash)
        #expect(fault(verify(export, key: fixture.verifierKey))?.kind == .forked)
    }

    @Test func badSignaturesAndWrongKeysAreNamed() throws {
        let fixture = try AuditLogFixture(count: 50, checkpointSizes: [20, 50])
        let export = try fixture.export()
        // A flipped byte in a signature.
        var badSignature = export
        let note = badSignature.checkpoints[1]
        let signatureLine = try #require(note.split(separator: "\n").last)
        var blob = try #require(Data(base64Encoded: String(signatureLine.split(separator: " ")[2])))
        blob[10] ^= 0x04
        badSignature.checkpoints[1] = note.replacingOccurrences(
            of: String(signatureLine.split(separator: " ")[2]),
            with: blob.base64EncodedString()
        )
        #expect(fault(verify(badSignature, key: fixture.verifierKey))?.kind == .badSignature)
        // A changed size in a signed checkpoint.
        var changed = export
        changed.checkpoints[0] = changed.checkpoints[0].replacingOccurrences(of: "\n20\n", with: "\n21\n")
        #expect(fault(verify(changed, key: fixture.verifierKey))?.kind == .badSignature)
        // An export from another vault, checked with the auditor's key: not this vault's key
        // (could not verify, exit 2), not tampering: nothing of that export was checked.
        let other = try AuditLogFixture(count: 50, checkpointSizes: [50])
        let mismatched = verify(try other.export(), key: fixture.verifierKey)
        guard case .otherVault(let why) = mismatched.verdict else {
            Issue.record("another vault's export: \(mismatched.verdict)")
            return
        }
        #expect(why.contains(fixture.verifierKey.name) && mismatched.verdict.exitCode == 2)
        #expect(mismatched.summary.hasPrefix("not this vault's key: "))
        // Its key.vkey swapped for the auditor's: the checkpoints are still by the wrong key.
        var disguised = try other.export()
        disguised.verifierKeyLine = fixture.verifierKey.description
        #expect(fault(verify(disguised, key: fixture.verifierKey))?.kind == .wrongKey)
        // The auditor's earlier checkpoint from another vault.
        let foreignCheckpoint = try #require(try other.log.storage.checkpoints().last)
        #expect(fault(verify(export, key: fixture.verifierKey, previous: foreignCheckpoint))?.kind == .wrongKey)
    }
}
