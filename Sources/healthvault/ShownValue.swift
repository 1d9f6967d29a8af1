import HealthModel

/// How the command line shows a quantity's value to a person (docs/COMMAND_LINE.md, "Numbers"):
/// rounded to a number of decimals set by what the unit measures, the same in every command
/// (`samples list`, `stats`, `workouts`, `activity`), whole numbers without `.0`, never an
/// exponent, and a value below 1 to at least three significant digits. `--json` and the exports
/// keep the value exact.
enum ShownValue {
    /// The decimals a value in `unit` is shown with: energy 0 (`523 kcal`); counts, rates of
    /// counts, percentages and temperatures 1 (`8734 count`, `62.4 count/min`, `97 %`,
    /// `36.6 degC`); everything else 2 (`69.85 kg`, `154.32 lb`, `5.23 km`, `1.75 m`).
    static func decimals(for unit: HealthUnit) -> Int {
        if unit.isCompatible(with: .kilocalorie) { return 0 }
        if unit.isCompatible(with: .count) || unit.isCompatible(with: .countPerMinute)
            || unit.isCompatible(with: .degreeCelsius)
        {
            return 1
        }
        return 2
    }

    /// `value` (in `unit`) as shown: `154.3`, `154`, `0.0123`.
    static func number(_ value: Double, in unit: HealthUnit) -> String {
        DecimalText.text(value, decimals: decimals(for: unit), minimumSignificantDigits: 3)
    }

    /// `quantity` in `unit`, with the unit: `154.3 lb`; in its own unit if it does not convert.
    static func text(_ quantity: Quantity, in unit: HealthUnit) -> String {
        guard let value = try? quantity.doubleValue(for: unit) else { return text(quantity, in: quantity.unit) }
        return number(value, in: unit) + " \(unit)"
    }
}
