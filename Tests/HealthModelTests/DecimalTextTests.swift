import Foundation
import HealthModel
import Testing

/// Numbers as text for people and for CSV cells (docs/COMMAND_LINE.md, "Numbers";
/// docs/EXPORT_CSV.md): at most 15 significant digits, and the command line's rounding.
@Suite struct DecimalTextTests {
    @Test func fifteenSignificantDigitsDropTheNoiseOfAConversion() {
        // 154 lb entered as 69.85322498 kg and shown in lb: the double is 153.99999999999997.
        let kilograms = 69.85322498
        let pounds = kilograms * (1000 / 453.59237)
        #expect(pounds != 154 && pounds.description == "153.99999999999997")
        #expect(DecimalText.text(pounds) == "154")
        #expect(DecimalText.text(0.1 + 0.2) == "0.3")
        #expect(DecimalText.text(72.5) == "72.5")
        #expect(DecimalText.text(154) == "154")
        #expect(DecimalText.text(-3) == "-3")
        #expect(DecimalText.text(-0.0) == "0")
        #expect(DecimalText.text(0.00001) == "1e-05")
        #expect(DecimalText.text(1e16) == "1e+16")
        #expect(DecimalText.text(123_456_789.123_456_789) == "123456789.123457")
        // Fifteen digits that are the value's own are all kept.
        #expect(DecimalText.text(153.999944928527) == "153.999944928527")
        #expect(DecimalText.text(69.85322498) == "69.85322498")
    }

    @Test func everyTextReadsBackAsTheValueToFifteenDigits() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let value = Double.random(in: -1e6...1e6, using: &generator) * pow(10, Double(Int.random(in: -8...8)))
            let text = DecimalText.text(value)
            let back = Double(text)
            #expect(back != nil, "\(value): \(text)")
            #expect(String(format: "%.14e", back ?? .nan) == String(format: "%.14e", value), "\(value): \(text)")
            let significant = text.prefix { $0 != "e" }.filter(\.isNumber).drop { $0 == "0" }
            #expect(significant.count <= 15, "\(value): \(text)")
        }
    }

    @Test func roundingToDecimalsIsHalfAwayFromZeroWithoutTrailingZeros() {
        #expect(DecimalText.text(154.324, decimals: 2) == "154.32")
        #expect(DecimalText.text(153.99999999999997, decimals: 2) == "154")
        #expect(DecimalText.text(154.875, decimals: 2) == "154.88")
        // 0.285 is the double 0.28499999999999998, written 0.285: rounded as written.
        #expect(DecimalText.text(0.285, decimals: 2) == "0.29")
        #expect(DecimalText.text(-2.5, decimals: 0) == "-3")
        #expect(DecimalText.text(62.44, decimals: 1) == "62.4")
        #expect(DecimalText.text(8734, decimals: 1) == "8734")
        #expect(DecimalText.text(-0.001, decimals: 2) == "0")
        #expect(DecimalText.text(1e20, decimals: 2) == "100000000000000000000")
        // Below 1, three significant digits at least.
        #expect(DecimalText.text(0.012345, decimals: 2, minimumSignificantDigits: 3) == "0.0123")
        #expect(DecimalText.text(0.5, decimals: 0, minimumSignificantDigits: 3) == "0.5")
        #expect(DecimalText.text(5.5, decimals: 0, minimumSignificantDigits: 3) == "6")
        #expect(DecimalText.text(-0.001, decimals: 2, minimumSignificantDigits: 3) == "-0.001")
    }
}
