import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

/// Parsing, printing and converting HealthKit unit strings.
struct UnitTests {
    // MARK: - Helpers

    private static func unit(_ string: String) throws -> HealthUnit {
        try HealthUnit(from: string)
    }

    /// Equal within `relative` of the larger magnitude, plus `absolute` for values near 0.
    private static func close(_ a: Double, _ b: Double, relative: Double = 1e-9, absolute: Double = 0) -> Bool {
        a == b || abs(a - b) <= relative * max(abs(a), abs(b)) + absolute
    }

    /// The error parsing `string` throws.
    private static func parseError(_ string: String) -> HealthError? {
        do {
            _ = try HealthUnit(from: string)
            return nil
        } catch {
            return error
        }
    }

    /// The unit named by `ref=` in a units.tsv note, which may itself hold parentheses (`ref=J/(g*s)`).
    private static func referenceUnit(in notes: String) -> String? {
        guard let start = notes.range(of: "ref=")?.upperBound else { return nil }
        var depth = 0
        var result = ""
        for character in notes[start...] {
            if character == "(" {
                depth += 1
            } else if character == ")" {
                if depth == 0 { break }
                depth -= 1
            } else if character == ";" || character == " " {
                break
            }
            result.append(character)
        }
        return result
    }

    private static let siUnits = ["g", "m", "L", "l", "Pa", "s", "J", "K", "S", "Hz", "V", "W", "rad", "lx"]
    private static let opaqueUnits = ["IU", "dBHL", "appleEffortScore", "D", "pD"]

    // MARK: - Exact factors (docs/UNITS.md)

    /// Each unit of docs/UNITS.md's "Other units" with its size in its reference unit, worked out
    /// from the unit's definition rather than copied from a table.
    private static let exactFactors: [String: (factor: Double, reference: String)] = {
        let pound = 0.45359237e3  // g, the international pound of 1959
        let inch = 2.54e-2  // m
        let yard = 3 * 12 * inch
        let usGallon = 231 * inch * inch * inch * 1e3  // L
        let imperialGallon = 4.54609  // L
        let gravity = 9.80665  // m/s², standard
        let millimetreOfMercury = 13.5951e3 * gravity * 1e-3  // kg/m³ × m/s² × m = Pa
        return [
            "oz": (pound / 16, "g"), "lb": (pound, "g"), "st": (pound * 14, "g"),
            "in": (inch, "m"), "ft": (12 * inch, "m"), "yd": (yard, "m"), "mi": (1760 * yard, "m"),
            "fl_oz_us": (usGallon / 128, "L"), "pt_us": (usGallon / 8, "L"), "cup_us": (usGallon / 16, "L"),
            "fl_oz_imp": (imperialGallon / 160, "L"), "pt_imp": (imperialGallon / 8, "L"),
            "cup_imp": (imperialGallon / 16, "L"),
            "mmHg": (millimetreOfMercury, "Pa"), "inHg": (25.4 * millimetreOfMercury, "Pa"),
            "cmAq": (1e3 * gravity * 1e-2, "Pa"), "atm": (101_325, "Pa"),
            "min": (60, "s"), "hr": (60 * 60, "s"), "d": (24 * 60 * 60, "s"),
            "cal": (4.184, "J"), "kcal": (4.184e3, "J"), "Cal": (4.184e3, "J"),
            "%": (1.0 / 100, "count"), "deg": (Double.pi / 180, "rad"),
        ]
    }()

