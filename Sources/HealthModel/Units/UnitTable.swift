/// The atoms HealthKit's unit strings are built from: SI units, their prefixes, and the other units, each with
/// its dimension and its size in base units.
///
/// Base units are g, m, s, K, A (current), lx, rad and count, so a scale is "how many base units one of this
/// is": kg is 1000, J is 1000 (kg·m²/s² in grams), L is 0.001 (m³). Factors are the exact
/// definitions (the international pound and yard of 1959, the US and imperial gallons, the
/// conventional millimetre of mercury), as HealthKit uses them, not the rounded values HKUnit.h
/// prints beside some units (1 lb = 453.592 g there, 453.59237 g here); docs/UNITS.md lists them.
enum UnitTable {
    /// How a value in a unit maps to base units.
    enum Behavior: Equatable, Sendable {
        /// `base = value * scale`.
        case linear
        /// `base = value * scale + offset` when the unit stands alone; an interval (offset ignored) in a compound.
        case affine(offset: Double)
        /// `base = scale * 10^(value / 20)`, with `scale` the reference pressure; only valid standing alone.
        case decibel
    }

    /// One unit an atom can name, before any prefix.
    struct Entry: Sendable {
        /// The canonical spelling (`L` for both `L` and `l`).
        let symbol: String
        let scale: Double
        let dimension: HealthUnit.Dimension
        let behavior: Behavior
        /// `mol`: its size is its molar mass, so it must be written `mol<M>`.
        let needsMolarMass: Bool

        init(
            _ symbol: String,
            _ scale: Double,
            _ dimension: HealthUnit.Dimension,
            behavior: Behavior = .linear,
            needsMolarMass: Bool = false
        ) {
            self.symbol = symbol
            self.scale = scale
            self.dimension = dimension
            self.behavior = behavior
            self.needsMolarMass = needsMolarMass
        }
    }

    /// The symbol of the one logarithmic unit, which must stand alone.
    static let decibelSoundPressureLevel = "dBASPL"

    /// SI prefixes and their factors.
    static let prefixes: [String: Double] = [
        "da": 1e1, "h": 1e2, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
        "d": 1e-1, "c": 1e-2, "m": 1e-3, "mc": 1e-6, "n": 1e-9, "p": 1e-12, "f": 1e-15,
    ]

    // Two-letter prefixes are tried first so that `mcg` is micro-gram and `dam` deca-metre.
    private static let prefixesLongestFirst = ["da", "mc", "h", "k", "M", "G", "T", "d", "c", "m", "n", "p", "f"]

    private static let mass = HealthUnit.Dimension([.mass: 1])
    private static let length = HealthUnit.Dimension([.length: 1])
    private static let time = HealthUnit.Dimension([.time: 1])
    private static let temperature = HealthUnit.Dimension([.temperature: 1])
    private static let volume = HealthUnit.Dimension([.length: 3])
    private static let pressure = HealthUnit.Dimension([.mass: 1, .length: -1, .time: -2])
    private static let energy = HealthUnit.Dimension([.mass: 1, .length: 2, .time: -2])
    private static let count = HealthUnit.Dimension([.count: 1])
    private static let angle = HealthUnit.Dimension([.angle: 1])

    /// The SI units, which take a prefix. `l` is an alias of `L`.
    static let siUnits: [String: Entry] = {
        let entries = [
            Entry("g", 1, mass),
            Entry("m", 1, length),
            Entry("L", 0.001, volume),
            Entry("Pa", 1000, pressure),
            Entry("s", 1, time),
            Entry("J", 1000, energy),
            Entry("K", 1, temperature),
            // S = A²·s³/(kg·m²); kg is 1000 g.
            Entry("S", 0.001, HealthUnit.Dimension([.current: 2, .time: 3, .mass: -1, .length: -2])),
            Entry("Hz", 1, HealthUnit.Dimension([.time: -1])),
            // The size of mol<M> is M grams; the entry's scale is per g/mol.
            Entry("mol", 1, mass, needsMolarMass: true),
            // V = kg·m²/(s³·A).
            Entry("V", 1000, HealthUnit.Dimension([.mass: 1, .length: 2, .time: -3, .current: -1])),
            Entry("W", 1000, HealthUnit.Dimension([.mass: 1, .length: 2, .time: -3])),
            Entry("rad", 1, angle),
            Entry("lx", 1, HealthUnit.Dimension([.illuminance: 1])),
        ]
        var table = Dictionary(uniqueKeysWithValues: entries.map { ($0.symbol, $0) })
        table["l"] = table["L"]
        return table
    }()

