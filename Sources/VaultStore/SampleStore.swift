public import Foundation
public import HealthModel

/// Keeps HealthModel's objects in the vault's database: saves batches all-or-nothing, fetches and
/// queries them under a ``ReadScope``, deletes with tombstones, and numbers every change.
///
/// Thread-safe; calls block their thread (hand them to a thread pool from an event loop).
public final class SampleStore: @unchecked Sendable {
    public let database: Database
    // Writer-side caches of interned ids; only touched inside `database.write`, which is serialized.
    // Cleared when a write fails, since a rolled-back transaction may have minted ids.
    // Keyed by bytes, as the database compares them (see ExactString).
    private var typeCodes = InternCache()
    private var sourceIDs = InternCache()
    private var unitIDs = InternCache()
    private var revisionIDs: [ExactStrings: Int64] = [:]
    private var deviceIDs: [ExactStrings: Int64] = [:]
    // A batch usually repeats one source revision and one device: comparing them is cheaper
    // than hashing them.
    private var lastRevision: (SourceRevision, Int64)?
    private var lastDevice: (Device, Int64)?
    // The UUIDs the batch being saved has inserted so far (writer-side, like the caches).
    private var insertedUUIDs: [UUID] = []
    // What the batch being saved has inserted so far, per type code and source id (writer-side):
    // the longest duration, written to `sample_durations`, and the hours reached and the count,
    // for the statistics hours kept; both once per batch.
    private var inserted: [TypeAndSource: InsertedSpan] = [:]
    // The members an import's correlations take from the vault instead of inserting
    // (``importSamples(_:in:)``): set for one save, writer-side.
    var adoptedMembers: Set<UUID> = []
    // Set for an import's save: a top-level sample whose UUID the vault holds is passed over
    // (its UUID kept in `passedOverUUIDs`) rather than failing the batch.
    var passesOverPresentUUIDs = false
    var passedOverUUIDs: [UUID] = []

    public init(database: Database) {
        self.database = database
    }

    // MARK: Saving

    /// Saves samples in one transaction: every sample is stored or none is.
    ///
    /// A sample with a sync identifier (`HKMetadataKeySyncIdentifier`) replaces the stored sample of
    /// the same source and identifier when its sync version is higher, and is ignored otherwise;
    /// within one batch only the highest version of an identifier is stored (the first of equal
    /// ones), so no version that nobody could see leaves a tombstone.
    ///
    /// A UUID names one object in the whole vault, for the life of the vault: saving a UUID that
    /// any sample holds or held (a deleted sample's tombstone keeps its UUID), whichever source
    /// stored it, or a batch that stores one UUID twice (a sample superseded by a newer sync
    /// version in the batch is not stored, so it does not count), fails the batch with
    /// ``uuidInUse``, one error whoever holds the UUID, so the answer tells the saving app only
    /// that the UUID is taken, never by whom or whether it may see it. A correlation's objects
    /// must come from the correlation's own source.
    @discardableResult
    public func save(_ samples: [Sample]) throws -> SaveOutcome {
        try database.write { try save(samples, in: $0) }
    }

    /// ``save(_:)`` inside the write transaction `db` of this store's database, so that other
    /// writes (the access's audit entry) commit with it or not at all.
    @discardableResult
    public func save(_ samples: [Sample], in db: Connection) throws -> SaveOutcome {
        try save(samples, at: samples.indices, in: db)
    }

    /// ``save(_:in:)`` of the samples at `positions` of `samples` (in their order), as if they
    /// were the batch: an import stores what it sorts in without copying each sample.
    @discardableResult
    func save(_ samples: [Sample], at positions: some Collection<Int>, in db: Connection) throws -> SaveOutcome {
        try Self.checkBatch(samples, at: positions)
        let superseded = Self.supersededSyncVersions(samples, at: positions)
        // A rolled-back transaction may have minted the ids these caches hold.
        db.onRollback { [self] in clearCaches() }
        do {
            var sequence = try db.scalarInt("SELECT value FROM counters WHERE name = 'change_sequence'") ?? 0
            var outcome = SaveOutcome(ignored: superseded.count)
            insertedUUIDs.removeAll(keepingCapacity: true)
            inserted.removeAll(keepingCapacity: true)
            let statements = Statements(
                sample: try db.statement(Self.insertSampleSQL),
                passesOverPresent: passesOverPresentUUIDs,
                metadata: try db.statement(Self.insertMetadataSQL)
            )
            for index in positions where superseded.isEmpty || !superseded.contains(index) {
                try save(
                    samples[index],
                    parent: nil,
                    in: db,
                    statements: statements,
                    sequence: &sequence,
                    outcome: &outcome
                )
            }
            // A deleted sample's UUID is never used again (its tombstone keeps it): one probe of the
            // tombstones' UUID index per batch, after the inserts, so that a sample this batch
            // replaced counts too. (Per row, as a trigger, it cost a fifth of a large save.)
            if try reusesDeletedUUID(db) { throw Self.uuidInUse }
            try recordInserted(db)
            try db.execute("UPDATE counters SET value = ? WHERE name = 'change_sequence'", [sequence])
            return outcome
        } catch {
            // Whatever the caller does with the transaction now, the rows inserted so far are
            // accounted for (a rollback undoes all of it anyway). Not when SQLite has rolled the
            // transaction back itself (a full disk): the statements would commit on their own.
            if db.isInTransaction {
                try? recordInserted(db)
            } else {
                inserted.removeAll(keepingCapacity: true)
            }
            throw error
        }
    }

