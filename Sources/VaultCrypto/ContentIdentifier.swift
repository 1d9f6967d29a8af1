public import Foundation

/// Names content with a UUID only this vault can compute: a keyed BLAKE2b-128 of the content's
/// bytes, with RFC 9562's version 8 (custom) and variant bits set.
///
/// For records that arrive without a UUID (an Apple Health export): the same content always gets
/// the same UUID in this vault, so importing a file twice adds nothing; and, the key being the
/// vault's own, nobody without it can compute the UUID of a guessed record (weight 70.2 kg on
/// 3 March) and learn from a save that refuses it as taken that the vault holds it.
public final class ContentIdentifier: Sendable {
    private let key: SecureBytes

    /// The key, derived from `masterKey` (32 bytes) for `context` (8 ASCII characters).
    public init(masterKey: SecureBytes, context: String) throws(CryptoError) {
        key = try SubkeyDerivation.subkey(of: masterKey, context: context, id: 1)
    }

    /// The UUID of `content`.
    public func uuid(for content: some Collection<UInt8>) -> UUID {
        var digest = [UInt8](repeating: 0, count: 16)
        let bytes = Array(content)
        digest.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { message in
                key.withUnsafeBytes { key in
                    Sodium.keyedHash(out.baseAddress!, count: 16, message: message, key: key)
                }
            }
        }
        digest[6] = (digest[6] & 0x0F) | 0x80  // version 8
        digest[8] = (digest[8] & 0x3F) | 0x80  // variant 10
        return UUID(
            uuid: (
                digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7], digest[8],
                digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]
            )
        )
    }

    /// Overwrites the key.
    public func wipe() {
        key.wipe()
    }
}
