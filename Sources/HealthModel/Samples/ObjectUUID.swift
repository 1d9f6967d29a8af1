public import Foundation

extension UUID {
    /// A new object's UUID: RFC 9562 version 7, the creation time's Unix milliseconds in its first
    /// 48 bits and 74 random bits after its version and variant (docs/MODEL_JSON.md, "UUIDs").
    ///
    /// The vault keeps an index keyed by UUID, and a save's entries go where their UUIDs sort:
    /// random UUIDs put each new sample's entry on a leaf of its own, time-ordered ones put the
    /// entries of the samples saved in the same moments on the same few leaves, so a commit writes
    /// and encrypts far fewer pages (docs/PERFORMANCE.md, "Time-ordered UUIDs").
    public static func forNewObject() -> UUID {
        var random = SystemRandomNumberGenerator()
        return versionSeven(milliseconds: UInt64(max(0, Date().timeIntervalSince1970 * 1000)), using: &random)
    }

    /// A version 7 UUID of `milliseconds` since 1970 (its low 48 bits), the rest from `random`.
    static func versionSeven(milliseconds: UInt64, using random: inout some RandomNumberGenerator) -> UUID {
        // Bits 0-47 the time, 48-51 the version (7), 52-63 random; 64-65 the variant (0b10), 66-127 random.
        let high = (milliseconds & 0xFFFF_FFFF_FFFF) << 16 | 0x7000 | (random.next() as UInt64) & 0x0FFF
        let low = (random.next() as UInt64) & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        var bytes = uuid_t(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            for index in 0..<8 {
                buffer[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
                buffer[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
            }
        }
        return UUID(uuid: bytes)
    }
}
