public import Foundation

/// A condition on samples, as data: what HealthKit's `HKQuery.predicateFor…` functions build.
///
/// It is a tree that serializes to JSON (a `kind` field names the node), validates against the
/// sample type it is used with, and evaluates in memory with ``matches(_:)``; the store
/// translates the same tree to SQL.
public indirect enum SamplePredicate: Hashable, Sendable, Codable {
    /// Samples whose span meets the interval as the options say (see ``QueryOptions``);
    /// a nil bound is open.
    case date(start: Date?, end: Date?, options: QueryOptions)
    /// Samples with one of these UUIDs.
    case uuids([UUID])
    /// Samples written by one of these apps (bundle identifiers).
    case sources([String])
    /// Samples whose device has one of these values for the property.
    case device(DeviceProperty, [String])
    /// Samples whose metadata meets the condition for the key.
    case metadata(MetadataKey, MetadataCondition)
    /// Quantity samples whose quantity compares so with this one (any compatible unit).
    case quantity(ComparisonOperator, Quantity)
    /// Category samples whose value compares so with this raw value.
    case categoryValue(ComparisonOperator, Int)
    /// Workouts of this activity type.
    case workoutActivityType(WorkoutActivityType)
    /// Workouts whose duration (seconds) compares so with this one.
    case workoutDuration(ComparisonOperator, TimeInterval)
    /// Workouts whose total energy burned compares so with this quantity.
    case workoutTotalEnergyBurned(ComparisonOperator, Quantity)
    /// Workouts whose total distance compares so with this quantity.
    case workoutTotalDistance(ComparisonOperator, Quantity)
    /// States of mind of this kind.
    case stateOfMindKind(StateOfMind.Kind)
    /// States of mind whose valence compares so with this number.
    case stateOfMindValence(ComparisonOperator, Double)
    /// States of mind with this label among their labels.
    case stateOfMindLabel(StateOfMind.Label)
    /// States of mind with this association among their associations.
    case stateOfMindAssociation(StateOfMind.Association)
    /// Electrocardiograms with this classification.
    case electrocardiogramClassification(Electrocardiogram.Classification)
    /// Electrocardiograms with this symptoms status.
    case electrocardiogramSymptomsStatus(Electrocardiogram.SymptomsStatus)
    /// Samples associated with the workout of this UUID (collected or added by its live builder),
    /// or with the live builder that will save it under this UUID.
    case workout(UUID)
    /// All of these (true when empty).
    case and([SamplePredicate])
    /// Any of these (false when empty).
    case or([SamplePredicate])
    case not(SamplePredicate)

    /// The deepest nesting a predicate may have; deeper trees are refused, not evaluated.
    public static let maximumDepth = 32
    /// The most nodes and listed values a predicate may have.
    public static let maximumSize = 10_000
}

/// A condition on one metadata key.
public enum MetadataCondition: Hashable, Sendable {
    /// The key is present.
    case exists
    /// The value equals one of these.
    case isIn([MetadataValue])
    /// The value compares so with this one (numbers, strings, dates, compatible quantities).
    case compare(ComparisonOperator, MetadataValue)
}

// MARK: - Convenience spellings after HealthKit's

extension SamplePredicate {
    /// `HKQuery.predicateForSamples(withStart:end:options:)`.
    public static func samples(withStart start: Date?, end: Date?, options: QueryOptions = []) -> SamplePredicate {
        .date(start: start, end: end, options: options)
    }

    /// `HKQuery.predicateForObjects(from:)`: the samples associated with a workout.
    public static func objects(from workout: Workout) -> SamplePredicate { .workout(workout.uuid) }

    /// `HKQuery.predicateForObject(with:)`.
    public static func object(with uuid: UUID) -> SamplePredicate { .uuids([uuid]) }

    /// `HKQuery.predicateForObjects(withMetadataKey:)`.
    public static func objects(withMetadataKey key: MetadataKey) -> SamplePredicate { .metadata(key, .exists) }

    /// `HKQuery.predicateForObjects(withMetadataKey:allowedValues:)`.
    public static func objects(withMetadataKey key: MetadataKey, allowedValues: [MetadataValue]) -> SamplePredicate {
        .metadata(key, .isIn(allowedValues))
    }

    /// `HKQuery.predicateForObjects(withMetadataKey:operatorType:value:)`.
    public static func objects(
        withMetadataKey key: MetadataKey,
        operatorType: ComparisonOperator,
        value: MetadataValue
    ) -> SamplePredicate {
        .metadata(key, .compare(operatorType, value))
    }

