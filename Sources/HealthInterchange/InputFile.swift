import CLinux
import Foundation

/// What a path the owner gives an import names, found with `stat` (a symbolic link followed)
/// before it is opened: opening a named pipe waits for a writer, and a device such as /dev/zero
/// never ends, so an import of either would hold one of the daemon's threads for good. Imports
/// read regular files (and an Apple Health export's or a JSON export's folder) and refuse the
/// rest before they open anything; a file is then opened without waiting and examined again
/// (``open(_:)``), so that one put in its place meanwhile is refused too. A regular file is read
/// to its end: one that another program is still writing is read as far as it has grown.
public enum InputFile: Equatable, Sendable {
    case regular(size: Int)
    case directory
    /// A named pipe, a device or a socket, as a person would name it ("a named pipe").
    case special(String)

    /// What `path` names; nil when nothing is there (or it cannot be examined).
    public static func at(_ path: String) -> InputFile? {
        var size: Int64 = 0
        return InputFile(kind: healthvault_file_kind(path, &size), size: size)
    }

    /// From the C helpers' kind (0: nothing there).
    private init?(kind: Int32, size: Int64) {
        switch kind {
        case 0: return nil
        case 1: self = .regular(size: Int(size))
        case 2: self = .directory
        case 3: self = .special("a named pipe")
        case 4: self = .special("a character device")
        case 5: self = .special("a block device")
        case 6: self = .special("a socket")
        default: self = .special("a special file")
        }
    }

    /// Why `path` is not a regular file to read ("/dev/zero is a character device, not a regular
    /// file"), or nil when it is one or when nothing is there (the caller's own error says so).
    public static func notRegular(_ path: String) -> String? { at(path)?.notRegular(named: path) }

    /// Why what this is, named `name`, is not a regular file to read; nil for a regular file.
    public func notRegular(named name: String) -> String? {
        switch self {
        case .regular: nil
        case .directory: "\(name) is a folder, not a regular file"
        case .special(let kind): "\(name) is \(kind), not a regular file"
        }
    }

    /// `path` opened for reading, with its size, when it is a regular file. What was opened is
    /// examined again (fstat), and the opening never waits: a named pipe or a device put at `path`
    /// after it was examined is closed unread, as `notRegular`. Callers look with ``at(_:)`` first,
    /// so that a device is never opened at all.
    static func open(_ path: String) -> Result<(handle: FileHandle, size: Int), OpenFailure> {
        var size: Int64 = 0
        var kind: Int32 = 0
        let descriptor = healthvault_open_regular(path, &size, &kind)
        guard descriptor >= 0 else {
            let error = errno
            if error == 0 {
                return .failure(.notRegular(InputFile(kind: kind, size: size) ?? .special("a special file")))
            }
            return .failure(.cannotOpen(String(cString: strerror(error))))
        }
        return .success((FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), Int(size)))
    }

    /// Why a file was not opened for reading.
    enum OpenFailure: Error, Equatable {
        /// It was not a regular file when it was opened.
        case notRegular(InputFile)
        /// The system's reason (`No such file or directory`, `Permission denied`).
        case cannotOpen(String)
    }

    /// A regular file's size; nil for anything else.
    public var regularSize: Int? {
        if case .regular(let size) = self { size } else { nil }
    }
}