    /// The rows of docs/UNITS.md's table of other units: unit, factor and its reference unit.
    private static func documentedFactors() throws -> [(unit: String, factor: Double, reference: String)] {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/UNITS.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let rest = try #require(text.components(separatedBy: "## Other units").dropFirst().first)
        // Up to the next section.
        let section = rest.components(separatedBy: "\n## ").first ?? rest
        return try section.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }.map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let unit = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let amount = cells[2].split(separator: " ")
            let factor = try #require(Double(amount[0]), "\(unit): \(cells[2])")
            return (unit, factor, String(amount[1]))
        }
    }

    @Test func everyDocumentedFactorIsTheUnitsExactDefinition() throws {
        let rows = try Self.documentedFactors()
        #expect(Set(rows.map(\.unit)) == Set(Self.exactFactors.keys))
        for row in rows {
            let exact = try #require(Self.exactFactors[row.unit])
            #expect(row.reference == exact.reference, "\(row.unit)")
            // The definition, worked out in doubles, is within a few ulps of the documented value.
            #expect(
                Self.close(row.factor, exact.factor, relative: 1e-15),
                "\(row.unit): \(row.factor) vs \(exact.factor)"
            )
            // The code converts with the documented value.
            let converted = try Self.unit(row.unit).convert(1, to: Self.unit(row.reference))
            #expect(Self.close(converted, row.factor, relative: 1e-15), "\(row.unit): converts with \(converted)")
        }
    }

    @Test func imperialUnitsConvertWithTheirInternationalDefinitions() throws {
        #expect(Self.close(try Self.unit("lb").convert(1, to: .kilogram), 0.45359237, relative: 1e-15))
        #expect(Self.close(try Self.unit("lb").convert(150, to: .kilogram), 68.0388555, relative: 1e-15))
        #expect(Self.close(try Self.unit("st").convert(1, to: .kilogram), 6.35029318, relative: 1e-15))
        #expect(Self.close(try Self.unit("oz").convert(16, to: Self.unit("lb")), 1, relative: 1e-15))
        #expect(Self.close(try Self.unit("mi").convert(26.2, to: Self.unit("km")), 42.1648128, relative: 1e-15))
        #expect(Self.close(try Self.unit("mi").convert(1, to: Self.unit("yd")), 1760, relative: 1e-15))
    }

    // MARK: - units.tsv

    @Test(.enabled(if: Vectors.available, Vectors.missingMessage))
    func everyPrefixScalesEverySIUnitByItsFactor() throws {
        let rows = try Vectors.table("healthkit/units.tsv").filter { $0["dimension"] == "prefix" }
        #expect(rows.count == 13)
        for row in rows {
            let prefix = try #require(row["unit_string"])
            let factor = try #require(Double(row["to_si_factor"] ?? ""))
            for symbol in Self.siUnits + ["mol<18.015>"] {
                let prefixed = try Self.unit(prefix + symbol)
                let converted = try prefixed.convert(1, to: Self.unit(symbol))
                #expect(Self.close(converted, factor), "\(prefix)\(symbol) -> \(symbol)")
                #expect(try Self.unit(prefixed.unitString) == prefixed)
            }
        }
    }

    @Test(.enabled(if: Vectors.available, Vectors.missingMessage))
    func molarUnitIsMassOfItsMolarMassInGrams() throws {
        let rows = try Vectors.table("healthkit/units.tsv")
        #expect(rows.contains { $0["unit_string"] == "mol<M>" && $0["dimension"] == "mass" })
        for molarMass in [1.0, 18.015, HealthUnit.molarMassBloodGlucose, 58.44, 1e5] {
            let mole = try Self.unit("mol<\(molarMass)>")
            #expect(Self.close(try mole.convert(1, to: .gram), molarMass))
            #expect(Self.close(try Self.unit("mmol<\(molarMass)>").convert(2, to: .milligram), 2 * molarMass))
            #expect(try Self.unit(mole.unitString) == mole)
        }
    }

    @Test(.enabled(if: Vectors.available, Vectors.missingMessage))
    func everyUnitRowParsesPrintsAndConvertsToItsReferenceUnit() throws {
        let rows = try Vectors.table("healthkit/units.tsv").filter {
            $0["dimension"] != "prefix" && $0["unit_string"] != "mol<M>"
        }
        #expect(rows.count == 68)
        for row in rows {
            let string = try #require(row["unit_string"])
            let unit = try Self.unit(string)
            #expect(try Self.unit(unit.unitString) == unit, "\(string) round trip")
            #expect(try Self.unit(unit.unitString).unitString == unit.unitString)
            // Rows without a factor (IU, dBASPL, ...) are covered by their own tests.
            guard let printed = Double(row["to_si_factor"] ?? "") else { continue }
            // HKUnit.h prints some factors rounded; HealthVault converts with the exact definition,
            // which agrees with the printed value to the digits printed.
            let factor = Self.exactFactors[string]?.factor ?? printed
            #expect(Self.close(printed, factor, relative: 1e-4), "\(string): \(printed) vs \(factor)")
            let reference = try Self.unit(try #require(Self.referenceUnit(in: row["notes"] ?? ""), "\(string)"))
            #expect(unit.isCompatible(with: reference), "\(string) with \(reference)")
            let offset = Double(row["si_offset"] ?? "") ?? 0
            for value in [1.0, 0.0, 2.5, -7.25, 1234.5, -40.0] {
                let expected = value * factor + offset
                let converted = try unit.convert(value, to: reference)
                #expect(Self.close(converted, expected, absolute: 1e-12), "\(value) \(string) -> \(reference)")
                #expect(Self.close(try reference.convert(converted, to: unit), value, absolute: 1e-9))
            }
        }
    }

    @Test(.enabled(if: Vectors.available, Vectors.missingMessage))
    func unitsWithoutFactorConvertOnlyToThemselves() throws {
        let rows = try Vectors.table("healthkit/units.tsv").filter {
            $0["dimension"] != "prefix" && $0["to_si_factor"] == "" && $0["unit_string"] != "mol<M>"
        }
        #expect(Set(rows.compactMap { $0["unit_string"] }) == Set(Self.opaqueUnits + ["dBASPL"]))
        for string in Self.opaqueUnits {
            let unit = try Self.unit(string)
            #expect(try unit.convert(3.5, to: unit) == 3.5)
            for other in Self.opaqueUnits + ["count", "%", "g", "m^-1", "Pa", "dBASPL", "rad"] where other != string {
                let error = #expect(throws: HealthError.self) { try unit.convert(1, to: Self.unit(other)) }
                #expect(error?.code == .invalidArgument, "\(string) -> \(other)")
            }
        }
    }

    @Test func decibelSoundPressureLevelConvertsToPressureByFormula() throws {
        let decibel = HealthUnit.decibelAWeightedSoundPressureLevel
        let pascal = try Self.unit("Pa")
        #expect(Self.close(try decibel.convert(0, to: pascal), 2e-5))
        #expect(Self.close(try decibel.convert(94, to: pascal), 1.0023744672545445))
        #expect(Self.close(try decibel.convert(94, to: Self.unit("mPa")), 1002.3744672545445))
        #expect(Self.close(try pascal.convert(1.0023744672545445, to: decibel), 94))
        #expect(Self.close(try pascal.convert(2e-5, to: decibel), 0, absolute: 1e-12))
        #expect(Self.close(try decibel.convert(120, to: .millimeterOfMercury), 20 / 133.322387415))
        #expect(try decibel.convert(61.5, to: decibel) == 61.5)
        #expect(decibel.isCompatible(with: .millimeterOfMercury))
    }

    @Test func pressureOfZeroOrLessHasNoDecibelLevel() throws {
        let error = #expect(throws: HealthError.self) {
            try HealthUnit.pascal.convert(0, to: .decibelAWeightedSoundPressureLevel)
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("dBASPL") == true)
    }

    // MARK: - Grammar

    @Test func multiplicationBindsTighterThanDivision() throws {
        let dotted = try Self.unit("kg/m.s^2")
        #expect(dotted == (try Self.unit("kg/(m*s^2)")))
        #expect(dotted == (try Self.unit("kg*m^-1*s^-2")))
        #expect(dotted.unitString == "kg/(m*s^2)")
        #expect(dotted.isCompatible(with: .pascal))
        #expect(try dotted.convert(1, to: .pascal) == 1)
    }

    @Test func parenthesizedNumeratorAndPowersParse() throws {
        let force = try Self.unit("(kg*m)/s^2")
        #expect(force == (try Self.unit("kg*m/s^2")))
        #expect(force.unitString == "kg*m/s^2")
        #expect(Self.close(try Self.unit("J/m").convert(1, to: force), 1))
        #expect(try Self.unit("m*m*m") == (try Self.unit("m^3")))
        #expect(try Self.unit("(m*s)^2") == (try Self.unit("m^2*s^2")))
        #expect(try Self.unit("m^3").unitString == "m^3")
        #expect(try Self.unit("s^-1").unitString == "s^-1")
        #expect(try Self.unit("m^-1*s^-2").unitString == "m^-1*s^-2")
    }

    @Test func canonicalStringCombinesAtomsAndParenthesizesCompoundDenominators() throws {
        let cases = [
            "kcal/(kg*hr)": "kcal/(kg*hr)",
            "kcal/kg.hr": "kcal/(kg*hr)",
            "kcal*kg^-1*hr^-1": "kcal/(kg*hr)",
            "count/min": "count/min",
            "mg/dL": "mg/dL",
            "m/s": "m/s",
            "ml": "mL",
            "ml/(kg*min)": "mL/(kg*min)",
            "dl": "dL",
            "m*s*m": "m^2*s",
            "m*s/m": "s",
            "mmol<180.15588000005408>/L": "mmol<180.15588000005408>/L",
            "mol<180>": "mol<180.0>",
            "(s^2)^-1": "s^-2",
            "kcal/(kg/hr)": "kcal*hr/kg",
        ]
        for (input, canonical) in cases {
            let unit = try Self.unit(input)
            #expect(unit.unitString == canonical, "\(input)")
            #expect(unit.description == canonical)
            #expect(try Self.unit(canonical) == unit)
        }
    }

    @Test func equalityIgnoresOrderAndAliasesButNotCompatibility() throws {
        #expect(try Self.unit("m*s") == (try Self.unit("s*m")))
        #expect(try Self.unit("m*s").hashValue == (try Self.unit("s*m")).hashValue)
        #expect(try Self.unit("ml") == .milliliter)
        #expect(try Self.unit("ml").hashValue == HealthUnit.milliliter.hashValue)
        #expect(try Self.unit("L") != (try Self.unit("dm^3")))
        #expect(try Self.unit("L").isCompatible(with: Self.unit("dm^3")))
        #expect(Self.close(try Self.unit("L").convert(2, to: Self.unit("dm^3")), 2))
        #expect(try Self.unit("mmol<180.15588000005408>") != (try Self.unit("mmol<18.015>")))
        #expect(Set([try Self.unit("m*s"), try Self.unit("s.m"), try Self.unit("m/s")]).count == 2)
    }

    @Test func molarUnitConvertsToMassConcentration() throws {
        let glucose = try Self.unit("mmol<180.15588000005408>/L")
        let milligramsPerDeciliter = try Self.unit("mg/dL")
        #expect(glucose.isCompatible(with: milligramsPerDeciliter))
        #expect(Self.close(try glucose.convert(1, to: milligramsPerDeciliter), 18.015588000005408))
        #expect(Self.close(try milligramsPerDeciliter.convert(100, to: glucose), 100 / 18.015588000005408))
        let built = try HealthUnit.moleUnit(prefix: .milli, molarMass: HealthUnit.molarMassBloodGlucose)
            .divided(by: .liter)
        #expect(built == glucose)
        #expect(built.unitString == "mmol<180.15588000005408>/L")
    }

    @Test func moleUnitRejectsMolarMassesThatAreNotPositiveAndFinite() {
        for molarMass in [0, -1, Double.infinity, Double.nan] {
            let error = #expect(throws: HealthError.self) { try HealthUnit.moleUnit(molarMass: molarMass) }
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test func temperaturesStandingAloneConvertWithOffset() throws {
        let celsius = HealthUnit.degreeCelsius
        let fahrenheit = HealthUnit.degreeFahrenheit
        #expect(Self.close(try celsius.convert(100, to: fahrenheit), 212))
        #expect(Self.close(try celsius.convert(-40, to: fahrenheit), -40))
        #expect(Self.close(try fahrenheit.convert(-40, to: celsius), -40))
        #expect(Self.close(try fahrenheit.convert(98.6, to: celsius), 37))
        #expect(Self.close(try celsius.convert(0, to: .kelvin), 273.15))
        #expect(Self.close(try fahrenheit.convert(0, to: .kelvin), 255.37222222222223))
        #expect(Self.close(try HealthUnit.kelvin.convert(0, to: fahrenheit), -459.67))
        #expect(try celsius.convert(36.6, to: celsius) == 36.6)
    }

    @Test func temperaturesInsideCompoundsConvertAsIntervals() throws {
        let celsiusPerMinute = try Self.unit("degC/min")
        #expect(Self.close(try celsiusPerMinute.convert(1, to: Self.unit("K/min")), 1))
        #expect(Self.close(try celsiusPerMinute.convert(1, to: Self.unit("degF/min")), 1.8))
        #expect(Self.close(try celsiusPerMinute.convert(60, to: Self.unit("K/s")), 1))
        #expect(Self.close(try Self.unit("degF^2").convert(81, to: Self.unit("K^2")), 25))
        #expect(Self.close(try Self.unit("degC*s").convert(0, to: Self.unit("K*s")), 0))
        // Combining cancels back to a lone temperature, which has its offset again.
        #expect(Self.close(try Self.unit("degC*s/s").convert(0, to: .kelvin), 273.15))
        #expect(!HealthUnit.degreeCelsius.isCompatible(with: celsiusPerMinute))
    }

    @Test func derivedSIUnitsShareDimensionsWithTheirDefinitions() throws {
        let cases: [(String, String, Double)] = [
            ("W", "J/s", 1),
            ("kW", "kcal/hr", 3_600_000 / 4184.0),
            ("Hz", "s^-1", 1),
            ("Hz", "min^-1", 60),
            ("J", "kg*m^2/s^2", 1),
            ("Pa", "kg/(m*s^2)", 1),
            ("L", "cm^3", 1000),
            ("S*V^2", "W", 1),
            ("S*V", "W/V", 1),
            ("deg", "rad", Double.pi / 180),
            ("%", "count", 0.01),
            ("kcal/(kg*hr)", "W/kg", 4184 / 3600.0),
        ]
        for (from, to, factor) in cases {
            #expect(Self.close(try Self.unit(from).convert(1, to: Self.unit(to)), factor), "\(from) -> \(to)")
        }
    }

    @Test func prefixesAreMatchedAfterWholeAtoms() throws {
        #expect(Self.close(try Self.unit("d").convert(1, to: .hour), 24))
        #expect(Self.close(try Self.unit("min").convert(1, to: .second), 60))
        #expect(Self.close(try Self.unit("mi").convert(1, to: .meter), 1609.344))
        #expect(Self.close(try Self.unit("mcg").convert(1, to: .gram), 1e-6))
        #expect(Self.close(try Self.unit("dam").convert(1, to: .meter), 10))
        #expect(Self.close(try Self.unit("dL").convert(1, to: .liter), 0.1))
        #expect(Self.close(try Self.unit("mm").convert(1, to: .meter), 0.001))
        #expect(Self.close(try Self.unit("ms").convert(1, to: .second), 0.001))
        #expect(Self.close(try Self.unit("mS").convert(1, to: .siemens), 0.001))
        #expect(Self.close(try Self.unit("kcal").convert(1, to: .joule), 4184))
        #expect(Self.close(try Self.unit("cmAq").convert(1, to: .pascal), 98.0665))
        #expect(Self.close(try Self.unit("mmHg").convert(1, to: .pascal), 133.322387415))
        #expect(Self.close(try Self.unit("deg").convert(180, to: .radianAngle), Double.pi))
        #expect(Self.close(try Self.unit("pD").convert(1, to: .prismDiopter), 1))
        for unprefixable in ["kIU", "kmin", "kcount", "mdBHL", "khr", "cd", "kkg"] {
            #expect(Self.parseError(unprefixable)?.message == "unknown unit \"\(unprefixable)\"")
        }
    }

    // MARK: - Errors

    @Test func malformedUnitStringsThrowInvalidArgumentSayingWhatAndWhere() {
        let cases: [(String, String)] = [
            ("", "the unit string is empty"),
            ("kgg", "unknown unit \"kgg\""),
            ("kgg/m", "unknown unit \"kgg\" in \"kgg/m\""),
            ("mol", "\"mol\" in \"mol\" needs a molar mass in g/mol"),
            ("mmol/L", "\"mmol\" in \"mmol/L\" needs a molar mass"),
            ("m//s", "expected a unit at position 3 in \"m//s\", found \"/\""),
            ("m/s/s", "only one \"/\" is allowed at the same level in \"m/s/s\""),
            ("m^0", "a power of 0 is not allowed"),
            ("m^-0", "a power of 0 is not allowed"),
            ("m^", "expected an integer power after the \"^\" at position 2 in \"m^\""),
            ("m^x", "expected an integer power"),
            ("m^1.5", "expected a unit at position 5 in \"m^1.5\", found \"5\""),
            ("m^100", "outside ±99"),
            ("m^99*m", "outside ±99"),
            ("(m", "missing \")\" for the \"(\" at position 1 in \"(m\""),
            ("m)", "unexpected \")\" at position 2 in \"m)\""),
            ("()", "expected a unit at position 2 in \"()\", found \")\""),
            ("dBASPL/s", "dBASPL is logarithmic and must stand alone"),
            ("dBASPL^2", "dBASPL is logarithmic"),
            ("(dBASPL)^-1", "dBASPL is logarithmic"),
            ("dBASPL*dBASPL/dBASPL", "dBASPL is logarithmic"),
            ("k g", "whitespace is not allowed"),
            ("kg ", "whitespace is not allowed"),
            ("m*", "expected a unit after \"*\" at the end of \"m*\""),
            ("m.", "expected a unit after \".\" at the end of \"m.\""),
            ("m/", "expected a unit after \"/\" at the end of \"m/\""),
            ("/s", "expected a unit at position 1 in \"/s\""),
            ("m/m", "cancels out to no unit"),
            ("mol<abc>", "molar mass \"abc\" of \"mol\" in \"mol<abc>\" is not a number"),
            ("mol<inf>", "is not a number"),
            ("mol<0>", "must be finite and greater than 0"),
            ("mol<-5>", "must be finite and greater than 0"),
            ("mol<180", "missing \">\""),
            ("kg<5>", "only mol takes a molar mass"),
            ("m2", "unexpected \"2\" at position 2"),
            ("1", "expected a unit at position 1"),
            ("Tm^99", "too large or too small"),
            (String(repeating: "(", count: 40) + "m" + String(repeating: ")", count: 40), "nest deeper"),
        ]
        for (string, expected) in cases {
            let error = Self.parseError(string)
            #expect(error?.code == .invalidArgument, "\(string)")
            #expect(error?.field == "unit", "\(string)")
            #expect(error?.message.contains(expected) == true, "\(string): \(error?.message ?? "no error")")
        }
    }

    @Test func incompatibleConversionsThrowNamingBothUnits() throws {
        let pairs = [
            ("kg", "m"), ("count/s", "Hz"), ("IU", "g"), ("dBHL", "dBASPL"), ("D", "m^-1"), ("%", "s"),
            ("deg", "count"), ("degC", "degC/min"), ("mmol<180.15588000005408>/L", "mmol<180.15588000005408>"),
            ("lx", "W"), ("rad", "count"), ("appleEffortScore", "count"),
        ]
        for (from, to) in pairs {
            let source = try Self.unit(from)
            let target = try Self.unit(to)
            #expect(!source.isCompatible(with: target))
            let error = #expect(throws: HealthError.self) { try source.convert(1, to: target) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == "cannot convert \(source) to \(target): incompatible units")
        }
    }

    // MARK: - Arithmetic and named units

    @Test func unitArithmeticMatchesTheParsedForm() throws {
        let kilogram = HealthUnit.kilogram
        #expect(try kilogram.divided(by: HealthUnit.meter.raised(toPower: 2)) == (try Self.unit("kg/m^2")))
        #expect(try HealthUnit.count.divided(by: .minute) == .countPerMinute)
        #expect(try HealthUnit.kilocalorie.divided(by: kilogram.multiplied(by: .hour)).unitString == "kcal/(kg*hr)")
        #expect(try HealthUnit.meter.multiplied(by: .meter).unitString == "m^2")
        #expect(try HealthUnit.second.raised(toPower: -1).isCompatible(with: .hertz))
        #expect(try HealthUnit.meterPerSecond.raised(toPower: 1) == .meterPerSecond)
    }

    @Test func unitArithmeticRejectsDecibelsZeroPowersAndCancellation() throws {
        let decibel = HealthUnit.decibelAWeightedSoundPressureLevel
        let failures: [() throws -> HealthUnit] = [
            { try decibel.multiplied(by: .second) },
            { try HealthUnit.second.divided(by: decibel) },
            { try decibel.raised(toPower: 2) },
            { try HealthUnit.meter.raised(toPower: 0) },
            { try HealthUnit.kilogram.divided(by: .kilogram) },
            { try HealthUnit.meter.raised(toPower: 100) },
            { try HealthUnit.meter.raised(toPower: Int.max) },
        ]
        for failure in failures {
            let error = #expect(throws: HealthError.self) { try failure() }
            #expect(error?.code == .invalidArgument)
        }
        #expect(try decibel.raised(toPower: 1) == decibel)
    }

    @Test func namedUnitsSpellHealthKitStrings() {
        let cases: [(HealthUnit, String)] = [
            (.count, "count"), (.percent, "%"), (.second, "s"), (.minute, "min"), (.hour, "hr"), (.day, "d"),
            (.gram, "g"), (.kilogram, "kg"), (.pound, "lb"), (.meter, "m"), (.centimeter, "cm"),
            (.kilometer, "km"), (.mile, "mi"), (.liter, "L"), (.milliliter, "mL"), (.kilocalorie, "kcal"),
            (.kilojoule, "kJ"), (.joule, "J"), (.degreeCelsius, "degC"), (.degreeFahrenheit, "degF"),
            (.kelvin, "K"), (.millimeterOfMercury, "mmHg"), (.decibelAWeightedSoundPressureLevel, "dBASPL"),
            (.internationalUnit, "IU"), (.siemens, "S"), (.watt, "W"), (.hertz, "Hz"), (.lux, "lx"),
            (.countPerMinute, "count/min"), (.countPerSecond, "count/s"), (.meterPerSecond, "m/s"),
            (.largeCalorie, "Cal"), (.smallCalorie, "cal"), (.fluidOunceUS, "fl_oz_us"), (.cupImperial, "cup_imp"),
            (.inchesOfMercury, "inHg"), (.decibelHearingLevel, "dBHL"), (.diopter, "D"), (.prismDiopter, "pD"),
        ]
        for (unit, string) in cases {
            #expect(unit.unitString == string)
        }
        #expect(HealthUnit.molarMassBloodGlucose == 180.15588000005408)
    }

    @Test func unitEncodesAsItsCanonicalStringAndDecodingRejectsInvalidStrings() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let data = try encoder.encode([try Self.unit("kcal/kg.hr"), try Self.unit("ml")])
        #expect(String(decoding: data, as: UTF8.self) == #"["kcal/(kg*hr)","mL"]"#)
        #expect(
            try JSONDecoder().decode([HealthUnit].self, from: data) == [try Self.unit("kcal/(kg*hr)"), .milliliter]
        )
        let error = #expect(throws: HealthError.self) {
            try JSONDecoder().decode(HealthUnit.self, from: Data(#""kgg/m""#.utf8))
        }
        #expect(error?.message == "unknown unit \"kgg\" in \"kgg/m\"")
        #expect(error?.field == "unit")
    }

    // MARK: - Properties

    /// Units by dimension: any two in a group convert to each other.
    static let compatibleGroups: [[String]] = [
        ["g", "kg", "mg", "mcg", "oz", "lb", "st", "mmol<180.15588000005408>", "mol<18.015>"],
        ["m", "cm", "km", "in", "ft", "yd", "mi", "mm"],
        ["s", "ms", "min", "hr", "d"],
        ["L", "mL", "dL", "fl_oz_us", "fl_oz_imp", "pt_us", "pt_imp", "cup_us", "cup_imp", "cm^3"],
        ["J", "kJ", "cal", "kcal", "Cal", "kg*m^2/s^2"],
        ["Pa", "kPa", "mmHg", "cmAq", "atm", "inHg"],
        ["K", "degC", "degF"],
        ["mg/dL", "g/L", "mmol<180.15588000005408>/L"],
        ["count/min", "count/s", "count/hr", "%/d"],
        ["kcal/(kg*hr)", "J/(g*s)", "W/kg"],
        ["ml/(kg*min)", "L/(g*s)"],
        ["degC/min", "K/s", "degF/hr"],
        ["Hz", "s^-1", "min^-1"],
        ["m/s", "km/hr", "mi/hr", "ft/min"],
        ["count", "%"],
        ["rad", "deg"],
        ["IU", "IU"],
    ]

    private struct Pair: Sendable {
        let from: String
        let to: String
        let hasOffset: Bool
    }

    private static let pairs: [Pair] = compatibleGroups.flatMap { group in
        group.flatMap { from in
            group.map { Pair(from: from, to: $0, hasOffset: group.contains("degC") && !group.contains("degC/min")) }
        }
    }

    /// Dimensions are compared word by word: a unit is compatible with itself parsed apart (not
    /// the same shared parse) and with nothing whose power of any one base dimension differs,
    /// the last lanes (diopter, prism diopter) included; a unit for each base (the volt for the
    /// current, which has none of its own).
    @Test func dimensionsDifferingInAnyOneBaseAreIncompatible() throws {
        let bases = ["g", "m", "s", "K", "V", "lx", "rad", "count", "IU", "dBHL", "appleEffortScore", "D", "pD"]
        for base in bases {
            let unit = try HealthUnit(from: base)
            #expect(unit.isCompatible(with: try HealthUnit(from: base)), "\(base)")
            #expect(!unit.isCompatible(with: try HealthUnit(from: base + "^2")), "\(base)")
            for other in bases where other != base {
                #expect(!unit.isCompatible(with: try HealthUnit(from: other)), "\(base) \(other)")
            }
        }
    }

    @Test func incompatibleGroupsDoNotConvert() throws {
        for (index, group) in Self.compatibleGroups.enumerated() {
            for other in Self.compatibleGroups[(index + 1)...] {
                #expect(!(try Self.unit(group[0]).isCompatible(with: Self.unit(other[0]))), "\(group[0]) \(other[0])")
            }
        }
    }

    @Test func conversionRoundTripsBetweenCompatibleUnits() async {
        let pair = Gen.element(of: Self.pairs).map { $0! }
        let mantissa = Gen.double(in: -1...1)
        let exponent = Gen.int(in: -12...12)
        await propertyCheck(count: 500, input: pair, mantissa, exponent) { pair, mantissa, exponent in
            let value = mantissa * pow(10, Double(exponent))
            let from = try HealthUnit(from: pair.from)
            let to = try HealthUnit(from: pair.to)
            let there = try from.convert(value, to: to)
            let back = try to.convert(there, to: from)
            #expect(
                Self.close(back, value, absolute: pair.hasOffset ? 1e-9 : 0),
                "\(value) \(pair.from) -> \(there) \(pair.to) -> \(back)"
            )
        }
    }

    @Test func decibelRoundTripsThroughPressureUnits() async {
        let pressure = Gen.element(of: ["Pa", "mPa", "kPa", "mmHg", "atm", "inHg", "cmAq"]).map { $0! }
        await propertyCheck(count: 200, input: pressure, Gen.double(in: -50...200)) { pressure, level in
            let decibel = HealthUnit.decibelAWeightedSoundPressureLevel
            let unit = try HealthUnit(from: pressure)
            let back = try unit.convert(decibel.convert(level, to: unit), to: decibel)
            #expect(Self.close(back, level, absolute: 1e-9))
        }
    }

    @Test func canonicalStringOfAnyCompoundParsesBackToAnEqualUnit() async {
        let atoms = [
            "g", "kg", "m", "cm", "s", "min", "hr", "L", "mL", "count", "%", "kcal", "J", "degC", "K", "IU",
            "mmol<180.15588000005408>", "Pa", "mmHg", "W", "S", "V", "Hz", "lx", "rad", "deg", "D", "fl_oz_us",
        ]
        let factor = zip(Gen.element(of: atoms).map { $0! }, Gen.int(in: -3...3), Gen.element(of: [".", "*", "/"]))
        await propertyCheck(count: 300, input: factor.array(of: 1...5)) { factors in
            var string = ""
            var slashUsed = false
            for (index, (atom, power, operation)) in factors.enumerated() {
                if index > 0 {
                    // One "/" per level: a later division becomes a product (of the denominator).
                    let join = operation == "/" && slashUsed ? "*" : operation!
                    slashUsed = slashUsed || join == "/"
                    string += join
                }
                string += power == 0 ? atom : "\(atom)^\(power)"
            }
            let unit: HealthUnit
            do throws(HealthError) {
                unit = try HealthUnit(from: string)
            } catch {
                #expect(error.message.contains("cancels out"), "\(string): \(error.message)")
                return
            }
            let reparsed = try HealthUnit(from: unit.unitString)
            #expect(reparsed == unit, "\(string) -> \(unit.unitString)")
            #expect(reparsed.unitString == unit.unitString)
            #expect(try unit.convert(1, to: reparsed) == 1)
        }
    }
}

