public import HealthModel
import Synchronization

/// HealthKit's unit strings as UCUM codes (the units FHIR quantities carry,
/// `http://unitsofmeasure.org`): each factor of a unit string mapped on its own (`mmHg` →
/// `mm[Hg]`, `degC` → `Cel`, `lb` → `[lb_av]`, `count/min` → `/min`, `mL/min·kg` →
/// `mL/min/kg`), a molar mass dropped (`mmol<180.1558800000541>/L` → `mmol/L`). Nil for a unit
/// with a factor UCUM has no code for (`appleEffortScore`): the quantity then carries its
/// HealthKit unit as text only.
public enum UCUM {
    /// Factors whose UCUM code differs from HealthKit's spelling; every other factor is written
    /// as HealthKit writes it when it is a plain SI symbol with a metric prefix.
    static let renamed: [String: String] = [
        "count": "1", "mmHg": "mm[Hg]", "cmAq": "cm[H2O]", "inHg": "[in_i'Hg]", "degC": "Cel", "degF": "[degF]",
        "lb": "[lb_av]", "oz": "[oz_av]", "st": "[stone_av]", "mi": "[mi_i]", "ft": "[ft_i]", "in": "[in_i]",
        "yd": "[yd_i]", "fl_oz_us": "[foz_us]", "fl_oz_imp": "[foz_br]", "cup_us": "[cup_us]",
        "cup_imp": "[cup_br]", "pt_us": "[pt_us]", "pt_imp": "[pt_br]", "IU": "[IU]", "hr": "h", "Cal": "kcal",
        "mcg": "ug", "dBASPL": "dB[SPL]", "dBHL": "dB[HL]", "deg": "deg", "D": "[diop]", "pD": "[p'diop]",
    ]
    /// Units of SI and common symbols UCUM writes as HealthKit does, with HealthKit's metric prefixes.
    static let plain: Set<String> = [
        "g", "m", "L", "l", "s", "min", "d", "J", "cal", "W", "K", "Pa", "atm", "S", "V", "Hz", "lx", "rad", "mol",
        "%",
    ]
    static let prefixes = ["p", "n", "mc", "u", "m", "c", "d", "da", "k", "M", "G", "T"]

    public static func code(for unit: HealthUnit) -> String? {
        code(for: unit.unitString)
    }

    /// Codes already worked out, by HealthKit unit string (an export asks for a few units a
    /// million times).
    private static let known = Mutex<[String: String?]>([:])

    public static func code(for unitString: String) -> String? {
        if let cached = known.withLock({ $0[unitString] }) { return cached }
        let code = translate(unitString)
        known.withLock { if $0.count < 4096 { $0[unitString] = code } }
        return code
    }

    static func translate(_ unitString: String) -> String? {
        // The molar mass in angle brackets is HealthKit's, not UCUM's.
        var text = ""
        var depth = 0
        for character in unitString {
            if character == "<" {
                depth += 1
            } else if character == ">" {
                depth -= 1
            } else if depth == 0 {
                text.append(character)
            }
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard let numerator = parts.first, parts.allSatisfy({ !$0.isEmpty }) || numerator.isEmpty else { return nil }
        var out: [String] = []
        for (index, part) in parts.enumerated() {
            var factors: [String] = []
            for factor in part.split(whereSeparator: { $0 == "·" || $0 == "*" || $0 == "." }) {
                guard let mapped = map(String(factor)) else { return nil }
                factors.append(mapped)
            }
            if index == 0 {
                // `count/min` is `/min`; `count` alone is `1`.
                let kept = factors.filter { $0 != "1" }
                out.append(kept.isEmpty && parts.count > 1 ? "" : (kept.isEmpty ? "1" : kept.joined(separator: ".")))
            } else {
                // a/b·c is a/(b·c): each denominator factor divides.
                out.append(factors.joined(separator: "/"))
            }
        }
        return out.joined(separator: "/")
    }

    /// One factor, with an exponent (`m^2` → `m2`).
    static func map(_ factor: String) -> String? {
        var base = factor
        var exponent = ""
        if let caret = factor.firstIndex(of: "^") {
            base = String(factor[..<caret])
            exponent = String(factor[factor.index(after: caret)...])
            guard Int(exponent) != nil else { return nil }
        }
        if let renamed = renamed[base] { return renamed + exponent }
        if plain.contains(base) { return base + exponent }
        for prefix in prefixes where base.hasPrefix(prefix) {
            let rest = String(base.dropFirst(prefix.count))
            guard plain.contains(rest) || rest == "cal" else { continue }
            return (prefix == "mc" ? "u" : prefix) + rest + exponent
        }
        return nil
    }
}
