/// The right edge of a Merkle tree: the roots of its complete subtrees, largest first (one per
/// set bit of the size). Appending a leaf and computing the root cost O(log n), whatever the
/// log's length; each append also yields the complete subtrees it finished, to store.
public struct CompactRange: Hashable, Sendable {
    public private(set) var size: UInt64
    /// Roots of the complete subtrees, left to right (sizes descending).
    public private(set) var hashes: [MerkleHash]

    public init() {
        size = 0
        hashes = []
    }

    /// A range restored from its size and subtree roots (as ``hashes`` held them).
    public init(size: UInt64, hashes: [MerkleHash]) throws(AuditLogError) {
        guard hashes.count == size.nonzeroBitCount, hashes.allSatisfy({ $0.count == 32 }) else {
            throw AuditLogError(.corrupt, "a stored compact range does not fit its size")
        }
        self.size = size
        self.hashes = hashes
    }

    /// A complete subtree: the node at `level` and `index` covers leaves
    /// `index << level ..< (index + 1) << level`.
    public struct Node: Hashable, Sendable {
        public let level: Int
        public let index: UInt64
        public let hash: MerkleHash
    }

    /// Appends a leaf hash; returns the complete subtrees this leaf finished, the leaf itself first.
    @discardableResult
    public mutating func append(_ leafHash: MerkleHash) -> [Node] {
        var hash = leafHash
        var level = 0
        var index = size
        var finished = [Node(level: 0, index: index, hash: hash)]
        while index & 1 == 1 {
            hash = Merkle.nodeHash(hashes.removeLast(), hash)
            level += 1
            index >>= 1
            finished.append(Node(level: level, index: index, hash: hash))
        }
        hashes.append(hash)
        size += 1
        return finished
    }

    /// The tree's root hash (`SHA-256("")` when empty).
    public var root: MerkleHash {
        guard var root = hashes.last else { return Merkle.emptyRoot }
        for hash in hashes.dropLast().reversed() {
            root = Merkle.nodeHash(hash, root)
        }
        return root
    }

    /// Where the subtree roots of a tree of `size` leaves are: (level, index) pairs, left to right.
    public static func positions(forSize size: UInt64) -> [(level: Int, index: UInt64)] {
        var positions: [(Int, UInt64)] = []
        var offset: UInt64 = 0
        for level in stride(from: UInt64.bitWidth - 1, through: 0, by: -1) where size & (UInt64(1) << level) != 0 {
            positions.append((level, offset >> UInt64(level)))
            offset += UInt64(1) << level
        }
        return positions
    }
}
