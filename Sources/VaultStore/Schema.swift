/// The database schema as forward-only migrations, each applied in its own transaction and
/// recorded in `PRAGMA user_version`.
///
/// Layout (version 1), chosen so that every read can be scoped without touching hidden rows:
/// samples are indexed by (type, source, start) for what an app may read only of its own, and by
/// (type, start) for types it may read wholly; the change sequence (`seq`) orders every insert and
/// deletion for anchored queries; values are kept in the type's canonical unit (for predicates
/// and statistics) beside the value and unit as given (for exact round trips).
public enum Schema {
    struct Migration {
        let version: Int
        let statements: [String]
        /// Why the database cannot take this migration as it is (nil: it can), asked inside the
        /// migration's transaction before its statements run.
        var refusal: (@Sendable (Connection) throws -> String?)? = nil
    }

    static let migrations: [Migration] = [
        Migration(
            version: 1,
            statements: [
                """
                CREATE TABLE types (
                    code INTEGER PRIMARY KEY,
                    identifier TEXT NOT NULL UNIQUE)
                """,
                """
                CREATE TABLE sources (
                    id INTEGER PRIMARY KEY,
                    bundle_id TEXT NOT NULL UNIQUE)
                """,
                """
                CREATE TABLE revisions (
                    id INTEGER PRIMARY KEY,
                    source_id INTEGER NOT NULL REFERENCES sources(id),
                    identity TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    version TEXT,
                    product_type TEXT,
                    os_version TEXT)
                """,
                """
                CREATE TABLE devices (
                    id INTEGER PRIMARY KEY,
                    identity TEXT NOT NULL UNIQUE,
                    name TEXT, manufacturer TEXT, model TEXT, hardware_version TEXT,
                    firmware_version TEXT, software_version TEXT, local_identifier TEXT,
                    udi_device_identifier TEXT)
                """,
                """
                CREATE TABLE units (
                    id INTEGER PRIMARY KEY,
                    unit TEXT NOT NULL UNIQUE)
                """,
                """
                CREATE TABLE samples (
                    id INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL,
                    type INTEGER NOT NULL REFERENCES types(code),
                    source_id INTEGER NOT NULL REFERENCES sources(id),
                    revision_id INTEGER NOT NULL REFERENCES revisions(id),
                    device_id INTEGER REFERENCES devices(id),
                    start_date REAL NOT NULL,
                    end_date REAL NOT NULL,
                    value REAL,
                    given_value REAL,
                    unit_id INTEGER REFERENCES units(id),
                    parent_id INTEGER REFERENCES samples(id) ON DELETE CASCADE,
                    sync_identifier TEXT,
                    sync_version INTEGER,
                    seq INTEGER NOT NULL)
                """,
                // UUIDs unique per source; version 7 makes them unique in the vault.
                "CREATE UNIQUE INDEX samples_by_uuid_source ON samples(uuid, source_id)",
                "CREATE INDEX samples_by_type_source_start ON samples(type, source_id, start_date)",
                "CREATE INDEX samples_by_type_start ON samples(type, start_date)",
                "CREATE INDEX samples_by_type_source_seq ON samples(type, source_id, seq)",
                "CREATE INDEX samples_by_parent ON samples(parent_id) WHERE parent_id IS NOT NULL",
                """
                CREATE UNIQUE INDEX samples_by_sync_identifier ON samples(source_id, sync_identifier)
                    WHERE sync_identifier IS NOT NULL
                """,
                """
                CREATE TABLE sample_metadata (
                    sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
                    key TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    text_value TEXT,
                    number_value REAL,
                    base_value REAL,
                    PRIMARY KEY (sample_id, key)) WITHOUT ROWID
                """,
                "CREATE INDEX sample_metadata_by_key ON sample_metadata(key, sample_id)",
                """
                CREATE TABLE workouts (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    activity_type INTEGER NOT NULL,
                    duration REAL NOT NULL,
                    energy_value REAL, energy_unit_id INTEGER REFERENCES units(id), energy_base REAL,
                    distance_value REAL, distance_unit_id INTEGER REFERENCES units(id), distance_base REAL)
                """,
                """
                CREATE TABLE workout_events (
                    sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    type INTEGER NOT NULL,
                    start_date REAL NOT NULL,
                    end_date REAL NOT NULL,
                    metadata TEXT,
                    PRIMARY KEY (sample_id, position)) WITHOUT ROWID
                """,
                """
                CREATE TABLE tombstones (
                    id INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL,
                    type INTEGER NOT NULL,
                    source_id INTEGER NOT NULL,
                    seq INTEGER NOT NULL,
                    deleted_at REAL NOT NULL)
                """,
                "CREATE INDEX tombstones_by_type_source_seq ON tombstones(type, source_id, seq)",
                "CREATE INDEX tombstones_by_type_seq ON tombstones(type, seq)",
                """
                CREATE TABLE characteristics (
                    type TEXT PRIMARY KEY,
                    value TEXT NOT NULL) WITHOUT ROWID
                """,
                """
                CREATE TABLE counters (
                    name TEXT PRIMARY KEY,
                    value INTEGER NOT NULL) WITHOUT ROWID
                """,
                "INSERT INTO counters (name, value) VALUES ('change_sequence', 0)",
            ]
        ),
        // The audit log (docs/AUDIT_LOG.md): entries in their canonical encoding, every complete
        // subtree hash (for proofs), the compact range (the tree's right edge, so an append
        // hashes O(log n) and never rereads the log), and the signed checkpoints. Entries and
        // nodes can be appended, never changed or removed.
        Migration(
            version: 2,
            statements: [
                "CREATE TABLE audit_entries (sequence INTEGER PRIMARY KEY, entry BLOB NOT NULL)",
                """
                CREATE TABLE audit_nodes (
                    level INTEGER NOT NULL,
                    idx INTEGER NOT NULL,
                    hash BLOB NOT NULL,
                    PRIMARY KEY (level, idx)) WITHOUT ROWID
                """,
                """
                CREATE TABLE audit_range (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    size INTEGER NOT NULL,
                    hashes BLOB NOT NULL)
                """,
                "CREATE TABLE audit_checkpoints (size INTEGER PRIMARY KEY, note TEXT NOT NULL)",
            ]
                + ["audit_entries", "audit_nodes", "audit_checkpoints"].flatMap { table in
                    ["UPDATE", "DELETE"].map { operation in
                        """
                        CREATE TRIGGER \(table)_no_\(operation.lowercased()) BEFORE \(operation) ON \(table)
                        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
                        """
                    }
                }
        ),
        // The vault engine's apps, grants and authorization requests (docs/VAULT_FORMAT.md), and
        // vault-wide settings (the access policy). Grants live here, in the encrypted store, never
        // in a file an app could edit. `access` is 0 for read, 1 for share; `decision` 1 granted,
        // 2 denied (no row: not determined).
        Migration(
            version: 3,
            statements: [
                """
                CREATE TABLE apps (
                    app_id TEXT PRIMARY KEY,
                    display_name TEXT NOT NULL,
                    public_key BLOB NOT NULL,
                    read_purpose TEXT NOT NULL,
                    share_purpose TEXT NOT NULL,
                    declared_read TEXT NOT NULL,
                    declared_share TEXT NOT NULL,
                    enrolled_at REAL NOT NULL) WITHOUT ROWID
                """,
                """
                CREATE TABLE grants (
                    app_id TEXT NOT NULL REFERENCES apps(app_id) ON DELETE CASCADE,
                    access INTEGER NOT NULL CHECK (access IN (0, 1)),
                    type TEXT NOT NULL,
                    decision INTEGER NOT NULL CHECK (decision IN (1, 2)),
                    decided_at REAL NOT NULL,
                    decided_by TEXT NOT NULL,
                    PRIMARY KEY (app_id, access, type)) WITHOUT ROWID
                """,
                """
                CREATE TABLE authorization_requests (
                    id INTEGER PRIMARY KEY,
                    app_id TEXT NOT NULL REFERENCES apps(app_id) ON DELETE CASCADE,
                    requested_at REAL NOT NULL)
                """,
                """
                CREATE TABLE authorization_request_types (
                    request_id INTEGER NOT NULL REFERENCES authorization_requests(id) ON DELETE CASCADE,
                    access INTEGER NOT NULL CHECK (access IN (0, 1)),
                    type TEXT NOT NULL,
                    PRIMARY KEY (request_id, access, type)) WITHOUT ROWID
                """,
                "CREATE INDEX authorization_requests_by_app ON authorization_requests(app_id)",
                """
                CREATE TABLE settings (
                    name TEXT PRIMARY KEY,
                    value TEXT NOT NULL) WITHOUT ROWID
                """,
            ]
        ),
        // Anchored queries of types read wholly walk a type's samples in change order.
        Migration(
            version: 4,
            statements: ["CREATE INDEX samples_by_type_seq ON samples(type, seq)"]
        ),
        // Background delivery (docs/VAULT_FORMAT.md): per app and type, the frequency asked for,
        // how many changes the app could see were recorded since, and how many of them the app
        // has acknowledged. Counted in the transaction of each change, so none is lost by a crash
        // or a restart; gone with the app.
        Migration(
            version: 5,
            statements: [
                """
                CREATE TABLE background_deliveries (
                    app_id TEXT NOT NULL REFERENCES apps(app_id) ON DELETE CASCADE,
                    type TEXT NOT NULL,
                    frequency TEXT NOT NULL,
                    changes INTEGER NOT NULL DEFAULT 0,
                    acknowledged INTEGER NOT NULL DEFAULT 0,
                    enabled_at REAL NOT NULL,
                    PRIMARY KEY (app_id, type)) WITHOUT ROWID
                """,
                "CREATE INDEX background_deliveries_by_type ON background_deliveries(type)",
            ]
        ),
        // Samples without a duration, apart: a statistics query learns from it, without a pass
        // over the rows, whether the sources it merges have any.
        Migration(
            version: 6,
            statements: [
                "CREATE INDEX samples_without_duration ON samples(type, source_id, start_date) WHERE end_date = start_date"
            ]
        ),
        // A UUID names one object in the whole vault, for the life of the vault: unique over every
        // source's samples (replacing the per-source index), and never the UUID of a deleted
        // sample (its tombstone keeps it; the store probes this index once per saved batch). A
        // save that collides fails whoever holds the UUID.
        Migration(
            version: 7,
            statements: [
                "DROP INDEX samples_by_uuid_source",
                "CREATE UNIQUE INDEX samples_by_uuid ON samples(uuid)",
                "CREATE INDEX tombstones_by_uuid ON tombstones(uuid)",
            ],
            refusal: { connection in
                let shared = try sharedUUIDs(connection)
                guard shared > 0 else { return nil }
                return "\(shared) UUID\(shared == 1 ? " is" : "s are") held by samples of more than one app "
                    + "(saved before schema version 7, when UUIDs were unique per source only); this HealthVault "
                    + "needs every UUID to name one object. Open the vault with the earlier HealthVault, export "
                    + "or delete one of each pair, then open it here"
            }
        ),
        // Live workouts (docs/WORKOUTS.md): a workout's activities and per-type statistics, the
        // samples associated with a workout (or with the live builder that will save it, under the
        // workout's UUID), and each app's workout session, kept so that it survives the app's
        // disconnection and the daemon's restart.
        Migration(
            version: 8,
            statements: [
                """
                CREATE TABLE workout_details (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    activities TEXT,
                    statistics TEXT)
                """,
                """
                CREATE TABLE workout_samples (
                    workout BLOB NOT NULL,
                    sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
                    PRIMARY KEY (workout, sample_id)) WITHOUT ROWID
                """,
                "CREATE INDEX workout_samples_by_sample ON workout_samples(sample_id)",
                """
                CREATE TABLE workout_sessions (
                    id BLOB PRIMARY KEY,
                    app_id TEXT NOT NULL REFERENCES apps(app_id) ON DELETE CASCADE,
                    record TEXT NOT NULL,
                    updated_at REAL NOT NULL) WITHOUT ROWID
                """,
                "CREATE INDEX workout_sessions_by_app ON workout_sessions(app_id)",
            ]
        ),
        // Workout routes (docs/WORKOUTS.md, "Routes"): each route's locations, packed in chunks,
        // and the route builders under way with the locations inserted so far, kept so that a
        // route survives the app's disconnection and the daemon's restart.
        Migration(
            version: 9,
            statements: [
                """
                CREATE TABLE route_locations (
                    sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
                    chunk INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    PRIMARY KEY (sample_id, chunk)) WITHOUT ROWID
                """,
                """
                CREATE TABLE route_builders (
                    id BLOB PRIMARY KEY,
                    app_id TEXT NOT NULL REFERENCES apps(app_id) ON DELETE CASCADE,
                    created_at REAL NOT NULL) WITHOUT ROWID
                """,
                """
                CREATE TABLE route_builder_locations (
                    builder BLOB NOT NULL REFERENCES route_builders(id) ON DELETE CASCADE,
                    chunk INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    PRIMARY KEY (builder, chunk)) WITHOUT ROWID
                """,
            ]
        ),
        // State of mind, scored assessments (GAD-7, PHQ-9), electrocardiograms, audiograms and
        // heartbeat series (docs/VAULT_FORMAT.md): each kind's details in a table of its own keyed by
        // the sample's row (gone with it), and the long series (voltage measurements, heartbeats) as
        // chunks of packed points, so a query reads one batch without loading the whole series.
        Migration(
            version: 10,
            statements: [
                """
                CREATE TABLE states_of_mind (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    kind INTEGER NOT NULL,
                    valence REAL NOT NULL,
                    labels TEXT NOT NULL,
                    associations TEXT NOT NULL)
                """,
                """
                CREATE TABLE scored_assessments (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    answers TEXT NOT NULL,
                    score INTEGER NOT NULL,
                    risk INTEGER NOT NULL)
                """,
                """
                CREATE TABLE electrocardiograms (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    classification INTEGER NOT NULL,
                    symptoms_status INTEGER NOT NULL,
                    heart_rate_value REAL, heart_rate_unit_id INTEGER REFERENCES units(id),
                    frequency_value REAL, frequency_unit_id INTEGER REFERENCES units(id),
                    measurement_count INTEGER NOT NULL,
                    voltage_unit_id INTEGER REFERENCES units(id))
                """,
                """
                CREATE TABLE audiograms (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    sensitivity_points TEXT NOT NULL)
                """,
                """
                CREATE TABLE heartbeat_series (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    beat_count INTEGER NOT NULL)
                """,
                """
                CREATE TABLE series_chunks (
                    sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
                    first INTEGER NOT NULL,
                    points BLOB NOT NULL,
                    PRIMARY KEY (sample_id, first))
                """,
            ]
        ),
        // Quantity series (docs/VAULT_FORMAT.md): a quantity sample holding many quantities keeps
        // its `samples` row (the sum or average, so queries, predicates and statistics read it as
        // any sample), how many quantities it holds and a discrete series' extremes and latest
        // quantity, and the quantities themselves as chunks of packed points.
        Migration(
            version: 11,
            statements: [
                """
                CREATE TABLE quantity_series (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    quantity_count INTEGER NOT NULL,
                    minimum REAL, maximum REAL, minimum_base REAL, maximum_base REAL,
                    most_recent REAL, most_recent_start REAL, most_recent_end REAL)
                """,
                """
                CREATE TABLE quantity_series_chunks (
                    sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
                    first INTEGER NOT NULL,
                    points BLOB NOT NULL,
                    PRIMARY KEY (sample_id, first))
                """,
            ]
        ),
        // A quantity series' type and source beside it, so that statistics ask in one probe
        // whether the sources a reader sees hold a discrete series of a type.
        Migration(
            version: 12,
            statements: [
                "ALTER TABLE quantity_series ADD COLUMN type INTEGER NOT NULL DEFAULT -1",
                "ALTER TABLE quantity_series ADD COLUMN source_id INTEGER NOT NULL DEFAULT -1",
                """
                UPDATE quantity_series SET
                    type = (SELECT s.type FROM samples s WHERE s.id = quantity_series.sample_id),
                    source_id = (SELECT s.source_id FROM samples s WHERE s.id = quantity_series.sample_id)
                """,
                """
                CREATE INDEX quantity_series_extremes ON quantity_series(type, source_id)
                    WHERE minimum_base IS NOT NULL
                """,
            ]
        ),
        // An app that asked again for types the owner had all decided already: nothing new waits,
        // but the owner sees that it asked (how often, first and last, for what), until the owner
        // next decides something for that app. `read` and `share` are JSON arrays of identifiers.
        Migration(
            version: 13,
            statements: [
                """
                CREATE TABLE authorization_repeats (
                    app_id TEXT PRIMARY KEY REFERENCES apps(app_id) ON DELETE CASCADE,
                    first_at REAL NOT NULL,
                    last_at REAL NOT NULL,
                    times INTEGER NOT NULL,
                    read TEXT NOT NULL,
                    share TEXT NOT NULL) WITHOUT ROWID
                """
            ]
        ),
        // Why an app wants each of some types (its manifest's `purposes`): a JSON object from
        // identifiers to text, NULL when the manifest gave none.
        Migration(version: 14, statements: ["ALTER TABLE apps ADD COLUMN type_purposes TEXT"]),
        // Read windows and expiries (docs/VAULT_FORMAT.md, "Grants"): a grant's window (none; a
        // fixed range; the last so many seconds; from the grant on) and the instant it expires.
        // A tombstone keeps its sample's dates (a correlation's: the span of it and its objects),
        // so a reader with a window is told of a deletion only when the sample lay inside it;
        // tombstones written before this version have none and lie inside no window.
        Migration(
            version: 15,
            statements: [
                "ALTER TABLE grants ADD COLUMN window_kind INTEGER CHECK (window_kind IN (1, 2, 3))",
                "ALTER TABLE grants ADD COLUMN window_start REAL",
                "ALTER TABLE grants ADD COLUMN window_end REAL",
                "ALTER TABLE grants ADD COLUMN window_seconds REAL",
                "ALTER TABLE grants ADD COLUMN expires_at REAL",
                "ALTER TABLE tombstones ADD COLUMN start_date REAL",
                "ALTER TABLE tombstones ADD COLUMN end_date REAL",
                "CREATE INDEX tombstones_by_type_start ON tombstones(type, start_date)",
            ]
        ),
        // Vision prescriptions and CDA documents, and reads object by object (docs/VAULT_FORMAT.md,
        // "Per-object reads"): a prescription's lenses as JSON; a document's bytes as given, with
        // the names read out of them; the objects the owner chose for each app (a grant names the
        // object by UUID and the change position it took effect at; a revocation keeps the row with
        // the position it ended at, so an anchored query tells the app the object went); and the
        // apps' requests to read a type object by object, with the predicate they gave.
        Migration(
            version: 16,
            statements: [
                """
                CREATE TABLE vision_prescriptions (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    prescription_type INTEGER NOT NULL,
                    lenses TEXT)
                """,
                """
                CREATE TABLE documents (
                    sample_id INTEGER PRIMARY KEY REFERENCES samples(id) ON DELETE CASCADE,
                    title TEXT NOT NULL,
                    patient_name TEXT NOT NULL,
                    author_name TEXT NOT NULL,
                    custodian_name TEXT NOT NULL,
                    data BLOB NOT NULL)
                """,
                """
                CREATE TABLE object_grants (
                    app_id TEXT NOT NULL REFERENCES apps(app_id) ON DELETE CASCADE,
                    uuid BLOB NOT NULL,
                    type TEXT NOT NULL,
                    granted_seq INTEGER NOT NULL,
                    revoked_seq INTEGER,
                    decided_at REAL NOT NULL,
                    PRIMARY KEY (app_id, uuid)) WITHOUT ROWID
                """,
                "CREATE INDEX object_grants_by_app_type ON object_grants(app_id, type, granted_seq)",
                "CREATE INDEX object_grants_by_uuid ON object_grants(uuid)",
                """
                CREATE TABLE object_requests (
                    request_id INTEGER PRIMARY KEY REFERENCES authorization_requests(id) ON DELETE CASCADE,
                    type TEXT NOT NULL,
                    predicate TEXT,
                    answered_at REAL)
                """,
            ]
        ),
        // The longest duration (end minus start, in seconds) of a sample stored per type and
        // source, kept at write time by every save (imports, restores' sources, series, workouts
        // and correlations' objects all save through it), so that a date predicate bounds the
        // start on both sides: a sample ending at or after `t` starts at or after `t` minus the
        // longest duration (docs/PERFORMANCE.md, "Sample queries"). It only grows: a deletion
        // leaves it, so it is an upper bound of the durations stored, never less.
        Migration(
            version: 17,
            statements: [
                """
                CREATE TABLE sample_durations (
                    type INTEGER NOT NULL,
                    source_id INTEGER NOT NULL,
                    longest REAL NOT NULL,
                    PRIMARY KEY (type, source_id)) WITHOUT ROWID
                """,
                """
                INSERT INTO sample_durations (type, source_id, longest)
                    SELECT type, source_id, max(max(end_date - start_date), 0) FROM samples GROUP BY type, source_id
                """,
            ]
        ),
        // Statistics kept by the hour (docs/STATISTICS.md, "Hours kept"): per quantity type, for
        // readers of every source (source 0) or of one source's own samples, each UTC hour's
        // computed pieces and segments; forgotten by these triggers when a sample reaching into
        // the hour is saved or deleted (since schema 20 a save does it for its batch instead).
        // `statistics_changes` counts the changes per type and source (0: any), so that hours
        // computed from a snapshot are kept only if none came since.
        Migration(
            version: 18,
            statements: [
                """
                CREATE TABLE statistics_hours (
                    type INTEGER NOT NULL,
                    source INTEGER NOT NULL,
                    hour INTEGER NOT NULL,
                    result BLOB NOT NULL,
                    PRIMARY KEY (type, source, hour)) WITHOUT ROWID
                """,
                """
                CREATE TABLE statistics_changes (
                    type INTEGER NOT NULL,
                    source INTEGER NOT NULL,
                    changes INTEGER NOT NULL,
                    PRIMARY KEY (type, source)) WITHOUT ROWID
                """,
                statisticsHoursTrigger(on: "INSERT", row: "NEW"),
                statisticsHoursTrigger(on: "DELETE", row: "OLD"),
            ]
        ),
        // A lookup by UUID decides what the reader may see from this index alone (source, type
        // and dates beside the UUID), so another app's hidden sample is never read and costs what
        // an unknown UUID costs (docs/ACCESS_RULES.md, "What is measured"). The unique index on
        // `uuid` stayed, keeping UUIDs unique in the vault, until schema 21.
        Migration(
            version: 19,
            statements: [
                "CREATE INDEX samples_by_uuid_visibility ON samples(uuid, source_id, type, start_date, end_date)"
            ]
        ),
        // A save forgets the kept hours and counts the changes once per type and source of its
        // batch (`SampleStore.recordInserted`), as it raises `sample_durations`: the insert
        // trigger, row by row, cost a 1,000,000-record import about a fifth of its time (the raw
        // inserts of the same rows a third), and about as much when told to stand aside.
        // Deletions keep their trigger.
        Migration(version: 20, statements: ["DROP TRIGGER statistics_hours_on_insert"]),
        // One index keyed by UUID instead of two: each saved sample's random UUID cost a random
        // leaf in each (about half the pages a save of ten samples wrote; 64 clients' saves alone
        // 712 to 1,132 a second, an import's raw inserts 15.9-16.8 to 15.2 s). The store keeps a
        // UUID to one object in the vault itself: each insert adds its row only if schema 19's
        // index holds no row of that UUID (`SampleStore.insertSampleSQL`), and a save whose insert
        // added nothing fails.
        Migration(version: 21, statements: ["DROP INDEX samples_by_uuid"]),
    ]

