import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

/// `JSONReader.double()` reads most numbers without their text (a single exact product or
/// quotient): each number gives the double `Double(text)` gives, bit for bit, and what JSON's
/// grammar or a double refuses is refused.
@Suite struct JSONNumberTests {
    /// What `double()` must give for `text`: `Double(text)` of a number JSON's grammar allows, finite,
    /// and not a nonzero number too small to be told from zero; nil otherwise.
    static func expected(_ text: String) -> Double? {
        guard text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil,
            let value = Double(text), value.isFinite
        else { return nil }
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        if value == 0, mantissa.contains(where: { ("1"..."9").contains($0) }) { return nil }
        return value
    }

    static func read(_ text: String) -> Double? {
        var reader = JSONReader(Array(text.utf8))
        guard let value = try? reader.double(), (try? reader.end()) != nil else { return nil }
        return value
    }

    static func digits(_ count: Int, _ rng: inout RandomModel.RNG) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
    }

    /// A number's text of every shape: short and long digits, fractions with leading zeros,
    /// exponents near and beyond a double's range, and now and then one that is not JSON.
    static func text(_ rng: inout RandomModel.RNG) -> String {
        var text = Bool.random(using: &rng) ? "-" : ""
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: text += "0"
        case 1: text += String(Int.random(in: 1...9, using: &rng)) + digits(Int.random(in: 0...3, using: &rng), &rng)
        case 2: text += String(Int.random(in: 1...9, using: &rng)) + digits(Int.random(in: 10...25, using: &rng), &rng)
        case 3: text += "9007199254740993"  // 2^53 + 1: not a double
        case 4: text += String(Int.random(in: 1...9, using: &rng)) + digits(Int.random(in: 4...16, using: &rng), &rng)
        default: text += digits(Int.random(in: 0...2, using: &rng), &rng)  // "", "05": not JSON
        }
        if Int.random(in: 0..<3, using: &rng) > 0 {
            let zeros = String(repeating: "0", count: Int.random(in: 0...8, using: &rng))
            text += "." + zeros + digits(Int.random(in: 0...20, using: &rng), &rng)
        }
        if Bool.random(using: &rng) {
            text += ["e", "E"].randomElement(using: &rng)! + ["", "+", "-"].randomElement(using: &rng)!
            let exponent =
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: Int.random(in: 0...22, using: &rng)
                case 1: Int.random(in: 23...330, using: &rng)
                case 2: Int.random(in: 0...99_999, using: &rng)
                default: -1  // no digits: not JSON
                }
            if exponent >= 0 {
                text += String(repeating: "0", count: Int.random(in: 0...2, using: &rng)) + String(exponent)
            }
        }
        return text
    }

    @Test func readsEveryNumberAsTheStandardLibraryDoes() async {
        await propertyCheck(count: 3_000, input: Generator(run: { rng in rng })) { generator in
            var rng = generator
            for _ in 0..<20 {
                let text = Self.text(&rng)
                let expected = Self.expected(text)
                let read = Self.read(text)
                #expect(read?.bitPattern == expected?.bitPattern, "\(text)")
            }
        }
    }

    /// The fast path's edges: the largest exact integer, the powers of ten a double holds exactly,
    /// negative zero, and the numbers just past each, read the slow way to the same double.
    @Test(arguments: [
        "9007199254740992", "9007199254740993", "-9007199254740992", "1e22", "1e23", "1e-22", "1e-23",
        "123456789012345678", "1234567890123456789", "12345678901234567890", "0.0000000000000000000001",
        "-0", "-0.0", "0e5", "-0e-5", "0.1", "0.3", "2.2250738585072014e-308", "4.9e-324", "1e-400",
        "1.7976931348623157e308", "1.8e308", "72", "7.2e1", "1E+2", "1e0001", "01", "1.", ".5", "-", "1e",
        "1e+", "+1", "1.5e-3",
    ])
    func edges(text: String) {
        #expect(Self.read(text)?.bitPattern == Self.expected(text)?.bitPattern, "\(text)")
    }
}
