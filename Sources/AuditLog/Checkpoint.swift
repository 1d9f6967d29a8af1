import Foundation
public import VaultCrypto

/// A statement of the log's state, signed by the vault: its origin, size and root hash (the C2SP
/// tlog-checkpoint form), plus the store's change counter and digest at that size, so a database
/// rolled back behind the log is caught.
///
///     healthvault/<vault id>
///     <size>
///     <root hash, base64>
///     store <change counter> <store digest, base64>
public struct Checkpoint: Hashable, Sendable {
    public var origin: String
    public var size: UInt64
    public var rootHash: MerkleHash
    public var storeChangeCounter: UInt64
    public var storeDigest: [UInt8]

    public init(origin: String, size: UInt64, rootHash: MerkleHash, storeChangeCounter: UInt64, storeDigest: [UInt8]) {
        self.origin = origin
        self.size = size
        self.rootHash = rootHash
        self.storeChangeCounter = storeChangeCounter
        self.storeDigest = storeDigest
    }

    /// The note text that is signed: four lines, each ending in a newline.
    public var body: String {
        "\(origin)\n\(size)\n\(Data(rootHash).base64EncodedString())\n"
            + "store \(storeChangeCounter) \(Data(storeDigest).base64EncodedString())\n"
    }

    /// Parses the signed text, refusing anything but the exact form `body` writes.
    public init(body: String) throws(AuditLogError) {
        func fail(_ why: String) -> AuditLogError { AuditLogError(.malformedCheckpoint, "the checkpoint \(why)") }
        guard body.hasSuffix("\n") else { throw fail("text does not end with a newline") }
        let lines = body.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count == 4 else { throw fail("does not have exactly four lines") }
        guard !lines[0].isEmpty, !lines[0].contains(" ") else { throw fail("origin is empty or has a space") }
        guard let size = Self.decimal(lines[1]) else { throw fail("size is not a decimal number") }
        guard let root = Self.base64(lines[2], count: 32) else { throw fail("root hash is not 32 bytes of base64") }
        let store = lines[3].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard store.count == 3, store[0] == "store", let counter = Self.decimal(store[1]),
            let digest = Self.base64(store[2], count: 32)
        else { throw fail("store line is not `store <counter> <digest>`") }
        self.init(origin: lines[0], size: size, rootHash: root, storeChangeCounter: counter, storeDigest: digest)
        guard self.body == body else { throw fail("is not in its canonical form") }
    }

    /// A decimal with no sign and no leading zeros.
    static func decimal(_ text: String) -> UInt64? {
        guard let value = UInt64(text), String(value) == text else { return nil }
        return value
    }

    static func base64(_ text: String, count: Int) -> [UInt8]? {
        guard let data = Data(base64Encoded: text), data.count == count, data.base64EncodedString() == text else {
            return nil
        }
        return Array(data)
    }
}

/// A checkpoint with its signatures, in the C2SP signed-note form: the body, a blank line, and one
/// line per signature, `— <key name> <base64(key hash ‖ signature)>`: the vault key's (an Ed25519
/// signature, 68 bytes in all) and any other party's (a C2SP witness cosignature, 76 bytes, or any
/// other length), which are kept but not checked.
public struct SignedCheckpoint: Hashable, Sendable {
    public let checkpoint: Checkpoint
    /// The whole note, as written and read.
    public let text: String
    let signatures: [(name: String, keyHash: [UInt8], signature: [UInt8])]

    public static func == (lhs: SignedCheckpoint, rhs: SignedCheckpoint) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Signs a checkpoint with the vault's audit key.
    public init(signing checkpoint: Checkpoint, with key: Ed25519.SigningKey, as verifier: VerifierKey) {
        let signature = key.signature(for: Array(checkpoint.body.utf8))
        let line = "— \(verifier.name) \(Data(verifier.keyHash + signature).base64EncodedString())\n"
        self.checkpoint = checkpoint
        self.text = checkpoint.body + "\n" + line
        self.signatures = [(verifier.name, verifier.keyHash, signature)]
    }

