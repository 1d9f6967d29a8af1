/// Why the audit log could not do what was asked: a growable code (as swift-service-lifecycle's
/// errors) and a message a person can act on.
public struct AuditLogError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case malformedEntry, malformedCheckpoint, badSignature, wrongKey, inconsistent, corrupt, io, invalidArgument
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// An entry's bytes are not a canonical entry.
        public static let malformedEntry = Code(.malformedEntry)
        /// A checkpoint is not in the C2SP checkpoint form.
        public static let malformedCheckpoint = Code(.malformedCheckpoint)
        /// A checkpoint's signature does not verify.
        public static let badSignature = Code(.badSignature)
        /// A checkpoint is not signed by the expected key.
        public static let wrongKey = Code(.wrongKey)
        /// Two checkpoints, or a checkpoint and the log, disagree.
        public static let inconsistent = Code(.inconsistent)
        /// The stored log does not fit together.
        public static let corrupt = Code(.corrupt)
        /// A file could not be read or written.
        public static let io = Code(.io)
        /// A caller passed something the log cannot record.
        public static let invalidArgument = Code(.invalidArgument)

        public var description: String { value.rawValue }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
