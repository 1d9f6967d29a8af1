import Foundation

/// A unit of measure in HealthKit's unit-string grammar (`kg`, `count/min`, `mg/dL`, `kcal/(kg*hr)`), as
/// HealthKit's `HKUnit`: parsed from a string, printed canonically, and used to convert values between compatible
/// units.
///
/// Two units are equal when they are built from the same atoms (same prefixes and molar masses) with the same
/// powers, in any order: `m*s` equals `s*m` and `ml` equals `mL`, but `L` does not equal `dm^3` (they are only
/// compatible). Compatible means the same physical dimension; `count/s` is not compatible with `Hz`.
///
/// Conversion factors, offset and dimension are worked out once when the unit is made, so ``convert(_:to:)``
/// is arithmetic only.
public struct HealthUnit: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The canonical unit string: repeated atoms combined, numerator in order of first appearance, then `/`
    /// and the denominator (parenthesized when it has more than one factor), as `kcal/(kg*hr)`.
    /// Parsing it gives back an equal unit.
    public var unitString: String { storage.unitString }

    /// Atoms with their combined, non-zero powers, in order of first appearance: the printing order.
    var terms: [Term] { storage.terms }
    /// The same powers keyed by atom, so that equality and hashing ignore order.
    var powers: [Atom: Int] { storage.powers }
    var dimension: Dimension { storage.dimension }
    var mapping: Mapping { storage.mapping }
    /// Base units per unit (linear and affine), or the reference pressure in base units (decibel).
    var scale: Double { storage.scale }
    /// Base units at a value of 0, for a temperature unit standing alone; 0 otherwise.
    var offset: Double { storage.offset }

    /// What a unit is, in one shared box: a unit is worked out once and then only read, and held
    /// inline it took over a hundred bytes (its dimension alone 64) in every quantity, so in every
    /// sample several times over (a discrete summary holds three quantities).
    private let storage: Storage

    private final class Storage: Sendable {
        let unitString: String
        let terms: [Term]
        let powers: [Atom: Int]
        let dimension: Dimension
        let mapping: Mapping
        let scale: Double
        let offset: Double

        init(
            unitString: String,
            terms: [Term],
            powers: [Atom: Int],
            dimension: Dimension,
            mapping: Mapping,
            scale: Double,
            offset: Double
        ) {
            self.unitString = unitString
            self.terms = terms
            self.powers = powers
            self.dimension = dimension
            self.mapping = mapping
            self.scale = scale
            self.offset = offset
        }
    }

    /// How a value maps to base units; fixed when the unit is made.
    enum Mapping: Sendable {
        case linear
        /// A temperature with an offset (degC, degF) standing alone.
        case affine
        /// dBASPL, which only stands alone.
        case decibel
    }

    /// How ``baseValue(_:)`` maps a value `v` to base units, for code that must compute the very
    /// same number elsewhere (the store's SQL): `v * scale`, `v * scale + offset`, or
    /// `reference * pow(10, v / 20)`.
    public enum BaseFormula: Hashable, Sendable {
        case linear(scale: Double)
        case affine(scale: Double, offset: Double)
        case decibel(reference: Double)
    }

    public var baseFormula: BaseFormula {
        switch mapping {
        case .linear: .linear(scale: scale)
        case .affine: .affine(scale: scale, offset: offset)
        case .decibel: .decibel(reference: scale)
        }
    }

    /// Parses a unit string, or throws `invalidArgument` (field `unit`) saying what is wrong and where.
    public init(from string: String) throws(HealthError) {
        try self.init(terms: UnitParser.parse(string), source: string)
    }

    /// Builds a unit from parsed or computed terms; `source` is the text error messages quote.
    init(terms rawTerms: [Term], source: String) throws(HealthError) {
        // A decibel level is a logarithm: a product or power of one has no meaning.
        if rawTerms.contains(where: { $0.atom.symbol == UnitTable.decibelSoundPressureLevel }),
            rawTerms.count != 1 || rawTerms[0].exponent != 1
        {
            throw .invalidArgument(
                "dBASPL is logarithmic and must stand alone, without other units or a power, in \"\(source)\"",
                field: "unit"
            )
        }
        var order: [Atom] = []
        var powers: [Atom: Int] = [:]
        for term in rawTerms {
            if powers[term.atom] == nil {
                order.append(term.atom)
            }
            powers[term.atom, default: 0] += term.exponent
        }
        powers = powers.filter { $0.value != 0 }
        let terms = order.compactMap { atom in powers[atom].map { Term(atom: atom, exponent: $0) } }
        guard !terms.isEmpty else {
            throw .invalidArgument(
                "\"\(source)\" cancels out to no unit; use \"count\" for a plain number",
                field: "unit"
            )
        }
        var dimension = SIMD16<Int64>()
        var scale = 1.0
        // Multiplied in a fixed order, so that equal units written in different orders get the very same
        // scale and convert to each other exactly.
        for term in terms.sorted(by: { $0.atom.text < $1.atom.text }) {
            guard term.exponent.magnitude <= UInt(UnitParser.maximumExponent) else {
                throw .invalidArgument(
                    "the power of \(term.atom.text) in \"\(source)\" is outside ±\(UnitParser.maximumExponent)",
                    field: "unit"
                )
            }
            let entry = term.atom.entry
            dimension &+= SIMD16<Int64>(truncatingIfNeeded: entry.dimension.exponents) &* Int64(term.exponent)
            let atomScale = term.atom.scale
            // Exact for the common powers ±1; pow only for higher powers.
            switch term.exponent {
            case 1: scale *= atomScale
            case -1: scale /= atomScale
            default: scale *= pow(atomScale, Double(term.exponent))
            }
        }
        guard scale.isFinite, scale > 0,
            dimension.min() >= Int64(Int32.min), dimension.max() <= Int64(Int32.max)
        else {
            throw .invalidArgument("\"\(source)\" is too large or too small a unit to represent", field: "unit")
        }
        var mapping = Mapping.linear
        var offset = 0.0
        // The offset of degC and degF applies only to a temperature standing alone; in a compound such as
        // degC/min the unit is a temperature interval.
        if terms.count == 1, terms[0].exponent == 1 {
            switch terms[0].atom.entry.behavior {
            case .linear: break
            case .affine(let atomOffset):
                mapping = .affine
                offset = atomOffset
            case .decibel:
                mapping = .decibel
            }
        }
        storage = Storage(
            unitString: Self.canonicalString(terms),
            terms: terms,
            powers: powers,
            dimension: Dimension(exponents: SIMD16<Int32>(truncatingIfNeeded: dimension)),
            mapping: mapping,
            scale: scale,
            offset: offset
        )
    }

    /// A built-in unit whose string is known to parse.
    private init(known string: String) {
        do {
            try self.init(from: string)
        } catch {
            preconditionFailure("built-in unit \"\(string)\" does not parse: \(error)")
        }
    }

    private static func canonicalString(_ terms: [Term]) -> String {
        func power(_ atom: Atom, _ exponent: Int) -> String {
            exponent == 1 ? atom.text : "\(atom.text)^\(exponent)"
        }
        let numerator = terms.filter { $0.exponent > 0 }.map { power($0.atom, $0.exponent) }
        guard !numerator.isEmpty else {
            // Only negative powers: print them as powers rather than as "1/...", which does not parse.
            return terms.map { power($0.atom, $0.exponent) }.joined(separator: "*")
        }
        let denominator = terms.filter { $0.exponent < 0 }.map { power($0.atom, -$0.exponent) }
        switch denominator.count {
        case 0: return numerator.joined(separator: "*")
        case 1: return numerator.joined(separator: "*") + "/" + denominator[0]
        default: return numerator.joined(separator: "*") + "/(" + denominator.joined(separator: "*") + ")"
        }
    }

    public var description: String { unitString }

    public static func == (lhs: HealthUnit, rhs: HealthUnit) -> Bool {
        lhs.storage === rhs.storage || lhs.powers == rhs.powers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(powers)
    }

    /// Decodes the canonical string form; an invalid string throws the parser's `HealthError`.
    public init(from decoder: any Decoder) throws {
        let string = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(from: string)
        } catch {
            throw error.field(at: decoder.codingPath)
        }
    }

    /// Encodes the canonical string, as `"kcal/(kg*hr)"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(unitString)
    }
}

