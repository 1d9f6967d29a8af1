/// Seals short values into tokens that only this vault can read back and nobody can forge: what
/// the vault hands an app to keep (a query anchor) without telling it anything.
///
/// Deterministic authenticated encryption in the SIV manner: the nonce is a keyed BLAKE2b-192 of
/// the associated data and the plaintext (under one key), the value is sealed with
/// XChaCha20-Poly1305 under another. The same value for the same associated data always gives the
/// same token, so equal tokens show only that the values are equal; a token made for other
/// associated data, or altered in any byte, does not open.
public final class TokenSealer: Sendable {
    private let nonceKey: SecureBytes
    private let sealingKey: SecureBytes

    /// The two keys, derived from `masterKey` (32 bytes) for `context` (8 ASCII characters).
    public init(masterKey: SecureBytes, context: String) throws(CryptoError) {
        nonceKey = try SubkeyDerivation.subkey(of: masterKey, context: context, id: 1)
        sealingKey = try SubkeyDerivation.subkey(of: masterKey, context: context, id: 2)
    }

    /// The nonce (24 bytes) followed by the sealed value and its 16-byte tag.
    public func seal(_ plaintext: [UInt8], associatedData: [UInt8]) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: Sodium.aeadNonceBytes)
        // The nonce covers the associated data's length, so no two (data, value) pairs share input.
        let input = Self.lengthPrefix(associatedData.count) + associatedData + plaintext
        nonce.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { message in
                nonceKey.withUnsafeBytes { key in
                    Sodium.keyedHash(out.baseAddress!, count: out.count, message: message, key: key)
                }
            }
        }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + Sodium.aeadTagBytes)
        ciphertext.withUnsafeMutableBytes { output in
            plaintext.withUnsafeBytes { value in
                associatedData.withUnsafeBytes { ad in
                    nonce.withUnsafeBytes { n in
                        sealingKey.withUnsafeBytes { key in
                            Sodium.aeadSeal(
                                ciphertext: output.baseAddress!,
                                plaintext: value.baseAddress ?? n.baseAddress!,
                                plaintextCount: value.count,
                                associatedData: ad,
                                nonce: n.baseAddress!,
                                key: key.baseAddress!
                            )
                        }
                    }
                }
            }
        }
        return nonce + ciphertext
    }

    /// The value a token sealed (never empty), or nil when it is not a token this sealer made for
    /// `associatedData` (altered, truncated, made by another vault or for another purpose), or
    /// when its nonce is not the one its value implies.
    public func open(_ token: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        let nonceCount = Sodium.aeadNonceBytes
        guard token.count > nonceCount + Sodium.aeadTagBytes else { return nil }
        let nonce = Array(token[..<nonceCount])
        let sealed = Array(token[nonceCount...])
        var plaintext = [UInt8](repeating: 0, count: sealed.count - Sodium.aeadTagBytes)
        let opened = plaintext.withUnsafeMutableBytes { output in
            sealed.withUnsafeBytes { ciphertext in
                associatedData.withUnsafeBytes { ad in
                    nonce.withUnsafeBytes { n in
                        sealingKey.withUnsafeBytes { key in
                            Sodium.aeadOpen(
                                plaintext: output.baseAddress!,
                                ciphertext: ciphertext,
                                associatedData: ad,
                                nonce: n.baseAddress!,
                                key: key.baseAddress!
                            )
                        }
                    }
                }
            }
        }
        guard opened, seal(plaintext, associatedData: associatedData) == token else { return nil }
        return plaintext
    }

    /// Wipes both keys; the sealer is unusable after.
    public func wipe() {
        nonceKey.wipe()
        sealingKey.wipe()
    }

    private static func lengthPrefix(_ count: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt64(count).littleEndian, Array.init)
    }
}
