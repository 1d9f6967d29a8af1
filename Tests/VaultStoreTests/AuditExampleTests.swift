import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultCrypto

@testable import VaultStore

/// The worked example of docs/AUDIT_LOG.md: the export in `docs/examples/audit-export/`, the key
/// in `keys/example-vault.vkey`, and the bytes and hashes the document prints.
@Suite struct AuditExampleTests {
    static let checkout = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let exportURL = checkout.appendingPathComponent("docs/examples/audit-export")
    static let keyURL = checkout.appendingPathComponent("keys/example-vault.vkey")
    static let documentURL = checkout.appendingPathComponent("docs/AUDIT_LOG.md")

    /// The example's entries, as an app and its owner would cause them.
    static func exampleEntries() -> [AuditEntry] {
        let app = AuditEntry.Actor.app("org.example.stepcounter")
        let steps = "HKQuantityTypeIdentifierStepCount"
        let heart = "HKQuantityTypeIdentifierHeartRate"
        let start = Date(timeIntervalSince1970: 1_795_338_000)  // 2026-11-22T09:00:00Z
        func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
        return [
            AuditEntry(
                time: at(0),
                actor: .owner,
                operation: .unlock,
                types: [],
                objectCount: 0,
                outcome: .ok,
                requestID: "owner-1"
            ),
            AuditEntry(
                time: at(12.5),
                actor: app,
                operation: .authorizationRequest,
                types: [steps, heart],
                objectCount: 0,
                outcome: .ok,
                requestID: "c0ffee01"
            ),
            AuditEntry(
                time: at(30),
                actor: .owner,
                operation: .authorizationGrant,
                types: [steps],
                objectCount: 0,
                outcome: .ok,
                requestID: "owner-2"
            ),
            AuditEntry(
                time: at(31.25),
                actor: app,
                operation: .save,
                types: [steps],
                objectCount: 3,
                outcome: .ok,
                requestID: "c0ffee02"
            ),
            AuditEntry(
                time: at(31.75),
                actor: app,
                operation: .querySample,
                types: [heart],
                objectCount: 0,
                outcome: .deniedServedEmpty,
                requestID: "c0ffee03"
            ),
        ]
    }

    /// Writes a fresh example (a new vault, whose private key goes with it) to the directory named
    /// by HEALTHVAULT_WRITE_AUDIT_EXAMPLE: `audit-export/` and `example-vault.vkey`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HEALTHVAULT_WRITE_AUDIT_EXAMPLE"] != nil))
    func writeTheExample() throws {
        let output = URL(fileURLWithPath: ProcessInfo.processInfo.environment["HEALTHVAULT_WRITE_AUDIT_EXAMPLE"]!)
        let test = try TestVault()
        let vault = try #require(test.vault)
        let entries = Self.exampleEntries()
        let store = try test.store
        for (index, entry) in entries.enumerated() {
            try vault.db().write { db in
                // The save's three samples commit with its entry.
                if entry.operation == .save {
                    try store.save((0..<3).map { _ in .quantity(try Fixtures.quantity(.stepCount, 250)) }, in: db)
                }
                try vault.auditLog(in: db).append(entry)
            }
            if index == 1 || index == entries.count - 1 { try vault.signAuditCheckpoint() }
        }
        try vault.exportAuditLog(to: output.appendingPathComponent("audit-export"))
        try Data((vault.verifierKey.description + "\n").utf8).write(
            to: output.appendingPathComponent("example-vault.vkey")
        )
    }

    func key() throws -> VerifierKey {
        try VerifierKey(line: String(contentsOf: Self.keyURL, encoding: .utf8).trimmingCharacters(in: .newlines))
    }

    @Test func theShippedExampleVerifiesWithTheShippedKey() throws {
        let report = AuditVerifier.verify(directory: Self.exportURL, trustedKey: try key())
        #expect(report.verdict == .verified, "\(report.summary)")
        #expect(report.entryCount == 6)
        #expect(report.latestCheckpoint?.checkpoint.size == 6)
        // Its entries are the ones above, in order, numbered, and then the export itself.
        let (export, _) = try AuditExport.read(from: Self.exportURL)
        let decoded = try export.entries.map { try AuditEntry(decoding: $0) }
        var expected = Self.exampleEntries()
        for index in expected.indices { expected[index].sequence = UInt64(index) }
        #expect(Array(decoded.prefix(5)) == expected)
        #expect(decoded.last.map { [$0.operation.rawValue, $0.actor.description] } == ["audit.export", "owner"])
        // And one flipped byte is caught, so the example is not verified by accident.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("hv-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: Self.exportURL, to: copy)
        var bytes = try Data(contentsOf: copy.appendingPathComponent("entries.bin"))
        bytes[bytes.count - 3] ^= 0x01
        try bytes.write(to: copy.appendingPathComponent("entries.bin"))
        let tampered = AuditVerifier.verify(directory: copy, trustedKey: try key())
        #expect(tampered.verdict.exitCode == 1)
    }

