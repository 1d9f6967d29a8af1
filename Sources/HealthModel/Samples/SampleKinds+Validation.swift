import Foundation

/// Checks shared by the state of mind, scored assessment, electrocardiogram, audiogram and
/// heartbeat series samples. Messages name units and ranges, never the value that was refused.
extension HealthError {
    /// Checks a quantity: a finite value, a unit compatible with `unit`, and, expressed in `unit`,
    /// a value inside `range`.
    static func check(
        _ quantity: Quantity,
        compatibleWith unit: HealthUnit,
        in range: ClosedRange<Double>,
        field: String
    ) throws(HealthError) {
        guard quantity.value.isFinite else {
            throw .invalidArgument("the value must be a finite number", field: field + ".value")
        }
        guard quantity.unit.isCompatible(with: unit) else {
            throw .invalidArgument("unit \(quantity.unit) is not compatible with \(unit)", field: field + ".unit")
        }
        guard let value = try? quantity.doubleValue(for: unit), range.contains(value) else {
            throw .invalidArgument(
                "the value must be from \(describe(range.lowerBound)) to \(describe(range.upperBound)) \(unit)",
                field: field + ".value"
            )
        }
    }

    /// A bound for a message: whole numbers without a fraction.
    static func describe(_ bound: Double) -> String {
        bound.rounded() == bound && abs(bound) < 1e15 ? String(Int64(bound)) : String(bound)
    }

    /// Checks that a sample HealthKit records at one moment (a state of mind, an assessment)
    /// ends when it starts.
    static func checkInstant(start: Date, end: Date, kind: String) throws(HealthError) {
        guard start == end else {
            throw .invalidArgument("\(kind) is recorded at one moment: endDate must equal startDate", field: "endDate")
        }
    }

    /// Reads a list of raw values as a HealthKit enumeration's cases, each once, naming the
    /// position of the first that is not one of its values or repeats.
    static func cases<E: HealthKitEnumeration>(
        _ rawValues: [Int],
        of type: E.Type,
        field: String
    ) throws(HealthError) -> [E] {
        var seen = Set<Int>()
        var cases: [E] = []
        for (index, raw) in rawValues.enumerated() {
            guard let value = E(rawValue: raw) else {
                throw .invalidArgument(
                    "not a value of \(E.healthKitName) (\(E.rawValuesDescription))",
                    field: "\(field)[\(index)]"
                )
            }
            guard seen.insert(raw).inserted else {
                throw .invalidArgument("a value is listed twice", field: "\(field)[\(index)]")
            }
            cases.append(value)
        }
        return cases
    }
}

extension HealthKitEnumeration {
    /// "0 to 3" or "1, 2, 100": the raw values, for messages.
    static var rawValuesDescription: String {
        let values = allCases.map(\.rawValue).sorted()
        if let first = values.first, let last = values.last, values == Array(first...last) {
            return "\(first) to \(last)"
        }
        return values.map(String.init).joined(separator: ", ")
    }
}