    /// `HKQuery.predicateForCategorySamples(withValues:)`.
    public static func categorySamples(withValues values: [Int]) -> SamplePredicate {
        .or(values.map { .categoryValue(.equalTo, $0) })
    }

    /// `HKQuery.predicateForStatesOfMind(with:)` with a kind: the states of mind of that kind.
    public static func statesOfMind(with kind: StateOfMind.Kind) -> SamplePredicate { .stateOfMindKind(kind) }

    /// `HKQuery.predicateForStatesOfMind(withValence:operatorType:)`: the states of mind whose
    /// valence compares so with `valence` (any finite number; -1...1 is the valence's range).
    public static func statesOfMind(withValence valence: Double, operatorType: ComparisonOperator) -> SamplePredicate {
        .stateOfMindValence(operatorType, valence)
    }

    /// `HKQuery.predicateForStatesOfMind(with:)` with a label: the states of mind that list it.
    public static func statesOfMind(with label: StateOfMind.Label) -> SamplePredicate { .stateOfMindLabel(label) }

    /// `HKQuery.predicateForStatesOfMind(with:)` with an association: the states of mind that list it.
    public static func statesOfMind(with association: StateOfMind.Association) -> SamplePredicate {
        .stateOfMindAssociation(association)
    }

    /// `HKQuery.predicateForElectrocardiograms(classification:)`.
    public static func electrocardiograms(classification: Electrocardiogram.Classification) -> SamplePredicate {
        .electrocardiogramClassification(classification)
    }

    /// `HKQuery.predicateForElectrocardiograms(symptomsStatus:)`.
    public static func electrocardiograms(symptomsStatus: Electrocardiogram.SymptomsStatus) -> SamplePredicate {
        .electrocardiogramSymptomsStatus(symptomsStatus)
    }
}

// MARK: - Validation

extension SamplePredicate {
    /// Checks the predicate against the type it queries: a quantity condition needs a quantity type
    /// and a compatible unit, a category value a category type, workout conditions the workout
    /// type, state of mind conditions the state of mind type, electrocardiogram conditions the
    /// electrocardiogram type; values must be finite (a valence need not be within -1...1: it
    /// only compares), bounds ordered, and the tree within the size limits.
    public func validate(for type: SampleType) throws(HealthError) {
        var size = 0
        try validate(for: type, depth: 1, size: &size, field: "predicate")
    }

