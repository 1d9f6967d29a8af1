public import Foundation
import Glibc
import VaultClient
public import VaultCrypto

/// An app's key files (docs/PROTOCOL.md, "Key files"; ``KeyFileFormat``): the private key as an
/// armoured block that says it is one, in a file only its owner can read (0600); the public key
/// as one typed line, `healthvault-ed25519-public <base64>` (0644).
public enum KeyFiles {
    /// Writes a new key pair: the private key to `privatePath` (0600), the public key to
    /// `publicPath` (0644). Everything is checked before anything is written: neither file may
    /// exist (neither is ever overwritten), and each folder must exist or be creatable, the
    /// missing ones made owner-only (0700). Then both files appear, or neither: each is written
    /// whole beside its place and linked in, the second's failure removing the first.
    public static func generate(privatePath: String, publicPath: String) throws(ToolError) -> Ed25519.PublicKey {
        let privateURL = URL(fileURLWithPath: privatePath).standardizedFileURL
        let publicURL = URL(fileURLWithPath: publicPath).standardizedFileURL
        guard privateURL.path != publicURL.path else {
            throw ToolError("--private-key and --public-key name the same file, \(privatePath); nothing was written")
        }
        for url in [privateURL, publicURL] {
            var status = stat()
            if lstat(url.path, &status) == 0 {
                throw ToolError("\(url.path) already exists; it is never overwritten, so nothing was written")
            }
            try checkFolderCanHold(url)
        }
        var created: [String] = []
        var written: [String] = []
        do {
            for url in [privateURL, publicURL] { created += try makeFolders(above: url) }
            let key = Ed25519.SigningKey()
            let seed = key.seed
            defer { seed.wipe() }
            var privateText = KeyFileFormat.privateKeyText(seed: seed)
            defer { privateText = String(repeating: " ", count: privateText.count) }
            try place(Data(privateText.utf8), at: privateURL.path, mode: 0o600)
            written.append(privateURL.path)
            try place(Data((KeyFileFormat.publicKeyLine(key.publicKey) + "\n").utf8), at: publicURL.path, mode: 0o644)
            written.append(publicURL.path)
            return key.publicKey
        } catch {
            for path in written { unlink(path) }
            for folder in created.reversed() { rmdir(folder) }
            throw error
        }
    }

    /// The base64 of the key's 32 bytes, as `apps.enroll` takes it.
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

    /// Reads a public key file: the typed line, or the older untyped form where it is safely one
    /// (``KeyFileFormat/readPublicKey(text:path:mode:)``); a private key is refused.
    public static func readPublicKey(_ path: String) throws(ToolError) -> Ed25519.PublicKey {
        do {
            let text = try KeyFileFormat.readText(path)
            var status = stat()
            stat(path, &status)
            return try KeyFileFormat.readPublicKey(text: text, path: path, mode: UInt32(status.st_mode & 0o777))
        } catch {
            throw ToolError(error.description)
        }
    }

    /// Refuses a file whose nearest existing folder is not one this user may create files in.
    static func checkFolderCanHold(_ url: URL) throws(ToolError) {
        var folder = url.deletingLastPathComponent()
        var status = stat()
        while stat(folder.path, &status) != 0 {
            guard errno == ENOENT, folder.path != "/" else {
                throw ToolError("cannot reach \(folder.path): \(String(cString: strerror(errno))); nothing was written")
            }
            folder = folder.deletingLastPathComponent()
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw ToolError("\(folder.path) is a file, so \(url.path) cannot be made; nothing was written")
        }
        guard access(folder.path, W_OK | X_OK) == 0 else {
            throw ToolError(
                "permission denied: you (uid \(getuid())) cannot create files in \(folder.path) (mode \(String(status.st_mode & 0o777, radix: 8))); nothing was written"
            )
        }
    }

    /// Makes the missing folders above `url`, each 0700; returns them, outermost first.
    static func makeFolders(above url: URL) throws(ToolError) -> [String] {
        var missing: [String] = []
        var folder = url.deletingLastPathComponent()
        while access(folder.path, F_OK) != 0, folder.path != "/" {
            missing.insert(folder.path, at: 0)
            folder = folder.deletingLastPathComponent()
        }
        var made: [String] = []
        for path in missing {
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                for done in made.reversed() { rmdir(done) }
                throw ToolError("cannot create the folder \(path): \(reason); nothing was written")
            }
            chmod(path, 0o700)
            made.append(path)
        }
        return made
    }

    /// Writes `contents` whole into a new hidden file beside `path`, flushes it, and links it in
    /// at `path` (never replacing a file that appeared meanwhile).
    static func place(_ contents: Data, at path: String, mode: mode_t) throws(ToolError) {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/.\((path as NSString).lastPathComponent).\(UUID().uuidString).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else {
            throw ToolError("cannot create \(path): \(String(cString: strerror(errno))); nothing was written")
        }
        defer { unlink(temporary) }
        fchmod(fd, mode)
        let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let flushed = fsync(fd) == 0
        close(fd)
        guard written == contents.count, flushed else {
            throw ToolError("cannot write \(path): \(String(cString: strerror(errno))); nothing was written")
        }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST {
                throw ToolError("\(path) already exists; it is never overwritten, so nothing was written")
            }
            throw ToolError("cannot create \(path): \(String(cString: strerror(errno))); nothing was written")
        }
    }
}
