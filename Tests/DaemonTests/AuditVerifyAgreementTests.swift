import AuditLog
import Foundation
import ProcessTestSupport
import Testing
import VaultCrypto

/// `healthvault audit verify --json` and `scripts/audit-verify.py --json` (written from
/// docs/AUDIT_LOG.md alone) give the verdict the document states, and the same one, for every
/// case the document decides: intact, cosigned, damaged framing, stray files, no checkpoint,
/// forks, duplicate signature lines, the auditor's own inputs unreadable.
@Suite struct AuditVerifyAgreementTests {
    /// The parts of a verdict both verifiers must agree on.
    struct Verdict: Equatable, CustomStringConvertible {
        var verdict: String
        var fault: String?
        var entry: Int?
        var exit: Int32
        /// Not part of the comparison with the documented verdict: compared between the two.
        var entries = -1

        static func == (a: Verdict, b: Verdict) -> Bool {
            (a.verdict, a.fault, a.entry, a.exit) == (b.verdict, b.fault, b.entry, b.exit)
        }

        var description: String { "\(verdict) \(fault ?? "-") \(entry.map(String.init) ?? "-") (exit \(exit))" }
    }

    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// A log of 12 entries with checkpoints at 5, 10 and 12, written as an export; entries 3, 7
    /// and 11 are grants with attributes (encoding version 2), the others version 1.
    struct Fixture {
        let root: URL
        let export: URL
        let keyFile: URL
        let key: Ed25519.SigningKey
        let verifierKey: VerifierKey
        let log: AuditLog<MemoryAuditStorage>

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("hv-agree-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            key = Ed25519.SigningKey()
            verifierKey = VerifierKey(name: "healthvault/\(UUID().uuidString.lowercased())", publicKey: key.publicKey)
            log = AuditLog(storage: MemoryAuditStorage(), verifierKey: verifierKey)
            for index in 0..<12 {
                let grant = index % 4 == 3
                try log.append(
                    AuditEntry(
                        time: Date(timeIntervalSince1970: 1_795_338_000 + Double(index)),
                        actor: grant || index % 3 == 0 ? .owner : .app("org.example.app"),
                        operation: grant ? .authorizationGrantRead : index % 2 == 0 ? .save : .querySample,
                        types: ["HKQuantityTypeIdentifierStepCount"],
                        objectCount: grant ? 0 : UInt64(index),
                        outcome: .ok,
                        requestID: grant ? "org.example.app" : "r\(index)",
                        attributes: grant
                            ? ["window": "last", "window-seconds": "2592000", "expires": "2026-12-31T23:00:00.000Z"]
                            : [:]
                    )
                )
                if [5, 10, 12].contains(index + 1) {
                    try log.signCheckpoint(
                        with: key,
                        storeChangeCounter: UInt64(index),
                        storeDigest: Array(repeating: 7, count: 32)
                    )
                }
            }
            export = root.appendingPathComponent("export")
            try AuditExport(log: log).write(to: export)
            keyFile = root.appendingPathComponent("audit-key.pub")
            try Data((verifierKey.description + "\n").utf8).write(to: keyFile)
        }

        func file(_ name: String) -> URL { export.appendingPathComponent(name) }

        func note(_ size: Int) -> URL {
            file("checkpoints/" + String(repeating: "0", count: 20 - String(size).count) + "\(size).note")
        }

        /// A checkpoint this vault key signs, of any content.
        func signed(size: UInt64, root: MerkleHash, counter: UInt64) -> String {
            SignedCheckpoint(
                signing: Checkpoint(
                    origin: verifierKey.name,
                    size: size,
                    rootHash: root,
                    storeChangeCounter: counter,
                    storeDigest: Array(repeating: 7, count: 32)
                ),
                with: key,
                as: verifierKey
            ).text
        }

        /// The byte offset in entries.bin where entry `index` begins.
        func offset(ofEntry index: Int) throws -> Int {
            let entries = try AuditExport(log: log).entries
            return entries.prefix(index).reduce(0) { $0 + 4 + $1.count }
        }
    }

    /// A C2SP cosignature/v1 line (https://c2sp.org/tlog-cosignature) by a witness key over
    /// `note`'s body: `— <name> base64(key hash ‖ 8-byte timestamp ‖ Ed25519 signature)`, 76 bytes.
    static func cosignatureLine(over note: String) -> String {
        let witness = Ed25519.SigningKey()
        let name = "witness.example.org/w1"
        let body = String(note[..<note.range(of: "\n\n")!.lowerBound]) + "\n"
        let timestamp: UInt64 = 1_795_338_100
        let message = "cosignature/v1\ntime \(timestamp)\n" + body
        let keyHash = Array(
            SHA256.hash(data: Array(name.utf8) + [0x0A, 0x04] + witness.publicKey.rawRepresentation).prefix(4)
        )
        let time = withUnsafeBytes(of: timestamp.bigEndian) { Array($0) }
        let blob = keyHash + time + witness.signature(for: Array(message.utf8))
        precondition(blob.count == 76)
        return "— \(name) \(Data(blob).base64EncodedString())\n"
    }

