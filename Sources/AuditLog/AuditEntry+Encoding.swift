public import Foundation

/// The canonical byte form of an entry (docs/AUDIT_LOG.md, "Entry encoding"): the Merkle leaf is
/// `SHA-256(0x00 ‖ these bytes)`, so every entry has exactly one encoding and decoding refuses
/// anything else.
///
///     version u8 (1 or 2) ‖ sequence u64 ‖ time i64 (ms since 1970) ‖ actor kind u8 ‖ actor id str
///     ‖ operation str ‖ type count u16 ‖ types str… ‖ object count u64 ‖ outcome u8 ‖ request id str
///     [version 2 only: ‖ attribute count u16 (1-64) ‖ (name str ‖ value str)…]
///
/// Integers big-endian; `str` is a u16 byte length and that many bytes of UTF-8. An entry
/// without attributes is version 1, one with attributes version 2: each entry still has exactly
/// one encoding, and every entry written before attributes existed keeps its bytes.
extension AuditEntry {
    static let encodingVersion: UInt8 = 1
    /// The version of an entry with attributes.
    static let attributesEncodingVersion: UInt8 = 2
    /// Longest string field, in bytes.
    public static let maximumStringLength = 1024
    /// Most types in one entry.
    public static let maximumTypeCount = 512
    /// Most attributes in one entry.
    public static let maximumAttributeCount = 64

