public import HealthModel

/// The names a person gives an object type: its HealthKit identifier
/// (`HKQuantityTypeIdentifierBodyMass`) or its short name (`bodyMass`, `sleepAnalysis`,
/// `bloodPressure`, `workout`, `biologicalSex`), as the command line and CSV files take them
/// (docs/NAMES.md; the rules are HealthModel's), and the names of category values and workout
/// activity types.
public enum TypeNames {
    /// The type a name names, or nil: an identifier, a short name in any case, an alias
    /// (HealthModel's ``ObjectType/named(_:)``, docs/NAMES.md).
    public static func objectType(named name: String) -> ObjectType? {
        ObjectType.named(name)
    }

    /// A sample type's short name: `stepCount` for `HKQuantityTypeIdentifierStepCount`, `workout`
    /// for `HKWorkoutTypeIdentifier`, `gad7` (``ObjectType/shortName``).
    public static func shortName(of type: SampleType) -> String {
        ObjectType(type).shortName
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