extension UnitTests {
    @Test func appleHealthExportsMiddleDotProductsParse() throws {
        #expect(try HealthUnit(from: "mL/min·kg") == HealthUnit(from: "ml/(kg*min)"))
        #expect(try HealthUnit(from: "kcal/hr·kg") == HealthUnit(from: "kcal/(kg*hr)"))
        #expect(try HealthUnit(from: "mL/min·kg").isCompatible(with: QuantityTypeIdentifier.vo2Max.canonicalUnit))
    }

    @Test func extremePowersThrowInsteadOfTrapping() {
        #expect(throws: HealthError.self) { _ = try HealthUnit.meter.raised(toPower: Int.min) }
        #expect(throws: HealthError.self) { _ = try HealthUnit.meter.raised(toPower: Int.max) }
    }

    // MARK: - Names people use (docs/UNITS.md)

    @Test func everyAliasIsDocumentedAndReadsAsTheUnitItNames() throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/UNITS.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let rest = try #require(text.components(separatedBy: "## Names people use").dropFirst().first)
        let section = rest.components(separatedBy: "\n## ").first ?? rest
        var documented: [String: String] = [:]
        for line in section.components(separatedBy: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let unit = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            for alias in cells[0].components(separatedBy: ", ") {
                documented[alias.trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = unit
            }
        }
        #expect(documented == Dictionary(uniqueKeysWithValues: HealthUnit.aliases.map { ($0.alias, $0.unit) }))
        for (alias, unit) in HealthUnit.aliases {
            #expect(try HealthUnit(named: alias) == HealthUnit(from: unit), "\(alias)")
            // Not HealthKit's: the grammar alone refuses it.
            #expect(throws: HealthError.self, "\(alias)") { _ = try HealthUnit(from: alias) }
        }
    }

