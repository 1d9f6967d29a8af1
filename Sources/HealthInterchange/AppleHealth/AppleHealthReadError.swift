/// Why an Apple Health export could not be read to its end: the one error of ``AppleHealthReader``,
/// with a growable code, a message a person can act on, and where in the file it happened.
///
/// Items delivered before the error were read whole; the caller decides whether to keep them. A
/// ``Code-swift.struct/truncated`` file is the outcome to expect from an interrupted copy or
/// export: the file ends before `</HealthData>`, and nothing after the cut exists.
public struct AppleHealthReadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Code
    /// What went wrong, for a person; it never repeats a health value.
    public var message: String
    /// The offset in bytes from the start of the file where the problem was found (for a
    /// truncated file: where the incomplete element or tag begins, or the file's length when
    /// every element ended).
    public var byteOffset: Int?
    /// The 1-based line of ``byteOffset``.
    public var line: Int?
    /// How many top-level elements (children of `HealthData`, including `ExportDate`, `Me` and
    /// unsupported ones) were read whole before the problem.
    public var completeItems: Int?

    public init(
        _ code: Code,
        _ message: String,
        byteOffset: Int? = nil,
        line: Int? = nil,
        completeItems: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
        self.line = line
        self.completeItems = completeItems
    }

    public var description: String {
        "\(code): \(located)"
    }

    /// The message and where, for a person: without the code, which is for programs.
    public var located: String {
        if let line, let byteOffset { return message + " (line \(line), byte \(byteOffset))" }
        if let byteOffset { return message + " (byte \(byteOffset))" }
        return message
    }
}

extension AppleHealthReadError {
    /// A growable error code; its raw value is a stable spelling.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// The file ends before the export does: inside a tag or an element, or before
        /// `</HealthData>`.
        public static let truncated = Code(rawValue: "truncated")
        /// Bytes that are not the XML Apple writes (a stray `<`, an attribute without quotes,
        /// an end tag that closes another element).
        public static let malformed = Code(rawValue: "malformed")
        /// Well-formed XML, but not an Apple Health export (its root is not `HealthData`).
        public static let notAnExport = Code(rawValue: "notAnExport")
        /// One tag, or one element's children, exceeds the reader's limits.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// The file cannot be opened or read.
        public static let unreadable = Code(rawValue: "unreadable")
    }
}
