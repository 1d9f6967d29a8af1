import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import Testing

/// Every value constant an export may write, from the HealthKit catalogs in `../shared/vectors`,
/// reads as HealthModel's value.
@Suite(.enabled(if: Vectors.available, Vectors.missingMessage))
struct ExportNameTests {
    static let start = "2022-11-14 18:00:00 -0800"
    static let end = "2022-11-14 18:30:00 -0800"

    @Test func everyWorkoutActivityTypeAnExportNamesConverts() throws {
        let rows = try Vectors.table("healthkit/workout_activity_types.tsv")
        #expect(rows.count > 80)
        for row in rows {
            let name = try #require(row["export_name"])
            let workout = AppleHealthWorkout(
                workoutActivityType: name,
                sourceName: "Watch",
                startDate: Self.start,
                endDate: Self.end
            )
            guard case .workout(let converted) = try workout.sample(uuid: UUID(), source: importSource) else {
                Issue.record("\(name) is not a workout")
                continue
            }
            #expect(converted.workoutActivityType.rawValue == Int(row["raw_value"] ?? ""), "\(name)")
        }
    }

    @Test func everyWorkoutEventTypeConstantConverts() throws {
        let rows = try Vectors.table("healthkit/enum_objc_names.tsv").filter { $0["enum"] == "HKWorkoutEventType" }
        #expect(rows.count == WorkoutEventType.allCases.count)
        let events = rows.map { AppleHealthWorkoutEvent(type: $0["objc_constant"], date: "2022-11-14 18:10:00 -0800") }
        let workout = AppleHealthWorkout(
            workoutActivityType: "HKWorkoutActivityTypeRunning",
            sourceName: "Watch",
            startDate: Self.start,
            endDate: Self.end,
            events: events
        )
        guard case .workout(let converted) = try workout.sample(uuid: UUID(), source: importSource) else { return }
        #expect(
            Set(converted.workoutEvents.map(\.type.rawValue)) == Set(rows.compactMap { Int($0["raw_value"] ?? "") })
        )
        #expect(workout.conversionNotes().isEmpty)
    }

    @Test func everyCategoryValueConstantConvertsForTheTypesThatTakeIt() throws {
        let rows = try Vectors.table("healthkit/enum_objc_names.tsv")
        var checked = 0
        for row in rows {
            guard let set = CategoryValueSet(rawValue: row["enum"] ?? ""),
                let type = CategoryTypeIdentifier.allCases.first(where: { $0.valueSet == set }),
                let constant = row["objc_constant"], let raw = Int(row["raw_value"] ?? "")
            else { continue }
            let record = AppleHealthRecord(
                type: type.rawValue,
                sourceName: "Phone",
                startDate: Self.start,
                endDate: Self.end,
                value: constant
            )
            guard case .category(let sample) = try record.sample(uuid: UUID(), source: importSource) else {
                Issue.record("\(constant) is not a category sample")
                continue
            }
            #expect(sample.value == raw, "\(constant)")
            checked += 1
        }
        #expect(checked > 40)
    }

    @Test func everyCharacteristicValueConstantConverts() throws {
        let identifiers = [
            "HKBiologicalSex": "HKCharacteristicTypeIdentifierBiologicalSex",
            "HKBloodType": "HKCharacteristicTypeIdentifierBloodType",
            "HKFitzpatrickSkinType": "HKCharacteristicTypeIdentifierFitzpatrickSkinType",
            "HKWheelchairUse": "HKCharacteristicTypeIdentifierWheelchairUse",
            "HKActivityMoveMode": "HKCharacteristicTypeIdentifierActivityMoveMode",
        ]
        let rows = try Vectors.table("healthkit/enum_objc_names.tsv").filter { identifiers[$0["enum"] ?? ""] != nil }
        #expect(rows.count == 25)
        for row in rows {
            let constant = try #require(row["objc_constant"])
            let me = AppleHealthMe(attributes: [AppleHealthAttribute(name: identifiers[row["enum"]!]!, value: constant)]
            )
            #expect(me.unconverted().isEmpty, "\(constant)")
            if constant.hasSuffix("NotSet") {
                #expect(me.characteristics().isEmpty)
            } else {
                #expect(me.characteristics().count == 1, "\(constant)")
            }
        }
    }
}
