/// The one error type of HealthVault: a growable code, a message a person can act on, and the
/// field it is about.
///
/// Codes mirror HealthKit's `HKError.Code` where one exists, so an app ported from HealthKit
/// handles the same cases. The code is a string on the wire (`"invalidArgument"`), so a newer
/// vault can add codes without breaking older clients: an unknown code decodes as itself.
public struct HealthError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// What went wrong, in a form a program can switch on.
    public var code: Code
    /// What went wrong and how to fix it, for a person. Never contains a health value.
    public var message: String
    /// The path of the offending field, when the error is about one input field
    /// (`"endDate"`, `"quantity.unit"`, `"objects[1].type"`).
    public var field: String?

    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// An `invalidArgument` error about one field.
    public static func invalidArgument(_ message: String, field: String? = nil) -> HealthError {
        HealthError(.invalidArgument, message, field: field)
    }

    public var description: String {
        if let field {
            return "\(code): \(field): \(message)"
        }
        return "\(code): \(message)"
    }

    /// Prefixes `field` with an enclosing path, so nested validation reports the full path.
    public func nested(in parent: String) -> HealthError {
        var copy = self
        if let field {
            copy.field = field.hasPrefix("[") ? parent + field : parent + "." + field
        } else {
            copy.field = parent
        }
        return copy
    }
}

extension HealthError {
    /// A growable error code; its raw value is the stable wire spelling.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public init(from decoder: any Decoder) throws {
            self.rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public var description: String { rawValue }

        /// An unexpected failure.
        public static let unknownError = Code(rawValue: "unknownError")
        /// The vault is not available on this machine or to this user.
        public static let healthDataUnavailable = Code(rawValue: "healthDataUnavailable")
        /// The vault is available but restricted (for example by policy).
        public static let healthDataRestricted = Code(rawValue: "healthDataRestricted")
        /// A parameter is malformed, out of range, or of the wrong type or unit.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// The app may not share (write) this type.
        public static let authorizationDenied = Code(rawValue: "authorizationDenied")
        /// The app has not yet asked for access to this type.
        public static let authorizationNotDetermined = Code(rawValue: "authorizationNotDetermined")
        /// The vault is locked or its database cannot be opened.
        public static let databaseInaccessible = Code(rawValue: "databaseInaccessible")
        /// The user declined a request.
        public static let userCanceled = Code(rawValue: "userCanceled")
        /// The app asked for access and the owner denied a type it requires.
        public static let requiredAuthorizationDenied = Code(rawValue: "requiredAuthorizationDenied")
        /// The requested object or value does not exist (or is not visible).
        public static let noData = Code(rawValue: "noData")
        /// A request or value exceeds a size limit.
        public static let dataSizeExceeded = Code(rawValue: "dataSizeExceeded")
        /// The app started another workout session, which ended this one.
        public static let anotherWorkoutSessionStarted = Code(rawValue: "anotherWorkoutSessionStarted")

        /// The matching `HKError.Code` raw value, where HealthKit has this code.
        public var healthKitCode: Int? {
            switch self {
            case .healthDataUnavailable: 1
            case .healthDataRestricted: 2
            case .invalidArgument: 3
            case .authorizationDenied: 4
            case .authorizationNotDetermined: 5
            case .databaseInaccessible: 6
            case .userCanceled: 7
            case .anotherWorkoutSessionStarted: 8
            case .requiredAuthorizationDenied: 10
            case .noData: 11
            case .dataSizeExceeded: 13
            default: nil
            }
        }
    }
}
