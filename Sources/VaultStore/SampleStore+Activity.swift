public import Foundation
public import HealthModel

/// One day's activity figures, before the goals are set beside them.
public struct ActivityDay: Hashable, Sendable {
    /// The day's index among the query's days.
    public var index: Int
    public var activeEnergyBurned: Double = 0
    public var exerciseMinutes: Double = 0
    public var standHours: Int = 0
}

extension SampleStore {
    /// The activity figures of the days between consecutive `midnights`, over what `scope` sees,
    /// computed in SQL (docs/ACTIVITY.md): active energy as the statistics daily sum (sources
    /// merged by the owner's priority, samples apportioned by time); exercise as the time covered
    /// by workouts or exercise-time samples (overlaps counted once); stand hours as the clock
    /// hours in which a stand-hour sample says "stood" or a step sample counted steps. Days
    /// without any such visible sample are left out.
    public func activityDays(
        midnights: [Date],
        scope: ReadScope,
        timeZone: TimeZone,
        in db: Connection
    ) throws
        -> [ActivityDay]
    {
        guard let first = midnights.first, let last = midnights.last, midnights.count >= 2 else { return [] }
        var days: [Int: ActivityDay] = [:]
        func day(_ index: Int) -> ActivityDay { days[index] ?? ActivityDay(index: index) }

        // Active energy: the statistics collection's daily sums.
        let energy = try statisticsCollection(
            matching: StatisticsCollectionQueryDescriptor(
                quantityType: .activeEnergyBurned,
                predicate: .date(start: first, end: last, options: []),
                options: [.cumulativeSum],
                anchorDate: first,
                intervalComponents: IntervalComponents(day: 1),
                timeZone: timeZone.identifier
            ),
            scope: scope,
            timeZone: timeZone,
            in: db
        )
        for statistics in energy.statistics {
            guard let index = midnights.firstIndex(of: statistics.startDate), index < midnights.count - 1,
                let sum = try statistics.sumQuantity()?.doubleValue(for: .kilocalorie)
            else { continue }
            days[index] = day(index)
            days[index]?.activeEnergyBurned = sum
        }

        let boundaries = DatabaseValue.text(
            "[" + midnights.map { String($0.timeIntervalSinceReferenceDate) }.joined(separator: ",") + "]"
        )
        let dayTable = """
            days(i, lo, hi) AS (
                SELECT * FROM (SELECT CAST(key AS INTEGER), value, lead(value) OVER (ORDER BY key) AS hi FROM json_each(?))
                WHERE hi IS NOT NULL)
            """

        // Exercise: the union of workouts' and exercise-time samples' spans, per day.
        var spans: [SQLFragment] = []
        for type in [SampleType.workout, .quantity(.appleExerciseTime)] {
            if let branch = try branch(
                for: SampleTypePredicate(type, predicate: .date(start: first, end: last, options: [])),
                scope: scope,
                columns: SQLFragment("s.start_date AS a, s.end_date AS b"),
                db
            ) {
                spans.append(branch)
            }
        }
        if !spans.isEmpty {
            let rows = try db.rows(
                """
                WITH \(dayTable),
                spans(a, b) AS (\(spans.map(\.sql).joined(separator: " UNION ALL "))),
                pieces(i, a, b) AS (
                    SELECT d.i, max(spans.a, d.lo), min(spans.b, d.hi) FROM spans JOIN days d
                    ON spans.a < d.hi AND spans.b > d.lo),
                ordered(i, a, b, reach) AS (
                    SELECT i, a, b, max(b) OVER (PARTITION BY i ORDER BY a, b ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
                    FROM pieces)
                SELECT i, sum(max(0, b - max(a, coalesce(reach, a)))) FROM ordered GROUP BY i
                """,
                [boundaries] + spans.flatMap(\.arguments)
            )
            for row in rows {
                guard let index = row[0].int64.map(Int.init), let seconds = row[1].double else { continue }
                days[index] = day(index)
                days[index]?.exerciseMinutes = seconds / 60
            }
        }

        // Stand hours: hours (from the day's midnight) holding the start of a "stood" stand-hour
        // sample or of a step sample with steps.
        var starts: [SQLFragment] = []
        for (type, predicate) in [
            (
                SampleType.category(.appleStandHour),
                SamplePredicate.categoryValue(.equalTo, CategoryValueAppleStandHour.stood.rawValue)
            ),
            (.quantity(.stepCount), .quantity(.greaterThan, Quantity(0, .count))),
        ] {
            if var branch = try branch(
                for: SampleTypePredicate(type, predicate: predicate),
                scope: scope,
                columns: SQLFragment("s.start_date AS a"),
                db
            ) {
                branch.sql += " AND s.start_date >= ? AND s.start_date < ?"
                branch.arguments += [
                    .real(first.timeIntervalSinceReferenceDate), .real(last.timeIntervalSinceReferenceDate),
                ]
                starts.append(branch)
            }
        }
        if !starts.isEmpty {
            let rows = try db.rows(
                """
                WITH \(dayTable), starts(a) AS (\(starts.map(\.sql).joined(separator: " UNION ALL ")))
                SELECT d.i, count(DISTINCT CAST((starts.a - d.lo) / 3600 AS INTEGER)) FROM starts JOIN days d
                ON starts.a >= d.lo AND starts.a < d.hi GROUP BY d.i
                """,
                [boundaries] + starts.flatMap(\.arguments)
            )
            for row in rows {
                guard let index = row[0].int64.map(Int.init), let hours = row[1].int64 else { continue }
                days[index] = day(index)
                days[index]?.standHours = Int(hours)
            }
        }
        return days.values.sorted { $0.index < $1.index }
    }
}
