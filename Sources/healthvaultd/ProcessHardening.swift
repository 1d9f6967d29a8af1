import CLinux
import CommandSupport
import Glibc

/// What healthvaultd does to its own process before it holds a key (docs/VAULT_FORMAT.md,
/// "In memory"): no core files, and no reading of its memory by other processes of the user.
enum ProcessHardening {
    /// No core dumps (RLIMIT_CORE 0), and not dumpable (PR_SET_DUMPABLE 0): other processes of
    /// the same user can then neither open /proc/PID/mem nor attach with ptrace.
    static func apply() throws {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
        guard healthvault_set_dumpable(0) == 0, healthvault_dumpable() == 0 else {
            throw ToolError(
                "cannot make the process undumpable (prctl PR_SET_DUMPABLE): \(String(cString: strerror(errno)))"
            )
        }
    }

    /// Raises the open-file limit to what `connections` at once need (its hard limit allowing),
    /// or refuses to start: a daemon out of descriptors cannot accept, open or log.
    static func reserveFileDescriptors(forConnections connections: Int) throws {
        // The database (writer and 4 readers, each with its WAL and shared memory), the socket,
        // the lock, logs and the event loops' own descriptors.
        let needed = rlim_t(connections + 64)
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < needed, limit.rlim_max > limit.rlim_cur {
            limit.rlim_cur = min(limit.rlim_max, needed)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        guard limit.rlim_cur >= needed else {
            throw ToolError(
                "the connection limits allow \(connections) connections at once, which need about \(needed) open files, "
                    + "but this process may open only \(limit.rlim_cur) (ulimit -n); raise the limit or lower "
                    + "--max-connections, --max-unauthenticated or --max-owner-connections"
            )
        }
    }
}
