import Foundation
import HealthModel

/// A piece of SQL with its arguments, in order.
struct SQLFragment {
    var sql: String
    var arguments: [DatabaseValue]

    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// Compiles a `SamplePredicate` to a SQL condition over `samples AS s`, with the meaning of
/// `SamplePredicate.matches(_:)`. Every leaf yields 0 or 1, never NULL, so NOT keeps its meaning.
struct PredicateCompiler {
    /// The unit strings the vault knows, for metadata quantities (which compare only within a dimension).
    let knownUnits: [String]
    /// Whether a workout's samples are named as a list of its associations (`s.id IN (...)`), for
    /// a branch that walks rows by id under full access; otherwise each row is looked up among
    /// the workout's, so that the cost follows the rows walked, never associations the scope may
    /// not see.
    var workoutAsList = false
    /// No row the compiled condition is evaluated on lasts longer than this (end minus start, in
    /// seconds), or nil when that is not known: a date predicate's bound on the end then bounds
    /// the start too, so the (type, start) indexes walk only the dates asked.
    var longestDuration: Double? = nil

    /// A date predicate as a range of the start on both sides wherever it can be: a bound on the
    /// end alone would walk the (type, start) index from the type's first or to its last sample.
    /// Each condition added is implied by the predicate's own for every row (a sample never ends
    /// before it starts, nor lasts longer than ``longestDuration``), so the leaf's value, and
    /// with it that of an OR or NOT around it, stays the same for every row.
    func compile(_ predicate: SamplePredicate, for type: SampleType) throws(HealthError) -> SQLFragment {
        switch predicate {
        case .date(let start, let end, let options):
            var parts: [String] = []
            var arguments: [DatabaseValue] = []
            if let start {
                let date = start.timeIntervalSinceReferenceDate
                if options.contains(.strictStartDate) {
                    parts.append("s.start_date >= ?")
                    arguments.append(.real(date))
                } else {
                    parts.append("s.end_date >= ?")
                    arguments.append(.real(date))
                    if let longestDuration,
                        let earliest = Self.earliestStart(endingFrom: date, longest: longestDuration)
                    {
                        parts.append("s.start_date >= ?")
                        arguments.append(.real(earliest))
                    }
                }
            }
            if let end {
                let date = end.timeIntervalSinceReferenceDate
                if options.contains(.strictEndDate) {
                    parts.append("s.end_date <= ? AND s.start_date <= ?")
                    arguments += [.real(date), .real(date)]
                } else {
                    parts.append("s.start_date < ?")
                    arguments.append(.real(date))
                }
            }
            return parts.isEmpty
                ? SQLFragment("1") : SQLFragment("(" + parts.joined(separator: " AND ") + ")", arguments)
        case .uuids(let uuids):
            return SQLFragment(
                "s.uuid IN (SELECT unhex(value) FROM json_each(?))",
                [.text(Self.jsonArray(uuids.map(\.hexDigits)))]
            )
        case .workout(let uuid):
            if workoutAsList {
                return SQLFragment(
                    "s.id IN (SELECT sample_id FROM workout_samples WHERE workout = ?)",
                    [.blob(uuid.bytes)]
                )
            }
            return SQLFragment(
                "EXISTS (SELECT 1 FROM workout_samples WHERE workout = ? AND sample_id = s.id)",
                [.blob(uuid.bytes)]
            )
        case .sources(let identifiers):
            return SQLFragment(
                "s.source_id IN (SELECT id FROM sources WHERE bundle_id IN (SELECT value FROM json_each(?)))",
                [.text(Self.jsonArray(identifiers))]
            )
        case .device(let property, let values):
            return SQLFragment(
                "IFNULL(s.device_id IN (SELECT id FROM devices WHERE \(Self.column(of: property)) IN "
                    + "(SELECT value FROM json_each(?))), 0)",
                [.text(Self.jsonArray(values))]
            )
        case .metadata(let key, let condition):
            let base = "EXISTS (SELECT 1 FROM sample_metadata m WHERE m.sample_id = s.id AND m.key = ?"
            switch condition {
            case .exists:
                return SQLFragment(base + ")", [.text(key.rawValue)])
            case .isIn(let values):
                guard !values.isEmpty else { return SQLFragment("0") }
                let tests = values.map { metadataTest(.equalTo, $0) }
                return SQLFragment(
                    base + " AND (" + tests.map(\.sql).joined(separator: " OR ") + "))",
                    [.text(key.rawValue)] + tests.flatMap(\.arguments)
                )
            case .compare(let op, let value):
                let test = metadataTest(op, value)
                return SQLFragment(base + " AND " + test.sql + ")", [.text(key.rawValue)] + test.arguments)
            }
        case .quantity(let op, let quantity):
            guard case .quantity(let quantityType) = type else { return SQLFragment("0") }
            // Canonical values increase with the quantity, so the comparison holds after conversion.
            let value = try quantity.doubleValue(for: quantityType.canonicalUnit)
            return SQLFragment("s.value \(Self.sql(op)) ?", [.real(value)])
        case .categoryValue(let op, let value):
            guard case .category = type else { return SQLFragment("0") }
            return SQLFragment("s.value \(Self.sql(op)) ?", [.real(Double(value))])
        case .workoutActivityType(let activityType):
            return SQLFragment(
                "EXISTS (SELECT 1 FROM workouts w WHERE w.sample_id = s.id AND w.activity_type = ?)",
                [.integer(Int64(activityType.rawValue))]
            )
        case .workoutDuration(let op, let duration):
            return SQLFragment(
                "EXISTS (SELECT 1 FROM workouts w WHERE w.sample_id = s.id AND w.duration \(Self.sql(op)) ?)",
                [.real(duration)]
            )
        case .workoutTotalEnergyBurned(let op, let quantity):
            return SQLFragment(
                "EXISTS (SELECT 1 FROM workouts w WHERE w.sample_id = s.id AND w.energy_base \(Self.sql(op)) ?)",
                [.real(quantity.unit.baseValue(quantity.value))]
            )
        case .workoutTotalDistance(let op, let quantity):
            return SQLFragment(
                "EXISTS (SELECT 1 FROM workouts w WHERE w.sample_id = s.id AND w.distance_base \(Self.sql(op)) ?)",
                [.real(quantity.unit.baseValue(quantity.value))]
            )
        case .stateOfMindKind(let kind):
            return SQLFragment(
                "EXISTS (SELECT 1 FROM states_of_mind m WHERE m.sample_id = s.id AND m.kind = ?)",
                [.integer(Int64(kind.rawValue))]
            )
        case .stateOfMindValence(let op, let valence):
            // The valence is stored as given, a double: compared exactly as in memory.
            return SQLFragment(
                "EXISTS (SELECT 1 FROM states_of_mind m WHERE m.sample_id = s.id AND m.valence \(Self.sql(op)) ?)",
                [.real(valence)]
            )
        case .stateOfMindLabel(let label):
            // The labels are a JSON array of raw values: one of them is this one.
            return SQLFragment(
                "EXISTS (SELECT 1 FROM states_of_mind m, json_each(m.labels) j "
                    + "WHERE m.sample_id = s.id AND j.value = ?)",
                [.integer(Int64(label.rawValue))]
            )
        case .stateOfMindAssociation(let association):
            return SQLFragment(
                "EXISTS (SELECT 1 FROM states_of_mind m, json_each(m.associations) j "
                    + "WHERE m.sample_id = s.id AND j.value = ?)",
                [.integer(Int64(association.rawValue))]
            )
        case .electrocardiogramClassification(let classification):
            return SQLFragment(
                "EXISTS (SELECT 1 FROM electrocardiograms e WHERE e.sample_id = s.id AND e.classification = ?)",
                [.integer(Int64(classification.rawValue))]
            )
        case .electrocardiogramSymptomsStatus(let status):
            return SQLFragment(
                "EXISTS (SELECT 1 FROM electrocardiograms e WHERE e.sample_id = s.id AND e.symptoms_status = ?)",
                [.integer(Int64(status.rawValue))]
            )
        case .and(let predicates), .or(let predicates):
            let isAnd = if case .and = predicate { true } else { false }
            guard !predicates.isEmpty else { return SQLFragment(isAnd ? "1" : "0") }
            var parts: [SQLFragment] = []
            for predicate in predicates {
                parts.append(try compile(predicate, for: type))
            }
            return Self.balanced(parts[...], isAnd ? " AND " : " OR ")
        case .not(let inner):
            let part = try compile(inner, for: type)
            return SQLFragment("NOT (" + part.sql + ")", part.arguments)
        }
    }

