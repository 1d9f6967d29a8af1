public import Foundation
public import HealthModel

/// Live workouts in the store (schema version 8, docs/WORKOUTS.md): the samples associated with a
/// workout, and each app's workout sessions.
extension SampleStore {
    /// Associates samples of the source `bundleIdentifier` with the workout `workout` (which may
    /// not be saved yet: a live builder's samples wait under the UUID its workout will have),
    /// inside the write transaction `db`; each is named by its UUID and type, and a UUID that
    /// names no top-level sample of that type and source is passed over. Returns how many were
    /// not associated before.
    ///
    /// Samples are associated in the transaction that stores them: their change sequence is
    /// above `sequence`, the vault's before the transaction. With `acceptingEarlier` (a builder's
    /// `add` given a sample the app stored before), an earlier one is associated too and counted
    /// in the workout's late-associations counter, so that live statistics carried forward over
    /// the rows stored since (``liveWorkoutStatistics``) know to start again; without it, an
    /// earlier sample is passed over.
    @discardableResult
    public func associate(
        _ samples: [(uuid: UUID, type: SampleType)],
        ofSource bundleIdentifier: String,
        withWorkout workout: UUID,
        storedAfter sequence: Int64,
        acceptingEarlier: Bool = false,
        in db: Connection
    ) throws -> Int {
        guard !samples.isEmpty, let source = try sourceID(bundleIdentifier, db) else { return 0 }
        let key = DatabaseValue.blob(workout.bytes)
        let find = try db.statement(
            """
            SELECT s.id, s.seq FROM samples s JOIN types t ON t.code = s.type
            WHERE s.uuid = ? AND s.parent_id IS NULL AND s.source_id = ? AND t.identifier = ?
            """
        )
        let insert = try db.statement("INSERT OR IGNORE INTO workout_samples (workout, sample_id) VALUES (?, ?)")
        var added = 0
        var late = false
        for sample in samples {
            guard
                let row = try find.rows([
                    DatabaseValue.blob(sample.uuid.bytes), DatabaseValue.integer(source),
                    DatabaseValue.text(sample.type.identifier),
                ]).first,
                let id = row[0].int64
            else { continue }
            let earlier = (row[1].int64 ?? 0) <= sequence
            if earlier, !acceptingEarlier { continue }
            try insert.execute([key, DatabaseValue.integer(id)])
            if db.changes > 0 {
                added += 1
                late = late || earlier
            }
        }
        if late {
            try db.execute(
                """
                INSERT INTO counters (name, value) VALUES (?, 1)
                ON CONFLICT (name) DO UPDATE SET value = value + 1
                """,
                [Self.lateAssociationsCounter(workout)]
            )
        }
        return added
    }

    /// The name of a workout's late-associations counter in `counters`.
    static func lateAssociationsCounter(_ workout: UUID) -> String {
        "late_associations:" + workout.uuidString
    }

    /// Removes every association with `workout` (a builder discarded), inside `db`.
    public func dissociate(workout: UUID, in db: Connection) throws {
        try db.execute("DELETE FROM workout_samples WHERE workout = ?", [DatabaseValue.blob(workout.bytes)])
    }

    /// How many samples are associated with `workout`.
    public func associatedCount(workout: UUID, in db: Connection) throws -> Int {
        Int(
            try db.scalarInt(
                "SELECT count(*) FROM workout_samples WHERE workout = ?",
                [DatabaseValue.blob(workout.bytes)]
            )
                ?? 0
        )
    }

    /// The quantity types among the samples associated with `workout`, in identifier order.
    public func associatedQuantityTypes(workout: UUID, in db: Connection) throws -> [QuantityTypeIdentifier] {
        try db.rows(
            """
            SELECT DISTINCT t.identifier FROM workout_samples ws JOIN samples s ON s.id = ws.sample_id
            JOIN types t ON t.code = s.type WHERE ws.workout = ? ORDER BY t.identifier
            """,
            [DatabaseValue.blob(workout.bytes)]
        ).compactMap { $0[0].string.flatMap(QuantityTypeIdentifier.init(rawValue:)) }
    }

    // MARK: Sessions

    /// Stores a workout session's record (its JSON form), replacing the one of the same id,
    /// inside the write transaction `db`.
    public func saveWorkoutSession(_ session: WorkoutSessionSnapshot, in db: Connection) throws {
        try db.execute(
            """
            INSERT INTO workout_sessions (id, app_id, record, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at
            """,
            [
                DatabaseValue.blob(session.id.bytes),
                DatabaseValue.text(session.app),
                DatabaseValue.text(String(decoding: try HealthJSON.encode(session), as: UTF8.self)),
                DatabaseValue.real(Date().timeIntervalSinceReferenceDate),
            ]
        )
    }

    /// Removes a workout session's record, and its builder's late-associations counter, inside
    /// `db`.
    public func deleteWorkoutSession(_ session: WorkoutSessionSnapshot, in db: Connection) throws {
        try db.execute("DELETE FROM workout_sessions WHERE id = ?", [DatabaseValue.blob(session.id.bytes)])
        try db.execute(
            "DELETE FROM counters WHERE name = ?",
            [Self.lateAssociationsCounter(session.builder.workoutUUID)]
        )
    }

    /// Every stored workout session, oldest change first.
    public func workoutSessions(in db: Connection) throws -> [WorkoutSessionSnapshot] {
        try db.rows("SELECT record FROM workout_sessions ORDER BY updated_at").map { row in
            guard let text = row[0].string else { throw StoreError.damagedDatabase("a workout session has no record") }
            return try HealthJSON.decode(WorkoutSessionSnapshot.self, from: Data(text.utf8))
        }
    }
}
