public import Foundation
import Glibc

/// The lock that makes one daemon per vault (and keeps the CLI's offline `passwd` off a served
/// vault): an exclusive `flock` on `healthvaultd.lock` in the
/// vault directory, held for the process's life (the kernel drops it when the process ends, even
/// by SIGKILL). The file holds the holder's pid, for the error message.
public final class DaemonLock: Sendable {
    public static let fileName = "healthvaultd.lock"
    private let descriptor: Int32

    /// Takes the lock, or throws naming the daemon that holds it. The lock file is made only in a
    /// vault (a folder holding `keyring.json`): a folder that is not one is left untouched, so a
    /// `healthvault init` there still finds it empty.
    /// `forDaemon`: the taker is healthvaultd itself (a second daemon is refused as `another
    /// healthvaultd`); else a command of the owner's.
    public init(directory: URL, forDaemon: Bool = false) throws(ToolError) {
        guard access(directory.appendingPathComponent("keyring.json").path, F_OK) == 0 else {
            throw ToolError("\(directory.path) is not a vault: it holds no keyring.json; nothing was written there")
        }
        let path = directory.appendingPathComponent(Self.fileName).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            throw ToolError(
                code == EACCES || code == EPERM || code == EROFS
                    ? "permission denied: you (uid \(getuid())) cannot write \(path), the lock that keeps a second daemon off the vault (\(String(cString: strerror(code))))"
                    : "cannot open \(path), the vault's daemon lock: \(String(cString: strerror(code)))"
            )
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            close(fd)
            // The holder may be an owner's command that opened the vault itself (a restore, a
            // backup with no daemon): named by its program, not as a daemon.
            if let holder, !holder.isEmpty,
                let program = (try? String(contentsOfFile: "/proc/\(holder)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines),
                program != "healthvaultd"
            {
                throw ToolError(
                    "\(program) (pid \(holder)) has \(directory.path) open (a restore, a backup or another command of the owner's); "
                        + "wait for it to end"
                )
            }
            throw ToolError(
                "\(forDaemon ? "another " : "")healthvaultd is serving \(directory.path)"
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
