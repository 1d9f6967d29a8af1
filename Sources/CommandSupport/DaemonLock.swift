public import Foundation
import Glibc

/// The lock that makes one daemon per vault (and keeps the CLI's offline `passwd` off a served
/// vault): an exclusive `flock` on `healthvaultd.lock` in the
/// vault directory, held for the process's life (the kernel drops it when the process ends, even
/// by SIGKILL). The file holds the holder's pid, for the error message.
public final class DaemonLock: Sendable {
    public static let fileName = "healthvaultd.lock"
    private let descriptor: Int32

    /// Takes the lock, or throws naming the daemon that holds it.
    public init(directory: URL) throws(ToolError) {
        let path = directory.appendingPathComponent(Self.fileName).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw ToolError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            close(fd)
            throw ToolError(
                "another healthvaultd is serving \(directory.path)"
                    + (holder.map { $0.isEmpty ? "" : " (pid \($0))" } ?? "")
                    + "; stop it first"
            )
        }
        _ = ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(fd, $0, strlen($0)) }
        self.descriptor = fd
    }

    /// Whether a daemon holds the vault's lock now (without taking it).
    public static func isHeld(in directory: URL) -> Bool {
        let path = directory.appendingPathComponent(fileName).path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return true }
        flock(fd, LOCK_UN)
        return false
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
