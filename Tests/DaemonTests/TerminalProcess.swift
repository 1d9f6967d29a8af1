import Foundation
import Glibc

/// A process run on a pseudo-terminal of its own, as a person at a terminal runs it: a new session
/// whose controlling terminal is the pty (so `/dev/tty` is the pty, and Ctrl-C typed there sends
/// SIGINT to it), with standard input, output and error on the pty too. The test types into it,
/// reads what it shows, and reads the terminal's settings (echo) as the process leaves them.
final class TerminalProcess: @unchecked Sendable {
    let pid: pid_t
    private let master: Int32
    /// A descriptor of the terminal's own side, kept by the test to read its settings after the
    /// process has gone.
    private let terminal: Int32
    private(set) var output = ""
    private var status: Int32?

    /// Starts `executable` with `arguments` (and the test's environment with `environment` added).
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        // posix_openpt, unlockpt and ptsname, as glibc makes them (Swift's Glibc module lacks them):
        // the multiplexer, TIOCSPTLCK (_IOW('T', 0x31, int)) to 0, TIOCGPTN (_IOR('T', 0x30, uint)).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw DaemonTestError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let path = "/dev/pts/\(number)"
        terminal = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { throw DaemonTestError("cannot open \(path)") }
        var size = winsize(ws_row: 24, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new session: opening the pty (without O_NOCTTY) then makes it the controlling terminal.
        posix_spawnattr_setflags(&attributes, Int16(0x80))  // POSIX_SPAWN_SETSID
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, path, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
        }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw DaemonTestError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var ignored: Int32 = 0
            waitpid(pid, &ignored, 0)
        }
        close(master)
        close(terminal)
    }

    /// Types `text` (a line needs its "\n"; Ctrl-C is "\u{03}").
    func type(_ text: String) {
        _ = text.withCString { write(master, $0, strlen($0)) }
    }

    /// Waits until the process has shown `text` more than `occurrences` times (since the start),
    /// reading what it writes; false after `timeout` seconds.
    @discardableResult
    func waitFor(_ text: String, after occurrences: Int = 0, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while output.components(separatedBy: text).count - 1 <= occurrences {
            guard Date() < deadline else { return false }
            readAvailable(waiting: 100)
        }
        return true
    }

    /// Reads what the process wrote, waiting at most `milliseconds` for the first bytes.
    private func readAvailable(waiting milliseconds: Int32) {
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        if count > 0 { output += String(decoding: buffer[0..<count], as: UTF8.self) }
    }

    /// Whether the terminal echoes what is typed, now.
    var echoes: Bool {
        var settings = termios()
        tcgetattr(terminal, &settings)
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Waits for the process to end (reading what it still writes); its wait status, or nil after
    /// `timeout` seconds.
    func wait(timeout: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                readAvailable(waiting: 50)
                status = raw
                return raw
            }
            readAvailable(waiting: 50)
        }
        return nil
    }

    /// The exit code of a process that exited, nil when a signal ended it.
    static func exitCode(_ status: Int32) -> Int32? {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
    }

    /// The signal that ended it, nil when it exited.
    static func signal(_ status: Int32) -> Int32? {
        let signal = status & 0x7F
        return signal != 0 && signal != 0x7F ? signal : nil
    }
}
