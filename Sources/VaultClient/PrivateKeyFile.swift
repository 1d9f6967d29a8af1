public import Foundation
import Glibc
public import VaultCrypto

/// An app's private key file (docs/PROTOCOL.md, "Key files"): one line, the base64 of its 32-byte
/// Ed25519 seed (RFC 8032's private key). The one reader of such files, for HealthVaultKit and
/// the command-line tools alike.
public enum PrivateKeyFile {
    /// Reads the key at `path`. A file other users may read is refused, as ssh does; so is one
    /// that is not a key file. The error is one line for a person.
    public static func read(_ path: String) throws(KeyFileError) -> Ed25519.SigningKey {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
            throw KeyFileError(
                "\(path) may be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 on it"
            )
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw KeyFileError("cannot read the key file \(path)")
        }
        guard var bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32
        else {
            throw KeyFileError(
                "\(path) is not a HealthVault private key file (one line: base64 of a 32-byte Ed25519 seed)"
            )
        }
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        let seed = SecureBytes(copying: bytes)
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
