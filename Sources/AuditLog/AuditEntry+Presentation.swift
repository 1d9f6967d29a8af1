public import Foundation

/// Which entries a person wants to read: by app, type, operation, outcome and time.
public struct AuditEntryFilter: Sendable, Hashable {
    public var app: String?
    public var type: String?
    public var operation: AuditEntry.Operation?
    public var outcome: AuditEntry.Outcome?
    /// Entries at or after this time.
    public var from: Date?
    /// Entries before this time.
    public var to: Date?

    public init(
        app: String? = nil,
        type: String? = nil,
        operation: AuditEntry.Operation? = nil,
        outcome: AuditEntry.Outcome? = nil,
        from: Date? = nil,
        to: Date? = nil
    ) {
        self.app = app
        self.type = type
        self.operation = operation
        self.outcome = outcome
        self.from = from
        self.to = to
    }

    public func matches(_ entry: AuditEntry) -> Bool {
        if let app, entry.actor != .app(app) { return false }
        if let type, !entry.types.contains(type) { return false }
        if let operation, entry.operation != operation { return false }
        if let outcome, entry.outcome != outcome { return false }
        if let from, entry.time < from { return false }
        if let to, entry.time >= to { return false }
        return true
    }
}

extension AuditEntry {
    /// The column titles of ``tableRow``.
    public static let tableHeader = [
        "SEQ", "TIME (UTC)", "ACTOR", "OPERATION", "OUTCOME", "OBJECTS", "TYPES", "REQUEST",
    ]

    /// The entry as table cells, in the order of ``tableHeader``.
    public var tableRow: [String] {
        [
            String(sequence), Self.timestamp(time), actor.description, operation.rawValue, outcome.description,
            String(objectCount), types.joined(separator: ","), requestID,
        ]
    }

    /// The attributes as one cell: `name=value` in the encoding's order, separated by spaces.
    public var attributesText: String {
        sortedAttributeNames.map { "\($0)=\(attributes[$0] ?? "")" }.joined(separator: " ")
    }

    /// Cells aligned in columns, one line per row, the header first; a last `DETAILS` column
    /// (``attributesText``) when any entry has attributes.
    public static func table(_ entries: [AuditEntry]) -> String {
        let details = entries.contains { !$0.attributes.isEmpty }
        let header = tableHeader + (details ? ["DETAILS"] : [])
        let rows = [header] + entries.map { $0.tableRow + (details ? [$0.attributesText] : []) }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// The entry as one line of JSON (keys sorted), for `jq` and other tools:
    /// `{"actor":{"id":"…","kind":"app"},"objectCount":3,"operation":"query.sample","outcome":"ok",`
    /// `"requestID":"…","sequence":7,"time":"2026-09-21T14:13:20.125Z","types":["…"]}`; `requestID`
    /// and `types` are absent when empty, as the command line's JSON leaves out empty members, and
    /// `attributes` (an object of strings) is there only for an entry that has some.
    public var jsonLine: String {
        struct Line: Encodable {
            struct Actor: Encodable {
                let kind: String
                let id: String?
            }
            let sequence: UInt64
            let time: String
            let actor: Actor
            let operation: String
            let types: [String]?
            let objectCount: UInt64
            let outcome: String
            let requestID: String?
            let attributes: [String: String]?
        }
        let kind: String
        let id: String?
        switch actor {
        case .system: (kind, id) = ("system", nil)
        case .owner: (kind, id) = ("owner", nil)
        case .app(let app): (kind, id) = ("app", app)
        }
        let line = Line(
            sequence: sequence,
            time: Self.timestamp(time),
            actor: Line.Actor(kind: kind, id: id),
            operation: operation.rawValue,
            types: types.isEmpty ? nil : types,
            objectCount: objectCount,
            outcome: outcome.description,
            requestID: requestID.isEmpty ? nil : requestID,
            attributes: attributes.isEmpty ? nil : attributes
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// An instant as attributes give it (docs/AUDIT_LOG.md, "Attributes"): RFC 3339 in UTC with
    /// exactly three fractional digits, the millisecond below the instant.
    public static func attributeTime(_ date: Date) -> String { timestamp(date) }

    /// RFC 3339 in UTC with milliseconds: `2026-09-21T14:13:20.125Z`.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = milliseconds(date)
        let seconds = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = seconds.remainder < 0 ? seconds.quotient - 1 : seconds.quotient
        let fraction = seconds.remainder < 0 ? seconds.remainder + 1000 : seconds.remainder
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second],
            from: Date(timeIntervalSince1970: Double(whole))
        )
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
            parts.year ?? 0,
            parts.month ?? 0,
            parts.day ?? 0,
            parts.hour ?? 0,
            parts.minute ?? 0,
            parts.second ?? 0,
            Int(fraction)
        )
    }
}
