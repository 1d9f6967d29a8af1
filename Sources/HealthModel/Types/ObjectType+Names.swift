/// The names people give object types (docs/NAMES.md): HealthKit's identifier
/// (`HKQuantityTypeIdentifierStepCount`), or its short name, which is HealthKit's Swift name for it
/// (`stepCount`, `sleepAnalysis`, `bloodPressure`, `biologicalSex`, `workout`, `activitySummary`,
/// `gad7`), in any case and with or without `_`, `-`, `.` or spaces (`stepcount`, `heart_rate`),
/// or one of a few aliases (`steps`, `weight`, `sleep`). A name that names nothing gets the closest
/// short names as suggestions.
///
/// The wire protocol takes identifiers only; these names are for people: the command line, CSV
/// files, app manifests and the access policy file.
extension ObjectType {
    /// The short name: HealthKit's Swift name of the type's identifier (`stepCount` for
    /// `HKQuantityTypeIdentifierStepCount`, `HKQuantityTypeIdentifier.stepCount` in Swift), and for
    /// the types without an identifier enumeration the name of HealthKit's accessor (`workout` for
    /// `HKObjectType.workoutType()`, `activitySummary`, `workoutRoute`, `stateOfMind`,
    /// `electrocardiogram`, `audiogram`, `heartbeatSeries`). By rule: the identifier without
    /// HealthKit's prefix (and `TypeIdentifier` suffix), its leading capitals in lower case
    /// (`uvExposure`, `vo2Max`, `gad7`); one exception, `environmentalAudioExposureEvent`, whose
    /// identifier string is HealthKit's older `HKCategoryTypeIdentifierAudioExposureEvent`.
    public var shortName: String {
        if self == .category(.environmentalAudioExposureEvent) { return "environmentalAudioExposureEvent" }
        return NameIndex.swiftName(NameIndex.strippingPrefix(identifier))
    }

    /// Names that are neither an identifier nor a short name but that people use, each for one
    /// type only (docs/NAMES.md lists them).
    public static let aliases: [(alias: String, type: ObjectType)] = [
        ("steps", .quantity(.stepCount)),
        ("weight", .quantity(.bodyMass)),
        ("bmi", .quantity(.bodyMassIndex)),
        ("pulse", .quantity(.heartRate)),
        ("hrv", .quantity(.heartRateVariabilitySDNN)),
        ("spo2", .quantity(.oxygenSaturation)),
        ("sleep", .category(.sleepAnalysis)),
        ("skinType", .characteristic(.fitzpatrickSkinType)),
        ("moveMode", .characteristic(.activityMoveMode)),
        ("ecg", .electrocardiogram),
    ]

    /// The type a name names, or nil (``resolving(_:)`` says why, with suggestions).
    public static func named(_ name: String) -> ObjectType? {
        if let type = try? ObjectType(identifier: name) { return type }
        guard case .supported(let type)? = NameIndex.shared.entries[NameIndex.key(name)] else { return nil }
        return type
    }

    /// The type a name names; `invalidArgument` (field `type`) saying what is wrong otherwise: a
    /// HealthKit type HealthVault does not support yet, or a name that names nothing, with the
    /// closest short names (`did you mean stepCount?`).
    public static func resolving(_ name: String) throws(HealthError) -> ObjectType {
        if let type = named(name) { return type }
        // A HealthKit constant's name where its value belongs: the identifier's own message says
        // how HealthKit spells it (identifiers are taken exactly as HealthKit spells them).
        if misspelledIdentifiers[name] != nil { _ = try ObjectType(identifier: name) }
        if case .unsupported(let identifier, let kind)? = NameIndex.shared.entries[NameIndex.key(name)] {
            throw .invalidArgument(
                "\(identifier) is a HealthKit \(kind) type that HealthVault does not support yet",
                field: "type"
            )
        }
        let suggestions = Self.suggestions(for: name)
        let hint =
            switch suggestions.count {
            case 0: ""
            case 1: "; did you mean \(suggestions[0])?"
            default: "; did you mean one of \(suggestions.joined(separator: ", "))?"
            }
        throw .invalidArgument(
            "unknown type \"\(name)\"\(hint) (`healthvault types` lists every type)",
            field: "type"
        )
    }

