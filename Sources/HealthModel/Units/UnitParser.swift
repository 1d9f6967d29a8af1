/// A recursive-descent parser for HealthKit's unit-string grammar, producing the atoms and powers of a unit in
/// written order (``HealthUnit`` combines and checks them).
///
/// ```
/// unit    = product [ "/" product ]          one "/" per level; "." and "*" bind tighter
/// product = factor { ("." | "*") factor }
/// factor  = ( atom | "(" unit ")" ) [ "^" ["-"] digits ]     power not 0, at most ±99
/// atom    = name [ "<" molar-mass ">" ]       name of letters, "_" and "%"
/// ```
///
/// Errors are `invalidArgument` with field `unit`, quote the whole string, and give 1-based positions.
struct UnitParser {
    /// The largest power an atom may have; far beyond any health unit, it keeps the arithmetic in range.
    static let maximumExponent = 99
    /// The deepest nesting of parentheses; keeps a hostile string from exhausting the stack.
    static let maximumDepth = 16

    private let source: String
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0

    private init(_ source: String) {
        self.source = source
        self.scalars = Array(source.unicodeScalars)
    }

    /// The terms of a unit string, in written order, with powers applied but not yet combined.
    static func parse(_ source: String) throws(HealthError) -> [HealthUnit.Term] {
        var parser = UnitParser(source)
        return try parser.parseAll()
    }

    private mutating func parseAll() throws(HealthError) -> [HealthUnit.Term] {
        guard !scalars.isEmpty else {
            throw .invalidArgument("the unit string is empty", field: "unit")
        }
        if let space = scalars.firstIndex(where: { $0.properties.isWhitespace }) {
            throw fail("whitespace is not allowed in a unit string (at position \(space + 1) in \"\(source)\")")
        }
        let terms = try parseUnit()
        if let next = peek {
            throw fail("unexpected \"\(next)\" at position \(index + 1) in \"\(source)\"")
        }
        return terms
    }

    private var peek: Unicode.Scalar? {
        index < scalars.count ? scalars[index] : nil
    }

    private func fail(_ message: String) -> HealthError {
        .invalidArgument(message, field: "unit")
    }

    private mutating func parseUnit() throws(HealthError) -> [HealthUnit.Term] {
        var terms = try parseProduct(after: nil)
        guard peek == "/" else { return terms }
        index += 1
        let denominator = try parseProduct(after: "/")
        terms += denominator.map { HealthUnit.Term(atom: $0.atom, exponent: -$0.exponent) }
        if peek == "/" {
            throw fail(
                "only one \"/\" is allowed at the same level in \"\(source)\" (second one at position \(index + 1));"
                    + " write the denominator as a product, as in \"kcal/(kg*hr)\""
            )
        }
        return terms
    }

    private mutating func parseProduct(after operation: Unicode.Scalar?) throws(HealthError) -> [HealthUnit.Term] {
        var terms = try parseFactor(after: operation)
        // Apple Health exports write products with a middle dot: "mL/min·kg".
        while let next = peek, next == "." || next == "*" || next == "\u{00B7}" {
            index += 1
            terms += try parseFactor(after: next)
        }
        return terms
    }

    private mutating func parseFactor(after operation: Unicode.Scalar?) throws(HealthError) -> [HealthUnit.Term] {
        guard let next = peek else {
            if let operation {
                throw fail("expected a unit after \"\(operation)\" at the end of \"\(source)\"")
            }
            throw fail("expected a unit at the end of \"\(source)\"")
        }
        var terms: [HealthUnit.Term]
        if next == "(" {
            let open = index
            guard depth < Self.maximumDepth else {
                throw fail("parentheses nest deeper than \(Self.maximumDepth) levels in \"\(source)\"")
            }
            index += 1
            depth += 1
            terms = try parseUnit()
            depth -= 1
            guard peek == ")" else {
                throw fail("missing \")\" for the \"(\" at position \(open + 1) in \"\(source)\"")
            }
            index += 1
        } else if Self.isNameCharacter(next) {
            terms = [try parseAtom()]
        } else {
            throw fail("expected a unit at position \(index + 1) in \"\(source)\", found \"\(next)\"")
        }
        if peek == "^" {
            index += 1
            let power = try parseExponent()
            for position in terms.indices {
                terms[position].exponent *= power
                guard abs(terms[position].exponent) <= Self.maximumExponent else {
                    throw fail("a power in \"\(source)\" is outside ±\(Self.maximumExponent)")
                }
            }
        }
        return terms
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar == "%"
    }

    private mutating func parseAtom() throws(HealthError) -> HealthUnit.Term {
        let start = index
        while let next = peek, Self.isNameCharacter(next) {
            index += 1
        }
        let name = String(String.UnicodeScalarView(scalars[start..<index]))
        var molarMass: Double?
        if peek == "<" {
            molarMass = try parseMolarMass(of: name)
        }
        guard let (prefix, entry) = UnitTable.resolve(name) else {
            // The whole string is not repeated when it is the name (`unknown unit "kgs"`).
            throw fail(name == source ? "unknown unit \"\(name)\"" : "unknown unit \"\(name)\" in \"\(source)\"")
        }
        if entry.needsMolarMass, molarMass == nil {
            throw fail(
                "\"\(name)\" in \"\(source)\" needs a molar mass in g/mol, as in \"mmol<180.15588000005408>\""
            )
        }
        if !entry.needsMolarMass, molarMass != nil {
            throw fail("only mol takes a molar mass, not \"\(name)\" in \"\(source)\"")
        }
        let atom = HealthUnit.Atom(prefix: prefix, symbol: entry.symbol, molarMass: molarMass)
        return HealthUnit.Term(atom: atom, exponent: 1)
    }

    /// Reads `<M>` after an atom name.
    private mutating func parseMolarMass(of name: String) throws(HealthError) -> Double {
        let open = index
        index += 1
        let start = index
        while let next = peek, next != ">" {
            index += 1
        }
        guard peek == ">" else {
            throw fail("missing \">\" for the \"<\" at position \(open + 1) in \"\(source)\"")
        }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        index += 1
        // Decimal digits only: Double(_:) would also take "inf", "nan" and hexadecimal.
        let isDecimal =
            !text.isEmpty && text.unicodeScalars.allSatisfy { "0123456789.eE+-".unicodeScalars.contains($0) }
        guard isDecimal, let value = Double(text) else {
            throw fail("molar mass \"\(text)\" of \"\(name)\" in \"\(source)\" is not a number")
        }
        guard value.isFinite, value > 0 else {
            throw fail("molar mass \"\(text)\" of \"\(name)\" in \"\(source)\" must be finite and greater than 0")
        }
        return value
    }

    /// Reads the integer after `^`.
    private mutating func parseExponent() throws(HealthError) -> Int {
        let caret = index - 1
        let negative = peek == "-"
        if negative {
            index += 1
        }
        let start = index
        while let next = peek, ("0"..."9").contains(next) {
            index += 1
        }
        guard index > start else {
            throw fail("expected an integer power after the \"^\" at position \(caret + 1) in \"\(source)\"")
        }
        let digits = String(String.UnicodeScalarView(scalars[start..<index]))
        guard let magnitude = Int(digits), magnitude <= Self.maximumExponent else {
            throw fail("the power at position \(start + 1) in \"\(source)\" is outside ±\(Self.maximumExponent)")
        }
        guard magnitude != 0 else {
            throw fail("a power of 0 is not allowed (position \(start + 1) in \"\(source)\")")
        }
        return negative ? -magnitude : magnitude
    }
}
