public import Foundation
import Glibc
public import VaultCrypto

/// Where a passphrase comes from: a prompt on the terminal (not echoed), an open file descriptor
/// (a pipe from a password manager), or a file (0600, for scripts). Never a command-line
/// argument: those are visible to every user in the process list.
public enum PassphraseSource: Sendable, Equatable {
    case prompt
    case fileDescriptor(Int32)
    case file(String)

    /// From the tools' options: `--passphrase-fd N` or `--passphrase-file PATH`, else a prompt.
    public init(fd: Int32?, file: String?) throws(ToolError) {
        switch (fd, file) {
        case (let fd?, nil): self = .fileDescriptor(fd)
        case (nil, let file?): self = .file(file)
        case (nil, nil): self = .prompt
        default: throw ToolError("give --passphrase-fd or --passphrase-file, not both")
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
            guard fd >= 0 else {
                throw ToolError("cannot read the passphrase file \(path): \(String(cString: strerror(errno)))")
            }
            defer { close(fd) }
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
        tcgetattr(fd, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(fd, TCSAFLUSH, &silent)
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        defer {
            tcsetattr(fd, TCSAFLUSH, &original)
            _ = "\n".withCString { write(fd, $0, 1) }
        }
        return try readAll(fd: fd, name: "the terminal")
    }

    static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}

/// A tool's error: one line for a person, and a non-zero exit.
public struct ToolError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
