import Foundation

/// Characteristics in words (docs/NAMES.md, "Characteristics"): what the owner types after
/// `healthvault profile set TYPE` and what `profile show` prints, instead of HealthKit's numbers.
extension CharacteristicValue {
    /// The words each characteristic takes (any case), as help and messages list them.
    public static func words(for type: CharacteristicTypeIdentifier) -> [String] {
        switch type {
        case .biologicalSex: ["female", "male", "other"]
        case .bloodType: ["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"]
        case .dateOfBirth: ["YYYY-MM-DD"]
        case .fitzpatrickSkinType: ["I", "II", "III", "IV", "V", "VI"]
        case .wheelchairUse: ["yes", "no"]
        case .activityMoveMode: ["activeEnergy", "moveTime"]
        }
    }

    /// Reads a characteristic from words: `female`; `A+` (also `A positive`, `aPositive`);
    /// `1990-05-01`; `III` (also `type III`); `yes`; `activeEnergy` (also `active energy`,
    /// `moveTime`, `appleMoveTime`). Case and spaces do not matter. `invalidArgument` (field
    /// `value`) naming the words the type takes otherwise.
    public init(_ type: CharacteristicTypeIdentifier, words: String) throws(HealthError) {
        let trimmed = words.trimmingCharacters(in: .whitespaces)
        let key = String(trimmed.lowercased().filter { $0 != " " && $0 != "_" })
        var value: CharacteristicValue?
        switch type {
        case .biologicalSex:
            value = ["female": BiologicalSex.female, "male": .male, "other": .other][key].map(Self.biologicalSex)
        case .bloodType:
            let types: [String: BloodType] = [
                "a+": .aPositive, "a-": .aNegative, "b+": .bPositive, "b-": .bNegative,
                "ab+": .abPositive, "ab-": .abNegative, "o+": .oPositive, "o-": .oNegative,
            ]
            let spelled =
                key.replacingOccurrences(of: "positive", with: "+").replacingOccurrences(of: "negative", with: "-")
            value = types[spelled].map(Self.bloodType)
        case .dateOfBirth:
            let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
            if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
            {
                do {
                    value = .dateOfBirth(try DateOfBirth(year: year, month: month, day: day))
                } catch {
                    throw .invalidArgument("\(trimmed) is not a date of birth: \(error.message)", field: "value")
                }
            }
        case .fitzpatrickSkinType:
            let numeral = key.hasPrefix("type") ? String(key.dropFirst(4)) : key
            let types: [String: FitzpatrickSkinType] = ["i": .I, "ii": .II, "iii": .III, "iv": .IV, "v": .V, "vi": .VI]
            value = types[numeral].map(Self.fitzpatrickSkinType)
        case .wheelchairUse:
            value = ["yes": WheelchairUse.yes, "no": .no][key].map(Self.wheelchairUse)
        case .activityMoveMode:
            let modes: [String: ActivityMoveMode] = [
                "activeenergy": .activeEnergy, "movetime": .appleMoveTime, "applemovetime": .appleMoveTime,
            ]
            value = modes[key].map(Self.activityMoveMode)
        }
        guard let value else {
            let words = Self.words(for: type)
            throw .invalidArgument(
                "\(type.shortName) is \(words.dropLast().joined(separator: ", "))\(words.count > 1 ? " or " : "")"
                    + "\(words.last ?? ""), not \(trimmed)",
                field: "value"
            )
        }
        self = value
    }

    /// The value in words, as `profile show` prints it: `female`, `A+`, `1990-05-01`, `type III`
    /// (Fitzpatrick), `no`, `active energy`; `not set` for HealthKit's `notSet`.
    public var words: String {
        switch self {
        case .biologicalSex(let sex): sex == .notSet ? "not set" : "\(sex)"
        case .bloodType(let type):
            switch type {
            case .notSet: "not set"
            case .aPositive: "A+"
            case .aNegative: "A-"
            case .bPositive: "B+"
            case .bNegative: "B-"
            case .abPositive: "AB+"
            case .abNegative: "AB-"
            case .oPositive: "O+"
            case .oNegative: "O-"
            }
        case .dateOfBirth(let date): date.description
        case .fitzpatrickSkinType(let type): type == .notSet ? "not set" : "type \(type)"
        case .wheelchairUse(let use): use == .notSet ? "not set" : "\(use)"
        case .activityMoveMode(let mode): mode == .activeEnergy ? "active energy" : "move time"
        }
    }
}

extension CharacteristicTypeIdentifier {
    /// The type's short name (``ObjectType/shortName``): `bloodType`.
    public var shortName: String { ObjectType.characteristic(self).shortName }

    /// The characteristic as people call it: `Biological sex`, `Blood type`, `Date of birth`,
    /// `Skin type (Fitzpatrick)`, `Wheelchair use`, `Move mode`.
    public var title: String {
        switch self {
        case .activityMoveMode: "Move mode"
        case .biologicalSex: "Biological sex"
        case .bloodType: "Blood type"
        case .dateOfBirth: "Date of birth"
        case .fitzpatrickSkinType: "Skin type (Fitzpatrick)"
        case .wheelchairUse: "Wheelchair use"
        }
    }
}
