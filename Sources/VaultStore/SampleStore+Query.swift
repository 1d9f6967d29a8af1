public import Foundation
public import HealthModel

extension SampleStore {
    /// Runs a sample query under a scope: the predicates compiled to SQL, hidden rows never read
    /// (each restricted type goes through the (type, source, start) index, so its cost does not
    /// grow with other apps' data), the answer sorted and cut as ``sampleRows(matching:scope:offset:_:)``
    /// says.
    public func samples(matching query: SampleQueryDescriptor, scope: ReadScope) throws -> [Sample] {
        try database.read { try samples(matching: query, scope: scope, in: $0) }
    }

    /// ``samples(matching:scope:)`` inside the transaction `db` (a read or a write of this store's
    /// database), so the caller's grants and the query see one snapshot.
    public func samples(matching query: SampleQueryDescriptor, scope: ReadScope, in db: Connection) throws -> [Sample] {
        let rows = try sampleRows(matching: query, scope: scope, db)
        try Self.checkAnswerSize(rows.count, of: "samples")
        return try build(rows, scope: scope, db)
    }

    /// The rows of ``samples(matching:scope:in:)``'s answer, in its order, from position
    /// `offset` of it, each with every column a load reads, its quantity series and its metadata:
    /// the rows are read once, a whole answer sorted here, one cut by a limit or an offset sorted
    /// and cut in SQL, the series and metadata joined after the cut (so only the rows answered
    /// are probed there). Reading stops one row past what an answer holds.
    func sampleRows(
        matching query: SampleQueryDescriptor,
        scope: ReadScope,
        offset: Int = 0,
        _ db: Connection
    ) throws -> [StoredSampleRow] {
        try query.validate()
        var branches: [SQLFragment] = []
        for (type, predicate) in Self.mergedByType(query.predicates) {
            var columns = SQLFragment(StoredSampleRow.sampleColumns("s") + ", ")
            let sortValue = Self.sortValue(of: type)
            columns.sql += sortValue.sql + " AS sort_value"
            columns.arguments += sortValue.arguments
            // The matching rows' ids first, then their columns fetched by id, which SQLite does
            // in ascending order, stepping from row to row. Read in the sort's order (a
            // descending start walks the index backwards), each row's fetch would descend the
            // samples table from its root, at a cost growing with every other app's rows there.
            if let ids = try branch(
                for: SampleTypePredicate(type, predicate: predicate),
                scope: scope,
                columns: SQLFragment("s.id"),
                db
            ) {
                branches.append(
                    SQLFragment(
                        "SELECT \(columns.sql) FROM samples s WHERE s.id IN (\(ids.sql))",
                        columns.arguments + ids.arguments
                    )
                )
            }
        }
        guard !branches.isEmpty else { return [] }
        let union = branches.map(\.sql).joined(separator: " UNION ALL ")
        var arguments = branches.flatMap(\.arguments)
        // An answer cut by a limit or an offset is sorted and cut in SQL, which keeps only the
        // rows asked for. A whole answer is sorted here, as the SQL's ORDER BY would sort it:
        // SQLite's sorter costs about as much as reading the rows (about 0.4 µs a row of a day
        // of minute samples), Swift's sort of the rows read a tenth of that.
        let cut = query.limit > 0 || offset > 0
        var rows = SQLFragment("(" + union + ")")
        if cut {
            rows.sql =
                "(SELECT * FROM \(rows.sql) ORDER BY "
                + (query.sortDescriptors.map(Self.orderTerm) + ["uuid", "id"]).joined(separator: ", ")
                + " LIMIT ? OFFSET ?)"
            arguments.append(.integer(Int64(Self.sqlLimit(query.limit))))
            arguments.append(.integer(Int64(max(offset, 0))))
        }
        // The rows are the left side of LEFT JOINs, which SQLite never reorders: they are the
        // outer loop, so each row's quantity series and metadata are probed only for the rows
        // kept, and a row's metadata entries come one after another. A cut answer comes out in
        // its subquery's order, as SQLite (3.46) reads the subquery straight through; SQL does
        // not promise it without an ORDER BY outside, which would sort the rows again, so
        // AnswerOrderTests holds it to that order.
        let statement = try db.statement(
            "SELECT " + StoredSampleRow.sampleColumns("o") + ", o.sort_value, " + StoredSampleRow.seriesColumns("q")
                + ", " + StoredSampleRow.metadataColumns("m") + " FROM \(rows.sql) o"
                + " LEFT JOIN quantity_series q ON q.sample_id = o.id LEFT JOIN sample_metadata m ON m.sample_id = o.id"
        )
        try statement.bind(values: arguments)
        defer { statement.reset() }
        var answer: [StoredSampleRow] = []
        while try statement.step() {
            try StoredSampleRow.read(statement, into: &answer)
            // One past what an answer holds is enough to refuse it.
            if !cut, answer.count > Self.maximumAnswerObjects { break }
        }
        // An answer too large is refused, not sorted.
        if !cut, answer.count <= Self.maximumAnswerObjects {
            answer.sort(by: StoredSampleRow.precedes(query.sortDescriptors))
        }
        return answer
    }

    /// One sample by UUID, if the scope may see it; an invisible sample is answered exactly like an
    /// unknown UUID. A UUID names one object in the vault (schema 7, which refuses to migrate a
    /// vault where two sources share one), so at most one row matches.
    public func sample(uuid: UUID, scope: ReadScope) throws -> Sample? {
        try database.read { try sample(uuid: uuid, scope: scope, in: $0) }
    }

    /// ``sample(uuid:scope:)`` inside the transaction `db`.
    ///
    /// What the scope may see is decided in the SQL of the UUID probe: an app keeps a row of its
    /// own source, of a type it may read wholly, or of a type it reads within a window when the
    /// row lies inside it, so another app's hidden sample is never loaded. The probe reads only the
    /// index (schema 19's `samples_by_uuid_visibility` holds the source, type and dates beside the
    /// UUID): another app's hidden UUID costs what an unknown one costs (docs/ACCESS_RULES.md).
    public func sample(uuid: UUID, scope: ReadScope, in db: Connection) throws -> Sample? {
        guard let probe = try uuidProbe(uuid, scope: scope, db) else { return nil }
        for row in try db.rows(probe.sql, probe.arguments) {
            // A correlation with an object the scope may not read is not visible either.
            if let sample = try load(ids: [row[0].int64!], scope: scope, db).first {
                return sample
            }
        }
        return nil
    }

