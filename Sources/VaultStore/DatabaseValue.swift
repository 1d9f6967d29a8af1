public import Foundation

/// A value bound to or read from SQL.
public enum DatabaseValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var int64: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(exactly: value)
        default: nil
        }
    }

    public var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    public var string: String? {
        if case .text(let value) = self { value } else { nil }
    }

    public var bytes: [UInt8]? {
        if case .blob(let value) = self { value } else { nil }
    }

    public var isNull: Bool { self == .null }
}

/// Values that bind as SQL parameters.
public protocol DatabaseValueConvertible {
    var databaseValue: DatabaseValue { get }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
}

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(self) }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
}

extension DatabaseValue {
    /// A UUID as the store keeps it: its 16 bytes.
    public static func uuid(_ uuid: UUID) -> DatabaseValue { .blob(uuid.bytes) }

    /// The UUID a 16-byte blob holds.
    public var uuid: UUID? { bytes.flatMap(UUID.init(bytes:)) }
}
