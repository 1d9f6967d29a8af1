public import AuditLog
import Foundation

/// The audit log's storage in the vault's database (schema version 2): bound to one connection
/// inside one transaction, so an entry appended through it commits or rolls back with
/// everything else that transaction does (the access it records).
///
/// Tables: `audit_entries(sequence, entry)`, `audit_nodes(level, idx, hash)` (every complete
/// subtree), `audit_range(size, hashes)` (the compact range: the tree's right edge),
/// `audit_checkpoints(size, note)`. Triggers refuse any update or deletion of entries, nodes and
/// checkpoints.
public struct DatabaseAuditStorage: AuditStorage {
    let db: Connection

    /// Storage over `db`, which must be inside a transaction (``Database/write(_:)`` or
    /// ``Database/read(_:)``) for the log to read one consistent state.
    public init(_ db: Connection) {
        self.db = db
    }

    public func compactRange() throws -> CompactRange {
        guard let row = try db.rows("SELECT size, hashes FROM audit_range WHERE id = 1").first else {
            return CompactRange()
        }
        guard let size = row[0].int64, size >= 0, let hashes = row[1].bytes, hashes.count % 32 == 0 else {
            throw AuditLogError(.corrupt, "the stored compact range is malformed")
        }
        return try CompactRange(
            size: UInt64(size),
            hashes: stride(from: 0, to: hashes.count, by: 32).map { Array(hashes[$0..<$0 + 32]) }
        )
    }

    public func append(entry: [UInt8], sequence: UInt64, nodes: [CompactRange.Node], range: CompactRange) throws {
        try db.execute(
            "INSERT INTO audit_entries (sequence, entry) VALUES (?, ?)",
            [Int64(sequence), DatabaseValue.blob(entry)]
        )
        let insertNode = try db.statement("INSERT INTO audit_nodes (level, idx, hash) VALUES (?, ?, ?)")
        for node in nodes {
            try insertNode.execute([Int64(node.level), Int64(node.index), DatabaseValue.blob(node.hash)])
        }
        try db.execute(
            "INSERT INTO audit_range (id, size, hashes) VALUES (1, ?, ?) "
                + "ON CONFLICT (id) DO UPDATE SET size = excluded.size, hashes = excluded.hashes",
            [Int64(range.size), DatabaseValue.blob(range.hashes.flatMap { $0 })]
        )
    }

    public func entry(at sequence: UInt64) throws -> [UInt8] {
        guard
            let bytes = try db.rows("SELECT entry FROM audit_entries WHERE sequence = ?", [Int64(sequence)]).first?[0]
                .bytes
        else {
            throw AuditLogError(.corrupt, "no stored audit entry \(sequence)")
        }
        return bytes
    }

    /// One pass over the entries and their stored leaves (level-0 nodes).
    public func forEachEntry(
        upTo size: UInt64,
        _ body: (_ entry: [UInt8], _ leafHash: MerkleHash) throws -> Void
    ) throws {
        let statement = try db.statement(
            """
            SELECT e.entry, n.hash FROM audit_entries e
            LEFT JOIN audit_nodes n ON n.level = 0 AND n.idx = e.sequence
            WHERE e.sequence < ? ORDER BY e.sequence
            """
        )
        try statement.bind([Int64(clamping: size)])
        var expected: UInt64 = 0
        while try statement.step() {
            guard let entry = statement.value(at: 0).bytes, let leaf = statement.value(at: 1).bytes, leaf.count == 32
            else {
                throw AuditLogError(.corrupt, "stored audit entry \(expected) or its leaf hash is missing or malformed")
            }
            try body(entry, leaf)
            expected += 1
        }
        guard expected == size else {
            throw AuditLogError(.corrupt, "the stored audit log has \(expected) entries, not \(size)")
        }
    }

    public func node(level: Int, index: UInt64) throws -> MerkleHash {
        let row = try db.rows("SELECT hash FROM audit_nodes WHERE level = ? AND idx = ?", [Int64(level), Int64(index)])
        guard let hash = row.first?[0].bytes, hash.count == 32 else {
            throw AuditLogError(.corrupt, "no stored audit tree node (\(level), \(index))")
        }
        return hash
    }

    public func saveCheckpoint(_ checkpoint: SignedCheckpoint) throws {
        try db.execute(
            "INSERT INTO audit_checkpoints (size, note) VALUES (?, ?)",
            [Int64(checkpoint.checkpoint.size), checkpoint.text]
        )
    }

    public func checkpoints() throws -> [SignedCheckpoint] {
        try db.rows("SELECT note FROM audit_checkpoints ORDER BY size").map { row in
            guard let text = row[0].string else { throw AuditLogError(.corrupt, "a stored checkpoint is not text") }
            return try SignedCheckpoint(text: text)
        }
    }
}
