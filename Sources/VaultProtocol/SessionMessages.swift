public import Foundation

/// `session.open`: the owner, authenticated with the owner key, asks for a session token that
/// authenticates later owner connections from the same uid until it expires (docs/PROTOCOL.md,
/// "Owner sessions").
public struct SessionOpenParams: Hashable, Sendable, Codable {
    /// How long the session lasts, whole seconds, 1 to ``maximumSeconds``.
    public var seconds: Int

    public static let maximumSeconds = 86_400

    public init(seconds: Int) {
        self.seconds = seconds
    }
}

public struct SessionOpenResult: Hashable, Sendable, Codable {
    /// 32 random bytes as 64 lowercase hex digits: a bearer secret for the owner's uid.
    public var token: String
    /// When the daemon forgets the token.
    public var expires: Date
    public var seconds: Int

    public init(token: String, expires: Date, seconds: Int) {
        self.token = token
        self.expires = expires
        self.seconds = seconds
    }
}

public struct SessionCloseResult: Hashable, Sendable, Codable {
    /// Whether a live session was ended (false: the connection did not use one, or it had
    /// already ended).
    public var closed: Bool

    public init(closed: Bool) {
        self.closed = closed
    }
}