    private func validate(for type: SampleType, depth: Int, size: inout Int, field: String) throws(HealthError) {
        guard depth <= Self.maximumDepth else {
            throw .invalidArgument("the predicate is nested deeper than \(Self.maximumDepth) levels", field: field)
        }
        size += 1 + listedValueCount
        guard size <= Self.maximumSize else {
            throw HealthError(.dataSizeExceeded, "the predicate has more than \(Self.maximumSize) parts", field: field)
        }
        switch self {
        case .date(let start, let end, _):
            for date in [start, end].compactMap({ $0 }) where !RFC3339.representableRange.contains(date) {
                throw .invalidArgument("a date is not between the years 0000 and 9999", field: field)
            }
            if let start, let end, end < start {
                throw .invalidArgument("the end of the interval is before its start", field: field)
            }
        case .uuids, .sources, .device, .workout:
            break
        case .metadata(let key, let condition):
            guard !key.rawValue.isEmpty else { throw .invalidArgument("the metadata key is empty", field: field) }
            switch condition {
            case .exists:
                break
            case .isIn(let values):
                for value in values { try Self.validate(value, field: field) }
            case .compare(_, let value):
                try Self.validate(value, field: field)
            }
        case .quantity(_, let quantity):
            guard case .quantity(let quantityType) = type else {
                throw .invalidArgument("a quantity condition needs a quantity type, not \(type)", field: field)
            }
            guard quantity.value.isFinite else { throw .invalidArgument("the value must be finite", field: field) }
            guard quantityType.isCompatible(with: quantity.unit) else {
                throw .invalidArgument(
                    "unit \(quantity.unit) is not compatible with \(quantityType) (\(quantityType.canonicalUnit))",
                    field: field + ".unit"
                )
            }
            // Compared in the type's canonical unit, so the value must have one there.
            guard (try? quantity.doubleValue(for: quantityType.canonicalUnit))?.isFinite == true else {
                throw .invalidArgument(
                    "the value has no finite equivalent in \(quantityType.canonicalUnit) (a decibel level needs a pressure above zero)",
                    field: field
                )
            }
        case .categoryValue:
            guard case .category = type else {
                throw .invalidArgument("a category value condition needs a category type, not \(type)", field: field)
            }
        case .workoutActivityType:
            try Self.requireWorkout(type, field: field)
        case .workoutDuration(_, let duration):
            try Self.requireWorkout(type, field: field)
            guard duration.isFinite else { throw .invalidArgument("the duration must be finite", field: field) }
        case .workoutTotalEnergyBurned(_, let quantity):
            try Self.requireWorkout(type, field: field)
            try Self.validate(quantity, compatibleWith: .kilocalorie, field: field)
        case .workoutTotalDistance(_, let quantity):
            try Self.requireWorkout(type, field: field)
            try Self.validate(quantity, compatibleWith: .meter, field: field)
        case .stateOfMindKind, .stateOfMindLabel, .stateOfMindAssociation:
            try Self.require(.stateOfMind, type, "a state of mind condition needs the state of mind type", field: field)
        case .stateOfMindValence(_, let valence):
            try Self.require(.stateOfMind, type, "a state of mind condition needs the state of mind type", field: field)
            guard valence.isFinite else { throw .invalidArgument("the valence must be finite", field: field) }
        case .electrocardiogramClassification, .electrocardiogramSymptomsStatus:
            try Self.require(
                .electrocardiogram,
                type,
                "an electrocardiogram condition needs the electrocardiogram type",
                field: field
            )
        case .and(let predicates), .or(let predicates):
            for (index, predicate) in predicates.enumerated() {
                try predicate.validate(for: type, depth: depth + 1, size: &size, field: "\(field).predicates[\(index)]")
            }
        case .not(let predicate):
            try predicate.validate(for: type, depth: depth + 1, size: &size, field: "\(field).predicate")
        }
    }

    /// How many values the node lists (UUIDs, sources, device or metadata values).
    private var listedValueCount: Int {
        switch self {
        case .uuids(let uuids): uuids.count
        case .sources(let identifiers): identifiers.count
        case .device(_, let values): values.count
        case .metadata(_, .isIn(let values)): values.count
        default: 0
        }
    }

    private static func requireWorkout(_ type: SampleType, field: String) throws(HealthError) {
        try require(.workout, type, "a workout condition needs the workout type", field: field)
    }

    /// Throws `invalidArgument` with `message` (and the type) unless the queried type is `expected`.
    private static func require(
        _ expected: SampleType,
        _ type: SampleType,
        _ message: String,
        field: String
    ) throws(HealthError) {
        guard type == expected else { throw .invalidArgument("\(message), not \(type)", field: field) }
    }

    private static func validate(
        _ quantity: Quantity,
        compatibleWith unit: HealthUnit,
        field: String
    ) throws(HealthError) {
        guard quantity.value.isFinite else { throw .invalidArgument("the value must be finite", field: field) }
        guard quantity.unit.isCompatible(with: unit) else {
            throw .invalidArgument("unit \(quantity.unit) is not compatible with \(unit)", field: field + ".unit")
        }
        guard quantity.unit.baseValue(quantity.value).isFinite else {
            throw .invalidArgument("the value is too large to compare", field: field)
        }
    }

    private static func validate(_ value: MetadataValue, field: String) throws(HealthError) {
        let number: Double? =
            switch value {
            case .number(let number): number
            case .quantity(let quantity): quantity.value
            case .string, .date: nil
            }
        if let number, !number.isFinite {
            throw .invalidArgument("a metadata value must be finite", field: field)
        }
        if case .quantity(let quantity) = value, !quantity.unit.baseValue(quantity.value).isFinite {
            throw .invalidArgument("a metadata quantity is too large to compare", field: field)
        }
    }
}

// MARK: - Evaluation

