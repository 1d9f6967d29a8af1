public import Foundation
import Glibc
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

    /// Reads a private key file; one that other users may read is refused, as ssh does.
    public static func readPrivateKey(_ path: String) throws(ToolError) -> Ed25519.SigningKey {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
            throw ToolError(
                "\(path) may be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 on it"
            )
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ToolError("cannot read the key file \(path)")
        }
        guard var bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32
        else {
            throw ToolError(
                "\(path) is not a HealthVault private key file (one line: base64 of a 32-byte Ed25519 seed)"
            )
        }
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        let seed = SecureBytes(copying: bytes)
        defer { seed.wipe() }
        do {
            return try Ed25519.SigningKey(seed: seed)
        } catch {
            throw ToolError("\(path): \(error)")
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