    /// Schema 18's trigger that forgets the kept hours a sample inserted or deleted (`row`, NEW or
    /// OLD) reaches, from the hour of its start to the hour of its end (floored, for dates before
    /// 2001 too), and counts the change for source 0 and for its source. (Since schema 20 a save
    /// does for its batch what the insert trigger did row by row, and only the delete trigger is
    /// left.)
    private static func statisticsHoursTrigger(on event: String, row: String) -> String {
        func hour(_ column: String) -> String {
            let date = "\(row).\(column)"
            return
                "(CAST(\(date) / 3600 AS INTEGER) - (\(date) < 0 AND CAST(\(date) / 3600 AS INTEGER) * 3600 != \(date)))"
        }
        return """
            CREATE TRIGGER statistics_hours_on_\(event.lowercased()) AFTER \(event) ON samples BEGIN
                DELETE FROM statistics_hours WHERE type = \(row).type AND source IN (0, \(row).source_id)
                    AND hour BETWEEN \(hour("start_date")) AND \(hour("end_date"));
                INSERT INTO statistics_changes (type, source, changes)
                    VALUES (\(row).type, 0, 1), (\(row).type, \(row).source_id, 1)
                    ON CONFLICT (type, source) DO UPDATE SET changes = changes + 1;
            END
            """
    }

