public import Foundation
import Glibc
public import VaultCrypto

/// Where `healthvault login` keeps the owner's session token for one vault: a file in
/// `$XDG_RUNTIME_DIR/healthvault/` (a folder in memory, the owner's, emptied at logout of the
/// system). The token unlocks nothing at rest: it only authenticates the owner to the daemon
/// that issued it, from the owner's uid, until it expires; the daemon forgets it on logout, lock
/// and restart. The folder and the file are checked (owner and mode) before every use; one that
/// others could read or that belongs to someone else is refused and said so.
public struct SessionFile: Sendable {
    /// The session's folder, `$XDG_RUNTIME_DIR/healthvault`.
    public let folder: URL
    /// The file for the vault at `directory`.
    public let path: String

    /// The file for the vault at `directory`, named by a digest of its path; nil when
    /// `$XDG_RUNTIME_DIR` is not set (or not absolute).
    public init?(vault directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        folder = URL(fileURLWithPath: runtime).appendingPathComponent("healthvault")
        let digest = SHA256.hash(data: Array(directory.standardizedFileURL.path.utf8)).prefix(16)
        path = folder.appendingPathComponent("session-" + digest.map { String(format: "%02x", $0) }.joined()).path
    }

    /// A session as the file holds it.
    public struct Contents: Sendable {
        public var token: SecureBytes
        public var expires: Date
    }

    /// The session, if there is a file and it has not expired (an expired file is removed);
    /// refuses a folder or file that is not the user's own or that others may read.
    public func read(now: Date = Date()) throws(ToolError) -> Contents? {
        guard try checkFolder(create: false) else { return nil }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw ToolError(
                "cannot read the session file \(path): \(String(cString: strerror(errno))); remove it and run `healthvault login` again"
            )
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw ToolError("cannot read the session file \(path): \(String(cString: strerror(errno)))")
        }
        try Self.check(info, path: path, kind: "session file", isFolder: false)
        var bytes = [UInt8](repeating: 0, count: 1024)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { throw malformed }
        var token: SecureBytes?
        var expires: Date?
        var header = false
        for line in bytes[..<count].split(separator: UInt8(ascii: "\n")) {
            if line.elementsEqual("healthvault-session 1".utf8) {
                header = true
            } else if line.starts(with: "expires ".utf8) {
                expires = Double(String(decoding: line.dropFirst(8), as: UTF8.self)).map(
                    Date.init(timeIntervalSince1970:)
                )
            } else if line.starts(with: "token ".utf8) {
                token = Self.decode(hex: line.dropFirst(6))
            }
        }
        guard header, let token, let expires else { throw malformed }
        guard expires > now else {
            token.wipe()
            remove()
            return nil
        }
        return Contents(token: token, expires: expires)
    }

    private var malformed: ToolError {
        ToolError("the session file \(path) is not one healthvault wrote; remove it and run `healthvault login` again")
    }

    /// Writes the session (0600, in the 0700 folder, created if missing), replacing any before.
    public func write(token: SecureBytes, expires: Date) throws(ToolError) {
        _ = try checkFolder(create: true)
        let hex = token.hexEncoded()
        defer { hex.wipe() }
        var text = Array(
            "healthvault-session 1\nexpires \(Int(expires.timeIntervalSince1970.rounded(.down)))\ntoken ".utf8
        )
        hex.withUnsafeBytes { text.append(contentsOf: $0) }
        text.append(UInt8(ascii: "\n"))
        defer { for index in text.indices { text[index] = 0 } }
        let temporary = path + ".new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw ToolError("cannot write the session file \(temporary): \(String(cString: strerror(errno)))")
        }
        let written = text.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == text.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ToolError("cannot write the session file \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Whether there is a file (of any kind) at ``path``.
    public var exists: Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Removes the file (logout, or a session the daemon no longer knows).
    public func remove() {
        unlink(path)
    }

    /// Checks the folder: the user's own directory, no access for others. Creates it (0700)
    /// when `create`; answers false when it is missing and not created.
    private func checkFolder(create: Bool) throws(ToolError) -> Bool {
        var info = stat()
        if lstat(folder.path, &info) != 0 {
            guard errno == ENOENT else {
                throw ToolError("cannot use the session folder \(folder.path): \(String(cString: strerror(errno)))")
            }
            guard create else { return false }
            guard mkdir(folder.path, 0o700) == 0 || errno == EEXIST, lstat(folder.path, &info) == 0 else {
                throw ToolError("cannot create the session folder \(folder.path): \(String(cString: strerror(errno)))")
            }
        }
        try Self.check(info, path: folder.path, kind: "session folder", isFolder: true)
        return true
    }

    private static func check(_ info: stat, path: String, kind: String, isFolder: Bool) throws(ToolError) {
        let type = info.st_mode & S_IFMT
        guard type == (isFolder ? S_IFDIR : S_IFREG) else {
            throw ToolError(
                "refusing the \(kind) \(path): it is not a \(isFolder ? "directory" : "regular file"); remove it and run `healthvault login` again"
            )
        }
        guard info.st_uid == getuid() else {
            throw ToolError(
                "refusing the \(kind) \(path): it belongs to uid \(info.st_uid), not to you (uid \(getuid())); remove it and run `healthvault login` again"
            )
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw ToolError(
                "refusing the \(kind) \(path): its mode is \(String(mode, radix: 8)), others may use it (\(isFolder ? "0700" : "0600") expected); remove it and run `healthvault login` again"
            )
        }
    }

    static func decode(hex: some Collection<UInt8>) -> SecureBytes? {
        let digits = Array(hex)
        guard digits.count == 64 else { return nil }
        let bytes = SecureBytes(count: 32)
        var valid = true
        bytes.withUnsafeMutableBytes { target in
            for index in 0..<32 {
                guard let high = value(of: digits[index * 2]), let low = value(of: digits[index * 2 + 1]) else {
                    valid = false
                    return
                }
                target[index] = high << 4 | low
            }
        }
        return valid ? bytes : nil
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

extension SessionFile {
    /// A token as the daemon sends it (64 lowercase hex digits), in secure memory.
    public static func token(hex: String) -> SecureBytes? {
        decode(hex: Array(hex.utf8))
    }
}