    /// The statement of ``sample(uuid:scope:in:)``'s probe: the row ids of `uuid` the scope may
    /// see, decided on the index alone; nil when the scope may see no row of any UUID.
    func uuidProbe(_ uuid: UUID, scope: ReadScope, _ db: Connection) throws -> SQLFragment? {
        var sql = "SELECT s.id FROM samples s INDEXED BY samples_by_uuid_visibility WHERE s.uuid = ?"
        var arguments: [DatabaseValue] = [.blob(uuid.bytes)]
        if let bundleIdentifier = scope.bundleIdentifier {
            var visible: [String] = []
            if let sourceID = try sourceID(bundleIdentifier, db) {
                visible.append("s.source_id = ?")
                arguments.append(.integer(sourceID))
            }
            // An object chosen for the app, of the type it was chosen as.
            let objectTypes = scope.readableObjects.filter { $0.value.contains(uuid) }.keys.map(\.identifier).sorted()
            if !objectTypes.isEmpty {
                let codes = try db.rows(
                    "SELECT code FROM types WHERE identifier IN (SELECT value FROM json_each(?))",
                    [PredicateCompiler.jsonArray(objectTypes)]
                ).compactMap { $0[0].int64 }
                if !codes.isEmpty {
                    visible.append("s.type IN (" + codes.map(String.init).joined(separator: ", ") + ")")
                }
            }
            let whole = scope.readableTypes.filter { scope.windows[$0] == nil }
            if !whole.isEmpty {
                // The codes before the probe, so a hidden row costs only the comparison.
                let codes = try db.rows(
                    "SELECT code FROM types WHERE identifier IN (SELECT value FROM json_each(?))",
                    [PredicateCompiler.jsonArray(whole.map(\.identifier).sorted())]
                ).compactMap { $0[0].int64 }
                if !codes.isEmpty {
                    visible.append("s.type IN (" + codes.map(String.init).joined(separator: ", ") + ")")
                }
            }
            // A type read within a window: its rows inside the window.
            for (type, window) in scope.windows.sorted(by: { $0.key.identifier < $1.key.identifier }) {
                guard let code = try typeCode(type, db) else { continue }
                let inside = window.condition("s")
                visible.append("(s.type = ? AND \(inside.sql))")
                arguments += [.integer(code)] + inside.arguments
            }
            guard !visible.isEmpty else { return nil }
            sql += " AND (" + visible.joined(separator: " OR ") + ")"
        }
        // No order: a UUID names one row in the vault (schema 7; kept by the store's insert since
        // schema 21), so at most one row matches.
        return SQLFragment(sql, arguments)
    }

    /// A source query under a scope (HealthKit's `HKSourceQuery`): the apps that saved samples of
    /// the type matching the predicate, among the samples the scope may see, by bundle identifier;
    /// each named as its latest revision among those samples names it. An app without a read
    /// grant finds only itself, and only when it has such samples: exactly the answer of a vault
    /// without other apps' data.
    public func sources(matching query: SourceQueryDescriptor, scope: ReadScope, in db: Connection) throws -> [Source] {
        try query.validate()
        guard
            let branch = try branch(
                for: query.predicate,
                scope: scope,
                columns: SQLFragment("s.source_id, s.revision_id"),
                db
            )
        else { return [] }
        let rows = try db.rows(
            """
            SELECT src.bundle_id, r.name FROM (
                SELECT source_id, max(revision_id) AS revision_id FROM (\(branch.sql)) GROUP BY source_id
            ) b JOIN sources src ON src.id = b.source_id JOIN revisions r ON r.id = b.revision_id
            ORDER BY src.bundle_id
            """,
            branch.arguments
        )
        return rows.compactMap { row in
            guard let bundleIdentifier = row[0].string, let name = row[1].string else { return nil }
            return Source(bundleIdentifier: bundleIdentifier, name: name)
        }
    }

    // MARK: Building queries

    /// How a branch walks the type's rows.
    enum RowPath {
        /// By start date (the planner's choice when the scope reads the type wholly).
        case byStart
        /// In change order, through the `seq` indexes.
        case byChange
        /// By row id, for a condition that names the rows (`s.id IN (...)`), when the scope reads
        /// the type wholly; by start through the app's own rows otherwise, so that other apps'
        /// rows are never touched.
        case byRow
    }

