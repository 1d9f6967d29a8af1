public import Foundation
public import HealthModel
public import PropertyBased

/// Rewrites a JSON text as another writer might: members shuffled, white space between tokens,
/// some characters of strings escaped (`\u00XX`, `\/`), unknown members added. Numbers and the
/// strings' values are kept, so the text means what it meant.
public enum Reshaper {
    public static func reshape(_ data: Data, _ rng: inout RandomModel.RNG) -> String {
        var parser = Parser(bytes: Array(data))
        let value = parser.value()
        var out = ""
        write(value, &out, &rng)
        return out
    }

    indirect enum Value {
        case object([(String, Value)])
        case array([Value])
        case string(String)
        case scalar(String)
    }

    struct Parser {
        let bytes: [UInt8]
        var at = 0

        mutating func value() -> Value {
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var members: [(String, Value)] = []
                while bytes[at] != UInt8(ascii: "}") {
                    if bytes[at] == UInt8(ascii: ",") { at += 1 }
                    guard case .string(let key) = value() else { fatalError("a key") }
                    at += 1  // :
                    members.append((key, value()))
                }
                at += 1
                return .object(members)
            case UInt8(ascii: "["):
                at += 1
                var elements: [Value] = []
                while bytes[at] != UInt8(ascii: "]") {
                    if bytes[at] == UInt8(ascii: ",") { at += 1 }
                    elements.append(value())
                }
                at += 1
                return .array(elements)
            case UInt8(ascii: "\""):
                // The encoder's own output: its escapes are read back by JSONSerialization.
                let start = at
                at += 1
                while bytes[at] != UInt8(ascii: "\"") { at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1 }
                at += 1
                let text = Data(bytes[start..<at])
                return .string(try! JSONSerialization.jsonObject(with: text, options: .fragmentsAllowed) as! String)
            default:
                let start = at
                while at < bytes.count, !",]}".utf8.contains(bytes[at]) { at += 1 }
                return .scalar(String(decoding: bytes[start..<at], as: UTF8.self))
            }
        }
    }

    static func space(_ rng: inout RandomModel.RNG) -> String {
        ["", "", " ", "\n", "\t ", "\r\n  "].randomElement(using: &rng)!
    }

    static func write(_ string: String, _ out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += "\\/"
            case _ where scalar.value < 0x20 || scalar == "a" || scalar == "é":
                out += String(format: "\\u%04X", scalar.value)
            case _ where scalar.value > 0xFFFF:
                // A surrogate pair.
                let v = scalar.value - 0x10000
                out += String(format: "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `dictionary`: an object whose members are data (metadata), where no member can be added.
    static func write(_ value: Value, _ out: inout String, _ rng: inout RandomModel.RNG, dictionary: Bool = false) {
        switch value {
        case .object(var members):
            members.shuffle(using: &rng)
            if !dictionary, Int.random(in: 0..<4, using: &rng) == 0 {
                members.append(
                    ("zzUnknown", .array([.scalar("1.5e3"), .object([("a", .scalar("null"))]), .string("x")]))
                )
            }
            out += "{" + space(&rng)
            for (index, (key, member)) in members.enumerated() {
                if index > 0 { out += "," + space(&rng) }
                write(key, &out)
                out += space(&rng) + ":" + space(&rng)
                write(member, &out, &rng, dictionary: key == "metadata")
            }
            out += space(&rng) + "}"
        case .array(let elements):
            out += "[" + space(&rng)
            for (index, element) in elements.enumerated() {
                if index > 0 { out += space(&rng) + "," + space(&rng) }
                write(element, &out, &rng)
            }
            out += space(&rng) + "]"
        case .string(let string):
            if Bool.random(using: &rng) { write(string, &out) } else { out += plain(string) }
        case .scalar(let text): out += text
        }
    }

    /// A string as the encoder writes it.
    static func plain(_ string: String) -> String {
        String(decoding: try! HealthJSON.encode(string), as: UTF8.self)
    }
}

extension RandomModel {
    /// A generator seeded with `seed`, for tests outside a property check.
    public static func seeded(_ seed: UInt64) -> RNG {
        Xoshiro(seed: (seed, 0x9E37_79B9_7F4A_7C15, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB))
    }
}
