public import HealthModel

/// App ids: reverse-DNS names (`org.example.stepcounter`), ASCII only, so two ids that look alike
/// are the same bytes.
public enum AppID {
    /// The longest app id accepted, in bytes.
    public static let maximumLength = 255

    /// Refuses anything but two or more dot-separated labels of `A-Z a-z 0-9 -` (a label neither
    /// empty nor starting or ending with `-`), at most 255 bytes.
    public static func validate(_ id: String, field: String = "appID") throws(HealthError) {
        let bytes = Array(id.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength else {
            throw .invalidArgument("an app id has 1 to \(maximumLength) bytes", field: field)
        }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else {
            throw .invalidArgument("\"\(id)\" is not a reverse-DNS app id (like org.example.app)", field: field)
        }
        for label in labels {
            guard let first = label.first, let last = label.last, first != UInt8(ascii: "-"),
                last != UInt8(ascii: "-"),
                label.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") })
            else {
                throw .invalidArgument(
                    "\"\(id)\" is not a reverse-DNS app id: each dot-separated part is letters, digits and inner hyphens",
                    field: field
                )
            }
        }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
