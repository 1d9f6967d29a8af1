public import Foundation
import Glibc
public import VaultCrypto

/// An app's private key file (docs/PROTOCOL.md, "Key files"; ``KeyFileFormat``): the armoured
/// block `-----BEGIN HEALTHVAULT ED25519 PRIVATE KEY-----`, the base64 of its 32-byte Ed25519 seed
/// (RFC 8032's private key), `-----END ...-----`; or, as older HealthVaults wrote it, that base64
/// alone on one line. The one reader of such files, for HealthVaultKit and the command-line
/// tools alike.
public enum PrivateKeyFile {
    /// Reads the key at `path`. A file other users may read is refused, as ssh does; so is a
    /// public key file, and anything else that is not a private key file. The error is one line
    /// for a person.
    public static func read(_ path: String) throws(KeyFileError) -> Ed25519.SigningKey {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
            throw KeyFileError(
                "\(path) may be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 on it"
            )
        }
        let text = try KeyFileFormat.readText(path)
        let seed = try KeyFileFormat.readSeed(text: text, path: path)
        defer { seed.wipe() }
        do {
            return try Ed25519.SigningKey(seed: seed)
        } catch {
            throw KeyFileError("\(path): \(error)")
        }
    }
}

/// Why a key file could not be used.
public struct KeyFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
