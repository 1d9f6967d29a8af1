import Foundation
import HealthModel

/// Prints a value as `--json` prints it (docs/COMMAND_LINE.md, "JSON output"): one line, keys
/// sorted, RFC 3339 dates, and no empty members (``JSONOutput/compacted(_:)``).
func printJSON(_ value: some Encodable) throws {
    print(JSONOutput.compacted(String(decoding: try HealthJSON.encode(value), as: UTF8.self)))
}

/// Prints a list as JSON lines: one object per line, nothing for an empty list.
func printJSONLines<Element: Encodable>(_ values: some Sequence<Element>) throws {
    for value in values { try printJSON(value) }
}

/// The one shape of the command line's JSON objects: a member that is empty (`""`, `[]`, `{}`)
/// is left out, as one that does not apply is, so a reader tests for one thing, absence. The
/// shapes apps read on the socket are not touched: this is done to the text the command prints.
///
/// It works on the encoded text, so every number is written exactly as it was encoded. Two
/// members are printed as they are, being data or a file's own format: a sample's `metadata`
/// (an empty string there is a value) and an export's `manifest` (exactly as `manifest.json`
/// holds it, docs/EXPORT_JSON.md). An object left empty by what was taken out goes too; elements
/// of arrays are kept.
enum JSONOutput {
    /// The members printed as they are (their keys, quoted, as the encoder writes them).
    static let verbatim: Set<[UInt8]> = [Array(#""metadata""#.utf8), Array(#""manifest""#.utf8)]

    static func compacted(_ text: String) -> String {
        var parser = Parser(bytes: Array(text.utf8))
        guard let value = parser.value(), parser.atEnd else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(parser.bytes.count)
        value.compacted(in: parser.bytes).write(to: &out, in: parser.bytes)
        return String(decoding: out, as: UTF8.self)
    }

    /// A parsed value: the byte range of a scalar, or an object's members and an array's elements.
    indirect enum Value {
        case scalar(Range<Int>)
        case object([(key: Range<Int>, value: Value)])
        case array([Value])

        /// Empty: `""`, `[]` or `{}` (after its own empty members went).
        func isEmpty(in bytes: [UInt8]) -> Bool {
            switch self {
            case .scalar(let range): range.count == 2 && bytes[range.lowerBound] == UInt8(ascii: "\"")
            case .object(let members): members.isEmpty
            case .array(let elements): elements.isEmpty
            }
        }

        /// The value without its empty members, all the way down (but in ``JSONOutput/verbatim``).
        func compacted(in bytes: [UInt8]) -> Value {
            switch self {
            case .scalar: return self
            case .array(let elements):
                return .array(elements.map { $0.compacted(in: bytes) })
            case .object(let members):
                var kept: [(key: Range<Int>, value: Value)] = []
                for member in members {
                    let verbatim = JSONOutput.verbatim.contains(Array(bytes[member.key]))
                    let value = verbatim ? member.value : member.value.compacted(in: bytes)
                    if !value.isEmpty(in: bytes) { kept.append((member.key, value)) }
                }
                return .object(kept)
            }
        }

        func write(to out: inout [UInt8], in bytes: [UInt8]) {
            switch self {
            case .scalar(let range):
                out.append(contentsOf: bytes[range])
            case .array(let elements):
                out.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    element.write(to: &out, in: bytes)
                }
                out.append(UInt8(ascii: "]"))
            case .object(let members):
                out.append(UInt8(ascii: "{"))
                for (index, member) in members.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(contentsOf: bytes[member.key])
                    out.append(UInt8(ascii: ":"))
                    member.value.write(to: &out, in: bytes)
                }
                out.append(UInt8(ascii: "}"))
            }
        }
    }

    /// A reader of the JSON the command's own encoder wrote (no white space between tokens is
    /// needed, but it is skipped); anything it does not follow leaves the text as it was.
    struct Parser {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool {
            mutating get {
                skipSpace()
                return position == bytes.count
            }
        }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        mutating func value() -> Value? {
            skipSpace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [(key: Range<Int>, value: Value)] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                    position += 1
                    guard let member = value() else { return nil }
                    members.append((key, member))
                    skipSpace()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                    } else if bytes[position] == UInt8(ascii: "}") {
                        position += 1
                        return .object(members)
                    } else {
                        return nil
                    }
                }
            case UInt8(ascii: "["):
                position += 1
                var elements: [Value] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                while true {
                    guard let element = value() else { return nil }
                    elements.append(element)
                    skipSpace()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                    } else if bytes[position] == UInt8(ascii: "]") {
                        position += 1
                        return .array(elements)
                    } else {
                        return nil
                    }
                }
            case UInt8(ascii: "\""):
                return string().map(Value.scalar)
            default:
                // A number, true, false or null: up to the next delimiter, as written.
                let start = position
                while position < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(
                        bytes[position]
                    )
                {
                    position += 1
                }
                return position > start ? .scalar(start..<position) : nil
            }
        }

        /// A string, quotes included, escapes passed over.
        mutating func string() -> Range<Int>? {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            let start = position
            position += 1
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\\"): position += 2
                case UInt8(ascii: "\""):
                    position += 1
                    return start..<position
                default: position += 1
                }
            }
            return nil
        }
    }
}
