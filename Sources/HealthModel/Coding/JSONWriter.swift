public import Foundation

/// A value that writes its own wire JSON by hand, byte for byte what ``HealthJSON/encode(_:)``
/// writes for it, without the generic encoder's cost. Only the few answers that can be large
/// (statistics collections: a year of hourly intervals is 8,760 objects) need it.
public protocol JSONWritable: Encodable {
    func write(to writer: inout JSONWriter) throws

    /// About how many bytes the JSON takes, for the writer's first buffer: a large answer written
    /// into a buffer that doubles as it fills is copied at every doubling.
    var estimatedJSONBytes: Int { get }
}

extension JSONWritable {
    public var estimatedJSONBytes: Int { 256 }
}

/// Writes JSON as ``HealthJSON/encoder()`` does: members in the order of their keys (the
/// callers write them sorted), slashes unescaped, the characters JSON requires escaped as
/// `JSONEncoder` escapes them, numbers in their shortest form without a trailing `.0`, dates
/// as RFC 3339 strings. Tests compare its output with `JSONEncoder`'s byte for byte.
public struct JSONWriter: Sendable {
    public internal(set) var bytes: [UInt8] = []
    /// The last source revision written and its text, written again for the next one spelled the
    /// same (`SourceRevision.isSpelled(as:)`, not `==`).
    var lastSourceRevision: (revision: SourceRevision, text: [UInt8])?

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The JSON of a writable value alone.
    public static func data(_ value: some JSONWritable, capacity: Int = 256) throws -> Data {
        var writer = JSONWriter(capacity: capacity)
        try value.write(to: &writer)
        return Data(writer.bytes)
    }

    /// Text written as it is: punctuation, or JSON already encoded.
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func raw(_ json: some Sequence<UInt8>) {
        bytes.append(contentsOf: json)
    }

    /// An object's member name and colon, after a comma unless it is the object's first member
    /// (`first` is the object's own flag, cleared here).
    public mutating func key(_ name: StaticString, first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings (identifiers, names) hold nothing to escape: their bytes, read in place.
        var text = value
        let plain = text.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        guard !plain else {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A finite number; JSON has no form for the others, so they throw as `JSONEncoder` does.
    public mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "\(value) is not a JSON number")
            )
        }
        // A whole number below 2^53 is written `123.0` by `description`: its digits alone, without
        // making that string and cutting it (-0.0 is written `-0`, so it takes the long way).
        if value.rounded(.towardZero) == value, value.magnitude < 9_007_199_254_740_992,
            value != 0 || value.sign == .plus
        {
            number(Int(value))
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func number(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A date as ``HealthJSON`` writes it; one the form cannot carry throws.
    public mutating func date(_ value: Date) throws {
        guard RFC3339.representableRange.contains(value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [],
                    debugDescription: "a date outside the years 0000-9999 has no RFC 3339 form"
                )
            )
        }
        bytes.append(UInt8(ascii: "\""))
        RFC3339.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func null() {
        raw("null")
    }

    /// An array of writable values. Inlinable, so that each caller's copy is specialized to its
    /// element and reads each one in place: the generic copy, like an array's iterator, copies
    /// each element out (a sample's strings retained and released again).
    @inlinable
    public mutating func array<Element>(
        _ elements: [Element],
        _ write: (inout JSONWriter, Element) throws -> Void
    )
        rethrows
    {
        raw("[")
        for index in elements.indices {
            if index > 0 { raw(",") }
            try write(&self, elements[index])
        }
        raw("]")
    }
}
