public import Foundation

/// A value that reads itself from wire JSON by hand, without the generic decoder's cost: the
/// client side of ``JSONWritable``. For JSON as `JSONEncoder` writes it (what the daemon sends)
/// it gives the value ``HealthJSON/decode(_:from:)`` gives.
public protocol JSONReadable: Decodable {
    init(reading reader: inout JSONReader) throws(HealthError)
}

/// A strict JSON reader (RFC 8259) over UTF-8 bytes, pulled value by value. Anything malformed
/// throws a ``HealthError`` with code `invalidArgument`, as ``HealthJSON/decode(_:from:)`` does,
/// naming the byte offset; members it does not know are skipped (and checked). Stricter than
/// Foundation's decoder in ways a peer writing JSON never meets: a trailing comma is refused, a
/// number too small for a double is refused rather than read as zero, and a malformed number in a
/// member nothing reads (`01`, `-`, which Foundation's scanner passes there) is refused. Of a
/// member given twice, the statistics' readers keep the last; the samples' readers refuse it. The
/// daemon and HealthVaultKit use it as a fast path only (`RPCParams.readFast`,
/// `RPCResult.readFast`): what it refuses is decoded again by ``HealthJSON/decode(_:from:)``,
/// whose value or error counts.
public struct JSONReader {
    private let bytes: [UInt8]
    private var at = 0
    /// Nesting left before a value is refused as too deep.
    private var depth: Int

    /// A reader of `data` that refuses arrays and objects nested deeper than `maximumDepth` levels
    /// (by default 511, what `JSONDecoder` allows).
    public init(_ data: Data, maximumDepth: Int = 511) {
        bytes = Array(data)
        depth = maximumDepth + 1
    }

    public init(_ bytes: [UInt8], maximumDepth: Int = 511) {
        self.bytes = bytes
        depth = maximumDepth + 1
    }

    /// Reads one whole document: the value, then nothing but white space.
    public static func read<T: JSONReadable>(_ type: T.Type, from data: Data) throws(HealthError) -> T {
        var reader = JSONReader(data)
        let value = try T(reading: &reader)
        try reader.end()
        return value
    }

    // MARK: Structure

