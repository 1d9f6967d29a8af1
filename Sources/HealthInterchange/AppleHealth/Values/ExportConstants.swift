import HealthModel

/// HealthKit's constant names as exports write values (`HKCategoryValueSleepAnalysisAsleepCore`,
/// `HKWorkoutActivityTypeRunning`, `HKBloodTypeAPositive`), looked up to HealthModel's values.
enum ExportConstants {
    /// Each enumeration's cases by their constant name.
    static func cases<Value: HealthKitEnumeration>(of type: Value.Type) -> [String: Value] {
        Dictionary(Value.allCases.map { ($0.healthKitConstant, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static let workoutActivityTypes = cases(of: WorkoutActivityType.self)
    static let workoutEventTypes = cases(of: WorkoutEventType.self)
    static let biologicalSexes = cases(of: BiologicalSex.self)
    static let bloodTypes = cases(of: BloodType.self)
    static let skinTypes = cases(of: FitzpatrickSkinType.self)
    static let wheelchairUses = cases(of: WheelchairUse.self)
    static let moveModes = cases(of: ActivityMoveMode.self)

    /// The raw value of each category value constant, per value set; with the older spellings
    /// exports of earlier iOS versions wrote.
    static let categoryValues: [CategoryValueSet: [String: Int]] = {
        var table: [CategoryValueSet: [String: Int]] = [:]
        for set in CategoryValueSet.allCases {
            var values: [String: Int] = [:]
            for raw in set.allowedValues {
                if let constant = set.healthKitConstant(of: raw) {
                    values[constant] = raw
                }
            }
            table[set] = values
        }
        // HealthKit's deprecated aliases, which exports made before the rename wrote.
        table[.sleepAnalysis]?["HKCategoryValueSleepAnalysisAsleep"] = CategoryValueSleepAnalysis.asleep.rawValue
        table[.ovulationTestResult]?["HKCategoryValueOvulationTestResultPositive"] =
            CategoryValueOvulationTestResult.positive.rawValue
        return table
    }()

    /// The raw value a category record's `value` names: its constant, or a whole number.
    static func categoryValue(_ text: String, of type: CategoryTypeIdentifier) -> Int? {
        if let raw = categoryValues[type.valueSet]?[text] {
            return raw
        }
        if let number = ExportValues.number(text), let raw = Int(exactly: number) {
            return raw
        }
        return nil
    }
}
