import HealthModel

/// What makes one exported object that object, for an importer to name it with a stable UUID:
/// the element, its identifying fields (normalized, below) and, for a correlation, its members'
/// identities.
///
/// Exports carry no UUIDs. Re-importing the same data, from the same export or a later one, must
/// name each object the same, and a correlation's member must have the identity of its copy at
/// the top level. So the fields are normalized where one export differs from the next for the
/// same object: dates are instants (a later export writes them in the phone's new time zone), a
/// device loses its object address (`<<HKDevice: 0x283e8c0f0>` becomes `<<HKDevice>`), and numbers
/// are read and written back (`72.0` and `72` are one value). Metadata and creation dates are left
/// out. The reader does not hash; ``bytes`` is the canonical form to hash (docs/APPLE_HEALTH_IMPORT.md).
public struct AppleHealthIdentity: Hashable, Sendable, CustomStringConvertible {
    /// `Record`, `Correlation`, `Workout`, `ActivitySummary`.
    public let element: String
    /// The identifying fields in a fixed order per element; nil where the attribute is absent.
    public let fields: [String?]
    /// A correlation's member records' identities, ordered by their ``bytes``; empty otherwise.
    public let members: [AppleHealthIdentity]

    init(element: String, fields: [String?], members: [AppleHealthIdentity] = []) {
        self.element = element
        self.fields = fields
        self.members = members.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }

    /// The canonical bytes: `AHI1`, then the element name, each field and each member, every
    /// part length-prefixed (4 bytes, big-endian); an absent field is the single byte 0, a present
    /// one the byte 1 and its length-prefixed UTF-8; the members' count (4 bytes) and each
    /// member's bytes, length-prefixed.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        append(to: &out)
        return out
    }

    private func append(to out: inout [UInt8]) {
        func append(length: Int) {
            let value = UInt32(length)
            out.append(UInt8(value >> 24))
            out.append(UInt8(value >> 16 & 0xFF))
            out.append(UInt8(value >> 8 & 0xFF))
            out.append(UInt8(value & 0xFF))
        }
        func append(_ text: String) {
            append(length: text.utf8.count)
            out.append(contentsOf: text.utf8)
        }
        out.append(contentsOf: "AHI1".utf8)
        append(element)
        append(length: fields.count)
        for field in fields {
            if let field {
                out.append(1)
                append(field)
            } else {
                out.append(0)
            }
        }
        append(length: members.count)
        for member in members {
            let bytes = member.bytes
            append(length: bytes.count)
            out.append(contentsOf: bytes)
        }
    }

    public var description: String {
        let parts = fields.map { $0 ?? "-" }.joined(separator: "|")
        let memberText = members.isEmpty ? "" : " [" + members.map(\.description).joined(separator: "; ") + "]"
        return "\(element)(\(parts))\(memberText)"
    }
}

extension AppleHealthIdentity {
    /// A date attribute as an instant (`2020-11-02T16:15:30.000Z`), or as written when it does not
    /// read as a date.
    static func date(_ text: String?) -> String? {
        guard let text else { return nil }
        guard let date = AppleHealthDate(parsing: text) else { return "unparsed:" + text }
        // RFC3339.string(from:)'s bytes, made without its string work for a whole second.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        RFC3339.append(date.date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A number as read back (`72.0` for `72`), or as written when it is not one.
    static func number(_ text: String?) -> String? {
        guard let text else { return nil }
        guard let value = ExportValues.number(text) else { return text }
        return "\(value)"
    }

    static func device(_ text: String?) -> String? {
        text.map(ExportDevice.withoutAddress)
    }
}
