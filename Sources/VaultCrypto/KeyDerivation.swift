/// Argon2id parameters: how much work and memory turning a passphrase into a key costs.
///
/// Stored beside the wrapped keys so a vault opens with the parameters it was made with.
public struct KeyDerivationParameters: Hashable, Sendable, Codable {
    /// Passes over memory (libsodium's `opslimit`).
    public let opsLimit: UInt64
    /// Memory in bytes (libsodium's `memlimit`).
    public let memLimit: Int

    public init(opsLimit: UInt64, memLimit: Int) {
        self.opsLimit = opsLimit
        self.memLimit = memLimit
    }

    /// libsodium's MODERATE limits (3 passes, 256 MiB; about 0.4 s here): the vault's default.
    public static let moderate = KeyDerivationParameters(
        opsLimit: Sodium.argon2OpsLimitModerate,
        memLimit: Sodium.argon2MemLimitModerate
    )

    /// libsodium's minimum limits: for tests only, never for a real vault.
    public static let minimumForTesting = KeyDerivationParameters(
        opsLimit: Sodium.argon2OpsLimitMin,
        memLimit: Sodium.argon2MemLimitMin
    )

    /// Whether these parameters are at least MODERATE.
    public var isAtLeastModerate: Bool {
        opsLimit >= Self.moderate.opsLimit && memLimit >= Self.moderate.memLimit
    }
}

/// Turns a passphrase into a 32-byte key-encryption key with Argon2id.
public enum KeyDerivation {
    public static let saltCount = Sodium.argon2SaltBytes
    public static let keyCount = 32

    /// Derives the key; throws when Argon2id cannot run (for example, not enough memory).
    public static func deriveKey(
        passphrase: SecureBytes,
        salt: [UInt8],
        parameters: KeyDerivationParameters
    ) throws(CryptoError) -> SecureBytes {
        guard salt.count == saltCount else {
            throw CryptoError(.invalidInput, "the key-derivation salt must be \(saltCount) bytes")
        }
        guard parameters.opsLimit >= Sodium.argon2OpsLimitMin, parameters.memLimit >= Sodium.argon2MemLimitMin,
            parameters.opsLimit <= 1_000, parameters.memLimit <= 1 << 34
        else {
            throw CryptoError(.invalidInput, "the key-derivation parameters are out of range")
        }
        let key = SecureBytes(count: keyCount)
        let ok = key.withUnsafeMutableBytes { output in
            passphrase.withUnsafeBytes { password in
                salt.withUnsafeBytes { saltBytes in
                    Sodium.argon2id(
                        output: output.baseAddress!,
                        outputCount: keyCount,
                        password: password.baseAddress!,
                        passwordCount: password.count,
                        salt: saltBytes.baseAddress!,
                        opsLimit: parameters.opsLimit,
                        memLimit: parameters.memLimit
                    )
                }
            }
        }
        guard ok else {
            throw CryptoError(
                .keyDerivationFailed,
                "Argon2id could not run with \(parameters.memLimit >> 20) MiB of memory"
            )
        }
        return key
    }

    /// A fresh random salt.
    public static func randomSalt() -> [UInt8] {
        randomBytes(count: saltCount)
    }
}

/// Random bytes from the system's secure generator (not secret: salts, nonces, identifiers).
public func randomBytes(count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBytes { Sodium.randomFill($0.baseAddress!, count) }
    return bytes
}
