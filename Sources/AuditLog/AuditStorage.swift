/// Where the log keeps its entries, the hashes of its complete subtrees, its compact range and
/// its signed checkpoints. The vault's implementation writes into the SQLCipher transaction of
/// the access being recorded, so an access and its entry commit together or not at all;
/// ``MemoryAuditStorage`` serves tests and the verifier.
public protocol AuditStorage: MerkleNodeSource {
    /// The right edge of the tree as stored (its size is the number of entries).
    func compactRange() throws -> CompactRange
    /// Stores one entry at `sequence` (= the current size), the complete subtrees it finished,
    /// and the compact range after it.
    func append(entry: [UInt8], sequence: UInt64, nodes: [CompactRange.Node], range: CompactRange) throws
    /// The canonical bytes of the entry at `sequence`.
    func entry(at sequence: UInt64) throws -> [UInt8]
    /// Stores a signed checkpoint (at most one per size).
    func saveCheckpoint(_ checkpoint: SignedCheckpoint) throws
    /// The signed checkpoints, by increasing size.
    func checkpoints() throws -> [SignedCheckpoint]
    /// The entries `0..<size` in order, each with its leaf hash as stored. A storage that can
    /// read them in one pass implements it; the default reads them one by one.
    func forEachEntry(upTo size: UInt64, _ body: (_ entry: [UInt8], _ leafHash: MerkleHash) throws -> Void) throws
}

extension AuditStorage {
    public func forEachEntry(
        upTo size: UInt64,
        _ body: (_ entry: [UInt8], _ leafHash: MerkleHash) throws -> Void
    ) throws {
        for sequence in 0..<size {
            try body(try entry(at: sequence), try node(level: 0, index: sequence))
        }
    }
}

/// An audit log kept in memory.
public final class MemoryAuditStorage: AuditStorage, @unchecked Sendable {
    private var entries: [[UInt8]] = []
    private var levels: [[MerkleHash]] = []
    private var range = CompactRange()
    private var signed: [SignedCheckpoint] = []

    public init() {}

    public func compactRange() -> CompactRange { range }

    public func append(entry: [UInt8], sequence: UInt64, nodes: [CompactRange.Node], range: CompactRange) throws {
        guard sequence == UInt64(entries.count) else {
            throw AuditLogError(.corrupt, "entry \(sequence) appended to a log of \(entries.count)")
        }
        entries.append(entry)
        for node in nodes {
            while levels.count <= node.level { levels.append([]) }
            guard UInt64(levels[node.level].count) == node.index else {
                throw AuditLogError(.corrupt, "node (\(node.level), \(node.index)) out of order")
            }
            levels[node.level].append(node.hash)
        }
        self.range = range
    }

    public func entry(at sequence: UInt64) throws -> [UInt8] {
        guard sequence < UInt64(entries.count) else { throw AuditLogError(.corrupt, "no entry \(sequence)") }
        return entries[Int(sequence)]
    }

    public func node(level: Int, index: UInt64) throws -> MerkleHash {
        guard level < levels.count, index < UInt64(levels[level].count) else {
            throw AuditLogError(.corrupt, "no stored node (\(level), \(index))")
        }
        return levels[level][Int(index)]
    }

    public func saveCheckpoint(_ checkpoint: SignedCheckpoint) throws {
        signed.removeAll { $0.checkpoint.size == checkpoint.checkpoint.size }
        signed.append(checkpoint)
        signed.sort { $0.checkpoint.size < $1.checkpoint.size }
    }

    public func checkpoints() -> [SignedCheckpoint] { signed }
}