    /// Reads an object, calling `member` with each member's name, the reader placed on its value;
    /// `member` must read or skip that value.
    public mutating func object(_ member: (inout JSONReader, JSONKey) throws(HealthError) -> Void) throws(HealthError) {
        try enter(UInt8(ascii: "{"), "an object")
        if try peek() == UInt8(ascii: "}") {
            at += 1
            depth += 1
            return
        }
        while true {
            guard try peek() == UInt8(ascii: "\"") else { throw malformed("a member name") }
            let start = at
            let name = try JSONKey(utf8: stringBytes())
            guard name.utf8.allSatisfy({ $0 < 0x80 }) || String(validating: name.utf8, as: UTF8.self) != nil else {
                throw HealthError.invalidArgument("malformed JSON: a member name that is not UTF-8 at byte \(start)")
            }
            try expect(UInt8(ascii: ":"), "':' after a member name")
            try member(&self, name)
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"):
                depth += 1
                return
            default: throw malformed("',' or '}' in an object", back: 1)
            }
        }
    }

    /// Reads an array, calling `element` with the reader placed on each element.
    public mutating func array(_ element: (inout JSONReader) throws(HealthError) -> Void) throws(HealthError) {
        try enter(UInt8(ascii: "["), "an array")
        if try peek() == UInt8(ascii: "]") {
            at += 1
            depth += 1
            return
        }
        while true {
            try element(&self)
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"):
                depth += 1
                return
            default: throw malformed("',' or ']' in an array", back: 1)
            }
        }
    }

    /// Reads `null` if it is next (true), or leaves the reader where it was (false).
    public mutating func null() throws(HealthError) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// The first byte of the next value, without reading it.
    public mutating func peekByte() throws(HealthError) -> UInt8 {
        try peek()
    }

    /// `true` or `false`.
    public mutating func bool() throws(HealthError) -> Bool {
        if try peek() == UInt8(ascii: "t") {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    /// Skips one value of any kind, checking it is well formed.
    public mutating func skip() throws(HealthError) {
        switch try peek() {
        case UInt8(ascii: "{"): try object { (reader, _) throws(HealthError) in try reader.skip() }
        case UInt8(ascii: "["): try array { (reader) throws(HealthError) in try reader.skip() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try double()
        }
    }

    /// Nothing but white space is left.
    public mutating func end() throws(HealthError) {
        skipSpace()
        guard at == bytes.count else { throw malformed("the end of the document") }
    }

    /// Skips one value by its structure alone: strings, brackets and braces balanced, without
    /// reading what they hold. For a value the caller reads in full later (an answer's `result`,
    /// skipped while routing the answer by its head).
    public mutating func skipStructure() throws(HealthError) {
        var open = 0
        repeat {
            let byte = try next()
            switch byte {
            case UInt8(ascii: "\""):
                at -= 1
                _ = try stringBytes()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
                // The depth left where the value stands, as a read in place would allow: a value
                // passed here and read later, at a shallower place, is held to its own.
                guard open < depth else { throw malformed("values nested less deeply", back: 1) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                open -= 1
                guard open >= 0 else { throw malformed("a value", back: 1) }
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard open > 0 else { throw malformed("a value", back: 1) }
            default:
                // A number or a literal: up to the next delimiter.
                while at < bytes.count, !Self.isDelimiter[Int(bytes[at])] { at += 1 }
            }
        } while open > 0
    }

    /// Whether a byte ends a number or a literal, by its value: a table, not a set, since the
    /// skip of a large answer asks it of every byte of every number.
    private static let isDelimiter: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in ",:]}[{\" \t\r\n".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// Where the next value begins (white space skipped), for ``move(to:)`` and ``bytes(from:)``.
    mutating func offsetOfNextValue() -> Int {
        skipSpace()
        return at
    }

    /// Places the reader at `offset`, one ``offsetOfNextValue()`` gave: to read a value passed
    /// earlier, or to come back.
    mutating func move(to offset: Int) {
        at = offset
    }

    /// The text from `offset` to where the reader is.
    func bytes(from offset: Int) -> ArraySlice<UInt8> {
        bytes[offset..<at]
    }

    // MARK: Memo

    /// The last unit, quantity type, sample type and source revision read, each with where its
    /// text lay: the next value spelled the same, byte for byte, is that value again (a collection
    /// repeats a unit and a type in every interval, an answer's samples mostly share a type, a
    /// unit and a revision). Each text is one whole value (a string with its quotes, an object
    /// with its braces), so the same bytes at the next value's start are that whole value.
    var lastUnit: (text: Range<Int>, unit: HealthUnit)?
    var lastQuantityType: (text: Range<Int>, type: QuantityTypeIdentifier)?
    var lastSampleType: (text: Range<Int>, type: SampleType)?
    var lastSourceRevision: (text: Range<Int>, revision: SourceRevision)?
    var lastDevice: (text: Range<Int>, device: Device)?

    /// Whether the next value's text is, byte for byte, the text at `earlier` (a range read before);
    /// if so the reader is moved past it.
    mutating func repeats(_ earlier: Range<Int>) -> Bool {
        let start = offsetOfNextValue()
        guard start + earlier.count <= bytes.count,
            bytes.withUnsafeBufferPointer({ bytes in
                memcmp(bytes.baseAddress! + start, bytes.baseAddress! + earlier.lowerBound, earlier.count) == 0
            })
        else { return false }
        at = start + earlier.count
        return true
    }

    mutating func sourceRevision() throws(HealthError) -> SourceRevision {
        if let last = lastSourceRevision, repeats(last.text) { return last.revision }
        let start = offsetOfNextValue()
        let revision = try SourceRevision(reading: &self)
        lastSourceRevision = (start..<at, revision)
        return revision
    }

    /// A sample's device: a day of one watch's samples names one, spelled alike, read once.
    mutating func device() throws(HealthError) -> Device {
        if let last = lastDevice, repeats(last.text) { return last.device }
        let start = offsetOfNextValue()
        let device = try Device(reading: &self)
        lastDevice = (start..<at, device)
        return device
    }

    mutating func unit() throws(HealthError) -> HealthUnit {
        if let last = lastUnit, repeats(last.text) { return last.unit }
        let start = offsetOfNextValue()
        let unit = try HealthUnit(from: try string())
        lastUnit = (start..<at, unit)
        return unit
    }

    /// The type a sample's `type` names.
    mutating func sampleType() throws(HealthError) -> SampleType {
        if let last = lastSampleType, repeats(last.text) { return last.type }
        let start = offsetOfNextValue()
        let type = try SampleType(identifier: try string())
        lastSampleType = (start..<at, type)
        return type
    }

    mutating func quantityType() throws(HealthError) -> QuantityTypeIdentifier {
        if let last = lastQuantityType, repeats(last.text) { return last.type }
        let start = offsetOfNextValue()
        let type = try QuantityTypeIdentifier(healthKitString: try string())
        lastQuantityType = (start..<at, type)
        return type
    }

    // MARK: Scalars

    public mutating func string() throws(HealthError) -> String {
        let start = at
        let utf8 = try stringBytes()
        // ASCII needs no validation.
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw HealthError.invalidArgument("malformed JSON: a string that is not UTF-8 at byte \(start)")
        }
        return text
    }

    /// A string's UTF-8 bytes, escapes resolved (not yet checked to be UTF-8).
    private mutating func stringBytes() throws(HealthError) -> ArraySlice<UInt8> {
        try expect(UInt8(ascii: "\""), "a string")
        let start = at
        // The common case: no escape, so the bytes are the string; found with unchecked reads.
        let closing = bytes.withUnsafeBufferPointer { bytes -> Int? in
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { return index }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }
        if let closing {
            at = closing + 1
            return bytes[start..<closing]
        }
        // Otherwise byte by byte, to resolve the escapes or to name what is wrong.
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                return bytes[start..<(at - 1)]
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw malformed("a string without control characters") }
            at += 1
        }
        var scalars = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                return scalars[...]
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { break }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        // A high surrogate must be followed by its low one.
                        guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u")
                        else { throw malformed("a low surrogate after a high one") }
                        at += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw malformed("a low surrogate", back: 6) }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw malformed("a high surrogate before a low one", back: 6)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw malformed("a Unicode scalar", back: 6) }
                    scalars.append(contentsOf: UTF8.encode(scalar)!)
                default: throw malformed("a valid escape", back: 1)
                }
            case 0..<0x20: throw malformed("a string without control characters", back: 1)
            default: scalars.append(byte)
            }
        }
        throw malformed("the end of a string")
    }

    public mutating func double() throws(HealthError) -> Double {
        skipSpace()
        let start = at
        if let value = exactDouble() { return value }
        let text = try numberText()
        // Out of range either way is refused: too large, or too small to be told from zero.
        guard let value = Double(text), value.isFinite,
            value != 0 || !text.prefix(while: { $0 != "e" && $0 != "E" }).contains(where: { ("1"..."9").contains($0) })
        else {
            throw malformed("a number a double can hold", back: at - start)
        }
        return value
    }

    /// A number read without its text when the double is sure by a single operation (Clinger's
    /// fast path): at most 19 significant digits whose integer is at most 2^53, scaled by a power of
    /// ten from 10^-22 to 10^22, both exact doubles, so the one product or quotient, rounded once,
    /// is the correctly rounded value `Double(text)` gives. nil for anything else (longer digits,
    /// larger exponents, or text that is not a number), the reader left where it was: the caller
    /// then reads the text the slow way.
    private mutating func exactDouble() -> Double? {
        bytes.withUnsafeBufferPointer { bytes -> Double? in
            var index = at
            let count = bytes.count
            var negative = false
            if index < count, bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            var mantissa: UInt64 = 0
            var digits = 0
            var scale = 0
            guard index < count else { return nil }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                let first = index
                while index < count, bytes[index] &- UInt8(ascii: "0") < 10 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- UInt8(ascii: "0"))
                    index += 1
                }
                digits = index - first
                guard digits > 0 else { return nil }
            }
            if index < count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let first = index
                while index < count, bytes[index] &- UInt8(ascii: "0") < 10 {
                    let digit = UInt64(bytes[index] &- UInt8(ascii: "0"))
                    // Leading zeros of a fraction (0.000123) are not significant.
                    if mantissa != 0 || digit != 0 { digits += 1 }
                    mantissa = mantissa &* 10 &+ digit
                    index += 1
                }
                guard index > first else { return nil }
                scale = first - index
            }
            guard digits <= 19 else { return nil }
            if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                var exponentNegative = false
                if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    exponentNegative = bytes[index] == UInt8(ascii: "-")
                    index += 1
                }
                let first = index
                var exponent = 0
                while index < count, bytes[index] &- UInt8(ascii: "0") < 10, index - first < 4 {
                    exponent = exponent * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                    index += 1
                }
                // No digit, or more than four (the slow path reads them).
                guard index > first, index == count || bytes[index] &- UInt8(ascii: "0") >= 10 else { return nil }
                scale += exponentNegative ? -exponent : exponent
            }
            guard mantissa <= 1 << 53, scale >= -22, scale <= 22 else { return nil }
            var value = Double(mantissa)
            if scale < 0 {
                value /= Self.powersOfTen[-scale]
            } else {
                value *= Self.powersOfTen[scale]
            }
            at = index
            return negative ? -value : value
        }
    }

    /// 10^0 through 10^22, each exact as a double.
    private static let powersOfTen: [Double] = (0...22).map { power in
        (0..<power).reduce(1.0) { value, _ in value * 10 }
    }

    /// A number's text, checked against JSON's grammar, for a caller that needs more than a
    /// double holds (a 64-bit integer).
    public mutating func numberText() throws(HealthError) -> String {
        skipSpace()
        let start = at
        // RFC 8259's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count else { throw malformed("a number") }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
        } else {
            guard try digits() > 0 else { throw malformed("a number") }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard try digits() > 0 else { throw malformed("digits after '.'") }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard try digits() > 0 else { throw malformed("an exponent") }
        }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    /// An integer, as `JSONDecoder` reads an `Int`: a number with no fraction that fits.
    public mutating func int() throws(HealthError) -> Int {
        let start = at
        let text = try numberText()
        if let int = Int(text) { return int }
        guard let value = Double(text), let int = Int(exactly: value) else {
            throw malformed("an integer", back: at - start)
        }
        return int
    }

    /// A whole number written as digits alone (`-?[0-9]+`, no fraction or exponent) that fits an
    /// `Int`; anything else throws. Stricter than ``int()`` and than `JSONDecoder` (which also
    /// takes `1e3` and `1.0`): for readers that fall back to the generic decoder when they refuse.
    public mutating func plainInt() throws(HealthError) -> Int {
        skipSpace()
        let start = at
        var negative = false
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") {
            negative = true
            at += 1
        }
        let first = at
        var magnitude: UInt64 = 0
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
            guard at - first < 18 else { throw malformed("a small whole number", back: at - start) }
            magnitude = magnitude * 10 + UInt64(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        guard at > first, at - first == 1 || bytes[first] != UInt8(ascii: "0") else {
            throw malformed("a whole number", back: at - start)
        }
        if at < bytes.count,
            bytes[at] == UInt8(ascii: ".") || bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E")
        {
            throw malformed("a whole number without a fraction or an exponent", back: at - start)
        }
        return negative ? -Int(magnitude) : Int(magnitude)
    }

    /// A UUID string in its canonical form (8-4-4-4-12 hexadecimal digits, either case), as
    /// `UUID(uuidString:)` reads it; any other string throws.
    public mutating func uuid() throws(HealthError) -> UUID {
        let start = at
        let text = try stringBytes()
        guard text.count == 36 else { throw malformed("a UUID", back: at - start) }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var ok = true
        withUnsafeMutableBytes(of: &value) { out in
            var index = text.startIndex
            for byteIndex in 0..<16 {
                if byteIndex == 4 || byteIndex == 6 || byteIndex == 8 || byteIndex == 10 {
                    if text[index] != UInt8(ascii: "-") { ok = false }
                    index += 1
                }
                let high = Self.hexValues[Int(text[index])]
                let low = Self.hexValues[Int(text[index + 1])]
                guard high | low < 0x10 else {
                    ok = false
                    return
                }
                out[byteIndex] = high << 4 | low
                index += 2
            }
        }
        guard ok else { throw malformed("a UUID", back: at - start) }
        return UUID(uuid: value)
    }

    /// Each byte's value as a hexadecimal digit (either case), 0xFF for a byte that is none.
    private static let hexValues: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }

    /// An RFC 3339 string, read as ``HealthJSON`` reads dates.
    public mutating func date(field: String) throws(HealthError) -> Date {
        guard let date = RFC3339.date(utf8: try stringBytes()), RFC3339.representableRange.contains(date) else {
            throw HealthError.invalidArgument(
                "not an RFC 3339 date between the years 0000 and 9999 (as 2026-11-22T10:15:30.250Z)",
                field: field
            )
        }
        return date
    }

    // MARK: Bytes

    private mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    private mutating func peek() throws(HealthError) -> UInt8 {
        skipSpace()
        guard at < bytes.count else { throw malformed("a value") }
        return bytes[at]
    }

    private mutating func next() throws(HealthError) -> UInt8 {
        let byte = try peek()
        at += 1
        return byte
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(HealthError) {
        guard try peek() == byte else { throw malformed(what) }
        at += 1
    }

    private mutating func enter(_ byte: UInt8, _ what: String) throws(HealthError) {
        try expect(byte, what)
        depth -= 1
        guard depth > 0 else { throw malformed("values nested less deeply") }
    }

    private mutating func literal(_ word: StaticString) throws(HealthError) {
        skipSpace()
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            at + length <= bytes.count && bytes[at..<(at + length)].elementsEqual(expected)
        }
        guard matches else { throw malformed("\(word)") }
        at += length
    }

    private mutating func digits() throws(HealthError) -> Int {
        let start = at
        while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
        return at - start
    }

    private mutating func hex4() throws(HealthError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw malformed("four hex digits") }
        var code: UInt32 = 0
        for byte in bytes[at..<(at + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw malformed("four hex digits")
            }
            code = code << 4 | UInt32(digit)
        }
        at += 4
        return code
    }

    private func malformed(_ expected: String, back: Int = 0) -> HealthError {
        HealthError.invalidArgument("malformed JSON: expected \(expected) at byte \(max(0, at - back))")
    }
}

/// An object member's name, as its UTF-8 bytes: compared with a literal without making a string.
public struct JSONKey: CustomStringConvertible {
    let utf8: ArraySlice<UInt8>

    init(utf8: ArraySlice<UInt8>) {
        self.utf8 = utf8
    }

    public static func == (key: JSONKey, name: StaticString) -> Bool {
        name.withUTF8Buffer { name in
            key.utf8.count == name.count
                && (name.isEmpty
                    || key.utf8.withUnsafeBufferPointer { memcmp($0.baseAddress!, name.baseAddress!, name.count) == 0 })
        }
    }

    public static func ~= (name: StaticString, key: JSONKey) -> Bool {
        key == name
    }

    public var description: String { String(decoding: utf8, as: UTF8.self) }
}
