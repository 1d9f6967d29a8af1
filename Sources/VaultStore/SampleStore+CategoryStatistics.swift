import Foundation
public import HealthModel

/// Statistics of a category type per interval (docs/STATISTICS.md, "Category statistics"): one
/// pass over the rows the scope may see (their start, end, value and source only, through the
/// same per-type branch as a sample query), then, in Swift, each sample cut at the interval
/// boundaries and the time each value covers measured as a union, so that overlapping samples
/// (two sources recording the same night) count each moment once.
extension SampleStore {
    public func categoryStatisticsCollection(
        matching query: CategoryStatisticsQueryDescriptor,
        scope: ReadScope,
        timeZone: String,
        in db: Connection
    ) throws -> CategoryStatisticsCollection {
        try query.validate()
        let name = query.timeZone ?? timeZone
        let intervals = StatisticsIntervals(
            anchorDate: query.anchorDate,
            components: query.intervalComponents,
            timeZone: TimeZone(identifier: name) ?? TimeZone.current
        )
        let rows = try categoryRows(query, scope: scope, db)
        return CategoryStatisticsCollection(
            categoryType: query.categoryType,
            anchorDate: query.anchorDate,
            intervalComponents: query.intervalComponents,
            timeZone: name,
            statistics: try Self.categoryStatistics(
                rows,
                of: query.categoryType,
                intervals: intervals,
                sources: try sourceNames(db)
            )
        )
    }

    /// One visible sample of a category type: seconds since 2001 (as stored), value, source row id.
    struct CategoryRow {
        let start: Double
        let end: Double
        let value: Int
        let source: Int64
    }

    private func categoryRows(
        _ query: CategoryStatisticsQueryDescriptor,
        scope: ReadScope,
        _ db: Connection
    ) throws
        -> [CategoryRow]
    {
        guard
            let branch = try branch(
                for: SampleTypePredicate(.category(query.categoryType), predicate: query.predicate),
                scope: scope,
                columns: SQLFragment("s.start_date AS a, s.end_date AS b, s.value AS v, s.source_id AS src"),
                db
            )
        else { return [] }
        let statement = try db.statement(branch.sql)
        try statement.bind(values: branch.arguments)
        var rows: [CategoryRow] = []
        while try statement.step() {
            rows.append(
                CategoryRow(
                    start: statement.double(at: 0),
                    end: statement.double(at: 1),
                    value: Int(statement.double(at: 2)),
                    source: statement.int64(at: 3)
                )
            )
        }
        return rows
    }

    /// Every source's bundle identifier by its row id.
    private func sourceNames(_ db: Connection) throws -> [Int64: String] {
        var names: [Int64: String] = [:]
        for row in try db.rows("SELECT id, bundle_id FROM sources") {
            if let id = row[0].int64, let name = row[1].string { names[id] = name }
        }
        return names
    }

    /// The statistics of each interval the rows reach, in time order.
    static func categoryStatistics(
        _ rows: [CategoryRow],
        of type: CategoryTypeIdentifier,
        intervals: StatisticsIntervals,
        sources: [Int64: String]
    ) throws -> [CategoryStatistics] {
        guard let earliest = rows.map(\.start).min(), let latest = rows.map(\.end).max() else { return [] }
        let first = intervals.index(containing: Date(timeIntervalSinceReferenceDate: earliest))
        let last = intervals.index(containing: Date(timeIntervalSinceReferenceDate: latest))
        guard last - first < maximumStatisticsIntervals else {
            throw HealthError.invalidArgument(
                "the samples span \(last - first + 1) intervals; at most \(maximumStatisticsIntervals): narrow the dates with a predicate or lengthen the interval",
                field: "intervalComponents"
            )
        }
        let boundaries = intervals.boundaries(from: first, through: last).map(\.timeIntervalSinceReferenceDate)
        /// The interval (from 0) holding `t`: `boundaries[i] <= t < boundaries[i + 1]`.
        func position(_ t: Double) -> Int {
            var low = 0
            var high = boundaries.count - 2
            while low < high {
                let middle = (low + high + 1) / 2
                if boundaries[middle] <= t { low = middle } else { high = middle - 1 }
            }
            return low
        }
        // Each sample's pieces, by interval: its part of the interval, its value, its source.
        var pieces: [Int: [(start: Double, end: Double, value: Int, source: Int64)]] = [:]
        for row in rows {
            let from = position(row.start)
            // A sample ending exactly on a boundary does not reach the interval that starts there.
            var to = position(row.end)
            if row.end > row.start, boundaries[to] == row.end { to -= 1 }
            for index in from...max(from, to) {
                let start = max(row.start, boundaries[index])
                let end = min(row.end, boundaries[index + 1])
                pieces[index, default: []].append((start, max(start, end), row.value, row.source))
            }
        }
        let asleep = Set(CategoryValueSleepAnalysis.allAsleepValues.map(\.rawValue))
        return pieces.keys.sorted().map { index in
            let inside = pieces[index] ?? []
            let byValue = Dictionary(grouping: inside, by: \.value)
            return CategoryStatistics(
                startDate: Date(timeIntervalSinceReferenceDate: boundaries[index]),
                endDate: Date(timeIntervalSinceReferenceDate: boundaries[index + 1]),
                count: inside.count,
                duration: covered(inside.map { ($0.start, $0.end) }),
                asleepDuration: type == .sleepAnalysis
                    ? covered(inside.filter { asleep.contains($0.value) }.map { ($0.start, $0.end) }) : nil,
                values: byValue.keys.sorted().map { value in
                    let of = byValue[value] ?? []
                    return CategoryStatistics.ValueStatistics(
                        value: value,
                        count: of.count,
                        duration: covered(of.map { ($0.start, $0.end) })
                    )
                },
                sources: Set(inside.compactMap { sources[$0.source] }).sorted {
                    $0.utf8.lexicographicallyPrecedes($1.utf8)
                }
            )
        }
    }

    /// The length of the union of time spans: overlapping spans count once.
    static func covered(_ spans: [(Double, Double)]) -> Double {
        var total = 0.0
        var current: (start: Double, end: Double)?
        for span in spans.sorted(by: { $0.0 < $1.0 }) where span.1 > span.0 {
            if let open = current, span.0 <= open.end {
                current = (open.start, max(open.end, span.1))
            } else {
                if let open = current { total += open.end - open.start }
                current = (span.0, span.1)
            }
        }
        if let open = current { total += open.end - open.start }
        return total
    }
}
