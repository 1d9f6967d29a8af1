public import Foundation

/// The exported log an auditor verifies offline: a directory (docs/AUDIT_LOG.md, "Export format").
///
///     FORMAT                    "healthvault-audit-export 1\n"
///     key.vkey                  the vault's verifier key, one line
///     entries.bin               every entry: u32 big-endian length ‖ canonical bytes
///     leaves.bin                every entry's leaf hash as the log stored it, 32 bytes each
///     checkpoints/<size>.note   every signed checkpoint, size as 20 decimal digits
public struct AuditExport: Sendable {
    public static let formatLine = "healthvault-audit-export 1"

    public var verifierKeyLine: String
    public var entries: [[UInt8]]
    public var leafHashes: [MerkleHash]
    public var checkpoints: [String]

    public init(verifierKeyLine: String, entries: [[UInt8]], leafHashes: [MerkleHash], checkpoints: [String]) {
        self.verifierKeyLine = verifierKeyLine
        self.entries = entries
        self.leafHashes = leafHashes
        self.checkpoints = checkpoints
    }

    /// Everything in a log: its entries up to its latest checkpoint's size, their leaf hashes, and
    /// its checkpoints. Sign a checkpoint first (the vault does, on every export).
    public init(log: AuditLog<some AuditStorage>) throws {
        let checkpoints = try log.storage.checkpoints()
        let size = checkpoints.last?.checkpoint.size ?? 0
        var entries: [[UInt8]] = []
        var leaves: [MerkleHash] = []
        entries.reserveCapacity(Int(size))
        leaves.reserveCapacity(Int(size))
        try log.storage.forEachEntry(upTo: size) { entry, leaf in
            entries.append(entry)
            leaves.append(leaf)
        }
        self.init(
            verifierKeyLine: log.verifierKey.description,
            entries: entries,
            leafHashes: leaves,
            checkpoints: checkpoints.map(\.text)
        )
    }

    /// Writes the export into `directory`, which must not exist yet.
    public func write(to directory: URL) throws(AuditLogError) {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: directory.path) else {
            throw AuditLogError(.io, "\(directory.path) already exists; an export is written to a new directory")
        }
        do {
            try manager.createDirectory(
                at: directory.appendingPathComponent("checkpoints"),
                withIntermediateDirectories: true
            )
            try Data((Self.formatLine + "\n").utf8).write(to: directory.appendingPathComponent("FORMAT"))
            try Data((verifierKeyLine + "\n").utf8).write(to: directory.appendingPathComponent("key.vkey"))
            var framed = Data()
            for entry in entries {
                var length = UInt32(entry.count).bigEndian
                framed.append(Data(bytes: &length, count: 4))
                framed.append(contentsOf: entry)
            }
            try framed.write(to: directory.appendingPathComponent("entries.bin"))
            try Data(leafHashes.joined()).write(to: directory.appendingPathComponent("leaves.bin"))
            for note in checkpoints {
                let size = (try? SignedCheckpoint(text: note))?.checkpoint.size ?? 0
                let name = String(repeating: "0", count: 20 - String(size).count) + String(size) + ".note"
                try Data(note.utf8).write(to: directory.appendingPathComponent("checkpoints/\(name)"))
            }
        } catch {
            throw AuditLogError(.io, "cannot write the export to \(directory.path): \(error)")
        }
    }

    /// Reads an export's files. A missing or unreadable file is an `io` error (the verifier's
    /// "could not read"); what the files say is judged by ``AuditVerifier``, so entries are split
    /// only as far as their framing holds and `framingBrokenAt` says where it broke.
    public static func read(from directory: URL) throws(AuditLogError) -> (export: AuditExport, framingBrokenAt: Int?) {
        func file(_ name: String) throws(AuditLogError) -> Data {
            do {
                return try Data(contentsOf: directory.appendingPathComponent(name))
            } catch {
                throw AuditLogError(.io, "cannot read \(name) in \(directory.path)")
            }
        }
        guard String(decoding: try file("FORMAT"), as: UTF8.self) == formatLine + "\n" else {
            throw AuditLogError(.io, "\(directory.path) is not a HealthVault audit export of format 1")
        }
        let key = String(decoding: try file("key.vkey"), as: UTF8.self)
        let framed = [UInt8](try file("entries.bin"))
        var entries: [[UInt8]] = []
        var offset = 0
        var brokenAt: Int?
        while offset < framed.count {
            guard framed.count - offset >= 4 else {
                brokenAt = entries.count
                break
            }
            let length = framed[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard framed.count - offset >= length else {
                brokenAt = entries.count
                break
            }
            entries.append(Array(framed[offset..<offset + length]))
            offset += length
        }
        let leafBytes = [UInt8](try file("leaves.bin"))
        let leaves = stride(from: 0, to: leafBytes.count - leafBytes.count % 32, by: 32).map {
            Array(leafBytes[$0..<$0 + 32])
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("checkpoints").path
            ).sorted()
        } catch {
            throw AuditLogError(.io, "cannot read the checkpoints in \(directory.path)")
        }
        // Nothing but checkpoint files: a stray file is not this format, not a note to skip.
        for name in names where !isCheckpointFileName(name) {
            throw AuditLogError(
                .io,
                "checkpoints/\(name) in \(directory.path) is not a checkpoint file (<20 digits>.note)"
            )
        }
        var notes: [String] = []
        for name in names {
            notes.append(String(decoding: try file("checkpoints/\(name)"), as: UTF8.self))
        }
        return (AuditExport(verifierKeyLine: key, entries: entries, leafHashes: leaves, checkpoints: notes), brokenAt)
    }

    /// `<tree size, 20 decimal digits>.note`.
    static func isCheckpointFileName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        return utf8.count == 25 && name.hasSuffix(".note") && utf8.prefix(20).allSatisfy { (0x30...0x39).contains($0) }
    }
}
