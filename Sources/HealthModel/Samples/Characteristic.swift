/// The value of one characteristic: a fact about the owner, set by the owner.
///
/// JSON: `{"type": "<HealthKit identifier>", "value": <raw value>}`; the date of birth's value is
/// `{"year": 1984, "month": 2, "day": 29}`.
public enum CharacteristicValue: Hashable, Sendable, Codable {
    case activityMoveMode(ActivityMoveMode)
    case biologicalSex(BiologicalSex)
    case bloodType(BloodType)
    case dateOfBirth(DateOfBirth)
    case fitzpatrickSkinType(FitzpatrickSkinType)
    case wheelchairUse(WheelchairUse)

    public var type: CharacteristicTypeIdentifier {
        switch self {
        case .activityMoveMode: .activityMoveMode
        case .biologicalSex: .biologicalSex
        case .bloodType: .bloodType
        case .dateOfBirth: .dateOfBirth
        case .fitzpatrickSkinType: .fitzpatrickSkinType
        case .wheelchairUse: .wheelchairUse
        }
    }

    private enum CodingKeys: String, CodingKey {
        case type, value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(CharacteristicTypeIdentifier.self, forKey: .type) {
        case .activityMoveMode: self = .activityMoveMode(try container.decode(ActivityMoveMode.self, forKey: .value))
        case .biologicalSex: self = .biologicalSex(try container.decode(BiologicalSex.self, forKey: .value))
        case .bloodType: self = .bloodType(try container.decode(BloodType.self, forKey: .value))
        case .dateOfBirth: self = .dateOfBirth(try container.decode(DateOfBirth.self, forKey: .value))
        case .fitzpatrickSkinType:
            self = .fitzpatrickSkinType(try container.decode(FitzpatrickSkinType.self, forKey: .value))
        case .wheelchairUse: self = .wheelchairUse(try container.decode(WheelchairUse.self, forKey: .value))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .activityMoveMode(let value): try container.encode(value, forKey: .value)
        case .biologicalSex(let value): try container.encode(value, forKey: .value)
        case .bloodType(let value): try container.encode(value, forKey: .value)
        case .dateOfBirth(let value): try container.encode(value, forKey: .value)
        case .fitzpatrickSkinType(let value): try container.encode(value, forKey: .value)
        case .wheelchairUse(let value): try container.encode(value, forKey: .value)
        }
    }
}

/// The owner's date of birth as a calendar day (HealthKit gives `DateComponents`: no time, no zone).
public struct DateOfBirth: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date of birth, or throws `invalidArgument` for a day that does not exist or a year
    /// outside 1850...9999.
    public init(year: Int, month: Int, day: Int) throws(HealthError) {
        guard (1850...9999).contains(year) else {
            throw .invalidArgument("the year must be between 1850 and 9999", field: "year")
        }
        guard (1...12).contains(month) else {
            throw .invalidArgument("the month must be between 1 and 12", field: "month")
        }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else {
            throw .invalidArgument("that day does not exist in that month", field: "day")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    private enum CodingKeys: String, CodingKey {
        case year, month, day
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let year = try container.decode(Int.self, forKey: .year)
        let month = try container.decode(Int.self, forKey: .month)
        let day = try container.decode(Int.self, forKey: .day)
        self = try validating(decoder) { () throws(HealthError) in
            try DateOfBirth(year: year, month: month, day: day)
        }
    }

    public static func < (lhs: DateOfBirth, rhs: DateOfBirth) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `1984-02-29`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }
}