    /// The SELECT of one typed predicate under a scope, or nil when it can match nothing (a type
    /// never stored, or an app that has no samples of a type it may not read), walking the rows
    /// by `path`, with `condition` (on `s`) added to every row it keeps.
    ///
    /// A type read within a window is two SELECTs joined by UNION ALL: other apps' rows inside
    /// the window, walked by start through the (type, start) index whatever the path (so a row
    /// before the window is never touched, and its cost follows what the app may see), and the
    /// app's own rows, walked as a type it may not read. Callers use the fragment whole (as a
    /// subquery), never appending to it.
    func branch(
        for query: SampleTypePredicate,
        scope: ReadScope,
        columns: SQLFragment,
        path: RowPath = .byStart,
        condition: SQLFragment? = nil,
        _ db: Connection
    ) throws -> SQLFragment? {
        let byChange = path == .byChange
        // A workout's samples are found through its associations, not by walking the type.
        let path = path == .byStart && query.predicate.map(Self.namesWorkoutSamples) == true ? .byRow : path
        guard let code = try typeCode(query.sampleType, db) else { return nil }
        let access = scope.access(to: query.sampleType)
        // The SELECTs before the conditions every one of them takes, each with the longest
        // duration of the rows it may keep as the scope may know it (nil: not known), which
        // bounds a date predicate's start on both sides (docs/ACCESS_RULES.md, "Cost").
        var parts: [(select: SQLFragment, longest: Double?)] = []
        // Whether the branch reads other apps' rows (a correlation's objects are then checked).
        var readsOthers = false
        switch access {
        case .all:
            readsOthers = true
            // Every source's samples of the type, which this scope reads wholly; except a
            // correlation under an app's scope, which hides another app's correlation with an
            // object it may not read: the longest duration would then count hidden ones.
            var hidesCorrelations = false
            if case .correlation = query.sampleType { hidesCorrelations = scope.bundleIdentifier != nil }
            parts.append(
                (
                    SQLFragment(
                        "SELECT \(columns.sql) FROM samples s\(byChange ? " INDEXED BY samples_by_type_seq" : path == .byRow ? " NOT INDEXED" : "") WHERE s.type = ?",
                        columns.arguments + [.integer(code)]
                    ),
                    hidesCorrelations ? nil : try longestDuration(code, db)
                )
            )
        case .ownSamples(let bundleIdentifier):
            guard let sourceID = try sourceID(bundleIdentifier, db) else { return nil }
            parts.append(
                (
                    ownRows(columns: columns, code: code, sourceID: sourceID, byChange: byChange),
                    try longestDuration(code, sourceID: sourceID, db)
                )
            )
        case .window(let window, let own):
            readsOthers = true
            let sourceID = try sourceID(own, db)
            let inside = window.condition("s")
            var others = SQLFragment(
                "SELECT \(columns.sql) FROM samples s INDEXED BY samples_by_type_start WHERE s.type = ? AND \(inside.sql)",
                columns.arguments + [.integer(code)] + inside.arguments
            )
            if let sourceID {
                others.sql += " AND s.source_id != ?"
                others.arguments.append(.integer(sourceID))
            }
            // Other apps' rows inside the window last no longer than the window: a bound that
            // depends on the grant alone, never on the samples it hides.
            parts.append((others, window.duration))
            if let sourceID {
                parts.append(
                    (
                        ownRows(columns: columns, code: code, sourceID: sourceID, byChange: byChange),
                        try longestDuration(code, sourceID: sourceID, db)
                    )
                )
            }
        case .objects(let objects, let own):
            // The app's own rows through the (type, source, start) index and the objects chosen
            // for it by UUID, their ids gathered first: the rows are then fetched by id, so no
            // other row of the type is ever read.
            guard let rows = try objectRows(code, objects: objects, own: own, db) else { return nil }
            parts.append(
                (
                    SQLFragment(
                        "SELECT \(columns.sql) FROM samples s NOT INDEXED WHERE s.id IN (\(rows.sql)) AND s.type = ?",
                        columns.arguments + rows.arguments + [.integer(code)]
                    ),
                    nil
                )
            )
        }
        var common = SQLFragment("")
        // A correlation is visible only when the scope may read every one of its objects. Its own
        // correlations always are (a save refuses objects of another source), so a scope that sees
        // only its own correlations of the type checks no object: its cost is then that of its own
        // rows alone, whatever other apps' correlations hold.
        if case .correlation(let correlationType) = query.sampleType, readsOthers,
            let members = try memberVisibility(scope, of: correlationType, db)
        {
            common.sql += " AND NOT EXISTS (SELECT 1 FROM samples m WHERE m.parent_id = s.id AND NOT \(members.sql))"
            common.arguments += members.arguments
        }
        if let condition {
            common.sql += " AND " + condition.sql
            common.arguments += condition.arguments
        }
        // The predicate for each SELECT, with what that SELECT knows of its rows' durations.
        var compiled: [SQLFragment] = Array(repeating: SQLFragment(""), count: parts.count)
        if let predicate = query.predicate {
            var compiler = PredicateCompiler(
                knownUnits: try db.rows("SELECT unit FROM units").compactMap { $0[0].string }
            )
            if path == .byRow, case .all = access { compiler.workoutAsList = true }
            for (index, part) in parts.enumerated() {
                compiler.longestDuration = part.longest
                let condition = try compiler.compile(predicate, for: query.sampleType)
                compiled[index] = SQLFragment(" AND " + condition.sql, condition.arguments)
            }
        }
        return SQLFragment(
            zip(parts, compiled).map { $0.select.sql + common.sql + $1.sql }.joined(separator: " UNION ALL "),
            zip(parts, compiled).flatMap { $0.select.arguments + common.arguments + $1.arguments }
        )
    }

    /// The longest duration stored of type `code` (of source `sourceID`, or of every source),
    /// from `sample_durations`: at least that of every sample of it the vault holds (deleted
    /// ones may count too); nil when none was ever stored.
    func longestDuration(_ code: Int64, sourceID: Int64? = nil, _ db: Connection) throws -> Double? {
        if let sourceID {
            return try db.statement("SELECT longest FROM sample_durations WHERE type = ? AND source_id = ?")
                .rows([code, sourceID]).first?[0].double
        }
        return try db.statement("SELECT max(longest) FROM sample_durations WHERE type = ?").rows([code]).first?[0]
            .double
    }

    /// The SELECT of an app's own rows of a type, forced through the (type, source, …) indexes so
    /// the planner can never walk other apps' rows of the type.
    private func ownRows(columns: SQLFragment, code: Int64, sourceID: Int64, byChange: Bool) -> SQLFragment {
        SQLFragment(
            "SELECT \(columns.sql) FROM samples s INDEXED BY \(byChange ? "samples_by_type_source_seq" : "samples_by_type_source_start") WHERE s.type = ? AND s.source_id = ?",
            columns.arguments + [.integer(code), .integer(sourceID)]
        )
    }

