public import Foundation
public import VaultCrypto

/// The append-only audit log over a storage: appends entries (numbering them, hashing them into
/// the Merkle tree) and signs checkpoints, never two that contradict each other.
///
/// It keeps no state of its own between calls: everything is read from and written to the
/// storage, so an append made inside a transaction that rolls back leaves nothing behind.
public struct AuditLog<Storage: AuditStorage> {
    public let storage: Storage
    /// The log's name and its signer's: `healthvault/<vault id>`.
    public let verifierKey: VerifierKey

    public init(storage: Storage, verifierKey: VerifierKey) {
        self.storage = storage
        self.verifierKey = verifierKey
    }

    /// The number of entries.
    public func size() throws -> UInt64 { try storage.compactRange().size }

    /// The root hash over every entry.
    public func rootHash() throws -> MerkleHash { try storage.compactRange().root }

    /// Appends an entry, giving it the next sequence number; returns it as recorded. Costs a few
    /// hashes and one storage write, whatever the log's length.
    @discardableResult
    public func append(_ entry: AuditEntry) throws -> AuditEntry {
        var range = try storage.compactRange()
        var recorded = entry
        recorded.sequence = range.size
        let bytes = try recorded.encoded()
        let nodes = range.append(Merkle.leafHash(bytes))
        try storage.append(entry: bytes, sequence: recorded.sequence, nodes: nodes, range: range)
        return recorded
    }

    /// Signs a checkpoint of the log as it is now, with the store's state, and stores it.
    ///
    /// Refuses (`inconsistent`) rather than sign a checkpoint that contradicts the latest one: a
    /// smaller size, another root at the same size, a store counter that went backwards, or a tree
    /// that does not extend the signed one (checked with a consistency proof from the stored nodes).
    /// Signing again at an unchanged state returns the latest checkpoint.
    @discardableResult
    public func signCheckpoint(
        with key: Ed25519.SigningKey,
        storeChangeCounter: UInt64,
        storeDigest: [UInt8]
    ) throws -> SignedCheckpoint {
        guard key.publicKey == verifierKey.publicKey else {
            throw AuditLogError(.wrongKey, "the signing key is not the log's key")
        }
        guard storeDigest.count == 32 else { throw AuditLogError(.invalidArgument, "a store digest is 32 bytes") }
        let range = try storage.compactRange()
        let checkpoint = Checkpoint(
            origin: verifierKey.name,
            size: range.size,
            rootHash: range.root,
            storeChangeCounter: storeChangeCounter,
            storeDigest: storeDigest
        )
        if let latest = try storage.checkpoints().last {
            let previous = latest.checkpoint
            if previous == checkpoint { return latest }
            guard previous.size < checkpoint.size, previous.storeChangeCounter <= storeChangeCounter else {
                throw AuditLogError(
                    .inconsistent,
                    "refusing to sign a checkpoint at size \(checkpoint.size) that contradicts the one signed at size \(previous.size)"
                )
            }
            if previous.size > 0 {
                let proof = try Merkle.consistencyProof(size1: previous.size, size2: checkpoint.size, nodes: storage)
                do {
                    try Merkle.verifyConsistency(
                        size1: previous.size,
                        size2: checkpoint.size,
                        proof: proof,
                        root1: previous.rootHash,
                        root2: checkpoint.rootHash
                    )
                } catch {
                    throw AuditLogError(
                        .inconsistent,
                        "the stored log does not extend the checkpoint signed at size \(previous.size): \(error)"
                    )
                }
            }
        }
        let signed = SignedCheckpoint(signing: checkpoint, with: key, as: verifierKey)
        try storage.saveCheckpoint(signed)
        return signed
    }

    /// The newest `limit` entries for which `matches` holds, oldest first, read from the end
    /// backwards: what it holds in memory is bounded by `limit`, not by the log's length.
    public func newestEntries(limit: Int, where matches: (AuditEntry) -> Bool) throws -> [AuditEntry] {
        var found: [AuditEntry] = []
        var sequence = try size()
        while found.count < limit, sequence > 0 {
            sequence -= 1
            let entry = try AuditEntry(decoding: storage.entry(at: sequence))
            if matches(entry) { found.append(entry) }
        }
        return found.reversed()
    }

    /// The entries from `start` (decoded), in order.
    public func entries(from start: UInt64 = 0) throws -> [AuditEntry] {
        let size = try size()
        guard start < size else { return [] }
        return try (start..<size).map { try AuditEntry(decoding: storage.entry(at: $0)) }
    }
}
