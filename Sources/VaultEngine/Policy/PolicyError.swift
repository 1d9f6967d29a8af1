/// A policy file or app manifest that cannot be used: which file, which key, and what is wrong
/// with it (the first problem found), so the owner knows where to look.
public struct PolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, as the owner named it.
    public var file: String
    /// The key's path in the file (`share[2]`), or nil for the file as a whole.
    public var key: String?
    /// What is wrong and what would be right.
    public var problem: String

    public init(file: String, key: String?, problem: String) {
        self.file = file
        self.key = key
        self.problem = problem
    }

    public var description: String {
        if let key { return "\(file): \(key): \(problem)" }
        return "\(file): \(problem)"
    }
}
