import Glibc
import NIOCore

/// Linux's `struct ucred` (glibc declares it only under _GNU_SOURCE): pid, uid, gid.
struct UCred: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// The connecting process's ids, as the kernel saw them at connect (`SO_PEERCRED`).
struct PeerCredentials: Hashable, Sendable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32

    /// Read once, on accept.
    static func of(_ channel: any Channel) async throws -> PeerCredentials {
        guard let provider = channel as? any SocketOptionProvider else {
            throw DaemonError("the connection is not a socket")
        }
        let credentials: UCred = try await provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        ).get()
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }
}