    public static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// How many UUIDs more than one sample holds: none in a vault HealthVault wrote since schema 7
    /// (migration 7 refuses a vault with any; the vault check looks for them, since schema 21 left
    /// no index to refuse one).
    static func sharedUUIDs(_ connection: Connection) throws(DatabaseError) -> Int64 {
        try connection.scalarInt("SELECT count(*) FROM (SELECT uuid FROM samples GROUP BY uuid HAVING count(*) > 1)")
            ?? 0
    }

    /// Every statement that builds the latest schema on an empty database, in order: for tools
    /// and benchmarks that need the very same tables and indexes outside the store.
    public static var statements: [String] { migrations.flatMap(\.statements) }

    /// Brings the database to the latest version, one migration per transaction. Refuses a
    /// database made by a newer HealthVault rather than guess at it.
    static func migrate(_ database: Database, upTo target: Int = latestVersion) throws(StoreError) {
        do {
            try database.withWriter { connection in
                let current = Int(try connection.scalarInt("PRAGMA user_version") ?? 0)
                guard current <= latestVersion else {
                    throw StoreError.newerSchema(
                        "the database has schema version \(current); this HealthVault knows up to \(latestVersion)"
                    )
                }
                for migration in migrations where migration.version > current && migration.version <= target {
                    try connection.transaction(immediate: true) {
                        if let refusal = try migration.refusal?(connection) {
                            throw StoreError.cannotMigrate(
                                "the database cannot be brought to schema version \(migration.version): \(refusal)"
                            )
                        }
                        for statement in migration.statements {
                            try connection.execute(statement)
                        }
                        try connection.execute("PRAGMA user_version = \(migration.version)")
                    }
                }
            }
        } catch {
            throw StoreError(error)
        }
    }

    static func version(of database: Database) throws -> Int {
        try database.withWriter { Int(try $0.scalarInt("PRAGMA user_version") ?? 0) }
    }
}
