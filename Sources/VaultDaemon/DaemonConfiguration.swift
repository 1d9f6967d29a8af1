public import Foundation
import Glibc
import VaultProtocol

/// What healthvaultd serves and its limits (docs/PROTOCOL.md, "Limits").
public struct DaemonConfiguration: Sendable {
    public var vaultDirectory: URL
    /// The largest frame payload read, bytes; a larger one is answered `frameTooLarge` and the
    /// connection closes.
    public var maximumFrameBytes = WireProtocol.defaultMaximumFrameBytes
    /// How many connections each kind of holder may keep open; one more is answered
    /// `tooManyConnections` and closed.
    public var connectionLimits = ConnectionLimits()
    /// How long an authenticated connection with no live subscription may go without a request
    /// before it is closed.
    public var idleTimeout: Duration = .seconds(300)
    /// Requests one connection may make per second (a token bucket of this size, refilled at this
    /// rate); one more is answered `rateLimited` and not run.
    public var requestsPerSecond = 1000
    /// How long a request may run before it is answered `timedOut` (it may still complete).
    public var requestTimeout: Duration = .seconds(30)
    /// How long a new connection has to authenticate; later, it is refused and closed.
    public var authenticationTimeout: Duration = .seconds(10)
    /// How long a frame, once begun, may take to arrive whole; a stalled one closes the connection.
    public var frameTimeout: Duration = .seconds(10)
    /// The user ids allowed to connect: the daemon's own by default (tests replace it).
    public var allowedUIDs: Set<UInt32> = [getuid()]
    /// How long shutdown waits for requests in flight and answers to be written.
    public var drainTimeout: Duration = .seconds(20)

    /// Where the daemon listens: `healthvaultd.sock` in the vault directory, unless the owner's
    /// command serves the vault to itself with no daemon running (a private folder instead).
    public var socketPath: String

    public init(vaultDirectory: URL) {
        self.vaultDirectory = vaultDirectory
        self.socketPath = vaultDirectory.appendingPathComponent(WireProtocol.socketFileName).path
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// A daemon error for a person: one line.
public struct DaemonError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
