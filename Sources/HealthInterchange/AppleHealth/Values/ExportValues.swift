import Foundation
import HealthModel
import Synchronization

/// The plain values of an export's attributes: numbers, units and quantities written as text.
enum ExportValues {
    /// A decimal number as exports write it (`72`, `-0.5`, `1.2e-3`); nil for anything else,
    /// including `inf`, `nan` and hexadecimal, which `Double(_:)` would take.
    static func number(_ text: String) -> Double? {
        guard isDecimal(text.utf8), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// `number(_:)` of the bytes in `range`, without the white space at either end.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        let digits = UnsafeBufferPointer(rebasing: bytes[trimmed(bytes, range)])
        // Short numbers make small strings, without an allocation.
        guard isDecimal(digits), let value = Double(String(decoding: digits, as: UTF8.self)), value.isFinite
        else { return nil }
        return value
    }

    /// A range without the XML white space at either end.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, Byte.isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, Byte.isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private static func isDecimal<C: Collection<UInt8>>(_ text: C) -> Bool {
        var sawDigit = false
        var sawExponent = false
        var previous: UInt8 = 0
        for (index, byte) in text.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard index == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return false }
            case UInt8(ascii: "."):
                guard !sawExponent else { return false }
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard sawDigit, !sawExponent else { return false }
                sawExponent = true
            default:
                return false
            }
            previous = byte
        }
        return sawDigit
    }

    /// A number with at most 15 significant digits, which a double holds exactly as written: a
    /// metadata value of an unknown key is read as a number only then (a 20-digit identifier
    /// stays a string).
    static func exactNumber(_ text: String) -> Double? {
        guard let value = number(text) else { return nil }
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        let significant = mantissa.filter(\.isNumber).drop { $0 == "0" }
        return significant.count <= 15 ? value : nil
    }

    /// A quantity written `24.5 degC`, `0 count/min` or `4.52156 kcal/hr·kg`: a number, one space,
    /// a unit HealthKit's grammar reads. Nil for anything else.
    static func quantity(_ text: String) -> Quantity? {
        guard let space = text.firstIndex(of: " ") else { return nil }
        let unitText = text[text.index(after: space)...]
        guard !unitText.isEmpty, let value = number(String(text[..<space])),
            let unit = try? UnitCache.unit(String(unitText))
        else { return nil }
        return Quantity(value, unit)
    }
}

/// Parsed units by their strings, shared by every reader and conversion: an export repeats a few
/// dozen unit strings millions of times. Bounded, so hostile input cannot grow it without end.
enum UnitCache {
    private static let units = Mutex<[String: HealthUnit]>([:])
    private static let maximumEntries = 4096

    /// The unit a string names, or `invalidArgument` (field `unit`) from HealthModel's parser.
    static func unit(_ text: String) throws(HealthError) -> HealthUnit {
        if let unit = units.withLock({ $0[text] }) {
            return unit
        }
        let unit = try HealthUnit(from: text)
        units.withLock { cache in
            if cache.count < maximumEntries {
                cache[text] = unit
            }
        }
        return unit
    }
}
