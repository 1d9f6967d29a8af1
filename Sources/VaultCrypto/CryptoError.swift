/// Why a cryptographic operation failed, in words a person can act on.
public struct CryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        /// A ciphertext did not authenticate: the wrong key (passphrase) or altered data.
        case authenticationFailed
        /// Input of the wrong size or form.
        case invalidInput
        /// Argon2id could not run (usually not enough memory for its memory limit).
        case keyDerivationFailed
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