    /// The earliest start of a sample that ends at or after `date` and lasts at most `longest`
    /// seconds: `date - longest`, less a few units in the last place for the rounding of the
    /// stored duration (itself a difference of two dates) and of these subtractions, so that
    /// the bound never drops a sample that ends at `date`; nil when not finite.
    static func earliestStart(endingFrom date: Double, longest: Double) -> Double? {
        let slack = 8 * (abs(date) + abs(longest)).ulp
        let earliest = date - longest - slack
        return earliest.isFinite ? earliest : nil
    }

    /// The parts joined by `op` as a balanced tree, `((a op b) op (c op d))`: SQLite nests a flat
    /// chain one level per term and refuses an expression deeper than 1,000 levels, so 10,000
    /// children (the most a predicate holds) would fail flat and nest 14 levels so.
    private static func balanced(_ parts: ArraySlice<SQLFragment>, _ op: String) -> SQLFragment {
        guard parts.count > 1 else {
            return SQLFragment("(" + parts[parts.startIndex].sql + ")", parts[parts.startIndex].arguments)
        }
        let middle = parts.startIndex + parts.count / 2
        let left = balanced(parts[..<middle], op)
        let right = balanced(parts[middle...], op)
        return SQLFragment("(" + left.sql + op + right.sql + ")", left.arguments + right.arguments)
    }