    /// The SELECT of the row ids of type `code` that a scope reading it object by object sees:
    /// `own`'s rows and those of `objects`; nil when there are none.
    func objectRows(_ code: Int64, objects: Set<UUID>, own: String, _ db: Connection) throws -> SQLFragment? {
        var parts: [SQLFragment] = []
        if let sourceID = try sourceID(own, db) {
            parts.append(
                SQLFragment(
                    "SELECT id FROM samples INDEXED BY samples_by_type_source_start WHERE type = ? AND source_id = ?",
                    [.integer(code), .integer(sourceID)]
                )
            )
        }
        if !objects.isEmpty {
            let sorted = objects.sorted { $0.uuidString < $1.uuidString }
            parts.append(
                SQLFragment(
                    "SELECT id FROM samples INDEXED BY samples_by_uuid_visibility WHERE uuid IN ("
                        + Array(repeating: "?", count: sorted.count).joined(separator: ", ") + ")",
                    sorted.map { .blob($0.bytes) }
                )
            )
        }
        guard !parts.isEmpty else { return nil }
        return SQLFragment(parts.map(\.sql).joined(separator: " UNION "), parts.flatMap(\.arguments))
    }

    /// Whether the predicate matches only samples associated with one workout.
    private static func namesWorkoutSamples(_ predicate: SamplePredicate) -> Bool {
        switch predicate {
        case .workout: true
        case .and(let predicates): predicates.contains(where: namesWorkoutSamples)
        default: false
        }
    }

    /// A type's code in the store, or nil when no sample of it was ever stored.
    func typeCode(_ type: SampleType, _ db: Connection) throws -> Int64? {
        try db.statement("SELECT code FROM types WHERE identifier = ?").rows([type.identifier]).first?[0].int64
    }

    /// An app's source id in the store, or nil when it never saved a sample.
    func sourceID(_ bundleIdentifier: String, _ db: Connection) throws -> Int64? {
        try db.statement("SELECT id FROM sources WHERE bundle_id = ?").rows([bundleIdentifier]).first?[0].int64
    }

    /// The condition (on `m`, an object of a correlation of `correlationType`) under which
    /// `scope` may read the object as part of the correlation: it is the app's own, or its type is
    /// read, and, when the correlation type is read within a window, the object lies inside that
    /// window too (docs/ACCESS_RULES.md, "Windows": a correlation is visible only when it and
    /// every one of its objects lie inside); nil when everything is visible.
    func memberVisibility(
        _ scope: ReadScope,
        of correlationType: CorrelationTypeIdentifier,
        _ db: Connection
    ) throws -> SQLFragment? {
        guard let bundleIdentifier = scope.bundleIdentifier else { return nil }
        let identifiers = scope.readableTypes.map(\.identifier).sorted()
        var readable = SQLFragment(
            "m.type IN (SELECT code FROM types WHERE identifier IN (SELECT value FROM json_each(?)))",
            [.text(PredicateCompiler.jsonArray(identifiers))]
        )
        if let window = scope.windows[.correlation(correlationType)] {
            let inside = window.condition("m")
            readable.sql += " AND " + inside.sql
            readable.arguments += inside.arguments
        }
        return SQLFragment(
            "((\(readable.sql)) OR m.source_id IN (SELECT id FROM sources WHERE bundle_id = ?))",
            readable.arguments + [.text(bundleIdentifier)]
        )
    }

    /// SQL for a sample's sort value, computing exactly what `SampleSortDescriptor.sortValue`
    /// does: a quantity's canonical value taken to base units (with the unit's own formula, its
    /// constants bound, so SQLite and Swift compute the same double), a category's value, or NULL.
    static func sortValue(of type: SampleType) -> SQLFragment {
        switch type {
        case .quantity(let id):
            switch id.canonicalUnit.baseFormula {
            case .linear(let scale):
                return SQLFragment("(s.value * ?)", [.real(scale)])
            case .affine(let scale, let offset):
                return SQLFragment("(s.value * ? + ?)", [.real(scale), .real(offset)])
            case .decibel(let reference):
                return SQLFragment("(? * pow(10, s.value / 20))", [.real(reference)])
            }
        case .category:
            return SQLFragment("s.value")
        case .correlation, .workout, .workoutRoute, .stateOfMind, .scoredAssessment, .electrocardiogram, .audiogram,
            .heartbeatSeries, .visionPrescription, .document:
            return SQLFragment("NULL")
        }
    }

    static func orderTerm(_ descriptor: SampleSortDescriptor) -> String {
        let column =
            switch descriptor.key {
            case .startDate: "start_date"
            case .endDate: "end_date"
            case .value: "sort_value"
            }
        return column + (descriptor.order == .ascending ? " ASC" : " DESC")
    }

    // MARK: Loading

    /// Builds the samples with these ids, in this order, with their metadata, workout details and
    /// correlation objects; a correlation with an object `scope` may not read is left out whole.
    func load(ids: [Int64], scope: ReadScope, _ db: Connection) throws -> [Sample] {
        guard !ids.isEmpty else { return [] }
        let statement = try db.statement(
            "SELECT " + StoredSampleRow.sampleColumns("s") + ", NULL, " + StoredSampleRow.seriesColumns("q")
                + ", " + StoredSampleRow.metadataColumns("m")
                + " FROM samples s LEFT JOIN quantity_series q ON q.sample_id = s.id"
                + " LEFT JOIN sample_metadata m ON m.sample_id = s.id"
                + " WHERE s.id IN (SELECT value FROM json_each(?))"
        )
        try statement.bind([Self.idList(ids)])
        var byID: [Int64: StoredSampleRow] = [:]
        do {
            // Reset once read: a correlation's objects load through the same statement again.
            defer { statement.reset() }
            var read: [StoredSampleRow] = []
            while try statement.step() {
                try StoredSampleRow.read(statement, into: &read)
            }
            for row in read { byID[row.id] = row }
        }
        var rows: [StoredSampleRow] = []
        rows.reserveCapacity(ids.count)
        var asked = Set<Int64>(minimumCapacity: ids.count)
        for id in ids where asked.insert(id).inserted {
            if let row = byID[id] { rows.append(row) }
        }
        let built = try build(rows, scope: scope, db)
        guard asked.count < ids.count else { return built }
        // An id asked for twice is there twice (a UUID names one row).
        var samples: [UUID: Sample] = [:]
        for sample in built { samples[sample.uuid] = sample }
        return ids.compactMap { byID[$0].flatMap { samples[$0.uuid] } }
    }