    /// Parses a signed note; the signatures are checked by ``verify(with:)``.
    public init(text: String) throws(AuditLogError) {
        func fail(_ why: String) -> AuditLogError {
            AuditLogError(.malformedCheckpoint, "the signed checkpoint \(why)")
        }
        guard let split = text.range(of: "\n\n") else { throw fail("has no blank line before its signatures") }
        let body = String(text[..<split.lowerBound]) + "\n"
        let checkpoint = try Checkpoint(body: body)
        let signatureText = text[split.upperBound...]
        guard signatureText.hasSuffix("\n") else { throw fail("does not end with a newline") }
        var signatures: [(String, [UInt8], [UInt8])] = []
        // A line is well formed whoever signed it: a key name (not empty, no space, no `+`) and
        // canonical base64 of a 4-byte key hash and at least one byte of signature. Its length is
        // checked only for the vault key (verify(with:)): other parties' signatures may be of any kind.
        for line in signatureText.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "—", !parts[1].isEmpty,
                !parts[1].contains(where: { $0 == "+" || $0.isWhitespace }),
                let blob = Data(base64Encoded: String(parts[2])), blob.count > 4,
                blob.base64EncodedString() == parts[2]
            else { throw fail("has a malformed signature line") }
            signatures.append((String(parts[1]), Array(blob.prefix(4)), Array(blob.dropFirst(4))))
        }
        guard !signatures.isEmpty else { throw fail("has no signature") }
        self.checkpoint = checkpoint
        self.text = text
        self.signatures = signatures
    }

    /// Checks that `key` signed this checkpoint and that its origin is that key's log. Exactly one
    /// signature line may carry the key's name: two are `malformedCheckpoint` (which one would
    /// count cannot be told); none, or one with another key hash, is `wrongKey`; one whose
    /// signature is not 64 bytes or does not verify is `badSignature`. Other parties' lines are
    /// ignored.
    public func verify(with key: VerifierKey) throws(AuditLogError) {
        let named = signatures.filter { $0.name == key.name }
        guard named.count <= 1 else {
            throw AuditLogError(
                .malformedCheckpoint,
                "the checkpoint at size \(checkpoint.size) has \(named.count) signature lines named \(key.name)"
            )
        }
        guard let signature = named.first, signature.keyHash == key.keyHash else {
            throw AuditLogError(.wrongKey, "the checkpoint at size \(checkpoint.size) is not signed by \(key.name)")
        }
        guard signature.signature.count == 64,
            key.publicKey.isValidSignature(signature.signature, for: Array(checkpoint.body.utf8))
        else {
            throw AuditLogError(
                .badSignature,
                "the signature on the checkpoint at size \(checkpoint.size) does not verify"
            )
        }
        guard checkpoint.origin == key.name else {
            throw AuditLogError(
                .wrongKey,
                "the checkpoint at size \(checkpoint.size) is for another log (\(checkpoint.origin))"
            )
        }
    }
}

/// The vault's audit public key in the C2SP signed-note verifier-key form:
/// `<name>+<key hash, 8 hex digits>+<base64(0x01 ‖ 32-byte Ed25519 public key)>`, where the key
/// hash is the first 4 bytes of `SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key)`.
public struct VerifierKey: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let publicKey: Ed25519.PublicKey
    public var keyHash: [UInt8] { Self.keyHash(name: name, publicKey: publicKey) }

    public init(name: String, publicKey: Ed25519.PublicKey) {
        self.name = name
        self.publicKey = publicKey
    }

    /// Parses a verifier key line (surrounding whitespace ignored).
    public init(line: String) throws(AuditLogError) {
        func fail(_ why: String) -> AuditLogError { AuditLogError(.wrongKey, "the verifier key \(why)") }
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        // The name and hash hold no '+'; the base64 key may.
        let parts = trimmed.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, !parts[0].contains(" ") else {
            throw fail("is not `<name>+<hash>+<key>`")
        }
        guard let blob = Data(base64Encoded: parts[2]), blob.count == 33, blob.first == 0x01,
            let key = try? Ed25519.PublicKey(rawRepresentation: Array(blob.dropFirst()))
        else { throw fail("does not hold an Ed25519 key") }
        self.init(name: parts[0], publicKey: key)
        guard Self.hex(keyHash) == parts[1] else { throw fail("hash does not match its name and key") }
    }

    /// The one-line form.
    public var description: String {
        "\(name)+\(Self.hex(keyHash))+\(Data([0x01] + publicKey.rawRepresentation).base64EncodedString())"
    }

    static func keyHash(name: String, publicKey: Ed25519.PublicKey) -> [UInt8] {
        Array(SHA256.hash(data: Array(name.utf8) + [0x0A, 0x01] + publicKey.rawRepresentation).prefix(4))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
