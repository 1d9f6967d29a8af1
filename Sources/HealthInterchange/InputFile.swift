import CLinux
import Foundation

/// What a path the owner gives an import names, found with `stat` (a symbolic link followed) and
/// never by opening it: opening a named pipe waits for a writer, and a device such as /dev/zero
/// never ends, so an import of either would hold one of the daemon's threads for good. Imports
/// read regular files (and an Apple Health export's or a JSON export's folder) and refuse the
/// rest before they open anything. A regular file is read to its end: one that another program is
/// still writing is read as far as it has grown.
public enum InputFile: Equatable, Sendable {
    case regular(size: Int)
    case directory
    /// A named pipe, a device or a socket, as a person would name it ("a named pipe").
    case special(String)

    /// What `path` names; nil when nothing is there (or it cannot be examined).
    public static func at(_ path: String) -> InputFile? {
        var size: Int64 = 0
        switch healthvault_file_kind(path, &size) {
        case 0: return nil
        case 1: return .regular(size: Int(size))
        case 2: return .directory
        case 3: return .special("a named pipe")
        case 4: return .special("a character device")
        case 5: return .special("a block device")
        case 6: return .special("a socket")
        default: return .special("a special file")
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

    /// A regular file's size; nil for anything else.
    public var regularSize: Int? {
        if case .regular(let size) = self { size } else { nil }
    }
}