    /// Every hex and base64 value the document prints for the example, recomputed here.
    @Test func theDocumentPrintsTheExamplesRealBytesAndHashes() throws {
        let document = try String(contentsOf: Self.documentURL, encoding: .utf8)
        let (export, _) = try AuditExport.read(from: Self.exportURL)
        func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        // Entry 1, byte for byte, in the document's dump (hex, whitespace and comments ignored).
        let dump = try #require(document.components(separatedBy: "<!-- entry 1 -->").dropFirst().first)
        let block = try #require(dump.components(separatedBy: "```").dropFirst().first)
        let dumped = block.split(separator: "\n").map { line in
            line.split(separator: "#").first.map { $0.filter(\.isHexDigit) } ?? ""
        }.joined()
        #expect(dumped == hex(export.entries[1]))
        // Its leaf hash, the root at size 2 and at size 5, as printed.
        let leaf = Merkle.leafHash(export.entries[1])
        #expect(document.contains(hex(leaf)))
        #expect(
            document.contains(
                hex(Merkle.root(leafHashes: ArraySlice(export.entries.prefix(2).map { Merkle.leafHash($0) })))
            )
        )
        #expect(
            document.contains(
                hex(Merkle.root(leafHashes: ArraySlice(export.entries.prefix(5).map { Merkle.leafHash($0) })))
            )
        )
        #expect(document.contains(hex(Merkle.root(leafHashes: ArraySlice(export.entries.map { Merkle.leafHash($0) })))))
        for entry in export.entries { #expect(document.contains(hex(Merkle.leafHash(entry)))) }
        // The checkpoint at size 5 and the key, as printed.
        let note = try String(
            contentsOf: Self.exportURL.appendingPathComponent("checkpoints/00000000000000000006.note"),
            encoding: .utf8
        )
        #expect(document.contains(note))
        #expect(document.contains(try key().description))
    }
}

/// `scripts/audit-verify.py`, a verifier written in Python from docs/AUDIT_LOG.md alone, agrees
/// with the Swift verifier on a real vault's export, intact and tampered.
@Suite struct IndependentVerifierTests {
    static let script = AuditExampleTests.checkout.appendingPathComponent("scripts/audit-verify.py").path

    func verify(_ export: URL, key: URL) throws -> (Int32, String) {
        try run(which("python3") ?? "/usr/bin/python3", [Self.script, export.path, "--key", key.path])
    }

    @Test(.enabled(if: which("python3") != nil, "python3 is not installed"))
    func thePythonVerifierAgreesWithTheSwiftOne() throws {
        let test = try TestVault()
        let vault = try #require(test.vault)
        for index in 0..<40 {
            let entry = AuditEntry(
                time: Date(timeIntervalSince1970: 1_795_338_000 + Double(index)),
                actor: index % 5 == 0 ? .owner : .app("org.example.app\(index % 3)"),
                operation: [.save, .querySample, .delete][index % 3],
                types: index % 2 == 0 ? ["HKQuantityTypeIdentifierStepCount"] : [],
                objectCount: UInt64(index),
                outcome: index % 7 == 0 ? .deniedServedEmpty : .ok,
                requestID: "r\(index)"
            )
            try vault.db().write { try vault.auditLog(in: $0).append(entry) }
            if index % 13 == 12 { try vault.signAuditCheckpoint() }
        }
        let export = test.directory.appendingPathExtension("export")
        defer { try? FileManager.default.removeItem(at: export) }
        try vault.exportAuditLog(to: export)
        let key = test.directory.appendingPathComponent("audit-key.pub")
        let (status, output) = try verify(export, key: key)
        #expect(status == 0, "\(output)")
        #expect(AuditVerifier.verify(directory: export).verdict.exitCode == 0)
        // The shipped example too.
        #expect(try verify(AuditExampleTests.exportURL, key: AuditExampleTests.keyURL).0 == 0)
        // One flipped byte in an entry, or a checkpoint's signature: both verifiers say tampered.
        let entries = export.appendingPathComponent("entries.bin")
        let original = try Data(contentsOf: entries)
        for offset in [10, original.count / 2, original.count - 2] {
            var flipped = original
            flipped[offset] ^= 0x40
            try flipped.write(to: entries)
            #expect(try verify(export, key: key).0 == 1, "offset \(offset)")
            #expect(AuditVerifier.verify(directory: export).verdict.exitCode == 1)
        }
        try original.write(to: entries)
        // Another vault's key: not this vault's key (could not verify, 2), never tampered, for both.
        let other = try TestVault()
        #expect(try verify(export, key: other.directory.appendingPathComponent("audit-key.pub")).0 == 2)
    }
}
