public import Foundation
public import HealthModel

/// The lists and counts of the owner's health report (docs/REPORT.md) that no statistics query
/// gives: measurements, blood pressure readings, workouts and their weeks, each source's share.
/// Every one is one SQL statement over the owner's rows of one type, by the (type, start) index,
/// bounded by a limit: no sample is loaded beyond the rows a list shows.
extension SampleStore {
    /// The latest revision's name of a source, as the owner's summary names it.
    private static let sourceName =
        "coalesce((SELECT r.name FROM revisions r WHERE r.source_id = s.source_id ORDER BY r.id DESC LIMIT 1), src.bundle_id)"

    /// The samples of a quantity type starting in `[start, end)`, newest first, at most `limit`
    /// of them, in the type's canonical unit; and how many there are in all.
    public func reportMeasurements(
        of type: QuantityTypeIdentifier,
        start: Date,
        end: Date,
        limit: Int,
        in db: Connection
    ) throws -> (rows: [HealthReportData.Measurement], total: Int) {
        guard let code = try typeCode(.quantity(type), db) else { return ([], 0) }
        let range: [DatabaseValue] = [
            .integer(code), .real(start.timeIntervalSinceReferenceDate), .real(end.timeIntervalSinceReferenceDate),
        ]
        let total = try db.scalarInt(
            "SELECT count(*) FROM samples s INDEXED BY samples_by_type_start WHERE s.type = ? AND s.start_date >= ? AND s.start_date < ?",
            range
        )
        let rows = try db.rows(
            """
            SELECT s.start_date, s.value, \(Self.sourceName) FROM samples s INDEXED BY samples_by_type_start
            JOIN sources src ON src.id = s.source_id
            WHERE s.type = ? AND s.start_date >= ? AND s.start_date < ? AND s.value IS NOT NULL
            ORDER BY s.start_date DESC, s.id DESC LIMIT ?
            """,
            range + [.integer(Int64(limit))]
        )
        return (
            rows.compactMap { row in
                guard let date = row[0].double, let value = row[1].double else { return nil }
                return HealthReportData.Measurement(
                    type: type,
                    date: Date(timeIntervalSinceReferenceDate: date),
                    value: value,
                    source: row[2].string ?? ""
                )
            },
            Int(total ?? 0)
        )
    }

    /// The blood pressure correlations starting in `[start, end)` with a systolic and a diastolic
    /// member, newest first, at most `limit` (members in mmHg); and how many there are in all.
    public func reportBloodPressure(
        start: Date,
        end: Date,
        limit: Int,
        in db: Connection
    ) throws -> (rows: [HealthReportData.BloodPressureReading], total: Int) {
        guard let code = try typeCode(.correlation(.bloodPressure), db),
            let systolic = try typeCode(.quantity(.bloodPressureSystolic), db),
            let diastolic = try typeCode(.quantity(.bloodPressureDiastolic), db)
        else { return ([], 0) }
        let readings = """
            FROM samples s INDEXED BY samples_by_type_start
            JOIN samples sy ON sy.parent_id = s.id AND sy.type = ?
            JOIN samples di ON di.parent_id = s.id AND di.type = ?
            JOIN sources src ON src.id = s.source_id
            WHERE s.type = ? AND s.start_date >= ? AND s.start_date < ?
            """
        let arguments: [DatabaseValue] = [
            .integer(systolic), .integer(diastolic), .integer(code),
            .real(start.timeIntervalSinceReferenceDate), .real(end.timeIntervalSinceReferenceDate),
        ]
        let total = try db.scalarInt("SELECT count(DISTINCT s.id) \(readings)", arguments)
        // Members are kept in the canonical unit, mmHg; a correlation with two of one member
        // (none is saved so) shows the first.
        let rows = try db.rows(
            """
            SELECT s.start_date, min(sy.value), min(di.value), \(Self.sourceName) \(readings)
            GROUP BY s.id ORDER BY s.start_date DESC, s.id DESC LIMIT ?
            """,
            arguments + [.integer(Int64(limit))]
        )
        return (
            rows.compactMap { row in
                guard let date = row[0].double, let high = row[1].double, let low = row[2].double else { return nil }
                return HealthReportData.BloodPressureReading(
                    date: Date(timeIntervalSinceReferenceDate: date),
                    systolic: high,
                    diastolic: low,
                    source: row[3].string ?? ""
                )
            },
            Int(total ?? 0)
        )
    }

