public import Foundation

/// Extra facts about a sample, keyed by ``MetadataKey``.
public typealias Metadata = [MetadataKey: MetadataValue]

/// One metadata value: a string, a number, a date or a quantity, as in HealthKit.
///
/// JSON: a string is a JSON string, a number a JSON number (booleans are 0 and 1, as HealthKit's
/// `NSNumber`), a date `{"date": "<RFC 3339>"}`, a quantity `{"value": 1.5, "unit": "km"}`.
public enum MetadataValue: Hashable, Sendable, Codable {
    case string(String)
    case number(Double)
    case date(Date)
    case quantity(Quantity)

    /// A boolean, stored as the number 1 or 0.
    public static func bool(_ value: Bool) -> MetadataValue { .number(value ? 1 : 0) }

    private enum DateKey: String, CodingKey {
        case date
    }

    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else if let keyed = try? decoder.container(keyedBy: DateKey.self) {
            if keyed.contains(.date) {
                self = .date(try keyed.decode(Date.self, forKey: .date))
            } else {
                self = .quantity(try single.decode(Quantity.self))
            }
        } else {
            // null, a list, a string that is not Unicode (a lone surrogate), a number too large.
            throw HealthError.invalidArgument(
                #"a metadata value is a string of Unicode text, a number within the range of a double, true or false, a date {"date": ...} or a quantity {"value", "unit"}"#
            )
            .located(at: decoder.codingPath)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .number(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .date(let date):
            var container = encoder.container(keyedBy: DateKey.self)
            try container.encode(date, forKey: .date)
        case .quantity(let quantity):
            var container = encoder.singleValueContainer()
            try container.encode(quantity)
        }
    }
}

/// What kind of value a well-known metadata key takes.
public enum MetadataValueKind: Hashable, Sendable {
    case any
    case string
    /// A string naming a time zone (`Europe/Paris`).
    case timeZoneName
    case number
    /// A whole number.
    case integer
    /// 0 or 1.
    case boolean
    /// A whole number among the raw values of the named HealthKit enumeration.
    case enumeration([Int], name: String)
    case date
    /// A quantity whose unit is compatible with this unit string.
    case quantity(compatibleWith: String)
    /// A quantity compatible with the unit of the quantity sample that carries it.
    case quantityCompatibleWithSample
}

extension MetadataKey: CodingKeyRepresentable {
    public var codingKey: any CodingKey { MetadataCodingKey(stringValue: rawValue) }

    public init?<T: CodingKey>(codingKey: T) {
        self.init(rawValue: codingKey.stringValue)
    }

    private struct MetadataCodingKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
