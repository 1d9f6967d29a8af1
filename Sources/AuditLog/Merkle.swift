public import VaultCrypto

/// A SHA-256 hash in the audit log's Merkle tree: always 32 bytes.
public typealias MerkleHash = [UInt8]

/// RFC 6962 / RFC 9162 Merkle trees over SHA-256: leaf and node hashing, roots, and the
/// verification of inclusion and consistency proofs (as transparency-dev/merkle verifies them,
/// proof lengths included, so every one of its test cases gets the expected answer).
public enum Merkle {
    /// `SHA-256(0x00 ‖ entry)`.
    public static func leafHash(_ entry: some Collection<UInt8>) -> MerkleHash {
        var hasher = SHA256()
        hasher.update(data: leafPrefix)
        hasher.update(data: entry)
        return hasher.finalize()
    }

    /// `SHA-256(0x01 ‖ left ‖ right)`.
    public static func nodeHash(_ left: MerkleHash, _ right: MerkleHash) -> MerkleHash {
        var hasher = SHA256()
        hasher.update(data: nodePrefix)
        hasher.update(data: left)
        hasher.update(data: right)
        return hasher.finalize()
    }

    private static let leafPrefix: [UInt8] = [0x00]
    private static let nodePrefix: [UInt8] = [0x01]

    /// The root of an empty tree: `SHA-256("")`.
    public static let emptyRoot: MerkleHash = SHA256.hash(data: [UInt8]())

    /// The root over these leaf hashes, by RFC 6962's recursive definition (for checks and tests;
    /// the log itself keeps a ``CompactRange``).
    public static func root(leafHashes: ArraySlice<MerkleHash>) -> MerkleHash {
        switch leafHashes.count {
        case 0: return emptyRoot
        case 1: return leafHashes.first!
        default:
            let split = leafHashes.startIndex + largestPowerOfTwo(below: leafHashes.count)
            return nodeHash(root(leafHashes: leafHashes[..<split]), root(leafHashes: leafHashes[split...]))
        }
    }

    /// The largest power of two strictly below `n` (n ≥ 2).
    static func largestPowerOfTwo(below n: Int) -> Int {
        1 << (Int.bitWidth - 1 - (n - 1).leadingZeroBitCount)
    }

    // MARK: Verifying proofs

    /// Checks that `leafHash` is the leaf at `index` of the tree of `size` leaves whose root is
    /// `root`, given an inclusion proof (RFC 9162 2.1.3.2).
    public static func verifyInclusion(
        index: UInt64,
        size: UInt64,
        leafHash: MerkleHash,
        proof: [MerkleHash],
        root: MerkleHash
    ) throws(MerkleError) {
        let computed = try rootFromInclusionProof(index: index, size: size, leafHash: leafHash, proof: proof)
        guard computed == root else { throw .rootMismatch }
    }

    /// The root an inclusion proof leads to.
    public static func rootFromInclusionProof(
        index: UInt64,
        size: UInt64,
        leafHash: MerkleHash,
        proof: [MerkleHash]
    ) throws(MerkleError) -> MerkleHash {
        guard index < size else { throw .indexOutOfRange }
        guard leafHash.count == SHA256.byteCount else { throw .malformedHash }
        guard proof.allSatisfy({ $0.count == SHA256.byteCount }) else { throw .malformedHash }
        let (inner, border) = decomposeInclusionProof(index: index, size: size)
        guard proof.count == inner + border else { throw .wrongProofLength }
        let seed = chainInner(leafHash, proof[..<inner], index: index)
        return chainBorderRight(seed, proof[inner...])
    }

    /// Checks that the tree of `size2` leaves with root `root2` extends the tree of `size1`
    /// leaves with root `root1`, given a consistency proof (RFC 9162 2.1.4.2). A proof from an
    /// empty tree is meaningless and refused.
    public static func verifyConsistency(
        size1: UInt64,
        size2: UInt64,
        proof: [MerkleHash],
        root1: MerkleHash,
        root2: MerkleHash
    ) throws(MerkleError) {
        guard proof.allSatisfy({ $0.count == SHA256.byteCount }) else { throw .malformedHash }
        guard size1 <= size2 else { throw .sizesOutOfOrder }
        guard size1 > 0 else { throw .emptyTree }
        if size1 == size2 {
            guard proof.isEmpty else { throw .wrongProofLength }
            guard root1 == root2 else { throw .rootMismatch }
            return
        }
        guard !proof.isEmpty else { throw .wrongProofLength }
        var (inner, border) = decomposeInclusionProof(index: size1 - 1, size: size2)
        let shift = size1.trailingZeroBitCount
        inner -= shift
        // The proof starts with the root of the subtree of size 2^shift, unless that is size1 itself.
        var seed = proof[0]
        var start = 1
        if size1 == UInt64(1) << shift {
            seed = root1
            start = 0
        }
        guard proof.count == start + inner + border else { throw .wrongProofLength }
        let rest = proof[start...]
        let innerPart = rest.prefix(inner)
        let borderPart = rest.dropFirst(inner)
        let mask = (size1 - 1) >> shift
        let hash1 = chainBorderRight(chainInnerRight(seed, innerPart, index: mask), borderPart)
        guard hash1 == root1 else { throw .rootMismatch }
        let hash2 = chainBorderRight(chainInner(seed, innerPart, index: mask), borderPart)
        guard hash2 == root2 else { throw .rootMismatch }
    }

    static func decomposeInclusionProof(index: UInt64, size: UInt64) -> (inner: Int, border: Int) {
        let inner = UInt64.bitWidth - (index ^ (size - 1)).leadingZeroBitCount
        let border = (inner >= UInt64.bitWidth ? 0 : index >> UInt64(inner)).nonzeroBitCount
        return (inner, border)
    }