    /// `ids` as a JSON array, for `json_each`.
    static func idList(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// Builds the samples of these rows (each row once), in their order, with their metadata,
    /// workout details and correlation objects; a correlation with an object `scope` may not read
    /// is left out whole.
    func build(_ rows: [StoredSampleRow], scope: ReadScope, _ db: Connection) throws -> [Sample] {
        guard !rows.isEmpty else { return [] }
        // The metadata of the samples built after the rows, from other tables.
        var metadata: [Int64: Metadata] = [:]
        var samples = LoadedSamples(count: rows.count)
        var workoutIDs: [Int64] = []
        var correlationIDs: [Int64] = []
        var kindIDs: [Int64] = []
        var units: [String: HealthUnit] = [:]
        func unit(_ string: String) throws -> HealthUnit {
            if let parsed = units[string] { return parsed }
            let parsed = try HealthUnit(from: string)
            units[string] = parsed
            return parsed
        }
        // The rows carry the ids of their interned type, source, revision, device and unit; each
        // distinct one is read and built once per load and shared by the samples naming it.
        var names = InternedNames()
        var pending: [Int64: (SampleType, UUID, Date, Date, Double?, SourceRevision, Device?)] = [:]
        for (position, row) in rows.enumerated() {
            let id = row.id
            let uuid = row.uuid
            let type = try names.type(row.type, db)
            let start = Date(timeIntervalSinceReferenceDate: row.start)
            let end = Date(timeIntervalSinceReferenceDate: row.end)
            let value = row.value
            let source = try names.sourceRevision(source: row.source, revision: row.revision, db)
            let device = try row.device.map { try names.device($0, db) }
            let meta = row.metadata
            // A sample built after the rows, from other tables: its slot, metadata and columns
            // kept till then.
            func later(_ value: Double?) {
                samples.awaits(id, at: position)
                metadata[id] = meta
                pending[id] = (type, uuid, start, end, value, source, device)
            }
            switch type {
            case .quantity(let quantityType):
                let quantityUnit = try names.unit(row.unit, db, parse: unit)
                let (count, summary) = row.series(in: quantityUnit)
                samples.put(
                    .quantity(
                        try QuantitySample(
                            uuid: uuid,
                            type: quantityType,
                            quantity: Quantity(row.givenValue ?? 0, quantityUnit),
                            start: start,
                            end: end,
                            count: count,
                            discreteSummary: summary,
                            sourceRevision: source,
                            device: device,
                            metadata: meta
                        )
                    ),
                    at: position
                )
            case .category(let categoryType):
                samples.put(
                    .category(
                        try CategorySample(
                            uuid: uuid,
                            type: categoryType,
                            value: Int(value ?? -1),
                            start: start,
                            end: end,
                            sourceRevision: source,
                            device: device,
                            metadata: meta
                        )
                    ),
                    at: position
                )
            case .workout:
                workoutIDs.append(id)
                later(value)
            case .workoutRoute:
                samples.put(
                    .workoutRoute(
                        try WorkoutRoute(
                            uuid: uuid,
                            start: start,
                            end: end,
                            count: Int(value ?? 0),
                            sourceRevision: source,
                            device: device,
                            metadata: meta
                        )
                    ),
                    at: position
                )
            case .correlation:
                correlationIDs.append(id)
                later(nil)
            case .stateOfMind, .scoredAssessment, .electrocardiogram, .audiogram, .heartbeatSeries, .visionPrescription:
                kindIDs.append(id)
                later(nil)
            case .document:
                // As HealthKit's sample and anchored queries answer it: without the document
                // (a document query reads it).
                samples.put(
                    .cdaDocument(
                        try CDADocumentSample(
                            uuid: uuid,
                            document: nil,
                            start: start,
                            end: end,
                            sourceRevision: source,
                            device: device,
                            metadata: meta
                        )
                    ),
                    at: position
                )
            }
        }
        if !kindIDs.isEmpty {
            try loadKinds(kindIDs, pending: pending, metadata: metadata, unit: unit, into: &samples, db)
        }
        if !workoutIDs.isEmpty {
            try loadWorkouts(
                workoutIDs,
                pending: pending,
                metadata: metadata,
                unit: unit,
                scope: scope,
                into: &samples,
                db
            )
        }
        if !correlationIDs.isEmpty {
            // Each correlation type's objects under its own condition (its window, if any).
            var byType: [CorrelationTypeIdentifier: [Int64]] = [:]
            for id in correlationIDs {
                if case .correlation(let correlationType) = pending[id]?.0 {
                    byType[correlationType, default: []].append(id)
                }
            }
            var memberRows: [VaultStore.Row] = []
            for (correlationType, parents) in byType.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let visible = try memberVisibility(scope, of: correlationType, db) ?? SQLFragment("1")
                memberRows += try db.rows(
                    """
                    SELECT m.id, m.parent_id, \(visible.sql) FROM samples m
                    WHERE m.parent_id IN (SELECT value FROM json_each(?))
                    """,
                    visible.arguments + [.text(Self.idList(parents))]
                )
            }
            memberRows.sort { $0[0].int64! < $1[0].int64! }
            let hidden = Set(memberRows.filter { $0[2].int64 != 1 }.map { $0[1].int64! })
            let shown = memberRows.filter { !hidden.contains($0[1].int64!) }
            let members = try load(ids: shown.map { $0[0].int64! }, scope: scope, db)
            var byParent: [Int64: [Sample]] = [:]
            for (row, member) in zip(shown, members) {
                byParent[row[1].int64!, default: []].append(member)
            }
            for id in correlationIDs {
                guard let (type, uuid, start, end, _, source, device) = pending[id],
                    case .correlation(let correlationType) = type, let objects = byParent[id]
                else { continue }
                samples.put(
                    .correlation(
                        try Correlation(
                            uuid: uuid,
                            type: correlationType,
                            start: start,
                            end: end,
                            objects: objects,
                            sourceRevision: source,
                            device: device,
                            metadata: metadata[id] ?? [:]
                        )
                    ),
                    for: id
                )
            }
        }
        return samples.ordered()
    }

