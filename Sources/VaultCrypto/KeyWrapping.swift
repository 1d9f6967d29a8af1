/// Wraps a secret key under a key-encryption key with XChaCha20-Poly1305, bound to associated
/// data (so a wrapped key cannot be moved to another vault or another purpose unnoticed).
public struct WrappedKey: Hashable, Sendable, Codable {
    /// 24 random bytes.
    public let nonce: [UInt8]
    /// The encrypted key followed by the 16-byte Poly1305 tag.
    public let ciphertext: [UInt8]

    public init(nonce: [UInt8], ciphertext: [UInt8]) {
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    /// Encrypts `key` under `wrappingKey` (32 bytes) with a fresh random nonce.
    public static func wrap(
        _ key: SecureBytes,
        with wrappingKey: SecureBytes,
        associatedData: [UInt8]
    ) throws(CryptoError) -> WrappedKey {
        guard wrappingKey.count == Sodium.aeadKeyBytes else {
            throw CryptoError(.invalidInput, "a wrapping key must be \(Sodium.aeadKeyBytes) bytes")
        }
        let nonce = randomBytes(count: Sodium.aeadNonceBytes)
        var ciphertext = [UInt8](repeating: 0, count: key.count + Sodium.aeadTagBytes)
        ciphertext.withUnsafeMutableBytes { output in
            key.withUnsafeBytes { plaintext in
                wrappingKey.withUnsafeBytes { kek in
                    associatedData.withUnsafeBytes { ad in
                        nonce.withUnsafeBytes { n in
                            Sodium.aeadSeal(
                                ciphertext: output.baseAddress!,
                                plaintext: plaintext.baseAddress!,
                                plaintextCount: plaintext.count,
                                associatedData: ad,
                                nonce: n.baseAddress!,
                                key: kek.baseAddress!
                            )
                        }
                    }
                }
            }
        }
        return WrappedKey(nonce: nonce, ciphertext: ciphertext)
    }

    /// Decrypts the key; throws `authenticationFailed` for the wrong wrapping key, other
    /// associated data, or any altered byte.
    public func unwrap(with wrappingKey: SecureBytes, associatedData: [UInt8]) throws(CryptoError) -> SecureBytes {
        guard wrappingKey.count == Sodium.aeadKeyBytes, nonce.count == Sodium.aeadNonceBytes,
            ciphertext.count >= Sodium.aeadTagBytes
        else {
            throw CryptoError(.invalidInput, "the wrapped key is malformed")
        }
        let key = SecureBytes(count: ciphertext.count - Sodium.aeadTagBytes)
        let ok = key.withUnsafeMutableBytes { output in
            ciphertext.withUnsafeBytes { sealed in
                wrappingKey.withUnsafeBytes { kek in
                    associatedData.withUnsafeBytes { ad in
                        nonce.withUnsafeBytes { n in
                            Sodium.aeadOpen(
                                plaintext: output.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 1)!,
                                ciphertext: sealed,
                                associatedData: ad,
                                nonce: n.baseAddress!,
                                key: kek.baseAddress!
                            )
                        }
                    }
                }
            }
        }
        guard ok else {
            throw CryptoError(.authenticationFailed, "the key does not unwrap: wrong passphrase or altered key file")
        }
        return key
    }
}
