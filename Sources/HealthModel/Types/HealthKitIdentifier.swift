/// An identifier spelled as HealthKit spells it, read and written as that string.
///
/// Decoding an unknown string throws a ``HealthError`` with code `invalidArgument` naming the
/// string, not a bare `DecodingError`, so the wire protocol can pass the reason on.
public protocol HealthKitIdentifier: RawRepresentable<String>, CaseIterable, Hashable, Sendable, Codable,
    CustomStringConvertible
where AllCases == [Self] {
    /// What kind of identifier this is, for messages ("quantity type").
    static var kindName: String { get }
}

extension HealthKitIdentifier {
    /// Reads HealthKit's string (`HKQuantityTypeIdentifierStepCount`).
    public init(healthKitString string: String) throws(HealthError) {
        guard let value = Self(rawValue: string) else {
            throw HealthError.invalidArgument("unknown \(Self.kindName) identifier \"\(string)\"", field: "type")
        }
        self = value
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let string = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(healthKitString: string)
        } catch {
            throw error.field(at: decoder.codingPath)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A HealthKit enumeration (category values, characteristics, workout activities, metadata values),
/// carried as HealthKit's integer raw value.
public protocol HealthKitEnumeration: RawRepresentable<Int>, CaseIterable, Hashable, Sendable, Codable
where AllCases == [Self] {
    /// HealthKit's name of the enumeration (`HKBloodType`).
    static var healthKitName: String { get }
    /// The case's Objective-C constant, the spelling Apple Health exports use
    /// (`HKCategoryValueSleepAnalysisAsleepREM`, `HKBloodTypeABPositive`).
    var healthKitConstant: String { get }
}

extension HealthKitEnumeration {
    /// Reads a raw value, or throws `invalidArgument` naming the enumeration.
    public init(validating rawValue: Int, field: String? = nil) throws(HealthError) {
        guard let value = Self(rawValue: rawValue) else {
            throw HealthError.invalidArgument("not a value of \(Self.healthKitName)", field: field)
        }
        self = value
    }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(Int.self)
        try self.init(validating: raw, field: codingPathString(decoder.codingPath))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension QuantityTypeIdentifier {
    public static var kindName: String { "quantity type" }
}

extension CategoryTypeIdentifier {
    public static var kindName: String { "category type" }
}

extension HealthKitEnumeration {
    /// The Swift case name of each case with its raw value (deprecated aliases excluded).
    public static var namedCases: [(name: String, rawValue: Int)] {
        allCases.map { ("\($0)", $0.rawValue) }
    }
}

extension HealthKitEnumeration {
    /// The constant formed from the enumeration name and the capitalized case name, right where
    /// HealthKit's spelling has no acronyms (`HKWorkoutEventTypePause`).
    var constantFromCaseName: String {
        let name = "\(self)"
        return Self.healthKitName + name.prefix(1).uppercased() + name.dropFirst()
    }
}
