public import HealthModel

/// The names a person gives an object type: its HealthKit identifier
/// (`HKQuantityTypeIdentifierBodyMass`) or its short name (`bodyMass`, `sleepAnalysis`,
/// `bloodPressure`, `workout`, `biologicalSex`), as the command line and CSV files take them.
public enum TypeNames {
    /// The type a name names, or nil.
    public static func objectType(named name: String) -> ObjectType? {
        if let type = try? ObjectType(identifier: name) { return type }
        guard !name.isEmpty else { return nil }
        let capitalized = name.prefix(1).uppercased() + name.dropFirst()
        for prefix in [
            "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCharacteristicTypeIdentifier",
            "HKCorrelationTypeIdentifier",
        ] {
            if let type = try? ObjectType(identifier: prefix + capitalized) { return type }
        }
        // HKWorkoutTypeIdentifier, HKWorkoutRouteTypeIdentifier, HKActivitySummaryTypeIdentifier.
        if let type = try? ObjectType(identifier: "HK\(capitalized)TypeIdentifier") { return type }
        // stateOfMind, gad7, phq9, electrocardiogram, audiogram, heartbeatSeries.
        for candidate in [
            "HKDataType" + capitalized, "HKDataTypeIdentifier" + capitalized,
            "HKScoredAssessmentTypeIdentifier" + name.uppercased(),
        ] {
            if let type = try? ObjectType(identifier: candidate) { return type }
        }
        return nil
    }

    /// A sample type's short name: `stepCount` for `HKQuantityTypeIdentifierStepCount`,
    /// `workout` for `HKWorkoutTypeIdentifier`, `gAD7`... as the commands take them.
    public static func shortName(of type: SampleType) -> String {
        let identifier = type.identifier
        for prefix in [
            "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier",
            "HKDataTypeIdentifier", "HKDataType", "HKScoredAssessmentTypeIdentifier",
        ] where identifier.hasPrefix(prefix) {
            let rest = identifier.dropFirst(prefix.count)
            return rest.prefix(1).lowercased() + rest.dropFirst()
        }
        if identifier.hasPrefix("HK"), identifier.hasSuffix("TypeIdentifier") {
            let rest = identifier.dropFirst(2).dropLast("TypeIdentifier".count)
            return rest.prefix(1).lowercased() + rest.dropFirst()
        }
        return identifier
    }

    /// The raw value a category value's name names in `type`'s value set: its case name
    /// (`asleepCore`), HealthKit's constant (`HKCategoryValueSleepAnalysisAsleepCore`, or an
    /// older spelling exports wrote), or the raw value itself (`3`). Nil for anything else.
    public static func categoryValue(named name: String, of type: CategoryTypeIdentifier) -> Int? {
        let set = type.valueSet
        if let raw = set.allowedValues.first(where: { set.caseName(of: $0) == name }) { return raw }
        guard let raw = ExportConstants.categoryValue(name, of: type), set.allowedValues.contains(raw) else {
            return nil
        }
        return raw
    }

    /// The case names of `type`'s values, in raw-value order (`inBed, asleepUnspecified, ...`).
    public static func categoryValueNames(of type: CategoryTypeIdentifier) -> [String] {
        type.valueSet.allowedValues.sorted().compactMap { type.valueSet.caseName(of: $0) }
    }

    /// The workout activity type a name names: its case name (`running`) or HealthKit's constant
    /// (`HKWorkoutActivityTypeRunning`).
    public static func workoutActivityType(named name: String) -> WorkoutActivityType? {
        ExportConstants.workoutActivityTypes[name] ?? WorkoutActivityType.allCases.first { "\($0)" == name }
    }
}
