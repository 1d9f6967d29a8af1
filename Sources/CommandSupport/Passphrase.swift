public import Foundation
import Glibc
public import VaultCrypto
import VaultStore

/// Where a passphrase comes from: a prompt on the terminal (not echoed), an open file descriptor
/// (a pipe from a password manager), or a file (0600, for scripts). Never a command-line
/// argument: those are visible to every user in the process list.
public enum PassphraseSource: Sendable, Equatable {
    case prompt
    case fileDescriptor(Int32)
    case file(String)

    /// From the tools' options: `--passphrase-fd N` or `--passphrase-file PATH`, else a prompt.
    /// `option` is the options' common start, as messages name them (`--new-passphrase`).
    public init(fd: Int32?, file: String?, option: String = "--passphrase") throws(ToolError) {
        switch (fd, file) {
        case (let fd?, nil) where fd < 0:
            throw ToolError("\(option)-fd \(fd) is out of range: give an open file descriptor, 0 or more")
        case (let fd?, nil): self = .fileDescriptor(fd)
        case (nil, let file?): self = .file(file)
        case (nil, nil): self = .prompt
        default: throw ToolError("give \(option)-fd or \(option)-file, not both")
        }
    }

    /// Reads the passphrase (its first line, without the newline) into secure memory.
    public func read(prompt: String = "Passphrase: ") throws(ToolError) -> SecureBytes {
        var bytes: [UInt8]
        switch self {
        case .prompt:
            bytes = try Self.readFromTerminal(prompt: prompt)
        case .fileDescriptor(let fd):
            bytes = try Self.readAll(fd: fd, name: "file descriptor \(fd)")
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Self.unopenable(path, errno: errno) }
            defer { close(fd) }
            try Self.checkFile(fd: fd, path: path)
            bytes = try Self.readAll(fd: fd, name: path)
        }
        defer { Self.wipe(&bytes) }
        if let newline = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            let line = SecureBytes(copying: bytes[..<newline])
            guard line.count > 0 else { throw ToolError("the passphrase is empty") }
            return line
        }
        guard !bytes.isEmpty else { throw ToolError("the passphrase is empty") }
        return SecureBytes(copying: bytes)
    }

    /// A passphrase file that cannot be opened, said as what it is: missing, or not this user's
    /// to read (with the modes and owners that decide it), in the tools' style.
    static func unopenable(_ path: String, errno code: Int32) -> ToolError {
        switch code {
        case ENOENT:
            return ToolError(
                "the passphrase file \(path) does not exist; name the file whose first line is the passphrase"
            )
        case EACCES:
            var status = stat()
            let detail =
                stat(path, &status) == 0
                ? " (mode \(String(status.st_mode & 0o777, radix: 8)); it belongs to \(FileAccess.user(status.st_uid)))"
                : ""
            return ToolError(
                "permission denied: you (\(FileAccess.user(getuid()))) may not read the passphrase file \(path)\(detail); run this as the file's "
                    + "owner, or give it to yourself and `chmod 600 \(path)`"
            )
        default:
            return ToolError(
                "the passphrase file \(path) cannot be opened (\(String(cString: strerror(code)).lowercased())); "
                    + "name a file whose first line is the passphrase"
            )
        }
    }

    /// A folder given as the passphrase file is refused; a file other users may read is used,
    /// with a warning on standard error (as ssh warns of a key file others can read): whoever
    /// reads it can open the vault.
    static func checkFile(fd: Int32, path: String) throws(ToolError) {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR {
            throw ToolError("the passphrase file \(path) is a folder; name the file whose first line is the passphrase")
        }
        let mode = status.st_mode & 0o777
        if kind == S_IFREG, mode & 0o044 != 0 {
            warn(
                "\(toolName): warning: the passphrase file \(path) can be read by other users "
                    + "(mode \(String(mode, radix: 8))); `chmod 600 \(path)`"
            )
        }
    }

    /// The running tool's name (`healthvault`, `healthvaultd`), which opens its messages.
    public static var toolName: String {
        URL(fileURLWithPath: CommandLine.arguments.first ?? "healthvault").lastPathComponent
    }

    static func readAll(fd: Int32, name: String) throws(ToolError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { wipe(&chunk) }
        while result.count <= 65536 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ToolError("cannot read the passphrase from \(name): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
            if result.contains(0x0A) { break }
        }
        return result
    }

    static func readFromTerminal(prompt: String) throws(ToolError) -> [UInt8] {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw ToolError(
                "no terminal to ask for the passphrase; give --passphrase-fd N or --passphrase-file PATH"
            )
        }
        defer { close(fd) }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else {
            throw ToolError("cannot ask for the passphrase: /dev/tty is not a terminal")
        }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        // Echo comes back on every way out: a return, a throw, and a signal (Ctrl-C, Ctrl-\,
        // a hang-up, a kill), whose handler restores it before the signal takes its course.
        let guardian = TerminalGuardian(fd: fd, original: original, silent: silent)
        defer { guardian.restore() }
        tcsetattr(fd, TCSAFLUSH, &silent)
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        defer { _ = "\n".withCString { write(fd, $0, 1) } }
        return try readAll(fd: fd, name: "the terminal")
    }

    /// Writes `text` to the terminal, if there is one.
    static func tellOnTerminal(_ text: String) {
        let fd = open("/dev/tty", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

    /// Asks `question` on the terminal (echo on) and reads one line; nil without a terminal.
    public static func askOnTerminal(_ question: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = question.withCString { write(fd, $0, strlen($0)) }
        guard var bytes = try? readAll(fd: fd, name: "the terminal") else { return nil }
        defer { wipe(&bytes) }
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        return String(decoding: line, as: UTF8.self)
    }

    static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}

extension PassphraseSource {
    /// What to do about a wrong passphrase: give the vault's own.
    public static let whichPassphrase = "the one the vault was created with, or last given to `healthvault passwd`"

    /// A wrong passphrase for `what` (a vault's folder, "the backup DIR"), said with where it came
    /// from and what to do (README, "Errors and exit codes").
    /// `which` says which passphrase opens it (a backup's is the vault's when it was made).
    public func wrongPassphrase(for what: String, which: String = Self.whichPassphrase) -> String {
        switch self {
        case .prompt:
            "wrong passphrase for \(what); type \(which)"
        case .file(let path):
            "wrong passphrase for \(what) in \(path) (its first line); put there \(which)"
        case .fileDescriptor(let fd):
            "wrong passphrase for \(what) from file descriptor \(fd); give \(which)"
        }
    }
}

/// A tool's error: one line for a person, and a non-zero exit.
public struct ToolError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension PassphraseSource {
    /// Reads a new passphrase and says how strong it is (``PassphraseStrength``). On a terminal it
    /// is asked twice; a weak one is described and asked again, unless the owner answers yes to
    /// using it anyway. From a descriptor or a file a weak one is refused. `allowWeak` (the tools'
    /// `--allow-weak-passphrase`) takes a weak one after a warning. `nothingDone` ends the
    /// messages of a refusal ("nothing was created").
    public func readNew(prompt: String, allowWeak: Bool, nothingDone: String) throws(ToolError) -> SecureBytes {
        guard self == .prompt else {
            let passphrase = try read()
            let strength = passphrase.withUnsafeBytes { PassphraseStrength.estimate($0) }
            if strength.isWeak {
                guard allowWeak else {
                    passphrase.wipe()
                    throw ToolError(
                        "the new passphrase is weak: \(strength); choose a stronger one, or give "
                            + "--allow-weak-passphrase to use it anyway; \(nothingDone)"
                    )
                }
                Self.warn("\(Self.toolName): warning: the new passphrase is weak: \(strength)")
            }
            return passphrase
        }
        for _ in 0..<3 {
            let passphrase = try read(prompt: prompt)
            let strength = passphrase.withUnsafeBytes { PassphraseStrength.estimate($0) }
            if strength.isWeak, !allowWeak {
                let answer = Self.askOnTerminal("This passphrase is weak: \(strength).\nUse it anyway? [y/N] ")
                guard let answer, ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
                else {
                    passphrase.wipe()
                    Self.tellOnTerminal(
                        "Choose a longer one: a few words nobody would put together make a strong passphrase.\n"
                    )
                    continue
                }
            }
            let again = try read(prompt: "Repeat the passphrase: ")
            defer { again.wipe() }
            guard passphrase.constantTimeEquals(again) else {
                passphrase.wipe()
                throw ToolError("the passphrases differ; \(nothingDone)")
            }
            return passphrase
        }
        throw ToolError("no passphrase was chosen; \(nothingDone)")
    }

    static func warn(_ line: String) {
        _ = (line + "\n").withCString { write(2, $0, strlen($0)) }
    }
}
