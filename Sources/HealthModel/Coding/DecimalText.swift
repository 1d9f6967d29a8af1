import Foundation

/// Numbers written as text for people and for programs that read text (CSV cells, the command
/// line's tables and messages), as opposed to JSON, which keeps every digit of a double.
///
/// A double holds 15 significant decimal digits exactly, and its 16th and 17th only approximate
/// the arithmetic that produced it: 154 lb stored as 69.85322498 kg comes back as
/// 153.99999999999997 lb. Written to 15 significant digits it is `154` again.
public enum DecimalText {
    /// The most significant digits written.
    public static let significantDigits = 15

    /// The shortest text that reads back as `value` rounded to 15 significant digits: `154`, `0.1`,
    /// `72.5`, `-3`, `1e-05`, `1.23456789012346e+20`; `0` for either zero. A whole number has no
    /// `.0`; very small and very large values take Swift's exponent form (`1e-05`, `1e+16`). Infinities and NaN,
    /// which no stored value is, are written `inf`, `-inf` and `nan`.
    public static func text(_ value: Double) -> String {
        guard value.isFinite else { return value.description }
        // Swift's shortest round-trip text is the answer when it has 15 digits or fewer (most
        // values: 72.5, 154); only the others go through the slower rounding.
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        let mantissa = text.utf8.prefix { $0 != UInt8(ascii: "e") }
        let digits = mantissa.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        if digits.drop(while: { $0 == UInt8(ascii: "0") }).count > significantDigits {
            let rounded = Double(String(format: "%.\(significantDigits)g", value)) ?? value
            text = rounded.description
            if text.hasSuffix(".0") { text.removeLast(2) }
        }
        return text == "-0" ? "0" : text
    }

    /// `value` rounded to `decimals` places (half away from zero), without trailing zeros and
    /// never with an exponent: `154.3`, `154`, `0.05`. A value below 1 (and not 0) keeps at least
    /// `minimumSignificantDigits` significant digits (`0.0123` at two places and three digits), so
    /// a small reading never shows as 0.
    public static func text(_ value: Double, decimals: Int, minimumSignificantDigits: Int = 0) -> String {
        guard value.isFinite else { return value.description }
        var places = max(0, decimals)
        let magnitude = abs(value)
        if minimumSignificantDigits > 0, magnitude > 0, magnitude < 1 {
            // The position of the first significant digit: 0 for 1-9, -2 for 0.0123.
            let first = Int(floor(log10(magnitude)))
            places = max(places, minimumSignificantDigits - 1 - first)
        }
        places = min(places, 30)
        // Rounded in decimal from the 15-digit text, half away from zero as people round: 0.285
        // (the double 0.28499999999999998) is 0.29 at two places, as written.
        let posix = Locale(identifier: "en_US_POSIX")
        var source = Decimal(string: text(value), locale: posix) ?? Decimal(value)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, places, .plain)
        var text = rounded.description
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