// MARK: - Conversion

extension HealthUnit {
    /// Whether values in this unit convert to `other`: the same physical dimension.
    public func isCompatible(with other: HealthUnit) -> Bool {
        storage === other.storage || dimension == other.dimension
    }

    /// Converts a value in this unit to `target`, or throws `invalidArgument` when the units are incompatible
    /// (or when a pressure of zero or less is asked for in dBASPL).
    public func convert(_ value: Double, to target: HealthUnit) throws(HealthError) -> Double {
        // The same unit (one parse shared, as a reader's repeated unit is): as below, exact.
        if storage === target.storage { return value }
        guard dimension == target.dimension else {
            throw .invalidArgument("cannot convert \(self) to \(target): incompatible units", field: "unit")
        }
        // Same size and zero point (including equal units): exact, with no rounding through base units.
        if mapping == target.mapping, scale == target.scale, offset == target.offset {
            return value
        }
        if mapping == .linear, target.mapping == .linear {
            return value * (scale / target.scale)
        }
        return try target.value(fromBase: baseValue(value), source: self)
    }

    /// A value in this unit expressed in base units (g, m, s, K, ...): increasing in `value` for every unit,
    /// so base values of compatible units compare like the quantities.
    public func baseValue(_ value: Double) -> Double {
        switch mapping {
        case .linear: value * scale
        case .affine: value * scale + offset
        case .decibel: scale * pow(10, value / 20)
        }
    }

