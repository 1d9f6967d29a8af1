/// SHA-256, shaped after CryptoKit's: one-shot ``hash(data:)`` or incremental ``update(data:)``.
public struct SHA256: Sendable {
    private var state = Sodium.SHA256State()

    public static let byteCount = 32

    public init() {}

    public mutating func update(data: some Collection<UInt8>) {
        // Contiguous collections (arrays, slices) are hashed in place; others are copied once.
        let done: Void? = data.withContiguousStorageIfAvailable { state.update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(data).withUnsafeBytes { state.update($0) }
        }
    }

    public mutating func update(bytes: UnsafeRawBufferPointer) {
        state.update(bytes)
    }

    /// The digest; the hasher is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Self.byteCount)
        digest.withUnsafeMutableBytes { state.finalize(into: $0.baseAddress!) }
        return digest
    }

    public static func hash(data: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }
}

/// The libsodium version linked in.
public var sodiumVersion: String { Sodium.version }
