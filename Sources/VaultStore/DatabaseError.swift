/// A failure reported by SQLCipher: the result code, its message, and the statement it came from,
/// after GRDB's `DatabaseError` (catch it by code: `catch let error as DatabaseError where
/// error.resultCode == .constraint`).
public struct DatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// SQLite's primary result code.
    public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int32

        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        public static let error = ResultCode(rawValue: 1)
        public static let `internal` = ResultCode(rawValue: 2)
        public static let permission = ResultCode(rawValue: 3)
        public static let abort = ResultCode(rawValue: 4)
        public static let busy = ResultCode(rawValue: 5)
        public static let locked = ResultCode(rawValue: 6)
        public static let noMemory = ResultCode(rawValue: 7)
        public static let readOnly = ResultCode(rawValue: 8)
        public static let ioError = ResultCode(rawValue: 10)
        public static let corrupt = ResultCode(rawValue: 11)
        public static let full = ResultCode(rawValue: 13)
        public static let cannotOpen = ResultCode(rawValue: 14)
        public static let constraint = ResultCode(rawValue: 19)
        public static let mismatch = ResultCode(rawValue: 20)
        public static let misuse = ResultCode(rawValue: 21)
        public static let range = ResultCode(rawValue: 25)
        /// The file is not a database, or not one this key opens.
        public static let notADatabase = ResultCode(rawValue: 26)

        public var description: String { "SQLITE code \(rawValue)" }
    }

    public let resultCode: ResultCode
    /// SQLite's extended result code (`SQLITE_CONSTRAINT_UNIQUE` and so on).
    public let extendedResultCode: Int32
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?

    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.resultCode = ResultCode(rawValue: extendedResultCode & 0xFF)
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        if let sql {
            return "\(message) (\(resultCode), extended \(extendedResultCode)) in: \(sql)"
        }
        return "\(message) (\(resultCode), extended \(extendedResultCode))"
    }
}