    private func value(fromBase base: Double, source: HealthUnit) throws(HealthError) -> Double {
        switch mapping {
        case .linear:
            return base / scale
        case .affine:
            return (base - offset) / scale
        case .decibel:
            // NaN passes through like any other conversion; only a real non-positive pressure has no level.
            guard !(base <= 0) else {
                throw .invalidArgument(
                    "cannot convert \(source) to \(self): only a pressure above zero has a decibel level",
                    field: "unit"
                )
            }
            return 20 * log10(base / scale)
        }
    }
}

// MARK: - Arithmetic

extension HealthUnit {
    /// The product of two units, as HealthKit's `unitMultiplied(by:)`: `kg.multiplied(by: m)` is `kg*m`.
    /// Throws for dBASPL and for a product that cancels to nothing.
    public func multiplied(by other: HealthUnit) throws(HealthError) -> HealthUnit {
        try HealthUnit(terms: terms + other.terms, source: "\(grouped)*\(other.grouped)")
    }

    /// The quotient of two units, as HealthKit's `unitDivided(by:)`: `count.divided(by: minute)` is `count/min`.
    /// Throws for dBASPL and for a quotient that cancels to nothing (`kg/kg`).
    public func divided(by other: HealthUnit) throws(HealthError) -> HealthUnit {
        let inverse = other.terms.map { Term(atom: $0.atom, exponent: -$0.exponent) }
        return try HealthUnit(terms: terms + inverse, source: "\(grouped)/\(other.grouped)")
    }

    /// This unit to an integer power, as HealthKit's `unitRaised(toPower:)`: `m.raised(toPower: 2)` is `m^2`.
    /// Throws for power 0, for dBASPL (other than power 1) and for powers beyond ±99 per atom.
    public func raised(toPower power: Int) throws(HealthError) -> HealthUnit {
        let source = "\(grouped)^\(power)"
        guard power != 0 else {
            throw .invalidArgument("a unit raised to the power 0 is no unit, in \"\(source)\"", field: "unit")
        }
        guard power.magnitude <= UInt(UnitParser.maximumExponent) else {
            throw .invalidArgument(
                "the power in \"\(source)\" is outside ±\(UnitParser.maximumExponent)",
                field: "unit"
            )
        }
        var raised: [Term] = []
        for term in terms {
            let (exponent, overflow) = term.exponent.multipliedReportingOverflow(by: power)
            guard !overflow else {
                throw .invalidArgument(
                    "the power of \(term.atom.text) in \"\(source)\" is outside ±\(UnitParser.maximumExponent)",
                    field: "unit"
                )
            }
            raised.append(Term(atom: term.atom, exponent: exponent))
        }
        return try HealthUnit(terms: raised, source: source)
    }

    /// The unit string, parenthesized when it is a compound, for quoting inside a larger expression.
    private var grouped: String {
        terms.count == 1 && terms[0].exponent == 1 ? unitString : "(\(unitString))"
    }
}

// MARK: - Named units

extension HealthUnit {
    /// An SI prefix, as HealthKit's `HKMetricPrefix`; the raw value is its spelling in a unit string.
    public enum MetricPrefix: String, Sendable, CaseIterable {
        case none = ""
        case femto = "f"
        case pico = "p"
        case nano = "n"
        case micro = "mc"
        case milli = "m"
        case centi = "c"
        case deci = "d"
        case deca = "da"
        case hecto = "h"
        case kilo = "k"
        case mega = "M"
        case giga = "G"
        case tera = "T"
    }

    /// The molar mass of glucose in g/mol, as HealthKit's `HKUnitMolarMassBloodGlucose`.
    public static let molarMassBloodGlucose = 180.15588000005408

    /// Moles of a substance with the given molar mass in g/mol (`mmol<180.15588000005408>`), as HealthKit's
    /// `moleUnit(with:molarMass:)`: a mass unit, 1 mol<M> = M g. Throws unless the molar mass is finite and
    /// greater than 0.
    public static func moleUnit(prefix: MetricPrefix = .none, molarMass: Double) throws(HealthError) -> HealthUnit {
        guard molarMass.isFinite, molarMass > 0 else {
            throw .invalidArgument("a molar mass must be a finite number greater than 0", field: "unit")
        }
        return try HealthUnit(from: "\(prefix.rawValue)mol<\(molarMass)>")
    }