    /// The units that take no prefix.
    static let otherUnits: [String: Entry] = {
        let entries = [
            // The international pound (1959) and what it makes: 16 oz, 14 lb a stone.
            Entry("oz", 28.349523125, mass),
            Entry("lb", 453.59237, mass),
            Entry("st", 6350.29318, mass),
            Entry("in", 0.0254, length),
            Entry("ft", 0.3048, length),
            Entry("yd", 0.9144, length),
            Entry("mi", 1609.344, length),
            // The conventional millimetre of mercury (13.5951 g/cm³ × 9.80665 m/s² × 1 mm); an inch is 25.4 of them.
            Entry("mmHg", 133.322387415 * 1000, pressure),
            Entry("cmAq", 98.0665 * 1000, pressure),
            Entry("atm", 101_325 * 1000, pressure),
            Entry("inHg", 3386.388640341 * 1000, pressure),
            // Pa = 10^(dBASPL/20) * 2.0e-05; the scale is that reference pressure in base units.
            Entry(decibelSoundPressureLevel, 2.0e-05 * 1000, pressure, behavior: .decibel),
            Entry("fl_oz_us", 0.0295735295625 * 0.001, volume),
            Entry("fl_oz_imp", 0.0284130625 * 0.001, volume),
            Entry("pt_us", 0.473176473 * 0.001, volume),
            Entry("pt_imp", 0.56826125 * 0.001, volume),
            Entry("cup_us", 0.2365882365 * 0.001, volume),
            Entry("cup_imp", 0.284130625 * 0.001, volume),
            Entry("min", 60, time),
            Entry("hr", 3600, time),
            Entry("d", 86400, time),
            Entry("cal", 4.184 * 1000, energy),
            Entry("kcal", 4184 * 1000, energy),
            Entry("Cal", 4184 * 1000, energy),
            // K = degC + 273.15; K = (degF + 459.67) / 1.8.
            Entry("degC", 1, temperature, behavior: .affine(offset: 273.15)),
            Entry("degF", 1 / 1.8, temperature, behavior: .affine(offset: 459.67 / 1.8)),
            Entry("IU", 1, HealthUnit.Dimension([.internationalUnit: 1])),
            Entry("count", 1, count),
            Entry("%", 0.01, count),
            Entry("dBHL", 1, HealthUnit.Dimension([.hearingLevel: 1])),
            Entry("appleEffortScore", 1, HealthUnit.Dimension([.effortScore: 1])),
            Entry("D", 1, HealthUnit.Dimension([.diopter: 1])),
            Entry("pD", 1, HealthUnit.Dimension([.prismDiopter: 1])),
            Entry("deg", Double.pi / 180, angle),
        ]
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.symbol, $0) })
    }()

    /// Every entry by its canonical symbol, to look an atom's entry up again.
    static let entriesBySymbol: [String: Entry] = siUnits.merging(otherUnits) { si, _ in si }

    /// Splits an atom name into prefix and entry, or returns nil for an unknown name.
    ///
    /// The whole name is tried first, so `d` is day, `min` minute, `mi` mile and `cmAq` itself rather than a
    /// prefixed unit; only then a prefix (two-letter first) followed by an SI unit.
    static func resolve(_ name: String) -> (prefix: String, entry: Entry)? {
        if let entry = otherUnits[name] ?? siUnits[name] {
            return ("", entry)
        }
        for prefix in prefixesLongestFirst where name.hasPrefix(prefix) {
            if let entry = siUnits[String(name.dropFirst(prefix.count))] {
                return (prefix, entry)
            }
        }
        return nil
    }
}
