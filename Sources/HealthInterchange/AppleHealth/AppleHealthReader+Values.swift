/// The attribute values of the current tag as Swift strings: references decoded, forbidden
/// characters removed, line breaks normalized (XML 1.0, 3.3.3), and the values an export repeats
/// (types, source names, devices, units, metadata keys) made once and reused.
extension AppleHealthReader {
    /// The attribute kinds whose values repeat from one element to the next.
    enum InternSlot: Int, CaseIterable {
        case type
        case sourceName
        case sourceVersion
        case device
        case unit
        case metadataKey
        case metadataValue
    }

    /// The last value of one slot: its raw bytes, its string, and the repairs decoding made.
    struct InternedValue {
        var raw: [UInt8] = []
        var text = ""
        var removed = 0
        var invalid = 0
        var unknown = 0
    }

    /// Whether an attribute's name is `literal`.
    func attribute(_ attribute: XMLScanner.Attribute, is literal: StaticString) -> Bool {
        attribute.nameEnd - attribute.nameStart == literal.utf8CodeUnitCount
            && bytesEqual(scanner.bytes + attribute.nameStart, literal.utf8Start, literal.utf8CodeUnitCount)
    }

    func name(of attribute: XMLScanner.Attribute) -> String {
        String(
            decoding: UnsafeBufferPointer(
                start: scanner.bytes + attribute.nameStart,
                count: attribute.nameEnd - attribute.nameStart
            ),
            as: UTF8.self
        )
    }

    /// The value of an attribute whose value repeats: decoded once while it stays the same.
    func interned(_ attribute: XMLScanner.Attribute, _ slot: InternSlot) -> String {
        let count = attribute.valueEnd - attribute.valueStart
        let pointer = scanner.bytes + attribute.valueStart
        let matches = interned[slot.rawValue].raw.withUnsafeBufferPointer { raw in
            raw.count == count && (count == 0 || bytesEqual(raw.baseAddress!, pointer, count))
        }
        if matches {
            let entry = interned[slot.rawValue]
            counts.forbiddenCharactersRemoved += entry.removed
            counts.invalidUTF8Values += entry.invalid
            counts.unknownReferences += entry.unknown
            return entry.text
        }
        let before = (counts.forbiddenCharactersRemoved, counts.invalidUTF8Values, counts.unknownReferences)
        let text = value(of: attribute)
        interned[slot.rawValue] = InternedValue(
            raw: Array(UnsafeBufferPointer(start: pointer, count: count)),
            text: text,
            removed: counts.forbiddenCharactersRemoved - before.0,
            invalid: counts.invalidUTF8Values - before.1,
            unknown: counts.unknownReferences - before.2
        )
        return text
    }

    /// An attribute's value as a string.
    func value(of attribute: XMLScanner.Attribute) -> String {
        let buffer = UnsafeBufferPointer(
            start: scanner.bytes + attribute.valueStart,
            count: attribute.valueEnd - attribute.valueStart
        )
        if attribute.flags.isEmpty {
            return String(decoding: buffer, as: UTF8.self)
        }
        if attribute.flags == .nonASCII, !Self.holdsNoncharacter(buffer) {
            return utf8String(buffer)
        }
        return decoded(buffer)
    }

    private func utf8String(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
        if let text = String(validating: buffer, as: UTF8.self) {
            return text
        }
        counts.invalidUTF8Values += 1
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Whether the bytes hold U+FFFE or U+FFFF (EF BF BE, EF BF BF), which XML forbids.
    private static func holdsNoncharacter(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i + 2 < buffer.count {
            if buffer[i] == 0xEF, buffer[i + 1] == 0xBF, buffer[i + 2] >= 0xBE {
                return true
            }
            i += 1
        }
        return false
    }

    /// The slow path: references, control characters, noncharacters.
    private func decoded(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(buffer.count)
        var i = 0
        while i < buffer.count {
            let byte = buffer[i]
            if byte == Byte.ampersand {
                if let (scalar, next) = Self.reference(in: buffer, at: i) {
                    if Self.isForbidden(scalar) {
                        counts.forbiddenCharactersRemoved += 1
                    } else {
                        out.append(contentsOf: String(Character(scalar)).utf8)
                    }
                    i = next
                } else {
                    counts.unknownReferences += 1
                    out.append(byte)
                    i += 1
                }
                continue
            }
            if byte < 0x20 {
                switch byte {
                case Byte.tab, Byte.newline:
                    out.append(Byte.space)
                case Byte.carriageReturn:
                    out.append(Byte.space)
                    if i + 1 < buffer.count, buffer[i + 1] == Byte.newline {
                        i += 1
                    }
                default:
                    counts.forbiddenCharactersRemoved += 1
                }
                i += 1
                continue
            }
            if byte == 0xEF, i + 2 < buffer.count, buffer[i + 1] == 0xBF, buffer[i + 2] >= 0xBE {
                counts.forbiddenCharactersRemoved += 1
                i += 3
                continue
            }
            out.append(byte)
            i += 1
        }
        return out.withUnsafeBufferPointer { utf8String($0) }
    }

    /// The character a reference at `index` stands for and the index after its `;`, or nil for
    /// something that is not one of XML's five entities or a character reference.
    private static func reference(in buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        var end = index + 1
        while end < buffer.count, end - index <= 12, buffer[end] != Byte.semicolon {
            end += 1
        }
        guard end < buffer.count, buffer[end] == Byte.semicolon, end > index + 1 else { return nil }
        let body = UnsafeBufferPointer(rebasing: buffer[(index + 1)..<end])
        let next = end + 1
        if body[0] == Byte.hash {
            var value: UInt32 = 0
            var digits = 0
            let hex = body.count > 1 && (body[1] == UInt8(ascii: "x"))
            for byte in body.dropFirst(hex ? 2 : 1) {
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - Byte.zero)
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value * (hex ? 16 : 10) + digit
                digits += 1
                guard value <= 0x10FFFF else { return nil }
            }
            guard digits > 0, let scalar = Unicode.Scalar(value) else { return nil }
            return (scalar, next)
        }
        switch String(decoding: body, as: UTF8.self) {
        case "amp": return ("&", next)
        case "lt": return ("<", next)
        case "gt": return (">", next)
        case "quot": return ("\"", next)
        case "apos": return ("'", next)
        default: return nil
        }
    }

    /// XML 1.0's `Char` excludes these: C0 controls but tab, line feed and carriage return; and
    /// U+FFFE, U+FFFF.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || value == 0xFFFE
            || value == 0xFFFF
    }
}