extension SamplePredicate {
    /// Whether a sample meets the predicate: the reference semantics the store's SQL must match.
    ///
    /// Comparisons are made where the store can make them bit for bit: a quantity sample in its
    /// type's canonical unit (the predicate's quantity converted there), metadata quantities and
    /// workout totals in base units (compatible units only), strings by their UTF-8 bytes (no
    /// Unicode normalization, as NSPredicate's literal comparison). A sample's association with
    /// a workout is the store's, not the sample's: in memory, `workout` matches nothing.
    public func matches(_ sample: Sample) -> Bool {
        switch self {
        case .date(let start, let end, let options):
            let startTest =
                start.map { options.contains(.strictStartDate) ? sample.startDate >= $0 : sample.endDate >= $0 }
                ?? true
            let endTest =
                end.map { options.contains(.strictEndDate) ? sample.endDate <= $0 : sample.startDate < $0 } ?? true
            return startTest && endTest
        case .uuids(let uuids):
            return uuids.contains(sample.uuid)
        case .sources(let identifiers):
            return identifiers.contains { Self.bytesEqual($0, sample.sourceRevision.source.bundleIdentifier) }
        case .device(let property, let values):
            guard let value = sample.device?[property] else { return false }
            return values.contains { Self.bytesEqual($0, value) }
        case .metadata(let key, let condition):
            guard let value = sample.metadata[key] else { return false }
            switch condition {
            case .exists: return true
            case .isIn(let values): return values.contains { Self.compare(value, $0) == 0 }
            case .compare(let op, let other):
                guard let order = Self.compare(value, other) else { return false }
                return op.evaluate(order, 0)
            }
        case .quantity(let op, let quantity):
            guard case .quantity(let sample) = sample else { return false }
            let canonical = sample.quantityType.canonicalUnit
            guard let value = try? sample.quantity.doubleValue(for: canonical),
                let target = try? quantity.doubleValue(for: canonical)
            else { return false }
            return op.evaluate(value, target)
        case .categoryValue(let op, let value):
            guard case .category(let sample) = sample else { return false }
            return op.evaluate(sample.value, value)
        case .workoutActivityType(let activityType):
            guard case .workout(let workout) = sample else { return false }
            return workout.workoutActivityType == activityType
        case .workoutDuration(let op, let duration):
            guard case .workout(let workout) = sample else { return false }
            return op.evaluate(workout.duration, duration)
        case .workoutTotalEnergyBurned(let op, let quantity):
            guard case .workout(let workout) = sample, let total = workout.totalEnergyBurned,
                let order = Self.compareInBaseUnits(total, quantity)
            else { return false }
            return op.evaluate(order, 0)
        case .workoutTotalDistance(let op, let quantity):
            guard case .workout(let workout) = sample, let total = workout.totalDistance,
                let order = Self.compareInBaseUnits(total, quantity)
            else { return false }
            return op.evaluate(order, 0)
        case .stateOfMindKind(let kind):
            guard case .stateOfMind(let state) = sample else { return false }
            return state.kind == kind
        case .stateOfMindValence(let op, let valence):
            guard case .stateOfMind(let state) = sample else { return false }
            return op.evaluate(state.valence, valence)
        case .stateOfMindLabel(let label):
            guard case .stateOfMind(let state) = sample else { return false }
            return state.labels.contains(label)
        case .stateOfMindAssociation(let association):
            guard case .stateOfMind(let state) = sample else { return false }
            return state.associations.contains(association)
        case .electrocardiogramClassification(let classification):
            guard case .electrocardiogram(let ecg) = sample else { return false }
            return ecg.classification == classification
        case .electrocardiogramSymptomsStatus(let status):
            guard case .electrocardiogram(let ecg) = sample else { return false }
            return ecg.symptomsStatus == status
        case .workout:
            return false
        case .and(let predicates):
            return predicates.allSatisfy { $0.matches(sample) }
        case .or(let predicates):
            return predicates.contains { $0.matches(sample) }
        case .not(let predicate):
            return !predicate.matches(sample)
        }
    }

    /// Orders two metadata values of the same kind (-1, 0, 1); nil when they do not compare.
    private static func compare(_ lhs: MetadataValue, _ rhs: MetadataValue) -> Int? {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)):
            if bytesEqual(a, b) { return 0 }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
        case (.number(let a), .number(let b)): return order(a, b)
        case (.date(let a), .date(let b)): return order(a, b)
        case (.quantity(let a), .quantity(let b)): return compareInBaseUnits(a, b)
        default: return nil
        }
    }

    /// Orders two quantities of compatible units by their values in base units; nil otherwise.
    private static func compareInBaseUnits(_ a: Quantity, _ b: Quantity) -> Int? {
        guard a.unit.isCompatible(with: b.unit) else { return nil }
        return order(a.unit.baseValue(a.value), b.unit.baseValue(b.value))
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }

    private static func bytesEqual(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
}