    private func loadWorkouts(
        _ ids: [Int64],
        pending: [Int64: (SampleType, UUID, Date, Date, Double?, SourceRevision, Device?)],
        metadata: [Int64: Metadata],
        unit: (String) throws -> HealthUnit,
        scope: ReadScope,
        into samples: inout LoadedSamples,
        _ db: Connection
    ) throws {
        let list = Self.idList(ids)
        var events: [Int64: [WorkoutEvent]] = [:]
        for row in try db.rows(
            "SELECT sample_id, type, start_date, end_date, metadata FROM workout_events WHERE sample_id IN (SELECT value FROM json_each(?)) ORDER BY sample_id, position",
            [list]
        ) {
            let eventMetadata =
                try row[4].string.map { try HealthJSON.decode(Metadata.self, from: Data($0.utf8)) } ?? [:]
            events[row[0].int64!, default: []].append(
                WorkoutEvent(
                    type: try WorkoutEventType(validating: Int(row[1].int64 ?? 0)),
                    start: Date(timeIntervalSinceReferenceDate: row[2].double!),
                    end: Date(timeIntervalSinceReferenceDate: row[3].double!),
                    metadata: eventMetadata
                )
            )
        }
        var details: [Int64: ([WorkoutActivity], [Statistics])] = [:]
        for row in try db.rows(
            "SELECT sample_id, activities, statistics FROM workout_details WHERE sample_id IN (SELECT value FROM json_each(?))",
            [list]
        ) {
            details[row[0].int64!] = (
                try row[1].string.map { try HealthJSON.decode([WorkoutActivity].self, from: Data($0.utf8)) } ?? [],
                try row[2].string.map { try HealthJSON.decode([Statistics].self, from: Data($0.utf8)) } ?? []
            )
        }
        for row in try db.rows(
            """
            SELECT w.sample_id, w.activity_type, w.duration, w.energy_value, eu.unit, w.distance_value, du.unit
            FROM workouts w LEFT JOIN units eu ON eu.id = w.energy_unit_id LEFT JOIN units du ON du.id = w.distance_unit_id
            WHERE w.sample_id IN (SELECT value FROM json_each(?))
            """,
            [list]
        ) {
            let id = row[0].int64!
            guard let (_, uuid, start, end, _, source, device) = pending[id] else { continue }
            var energy = try row[3].double.map { Quantity($0, try unit(row[4].string ?? "")) }
            var distance = try row[5].double.map { Quantity($0, try unit(row[6].string ?? "")) }
            let activityType = try WorkoutActivityType(validating: Int(row[1].int64 ?? 0))
            if var (activities, statistics) = details[id],
                let bundleIdentifier = scope.bundleIdentifier,
                bundleIdentifier != source.source.bundleIdentifier
            {
                // Another app's workout: the statistics of a type this reader may not read wholly
                // are computed again over what it may see of the workout's samples, so they hold
                // nothing of hidden data (docs/ACCESS_RULES.md, "Live workouts"), and so are the
                // totals derived from them. A type read within a window whose window holds the
                // whole workout keeps them: they count the workout's own span.
                let hidden = Set(statistics.map(\.quantityType)).filter { type in
                    !scope.readsWholly(.quantity(type))
                        && scope.windows[.quantity(type)]?.contains(start: start, end: end) != true
                }
                if !hidden.isEmpty {
                    func visible(_ stored: [Statistics], _ predicate: SamplePredicate) throws -> [Statistics] {
                        try stored.compactMap { entry in
                            guard hidden.contains(entry.quantityType) else { return entry }
                            return try self.statistics(
                                matching: StatisticsQueryDescriptor(
                                    quantityType: entry.quantityType,
                                    predicate: predicate,
                                    options: .workout(for: entry.quantityType)
                                ),
                                scope: scope,
                                in: db
                            )
                        }
                    }
                    let association = SamplePredicate.workout(uuid)
                    let before = statistics
                    statistics = try visible(statistics, association)
                    activities = try activities.map { activity in
                        let span = SamplePredicate.and([
                            association,
                            .date(start: activity.startDate, end: activity.endDate, options: [.strictStartDate]),
                        ])
                        return try activity.ended(
                            at: activity.endDate ?? activity.startDate,
                            statistics: try visible(activity.allStatistics, span)
                        )
                    }
                    func total(_ type: QuantityTypeIdentifier?) -> Quantity?? {
                        guard let type, hidden.contains(type), before.contains(where: { $0.quantityType == type })
                        else { return .none }
                        return .some(statistics.first { $0.quantityType == type }?.sumQuantity())
                    }
                    if let recomputed = total(.activeEnergyBurned) { energy = recomputed }
                    if let recomputed = total(activityType.distanceType) { distance = recomputed }
                    details[id] = (activities, statistics)
                }
            }
            samples.put(
                .workout(
                    try Workout(
                        uuid: uuid,
                        activityType: activityType,
                        start: start,
                        end: end,
                        duration: row[2].double,
                        totalEnergyBurned: energy,
                        totalDistance: distance,
                        events: events[id] ?? [],
                        activities: details[id]?.0 ?? [],
                        statistics: details[id]?.1 ?? [],
                        sourceRevision: source,
                        device: device,
                        metadata: metadata[id] ?? [:]
                    )
                ),
                for: id
            )
        }
    }
}

