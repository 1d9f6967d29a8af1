import Foundation

/// The `flock` a create holds on its staging directory; released by `release()` or when the
/// value goes.
final class StagingLock {
    private var fd: Int32

    init(fd: Int32) { self.fd = fd }

    func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit { release() }
}

/// File-system steps with the permissions and durability the vault needs: a 0700 directory,
/// 0600 files, and atomic replacement flushed to disk.
enum VaultFiles {
    /// Makes the process create files 0600 and directories 0700 from now on: SQLCipher creates
    /// its -wal and -shm files with the process umask.
    static func restrictUmask() {
        umask(0o077)
    }

    /// Refuses a path that exists as anything but an empty directory.
    static func checkCreatable(_ url: URL) throws(StoreError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw .vaultExists("\(url.path) exists and is not a directory") }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        guard contents.isEmpty else {
            throw .vaultExists("\(url.path) is not empty; a vault is created in a new or empty directory")
        }
    }

    static func isEmptyDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return false }
        return (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.isEmpty == true
    }

    /// Moves every file of `staging` into `target` without replacing any (link, then unlink: a
    /// file already there fails with `vaultExists`), `last` after all others; flushes `target` and
    /// removes `staging`.
    static func moveFiles(from staging: URL, into target: URL, last: String) throws(StoreError) {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        let names = all.filter { $0 != last } + all.filter { $0 == last }
        for name in names {
            let source = staging.appendingPathComponent(name).path
            let destination = target.appendingPathComponent(name).path
            guard link(source, destination) == 0 else {
                let code = errno
                if code == EEXIST {
                    throw .vaultExists("\(target.path) is not empty; a vault is created in a new or empty directory")
                }
                throw .io("cannot move \(name) into \(target.path): \(String(cString: strerror(code)))")
            }
            unlink(source)
            if name == last { syncDirectory(target) }
        }
        syncDirectory(target)
        rmdir(staging.path)
    }

    /// Creates a staging directory, 0700, and holds an exclusive `flock` on it until the returned
    /// lock is released: a staging directory nobody holds is one a crashed create left behind.
    /// The directory is made and locked under another name and then renamed, so that no other
    /// create ever sees it under its staging name unlocked.
    static func createStaging(_ url: URL) throws(StoreError) -> StagingLock {
        let preparing = url.deletingLastPathComponent().appendingPathComponent(".preparing-\(UUID().uuidString)")
        try createDirectory(preparing)
        let fd = open(preparing.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // A file system without flock on directories (NFS: EBADF) goes on unlocked: nothing there
        // can take the lock either, so no other create ever removes this directory.
        let locked =
            fd >= 0 && (flock(fd, LOCK_EX | LOCK_NB) == 0 || [EBADF, ENOLCK, EOPNOTSUPP, EINVAL].contains(errno))
        guard locked, rename(preparing.path, url.path) == 0 else {
            let message = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            rmdir(preparing.path)
            throw .io("cannot create \(url.path): \(message)")
        }
        return StagingLock(fd: fd)
    }

    /// Removes what an interrupted create of `target` left behind: staging directories beside it
    /// (`.<name>.creating-*`) or inside it (`.creating-*`, and `.preparing-*`, which would keep the
    /// target from being empty) that no running create holds, and, when
    /// such a directory was inside a target that has no key file yet, the vault files the create
    /// had already moved in (the target never became a vault: the key file is moved last).
    static func removeAbandonedStaging(for target: URL) {
        let parent = target.deletingLastPathComponent()
        let prefix = ".\(target.lastPathComponent).creating-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        where name.hasPrefix(prefix) {
            removeIfAbandoned(parent.appendingPathComponent(name))
        }
        let inside = (try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? []
        guard !inside.contains(Keyring.fileName) else { return }
        var removedInside = false
        for name in inside where name.hasPrefix(".creating-") || name.hasPrefix(".preparing-") {
            removedInside = removeIfAbandoned(target.appendingPathComponent(name)) || removedInside
        }
        // Only when no staging directory is left (none that a running create still holds) and
        // every other file is one a create moves in.
        guard removedInside,
            (try? FileManager.default.contentsOfDirectory(atPath: target.path))?
                .allSatisfy({ Vault.stagedFileNames.contains($0) }) == true
        else { return }
        for name in Vault.stagedFileNames {
            unlink(target.appendingPathComponent(name).path)
        }
    }

    /// Removes the staging directory `url` when no create holds its lock.
    @discardableResult
    static func removeIfAbandoned(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        return (try? FileManager.default.removeItem(at: url)) != nil
    }

    /// Creates a new directory, 0700.
    static func createDirectory(_ url: URL) throws(StoreError) {
        guard mkdir(url.path, 0o700) == 0 else {
            throw .io("cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        guard chmod(url.path, 0o700) == 0 else {
            throw .io("cannot set permissions on \(url.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Makes the folders above `url` that do not exist, each 0700.
    static func createMissingFolders(above url: URL) throws(StoreError) {
        var missing: [URL] = []
        var ancestor = url.deletingLastPathComponent()
        while ancestor.path != "/", access(ancestor.path, F_OK) != 0 {
            missing.append(ancestor)
            ancestor = ancestor.deletingLastPathComponent()
        }
        for folder in missing.reversed() where mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
            throw .io("cannot create \(folder.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Renames the finished directory `staging` to `target` (which must be absent or an empty
    /// directory; rename(2) replaces an empty directory atomically) and flushes the parent.
    /// Returns false, moving nothing, when `target` is an empty directory that cannot be replaced
    /// (a mount point, or on another file system): the vault must then be staged inside it.
    static func moveIntoPlace(_ staging: URL, at target: URL) throws(StoreError) -> Bool {
        syncDirectory(staging)
        guard rename(staging.path, target.path) == 0 else {
            let code = errno
            if [EBUSY, EXDEV].contains(code), isEmptyDirectory(target) {
                return false
            }
            if code == ENOTEMPTY || code == EEXIST || code == ENOTDIR {
                throw .vaultExists("\(target.path) is not empty; a vault is created in a new or empty directory")
            }
            throw .io("cannot move the new vault into \(target.path): \(String(cString: strerror(code)))")
        }
        syncDirectory(target.deletingLastPathComponent())
        return true
    }

    static func writeAtomically(_ data: Data, to url: URL) throws(StoreError) {
        let temporary = url.path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced else {
            unlink(temporary)
            throw .io("cannot write \(temporary) to disk")
        }
        guard rename(temporary, url.path) == 0 else {
            throw .io("cannot replace \(url.path): \(String(cString: strerror(errno)))")
        }
        syncDirectory(url.deletingLastPathComponent())
    }

    static func syncDirectory(_ url: URL) {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
