public import Foundation
import Glibc

extension Vault {
    /// Says, before anything is asked or written, why this user cannot open `directory` as a
    /// vault, telling the causes apart so none sends the owner to a wrong fix (issue 22): a folder
    /// that does not exist, is empty or holds something else is `notAVault`; one this user may
    /// not enter or read (another user's vault, or a mode that shuts its owner out) is
    /// `permission`, naming the path, its owner and its mode; a vault that lost only its key file
    /// is `missingKeyFile`. Returns normally when the folder holds a key file this user can read.
    public static func checkAccessible(_ directory: URL) throws(StoreError) {
        let path = directory.path
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == EACCES {
                throw .permission(FileAccess.unreachable(path))
            }
            throw .notAVault("there is no vault at \(path): the folder does not exist")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .notAVault("\(path) is a file, not a vault folder")
        }
        guard access(path, R_OK | X_OK) == 0 else {
            throw .permission(FileAccess.denied(path, status, what: "open the vault folder"))
        }
        let keyPath = directory.appendingPathComponent(Keyring.fileName).path
        var keyStatus = stat()
        guard lstat(keyPath, &keyStatus) == 0 else {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            if entries.contains(databaseFileName) {
                throw .missingKeyFile(
                    "the vault's key file \(keyPath) is missing; without it the vault cannot be opened (restore it from a backup)"
                )
            }
            throw .notAVault(
                entries.isEmpty
                    ? "\(path) is empty: no vault was created there"
                    : "\(path) is not a vault: it holds no \(Keyring.fileName)"
            )
        }
        guard access(keyPath, R_OK) == 0 else {
            throw .permission(FileAccess.denied(keyPath, keyStatus, what: "read the vault's key file"))
        }
    }
}

extension Vault {
    /// Says, before a passphrase is asked, why no vault can be created at `directory`: it holds
    /// something already (`vaultExists`), or this user may not write there or in the nearest
    /// folder above it that exists (`permission`). Missing folders above it are fine: ``create``
    /// makes them, owner-only.
    public static func checkCreatable(at directory: URL) throws(StoreError) {
        let path = directory.standardizedFileURL.path
        var status = stat()
        if stat(path, &status) == 0 {
            try VaultFiles.checkCreatable(directory.standardizedFileURL)
            guard access(path, W_OK | X_OK) == 0 else {
                throw .permission(FileAccess.denied(path, status, what: "write in the folder"))
            }
            return
        }
        if errno == EACCES { throw .permission(FileAccess.unreachable(path)) }
        var ancestor = directory.standardizedFileURL.deletingLastPathComponent()
        while stat(ancestor.path, &status) != 0 {
            if errno == EACCES { throw .permission(FileAccess.unreachable(ancestor.path)) }
            guard ancestor.path != "/" else { return }
            ancestor = ancestor.deletingLastPathComponent()
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .vaultExists("\(ancestor.path) is a file, so no folder can be made under it")
        }
        guard access(ancestor.path, W_OK | X_OK) == 0 else {
            throw .permission(FileAccess.denied(ancestor.path, status, what: "create a folder in"))
        }
    }
}

/// Messages for files this user may not use, naming the path, its owner and its mode, and the
/// fix that fits: the owner's own file with a mode that shuts them out is a `chmod`; another
/// user's is theirs to open.
public enum FileAccess {
    /// "permission denied: you (uid 1000, ann) cannot <what> <path> (uid 0, root's, mode 700); ..."
    /// `goal` names the path the user wanted, when `path` is a folder on the way to it.
    public static func denied(_ path: String, _ status: stat, what: String, goal: String? = nil) -> String {
        let mode = String(status.st_mode & 0o777, radix: 8)
        let isFolder = status.st_mode & S_IFMT == S_IFDIR
        let fix =
            status.st_uid == getuid()
            ? "it is yours: give it back its permissions (chmod \(isFolder ? "700" : "600") \(path))"
            : "it belongs to \(user(status.st_uid)): run this as that user"
        return "permission denied: you (\(user(getuid()))) cannot \(what) \(path) (mode \(mode))"
            + (goal.map { " on the way to \($0)" } ?? "") + "; \(fix)"
    }

    /// The message for a path whose lookup was refused (EACCES): names the first folder on the
    /// way that this user may not enter.
    public static func unreachable(_ path: String) -> String {
        var prefix = ""
        for component in path.split(separator: "/").dropLast() {
            prefix += "/" + component
            var status = stat()
            guard stat(prefix, &status) == 0 else { break }
            if access(prefix, X_OK) != 0 {
                return denied(prefix, status, what: "enter the folder", goal: path)
            }
        }
        return "permission denied: you (\(user(getuid()))) cannot reach \(path)"
    }

    /// "uid 0, root".
    public static func user(_ uid: uid_t) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name {
            return "uid \(uid), \(String(cString: name))"
        }
        return "uid \(uid)"
    }
}