    /// A test on one metadata row `m`, true only for a value of the same kind.
    private func metadataTest(_ op: ComparisonOperator, _ value: MetadataValue) -> SQLFragment {
        let sqlOp = Self.sql(op)
        switch value {
        case .string(let string):
            return SQLFragment("(m.kind = 0 AND m.text_value \(sqlOp) ?)", [.text(string)])
        case .number(let number):
            return SQLFragment("(m.kind = 1 AND m.number_value \(sqlOp) ?)", [.real(number)])
        case .date(let date):
            return SQLFragment(
                "(m.kind = 2 AND m.number_value \(sqlOp) ?)",
                [.real(date.timeIntervalSinceReferenceDate)]
            )
        case .quantity(let quantity):
            let compatible = knownUnits.filter {
                (try? HealthUnit(from: $0))?.isCompatible(with: quantity.unit) == true
            }
            return SQLFragment(
                "(m.kind = 3 AND m.text_value IN (SELECT value FROM json_each(?)) AND m.base_value \(sqlOp) ?)",
                [.text(Self.jsonArray(compatible)), .real(quantity.unit.baseValue(quantity.value))]
            )
        }
    }

    static func sql(_ op: ComparisonOperator) -> String {
        switch op {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "="
        case .notEqualTo: "<>"
        }
    }

    static func column(of property: DeviceProperty) -> String {
        switch property {
        case .name: "name"
        case .manufacturer: "manufacturer"
        case .model: "model"
        case .hardwareVersion: "hardware_version"
        case .firmwareVersion: "firmware_version"
        case .softwareVersion: "software_version"
        case .localIdentifier: "local_identifier"
        case .udiDeviceIdentifier: "udi_device_identifier"
        }
    }

    /// A JSON array of strings, for `json_each(?)`: one bound value, so SQL text stays the same
    /// whatever the list's length.
    static func jsonArray(_ strings: [String]) -> String {
        let data = (try? JSONEncoder().encode(strings)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension DatabaseValue {
    /// A list of strings bound as one JSON array, for `IN (SELECT value FROM json_each(?))`.
    public static func jsonArray(_ strings: [String]) -> DatabaseValue {
        .text(PredicateCompiler.jsonArray(strings))
    }

    /// UUIDs bound as one JSON array of their hexadecimal digits, for
    /// `IN (SELECT unhex(value) FROM json_each(?))`: written directly (hex digits need no
    /// escaping; JSONEncoder on a batch of 10,000 showed in an import's profile).
    static func jsonArray<Identifiers: Collection<UUID>>(uuids: Identifiers) -> DatabaseValue {
        var text = "["
        text.reserveCapacity(uuids.count * 35 + 2)
        for (index, uuid) in uuids.enumerated() {
            text += index == 0 ? "\"" : ",\""
            text += uuid.hexDigits
            text += "\""
        }
        return .text(text + "]")
    }
}
