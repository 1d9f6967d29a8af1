public import Foundation
public import HealthModel

/// What changed after a position in the vault's history, as one scope sees it: the anchored
/// object query's answer before its anchor is sealed.
public struct ChangeSet: Sendable {
    /// Samples saved after the position that still exist, in the order they were saved.
    public var added: [Sample]
    /// Samples deleted after the position, in the order they were deleted.
    public var deleted: [DeletedObject]
    /// The position of the last change returned; the given position when there is none.
    public var position: Int64
}

extension SampleStore {
    /// The changes after `position` (a change sequence number; the query's own anchor is the
    /// engine's to open) to the samples the query's predicates match, as `scope` sees them,
    /// oldest first, at most the query's limit (0: all) of additions and deletions together
    /// (HealthKit's anchored object query).
    ///
    /// Additions match the predicates; deletions go by type only (a deleted sample's values are
    /// gone), and only where the scope may read: every deletion of a type it reads wholly, else
    /// only its own samples' (a correlation read wholly needs every member type read, so none of
    /// its deletions names a hidden object). The position moves only with changes the scope sees,
    /// and every row read goes through a (type, seq) or (type, source, seq) index in change order,
    /// so neither the answer nor its cost depends on other apps' hidden writes.
    public func changes(
        matching query: AnchoredObjectQueryDescriptor,
        after position: Int64,
        scope: ReadScope,
        in db: Connection
    ) throws -> ChangeSet {
        try query.validate()
        let limit = Self.sqlLimit(query.limit)
        var branches: [SQLFragment] = []
        // Each branch stops at the limit by itself (its index is in change order), so a page
        // costs no more than the page, however long the history after it.
        func add(_ fragment: SQLFragment) {
            var paged = SQLFragment("SELECT * FROM (" + fragment.sql + " ORDER BY seq LIMIT ?)", fragment.arguments)
            paged.arguments.append(.integer(Int64(limit)))
            branches.append(paged)
        }
        for (type, predicate) in Self.mergedByType(query.predicates) {
            if var branch = try branch(
                for: SampleTypePredicate(type, predicate: predicate),
                scope: scope,
                columns: SQLFragment("s.id AS id, s.seq AS seq, NULL AS uuid, NULL AS type"),
                path: .byChange,
                db
            ) {
                branch.sql += " AND s.seq > ?"
                branch.arguments.append(.integer(position))
                add(branch)
            }
            if let deletions = try tombstones(of: type, after: position, scope: scope, db) {
                add(deletions)
            }
        }
        guard !branches.isEmpty else { return ChangeSet(added: [], deleted: [], position: position) }
        var sql = branches.map(\.sql).joined(separator: " UNION ALL ") + " ORDER BY seq"
        var arguments = branches.flatMap(\.arguments)
        sql += " LIMIT ?"
        arguments.append(.integer(Int64(limit)))
        let rows = try db.rows(sql, arguments)
        try Self.checkAnswerSize(rows.count, of: "changes")
        var addedIDs: [Int64] = []
        var deleted: [DeletedObject] = []
        for row in rows {
            if let id = row[0].int64 {
                addedIDs.append(id)
            } else if let uuid = row[2].bytes.flatMap(UUID.init(bytes:)), let identifier = row[3].string {
                deleted.append(DeletedObject(uuid: uuid, sampleType: try SampleType(identifier: identifier)))
            } else {
                throw StoreError.damagedDatabase("a tombstone has a malformed UUID or type")
            }
        }
        return ChangeSet(
            added: try load(ids: addedIDs, scope: scope, db),
            deleted: deleted,
            position: rows.last?[1].int64 ?? position
        )
    }

    /// The SELECT of the tombstones of `type` after `position` that `scope` may see, in the
    /// columns of ``changes(matching:after:limit:scope:in:)``, or nil when there can be none.
    private func tombstones(
        of type: SampleType,
        after position: Int64,
        scope: ReadScope,
        _ db: Connection
    ) throws
        -> SQLFragment?
    {
        guard let code = try typeCode(type, db) else { return nil }
        let columns = "NULL AS id, seq, uuid, ? AS type"
        switch scope.access(to: type) {
        case .all:
            return SQLFragment(
                "SELECT \(columns) FROM tombstones INDEXED BY tombstones_by_type_seq WHERE type = ? AND seq > ?",
                [.text(type.identifier), .integer(code), .integer(position)]
            )
        case .ownSamples(let bundleIdentifier):
            guard let sourceID = try sourceID(bundleIdentifier, db) else { return nil }
            return SQLFragment(
                """
                SELECT \(columns) FROM tombstones INDEXED BY tombstones_by_type_source_seq
                WHERE type = ? AND source_id = ? AND seq > ?
                """,
                [.text(type.identifier), .integer(code), .integer(sourceID), .integer(position)]
            )
        }
    }

    /// The predicates with one entry per type: a type named twice is one OR, so no sample comes
    /// back twice.
    static func mergedByType(_ predicates: [SampleTypePredicate]) -> [(SampleType, SamplePredicate?)] {
        var merged: [(SampleType, SamplePredicate?)] = []
        for typed in predicates {
            if let index = merged.firstIndex(where: { $0.0 == typed.sampleType }) {
                merged[index].1 = merged[index].1.flatMap { first in typed.predicate.map { .or([first, $0]) } }
            } else {
                merged.append((typed.sampleType, typed.predicate))
            }
        }
        return merged
    }
}