    @Test func aliasesAreWholeNamesInsideUnitStrings() throws {
        #expect(try HealthUnit(named: "km/h") == HealthUnit(from: "km/hr"))
        #expect(try HealthUnit(named: "BPM") == .countPerMinute)
        #expect(try HealthUnit(named: "bpm").unitString == "count/min")
        #expect(try HealthUnit(named: "mL/(kg*h)") == HealthUnit(from: "mL/(kg*hr)"))
        #expect(try HealthUnit(named: "st") == .stone)
        #expect(try HealthUnit(named: "hm") == HealthUnit(from: "hm"))  // a hectometre, not an alias
        #expect(try HealthUnit(named: "mmol<180.15588000005408>/L") == HealthUnit(from: "mmol<180.15588000005408>/L"))
        // °F converts as degF, with its offset.
        #expect(abs(try Quantity(98.6, HealthUnit(named: "°F")).doubleValue(for: .degreeCelsius) - 37) < 1e-9)
        // 11 stone is 154 lb.
        #expect(abs(try Quantity(11, HealthUnit(named: "stone")).doubleValue(for: .pound) - 154) < 1e-9)
        // What neither reads is HealthKit's own error.
        #expect(throws: HealthError.self) { _ = try HealthUnit(named: "beats") }
        #expect(throws: HealthError.self) { _ = try HealthUnit(named: "C") }
    }

    @Test func ratesPerSecondAreShownPerMinuteByDefault() {
        #expect(QuantityTypeIdentifier.heartRate.defaultUnit == .countPerMinute)
        #expect(QuantityTypeIdentifier.respiratoryRate.defaultUnit == .countPerMinute)
        #expect(QuantityTypeIdentifier.heartRate.canonicalUnit == .countPerSecond)
        for type in QuantityTypeIdentifier.allCases where type.canonicalUnit != .countPerSecond {
            #expect(type.defaultUnit == type.canonicalUnit, "\(type)")
        }
    }
}
