/// JSON text written by hand for the exports' writers: one object per line, keys in the order
/// written, strings escaped as RFC 8259 requires. (Foundation's serializers cost most of an
/// export's time and cannot keep a key order.)
struct JSONText {
    private(set) var text = ""
    private var needsComma: [Bool] = []

    init() { text.reserveCapacity(512) }

    static func quoted(_ string: String) -> String {
        // Most strings need no escape: checked on their bytes first.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { return "\"" + string + "\"" }
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number as JSON writes it: whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private mutating func separator() {
        if needsComma.last == true { text += "," }
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
    }

    mutating func key(_ name: String) {
        separator()
        text += Self.quoted(name) + ":"
        // The value that follows takes no separator of its own.
        pendingKey = true
    }

    private var pendingKey = false

    private mutating func valueStart() {
        if pendingKey {
            pendingKey = false
        } else {
            separator()
        }
    }

    mutating func beginObject() {
        valueStart()
        text += "{"
        needsComma.append(false)
    }

    mutating func endObject() {
        needsComma.removeLast()
        text += "}"
    }

    mutating func beginArray() {
        valueStart()
        text += "["
        needsComma.append(false)
    }

    mutating func endArray() {
        needsComma.removeLast()
        text += "]"
    }

    mutating func string(_ value: String) {
        valueStart()
        text += Self.quoted(value)
    }

    mutating func number(_ value: Double) {
        valueStart()
        text += Self.number(value)
    }

    mutating func integer(_ value: Int) {
        valueStart()
        text += String(value)
    }

    mutating func bool(_ value: Bool) {
        valueStart()
        text += value ? "true" : "false"
    }

    // Shorthands for "key": value.
    mutating func field(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    mutating func field(_ name: String, number value: Double) {
        key(name)
        number(value)
    }

    mutating func field(_ name: String, integer value: Int) {
        key(name)
        integer(value)
    }

    mutating func object(_ name: String, _ body: (inout JSONText) throws -> Void) rethrows {
        key(name)
        beginObject()
        try body(&self)
        endObject()
    }

    mutating func array(_ name: String, _ body: (inout JSONText) throws -> Void) rethrows {
        key(name)
        beginArray()
        try body(&self)
        endArray()
    }

    /// An object as an array's element.
    mutating func element(_ body: (inout JSONText) throws -> Void) rethrows {
        beginObject()
        try body(&self)
        endObject()
    }
}
