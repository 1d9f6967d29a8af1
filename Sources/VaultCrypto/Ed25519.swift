/// Ed25519 signatures, shaped after CryptoKit's `Curve25519.Signing`, backed by libsodium.
public enum Ed25519 {
    /// A signing key; its secret lives in ``SecureBytes``.
    public struct SigningKey: Sendable {
        /// libsodium's 64-byte secret key (seed followed by the public key).
        let secret: SecureBytes
        public let publicKey: PublicKey

        /// A fresh random key pair.
        public init() {
            let secret = SecureBytes(count: Sodium.signSecretKeyBytes)
            var publicBytes = [UInt8](repeating: 0, count: Sodium.signPublicKeyBytes)
            publicBytes.withUnsafeMutableBytes { pk in
                secret.withUnsafeMutableBytes { sk in
                    Sodium.signKeyPair(publicKey: pk.baseAddress!, secretKey: sk.baseAddress!)
                }
            }
            self.secret = secret
            self.publicKey = PublicKey(unchecked: publicBytes)
        }

        /// Restores a key from libsodium's 64-byte secret-key form.
        public init(secretKey: SecureBytes) throws(CryptoError) {
            guard secretKey.count == Sodium.signSecretKeyBytes else {
                throw CryptoError(.invalidInput, "an Ed25519 secret key must be \(Sodium.signSecretKeyBytes) bytes")
            }
            var publicBytes = [UInt8](repeating: 0, count: Sodium.signPublicKeyBytes)
            publicBytes.withUnsafeMutableBytes { pk in
                secretKey.withUnsafeBytes { sk in
                    Sodium.signPublicKey(fromSecretKey: sk.baseAddress!, into: pk.baseAddress!)
                }
            }
            self.secret = secretKey
            self.publicKey = PublicKey(unchecked: publicBytes)
        }

        /// The key pair of a 32-byte seed (RFC 8032's private key); the same seed always gives the
        /// same key pair. The seed is copied; the caller wipes its own.
        public init(seed: SecureBytes) throws(CryptoError) {
            guard seed.count == Sodium.signSeedBytes else {
                throw CryptoError(.invalidInput, "an Ed25519 seed must be \(Sodium.signSeedBytes) bytes")
            }
            let secret = SecureBytes(count: Sodium.signSecretKeyBytes)
            var publicBytes = [UInt8](repeating: 0, count: Sodium.signPublicKeyBytes)
            publicBytes.withUnsafeMutableBytes { pk in
                secret.withUnsafeMutableBytes { sk in
                    seed.withUnsafeBytes { s in
                        Sodium.signSeedKeyPair(
                            publicKey: pk.baseAddress!,
                            secretKey: sk.baseAddress!,
                            seed: s.baseAddress!
                        )
                    }
                }
            }
            self.secret = secret
            self.publicKey = PublicKey(unchecked: publicBytes)
        }

        /// The 32-byte seed (RFC 8032's private key): the first half of libsodium's secret key.
        public var seed: SecureBytes {
            let seed = SecureBytes(count: Sodium.signSeedBytes)
            seed.withUnsafeMutableBytes { out in
                secret.withUnsafeBytes { sk in out.copyMemory(from: UnsafeRawBufferPointer(rebasing: sk[0..<out.count]))
                }
            }
            return seed
        }

        /// The secret in libsodium's 64-byte form, for wrapping.
        public var secretKey: SecureBytes { secret }

        public func signature(for message: some Collection<UInt8>) -> [UInt8] {
            var signature = [UInt8](repeating: 0, count: Sodium.signatureBytes)
            let bytes = Array(message)
            signature.withUnsafeMutableBytes { out in
                bytes.withUnsafeBytes { m in
                    secret.withUnsafeBytes { sk in
                        Sodium.sign(signature: out.baseAddress!, message: m, secretKey: sk.baseAddress!)
                    }
                }
            }
            return signature
        }
    }

    /// A public verification key: 32 bytes, not secret.
    public struct PublicKey: Hashable, Sendable, Codable {
        public let rawRepresentation: [UInt8]

        public init(rawRepresentation: [UInt8]) throws(CryptoError) {
            guard rawRepresentation.count == Sodium.signPublicKeyBytes else {
                throw CryptoError(.invalidInput, "an Ed25519 public key must be \(Sodium.signPublicKeyBytes) bytes")
            }
            self.rawRepresentation = rawRepresentation
        }

        init(unchecked bytes: [UInt8]) {
            self.rawRepresentation = bytes
        }

        /// Whether the bytes are a point of the curve's prime-order subgroup: true of every key a
        /// seed gives, false of most other 32 bytes (a seed, a hash) taken for a public key.
        public var isValidPoint: Bool {
            rawRepresentation.withUnsafeBytes { Sodium.isValidEd25519Point($0.baseAddress!) }
        }

        public func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>) -> Bool {
            guard signature.count == Sodium.signatureBytes else { return false }
            let bytes = Array(message)
            return signature.withUnsafeBytes { s in
                bytes.withUnsafeBytes { m in
                    rawRepresentation.withUnsafeBytes { pk in
                        Sodium.verify(signature: s.baseAddress!, message: m, publicKey: pk.baseAddress!)
                    }
                }
            }
        }
    }
}
