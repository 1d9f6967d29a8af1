public import HealthModel

extension SampleStore {
    /// A correlation query under a scope (HealthKit's `HKCorrelationQuery`): the correlations of
    /// the type that meet its predicate and, for every member predicate, hold an object of that
    /// type meeting it; oldest first (by start, then UUID). Only correlations the scope may read
    /// whole are considered (of another app, only when every member type is read wholly), and the
    /// member conditions are checked on each such correlation's own objects through the parent
    /// index, so hidden correlations are never read.
    public func correlations(matching query: CorrelationQueryDescriptor, scope: ReadScope) throws -> [Correlation] {
        try database.read { try correlations(matching: query, scope: scope, in: $0) }
    }

    /// ``correlations(matching:scope:)`` inside the transaction `db`.
    public func correlations(
        matching query: CorrelationQueryDescriptor,
        scope: ReadScope,
        in db: Connection
    ) throws
        -> [Correlation]
    {
        try query.validate()
        guard
            let branch = try branch(
                for: SampleTypePredicate(.correlation(query.correlationType), predicate: query.predicate),
                scope: scope,
                columns: SQLFragment("s.id AS cid, s.start_date AS start, s.uuid AS uuid"),
                db
            )
        else { return [] }
        var sql = "SELECT cid FROM (\(branch.sql)) WHERE 1"
        var arguments = branch.arguments
        let compiler = PredicateCompiler(knownUnits: try db.rows("SELECT unit FROM units").compactMap { $0[0].string })
        for entry in query.samplePredicates {
            // Never stored: no correlation holds one.
            guard let code = try typeCode(entry.sampleType, db) else { return [] }
            // `s` here is the member; `cid` the correlation of the row outside.
            sql += " AND EXISTS (SELECT 1 FROM samples s WHERE s.parent_id = cid AND s.type = ?"
            arguments.append(.integer(code))
            if let predicate = entry.predicate {
                let condition = try compiler.compile(predicate, for: entry.sampleType)
                sql += " AND " + condition.sql
                arguments += condition.arguments
            }
            sql += ")"
        }
        sql += " ORDER BY start, uuid, cid LIMIT ?"
        arguments.append(.integer(Int64(Self.sqlLimit(0))))
        let ids = try db.rows(sql, arguments).map { $0[0].int64! }
        try Self.checkAnswerSize(ids.count, of: "correlations")
        return try load(ids: ids, scope: scope, db).compactMap { sample in
            if case .correlation(let correlation) = sample { return correlation }
            return nil
        }
    }
}
