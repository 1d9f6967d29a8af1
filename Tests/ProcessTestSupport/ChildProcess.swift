public import Foundation
import Glibc
import Synchronization

/// Foundation's `Process`, as far as the tests use it, started with `posix_spawn` directly.
///
/// swift-corelibs-foundation's `Process.run()` (Swift 6.3.1 here) lists `/proc/self/fd` to close
/// the descriptors a child must not inherit, and copies each entry's whole 256-byte name field
/// where `readdir` returned a shorter record: when an entry sits at the end of the listing's
/// buffer and the page after it is unmapped, the copy crashes the caller with SIGSEGV
/// (swiftlang/swift-corelibs-foundation#5472, fixed after 6.3.1). A process with a thousand or
/// so open descriptors fills that buffer: the test process, with its many vaults open at once,
/// reaches 1,600, and two full runs of the suite died that way. AddressSanitizer names it
/// (`heap-buffer-overflow` in `findMaximumOpenFromProcSelfFD`). This closes the descriptors with
/// glibc's `posix_spawn_file_actions_addclosefrom_np` instead, and reaps the child with `waitpid`.
///
/// The standard streams are as `Process` takes them: a `Pipe` (the child gets its one end, this
/// process keeps the other) or a `FileHandle`; `nil` is `/dev/null`; unset, the test's own.
public final class ChildProcess: @unchecked Sendable {
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    public var executableURL: URL?
    public var arguments: [String]?
    /// The child's whole environment; the test's own when nil.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    public var standardInput: Any? = FileHandle.standardInput
    public var standardOutput: Any? = FileHandle.standardOutput
    public var standardError: Any? = FileHandle.standardError

    /// The child's process id once started (0 before).
    public private(set) var processIdentifier: pid_t = 0
    /// The raw `waitpid` status once the child has been reaped.
    private let reaped = Mutex<Int32?>(nil)

    public init() {}

    deinit {
        // A child never waited for is reaped when it ends, not left a zombie of the test process.
        if processIdentifier > 0, reaped.withLock({ $0 }) == nil {
            let pid = processIdentifier
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            }
        }
    }

    /// Starts the child; throws when it cannot be started (the program missing or not executable).
    public func run() throws {
        guard processIdentifier == 0 else { throw ChildProcessError("\(executablePath) was started already") }
        let path = executablePath
        guard access(path, X_OK) == 0 else {
            throw ChildProcessError("cannot run \(path): \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var devNull: FileHandle?
        var parentEnds: [FileHandle] = []
        for (stream, target) in [
            (standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO),
        ] {
            let descriptor: Int32
            switch stream {
            case let pipe as Pipe:
                let childEnd = target == STDIN_FILENO ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                descriptor = childEnd.fileDescriptor
                if !parentEnds.contains(where: { $0 === childEnd }) { parentEnds.append(childEnd) }
            case let handle as FileHandle where handle !== FileHandle.nullDevice && handle.fileDescriptor >= 0:
                descriptor = handle.fileDescriptor
            case nil, is FileHandle:
                // nil, or `FileHandle.nullDevice` (a handle without a descriptor): /dev/null.
                if devNull == nil { devNull = FileHandle(forUpdatingAtPath: "/dev/null") }
                guard let devNull else { throw ChildProcessError("cannot open /dev/null") }
                descriptor = devNull.fileDescriptor
            default:
                throw ChildProcessError("a standard stream must be a Pipe, a FileHandle or nil")
            }
            // dup2 onto itself would keep the close-on-exec flag: those need no action.
            if descriptor != target, posix_spawn_file_actions_adddup2(&actions, descriptor, target) != 0 {
                throw ChildProcessError("cannot give the child descriptor \(descriptor) as \(target)")
            }
        }
        guard Self.closeFrom(&actions, 3) == 0 else { throw ChildProcessError("cannot close the child's descriptors") }
        if let folder = currentDirectoryURL?.path {
            guard Self.changeDirectory(&actions, folder) == 0 else {
                throw ChildProcessError("cannot chdir to \(folder)")
            }
        }

        let argv = ([path] + (arguments ?? [])).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables = environment ?? ProcessInfo.processInfo.environment
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        // The child starts as from a shell: in a process group of its own (as `Process` puts it),
        // no signal blocked and none ignored, whatever this process blocks or ignores (without
        // this, a child of the test process could not be stopped with SIGTERM).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)
        )
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw ChildProcessError("cannot start \(path): \(String(cString: strerror(result)))") }
        processIdentifier = pid
        // This process keeps only its own ends of the pipes, so its reads end when the child exits.
        for end in parentEnds { try? end.close() }
        try? devNull?.close()
    }

    /// Waits for the child to end.
    public func waitUntilExit() {
        _ = reap(blocking: true)
    }

    public var isRunning: Bool {
        processIdentifier > 0 && reap(blocking: false) == nil
    }

    /// The exit status, or the signal that ended it.
    public var terminationStatus: Int32 {
        guard let status = reap(blocking: true) else { return -1 }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    public var terminationReason: TerminationReason {
        guard let status = reap(blocking: true) else { return .exit }
        return status & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    public func terminate() {
        if isRunning { kill(processIdentifier, SIGTERM) }
    }

    public func interrupt() {
        if isRunning { kill(processIdentifier, SIGINT) }
    }

    private var executablePath: String { executableURL?.path ?? "" }

    /// The child's `waitpid` status once it has ended (waiting for it when `blocking`), nil while
    /// it runs. Two threads may ask at once: the one `waitpid` does not reap for waits for the other.
    private func reap(blocking: Bool) -> Int32? {
        guard processIdentifier > 0 else { return nil }
        var strayWaits = 0
        while true {
            if let status = reaped.withLock({ $0 }) { return status }
            var status: Int32 = 0
            let result = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG)
            if result == processIdentifier {
                reaped.withLock { $0 = status }
                return status
            }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            // ECHILD: another thread reaped it and is about to record its status; after 5 s, something
            // else reaped it, and its status is lost: recorded as an exit with 255.
            strayWaits += 1
            if strayWaits > 5000 {
                reaped.withLock { $0 = $0 ?? 255 << 8 }
                continue
            }
            usleep(1000)
        }
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `_addchdir_np` (2.29), which
    /// Swift's Glibc module does not declare.
    private static let closeFrom: CloseFrom = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        else { fatalError("glibc 2.34 or later is needed: posix_spawn_file_actions_addclosefrom_np is missing") }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    private static let changeDirectory: ChangeDirectory = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np")
        else { fatalError("glibc 2.29 or later is needed: posix_spawn_file_actions_addchdir_np is missing") }
        return unsafeBitCast(symbol, to: ChangeDirectory.self)
    }()
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
