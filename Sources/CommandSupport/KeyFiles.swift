public import Foundation
import Glibc
import VaultClient
public import VaultCrypto

/// An app's key files (docs/PROTOCOL.md, "Key files"): the private key is one line, the base64 of
/// its 32-byte Ed25519 seed (RFC 8032's private key), in a file only its owner can read (0600);
/// the public key is one line, the base64 of its 32 bytes.
public enum KeyFiles {
    /// Writes a new key pair: the private key to `privatePath` (created 0600; an existing file is
    /// never overwritten), the public key to `publicPath`.
    public static func generate(privatePath: String, publicPath: String) throws(ToolError) -> Ed25519.PublicKey {
        let key = Ed25519.SigningKey()
        let seed = key.seed
        defer { seed.wipe() }
        var line = seed.withUnsafeBytes { Data($0).base64EncodedString() } + "\n"
        defer { line = String(repeating: " ", count: line.count) }
        try create(privatePath, contents: Data(line.utf8), mode: 0o600)
        try create(publicPath, contents: Data((publicKeyText(key.publicKey) + "\n").utf8), mode: 0o644)
        return key.publicKey
    }

    public static func publicKeyText(_ key: Ed25519.PublicKey) -> String {
        Data(key.rawRepresentation).base64EncodedString()
    }

    /// Reads a private key file (``PrivateKeyFile``).
    public static func readPrivateKey(_ path: String) throws(ToolError) -> Ed25519.SigningKey {
        do {
            return try PrivateKeyFile.read(path)
        } catch {
            throw ToolError(error.description)
        }
    }

    /// Reads a public key file.
    public static func readPublicKey(_ path: String) throws(ToolError) -> Ed25519.PublicKey {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ToolError("cannot read the public key file \(path)")
        }
        guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let key = try? Ed25519.PublicKey(rawRepresentation: Array(bytes))
        else {
            throw ToolError("\(path) is not a HealthVault public key file (one line: base64 of a 32-byte Ed25519 key)")
        }
        return key
    }

    static func create(_ path: String, contents: Data, mode: mode_t) throws(ToolError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else {
            if errno == EEXIST { throw ToolError("\(path) already exists; it is never overwritten") }
            throw ToolError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        fchmod(fd, mode)
        let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == contents.count, fsync(fd) == 0 else {
            throw ToolError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
