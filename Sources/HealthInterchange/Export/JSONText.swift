public import HealthModel

/// A JSON object built member by member for the FHIR writer, over HealthModel's ``JSONWriter``
/// (which escapes strings and writes numbers as the rest of the project does): this only adds
/// the commas and nesting of an object written in key order.
struct JSONText {
    private(set) var writer = JSONWriter(capacity: 512)
    private var needsComma: [Bool] = []
    private var pendingKey = false

    var bytes: [UInt8] { writer.bytes }

    private mutating func separator() {
        if needsComma.last == true { writer.raw(",") }
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
    }

    private mutating func valueStart() {
        if pendingKey {
            pendingKey = false
        } else {
            separator()
        }
    }

    mutating func key(_ name: String) {
        separator()
        writer.string(name)
        writer.raw(":")
        // The value that follows takes no separator of its own.
        pendingKey = true
    }

    mutating func beginObject() {
        valueStart()
        writer.raw("{")
        needsComma.append(false)
    }

    mutating func endObject() {
        needsComma.removeLast()
        writer.raw("}")
    }

    mutating func beginArray() {
        valueStart()
        writer.raw("[")
        needsComma.append(false)
    }

    mutating func endArray() {
        needsComma.removeLast()
        writer.raw("]")
    }

    mutating func string(_ value: String) {
        valueStart()
        writer.string(value)
    }

    mutating func number(_ value: Double) {
        valueStart()
        writer.numberOrNull(value)
    }

    mutating func integer(_ value: Int) {
        valueStart()
        writer.number(value)
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

extension JSONWriter {
    /// A number; `null` for one JSON cannot write (HealthModel's values are finite: never met).
    mutating func numberOrNull(_ value: Double) {
        if (try? number(value)) == nil { null() }
    }
}