    /// The names closest to a name that names nothing, the closest first: those within a few
    /// typing mistakes of it (an edit distance of at most a third of its length, at least 1),
    /// then those that contain it or that it contains (at least three letters); at most `limit`,
    /// one per type. Short names and aliases are compared alike; a type found by its alias is
    /// suggested as the alias with its short name (`weight (bodyMass)` for `wieght`), by its short
    /// name as that (`stepCount` for `stepcont`). A name that begins with one of HealthKit's
    /// prefixes is compared without it.
    public static func suggestions(for name: String, limit: Int = 3) -> [String] {
        var key = NameIndex.key(name)
        // A misspelt identifier is compared without HealthKit's prefix, as its short name would be.
        for prefix in NameIndex.prefixes.map(NameIndex.key) + ["hk"] where key.hasPrefix(prefix) {
            key = String(key.dropFirst(prefix.count))
            if key.hasSuffix("typeidentifier") { key = String(key.dropLast("typeidentifier".count)) }
            break
        }
        guard !key.isEmpty else { return [] }
        let allowed = max(1, key.count / 3)
        // Each candidate's score, and whether it matched the type's alias (`alias`) or its short name.
        var scored: [(score: Int, type: String, alias: String?)] = []
        for (candidate, type, alias) in NameIndex.shared.suggestible {
            let distance = NameIndex.distance(key, candidate, atMost: allowed)
            if distance <= allowed {
                scored.append((distance, type.shortName, alias))
            } else if key.count >= 3, candidate.contains(key) || key.contains(candidate) {
                scored.append((allowed + 1 + abs(candidate.count - key.count), type.shortName, alias))
            }
        }
        // The best match of each type; of a type matched as well by its short name as by an
        // alias, the short name.
        var seen: Set<String> = []
        return scored.sorted {
            ($0.score, $0.type, $0.alias == nil ? 0 : 1) < ($1.score, $1.type, $1.alias == nil ? 0 : 1)
        }
        .compactMap { match -> String? in
            guard seen.insert(match.type).inserted else { return nil }
            return match.alias.map { "\($0) (\(match.type))" } ?? match.type
        }
        .prefix(limit).map { $0 }
    }
}

/// Every name a type goes by, normalized: lower case, without `_`, `-`, `.` and spaces.
struct NameIndex: Sendable {
    enum Entry: Sendable, Equatable {
        case supported(ObjectType)
        case unsupported(identifier: String, kind: String)
    }

    static let shared = NameIndex()

    /// Each normalized name and what it names.
    let entries: [String: Entry]
    /// Short names and aliases, normalized, with their type and, for an alias, the alias as
    /// written: what suggestions are drawn from.
    let suggestible: [(String, ObjectType, String?)]

    /// HealthKit's prefixes; an identifier without its prefix is also a name of its type
    /// (`audioExposureEvent`, `HKDataTypeStateOfMind`'s `stateOfMind`).
    static let prefixes = [
        "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCharacteristicTypeIdentifier",
        "HKCorrelationTypeIdentifier", "HKScoredAssessmentTypeIdentifier", "HKDocumentTypeIdentifier",
        "HKDataTypeIdentifier", "HKDataType",
    ]

    private init() {
        var entries: [String: Entry] = [:]
        var suggestible: [(String, ObjectType, String?)] = []
        func add(_ name: String, _ entry: Entry) {
            let key = Self.key(name)
            // The first meaning stays (CatalogTests checks no name means two types).
            if entries[key] == nil { entries[key] = entry }
        }
        for type in ObjectType.allTypes {
            add(type.shortName, .supported(type))
            add(type.identifier, .supported(type))
            add(Self.strippingPrefix(type.identifier), .supported(type))
            suggestible.append((Self.key(type.shortName), type, nil))
        }
        for (alias, type) in ObjectType.aliases {
            add(alias, .supported(type))
            suggestible.append((Self.key(alias), type, alias))
        }
        for (identifier, kind) in ObjectType.unsupportedIdentifiers {
            add(identifier, .unsupported(identifier: identifier, kind: kind))
            add(Self.unsupportedShortName(identifier), .unsupported(identifier: identifier, kind: kind))
        }
        self.entries = entries
        self.suggestible = suggestible
    }

    /// `cda`, `visionPrescription`: HealthKit's Swift names of the types HealthVault does not
    /// support yet.
    static func unsupportedShortName(_ identifier: String) -> String {
        swiftName(strippingPrefix(identifier))
    }

    /// A name as Swift spells a member: its leading capitals in lower case, but for the last of
    /// them when a lower-case letter follows (`StepCount` `stepCount`, `UVExposure` `uvExposure`,
    /// `VO2Max` `vo2Max`, `GAD7` `gad7`, `CDA` `cda`).
    static func swiftName(_ name: String) -> String {
        let characters = Array(name)
        var capitals = 0
        while capitals < characters.count, characters[capitals].isUppercase { capitals += 1 }
        if capitals > 1, capitals < characters.count, characters[capitals].isLowercase { capitals -= 1 }
        return String(characters[..<capitals]).lowercased() + String(characters[capitals...])
    }

