/// Subkeys of a 32-byte master key (libsodium's `crypto_kdf_derive_from_key`, BLAKE2b): one key
/// per purpose, none of which reveals the master key or another subkey.
public enum SubkeyDerivation {
    public static let masterKeyCount = Sodium.kdfKeyBytes

    /// A `count`-byte subkey (16 to 64) of `masterKey` for `context` (exactly 8 ASCII characters,
    /// naming the purpose) and `id`.
    public static func subkey(
        of masterKey: SecureBytes,
        context: String,
        id: UInt64 = 1,
        count: Int = 32
    ) throws(CryptoError) -> SecureBytes {
        guard masterKey.count == Sodium.kdfKeyBytes else {
            throw CryptoError(.invalidInput, "a master key must be \(Sodium.kdfKeyBytes) bytes")
        }
        guard context.utf8.count == Sodium.kdfContextBytes, context.allSatisfy(\.isASCII) else {
            throw CryptoError(
                .invalidInput,
                "a key-derivation context is exactly \(Sodium.kdfContextBytes) ASCII characters"
            )
        }
        guard (16...64).contains(count) else {
            throw CryptoError(.invalidInput, "a subkey is 16 to 64 bytes")
        }
        let subkey = SecureBytes(count: count)
        let contextBytes = context.utf8.map { CChar(bitPattern: $0) }
        subkey.withUnsafeMutableBytes { out in
            masterKey.withUnsafeBytes { key in
                Sodium.deriveSubkey(
                    out.baseAddress!,
                    count: count,
                    id: id,
                    context: contextBytes,
                    key: key.baseAddress!
                )
            }
        }
        return subkey
    }
}