    func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func verdict(_ status: Int32, _ output: String) throws -> Verdict {
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            "not a JSON verdict: \(output)"
        )
        // `warnings` is absent when there are none, as every empty member of the JSON is.
        #expect(
            object["entries"] is NSNumber && object["summary"] is String
                && (object["warnings"] == nil || (object["warnings"] as? [Any])?.isEmpty == false),
            "\(line)"
        )
        return Verdict(
            verdict: object["verdict"] as? String ?? "?",
            fault: object["fault"] as? String,
            entry: (object["entry"] as? NSNumber)?.intValue,
            exit: status,
            entries: (object["entries"] as? NSNumber)?.intValue ?? -1
        )
    }

    /// Both verifiers on the fixture's export as it is now.
    func verdicts(_ fixture: Fixture, key: URL? = nil, previous: URL? = nil) throws -> (cli: Verdict, python: Verdict?)
    {
        let keyPath = (key ?? fixture.keyFile).path
        var cliArguments = ["audit", "verify", fixture.export.path, "--key", keyPath, "--json"]
        var pythonArguments = [
            Self.checkout.appendingPathComponent("scripts/audit-verify.py").path, fixture.export.path, "--key", keyPath,
            "--json",
        ]
        if let previous {
            cliArguments += ["--checkpoint", previous.path]
            pythonArguments += ["--previous", previous.path]
        }
        let (cliStatus, cliOutput) = try run(TestDaemon.binary("healthvault"), cliArguments)
        let cli = try verdict(cliStatus, cliOutput)
        guard let python = Self.python else { return (cli, nil) }
        let (pythonStatus, pythonOutput) = try run(python, pythonArguments)
        let other = try verdict(pythonStatus, pythonOutput)
        #expect(other.entries == cli.entries, "entries: audit-verify.py \(other.entries), healthvault \(cli.entries)")
        return (cli, other)
    }

    static func expected(_ verdict: String, _ fault: String? = nil, _ entry: Int? = nil) -> Verdict {
        Verdict(
            verdict: verdict,
            fault: fault,
            entry: entry,
            exit: verdict == "verified" ? 0 : verdict == "tampered" ? 1 : 2
        )
    }

    @Test func bothVerifiersGiveTheDocumentedVerdictForEveryCaseItDecides() throws {
        typealias Case = (name: String, expected: Verdict, change: (Fixture) throws -> Void)
        let entriesFile = "entries.bin"
        let cases: [Case] = [
            ("intact", Self.expected("verified"), { _ in }),
            (
                "a witness's cosignature line after the vault's signature",
                Self.expected("verified"),
                { fixture in
                    let note = try String(contentsOf: fixture.note(12), encoding: .utf8)
                    try Data((note + Self.cosignatureLine(over: note)).utf8).write(to: fixture.note(12))
                }
            ),
            (
                "a flipped byte in entry 3",
                Self.expected("tampered", "modified", 3),
                { fixture in
                    var data = try Data(contentsOf: fixture.file(entriesFile))
                    data[try fixture.offset(ofEntry: 3) + 12] ^= 0x01
                    try data.write(to: fixture.file(entriesFile))
                }
            ),
            (
                "a flipped byte in the attributes of entry 7 (a version 2 entry)",
                Self.expected("tampered", "modified", 7),
                { fixture in
                    var data = try Data(contentsOf: fixture.file(entriesFile))
                    data[try fixture.offset(ofEntry: 8) - 2] ^= 0x01
                    try data.write(to: fixture.file(entriesFile))
                }
            ),
            (
                "entry 3's version byte made 1 (its attributes then trail it)",
                Self.expected("tampered", "modified", 3),
                { fixture in
                    var data = try Data(contentsOf: fixture.file(entriesFile))
                    data[try fixture.offset(ofEntry: 3) + 4] = 1
                    try data.write(to: fixture.file(entriesFile))
                }
            ),
            (
                "one byte after the last entry",
                Self.expected("tampered", "modified", 12),
                { fixture in
                    var data = try Data(contentsOf: fixture.file(entriesFile))
                    data.append(0)
                    try data.write(to: fixture.file(entriesFile))
                }
            ),
            (
                "entries.bin cut inside entry 5",
                Self.expected("tampered", "modified", 5),
                { fixture in
                    let data = try Data(contentsOf: fixture.file(entriesFile))
                    try data.prefix(try fixture.offset(ofEntry: 5) + 6).write(to: fixture.file(entriesFile))
                }
            ),
            (
                "a whole entry after the last checkpoint",
                Self.expected("tampered", "inserted", 12),
                { fixture in
                    var data = try Data(contentsOf: fixture.file(entriesFile))
                    let entry = try AuditExport(log: fixture.log).entries[11]
                    data.append(contentsOf: [0, 0, 0, UInt8(entry.count)] + entry)
                    try data.write(to: fixture.file(entriesFile))
                }
            ),
            (
                "a stray file in checkpoints/",
                Self.expected("unreadable"),
                { fixture in try Data("notes\n".utf8).write(to: fixture.file("checkpoints/README")) }
            ),
            (
                "a checkpoint file not named by 20 digits",
                Self.expected("unreadable"),
                { fixture in
                    try FileManager.default.moveItem(at: fixture.note(5), to: fixture.file("checkpoints/5.note"))
                }
            ),
            (
                "no checkpoint at all",
                Self.expected("unreadable"),
                { fixture in
                    for size in [5, 10, 12] { try FileManager.default.removeItem(at: fixture.note(size)) }
                }
            ),
            (
                "two different checkpoints of one size (a fork: no entry named)",
                Self.expected("tampered", "forked", nil),
                { fixture in
                    // Beside the real one, under another well-formed name (names are not signed).
                    let forged = fixture.signed(size: 10, root: Array(repeating: 1, count: 32), counter: 9)
                    try Data(forged.utf8).write(to: fixture.note(11))
                }
            ),
            (
                "a store counter that goes back between checkpoints",
                Self.expected("tampered", "forked", nil),
                { fixture in
                    let root = try fixture.log.storage.checkpoints()[2].checkpoint.rootHash
                    try Data(fixture.signed(size: 12, root: root, counter: 1).utf8).write(to: fixture.note(12))
                }
            ),
            (
                "two signature lines with the vault key's name",
                Self.expected("tampered", "bad-signature", nil),
                { fixture in
                    let note = try String(contentsOf: fixture.note(12), encoding: .utf8)
                    let line = String(note[note.range(of: "\n\n")!.upperBound...])
                    try Data((note + line).utf8).write(to: fixture.note(12))
                }
            ),
        ]
        for testCase in cases {
            let fixture = try Fixture()
            defer { try? FileManager.default.removeItem(at: fixture.root) }
            try testCase.change(fixture)
            let (cli, python) = try verdicts(fixture)
            #expect(cli == testCase.expected, "\(testCase.name): healthvault audit verify said \(cli)")
            if let python {
                #expect(python == testCase.expected, "\(testCase.name): audit-verify.py said \(python)")
            }
        }
    }

    @Test func theAuditorsOwnCheckpointAndKeyDecideAsDocumented() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        let kept = fixture.root.appendingPathComponent("kept.note")
        // The checkpoint kept from the earlier verification: the log extends it.
        try Data(try fixture.log.storage.checkpoints()[1].text.utf8).write(to: kept)
        var (cli, python) = try verdicts(fixture, previous: kept)
        #expect(
            cli == Self.expected("verified") && (python == nil || python == cli),
            "\(cli) \(String(describing: python))"
        )
        // One of another history at size 10: a fork names no entry.
        try Data(fixture.signed(size: 10, root: Array(repeating: 2, count: 32), counter: 9).utf8).write(to: kept)
        (cli, python) = try verdicts(fixture, previous: kept)
        #expect(cli == Self.expected("tampered", "forked", nil), "\(cli)")
        #expect(python == nil || python == cli, "\(String(describing: python))")
        // A kept checkpoint or key file that cannot be read: could not read (exit 2), not tampered.
        (cli, python) = try verdicts(fixture, previous: fixture.root.appendingPathComponent("missing.note"))
        #expect(cli == Self.expected("unreadable"), "\(cli)")
        #expect(python == nil || python == cli, "\(String(describing: python))")
        // The auditor's key file with surrounding whitespace: the same key.
        let spaced = fixture.root.appendingPathComponent("spaced.pub")
        try Data(("  " + fixture.verifierKey.description + " \r\n\n").utf8).write(to: spaced)
        (cli, python) = try verdicts(fixture, key: spaced)
        #expect(cli == Self.expected("verified"), "\(cli)")
        #expect(python == nil || python == cli, "\(String(describing: python))")
        (cli, python) = try verdicts(fixture, key: fixture.root.appendingPathComponent("missing.pub"))
        #expect(cli == Self.expected("unreadable"), "\(cli)")
        #expect(python == nil || python == cli, "\(String(describing: python))")
    }
}
