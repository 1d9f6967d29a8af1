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
    /// gone), and only where the scope may read: every deletion of a type it reads wholly, of a
    /// type it reads within a window the deletions of samples that lay inside it, else only its
    /// own samples' (a correlation read wholly needs every member type read, so none of its
    /// deletions names a hidden object). The position moves only with changes the scope sees,
    /// and every row read goes through a (type, seq) or (type, source, seq) index in change
    /// order, or, for a window, the (type, start) index over the window alone, so neither the
    /// answer nor its cost depends on other apps' hidden writes.
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
            if case .objects(_, let own) = scope.access(to: type) {
                for fragment in try objectChanges(of: type, predicate, after: position, app: own, db) {
                    add(fragment)
                }
                continue
            }
            if let branch = try branch(
                for: SampleTypePredicate(type, predicate: predicate),
                scope: scope,
                columns: SQLFragment("s.id AS id, s.seq AS seq, NULL AS uuid, NULL AS type"),
                path: .byChange,
                condition: SQLFragment("s.seq > ?", [.integer(position)]),
                db
            ) {
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
        try visibleTombstones(
            of: type,
            scope: scope,
            columns: SQLFragment("NULL AS id, seq, uuid, ? AS type", [.text(type.identifier)]),
            condition: SQLFragment("seq > ?", [.integer(position)]),
            db
        )
    }

    /// The SELECT of the tombstones of `type` that `scope` may see and that meet `condition`, or
    /// nil when there can be none: every one of a type read wholly; of a type read within a
    /// window, other apps' deletions of samples that lay inside it (a tombstone keeps its
    /// sample's dates, and a correlation's the span of it and its objects; one written before
    /// schema version 15 has none and is inside no window), walked by start through the
    /// (type, start) index, and the app's own; else only the app's own.
    func visibleTombstones(
        of type: SampleType,
        scope: ReadScope,
        columns: SQLFragment,
        condition: SQLFragment,
        _ db: Connection
    ) throws -> SQLFragment? {
        guard let code = try typeCode(type, db) else { return nil }
        func own(_ sourceID: Int64) -> SQLFragment {
            SQLFragment(
                """
                SELECT \(columns.sql) FROM tombstones INDEXED BY tombstones_by_type_source_seq
                WHERE type = ? AND source_id = ? AND \(condition.sql)
                """,
                columns.arguments + [.integer(code), .integer(sourceID)] + condition.arguments
            )
        }
        switch scope.access(to: type) {
        case .all:
            return SQLFragment(
                "SELECT \(columns.sql) FROM tombstones INDEXED BY tombstones_by_type_seq WHERE type = ? AND \(condition.sql)",
                columns.arguments + [.integer(code)] + condition.arguments
            )
        case .ownSamples(let bundleIdentifier), .objects(_, own: let bundleIdentifier):
            guard let sourceID = try sourceID(bundleIdentifier, db) else { return nil }
            return own(sourceID)
        case .window(let window, let bundleIdentifier):
            let sourceID = try sourceID(bundleIdentifier, db)
            let inside = window.condition("tombstones")
            var others = SQLFragment(
                """
                SELECT \(columns.sql) FROM tombstones INDEXED BY tombstones_by_type_start
                WHERE type = ? AND \(inside.sql) AND \(condition.sql)
                """,
                columns.arguments + [.integer(code)] + inside.arguments + condition.arguments
            )
            guard let sourceID else { return others }
            others.sql += " AND source_id != ?"
            others.arguments.append(.integer(sourceID))
            let mine = own(sourceID)
            return SQLFragment(others.sql + " UNION ALL " + mine.sql, others.arguments + mine.arguments)
        }
    }

    /// Whether `scope` sees any change to `type` numbered after `after` through `through` (a
    /// write's changes, inside its transaction or after it): a sample stored or deleted that it
    /// would read. For a type read within a window: a sample inside the window (a correlation
    /// with its objects, as queries show it), or the deletion of one that was. The rows walked
    /// are the write's own, in change order.
    public func seesChanges(
        of type: SampleType,
        after: Int64,
        through: Int64,
        scope: ReadScope,
        in db: Connection
    ) throws -> Bool {
        guard after < through, let code = try typeCode(type, db) else { return false }
        var added = SQLFragment(
            "SELECT 1 FROM samples s INDEXED BY samples_by_type_seq WHERE s.type = ? AND s.seq > ? AND s.seq <= ?",
            [.integer(code), .integer(after), .integer(through)]
        )
        var deleted = SQLFragment(
            "SELECT 1 FROM tombstones INDEXED BY tombstones_by_type_seq WHERE type = ? AND seq > ? AND seq <= ?",
            [.integer(code), .integer(after), .integer(through)]
        )
        switch scope.access(to: type) {
        case .all:
            break
        case .ownSamples(let own):
            let sourceID = DatabaseValue.integer(try sourceID(own, db) ?? -1)
            added.sql += " AND s.source_id = ?"
            added.arguments.append(sourceID)
            deleted.sql += " AND source_id = ?"
            deleted.arguments.append(sourceID)
        case .objects(let objects, let own):
            // Its own samples, and the objects chosen for it (an object deleted while chosen).
            let sourceID = DatabaseValue.integer(try sourceID(own, db) ?? -1)
            let uuids = objects.sorted { $0.uuidString < $1.uuidString }.map { DatabaseValue.blob($0.bytes) }
            let list = Array(repeating: "?", count: uuids.count).joined(separator: ", ")
            added.sql += " AND (s.source_id = ?" + (uuids.isEmpty ? ")" : " OR s.uuid IN (\(list)))")
            added.arguments += [sourceID] + uuids
            deleted.sql += " AND (source_id = ?" + (uuids.isEmpty ? ")" : " OR uuid IN (\(list)))")
            deleted.arguments += [sourceID] + uuids
        case .window(let window, let own):
            let sourceID = DatabaseValue.integer(try sourceID(own, db) ?? -1)
            let inside = window.condition("s")
            added.sql += " AND (s.source_id = ? OR (\(inside.sql)"
            added.arguments += [sourceID] + inside.arguments
            if case .correlation(let correlationType) = type,
                let members = try memberVisibility(scope, of: correlationType, db)
            {
                added.sql += " AND NOT EXISTS (SELECT 1 FROM samples m WHERE m.parent_id = s.id AND NOT \(members.sql))"
                added.arguments += members.arguments
            }
            added.sql += "))"
            let tombstoneInside = window.condition("tombstones")
            deleted.sql += " AND (source_id = ? OR (\(tombstoneInside.sql)))"
            deleted.arguments += [sourceID] + tombstoneInside.arguments
        }
        return try db.scalarInt(
            "SELECT EXISTS (\(added.sql)) OR EXISTS (\(deleted.sql))",
            added.arguments + deleted.arguments
        ) == 1
    }

    /// The changes after `position` to a type `app` reads object by object, in the columns of
    /// ``changes(matching:after:scope:in:)``: its own samples and their deletions, as for a type
    /// it may not read; the objects the owner chose for it, each added at the position of the
    /// owner's choice (not of its save, so an object chosen later is an addition at the app's next
    /// query); and each chosen object's end, at the position of its deletion or of the owner's
    /// taking it back, whichever came first, reported as a deletion. So the app sees exactly what
    /// it would see of a vault that held its own samples and the chosen objects, saved when they
    /// were chosen and deleted when they were taken back. Every row read is the app's own or one
    /// of its `object_grants` rows (through their indexes), never another object.
    func objectChanges(
        of type: SampleType,
        _ predicate: SamplePredicate?,
        after position: Int64,
        app: String,
        _ db: Connection
    ) throws -> [SQLFragment] {
        guard let code = try typeCode(type, db) else { return [] }
        var condition: SQLFragment?
        if let predicate {
            var compiler = PredicateCompiler(
                knownUnits: try db.rows("SELECT unit FROM units").compactMap { $0[0].string }
            )
            condition = try compiler.compile(predicate, for: type)
        }
        func matching(_ fragment: SQLFragment) -> SQLFragment {
            guard let condition else { return fragment }
            return SQLFragment(fragment.sql + " AND " + condition.sql, fragment.arguments + condition.arguments)
        }
        var fragments: [SQLFragment] = []
        if let sourceID = try sourceID(app, db) {
            fragments.append(
                matching(
                    SQLFragment(
                        """
                        SELECT s.id AS id, s.seq AS seq, NULL AS uuid, NULL AS type FROM samples s
                        INDEXED BY samples_by_type_source_seq WHERE s.type = ? AND s.source_id = ? AND s.seq > ?
                        """,
                        [.integer(code), .integer(sourceID), .integer(position)]
                    )
                )
            )
        }
        if let own = try tombstones(of: type, after: position, scope: .app(app, readableTypes: []), db) {
            fragments.append(own)
        }
        let grants = "object_grants g INDEXED BY object_grants_by_app_type"
        fragments.append(
            matching(
                SQLFragment(
                    """
                    SELECT s.id AS id, g.granted_seq AS seq, NULL AS uuid, NULL AS type FROM \(grants)
                    JOIN samples s INDEXED BY samples_by_uuid_visibility ON s.uuid = g.uuid
                    WHERE g.app_id = ? AND g.type = ? AND g.revoked_seq IS NULL AND g.granted_seq > ? AND s.type = ?
                    """,
                    [.text(app), .text(type.identifier), .integer(position), .integer(code)]
                )
            )
        )
        // A chosen object deleted while chosen: its tombstone (after the choice, and before any
        // taking back).
        fragments.append(
            SQLFragment(
                """
                SELECT NULL AS id, t.seq AS seq, t.uuid AS uuid, ? AS type FROM \(grants)
                JOIN tombstones t INDEXED BY tombstones_by_uuid ON t.uuid = g.uuid
                WHERE g.app_id = ? AND g.type = ? AND t.type = ? AND t.seq > ? AND t.seq > g.granted_seq
                    AND (g.revoked_seq IS NULL OR t.seq < g.revoked_seq)
                """,
                [.text(type.identifier), .text(app), .text(type.identifier), .integer(code), .integer(position)]
            )
        )
        // An object taken back while it still existed.
        fragments.append(
            SQLFragment(
                """
                SELECT NULL AS id, g.revoked_seq AS seq, g.uuid AS uuid, ? AS type FROM \(grants)
                WHERE g.app_id = ? AND g.type = ? AND g.revoked_seq > ?
                    AND NOT EXISTS (SELECT 1 FROM tombstones t INDEXED BY tombstones_by_uuid
                        WHERE t.uuid = g.uuid AND t.seq > g.granted_seq AND t.seq < g.revoked_seq)
                """,
                [.text(type.identifier), .text(app), .text(type.identifier), .integer(position)]
            )
        )
        return fragments
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

extension SampleStore {
    /// Takes the next change position for a change that is no sample's own: the owner choosing an
    /// object for an app, or taking it back. Anchored queries order it among saves and deletions.
    public func advanceChangeSequence(in db: Connection) throws -> Int64 {
        let next = try changeSequence(in: db) + 1
        try db.execute("UPDATE counters SET value = ? WHERE name = 'change_sequence'", [next])
        return next
    }
}