/// A row of `samples` as a load reads it, with its quantity series' count and summary (from its
/// `quantity_series` row; none when it is no series) and its metadata: plain values, read from
/// the statement before any sample is built (a whole answer is sorted as rows, and an answer too
/// large refused before building).
struct StoredSampleRow {
    let id: Int64
    let uuid: UUID
    let type: Int64
    let start: Double
    let end: Double
    let value: Double?
    let givenValue: Double?
    let unit: Int64?
    let source: Int64
    let revision: Int64
    let device: Int64?
    /// What a sort by value compares (``SampleStore/sortValue(of:)``); nil when the statement
    /// does not select it, or the sample has no value.
    let sortValue: Double?
    /// The UUID's bytes as two big-endian integers: compared as numbers, they order as SQLite
    /// orders the blob.
    let uuidKey: (UInt64, UInt64)
    /// `quantity_count`; nil when the sample is no series.
    let seriesCount: Int64?
    /// The series' `minimum`, `maximum`, `most_recent`, `most_recent_start` and
    /// `most_recent_end`; nil unless all five are stored.
    let summary: (minimum: Double, maximum: Double, mostRecent: Double, start: Double, end: Double)?
    /// The sample's metadata, from its `sample_metadata` rows.
    private(set) var metadata: Metadata = [:]

    /// The `samples` columns (table alias `alias`) ``init(_:)`` reads first, in its order.
    static func sampleColumns(_ alias: String) -> String {
        [
            "id", "uuid", "type", "start_date", "end_date", "value", "given_value", "unit_id", "source_id",
            "revision_id",
            "device_id",
        ]
        .map { alias + "." + $0 }.joined(separator: ", ")
    }

    /// The `quantity_series` columns (table alias `alias`, NULL when the row has none) that
    /// follow them and the sort value.
    static func seriesColumns(_ alias: String) -> String {
        ["quantity_count", "minimum", "maximum", "most_recent", "most_recent_start", "most_recent_end"]
            .map { alias + "." + $0 }.joined(separator: ", ")
    }

    /// The `sample_metadata` columns (table alias `alias`, LEFT JOINed: one row of the statement
    /// for each entry, NULL when the sample has none) that come last.
    static func metadataColumns(_ alias: String) -> String {
        ["key", "kind", "text_value", "number_value"].map { alias + "." + $0 }.joined(separator: ", ")
    }

    /// Reads the row `statement` stands on into `rows`: a new sample, or another metadata entry of
    /// the last one (a sample's entries come one after another, the metadata being the innermost
    /// loop of the statement's LEFT JOINs). The columns are ``sampleColumns(_:)``, the sort value
    /// (or NULL), ``seriesColumns(_:)`` and ``metadataColumns(_:)``.
    static func read(_ statement: Statement, into rows: inout [StoredSampleRow]) throws {
        if let last = rows.indices.last, rows[last].id == statement.int64(at: 0) {
            try rows[last].addMetadata(statement)
            return
        }
        var row = try StoredSampleRow(statement)
        try row.addMetadata(statement)
        rows.append(row)
    }

    /// Adds the metadata entry in the row `statement` stands on, if there is one.
    private mutating func addMetadata(_ statement: Statement) throws {
        guard !statement.isNull(at: 18), let key = statement.value(at: 18).string else { return }
        let text = statement.isNull(at: 20) ? nil : statement.value(at: 20).string
        let number = statement.isNull(at: 21) ? nil : statement.double(at: 21)
        let value: MetadataValue? =
            switch statement.int64(at: 19) {
            case 0: text.map(MetadataValue.string)
            case 1: number.map(MetadataValue.number)
            case 2: number.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
            case 3: try number.map { .quantity(Quantity($0, try HealthUnit(from: text ?? ""))) }
            default: nil
            }
        if let value { metadata[MetadataKey(rawValue: key)] = value }
    }

