public import Foundation
public import HealthModel

/// Live workouts in the store (schema version 8, docs/WORKOUTS.md): the samples associated with a
/// workout, and each app's workout sessions.
extension SampleStore {
    /// Associates the top-level samples of these UUIDs with the workout `workout` (which may not
    /// be saved yet: a live builder's samples wait under the UUID its workout will have), inside
    /// the write transaction `db`; returns how many were not associated before.
    ///
    /// Samples are normally associated in the transaction that stores them (their change
    /// sequence is above `sequence`, the vault's before the transaction). One stored earlier (a
    /// sample given again) is counted in the `late_associations` counter, so that live
    /// statistics carried forward over the rows stored since (``liveWorkoutStatistics``) know to
    /// start again.
    @discardableResult
    public func associate(
        _ uuids: [UUID],
        withWorkout workout: UUID,
        storedAfter sequence: Int64,
        in db: Connection
    ) throws -> Int {
        guard !uuids.isEmpty else { return 0 }
        let key = DatabaseValue.blob(workout.bytes)
        let find = try db.statement("SELECT id, seq FROM samples WHERE uuid = ? AND parent_id IS NULL")
        let insert = try db.statement("INSERT OR IGNORE INTO workout_samples (workout, sample_id) VALUES (?, ?)")
        var added = 0
        var late = false
        for uuid in uuids {
            guard let row = try find.rows([DatabaseValue.blob(uuid.bytes)]).first, let id = row[0].int64 else {
                continue
            }
            try insert.execute([key, DatabaseValue.integer(id)])
            if db.changes > 0 {
                added += 1
                late = late || (row[1].int64 ?? 0) <= sequence
            }
        }
        if late {
            try db.execute(
                """
                INSERT INTO counters (name, value) VALUES ('late_associations', 1)
                ON CONFLICT (name) DO UPDATE SET value = value + 1
                """
            )
        }
        return added
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

    /// Removes a workout session's record, inside `db`.
    public func deleteWorkoutSession(_ id: UUID, in db: Connection) throws {
        try db.execute("DELETE FROM workout_sessions WHERE id = ?", [DatabaseValue.blob(id.bytes)])
    }

    /// Every stored workout session, oldest change first.
    public func workoutSessions(in db: Connection) throws -> [WorkoutSessionSnapshot] {
        try db.rows("SELECT record FROM workout_sessions ORDER BY updated_at").map { row in
            guard let text = row[0].string else { throw StoreError.damagedDatabase("a workout session has no record") }
            return try HealthJSON.decode(WorkoutSessionSnapshot.self, from: Data(text.utf8))
        }
    }
}