    /// `StepCount` for `HKQuantityTypeIdentifierStepCount`, `Workout` for `HKWorkoutTypeIdentifier`.
    static func strippingPrefix(_ identifier: String) -> String {
        for prefix in prefixes where identifier.hasPrefix(prefix) {
            return String(identifier.dropFirst(prefix.count))
        }
        if identifier.hasPrefix("HK"), identifier.hasSuffix("TypeIdentifier") {
            return String(identifier.dropFirst(2).dropLast("TypeIdentifier".count))
        }
        return identifier
    }

    /// A name as it is compared: ASCII letters in lower case, digits, and any other character but
    /// `_`, `-`, `.` and white space.
    static func key(_ name: String) -> String {
        String(
            String.UnicodeScalarView(
                name.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
                    if "_-. ".unicodeScalars.contains(scalar) || scalar.properties.isWhitespace { return nil }
                    if ("A"..."Z").contains(scalar) { return Unicode.Scalar(scalar.value + 32) }
                    return scalar
                }
            )
        )
    }

    /// The edit distance (insertions, deletions, substitutions, swaps of neighbours) between two
    /// names, or `atMost + 1` once it is certain to be more.
    static func distance(_ a: String, _ b: String, atMost bound: Int) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        guard abs(a.count - b.count) <= bound else { return bound + 1 }
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > bound { return bound + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

/// One line of `healthvault types`: a HealthKit type with its names, its kind, the unit its values
/// are shown in when the owner has chosen none, and whether HealthVault stores it.
public struct TypeDescription: Hashable, Sendable {
    /// HealthKit's identifier string.
    public let identifier: String
    public let shortName: String
    /// `quantity`, `category`, `characteristic`, `correlation`, `workout`, `series`,
    /// `activitySummary`, `stateOfMind`, `scoredAssessment`, `electrocardiogram`, `audiogram`, or,
    /// for the types not supported yet, `document` and `visionPrescription` (the kinds of the
    /// HealthKit catalog, `../shared/vectors/healthkit/types.tsv`).
    public let kind: String
    /// A quantity type's ``QuantityTypeIdentifier/defaultUnit``; nil for other kinds.
    public let defaultUnit: HealthUnit?
    /// The type, or nil when HealthVault does not support it yet.
    public let type: ObjectType?

    public var isSupported: Bool { type != nil }
}

extension ObjectType {
    /// The kind of type, as HealthKit's catalog names it (``TypeDescription/kind``).
    public var kind: String {
        switch self {
        case .quantity: "quantity"
        case .category: "category"
        case .characteristic: "characteristic"
        case .correlation: "correlation"
        case .workout: "workout"
        case .workoutRoute, .heartbeatSeries: "series"
        case .activitySummary: "activitySummary"
        case .stateOfMind: "stateOfMind"
        case .scoredAssessment: "scoredAssessment"
        case .electrocardiogram: "electrocardiogram"
        case .audiogram: "audiogram"
        case .visionPrescription: "visionPrescription"
        case .document: "document"
        }
    }

    /// Every type HealthKit defines and HealthVault knows of, supported or not: the supported ones
    /// in the order of ``allTypes``, then the others.
    public static var typeDescriptions: [TypeDescription] {
        var descriptions = allTypes.map { type in
            var unit: HealthUnit?
            if case .quantity(let id) = type { unit = id.defaultUnit }
            return TypeDescription(
                identifier: type.identifier,
                shortName: type.shortName,
                kind: type.kind,
                defaultUnit: unit,
                type: type
            )
        }
        for (identifier, _) in unsupportedIdentifiers.sorted(by: { $0.key < $1.key }) {
            descriptions.append(
                TypeDescription(
                    identifier: identifier,
                    shortName: NameIndex.unsupportedShortName(identifier),
                    kind: identifier.hasPrefix("HKDocument") ? "document" : "visionPrescription",
                    defaultUnit: nil,
                    type: nil
                )
            )
        }
        return descriptions
    }
}

extension QuantityTypeIdentifier {
    /// The type's short name (``ObjectType/shortName``): `stepCount`.
    public var shortName: String { ObjectType.quantity(self).shortName }
}

extension CategoryTypeIdentifier {
    /// The type's short name (``ObjectType/shortName``): `sleepAnalysis`.
    public var shortName: String { ObjectType.category(self).shortName }
}