    private static func chainInner(_ seed: MerkleHash, _ proof: ArraySlice<MerkleHash>, index: UInt64) -> MerkleHash {
        var hash = seed
        for (level, sibling) in proof.enumerated() {
            hash = (index >> UInt64(level)) & 1 == 0 ? nodeHash(hash, sibling) : nodeHash(sibling, hash)
        }
        return hash
    }

    private static func chainInnerRight(
        _ seed: MerkleHash,
        _ proof: ArraySlice<MerkleHash>,
        index: UInt64
    ) -> MerkleHash {
        var hash = seed
        for (level, sibling) in proof.enumerated() where (index >> UInt64(level)) & 1 == 1 {
            hash = nodeHash(sibling, hash)
        }
        return hash
    }

    private static func chainBorderRight(_ seed: MerkleHash, _ proof: ArraySlice<MerkleHash>) -> MerkleHash {
        proof.reduce(seed) { nodeHash($1, $0) }
    }

    // MARK: Making proofs

    /// The inclusion proof of leaf `index` in the tree of `size` leaves (RFC 6962 PATH), from the
    /// hashes of complete subtrees that `nodes` supplies.
    public static func inclusionProof(
        index: UInt64,
        size: UInt64,
        nodes: some MerkleNodeSource
    ) throws -> [MerkleHash] {
        guard index < size else { throw MerkleError.indexOutOfRange }
        var proof: [MerkleHash] = []
        try path(index, 0, size, nodes, &proof)
        return proof
    }

    /// The consistency proof from the tree of `size1` leaves to the tree of `size2` (RFC 6962
    /// PROOF), from the hashes of complete subtrees that `nodes` supplies.
    public static func consistencyProof(
        size1: UInt64,
        size2: UInt64,
        nodes: some MerkleNodeSource
    ) throws -> [MerkleHash] {
        guard size1 <= size2 else { throw MerkleError.sizesOutOfOrder }
        guard size1 > 0 else { throw MerkleError.emptyTree }
        var proof: [MerkleHash] = []
        if size1 < size2 {
            try subproof(size1, 0, size2, true, nodes, &proof)
        }
        return proof
    }

    /// The root of the tree of `size` leaves.
    public static func root(size: UInt64, nodes: some MerkleNodeSource) throws -> MerkleHash {
        size == 0 ? emptyRoot : try hash(0, size, nodes)
    }

    /// PATH(m, D[low..<high]), appended to `proof` leaf-side first.
    private static func path(
        _ m: UInt64,
        _ low: UInt64,
        _ high: UInt64,
        _ nodes: some MerkleNodeSource,
        _ proof: inout [MerkleHash]
    ) throws {
        let n = high - low
        guard n > 1 else { return }
        let k = UInt64(largestPowerOfTwo(below: Int(n)))
        if m < k {
            try path(m, low, low + k, nodes, &proof)
            proof.append(try hash(low + k, high, nodes))
        } else {
            try path(m - k, low + k, high, nodes, &proof)
            proof.append(try hash(low, low + k, nodes))
        }
    }

    /// SUBPROOF(m, D[low..<high], b), appended to `proof`.
    private static func subproof(
        _ m: UInt64,
        _ low: UInt64,
        _ high: UInt64,
        _ complete: Bool,
        _ nodes: some MerkleNodeSource,
        _ proof: inout [MerkleHash]
    ) throws {
        let n = high - low
        if m == n {
            if !complete { proof.append(try hash(low, high, nodes)) }
            return
        }
        let k = UInt64(largestPowerOfTwo(below: Int(n)))
        if m <= k {
            try subproof(m, low, low + k, complete, nodes, &proof)
            proof.append(try hash(low + k, high, nodes))
        } else {
            try subproof(m - k, low + k, high, false, nodes, &proof)
            proof.append(try hash(low, low + k, nodes))
        }
    }

    /// MTH(D[low..<high]): a stored node when the range is a complete, aligned subtree, else split.
    private static func hash(_ low: UInt64, _ high: UInt64, _ nodes: some MerkleNodeSource) throws -> MerkleHash {
        let n = high - low
        if n & (n - 1) == 0, low % n == 0 {
            let level = n.trailingZeroBitCount
            return try nodes.node(level: level, index: low >> UInt64(level))
        }
        let k = UInt64(largestPowerOfTwo(below: Int(n)))
        return nodeHash(try hash(low, low + k, nodes), try hash(low + k, high, nodes))
    }
}

/// Where the hashes of complete subtrees come from: level 0 holds the leaf hashes, and the node
/// at (level, index) covers leaves `index << level ..< (index + 1) << level`.
public protocol MerkleNodeSource {
    func node(level: Int, index: UInt64) throws -> MerkleHash
}

/// Why a Merkle proof was refused.
public enum MerkleError: Error, Sendable, Hashable, CustomStringConvertible {
    case indexOutOfRange
    case malformedHash
    case wrongProofLength
    case rootMismatch
    case sizesOutOfOrder
    case emptyTree

    public var description: String {
        switch self {
        case .indexOutOfRange: "the leaf index is not inside the tree"
        case .malformedHash: "a hash is not 32 bytes"
        case .wrongProofLength: "the proof has the wrong number of hashes for these sizes"
        case .rootMismatch: "the proof does not lead to the given root"
        case .sizesOutOfOrder: "the second tree is smaller than the first"
        case .emptyTree: "a consistency proof from an empty tree is meaningless"
        }
    }
}
