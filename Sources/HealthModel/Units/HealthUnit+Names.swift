/// Units as people write them (docs/UNITS.md, "Names people use"): HealthKit's unit strings, and a
/// few other spellings that each mean one unit only. The wire protocol and stored data take
/// HealthKit's strings alone; these are for what a person types.
extension HealthUnit {
    /// Spellings that are not HealthKit unit strings, with the unit string each stands for. Each is
    /// a whole name: `bpm` and `km/h` are read, `hm` stays a hectometre.
    public static let aliases: [(alias: String, unit: String)] = [
        ("bpm", "count/min"),
        ("°C", "degC"),
        ("℃", "degC"),
        ("°F", "degF"),
        ("℉", "degF"),
        ("lbs", "lb"),
        ("stone", "st"),
        ("h", "hr"),
        ("hour", "hr"),
        ("hours", "hr"),
        ("kph", "km/hr"),
        ("mph", "mi/hr"),
    ]

    /// A unit as a person writes it: HealthKit's unit string (`kg`, `count/min`, `mg/dL`), in which
    /// any name may also be one of ``aliases`` (`bpm`, `°F`, `km/h`). `invalidArgument` (field
    /// `unit`) as ``init(from:)`` otherwise.
    public init(named text: String) throws(HealthError) {
        do {
            try self.init(from: text)
        } catch {
            let rewritten = Self.replacingAliases(in: text)
            guard rewritten != text, let unit = try? HealthUnit(from: rewritten) else { throw error }
            self = unit
        }
    }

    /// `text` with each name that is an alias replaced by its unit string (in parentheses when it
    /// is a compound); the molar mass of `mol<M>` is left alone.
    static func replacingAliases(in text: String) -> String {
        let table = Dictionary(aliases.map { ($0.alias, $0.unit) }, uniquingKeysWith: { first, _ in first })
        var result = ""
        var name = ""
        var inMolarMass = false
        func flush() {
            if let unit = table[name] ?? table[name.lowercased()] {
                result += unit.contains("/") ? "(\(unit))" : unit
            } else {
                result += name
            }
            name = ""
        }
        for character in text {
            if inMolarMass {
                result.append(character)
                if character == ">" { inMolarMass = false }
            } else if "/*.^()·<".contains(character) || character.isNumber || character == "-" {
                flush()
                result.append(character)
                if character == "<" { inMolarMass = true }
            } else {
                name.append(character)
            }
        }
        flush()
        return result
    }
}

extension HealthUnit {
    /// The unit strings closest to `text`, a unit that does not parse, the closest first: those
    /// within a few typing mistakes of it (an edit distance of at most a third of its length, and
    /// at least 1; case counts as no mistake), at most `limit`. Drawn from every unit atom, the SI
    /// atoms with the prefixes people use (`kg`, `mg`, `mcg`, `km`, `cm`, `mL`, `kJ`, `ms`), the
    /// names of ``aliases`` and the quantity types' own units (`count/min`, `mg/dL`); with
    /// `compatibleWith`, only units that measure the same (`kgs` for a mass: `kg`).
    public static func suggestions(for text: String, compatibleWith unit: HealthUnit? = nil, limit: Int = 3) -> [String]
    {
        let key = text.lowercased()
        guard !key.isEmpty else { return [] }
        let allowed = max(1, key.count / 3)
        var scored: [(score: Int, name: String)] = []
        for candidate in suggestible {
            if let unit, let parsed = try? HealthUnit(named: candidate), !parsed.isCompatible(with: unit) { continue }
            let distance = NameIndex.distance(key, candidate.lowercased(), atMost: allowed)
            if distance <= allowed { scored.append((distance, candidate)) }
        }
        var seen: Set<String> = []
        return scored.sorted { ($0.score, $0.name) < ($1.score, $1.name) }.compactMap {
            seen.insert($0.name).inserted ? $0.name : nil
        }
        .prefix(limit).map { $0 }
    }

    /// What ``suggestions(for:compatibleWith:limit:)`` draws from.
    static let suggestible: [String] = {
        var names = Set(UnitTable.otherUnits.keys).union(UnitTable.siUnits.keys)
        for prefix in ["k", "c", "m", "mc", "d"] {
            for atom in ["g", "m", "L", "J", "s", "Pa"] { names.insert(prefix + atom) }
        }
        names.formUnion(aliases.map(\.alias))
        for type in QuantityTypeIdentifier.allCases {
            names.insert(type.canonicalUnit.unitString)
            names.insert(type.defaultUnit.unitString)
        }
        return names.sorted()
    }()
}