    /// Whether a UUID the current batch inserted is a deleted sample's: by one pass over the
    /// tombstones' UUID index when the vault holds no more tombstones than the batch has
    /// samples (none, in most saves: no work), else by one probe of that index per UUID. (One
    /// statement matching the batch's UUIDs as a JSON list took 440 ms of a 100,000-sample
    /// save of 900 ms; a trigger per row, a fifth of it.)
    private func reusesDeletedUUID(_ db: Connection) throws -> Bool {
        guard !insertedUUIDs.isEmpty else { return false }
        // An upper bound of the tombstones' count (row ids only grow), from the end of the table.
        let tombstones = try db.scalarInt("SELECT coalesce(max(id), 0) FROM tombstones") ?? 0
        guard tombstones > 0 else { return false }
        if tombstones <= insertedUUIDs.count {
            let inserted = Set(insertedUUIDs)
            let statement = try db.statement("SELECT uuid FROM tombstones INDEXED BY tombstones_by_uuid")
            // Reset on the way in and out: a cached statement left part-way would hold its place.
            try statement.bind([])
            defer { try? statement.bind([]) }
            while try statement.step() {
                if let uuid = statement.value(at: 0).bytes.flatMap(UUID.init(bytes:)), inserted.contains(uuid) {
                    return true
                }
            }
            return false
        }
        let probe = try db.statement("SELECT EXISTS (SELECT 1 FROM tombstones WHERE uuid = ?)")
        defer { try? probe.bind([]) }
        for uuid in insertedUUIDs {
            try probe.bind(values: [.blob(uuid.bytes)])
            if try probe.step(), probe.int64(at: 0) == 1 { return true }
        }
        return false
    }

    /// A type code and source id: what a batch's bookkeeping (``InsertedSpan``) is kept by, the key
    /// of `sample_durations` and `statistics_changes`. (Public, with ``InsertedSpan``, for the
    /// benchmarks' raw inserts, which write what a save writes.)
    public struct TypeAndSource: Hashable, Sendable {
        public let type: Int64
        public let source: Int64

        public init(type: Int64, source: Int64) {
            self.type = type
            self.source = source
        }
    }

    /// What a batch inserted of one type and source: the longest duration, the UTC hours its
    /// samples reach (each from the hour of its start to that of its end) as a few ranges, and
    /// how many samples.
    public struct InsertedSpan: Sendable {
        public private(set) var longest: Double
        /// Ranges of hours, in the order they began (``mergedHours`` sorts and merges them). A
        /// sample whose hours overlap or touch the last range extends it, else starts another:
        /// samples come mostly in time order, so a batch keeps few ranges, and a save of last
        /// week and of years ago keeps two rather than forgetting every hour between.
        public private(set) var hours: [ClosedRange<Int64>]
        public private(set) var count: Int64

        /// More ranges than this are merged into one, from the first hour to the last.
        static let maximumRanges = 16

        /// The hour a date (seconds since 2001) falls in, as schema 18's trigger computes it:
        /// `CAST(date / 3600 AS INTEGER)`, less one for a date before 2001 that is not on the hour.
        public static func hour(_ date: Double) -> Int64 {
            // Beyond any date a sample can hold (years 0000-9999, hours within 1e8): kept in range.
            guard (date / 3600).magnitude < 1e15 else {
                return date < 0 ? -1_000_000_000_000_000 : 1_000_000_000_000_000
            }
            let truncated = Int64(date / 3600)
            return date < 0 && Double(truncated) * 3600 != date ? truncated - 1 : truncated
        }

        /// The hours a sample reaches, from its start's to its end's.
        static func hours(start: Double, end: Double) -> ClosedRange<Int64> {
            let first = hour(start)
            return first...max(first, hour(end))
        }

        public init(start: Double, end: Double) {
            longest = max(end - start, 0)
            hours = [Self.hours(start: start, end: end)]
            count = 1
        }

        public mutating func add(start: Double, end: Double) {
            longest = max(longest, end - start)
            count += 1
            let range = Self.hours(start: start, end: end)
            let last = hours[hours.count - 1]
            if range.lowerBound <= last.upperBound + 1, range.upperBound + 1 >= last.lowerBound {
                hours[hours.count - 1] = min(last.lowerBound, range.lowerBound)...max(last.upperBound, range.upperBound)
            } else if hours.count < Self.maximumRanges {
                hours.append(range)
            } else {
                let all = hours + [range]
                hours = [all.map(\.lowerBound).min()!...all.map(\.upperBound).max()!]
            }
        }