    /// The workouts starting in `[start, end)`, newest first, at most `limit`; and how many there
    /// are in all.
    public func reportWorkouts(
        start: Date,
        end: Date,
        limit: Int,
        in db: Connection
    ) throws -> (rows: [HealthReportData.WorkoutRow], total: Int) {
        guard let code = try typeCode(.workout, db) else { return ([], 0) }
        let range: [DatabaseValue] = [
            .integer(code), .real(start.timeIntervalSinceReferenceDate), .real(end.timeIntervalSinceReferenceDate),
        ]
        let total = try db.scalarInt(
            "SELECT count(*) FROM samples s INDEXED BY samples_by_type_start WHERE s.type = ? AND s.start_date >= ? AND s.start_date < ?",
            range
        )
        let rows = try db.rows(
            """
            SELECT s.start_date, s.end_date, w.activity_type, w.duration, w.distance_base, w.energy_base,
                \(Self.sourceName)
            FROM samples s INDEXED BY samples_by_type_start
            JOIN workouts w ON w.sample_id = s.id JOIN sources src ON src.id = s.source_id
            WHERE s.type = ? AND s.start_date >= ? AND s.start_date < ?
            ORDER BY s.start_date DESC, s.id DESC LIMIT ?
            """,
            range + [.integer(Int64(limit))]
        )
        let joulesPerKilocalorie = HealthUnit.kilocalorie.baseValue(1)
        let baseUnitsPerMeter = HealthUnit.meter.baseValue(1)
        return (
            rows.compactMap { row in
                guard let start = row[0].double, let end = row[1].double, let code = row[2].int64,
                    let activity = WorkoutActivityType(rawValue: Int(code)), let duration = row[3].double
                else { return nil }
                return HealthReportData.WorkoutRow(
                    start: Date(timeIntervalSinceReferenceDate: start),
                    end: Date(timeIntervalSinceReferenceDate: end),
                    activityType: activity,
                    duration: duration,
                    distance: row[4].double.map { $0 / baseUnitsPerMeter },
                    energy: row[5].double.map { $0 / joulesPerKilocalorie },
                    source: row[6].string ?? ""
                )
            },
            Int(total ?? 0)
        )
    }

    /// Per week between consecutive `weekStarts` (Mondays' midnights): the workouts starting in
    /// it, their duration and their distance (meters) summed, in one statement; weeks without a
    /// workout absent. Returns (index of the week, count, seconds, meters).
    public func reportWorkoutWeeks(
        weekStarts: [Date],
        in db: Connection
    ) throws -> [(week: Int, count: Int, duration: Double, distance: Double)] {
        guard weekStarts.count >= 2, let code = try typeCode(.workout, db) else { return [] }
        let boundaries = DatabaseValue.blob(
            weekStarts.map(\.timeIntervalSinceReferenceDate).withUnsafeBytes { Array($0) }
        )
        let rows = try db.rows(
            """
            SELECT hv_interval(?, s.start_date, 0) AS i, count(*), sum(w.duration), total(w.distance_base)
            FROM samples s INDEXED BY samples_by_type_start JOIN workouts w ON w.sample_id = s.id
            WHERE s.type = ? AND s.start_date >= ? AND s.start_date < ?
            GROUP BY i ORDER BY i
            """,
            [
                boundaries, .integer(code), .real(weekStarts[0].timeIntervalSinceReferenceDate),
                .real(weekStarts[weekStarts.count - 1].timeIntervalSinceReferenceDate),
            ]
        )
        let baseUnitsPerMeter = HealthUnit.meter.baseValue(1)
        return rows.compactMap { row in
            guard let index = row[0].int64, let count = row[1].int64 else { return nil }
            return (Int(index), Int(count), row[2].double ?? 0, (row[3].double ?? 0) / baseUnitsPerMeter)
        }
    }

    /// Per sample type, each source's samples starting in `[start, end)` (correlation members
    /// included), with their first and last start: one grouped pass over each stored type's
    /// (type, start) index range. Types in identifier order, sources most samples first.
    public func reportSources(start: Date, end: Date, in db: Connection) throws -> [HealthReportData.TypeSources] {
        let statement = try db.statement(
            """
            SELECT src.bundle_id,
                (SELECT r.name FROM revisions r WHERE r.source_id = g.source_id ORDER BY r.id DESC LIMIT 1),
                g.n, g.first, g.last
            FROM (SELECT s.source_id, count(*) AS n, min(s.start_date) AS first, max(s.start_date) AS last
                  FROM samples s INDEXED BY samples_by_type_start
                  WHERE s.type = ? AND s.start_date >= ? AND s.start_date < ? GROUP BY s.source_id) g
            JOIN sources src ON src.id = g.source_id
            """
        )
        var result: [HealthReportData.TypeSources] = []
        for type in try db.rows("SELECT code, identifier FROM types ORDER BY identifier") {
            guard let code = type[0].int64, let identifier = type[1].string,
                let sampleType = try? SampleType(identifier: identifier)
            else { continue }
            let sources = try statement.rows([
                code, start.timeIntervalSinceReferenceDate, end.timeIntervalSinceReferenceDate,
            ]).compactMap { row -> HealthReportData.TypeSources.Contribution? in
                guard let bundle = row[0].string, let count = row[2].int64, let first = row[3].double,
                    let last = row[4].double
                else { return nil }
                return .init(
                    bundleIdentifier: bundle,
                    name: row[1].string ?? bundle,
                    count: Int(count),
                    firstStart: Date(timeIntervalSinceReferenceDate: first),
                    lastStart: Date(timeIntervalSinceReferenceDate: last)
                )
            }
            guard !sources.isEmpty else { continue }
            result.append(
                HealthReportData.TypeSources(
                    type: sampleType,
                    sources: sources.sorted { ($1.count, $0.bundleIdentifier) < ($0.count, $1.bundleIdentifier) }
                )
            )
        }
        return result.sorted { $0.type.identifier < $1.type.identifier }
    }
}