    // Scalars
    public static let count = HealthUnit(known: "count")
    /// Percent as a fraction: HealthKit stores 0.0–1.0 in `%`-typed samples; 1 % is 0.01 count.
    public static let percent = HealthUnit(known: "%")
    public static let internationalUnit = HealthUnit(known: "IU")
    public static let appleEffortScore = HealthUnit(known: "appleEffortScore")
    public static let countPerMinute = HealthUnit(known: "count/min")
    public static let countPerSecond = HealthUnit(known: "count/s")

    // Time
    public static let second = HealthUnit(known: "s")
    public static let millisecond = HealthUnit(known: "ms")
    public static let minute = HealthUnit(known: "min")
    public static let hour = HealthUnit(known: "hr")
    public static let day = HealthUnit(known: "d")

    // Mass
    public static let gram = HealthUnit(known: "g")
    public static let kilogram = HealthUnit(known: "kg")
    public static let milligram = HealthUnit(known: "mg")
    public static let microgram = HealthUnit(known: "mcg")
    public static let ounce = HealthUnit(known: "oz")
    public static let pound = HealthUnit(known: "lb")
    public static let stone = HealthUnit(known: "st")

    // Length
    public static let meter = HealthUnit(known: "m")
    public static let centimeter = HealthUnit(known: "cm")
    public static let millimeter = HealthUnit(known: "mm")
    public static let kilometer = HealthUnit(known: "km")
    public static let inch = HealthUnit(known: "in")
    public static let foot = HealthUnit(known: "ft")
    public static let yard = HealthUnit(known: "yd")
    public static let mile = HealthUnit(known: "mi")
    public static let meterPerSecond = HealthUnit(known: "m/s")

    // Volume
    public static let liter = HealthUnit(known: "L")
    public static let milliliter = HealthUnit(known: "mL")
    public static let fluidOunceUS = HealthUnit(known: "fl_oz_us")
    public static let fluidOunceImperial = HealthUnit(known: "fl_oz_imp")
    public static let pintUS = HealthUnit(known: "pt_us")
    public static let pintImperial = HealthUnit(known: "pt_imp")
    public static let cupUS = HealthUnit(known: "cup_us")
    public static let cupImperial = HealthUnit(known: "cup_imp")

    // Energy and power
    public static let joule = HealthUnit(known: "J")
    public static let kilojoule = HealthUnit(known: "kJ")
    public static let smallCalorie = HealthUnit(known: "cal")
    public static let kilocalorie = HealthUnit(known: "kcal")
    public static let largeCalorie = HealthUnit(known: "Cal")
    public static let watt = HealthUnit(known: "W")

    // Temperature
    public static let degreeCelsius = HealthUnit(known: "degC")
    public static let degreeFahrenheit = HealthUnit(known: "degF")
    public static let kelvin = HealthUnit(known: "K")

    // Pressure and sound
    public static let pascal = HealthUnit(known: "Pa")
    public static let millimeterOfMercury = HealthUnit(known: "mmHg")
    public static let centimeterOfWater = HealthUnit(known: "cmAq")
    public static let atmosphere = HealthUnit(known: "atm")
    public static let inchesOfMercury = HealthUnit(known: "inHg")
    /// Sound level: logarithmic, converts to pressure units only standing alone.
    public static let decibelAWeightedSoundPressureLevel = HealthUnit(known: "dBASPL")
    public static let decibelHearingLevel = HealthUnit(known: "dBHL")

    // Electricity, frequency, light, angle, optics
    public static let siemens = HealthUnit(known: "S")
    public static let volt = HealthUnit(known: "V")
    public static let hertz = HealthUnit(known: "Hz")
    public static let lux = HealthUnit(known: "lx")
    public static let radianAngle = HealthUnit(known: "rad")
    public static let degreeAngle = HealthUnit(known: "deg")
    public static let diopter = HealthUnit(known: "D")
    public static let prismDiopter = HealthUnit(known: "pD")
}

// MARK: - Atoms

extension HealthUnit {
    /// One named unit with its prefix and, for mol, its molar mass: what a power in a unit applies to.
    struct Atom: Hashable, Sendable {
        let prefix: String
        /// The canonical symbol (`L` for `l`).
        let symbol: String
        let molarMass: Double?

        /// The atom as printed: `mL`, `mmol<180.15588000005408>`. Molar masses use Swift's shortest
        /// round-trip form, so printing and parsing give back the same value.
        var text: String {
            guard let molarMass else { return prefix + symbol }
            return "\(prefix)\(symbol)<\(molarMass)>"
        }

        var entry: UnitTable.Entry { UnitTable.entriesBySymbol[symbol]! }

        /// Base units per one of this atom.
        var scale: Double {
            (UnitTable.prefixes[prefix] ?? 1) * entry.scale * (molarMass ?? 1)
        }
    }

    /// An atom to an integer power.
    struct Term: Hashable, Sendable {
        var atom: Atom
        var exponent: Int
    }
}