    /// The attributes' names in encoding order: their UTF-8 bytes, increasing.
    var sortedAttributeNames: [String] {
        attributes.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Checks what the encoding cannot hold: field lengths, an operation's shape, an app id.
    public func validate() throws(AuditLogError) {
        func check(_ string: String, _ field: String) throws(AuditLogError) {
            guard string.utf8.count <= Self.maximumStringLength else {
                throw AuditLogError(.invalidArgument, "the \(field) is longer than \(Self.maximumStringLength) bytes")
            }
        }
        guard operation.isWellFormed else {
            throw AuditLogError(
                .invalidArgument,
                "an operation is 1-64 of a-z, 0-9, '.' and '-', starting with a letter"
            )
        }
        if case .app(let id) = actor {
            guard !id.isEmpty else { throw AuditLogError(.invalidArgument, "an app actor needs an app id") }
            try check(id, "app id")
        }
        try check(requestID, "request id")
        guard types.count <= Self.maximumTypeCount else {
            throw AuditLogError(.invalidArgument, "an entry names at most \(Self.maximumTypeCount) types")
        }
        for type in types {
            guard !type.isEmpty else { throw AuditLogError(.invalidArgument, "a type identifier is empty") }
            try check(type, "type identifier")
        }
        guard attributes.count <= Self.maximumAttributeCount else {
            throw AuditLogError(.invalidArgument, "an entry has at most \(Self.maximumAttributeCount) attributes")
        }
        for (name, value) in attributes {
            guard Self.isWellFormedName(name) else {
                throw AuditLogError(
                    .invalidArgument,
                    "an attribute's name is 1-64 of a-z, 0-9, '.' and '-', starting with a letter"
                )
            }
            try check(value, "attribute value")
        }
    }

    /// The canonical bytes.
    public func encoded() throws(AuditLogError) -> [UInt8] {
        try validate()
        var out: [UInt8] = []
        out.reserveCapacity(64 + requestID.utf8.count + types.reduce(0) { $0 + 2 + $1.utf8.count })
        out.append(attributes.isEmpty ? Self.encodingVersion : Self.attributesEncodingVersion)
        out.appendInteger(sequence)
        out.appendInteger(Self.milliseconds(time))
        switch actor {
        case .system:
            out.append(0)
            out.appendString("")
        case .owner:
            out.append(1)
            out.appendString("")
        case .app(let id):
            out.append(2)
            out.appendString(id)
        }
        out.appendString(operation.rawValue)
        out.appendInteger(UInt16(types.count))
        for type in types { out.appendString(type) }
        out.appendInteger(objectCount)
        out.append(outcome.rawValue)
        out.appendString(requestID)
        if !attributes.isEmpty {
            out.appendInteger(UInt16(attributes.count))
            for name in sortedAttributeNames {
                out.appendString(name)
                out.appendString(attributes[name] ?? "")
            }
        }
        return out
    }

    /// Decodes canonical bytes, refusing any other form: a wrong version, a truncated or overlong
    /// field, invalid UTF-8, unsorted or repeated types, an unknown actor kind or outcome, trailing
    /// bytes.
    public init(decoding bytes: some Collection<UInt8>) throws(AuditLogError) {
        var reader = ByteReader(bytes as? [UInt8] ?? Array(bytes))
        let version = try reader.byte()
        guard version == Self.encodingVersion || version == Self.attributesEncodingVersion else {
            throw AuditLogError(.malformedEntry, "the entry's encoding version is not 1 or 2")
        }
        let sequence = try reader.uint64()
        let milliseconds = Int64(bitPattern: try reader.uint64())
        let kind = try reader.byte()
        let actorID = try reader.string()
        let actor: Actor
        switch kind {
        case 0 where actorID.isEmpty: actor = .system
        case 1 where actorID.isEmpty: actor = .owner
        case 2 where !actorID.isEmpty: actor = .app(actorID)
        default: throw AuditLogError(.malformedEntry, "the entry's actor is malformed")
        }
        let operation = Operation(rawValue: try reader.string())
        guard operation.isWellFormed else { throw AuditLogError(.malformedEntry, "the entry's operation is malformed") }
        let typeCount = try reader.uint16()
        guard typeCount <= Self.maximumTypeCount else {
            throw AuditLogError(.malformedEntry, "the entry names more than \(Self.maximumTypeCount) types")
        }
        var types: [String] = []
        for _ in 0..<typeCount {
            let type = try reader.string()
            if let last = types.last, !last.utf8.lexicographicallyPrecedes(type.utf8) {
                throw AuditLogError(.malformedEntry, "the entry's types are not sorted and distinct")
            }
            guard !type.isEmpty else { throw AuditLogError(.malformedEntry, "the entry names an empty type") }
            types.append(type)
        }
        let objectCount = try reader.uint64()
        guard let outcome = Outcome(rawValue: try reader.byte()) else {
            throw AuditLogError(.malformedEntry, "the entry's outcome is unknown")
        }
        let requestID = try reader.string()
        var attributes: [String: String] = [:]
        if version == Self.attributesEncodingVersion {
            let count = try reader.uint16()
            guard (1...Self.maximumAttributeCount).contains(Int(count)) else {
                throw AuditLogError(
                    .malformedEntry,
                    "a version 2 entry has 1 to \(Self.maximumAttributeCount) attributes"
                )
            }
            var last: String?
            for _ in 0..<count {
                let name = try reader.string()
                guard Self.isWellFormedName(name) else {
                    throw AuditLogError(.malformedEntry, "the entry has a malformed attribute name")
                }
                if let last, !last.utf8.lexicographicallyPrecedes(name.utf8) {
                    throw AuditLogError(.malformedEntry, "the entry's attributes are not sorted and distinct")
                }
                attributes[name] = try reader.string()
                last = name
            }
        }
        guard reader.isAtEnd else { throw AuditLogError(.malformedEntry, "the entry has bytes after its last field") }
        self.init(
            sequence: sequence,
            time: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
            actor: actor,
            operation: operation,
            types: types,
            objectCount: objectCount,
            outcome: outcome,
            requestID: requestID,
            attributes: attributes
        )
        // Dates this far out do not survive the round trip through a double.
        guard Self.milliseconds(time) == milliseconds else {
            throw AuditLogError(.malformedEntry, "the entry's time is out of range")
        }
    }
}

extension [UInt8] {
    mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    mutating func appendString(_ string: String) {
        appendInteger(UInt16(string.utf8.count))
        append(contentsOf: string.utf8)
    }
}

/// Reads the canonical encoding front to back, refusing truncation.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() throws(AuditLogError) -> UInt8 {
        guard offset < bytes.count else { throw AuditLogError(.malformedEntry, "the entry is truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }

    // Concrete widths, not a generic: the verifier decodes millions of entries.
    mutating func uint16() throws(AuditLogError) -> UInt16 {
        guard bytes.count - offset >= 2 else { throw AuditLogError(.malformedEntry, "the entry is truncated") }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func uint64() throws(AuditLogError) -> UInt64 {
        guard bytes.count - offset >= 8 else { throw AuditLogError(.malformedEntry, "the entry is truncated") }
        var value: UInt64 = 0
        for index in offset..<offset + 8 {
            value = value << 8 | UInt64(bytes[index])
        }
        offset += 8
        return value
    }

    mutating func string() throws(AuditLogError) -> String {
        let length = Int(try uint16())
        guard length <= AuditEntry.maximumStringLength, bytes.count - offset >= length else {
            throw AuditLogError(.malformedEntry, "the entry has a truncated or overlong text field")
        }
        let slice = bytes[offset..<offset + length]
        offset += length
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw AuditLogError(.malformedEntry, "the entry has a text field that is not UTF-8")
        }
        return string
    }
}