        /// The ranges, sorted and with those that overlap or touch merged.
        public var mergedHours: [ClosedRange<Int64>] {
            var merged: [ClosedRange<Int64>] = []
            for range in hours.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                    merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
                } else {
                    merged.append(range)
                }
            }
            return merged
        }
    }

    /// The statements of ``recordInserted(_:)``, each run once per type and source of a batch (for
    /// the benchmarks' raw inserts too, which do what a save does): a type and source's longest
    /// duration raised (type, source, longest); its kept hours forgotten, for every source and its
    /// own, in a range (type, source, first hour, last hour); its changes counted (type, source,
    /// count).
    public static let raiseLongestSQL = """
        INSERT INTO sample_durations (type, source_id, longest) VALUES (?, ?, ?)
        ON CONFLICT (type, source_id) DO UPDATE SET longest = max(longest, excluded.longest)
        """
    public static let forgetHoursSQL =
        "DELETE FROM statistics_hours WHERE type = ?1 AND source IN (0, ?2) AND hour BETWEEN ?3 AND ?4"
    public static let countChangesSQL = """
        INSERT INTO statistics_changes (type, source, changes) VALUES (?1, 0, ?3), (?1, ?2, ?3)
        ON CONFLICT (type, source) DO UPDATE SET changes = changes + excluded.changes
        """

    /// Once per type and source the batch inserted: raises its longest duration in
    /// `sample_durations` (never lowered); forgets the statistics hours kept for it (source 0 and
    /// its own) in the ranges its samples reach (every hour one of them reaches, and within a
    /// range those between), and counts its rows as changes in `statistics_changes`, as schema
    /// 18's insert trigger did row by row (schema 20 dropped it).
    private func recordInserted(_ db: Connection) throws {
        defer { inserted.removeAll(keepingCapacity: true) }
        let keys = inserted.keys.sorted { ($0.type, $0.source) < ($1.type, $1.source) }
        guard !keys.isEmpty else { return }
        let durations = try db.statement(Self.raiseLongestSQL)
        let forget = try db.statement(Self.forgetHoursSQL)
        let count = try db.statement(Self.countChangesSQL)
        for key in keys {
            let span = inserted[key]!
            try durations.execute(values: [.integer(key.type), .integer(key.source), .real(span.longest)])
            for hours in span.mergedHours {
                try forget.execute(values: [
                    .integer(key.type), .integer(key.source), .integer(hours.lowerBound), .integer(hours.upperBound),
                ])
            }
            try count.execute(values: [.integer(key.type), .integer(key.source), .integer(span.count)])
        }
    }

    /// The answer to a save whose UUID another object of the vault holds or held: the same bytes
    /// whether that object is the saving app's own, another app's it may read, one hidden from it,
    /// or deleted (docs/MODEL_JSON.md, "UUIDs").
    public static let uuidInUse = HealthError.invalidArgument(
        "this UUID already names an object in the vault; give every new object a new UUID",
        field: "uuid"
    )

    /// Refuses a correlation with another source's objects, and a series without its points (a
    /// UUID the vault holds or held is refused by the insert's own probe and the tombstones',
    /// batch or not).
    static func checkBatch(_ samples: [Sample], at positions: some Collection<Int>) throws(HealthError) {
        // By index, binding only correlations: a sample is large, and copying each one shows.
        for index in positions {
            try checkSeries(samples[index], at: index)
            guard case .correlation(let correlation) = samples[index] else { continue }
            for (position, member) in correlation.objects.enumerated() {
                try checkSeries(member, at: position, in: "[\(index)].objects")
            }
            let source = correlation.sourceRevision.source.bundleIdentifier
            for (position, member) in correlation.objects.enumerated()
            where !ExactString.equal(member.sourceRevision.source.bundleIdentifier, source) {
                throw .invalidArgument(
                    "a correlation's objects must come from the correlation's own source",
                    field: "[\(index)].objects[\(position)].sourceRevision.source.bundleIdentifier"
                )
            }
        }
    }

    /// The positions of samples whose sync identifier has a higher version in the same batch (or an
    /// equal version earlier in it): they are ignored, as if saved one after another.
    static func supersededSyncVersions(_ samples: [Sample], at positions: some Collection<Int>) -> Set<Int> {
        var winners: [SyncKey: (index: Int, version: Int64)] = [:]
        var superseded: Set<Int> = []
        for index in positions {
            guard let (key, version) = SyncKey.of(samples[index]) else { continue }
            if let winner = winners[key] {
                if version > winner.version {
                    superseded.insert(winner.index)
                    winners[key] = (index, version)
                } else {
                    superseded.insert(index)
                }
            } else {
                winners[key] = (index, version)
            }
        }
        return superseded
    }

    /// A sample's source and sync identifier, with its sync version.
    struct SyncKey: Hashable {
        let source: ExactString
        let identifier: ExactString

        static func of(_ sample: Sample) -> (SyncKey, Int64)? {
            of(sample.metadata, source: sample.sourceRevision.source)
        }

        static func of(_ metadata: Metadata, source: Source) -> (SyncKey, Int64)? {
            guard !metadata.isEmpty, case .string(let identifier) = metadata[.syncIdentifier],
                case .number(let number) = metadata[.syncVersion],
                let version = Int64(exactly: number)
            else { return nil }
            return (SyncKey(source: ExactString(source.bundleIdentifier), identifier: ExactString(identifier)), version)
        }
    }

    private func clearCaches() {
        typeCodes = InternCache()
        sourceIDs = InternCache()
        unitIDs = InternCache()
        revisionIDs = [:]
        deviceIDs = [:]
        lastRevision = nil
        lastDevice = nil
    }

    /// A sample's row, added only if no row holds its UUID (`?1`): since schema 21 the vault keeps
    /// a UUID to one object through this probe rather than a unique index of its own
    /// (docs/VAULT_FORMAT.md). It searches `samples_by_uuid_visibility` (`WindowPlanTests` pins
    /// the plan), whose leaf the insert then writes. `changes` 0 after it: the UUID is held (a save
    /// fails, an import passes over it).
    static let insertSampleSQL = """
        INSERT INTO samples (uuid, type, source_id, revision_id, device_id, start_date, end_date, value,
            given_value, unit_id, parent_id, sync_identifier, sync_version, seq)
        SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14
        WHERE NOT EXISTS (SELECT 1 FROM samples WHERE uuid = ?1)
        """

    static let insertMetadataSQL =
        "INSERT INTO sample_metadata (sample_id, key, kind, text_value, number_value, base_value) VALUES (?, ?, ?, ?, ?, ?)"

    /// The statements a save runs for every sample, prepared once per save.
    private struct Statements {
        let sample: Statement
        /// An import's: a top-level sample whose UUID the vault holds is passed over, not refused.
        let passesOverPresent: Bool
        let metadata: Statement
    }

    private func save(
        _ sample: Sample,
        parent: Int64?,
        in db: Connection,
        statements: Statements,
        sequence: inout Int64,
        outcome: inout SaveOutcome
    ) throws {
        // One switch, then the concrete sample: going through `Sample`'s accessors copies it each time.
        var row = Row(parent: parent, statements: statements)
        switch sample {
        case .quantity(let quantitySample):
            row.value = try quantitySample.quantity.doubleValue(for: quantitySample.quantityType.canonicalUnit)
            row.givenValue = quantitySample.quantity.value
            row.unitID = try intern(unit: quantitySample.quantity.unit.unitString, db)
            if let id = try insert(quantitySample, row, in: db, sequence: &sequence, outcome: &outcome),
                quantitySample.count > 1
            {
                try insertSeries(of: quantitySample, sampleID: id, db)
            }
        case .category(let categorySample):
            row.value = Double(categorySample.value)
            _ = try insert(categorySample, row, in: db, sequence: &sequence, outcome: &outcome)
        case .workout(let workout):
            row.value = workout.duration
            if let id = try insert(workout, row, in: db, sequence: &sequence, outcome: &outcome) {
                try insert(workout: workout, sampleID: id, db)
            }
        case .workoutRoute(let route):
            // The row alone: a route's locations come from its builder (saveRoute).
            row.value = Double(route.count)
            _ = try insert(route, row, in: db, sequence: &sequence, outcome: &outcome)
        case .stateOfMind, .gad7Assessment, .phq9Assessment, .electrocardiogram, .audiogram, .heartbeatSeries,
            .visionPrescription, .cdaDocument:
            if let id = try insert(sample, row, in: db, sequence: &sequence, outcome: &outcome) {
                try insertDetails(of: sample, sampleID: id, db)
            }
        case .correlation(let correlation):
            if let id = try insert(correlation, row, in: db, sequence: &sequence, outcome: &outcome) {
                for member in correlation.objects {
                    if !adoptedMembers.isEmpty, adoptedMembers.contains(member.uuid) {
                        try adopt(member.uuid, parent: id, in: db)
                        continue
                    }
                    try save(
                        member,
                        parent: id,
                        in: db,
                        statements: statements,
                        sequence: &sequence,
                        outcome: &outcome
                    )
                }
            }
        }
    }

    /// Makes the stored sample `uuid`, which belongs to no correlation, a member of the correlation
    /// row `parent`: its row, values and sequence stay as they are.
    private func adopt(_ uuid: UUID, parent: Int64, in db: Connection) throws {
        try db.statement("UPDATE samples SET parent_id = ? WHERE uuid = ? AND parent_id IS NULL")
            .execute(values: [.integer(parent), .blob(uuid.bytes)])
        guard db.changes == 1 else {
            throw HealthError(
                .unknownError,
                "an adopted correlation member is not a sample of its own",
                field: "objects"
            )
        }
    }

    /// What differs between the kinds of sample in their `samples` row.
    private struct Row {
        let parent: Int64?
        let statements: Statements
        var value: Double?
        var givenValue: Double?
        var unitID: Int64?
    }

    /// Inserts one sample's row and metadata (replacing an older sync version); returns its row id,
    /// or nil when the vault already holds the same or a newer sync version.
    private func insert<S: HealthSample>(
        _ sample: S,
        _ row: Row,
        in db: Connection,
        sequence: inout Int64,
        outcome: inout SaveOutcome
    ) throws -> Int64? {
        let revision = sample.sourceRevision
        let sourceID = try intern(source: revision.source.bundleIdentifier, db)
        var syncIdentifier: String?
        var syncVersion: Int64?
        if row.parent == nil, let (key, version) = SyncKey.of(sample.metadata, source: revision.source) {
            // An import's sample the vault holds is passed over before its sync version is
            // weighed (replacing the held one would reuse its UUID).
            if row.statements.passesOverPresent,
                try db.statement("SELECT EXISTS (SELECT 1 FROM samples WHERE uuid = ?)")
                    .rows([DatabaseValue.blob(sample.uuid.bytes)]).first?[0].int64 == 1
            {
                passedOverUUIDs.append(sample.uuid)
                return nil
            }
            syncIdentifier = key.identifier.string
            syncVersion = version
            let existing = try db.statement(
                "SELECT id, sync_version FROM samples WHERE source_id = ? AND sync_identifier = ?"
            ).rows([sourceID, key.identifier.string])
            if let stored = existing.first {
                guard let old = stored[1].int64, version > old else {
                    outcome.ignored += 1
                    return nil
                }
                try delete(ids: [stored[0].int64!], in: db, sequence: &sequence)
                outcome.replaced += 1
            }
        }
        sequence += 1
        // Bound one by one: an array of the row's values for every sample showed in large saves.
        let uuid = sample.uuid
        let insertSample = row.statements.sample
        insertSample.reset()
        try insertSample.bind(uuid, at: 1)
        let typeCode = try intern(type: sample.sampleType.identifier, db)
        try insertSample.bind(.integer(typeCode), at: 2)
        try insertSample.bind(.integer(sourceID), at: 3)
        try insertSample.bind(.integer(try intern(revision: revision, sourceID: sourceID, db)), at: 4)
        if let device = sample.device { try insertSample.bind(.integer(try intern(device: device, db)), at: 5) }
        let start = sample.startDate.timeIntervalSinceReferenceDate
        let end = sample.endDate.timeIntervalSinceReferenceDate
        try insertSample.bind(.real(start), at: 6)
        try insertSample.bind(.real(end), at: 7)
        if let value = row.value { try insertSample.bind(.real(value), at: 8) }
        if let givenValue = row.givenValue { try insertSample.bind(.real(givenValue), at: 9) }
        if let unitID = row.unitID { try insertSample.bind(.integer(unitID), at: 10) }
        if let parent = row.parent { try insertSample.bind(.integer(parent), at: 11) }
        if let syncIdentifier { try insertSample.bind(.text(syncIdentifier), at: 12) }
        if let syncVersion { try insertSample.bind(.integer(syncVersion), at: 13) }
        try insertSample.bind(.integer(sequence), at: 14)
        try insertSample.run()
        if db.changes == 0 {
            // The vault holds the UUID: an import passes over its own top-level sample, anything
            // else fails the batch, whoever holds it.
            guard row.parent == nil, row.statements.passesOverPresent else { throw Self.uuidInUse }
            sequence -= 1
            passedOverUUIDs.append(uuid)
            return nil
        }
        let id = db.lastInsertRowID
        insertedUUIDs.append(uuid)
        // Durations as SQL subtracts them (migration 17 computes the same from the stored dates).
        inserted.add(TypeAndSource(type: typeCode, source: sourceID), start: start, end: end)
        let metadata = sample.metadata
        if !metadata.isEmpty {
            for (key, metadataValue) in metadata {
                try insert(metadata: metadataValue, key: key, sampleID: id, row.statements.metadata, db)
            }
        }
        if row.parent == nil {
            outcome.saved += 1
        }
        return id
    }

    private func insert(
        metadata value: MetadataValue,
        key: MetadataKey,
        sampleID: Int64,
        _ statement: Statement,
        _ db: Connection
    ) throws {
        let (kind, text, number, base): (Int64, String?, Double?, Double?) =
            switch value {
            case .string(let string): (0, string, nil, nil)
            case .number(let number): (1, nil, number, number)
            case .date(let date): (2, nil, date.timeIntervalSinceReferenceDate, date.timeIntervalSinceReferenceDate)
            case .quantity(let quantity):
                (3, quantity.unit.unitString, quantity.value, quantity.unit.baseValue(quantity.value))
            }
        if kind == 3, let text {
            _ = try intern(unit: text, db)
        }
        statement.reset()
        try statement.bind(.integer(sampleID), at: 1)
        try statement.bind(.text(key.rawValue), at: 2)
        try statement.bind(.integer(kind), at: 3)
        if let text { try statement.bind(.text(text), at: 4) }
        if let number { try statement.bind(.real(number), at: 5) }
        if let base { try statement.bind(.real(base), at: 6) }
        try statement.run()
    }

    private func insert(workout: Workout, sampleID: Int64, _ db: Connection) throws {
        try db.statement(
            """
            INSERT INTO workouts (sample_id, activity_type, duration, energy_value, energy_unit_id, energy_base,
                distance_value, distance_unit_id, distance_base)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).execute([
            sampleID,
            workout.workoutActivityType.rawValue,
            workout.duration,
            workout.totalEnergyBurned?.value,
            try workout.totalEnergyBurned.map { try intern(unit: $0.unit.unitString, db) },
            workout.totalEnergyBurned.map { $0.unit.baseValue($0.value) },
            workout.totalDistance?.value,
            try workout.totalDistance.map { try intern(unit: $0.unit.unitString, db) },
            workout.totalDistance.map { $0.unit.baseValue($0.value) },
        ])
        if !workout.workoutActivities.isEmpty || !workout.allStatistics.isEmpty {
            func json<T: Encodable>(_ values: [T]) throws -> String? {
                values.isEmpty ? nil : String(decoding: try HealthJSON.encode(values), as: UTF8.self)
            }
            try db.statement("INSERT INTO workout_details (sample_id, activities, statistics) VALUES (?, ?, ?)")
                .execute([sampleID, try json(workout.workoutActivities), try json(workout.allStatistics)])
        }
        for (position, event) in workout.workoutEvents.enumerated() {
            let metadata =
                event.metadata.isEmpty ? nil : String(decoding: try HealthJSON.encode(event.metadata), as: UTF8.self)
            try db.statement(
                "INSERT INTO workout_events (sample_id, position, type, start_date, end_date, metadata) VALUES (?, ?, ?, ?, ?, ?)"
            ).execute([
                sampleID,
                position,
                event.type.rawValue,
                event.startDate.timeIntervalSinceReferenceDate,
                event.endDate.timeIntervalSinceReferenceDate,
                metadata,
            ])
        }
    }

    // MARK: Interning

    private func intern(type identifier: String, _ db: Connection) throws -> Int64 {
        try typeCodes.id(for: identifier) {
            try Self.internRow(
                select: "SELECT code FROM types WHERE identifier = ?",
                insert: "INSERT INTO types (identifier) VALUES (?)",
                [identifier],
                db
            )
        }
    }

    private func intern(source bundleIdentifier: String, _ db: Connection) throws -> Int64 {
        try sourceIDs.id(for: bundleIdentifier) {
            try Self.internRow(
                select: "SELECT id FROM sources WHERE bundle_id = ?",
                insert: "INSERT INTO sources (bundle_id) VALUES (?)",
                [bundleIdentifier],
                db
            )
        }
    }

    private func intern(revision: SourceRevision, sourceID: Int64, _ db: Connection) throws -> Int64 {
        if let (last, id) = lastRevision,
            ExactString.equal(last.source.bundleIdentifier, revision.source.bundleIdentifier),
            ExactString.equal(last.source.name, revision.source.name),
            ExactString.equal(last.version, revision.version),
            ExactString.equal(last.productType, revision.productType),
            ExactString.equal(last.operatingSystemVersion, revision.operatingSystemVersion)
        {
            return id
        }
        let key = ExactStrings([
            revision.source.bundleIdentifier, revision.source.name, revision.version, revision.productType,
            revision.operatingSystemVersion,
        ])
        let id: Int64
        if let cached = revisionIDs[key] {
            id = cached
        } else {
            let identity = String(decoding: try HealthJSON.encode(revision), as: UTF8.self)
            id = try Self.internRow(
                select: "SELECT id FROM revisions WHERE identity = ?",
                insert:
                    "INSERT INTO revisions (identity, source_id, name, version, product_type, os_version) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    identity, sourceID, revision.source.name, revision.version, revision.productType,
                    revision.operatingSystemVersion,
                ],
                db
            )
            revisionIDs[key] = id
        }
        lastRevision = (revision, id)
        return id
    }

    private func intern(device: Device, _ db: Connection) throws -> Int64 {
        if let (last, id) = lastDevice, Self.sameBytes(last, device) { return id }
        let id = try intern(newDevice: device, db)
        lastDevice = (device, id)
        return id
    }

    /// Whether two devices' fields hold the same bytes.
    private static func sameBytes(_ a: Device, _ b: Device) -> Bool {
        ExactString.equal(a.name, b.name) && ExactString.equal(a.manufacturer, b.manufacturer)
            && ExactString.equal(a.model, b.model) && ExactString.equal(a.hardwareVersion, b.hardwareVersion)
            && ExactString.equal(a.firmwareVersion, b.firmwareVersion)
            && ExactString.equal(a.softwareVersion, b.softwareVersion)
            && ExactString.equal(a.localIdentifier, b.localIdentifier)
            && ExactString.equal(a.udiDeviceIdentifier, b.udiDeviceIdentifier)
    }

    private func intern(newDevice device: Device, _ db: Connection) throws -> Int64 {
        let key = ExactStrings([
            device.name, device.manufacturer, device.model, device.hardwareVersion, device.firmwareVersion,
            device.softwareVersion, device.localIdentifier, device.udiDeviceIdentifier,
        ])
        if let id = deviceIDs[key] { return id }
        let identity = String(decoding: try HealthJSON.encode(device), as: UTF8.self)
        let id = try Self.internRow(
            select: "SELECT id FROM devices WHERE identity = ?",
            insert: """
                INSERT INTO devices (identity, name, manufacturer, model, hardware_version, firmware_version,
                    software_version, local_identifier, udi_device_identifier) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            [
                identity, device.name, device.manufacturer, device.model, device.hardwareVersion,
                device.firmwareVersion,
                device.softwareVersion, device.localIdentifier, device.udiDeviceIdentifier,
            ],
            db
        )
        deviceIDs[key] = id
        return id
    }

    func intern(unit: String, _ db: Connection) throws -> Int64 {
        try unitIDs.id(for: unit) {
            try Self.internRow(
                select: "SELECT id FROM units WHERE unit = ?",
                insert: "INSERT INTO units (unit) VALUES (?)",
                [unit],
                db
            )
        }
    }

    /// The id of the row whose first value is `arguments[0]`, inserting it when absent.
    private static func internRow(
        select: String,
        insert: String,
        _ arguments: [any DatabaseValueConvertible],
        _ db: Connection
    ) throws -> Int64 {
        if let id = try db.statement(select).rows([arguments[0]]).first?[0].int64 { return id }
        try db.statement(insert).execute(arguments)
        return db.lastInsertRowID
    }

    // MARK: Deleting

    /// Deletes samples by UUID. An app deletes only its own samples: another app's UUID is treated
    /// exactly like an unknown one. Deleting a member of a correlation deletes the correlation.
    /// Returns the number of samples deleted (members included). Each leaves a tombstone.
    @discardableResult
    public func delete(uuids: [UUID], scope: DeleteScope) throws -> Int {
        guard !uuids.isEmpty else { return 0 }
        return try database.write { try delete(uuids: uuids, scope: scope, in: $0) }
    }

    /// ``delete(uuids:scope:)`` inside the write transaction `db`.
    @discardableResult
    public func delete(uuids: [UUID], scope: DeleteScope, in db: Connection) throws -> Int {
        try delete(uuids: uuids, scope: scope, in: db) { _ in }.count
    }

    /// ``delete(uuids:scope:in:)``, first showing `check` what would go (which apps' samples of
    /// which types): when it throws, nothing is deleted and the error is rethrown. Returns what
    /// went.
    public func delete(
        uuids: [UUID],
        scope: DeleteScope,
        in db: Connection,
        check: (Deletion) throws -> Void
    ) throws -> Deletion {
        try delete(ids: topLevelIDs(uuids: uuids, scope: scope, db), in: db, check: check)
    }

    /// The top-level samples (a member's correlation) with these UUIDs in `scope`.
    func topLevelIDs(uuids: [UUID], scope: DeleteScope, _ db: Connection) throws -> [Int64] {
        guard !uuids.isEmpty else { return [] }
        var sql = """
            SELECT s.id, s.parent_id FROM samples s
            WHERE s.uuid IN (SELECT unhex(value) FROM json_each(?))
            """
        var arguments: [any DatabaseValueConvertible] = [
            PredicateCompiler.jsonArray(uuids.map(\.hexDigits))
        ]
        if case .app(let bundleIdentifier) = scope {
            sql += " AND s.source_id = (SELECT id FROM sources WHERE bundle_id = ?)"
            arguments.append(bundleIdentifier)
        }
        return try db.rows(sql, arguments).map { $0[1].int64 ?? $0[0].int64! }
    }

    /// Deletes the samples of a type that match a predicate, within the scope; returns the count.
    @discardableResult
    public func delete(matching query: SampleTypePredicate, scope: DeleteScope) throws -> Int {
        try database.write { try delete(matching: query, scope: scope, in: $0) }
    }

    /// ``delete(matching:scope:)`` inside the write transaction `db`.
    @discardableResult
    public func delete(matching query: SampleTypePredicate, scope: DeleteScope, in db: Connection) throws -> Int {
        try delete(matching: query, scope: scope, in: db) { _ in }.count
    }

    /// ``delete(matching:scope:in:)``, first showing `check` what would go, as
    /// ``delete(uuids:scope:in:check:)``.
    public func delete(
        matching query: SampleTypePredicate,
        scope: DeleteScope,
        in db: Connection,
        check: (Deletion) throws -> Void
    ) throws -> Deletion {
        try delete(ids: topLevelIDs(matching: query, scope: scope, db), in: db, check: check)
    }

    /// The top-level samples matching `query` in `scope`.
    func topLevelIDs(
        matching query: SampleTypePredicate,
        scope: DeleteScope,
        _ db: Connection
    ) throws
        -> [Int64]
    {
        try query.validate()
        let readScope: ReadScope =
            switch scope {
            case .owner: .owner
            case .app(let bundleIdentifier): .app(bundleIdentifier, readableTypes: [])
            }
        guard
            let branch = try branch(
                for: query,
                scope: readScope,
                columns: SQLFragment("s.id, s.parent_id"),
                db
            )
        else {
            return []
        }
        return try db.rows(branch.sql, branch.arguments).map { $0[1].int64 ?? $0[0].int64! }
    }

    /// Deletes top-level samples `ids` with their members, once `check` has accepted what would
    /// go.
    private func delete(ids: [Int64], in db: Connection, check: (Deletion) throws -> Void) throws -> Deletion {
        let (doomed, deletion) = try doomed(ids: ids, db)
        try check(deletion)
        guard !doomed.isEmpty else { return deletion }
        var sequence = try db.scalarInt("SELECT value FROM counters WHERE name = 'change_sequence'") ?? 0
        try remove(doomed, ids: ids, in: db, sequence: &sequence)
        try db.execute("UPDATE counters SET value = ? WHERE name = 'change_sequence'", [sequence])
        return deletion
    }

    /// Deletes top-level samples with their members (a save replacing an older sync version).
    private func delete(ids: [Int64], in db: Connection, sequence: inout Int64) throws {
        try remove(doomed(ids: ids, db).rows, ids: ids, in: db, sequence: &sequence)
    }

    /// Removes the `doomed` rows (top-level `ids` and their members), leaving a tombstone for each.
    private func remove(_ doomed: [VaultStore.Row], ids: [Int64], in db: Connection, sequence: inout Int64) throws {
        let now = Date().timeIntervalSinceReferenceDate
        // A correlation's tombstone spans it and its objects: a reader with a window is told of
        // its deletion only if it could see the correlation (docs/ACCESS_RULES.md, "Windows").
        var spans: [Int64: (start: Double, end: Double)] = [:]
        for row in doomed {
            guard let id = row[0].int64, let start = row[6].double, let end = row[7].double else { continue }
            let top = row[8].int64 ?? id
            let span = spans[top] ?? (start, end)
            spans[top] = (min(span.start, start), max(span.end, end))
        }
        let insert = try db.statement(
            "INSERT INTO tombstones (uuid, type, source_id, seq, deleted_at, start_date, end_date) VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        for row in doomed {
            sequence += 1
            let own = (row[6].double, row[7].double)
            let span = row[8].isNull ? row[0].int64.flatMap { spans[$0] } ?? own : own
            try insert.execute(values: [
                row[1], row[2], row[3], .integer(sequence), .real(now), span.0.map(DatabaseValue.real) ?? .null,
                span.1.map(DatabaseValue.real) ?? .null,
            ])
        }
        try db.execute(
            "DELETE FROM samples WHERE id IN (SELECT value FROM json_each(?))",
            ["[" + ids.map(String.init).joined(separator: ",") + "]"]
        )
        // A deleted workout's associations go with it: the workout predicate then matches nothing.
        let workouts = doomed.filter { $0[4].string == ObjectType.workoutTypeIdentifier }.compactMap { $0[1].bytes }
        for uuid in workouts {
            try db.execute("DELETE FROM workout_samples WHERE workout = ?", [DatabaseValue.blob(uuid)])
        }
    }

    /// The rows of top-level samples `ids` and their members: id, uuid, type code, source id, type
    /// identifier, bundle id, start and end dates and parent, in id order.
    private func doomed(ids: [Int64], _ db: Connection) throws -> (rows: [VaultStore.Row], deletion: Deletion) {
        guard !ids.isEmpty else { return ([], Deletion(count: 0, sources: [:])) }
        let list = "(SELECT value FROM json_each(?))"
        let json = "[" + Set(ids).sorted().map(String.init).joined(separator: ",") + "]"
        let rows = try db.rows(
            """
            SELECT s.id, s.uuid, s.type, s.source_id, t.identifier, src.bundle_id, s.start_date, s.end_date, s.parent_id
            FROM samples s
            JOIN types t ON t.code = s.type JOIN sources src ON src.id = s.source_id
            WHERE s.id IN \(list) OR s.parent_id IN \(list) ORDER BY s.id
            """,
            [json, json]
        )
        var sources: [SampleType: Set<String>] = [:]
        for row in rows {
            guard let type = try? SampleType(identifier: row[4].string ?? ""), let source = row[5].string else {
                continue
            }
            sources[type, default: []].insert(source)
        }
        return (rows, Deletion(count: rows.count, sources: sources))
    }

    /// The latest change sequence: it grows with every insert and deletion.
    public func changeSequence() throws -> Int64 {
        try database.read(changeSequence(in:))
    }

    /// The latest change sequence as `db` sees it.
    public func changeSequence(in db: Connection) throws -> Int64 {
        try db.scalarInt("SELECT value FROM counters WHERE name = 'change_sequence'") ?? 0
    }

    // MARK: Characteristics

    public func setCharacteristic(_ value: CharacteristicValue) throws {
        try database.write { try setCharacteristic(value, in: $0) }
    }

    /// ``setCharacteristic(_:)`` inside the write transaction `db`.
    public func setCharacteristic(_ value: CharacteristicValue, in db: Connection) throws {
        let json = String(decoding: try HealthJSON.encode(value), as: UTF8.self)
        try db.execute(
            "INSERT INTO characteristics (type, value) VALUES (?, ?) ON CONFLICT(type) DO UPDATE SET value = excluded.value",
            [value.type.rawValue, json]
        )
    }

    public func characteristic(_ type: CharacteristicTypeIdentifier) throws -> CharacteristicValue? {
        try database.read { try characteristic(type, in: $0) }
    }

    /// ``characteristic(_:)`` inside the transaction `db`.
    public func characteristic(_ type: CharacteristicTypeIdentifier, in db: Connection) throws -> CharacteristicValue? {
        guard let json = try db.scalarText("SELECT value FROM characteristics WHERE type = ?", [type.rawValue]) else {
            return nil
        }
        return try HealthJSON.decode(CharacteristicValue.self, from: Data(json.utf8))
    }

    /// Whether the owner set a characteristic: the lookup of ``characteristic(_:in:)`` without
    /// decoding the value, for a caller that may not read it, so that its answer costs the same
    /// whether the owner set the characteristic or not.
    public func isCharacteristicSet(_ type: CharacteristicTypeIdentifier, in db: Connection) throws -> Bool {
        try db.scalarText("SELECT value FROM characteristics WHERE type = ?", [type.rawValue]) != nil
    }

    public func removeCharacteristic(_ type: CharacteristicTypeIdentifier) throws {
        try database.write { try removeCharacteristic(type, in: $0) }
    }

    /// ``removeCharacteristic(_:)`` inside the write transaction `db`.
    public func removeCharacteristic(_ type: CharacteristicTypeIdentifier, in db: Connection) throws {
        try db.execute("DELETE FROM characteristics WHERE type = ?", [type.rawValue])
    }
}

extension UUID {
    /// The 16 bytes, as stored.
    var bytes: [UInt8] { withUnsafeBytes(of: uuid) { Array($0) } }

    /// The 32 lowercase hexadecimal digits of the bytes, as SQL's `unhex` reads them (made
    /// directly: through `uuidString` and removing its dashes took a tenth of an import).
    var hexDigits: String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 32) { out in
                digits.withUTF8Buffer { digits in
                    for (index, byte) in bytes.enumerated() {
                        out[2 * index] = digits[Int(byte >> 4)]
                        out[2 * index + 1] = digits[Int(byte & 0x0F)]
                    }
                }
                return 32
            }
        }
    }

    init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.init(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}

extension [SampleStore.TypeAndSource: SampleStore.InsertedSpan] {
    /// Counts a sample from `start` to `end` in its type and source's span (a batch's bookkeeping;
    /// the benchmarks' raw inserts keep the same).
    public mutating func add(_ key: SampleStore.TypeAndSource, start: Double, end: Double) {
        if self[key] != nil {
            self[key]!.add(start: start, end: end)
        } else {
            self[key] = SampleStore.InsertedSpan(start: start, end: end)
        }
    }
}
