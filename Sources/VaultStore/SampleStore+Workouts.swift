public import Foundation
public import HealthModel

/// Live workouts in the store (schema version 8, docs/WORKOUTS.md): the samples associated with a
/// workout, and each app's workout sessions.
extension SampleStore {
    /// Associates the top-level samples of these UUIDs with the workout `workout` (which may not
    /// be saved yet: a live builder's samples wait under the UUID its workout will have), inside
    /// the write transaction `db`; returns how many were not associated before.
    @discardableResult
    public func associate(_ uuids: [UUID], withWorkout workout: UUID, in db: Connection) throws -> Int {
        guard !uuids.isEmpty else { return 0 }
        let insert = try db.statement(
            """
            INSERT OR IGNORE INTO workout_samples (workout, sample_id)
            SELECT ?, id FROM samples WHERE uuid = ? AND parent_id IS NULL
            """
        )
        var added = 0
        for uuid in uuids {
            try insert.execute([DatabaseValue.blob(workout.bytes), DatabaseValue.blob(uuid.bytes)])
            added += db.changes
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
