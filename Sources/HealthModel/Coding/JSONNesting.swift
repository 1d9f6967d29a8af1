public import Foundation

/// How deeply a JSON text nests its arrays and objects, found by a scan of its bytes.
///
/// Foundation's JSON scanner stops at 512 levels, and when the 513th opens at the very last byte
/// it traps instead of throwing (docs/PROTOCOL.md, "Framing"). Nothing from outside the process
/// reaches it unless this scan, or a ``JSONReader`` reading with ``maximumDepth`` (the fast
/// readers, which decode only what they have walked), has found the text within ``maximumDepth``.
public enum JSONNesting {
    /// The deepest nesting HealthVault reads: a request with the deepest predicate
    /// (``SamplePredicate/maximumDepth``, two levels each) fits with room to spare.
    public static let maximumDepth = 128

    /// Whether `bytes` nest arrays and objects no deeper than `limit`. Brackets inside strings do
    /// not count; the scan does not check that the text is otherwise JSON.
    public static func isWithin(_ bytes: UnsafeRawBufferPointer, limit: Int = maximumDepth) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return false }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
        return true
    }

    public static func isWithin(_ data: Data, limit: Int = maximumDepth) -> Bool {
        data.withUnsafeBytes { isWithin($0, limit: limit) }
    }

    /// The error for a text nested deeper than `limit`.
    public static func tooDeep(_ limit: Int = maximumDepth) -> HealthError {
        .invalidArgument("malformed JSON: arrays and objects nested deeper than \(limit) levels")
    }
}
