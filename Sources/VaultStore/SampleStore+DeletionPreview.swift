public import Foundation
public import HealthModel

/// What a delete would take, told before it is done (issue 22): how many samples, of which types,
/// from which sources, over which dates. No value is read.
public struct DeletionPreview: Hashable, Sendable {
    /// The samples of one type the delete would take.
    public struct TypePart: Hashable, Sendable {
        public let type: SampleType
        public let count: Int
        /// The earliest start and the latest end among them.
        public let firstStart: Date
        public let lastEnd: Date
        /// The most samples first, then by bundle identifier.
        public let sources: [TypeSummary.SourceCount]

        public init(type: SampleType, count: Int, firstStart: Date, lastEnd: Date, sources: [TypeSummary.SourceCount]) {
            self.type = type
            self.count = count
            self.firstStart = firstStart
            self.lastEnd = lastEnd
            self.sources = sources
        }
    }

    /// Every sample the delete would take, a correlation's members counted (as its answer counts).
    public let count: Int
    /// By type, in identifier order.
    public let types: [TypePart]

    public init(count: Int, types: [TypePart]) {
        self.count = count
        self.types = types
    }
}

extension SampleStore {
    /// What ``delete(uuids:scope:in:)`` would take now, in the read transaction `db`.
    public func deletionPreview(uuids: [UUID], scope: DeleteScope, in db: Connection) throws -> DeletionPreview {
        try preview(ids: topLevelIDs(uuids: uuids, scope: scope, db), db)
    }

    /// What ``delete(matching:scope:in:)`` would take now, in the read transaction `db`.
    public func deletionPreview(
        matching query: SampleTypePredicate,
        scope: DeleteScope,
        in db: Connection
    ) throws -> DeletionPreview {
        try preview(ids: topLevelIDs(matching: query, scope: scope, db), db)
    }

    /// The top-level samples `ids` and their members, grouped by type and source.
    private func preview(ids: [Int64], _ db: Connection) throws -> DeletionPreview {
        guard !ids.isEmpty else { return DeletionPreview(count: 0, types: []) }
        let list = "(SELECT value FROM json_each(?))"
        let json = "[" + Set(ids).sorted().map(String.init).joined(separator: ",") + "]"
        let rows = try db.rows(
            """
            SELECT t.identifier, src.bundle_id,
                (SELECT r.name FROM revisions r WHERE r.source_id = g.source_id ORDER BY r.id DESC LIMIT 1),
                g.n, g.first, g.last
            FROM (SELECT s.type, s.source_id, count(*) AS n, min(s.start_date) AS first, max(s.end_date) AS last
                  FROM samples s WHERE s.id IN \(list) OR s.parent_id IN \(list) GROUP BY s.type, s.source_id) g
            JOIN types t ON t.code = g.type JOIN sources src ON src.id = g.source_id
            """,
            [json, json]
        )
        let types = Self.groupedByType(rows).map {
            DeletionPreview.TypePart(
                type: $0.type,
                count: $0.count,
                firstStart: $0.first,
                lastEnd: $0.last,
                sources: $0.sources
            )
        }
        return DeletionPreview(count: types.reduce(0) { $0 + $1.count }, types: types)
    }
}
