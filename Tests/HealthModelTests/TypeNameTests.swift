import Foundation
import HealthModel
import Testing

/// The names people give types and characteristics (docs/NAMES.md).
struct TypeNameTests {
    /// Every name a type goes by, as docs/NAMES.md lists the forms.
    static func names(of type: ObjectType) -> [String] {
        let short = type.shortName
        return [
            type.identifier, short, short.lowercased(), short.uppercased(),
            short.prefix(1).uppercased() + short.dropFirst(),
            // Words apart: stepCount as step_count, step-count, "step count".
            short.reduce(into: "") { text, character in
                if character.isUppercase, !text.isEmpty { text.append("_") }
                text.append(character)
            },
        ]
    }

    @Test func everyTypeIsFoundByEachOfItsNamesAndNoNameNamesTwoTypes() throws {
        var meaning: [String: ObjectType] = [:]
        for type in ObjectType.allTypes {
            for name in Self.names(of: type) {
                #expect(ObjectType.named(name) == type, "\(name)")
                #expect(try ObjectType.resolving(name) == type, "\(name)")
                let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
                if let other = meaning[key] {
                    #expect(other == type, "\(name) names \(other) and \(type)")
                }
                meaning[key] = type
            }
        }
        for (alias, type) in ObjectType.aliases {
            let key = alias.lowercased()
            #expect(meaning[key] == nil, "the alias \(alias) is already \(String(describing: meaning[key]))")
            meaning[key] = type
            #expect(ObjectType.named(alias.uppercased()) == type)
        }
        #expect(Set(ObjectType.allTypes.map(\.shortName)).count == ObjectType.allTypes.count)
    }

    @Test func theNamesANewcomerTriesWork() throws {
        #expect(ObjectType.named("steps") == .quantity(.stepCount))
        #expect(ObjectType.named("stepcount") == .quantity(.stepCount))
        #expect(ObjectType.named("STEPCOUNT") == .quantity(.stepCount))
        #expect(ObjectType.named("heart_rate") == .quantity(.heartRate))
        #expect(ObjectType.named("Heart Rate") == .quantity(.heartRate))
        #expect(ObjectType.named("sleep") == .category(.sleepAnalysis))
        #expect(ObjectType.named("weight") == .quantity(.bodyMass))
        #expect(ObjectType.named("workout") == .workout)
        #expect(ObjectType.named("activitySummary") == .activitySummary)
        #expect(ObjectType.named("activity_summary") == .activitySummary)
        #expect(ObjectType.named("HKWorkoutTypeIdentifier") == .workout)
        #expect(ObjectType.named("bloodType") == .characteristic(.bloodType))
        #expect(ObjectType.named("skinType") == .characteristic(.fitzpatrickSkinType))
        // Older spellings still name their types.
        #expect(ObjectType.named("gAD7") == .scoredAssessment(.gad7))
        #expect(ObjectType.named("audioExposureEvent") == .category(.environmentalAudioExposureEvent))
    }

