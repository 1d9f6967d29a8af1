import AuditLog
import Foundation
import Testing
import VaultCrypto

/// The verdicts docs/AUDIT_LOG.md decides for notes with other parties' signatures, damaged
/// framing, exports without checkpoints or with stray files, and forks between checkpoints.
struct VerifierDecisionTests {
    let fixture: AuditLogFixture
    let export: AuditExport

    init() throws {
        fixture = try AuditLogFixture(count: 40, checkpointSizes: [10, 25, 40])
        export = try fixture.export()
    }

    func verdict(_ export: AuditExport, framingBrokenAt: Int? = nil) -> AuditVerifier.Verdict {
        AuditVerifier.verify(export, framingBrokenAt: framingBrokenAt, trustedKey: fixture.verifierKey).verdict
    }

    func tampered(_ kind: AuditVerifier.FaultKind, at entry: UInt64?, _ verdict: AuditVerifier.Verdict) -> Bool {
        guard case .tampered(let fault) = verdict else { return false }
        return fault.kind == kind && fault.entry == entry
    }

    /// A C2SP cosignature/v1 line by a witness over `note`'s body (76 bytes after the name).
    func cosignature(over note: String, name: String = "witness.example.org/w1") -> String {
        let witness = Ed25519.SigningKey()
        let body = String(note[..<note.range(of: "\n\n")!.lowerBound]) + "\n"
        let time = withUnsafeBytes(of: UInt64(1_795_338_100).bigEndian) { Array($0) }
        let keyHash = Array(
            SHA256.hash(data: Array(name.utf8) + [0x0A, 0x04] + witness.publicKey.rawRepresentation).prefix(4)
        )
        let signature = witness.signature(for: Array("cosignature/v1\ntime 1795338100\n\(body)".utf8))
        return "— \(name) \(Data(keyHash + time + signature).base64EncodedString())\n"
    }

    @Test func anotherPartysCosignatureIsAcceptedAndTwoVaultSignaturesAreNot() throws {
        var cosigned = export
        let last = cosigned.checkpoints.count - 1
        cosigned.checkpoints[last] += cosignature(over: cosigned.checkpoints[last])
        #expect(verdict(cosigned) == .verified)
        // Before the vault's line too.
        var first = export
        let note = first.checkpoints[0]
        let split = note.range(of: "\n\n")!.upperBound
        first.checkpoints[0] = String(note[..<split]) + cosignature(over: note) + String(note[split...])
        #expect(verdict(first) == .verified)
        // Two lines carrying the vault key's name: which one counts cannot be told.
        var twice = export
        twice.checkpoints[last] += String(
            twice.checkpoints[last][twice.checkpoints[last].range(of: "\n\n")!.upperBound...]
        )
        #expect(tampered(.badSignature, at: nil, verdict(twice)), "\(verdict(twice))")
        // A line that is not well formed, whoever signed it: a `+` in its key name.
        var malformed = export
        malformed.checkpoints[last] += cosignature(over: malformed.checkpoints[last], name: "witness+1")
        #expect(tampered(.badSignature, at: nil, verdict(malformed)), "\(verdict(malformed))")
    }

    @Test func brokenFramingIsModifiedWhereItBreaks() {
        // A stray byte after the last entry: every entry is whole, the framing breaks at 40.
        #expect(
            tampered(.modified, at: 40, verdict(export, framingBrokenAt: 40)),
            "\(verdict(export, framingBrokenAt: 40))"
        )
        // Cut inside entry 30: 30 whole entries, then bytes that frame nothing.
        var cut = export
        cut.entries.removeLast(10)
        #expect(tampered(.modified, at: 30, verdict(cut, framingBrokenAt: 30)), "\(verdict(cut, framingBrokenAt: 30))")
        // Cut between entries instead: truncated, where the signed log goes on.
        #expect(tampered(.truncated, at: 30, verdict(cut)), "\(verdict(cut))")
    }

    @Test func forksBetweenCheckpointsNameNoEntry() {
        let key = fixture.key
        func signed(size: UInt64, root: MerkleHash, counter: UInt64) -> String {
            SignedCheckpoint(
                signing: Checkpoint(
                    origin: fixture.verifierKey.name,
                    size: size,
                    rootHash: root,
                    storeChangeCounter: counter,
                    storeDigest: Array(repeating: 0, count: 32)
                ),
                with: key,
                as: fixture.verifierKey
            ).text
        }
        var fork = export
        fork.checkpoints.append(signed(size: 25, root: Array(repeating: 9, count: 32), counter: 75))
        #expect(tampered(.forked, at: nil, verdict(fork)), "\(verdict(fork))")
        var rolledBack = export
        rolledBack.checkpoints.append(signed(size: 30, root: Array(repeating: 9, count: 32), counter: 1))
        #expect(tampered(.forked, at: nil, verdict(rolledBack)), "\(verdict(rolledBack))")
    }

    @Test func anExportWithoutCheckpointsOrWithStrayFilesCannotBeRead() throws {
        var bare = export
        bare.checkpoints = []
        #expect(verdict(bare).exitCode == 2, "\(verdict(bare))")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hv-stray-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try export.write(to: directory)
        #expect(AuditVerifier.verify(directory: directory, trustedKey: fixture.verifierKey).verdict == .verified)
        for stray in ["README", "10.note", ".hidden", "00000000000000000010.note.bak"] {
            let url = directory.appendingPathComponent("checkpoints/\(stray)")
            try Data("x\n".utf8).write(to: url)
            let found = AuditVerifier.verify(directory: directory, trustedKey: fixture.verifierKey).verdict
            #expect(found.exitCode == 2, "\(stray): \(found)")
            try FileManager.default.removeItem(at: url)
        }
    }
}
