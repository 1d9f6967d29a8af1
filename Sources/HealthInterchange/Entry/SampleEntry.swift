public import Foundation
public import HealthModel

/// One sample as a person writes it down: a type, a value (with its unit), when, and metadata.
/// The owner's own entries (`healthvault samples add`) and the rows of a CSV file
/// (docs/CSV_IMPORT.md) are both read into this, then made into a ``Sample`` with the UUIDs and
/// the source the vault gives them.
///
/// It takes the kinds a person enters by hand: a quantity (`bodyMass 72.5 kg`), a category
/// (`sleepAnalysis asleepCore`), a blood pressure (`bloodPressure 120/80 mmHg`, stored as
/// HealthKit stores one: a correlation of a systolic and a diastolic sample) and a workout
/// (`workout running`).
public struct SampleEntry: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        case quantity(Quantity)
        case bloodPressure(systolic: Quantity, diastolic: Quantity)
        case category(Int)
        case workout(WorkoutActivityType)
    }

    public let type: SampleType
    public let value: Value
    public let start: Date
    public let end: Date
    public let metadata: Metadata

    /// Reads an entry from its parts as written, or throws `invalidArgument` naming the part that
    /// is wrong (`type`, `value`, `unit`, `end`), in a message that never repeats what was
    /// written there (a CSV file's columns may be shifted, putting a value where a type or unit
    /// belongs).
    /// `unit` empty or nil takes `defaultUnit` of the quantity type (of the systolic type for a
    /// blood pressure); a nil default is an error.
    public init(
        type name: String,
        value text: String,
        unit unitText: String?,
        start: Date,
        end: Date,
        metadata: Metadata = [:],
        defaultUnit: (QuantityTypeIdentifier) -> HealthUnit? = { _ in nil }
    ) throws(HealthError) {
        guard let objectType = TypeNames.objectType(named: name) else {
            throw .invalidArgument(
                "not a type HealthVault knows (a HealthKit identifier, or a short name such as bodyMass)",
                field: "type"
            )
        }
        guard end >= start else { throw .invalidArgument("the end comes before the start", field: "end") }
        let unitText = unitText?.trimmingWhitespace() ?? ""
        func unit(for quantityType: QuantityTypeIdentifier) throws(HealthError) -> HealthUnit {
            let unit: HealthUnit
            if unitText.isEmpty {
                guard let preferred = defaultUnit(quantityType) else {
                    throw .invalidArgument(
                        "a \(quantityType.rawValue) value needs its unit (such as \(quantityType.canonicalUnit))",
                        field: "unit"
                    )
                }
                unit = preferred
            } else {
                // HealthKit's unit strings, and the names people use for them (bpm, °F, lbs).
                guard let parsed = (try? UnitCache.unit(unitText)) ?? (try? HealthUnit(named: unitText)) else {
                    throw .invalidArgument("not a unit HealthVault reads (docs/UNITS.md)", field: "unit")
                }
                unit = parsed
            }
            guard unit.isCompatible(with: quantityType.canonicalUnit) else {
                throw .invalidArgument(
                    "\(unit) does not measure \(quantityType.rawValue) (its unit is \(quantityType.canonicalUnit) or one like it)",
                    field: "unit"
                )
            }
            return unit
        }
        func number(_ text: Substring) throws(HealthError) -> Double {
            guard let number = ExportValues.number(String(text.trimmingWhitespace())) else {
                throw .invalidArgument("the value is not a number", field: "value")
            }
            return number
        }
        let value: Value
        switch objectType {
        case .quantity(let quantityType):
            let unit = try unit(for: quantityType)
            value = .quantity(Quantity(try number(text[...]), unit))
        case .correlation(.bloodPressure):
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw .invalidArgument("a blood pressure is written systolic/diastolic, such as 120/80", field: "value")
            }
            let unit = try unit(for: .bloodPressureSystolic)
            value = .bloodPressure(
                systolic: Quantity(try number(parts[0]), unit),
                diastolic: Quantity(try number(parts[1]), unit)
            )
        case .category(let categoryType):
            let trimmed = text.trimmingWhitespace()
            guard let raw = TypeNames.categoryValue(named: trimmed, of: categoryType) else {
                throw .invalidArgument(
                    "not a value of \(categoryType.valueSet.rawValue), which \(categoryType.rawValue) takes: "
                        + TypeNames.categoryValueNames(of: categoryType).joined(separator: ", "),
                    field: "value"
                )
            }
            guard unitText.isEmpty else { throw .invalidArgument("a category value has no unit", field: "unit") }
            value = .category(raw)
        case .workout:
            guard let activity = TypeNames.workoutActivityType(named: text.trimmingWhitespace()) else {
                throw .invalidArgument(
                    "not a workout activity type (running, walking, cycling, swimming, ... or HKWorkoutActivityTypeRunning)",
                    field: "value"
                )
            }
            guard unitText.isEmpty else { throw .invalidArgument("a workout's value has no unit", field: "unit") }
            value = .workout(activity)
        default:
            throw .invalidArgument(
                "\(objectType) is not entered by hand: HealthVault takes quantities, categories, blood pressure and workouts",
                field: "type"
            )
        }
        try self.init(type: objectType.sampleType!, value: value, start: start, end: end, metadata: metadata)
    }

    /// An entry of a value already read; `invalidArgument` when the value is not of the type's kind.
    public init(type: SampleType, value: Value, start: Date, end: Date, metadata: Metadata = [:]) throws(HealthError) {
        switch (type, value) {
        case (.quantity, .quantity), (.correlation(.bloodPressure), .bloodPressure), (.category, .category),
            (.workout, .workout):
            break
        default:
            throw .invalidArgument("the value is not of \(type.identifier)'s kind", field: "value")
        }
        self.type = type
        self.value = value
        self.start = start
        self.end = end
        self.metadata = metadata
    }

    /// How many UUIDs ``sample(uuids:source:)`` takes: a blood pressure's correlation and its two
    /// members, else one.
    public var uuidCount: Int {
        if case .bloodPressure = value { return 3 }
        return 1
    }

    /// The sample, with `uuids` (``uuidCount`` of them: the object's, then a blood pressure's
    /// systolic and diastolic members') and `source`; the metadata goes on a correlation's
    /// members too. HealthModel's checks apply (a value outside its type's domain is
    /// `invalidArgument` on `value`).
    public func sample(uuids: [UUID], source: Source) throws(HealthError) -> Sample {
        precondition(uuids.count == uuidCount, "an entry takes \(uuidCount) UUIDs")
        let revision = SourceRevision(source: source)
        do {
            switch value {
            case .quantity(let quantity):
                guard case .quantity(let quantityType) = type else { break }
                return .quantity(
                    try QuantitySample(
                        uuid: uuids[0],
                        type: quantityType,
                        quantity: quantity,
                        start: start,
                        end: end,
                        sourceRevision: revision,
                        metadata: metadata
                    )
                )
            case .bloodPressure(let systolic, let diastolic):
                func member(
                    _ index: Int,
                    _ type: QuantityTypeIdentifier,
                    _ quantity: Quantity
                ) throws(HealthError)
                    -> Sample
                {
                    .quantity(
                        try QuantitySample(
                            uuid: uuids[index],
                            type: type,
                            quantity: quantity,
                            start: start,
                            end: end,
                            sourceRevision: revision,
                            metadata: metadata
                        )
                    )
                }
                return .correlation(
                    try Correlation(
                        uuid: uuids[0],
                        type: .bloodPressure,
                        start: start,
                        end: end,
                        objects: [
                            try member(1, .bloodPressureSystolic, systolic),
                            try member(2, .bloodPressureDiastolic, diastolic),
                        ],
                        sourceRevision: revision,
                        metadata: metadata
                    )
                )
            case .category(let raw):
                guard case .category(let categoryType) = type else { break }
                return .category(
                    try CategorySample(
                        uuid: uuids[0],
                        type: categoryType,
                        value: raw,
                        start: start,
                        end: end,
                        sourceRevision: revision,
                        metadata: metadata
                    )
                )
            case .workout(let activity):
                return .workout(
                    try Workout(
                        uuid: uuids[0],
                        activityType: activity,
                        start: start,
                        end: end,
                        sourceRevision: revision,
                        metadata: metadata
                    )
                )
            }
        } catch {
            // HealthModel names the sample's own fields; a person wrote a value, dates or metadata.
            let field = error.field ?? ""
            let part =
                field.hasPrefix("metadata")
                ? "metadata" : field.hasPrefix("start") || field.hasPrefix("end") ? "end" : "value"
            throw .invalidArgument(error.message, field: part)
        }
        throw .invalidArgument("the value is not of \(type.identifier)'s kind", field: "value")
    }

    /// The entry's canonical bytes, with the source it is stored under, for a content UUID
    /// (`VaultEngine.importUUID(for:)`): `HVE1`, then the type identifier, the start and end as
    /// RFC 3339 instants in UTC, the value (a number as Swift writes a Double back, `72.5`; a blood
    /// pressure `120.0/80.0`; a category's raw value; a workout's HealthKit constant), the unit
    /// (as HealthVault writes it; empty for a category or workout) and the source name, each
    /// length-prefixed (4 bytes, big-endian, then UTF-8). Metadata is left out. A member of a
    /// blood pressure appends one more part, `systolic` or `diastolic` (``identity(source:member:)``).
    public func identity(source: String) -> [UInt8] {
        let (valueText, unitText): (String, String) =
            switch value {
            case .quantity(let quantity): ("\(quantity.value)", quantity.unit.description)
            case .bloodPressure(let systolic, let diastolic):
                ("\(systolic.value)/\(diastolic.value)", systolic.unit.description)
            case .category(let raw): ("\(raw)", "")
            case .workout(let activity): (activity.healthKitConstant, "")
            }
        var out: [UInt8] = Array("HVE1".utf8)
        for part in [
            type.identifier, RFC3339.string(from: start), RFC3339.string(from: end), valueText, unitText, source,
        ] {
            let utf8 = Array(part.utf8)
            let length = UInt32(utf8.count)
            out += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            out += utf8
        }
        return out
    }

    /// The identity of a blood pressure's member (`systolic` or `diastolic`): the entry's, with
    /// the member's name appended as one more part.
    public func identity(source: String, member: String) -> [UInt8] {
        let utf8 = Array(member.utf8)
        let length = UInt32(utf8.count)
        return identity(source: source)
            + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + utf8
    }
}