    @Test func shortNamesAreHealthKitsSwiftNames() throws {
        #expect(ObjectType.quantity(.stepCount).shortName == "stepCount")
        #expect(ObjectType.quantity(.uvExposure).shortName == "uvExposure")
        #expect(ObjectType.quantity(.vo2Max).shortName == "vo2Max")
        #expect(ObjectType.quantity(.heartRateVariabilitySDNN).shortName == "heartRateVariabilitySDNN")
        #expect(ObjectType.scoredAssessment(.gad7).shortName == "gad7")
        #expect(ObjectType.scoredAssessment(.phq9).shortName == "phq9")
        #expect(ObjectType.category(.environmentalAudioExposureEvent).shortName == "environmentalAudioExposureEvent")
        #expect(ObjectType.stateOfMind.shortName == "stateOfMind")
        #expect(ObjectType.workoutRoute.shortName == "workoutRoute")
        #expect(ObjectType.electrocardiogram.shortName == "electrocardiogram")
        #expect(ObjectType.characteristic(.dateOfBirth).shortName == "dateOfBirth")
        // The rule gives HealthVault's own Swift case names, which are HealthKit's, read from the source.
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/HealthModel/Types")
        var checked = 0
        for file in [
            "QuantityTypeIdentifier.swift", "CategoryTypeIdentifier.swift", "CharacteristicTypeIdentifier.swift",
        ] {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count == 4, words[0] == "case", words[2] == "=",
                    let type = try? ObjectType(identifier: String(words[3].dropFirst().dropLast()))
                else { continue }
                #expect(type.shortName == words[1], "\(line)")
                checked += 1
            }
        }
        #expect(checked == 120 + 68 + 6)
    }

    @Test func aNameThatNamesNothingSuggestsTheClosest() throws {
        #expect(ObjectType.suggestions(for: "stepcont") == ["stepCount"])
        #expect(ObjectType.suggestions(for: "Step-Coutn").first == "stepCount")
        #expect(ObjectType.suggestions(for: "heartrat").first == "heartRate")
        #expect(ObjectType.suggestions(for: "workouts").first == "workout")
        #expect(ObjectType.suggestions(for: "zzzzzzzz").isEmpty)
        #expect(ObjectType.suggestions(for: "HKCategoryTypeIdentifierMenstrualFlw") == ["menstrualFlow"])
        #expect(ObjectType.suggestions(for: "HKWorkoutsTypeIdentifier").first == "workout")
        // Close to an alias: the alias, with the short name it stands for; one suggestion per type.
        #expect(ObjectType.suggestions(for: "wieght").first == "weight (bodyMass)")
        #expect(ObjectType.suggestions(for: "stpes") == ["steps (stepCount)"])
        #expect(ObjectType.suggestions(for: "slep") == ["sleep (sleepAnalysis)"])
        do {
            _ = try ObjectType.resolving("stepcont")
            Issue.record("stepcont named a type")
        } catch {
            #expect(error.code == .invalidArgument && error.field == "type")
            #expect(
                error.message
                    == #"unknown type "stepcont"; did you mean stepCount? (`healthvault types` lists every type)"#
            )
        }
        #expect(throws: HealthError.self) { try ObjectType.resolving("") }
    }

    @Test func documentsAndVisionPrescriptionsAreNamedByEveryName() throws {
        // The last HealthKit types HealthVault did not store (schema 16 stores them).
        for name in ["HKDocumentTypeIdentifierCDA", "cda", "CDA"] {
            #expect(try ObjectType.resolving(name) == .document(.cda), "\(name)")
        }
        for name in ["HKVisionPrescriptionTypeIdentifier", "visionPrescription", "vision_prescription"] {
            #expect(try ObjectType.resolving(name) == .visionPrescription, "\(name)")
        }
        // A constant's name in place of HealthKit's identifier says how HealthKit spells it.
        do {
            _ = try ObjectType.resolving("HKDataTypeIdentifierStateOfMind")
            Issue.record("the constant's name resolved")
        } catch {
            #expect(error.message.contains("HKDataTypeStateOfMind"))
        }
    }

    @Test func everyAliasIsDocumentedInNames() throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/NAMES.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "**Aliases.**").dropFirst().first)
        var documented: [String: String] = [:]
        for line in section.components(separatedBy: "\n").prefix(while: { !$0.hasPrefix("Aliases follow") })
        where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
            documented[cells[0]] = cells[1]
        }
        #expect(
            documented == Dictionary(uniqueKeysWithValues: ObjectType.aliases.map { ($0.alias, $0.type.shortName) })
        )
    }

    @Test func everyCharacteristicValueReadsBackFromItsWords() throws {
        var values: [CharacteristicValue] =
            BiologicalSex.allCases.map(CharacteristicValue.biologicalSex)
            + BloodType.allCases.map(CharacteristicValue.bloodType)
            + FitzpatrickSkinType.allCases.map(CharacteristicValue.fitzpatrickSkinType)
            + WheelchairUse.allCases.map(CharacteristicValue.wheelchairUse)
            + ActivityMoveMode.allCases.map(CharacteristicValue.activityMoveMode)
        values.append(.dateOfBirth(try DateOfBirth(year: 1990, month: 5, day: 1)))
        for value in values where value.words != "not set" {
            #expect(try CharacteristicValue(value.type, words: value.words) == value, "\(value.words)")
            #expect(try CharacteristicValue(value.type, words: value.words.uppercased()) == value, "\(value.words)")
        }
        #expect(try CharacteristicValue(.bloodType, words: "A+") == .bloodType(.aPositive))
        #expect(try CharacteristicValue(.bloodType, words: "ab-") == .bloodType(.abNegative))
        #expect(try CharacteristicValue(.bloodType, words: "O positive") == .bloodType(.oPositive))
        #expect(try CharacteristicValue(.biologicalSex, words: "Female") == .biologicalSex(.female))
        #expect(try CharacteristicValue(.fitzpatrickSkinType, words: "iii") == .fitzpatrickSkinType(.III))
        #expect(try CharacteristicValue(.wheelchairUse, words: "no") == .wheelchairUse(.no))
        #expect(try CharacteristicValue(.activityMoveMode, words: "move time") == .activityMoveMode(.appleMoveTime))
        #expect(CharacteristicValue.bloodType(.abPositive).words == "AB+")
        #expect(CharacteristicValue.fitzpatrickSkinType(.IV).words == "type IV")
        // Words a type does not take, and days that do not exist, say what it takes.
        do {
            _ = try CharacteristicValue(.bloodType, words: "C+")
            Issue.record("C+ is a blood type")
        } catch {
            #expect(error.message == "bloodType is A+, A-, B+, B-, AB+, AB-, O+ or O-, not C+")
        }
        #expect(throws: HealthError.self) { try CharacteristicValue(.dateOfBirth, words: "1990-02-30") }
        #expect(throws: HealthError.self) { try CharacteristicValue(.dateOfBirth, words: "05/01/1990") }
        #expect(throws: HealthError.self) { try CharacteristicValue(.biologicalSex, words: "1") }
    }
}
