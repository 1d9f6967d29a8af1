import HealthModel
import HealthModelTestSupport
import Testing

/// The catalog against HealthKit's own lists in `../shared/vectors/healthkit`.
@Suite(.enabled(if: Vectors.available, Vectors.missingMessage))
struct CatalogTests {
    /// Constant name -> string value, where HealthKit's differ.
    let stringValues: [String: String]

    init() throws {
        stringValues = Dictionary(
            uniqueKeysWithValues: try Vectors.table("healthkit/identifier_string_exceptions.tsv").map {
                ($0["constant"]!, $0["string_value"]!)
            }
        )
    }

    func string(of constant: String) -> String { stringValues[constant] ?? constant }

    @Test func everyQuantityTypeHasHealthKitsUnitAndAggregation() throws {
        let rows = try Vectors.table("healthkit/types.tsv").filter { $0["kind"] == "quantity" }
        #expect(rows.count == QuantityTypeIdentifier.allCases.count)
        for row in rows {
            let identifier = try #require(QuantityTypeIdentifier(rawValue: string(of: row["identifier"]!)))
            // HealthKit's header gives UV exposure no unit; the UV index is a count.
            let unit = row["canonical_unit"]!.isEmpty ? "count" : row["canonical_unit"]!
            #expect(identifier.canonicalUnit == (try HealthUnit(from: unit)), "\(identifier)")
            #expect(identifier.aggregationStyle.name == row["aggregation"], "\(identifier)")
            #expect(identifier.group == row["group"], "\(identifier)")
            #expect(try ObjectType(identifier: identifier.rawValue) == .quantity(identifier))
        }
    }

    @Test func everyCategoryTypeTakesHealthKitsValueEnumeration() throws {
        let rows = try Vectors.table("healthkit/types.tsv").filter { $0["kind"] == "category" }
        #expect(rows.count == CategoryTypeIdentifier.allCases.count)
        for row in rows {
            let identifier = try #require(CategoryTypeIdentifier(rawValue: string(of: row["identifier"]!)))
            #expect(identifier.valueSet.rawValue == row["value_type"], "\(identifier)")
            #expect(identifier.group == row["group"], "\(identifier)")
        }
    }

