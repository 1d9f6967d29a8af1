/// An immutable value kept behind one reference: copying a value that holds it copies a pointer
/// and retains it once, where the value inline would copy all its bytes and retain each string.
///
/// A sample holds its source revision, device and discrete summary this way: they were most of a
/// sample's bytes (a quantity sample was 352 bytes with them inline, 104 without), and the store's
/// loads share one source revision and one device among the samples naming it. Equal, hashed and
/// described as the value it holds.
final class Shared<Value: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    static func == (lhs: Shared, rhs: Shared) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        value.hash(into: &hasher)
    }

    var description: String { String(describing: value) }

    /// The mirror of `subject`, the value holding this, with the children of the value held here:
    /// it prints (`print`, `dump`, test failures) as if it held the value inline.
    func mirror(of subject: Any) -> Mirror {
        Mirror(subject, children: Mirror(reflecting: value).children, displayStyle: .struct)
    }
}

/// Coded as the value it holds: the JSON of a value holding it is the value's own.
extension Shared: Encodable where Value: Encodable {
    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

extension Shared: Decodable where Value: Decodable {
    convenience init(from decoder: any Decoder) throws {
        self.init(try Value(from: decoder))
    }
}
