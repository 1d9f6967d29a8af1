/// Secret bytes in memory that libsodium guards (`sodium_malloc`: guard pages, never swapped
/// where the system allows) and wipes when the last reference goes.
///
/// Keys, passphrases and anything derived from them live here, never in `[UInt8]` or `String`.
/// Reach the bytes with ``withUnsafeBytes(_:)``; ``wipe()`` zeroes them at once.
public final class SecureBytes: @unchecked Sendable {
    // Immutable after init except through explicit wipe; callers serialize use of one buffer.
    private let pointer: UnsafeMutableRawPointer
    public let count: Int

    /// `count` zero bytes.
    public init(count: Int) {
        precondition(count >= 0)
        self.count = count
        self.pointer = Sodium.secureAllocate(count)
        Sodium.wipe(pointer, max(count, 1))
    }

    /// `count` random bytes from the system's secure generator.
    public static func random(count: Int) -> SecureBytes {
        let bytes = SecureBytes(count: count)
        Sodium.randomFill(bytes.pointer, count)
        return bytes
    }

    /// Copies `bytes` in. The caller should wipe its own copy.
    public convenience init(copying bytes: some Collection<UInt8>) {
        self.init(count: bytes.count)
        let target = pointer.assumingMemoryBound(to: UInt8.self)
        for (index, byte) in bytes.enumerated() {
            target[index] = byte
        }
    }

    /// Copies the UTF-8 of a passphrase in; `String` itself cannot be wiped, so read passphrases
    /// into `SecureBytes` as early as possible.
    public convenience init(utf8 string: String) {
        self.init(copying: string.utf8)
    }

    deinit {
        Sodium.secureFree(pointer)
    }

    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    public func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// Zeroes the bytes now, before the buffer is freed.
    public func wipe() {
        Sodium.wipe(pointer, max(count, 1))
    }

    /// Compares in constant time.
    public func constantTimeEquals(_ other: SecureBytes) -> Bool {
        count == other.count && Sodium.constantTimeEqual(pointer, other.pointer, count)
    }

    /// Lowercase hex of the bytes, into a new secure buffer (for SQLCipher's raw-key string).
    public func hexEncoded() -> SecureBytes {
        let hex = SecureBytes(count: count * 2)
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        let source = pointer.assumingMemoryBound(to: UInt8.self)
        hex.withUnsafeMutableBytes { target in
            for index in 0..<count {
                target[index * 2] = digits[Int(source[index] >> 4)]
                target[index * 2 + 1] = digits[Int(source[index] & 0x0F)]
            }
        }
        return hex
    }
}