    /// The sample's columns in the row `statement` stands on.
    private init(_ statement: Statement) throws {
        guard let uuid = statement.uuid(at: 1) else {
            throw StoreError.damagedDatabase("a stored sample has a malformed UUID")
        }
        func optionalDouble(_ index: Int) -> Double? { statement.isNull(at: index) ? nil : statement.double(at: index) }
        func optionalInt(_ index: Int) -> Int64? { statement.isNull(at: index) ? nil : statement.int64(at: index) }
        id = statement.int64(at: 0)
        self.uuid = uuid
        type = statement.int64(at: 2)
        start = statement.double(at: 3)
        end = statement.double(at: 4)
        value = optionalDouble(5)
        givenValue = optionalDouble(6)
        unit = optionalInt(7)
        source = statement.int64(at: 8)
        revision = statement.int64(at: 9)
        device = optionalInt(10)
        sortValue = optionalDouble(11)
        uuidKey = withUnsafeBytes(of: uuid.uuid) { bytes in
            (
                UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        seriesCount = optionalInt(12)
        if seriesCount != nil, let minimum = optionalDouble(13), let maximum = optionalDouble(14),
            let mostRecent = optionalDouble(15), let start = optionalDouble(16), let end = optionalDouble(17)
        {
            summary = (minimum, maximum, mostRecent, start, end)
        } else {
            summary = nil
        }
    }

    /// Whether `lhs` comes before `rhs` in an answer sorted by `descriptors`, as SQL's
    /// `ORDER BY` of ``SampleStore/orderTerm(_:)``, then `uuid`, then `id` orders them: doubles
    /// compared as SQLite compares REALs (it stores no NaN), a NULL sort value before every value
    /// when ascending and after every one when descending, the UUID's bytes in order.
    static func precedes(_ descriptors: [SampleSortDescriptor]) -> (StoredSampleRow, StoredSampleRow) -> Bool {
        { lhs, rhs in
            for descriptor in descriptors {
                let (a, b): (Double?, Double?) =
                    switch descriptor.key {
                    case .startDate: (lhs.start, rhs.start)
                    case .endDate: (lhs.end, rhs.end)
                    case .value: (lhs.sortValue, rhs.sortValue)
                    }
                if a == b { continue }
                // Not equal, so at most one is NULL.
                let less = if let a, let b { a < b } else { a == nil }
                return descriptor.order == .ascending ? less : !less
            }
            if lhs.uuidKey != rhs.uuidKey { return lhs.uuidKey < rhs.uuidKey }
            return lhs.id < rhs.id
        }
    }

    /// The quantity sample's count and summary in `unit`: a count of 1 and no summary when it is
    /// no series.
    func series(in unit: HealthUnit) -> (Int, QuantitySample.DiscreteSummary?) {
        guard let seriesCount else { return (1, nil) }
        guard let summary else { return (Int(seriesCount), nil) }
        return (
            Int(seriesCount),
            QuantitySample.DiscreteSummary(
                minimum: Quantity(summary.minimum, unit),
                maximum: Quantity(summary.maximum, unit),
                mostRecent: Quantity(summary.mostRecent, unit),
                mostRecentDateInterval: DateInterval(
                    start: Date(timeIntervalSinceReferenceDate: summary.start),
                    end: Date(timeIntervalSinceReferenceDate: max(summary.start, summary.end))
                )
            )
        )
    }
}

/// The samples one ``SampleStore/build(_:scope:_:)`` builds, each in the slot of its row's
/// place: most as their row is read, the kinds built from other tables afterwards, by id, in the
/// slot each awaits. (A dictionary of `Sample` values, a few hundred bytes each, copied them at
/// every growth and once more into the answer.)
struct LoadedSamples {
    private var slots: [Sample?]
    /// The slots of the samples built after the rows are read.
    private var positions: [Int64: Int] = [:]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    /// Puts the sample of the row at `position` in its slot.
    mutating func put(_ sample: Sample, at position: Int) {
        slots[position] = sample
    }

    /// Marks the slot at `position` as the one the sample with row id `id` fills later.
    mutating func awaits(_ id: Int64, at position: Int) {
        positions[id] = position
    }

    /// Puts a sample built after the rows are read in the slot its row id awaits (one not awaited
    /// is ignored).
    mutating func put(_ sample: Sample, for id: Int64) {
        if let index = positions[id] { slots[index] = sample }
    }

    /// The samples built, in their rows' order, a slot left empty (a correlation left out)
    /// skipped; each moved out of its slot, not copied.
    consuming func ordered() -> [Sample] {
        var samples: [Sample] = []
        samples.reserveCapacity(slots.count)
        for index in slots.indices {
            if let sample = slots[index].take() { samples.append(sample) }
        }
        return samples
    }
}

/// The interned names of the rows one ``SampleStore/build(_:scope:_:)`` reads: each distinct
/// type, source revision, device and unit read and built once, then shared by every sample that
/// names it (a day of one watch's samples names one of each). The one named last is kept aside
/// too, so a run of rows naming the same one finds it without hashing.
private struct InternedNames {
    private struct Revision: Hashable {
        let source: Int64
        let revision: Int64
    }

    private var types: [Int64: SampleType] = [:]
    private var revisions: [Revision: SourceRevision] = [:]
    private var devices: [Int64: Device] = [:]
    private var units: [Int64: HealthUnit] = [:]
    private var lastType: (code: Int64, type: SampleType)?
    private var lastRevision: (key: Revision, revision: SourceRevision)?
    private var lastDevice: (id: Int64, device: Device)?
    private var lastUnit: (id: Int64, unit: HealthUnit)?

    mutating func type(_ code: Int64, _ db: Connection) throws -> SampleType {
        if let lastType, lastType.code == code { return lastType.type }
        if let type = types[code] {
            lastType = (code, type)
            return type
        }
        guard let identifier = try db.scalarText("SELECT identifier FROM types WHERE code = ?", [code]) else {
            throw StoreError.damagedDatabase("a stored sample names a type the vault does not hold")
        }
        let type = try SampleType(identifier: identifier)
        types[code] = type
        lastType = (code, type)
        return type
    }

    mutating func sourceRevision(source: Int64, revision: Int64, _ db: Connection) throws -> SourceRevision {
        let key = Revision(source: source, revision: revision)
        if let lastRevision, lastRevision.key == key { return lastRevision.revision }
        if let known = revisions[key] {
            lastRevision = (key, known)
            return known
        }
        guard let bundle = try db.scalarText("SELECT bundle_id FROM sources WHERE id = ?", [source]),
            let row = try db.rows(
                "SELECT name, version, product_type, os_version FROM revisions WHERE id = ?",
                [revision]
            ).first
        else {
            throw StoreError.damagedDatabase("a stored sample names a source the vault does not hold")
        }
        let made = SourceRevision(
            source: Source(bundleIdentifier: bundle, name: row[0].string ?? ""),
            version: row[1].string,
            productType: row[2].string,
            operatingSystemVersion: row[3].string
        )
        revisions[key] = made
        lastRevision = (key, made)
        return made
    }

    mutating func device(_ id: Int64, _ db: Connection) throws -> Device {
        if let lastDevice, lastDevice.id == id { return lastDevice.device }
        if let device = devices[id] {
            lastDevice = (id, device)
            return device
        }
        guard
            let row = try db.rows(
                """
                SELECT name, manufacturer, model, hardware_version, firmware_version, software_version,
                    local_identifier, udi_device_identifier
                FROM devices WHERE id = ?
                """,
                [id]
            ).first
        else {
            throw StoreError.damagedDatabase("a stored sample names a device the vault does not hold")
        }
        let device = Device(
            name: row[0].string,
            manufacturer: row[1].string,
            model: row[2].string,
            hardwareVersion: row[3].string,
            firmwareVersion: row[4].string,
            softwareVersion: row[5].string,
            localIdentifier: row[6].string,
            udiDeviceIdentifier: row[7].string
        )
        devices[id] = device
        lastDevice = (id, device)
        return device
    }

    /// The unit with this id, read from its text as saved by `parse` ("" for none).
    mutating func unit(_ id: Int64?, _ db: Connection, parse: (String) throws -> HealthUnit) throws -> HealthUnit {
        guard let id else { return try parse("") }
        if let lastUnit, lastUnit.id == id { return lastUnit.unit }
        if let unit = units[id] {
            lastUnit = (id, unit)
            return unit
        }
        let unit = try parse(try db.scalarText("SELECT unit FROM units WHERE id = ?", [id]) ?? "")
        units[id] = unit
        lastUnit = (id, unit)
        return unit
    }
}