    @Test func characteristicCorrelationAndWorkoutTypesReadAsThemselves() throws {
        let kinds: Set = ["characteristic", "correlation", "workout"]
        let rows = try Vectors.table("healthkit/types.tsv").filter { kinds.contains($0["kind"]!) }
        #expect(
            rows.count == CharacteristicTypeIdentifier.allCases.count + CorrelationTypeIdentifier.allCases.count + 1
        )
        for row in rows {
            let identifier = string(of: row["identifier"]!)
            let type = try ObjectType(identifier: identifier)
            #expect(type.identifier == identifier)
            #expect((type.sampleType == nil) == (row["kind"] == "characteristic"))
        }
        #expect(try ObjectType(identifier: "HKActivitySummaryTypeIdentifier") == .activitySummary)
    }

    @Test func stateOfMindScoredAssessmentAndHeartbeatSeriesTypesReadAsThemselves() throws {
        let kinds: Set = ["stateOfMind", "scoredAssessment", "series"]
        let rows = try Vectors.table("healthkit/types.tsv").filter {
            kinds.contains($0["kind"]!) && $0["identifier"] != "HKWorkoutRouteTypeIdentifier"
        }
        #expect(rows.count == 1 + ScoredAssessmentTypeIdentifier.allCases.count + 1)
        for row in rows {
            let identifier = string(of: row["identifier"]!)
            let type = try ObjectType(identifier: identifier)
            #expect(type.identifier == identifier)
            #expect(type.sampleType != nil)
        }
        // HealthKit spells the state of mind identifier otherwise than its constant.
        #expect(string(of: "HKDataTypeIdentifierStateOfMind") == ObjectType.stateOfMind.identifier)
    }

    @Test func typesNotStoredYetAreRefusedWithAClearMessage() throws {
        let deferred: Set = ["document", "scoredAssessment", "series", "visionPrescription", "stateOfMind"]
        let rows = try Vectors.table("healthkit/types.tsv").filter { deferred.contains($0["kind"]!) }
        // Each identifier of these kinds is either stored now (a type of its own) or refused with
        // the message, and the list of refused ones names no other.
        var refused = 0
        for row in rows {
            let identifier = string(of: row["identifier"]!)
            if ObjectType.unsupportedIdentifiers[identifier] == nil {
                #expect(try ObjectType(identifier: identifier).identifier == identifier)
                continue
            }
            refused += 1
            let error = #expect(throws: HealthError.self) { try ObjectType(identifier: identifier) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.contains("does not support yet") == true, "\(identifier)")
        }
        #expect(refused == ObjectType.unsupportedIdentifiers.count)
        #expect(try ObjectType(identifier: "HKWorkoutRouteTypeIdentifier") == .workoutRoute)
    }

    @Test func deprecatedAudioExposureIdentifierReadsAsItsReplacement() throws {
        let row = try #require(try Vectors.table("healthkit/types.tsv").first { $0["kind"] == "deprecated" })
        let type = try ObjectType(identifier: row["identifier"]!)
        #expect(type == .category(.environmentalAudioExposureEvent))
        #expect(CategoryTypeIdentifier.audioExposureEvent == .environmentalAudioExposureEvent)
    }

    /// Every enumeration the catalog knows, by HealthKit name.
    var enumerations: [String: any HealthKitEnumeration.Type] {
        Dictionary(uniqueKeysWithValues: HealthKitCatalog.enumerations.map { ($0.healthKitName, $0) })
    }

    func checkEnumerationRows(_ file: String) throws {
        let rows = try Vectors.table("healthkit/\(file)")
        var checked = 0
        for row in rows {
            guard let enumeration = enumerations[row["enum"]!] else {
                if row["enum"] == "HKMetricPrefix" { continue }  // units have their own prefixes
                Issue.record("\(row["enum"]!) is missing from HealthKitCatalog.enumerations")
                continue
            }
            let raw = Int(row["raw_value"]!)!
            let cases = enumeration.namedCases
            let match = try #require(cases.first { $0.rawValue == raw }, "\(row["enum"]!) has no raw value \(raw)")
            if match.name != row["case"] {
                // Deprecated aliases share a raw value with their replacement.
                #expect(row["source"]!.contains("alias"), "\(row["enum"]!).\(row["case"]!) = \(raw) is \(match.name)")
            }
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test func categoryValuesHaveHealthKitsRawValues() throws {
        try checkEnumerationRows("category_values.tsv")
    }

    @Test func characteristicValuesHaveHealthKitsRawValues() throws {
        try checkEnumerationRows("characteristic_values.tsv")
    }

    @Test func metadataEnumerationsWorkoutEventsAndAggregationStylesHaveHealthKitsRawValues() throws {
        try checkEnumerationRows("other_enum_values.tsv")
    }

    @Test func enumerationCasesCarryHealthKitsObjectiveCConstants() throws {
        for row in try Vectors.table("healthkit/enum_objc_names.tsv") {
            if row["enum"] == "HKMetricPrefix" { continue }
            let enumeration = try #require(enumerations[row["enum"]!], "\(row["enum"]!)")
            let raw = Int(row["raw_value"]!)!
            let constants = Self.constants(of: enumeration)
            let constant = try #require(constants[raw])
            if constant != row["objc_constant"] {
                #expect(row["case"] != enumeration.namedCases.first { $0.rawValue == raw }?.name, "\(row)")
            }
        }
    }

    static func constants<E: HealthKitEnumeration>(of enumeration: E.Type) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: E.allCases.map { ($0.rawValue, $0.healthKitConstant) })
    }

    @Test func everyWorkoutActivityTypeHasHealthKitsRawValueAndExportName() throws {
        let rows = try Vectors.table("healthkit/workout_activity_types.tsv")
        #expect(rows.count == WorkoutActivityType.allCases.count)
        for row in rows {
            let type = try #require(WorkoutActivityType(rawValue: Int(row["raw_value"]!)!))
            #expect("\(type)" == row["case"])
            #expect(type.healthKitConstant == row["export_name"])
        }
    }

    @Test func everyMetadataKeyHasHealthKitsStringAndAKnownValueKind() throws {
        let rows = try Vectors.table("healthkit/metadata_keys.tsv")
        #expect(rows.count == MetadataKey.healthKitConstants.count)
        for row in rows {
            let key = MetadataKey(rawValue: row["string_value"]!)
            #expect(MetadataKey.healthKitConstants[key] == row["constant"])
            let kind = try #require(MetadataKey.wellKnownValueKinds[key], "\(row["constant"]!)")
            if case .quantity(let unit) = kind {
                _ = try HealthUnit(from: unit)
            }
        }
        #expect(MetadataKey.syncIdentifier.rawValue == "HKMetadataKeySyncIdentifier")
        #expect(MetadataKey.wasUserEntered.rawValue == "HKWasUserEntered")
    }
}
