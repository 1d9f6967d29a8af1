/// Who makes a request of the engine: the owner (the CLI's owner channel) or an enrolled app,
/// already authenticated by the daemon.
public enum Caller: Hashable, Sendable, CustomStringConvertible {
    case owner
    /// An enrolled app, by its app id.
    case app(String)

    public var description: String {
        switch self {
        case .owner: "owner"
        case .app(let id): id
        }
    }
}
