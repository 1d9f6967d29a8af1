/// An attribute the reader does not know for its element, kept as written.
public struct AppleHealthAttribute: Hashable, Sendable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
