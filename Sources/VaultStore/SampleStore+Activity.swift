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
        keeping keeper: StatisticsHoursKeeper? = nil,
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
            timeZone: timeZone.identifier,
            keeping: keeper,
            in: db
        )
        let indexOfMidnight = Dictionary(uniqueKeysWithValues: midnights.enumerated().map { ($1, $0) })
        for statistics in energy.statistics {
            guard let index = indexOfMidnight[statistics.startDate], index < midnights.count - 1,
                let sum = try statistics.sumQuantity()?.doubleValue(for: .kilocalorie)
            else { continue }
            days[index] = day(index)
            days[index]?.activeEnergyBurned = sum
        }

        // The midnights as the statistics' interval boundaries (a blob of native doubles), so
        // each sample finds its day by binary search (hv_interval, hv_boundary) instead of being
        // compared with every day of the range.
        let boundaries = DatabaseValue.blob(
            midnights.map(\.timeIntervalSinceReferenceDate).withUnsafeBytes { Array($0) }
        )
        let dayCount = DatabaseValue.integer(Int64(midnights.count - 1))
        let range: [DatabaseValue] = [
            .real(first.timeIntervalSinceReferenceDate), .real(last.timeIntervalSinceReferenceDate),
        ]

        // Exercise: the union of workouts' and exercise-time samples' spans, per day. Each span
        // with a duration is cut at the midnights it crosses (from the day holding its start to
        // the day its end falls in); a span without a duration covers nothing.
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
                WITH RECURSIVE spans(a, b) AS (\(spans.map(\.sql).joined(separator: " UNION ALL "))),
                days(i, a, b, last) AS (
                    SELECT max(0, hv_interval(?, a, 0)), a, b, min(? - 1, hv_interval(?, b, 1)) FROM spans
                    WHERE b > a AND b > ? AND a < ?
                    UNION ALL SELECT i + 1, a, b, last FROM days WHERE i < last),
                pieces(i, a, b) AS (SELECT i, max(a, hv_boundary(?, i)), min(b, hv_boundary(?, i + 1)) FROM days),
                ordered(i, a, b, reach) AS (
                    SELECT i, a, b, max(b) OVER (PARTITION BY i ORDER BY a, b ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
                    FROM pieces)
                SELECT i, sum(max(0, b - max(a, coalesce(reach, a)))) FROM ordered GROUP BY i
                """,
                spans.flatMap(\.arguments) + [boundaries, dayCount, boundaries] + range + [boundaries, boundaries]
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
            if let branch = try branch(
                for: SampleTypePredicate(type, predicate: predicate),
                scope: scope,
                columns: SQLFragment("s.start_date AS a"),
                condition: SQLFragment("s.start_date >= ? AND s.start_date < ?", range),
                db
            ) {
                starts.append(branch)
            }
        }
        if !starts.isEmpty {
            let rows = try db.rows(
                """
                WITH starts(a) AS (\(starts.map(\.sql).joined(separator: " UNION ALL ")))
                SELECT i, count(DISTINCT CAST((a - hv_boundary(?, i)) / 3600 AS INTEGER))
                FROM (SELECT hv_interval(?, a, 0) AS i, a FROM starts) GROUP BY i
                """,
                starts.flatMap(\.arguments) + [boundaries, boundaries]
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
