public import Foundation
import Glibc

extension Vault {
    /// Checks, before a daemon opens the vault to serve it, what would make serving unsafe or
    /// fail later: a directory other users can write (they could replace or roll back its files;
    /// ssh refuses such key folders alike), a vault file or directory this user cannot write (every
    /// save would fail, and neither the lock nor the checkpoint could be written), and something
    /// other than a socket where the socket goes. Throws ``StoreError/permission(_:)`` naming the
    /// file and what to do; returns warnings that do not stop it (a directory others can read).
    public static func checkServable(_ directory: URL, socketFileName: String) throws(StoreError) -> [String] {
        var warnings: [String] = []
        var status = stat()
        guard lstat(directory.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw .notAVault("\(directory.path) is not a vault directory")
        }
        let mode = status.st_mode & 0o777
        if mode & 0o022 != 0 {
            throw .permission(
                "\(directory.path) has mode \(String(mode, radix: 8)): other users can replace its files; "
                    + "run `chmod 700 \(directory.path)` and start again"
            )
        }
        if mode & 0o055 != 0 {
            warnings.append(
                "\(directory.path) has mode \(String(mode, radix: 8)): other users can list it (its files stay unreadable to them); `chmod 700 \(directory.path)` keeps it private"
            )
        }
        let files =
            [directory.path]
            + [
                databaseFileName, databaseFileName + "-wal", databaseFileName + "-shm",
                latestCheckpointFileName,
            ]
            .map { directory.appendingPathComponent($0).path }
        for path in files where access(path, F_OK) == 0 && access(path, R_OK | W_OK) != 0 {
            var fileStatus = stat()
            stat(path, &fileStatus)
            throw .permission(
                "\(path) has mode \(String(fileStatus.st_mode & 0o777, radix: 8)) and owner uid \(fileStatus.st_uid): "
                    + "this user (uid \(getuid())) cannot write it, so the vault cannot be served; "
                    + "give it back to the vault's owner with mode 600 (700 for the directory)"
            )
        }
        let socket = directory.appendingPathComponent(socketFileName).path
        if lstat(socket, &status) == 0, status.st_mode & S_IFMT != S_IFSOCK {
            throw .permission(
                "\(socket) exists and is not a socket; it is not part of the vault: move it away and start again"
            )
        }
        return warnings
    }
}
