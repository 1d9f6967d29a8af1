public import Foundation
public import HealthModel

/// Statistics queries, computed in SQL over the rows a scope may see (docs/STATISTICS.md).
///
/// Two statements do the work, each one pass over the visible rows of the type:
///
/// - **pieces**: every sample in the interval that holds its start, and, for cumulative and
///   time-weighted types, also in every later interval it reaches, weighted by the seconds it
///   spends there; grouped by interval and source into counts, sums, minimum, maximum, weighted
///   sums, each source's apportioned sum and its most recent sample.
/// - **segments** (only to merge two or more sources' sums, or for `duration`): the samples' start
///   and end dates and the interval boundaries cut time into segments; for each segment the
///   sources that cover it are known, and the segment's share of the sum comes from the covering
///   source of highest priority.
///
/// Swift only lays out the intervals (calendar work) and combines the per-source rows.
extension SampleStore {
    /// The most sources one statistics query ranks; merging works with one SQL column per source.
    public static let maximumStatisticsSources = 64
    /// The most intervals one statistics collection query computes.
    public static let maximumStatisticsIntervals = 100_000

    /// A statistics query under a scope: nil when the scope sees no matching sample (HealthKit
    /// answers "no data"), the same whether there is none or the scope may not see it.
    public func statistics(
        matching query: StatisticsQueryDescriptor,
        scope: ReadScope,
        in db: Connection
    ) throws -> Statistics? {
        try query.validate()
        guard
            let plan = try StatisticsPlan(
                type: query.quantityType,
                predicate: query.predicate,
                options: query.options,
                scope: scope,
                store: self,
                db
            )
        else { return nil }
        // One interval holding every sample: from the earliest start on, without an end.
        let computed = try plan.compute(boundaries: [plan.start, .greatestFiniteMagnitude], db)
        return computed.results.first.map {
            $0.statistics(
                plan,
                start: Date(timeIntervalSinceReferenceDate: plan.start),
                end: Date(timeIntervalSinceReferenceDate: max(plan.start, computed.end))
            )
        }
    }

    /// A statistics collection query under a scope, its intervals in `timeZone` (the query's own
    /// zone when it names one). Intervals without visible data are absent.
    public func statisticsCollection(
        matching query: StatisticsCollectionQueryDescriptor,
        scope: ReadScope,
        timeZone: TimeZone,
        in db: Connection
    ) throws -> StatisticsCollection {
        try query.validate()
        let zone = query.timeZone.flatMap(TimeZone.init(identifier:)) ?? timeZone
        let intervals = StatisticsIntervals(
            anchorDate: query.anchorDate,
            components: query.intervalComponents,
            timeZone: zone
        )
        var statistics: [Statistics] = []
        if let plan = try StatisticsPlan(
            type: query.quantityType,
            predicate: query.predicate,
            options: query.options,
            scope: scope,
            store: self,
            db
        ) {
            // Intervals through the one after the latest start's; when a sample ends beyond them
            // (the passes report it), once more through the interval its end reaches into.
            let first = intervals.index(containing: Date(timeIntervalSinceReferenceDate: plan.start))
            var reached = intervals.index(containing: Date(timeIntervalSinceReferenceDate: plan.end))
            var last = reached + 1
            while true {
                guard reached - first < Self.maximumStatisticsIntervals else {
                    throw HealthError.invalidArgument(
                        "the samples span \(reached - first + 1) intervals; at most \(Self.maximumStatisticsIntervals): narrow the dates with a predicate or lengthen the interval",
                        field: "intervalComponents"
                    )
                }
                let boundaries = intervals.boundaries(from: first, through: last)
                let computed = try plan.compute(boundaries: boundaries.map(\.timeIntervalSinceReferenceDate), db)
                if computed.end > boundaries[boundaries.count - 1].timeIntervalSinceReferenceDate {
                    // The interval holding the instant just before the end.
                    let end = Date(timeIntervalSinceReferenceDate: computed.end)
                    reached = intervals.index(containing: end)
                    if intervals.start(of: reached) == end { reached -= 1 }
                    last = reached
                    continue
                }
                statistics = computed.results.map {
                    $0.statistics(plan, start: boundaries[$0.index], end: boundaries[$0.index + 1])
                }
                break
            }
        }
        return StatisticsCollection(
            quantityType: query.quantityType,
            anchorDate: query.anchorDate,
            intervalComponents: query.intervalComponents,
            timeZone: zone.identifier,
            statistics: statistics
        )
    }

    // MARK: Source priority

    /// The owner's order of sources for a type, highest priority first, as bundle identifiers.
    /// Sources not listed come after, in the order they first saved to the vault.
    public func sourcePriority(for type: QuantityTypeIdentifier, in db: Connection) throws -> [String] {
        try VaultSettings.value(Self.priorityKey(type), db).map(Self.bundleIdentifiers) ?? []
    }

    /// Sets the owner's order of sources for a type (an empty list restores the default order).
    public func setSourcePriority(
        _ bundleIdentifiers: [String],
        for type: QuantityTypeIdentifier,
        in db: Connection
    )
        throws
    {
        let json = String(decoding: try JSONEncoder().encode(bundleIdentifiers), as: UTF8.self)
        try VaultSettings.setValue(bundleIdentifiers.isEmpty ? nil : json, for: Self.priorityKey(type), db)
    }

    /// Every type the owner has ordered sources for, with its order.
    public func sourcePriorities(in db: Connection) throws -> [QuantityTypeIdentifier: [String]] {
        var priorities: [QuantityTypeIdentifier: [String]] = [:]
        for (name, json) in try VaultSettings.values(prefixed: Self.priorityPrefix, db) {
            if let type = QuantityTypeIdentifier(rawValue: name) { priorities[type] = Self.bundleIdentifiers(json) }
        }
        return priorities
    }

    private static func bundleIdentifiers(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }

    private static let priorityPrefix = "sourcePriority:"

    static func priorityKey(_ type: QuantityTypeIdentifier) -> String { priorityPrefix + type.rawValue }
}

/// One statistics computation: the visible rows of the type, the sources that may have some in
/// priority order, and where their start dates begin and end.
struct StatisticsPlan {
    let type: QuantityTypeIdentifier
    let options: StatisticsOptions
    /// `SELECT id, src, a (start), b (end), x (canonical value)` over the visible rows.
    let visible: SQLFragment
    /// Highest priority first: every visible source with samples of the type (a source may have
    /// none matching the predicate).
    let sources: [(id: Int64, source: Source)]
    /// The earliest and latest start date of a visible sample (without a predicate, of the
    /// sources' samples of the type; with one, of those it matches).
    let start: Double
    let end: Double

    init?(
        type: QuantityTypeIdentifier,
        predicate: SamplePredicate?,
        options: StatisticsOptions,
        scope: ReadScope,
        store: SampleStore,
        _ db: Connection
    ) throws {
        guard
            let branch = try store.branch(
                for: SampleTypePredicate(.quantity(type), predicate: predicate),
                scope: scope,
                columns: SQLFragment(
                    "s.id AS id, s.source_id AS src, s.start_date AS a, s.end_date AS b, s.value AS x"
                ),
                db
            ),
            let code = try store.typeCode(.quantity(type), db)
        else { return nil }
        // The sources: the app's own, or every one with samples of the type, found through the
        // (type, source, start) index one source at a time; each one's first and last start
        // from the same index. Never a pass over the rows.
        var ids: [Int64] = []
        if let own = scope.ownSource(of: .quantity(type)) {
            if let id = try store.sourceID(own, db) { ids = [id] }
        } else {
            var after: Int64 = -1
            while let id = try db.scalarInt(
                "SELECT source_id FROM samples INDEXED BY samples_by_type_source_start WHERE type = ? AND source_id > ? ORDER BY source_id LIMIT 1",
                [code, after]
            ) {
                ids.append(id)
                after = id
            }
        }
        // With a predicate, one pass over its matches keeps only the sources it leaves, and
        // narrows the span to their start dates.
        var matched: (start: Double, end: Double)?
        if predicate != nil {
            let spans = try db.rows(
                "SELECT src, min(a), max(a) FROM (\(branch.sql)) GROUP BY src",
                branch.arguments
            )
            let kept = Set(spans.compactMap { $0[0].int64 })
            ids = ids.filter(kept.contains)
            guard let first = spans.compactMap({ $0[1].double }).min(),
                let last = spans.compactMap({ $0[2].double }).max()
            else { return nil }
            matched = (first, last)
        }
        guard ids.count <= SampleStore.maximumStatisticsSources else {
            throw HealthError.invalidArgument(
                "statistics over \(ids.count) sources of one type are not supported; at most \(SampleStore.maximumStatisticsSources): narrow the predicate to fewer sources",
                field: "predicate"
            )
        }
        var found: [(id: Int64, source: Source, first: Double, last: Double)] = []
        for id in ids {
            // Named as its latest sample of the type names it.
            let edge = """
                SELECT s.start_date, src.bundle_id, r.name FROM samples s INDEXED BY samples_by_type_source_start
                JOIN sources src ON src.id = s.source_id JOIN revisions r ON r.id = s.revision_id
                WHERE s.type = ? AND s.source_id = ? ORDER BY s.start_date
                """
            guard let first = try db.rows(edge + " LIMIT 1", [code, id]).first?[0].double,
                let latest = try db.rows(edge + " DESC LIMIT 1", [code, id]).first,
                let last = latest[0].double, let bundle = latest[1].string, let name = latest[2].string
            else { continue }
            found.append((id, Source(bundleIdentifier: bundle, name: name), first, last))
        }
        guard !found.isEmpty else { return nil }
        let start = matched?.start ?? found.map(\.first).min()!
        let end = matched?.end ?? found.map(\.last).max()!
        // The owner's order first, then the order in which sources first saved (their row ids).
        let priority = try store.sourcePriority(for: type, in: db)
        func rank(_ bundle: String) -> Int { priority.firstIndex(of: bundle) ?? priority.count }
        found.sort { (rank($0.source.bundleIdentifier), $0.id) < (rank($1.source.bundleIdentifier), $1.id) }
        self.type = type
        self.options = options
        self.visible = branch
        self.sources = found.map { ($0.id, $0.source) }
        self.start = start
        self.end = end
    }

    private var style: AggregationStyle { type.aggregationStyle }

    /// Whether a sample counts in every interval it reaches, by time, rather than only in the
    /// interval holding its start.
    private var apportioned: Bool { style != .discreteArithmetic }

    /// A sum over two or more sources is merged, entirely in the segments pass.
    private var merging: Bool { style == .cumulative && sources.count > 1 }

    private var needsPieces: Bool { !merging }

    private var needsSegments: Bool { merging || options.contains(.duration) }

    /// The transform averaged: sound levels are averaged as energy.
    private func level(_ expression: String) -> String {
        style == .discreteEquivalentContinuousLevel ? "pow(10, (\(expression)) / 10.0)" : expression
    }

    /// Computes every interval with visible data; `boundaries` are the intervals' edges in
    /// seconds since the reference date. Also returns the latest end date of a visible sample
    /// (an interval past the last boundary is not computed: the caller extends and asks again).
    func compute(boundaries: [Double], _ db: Connection) throws -> (results: [IntervalResult], end: Double) {
        let blob = DatabaseValue.blob(boundaries.withUnsafeBytes { Array($0) })
        let count = Int64(boundaries.count - 1)
        var results: [Int: IntervalResult] = [:]
        var end = -Double.greatestFiniteMagnitude
        func result(_ index: Int) -> IntervalResult {
            results[index] ?? IntervalResult(index: index, perSource: Array(repeating: nil, count: sources.count))
        }
        if needsPieces {
            for row in try db.rows(piecesSQL(), visible.arguments + piecesArguments(blob: blob, count: count)) {
                guard let index = row[0].int64.map(Int.init), let rank = row[1].int64.map(Int.init) else { continue }
                end = max(end, row[14].double ?? end)
                var interval = result(index)
                interval.perSource[rank] = Pieces(row)
                results[index] = interval
            }
        }
        if needsSegments {
            for row in try db.rows(segmentsSQL(), visible.arguments + segmentsArguments(blob: blob, count: count)) {
                guard let index = row[0].int64.map(Int.init) else { continue }
                end = max(end, row[1].double ?? end)
                guard index < count else { continue }
                var interval = result(index)
                interval.segments = Segments(row, sources: sources.count)
                results[index] = interval
            }
        }
        return (results.values.sorted { $0.index < $1.index }, end)
    }

    /// The source's rank, as SQL over `src`.
    private var rankSQL: String {
        "CASE src " + sources.indices.map { "WHEN ? THEN \($0) " }.joined() + "END"
    }

    private var rankArguments: [DatabaseValue] { sources.map { .integer($0.id) } }

    private func piecesSQL() -> String {
        let mostRecent = options.contains(.mostRecent)
        // A sample of an arithmetic type counts once, in the interval holding its start; others
        // also in every interval they reach, through the recursive `spans`.
        let pieces =
            apportioned
            ? """
            p AS NOT MATERIALIZED (
                SELECT id, \(rankSQL) AS k, a, b, x, i0, CASE WHEN b > a THEN hv_interval(?, b, 1) ELSE i0 END AS i1
                FROM (SELECT *, hv_interval(?, a, 0) AS i0 FROM v)),
            spans(id, k, a, b, x, i0, i, i1) AS (
                SELECT id, k, a, b, x, i0, i0, i1 FROM p
                UNION ALL SELECT id, k, a, b, x, i0, i + 1, i1 FROM spans WHERE i < i1),
            pieces AS (
                SELECT id, k, a, b, x, i,
                    CASE WHEN i1 = i0 THEN b - a ELSE min(b, hv_boundary(?, i + 1)) - max(a, hv_boundary(?, i)) END AS w
                FROM spans),
            """
            : """
            pieces AS (SELECT id, \(rankSQL) AS k, a, b, x, hv_interval(?, a, 0) AS i, b - a AS w FROM v),
            """
        return """
            WITH RECURSIVE v AS NOT MATERIALIZED (\(visible.sql)),
            \(pieces)
            q AS (
                SELECT *\(mostRecent ? ", row_number() OVER (PARTITION BY i, k ORDER BY b DESC, a DESC, id DESC) AS rn" : "")
                FROM pieces WHERE i >= 0 AND i < ?)
            SELECT i, k, count(*), sum(x), min(x), max(x),
                sum(CASE WHEN b > a THEN \(level("x")) * w END), sum(CASE WHEN b > a THEN w END),
                sum(CASE WHEN b = a THEN \(level("x")) END), sum(b = a),
                sum(CASE WHEN b = a OR w = b - a THEN x ELSE x * w / (b - a) END),
                \(mostRecent ? "max(CASE WHEN rn = 1 THEN x END), max(CASE WHEN rn = 1 THEN a END), max(CASE WHEN rn = 1 THEN b END)" : "NULL, NULL, NULL"),
                max(b)
            FROM q GROUP BY i, k
            """
    }

    private func piecesArguments(blob: DatabaseValue, count: Int64) -> [DatabaseValue] {
        rankArguments + (apportioned ? [blob, blob, blob, blob] : [blob]) + [.integer(count)]
    }

    /// Time cut at every start, end and boundary; per source, a running count of the samples
    /// covering each segment and the sum of their rates (value per second, or level for a
    /// discrete type). Samples without a duration ride along as points of their instant. Only the
    /// columns the options need are computed; the others are constant zeros.
    private func segmentsSQL() -> String {
        let ranks = sources.indices
        let covered = ranks.map { "c\($0) > 0" }.joined(separator: " OR ")
        let chosen = "CASE " + ranks.map { "WHEN c\($0) > 0 THEN r\($0) " }.joined() + "ELSE 0 END"
        let won = ranks.map { k in
            "max(cov AND " + (ranks.prefix(k).map { "c\($0) <= 0 AND " }.joined()) + "c\(k) > 0)"
        }
        let perRank = ranks.map {
            ", sum(CASE k WHEN \($0) THEN dr ELSE 0 END) AS r\($0), sum(CASE k WHEN \($0) THEN dc ELSE 0 END) AS c\($0), sum(CASE k WHEN \($0) THEN p END) AS p\($0)"
        }
        let running = ranks.map { ", sum(r\($0)) OVER o AS r\($0), sum(c\($0)) OVER o AS c\($0), p\($0)" }
        let separate = options.contains(.separateBySource)
        let coverage = separate || options.contains(.duration)
        let bySource = ranks.map { k in
            ", "
                + (separate
                    ? "sum(CASE WHEN cov AND c\(k) > 0 THEN len * r\(k) ELSE 0 END) + coalesce(sum(p\(k)), 0)" : "0")
                + ", " + (coverage ? "sum(CASE WHEN cov AND c\(k) > 0 THEN len ELSE 0 END)" : "0")
                + ", max(p\(k) IS NOT NULL)"
        }
        let points = ranks.map { "coalesce(p\($0), 0)" }.joined(separator: " + ")
        return """
            WITH RECURSIVE v AS NOT MATERIALIZED (\(visible.sql)),
            bounds(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM bounds WHERE i < ?),
            e(t, k, dr, dc, p) AS (
                SELECT a, \(rankSQL), iif(b > a, \(rate), 0), b > a, iif(b > a, NULL, x) FROM v
                UNION ALL SELECT b, \(rankSQL), -\(rate), -1, NULL FROM v WHERE b > a
                UNION ALL SELECT hv_boundary(?, i), -1, 0, 0, NULL FROM bounds),
            g AS (SELECT t\(perRank.joined()) FROM e GROUP BY t),
            st AS (
                SELECT t, lead(t) OVER o AS t2, lead(t) OVER o - t AS len\(running.joined())
                FROM g WINDOW o AS (ORDER BY t ROWS UNBOUNDED PRECEDING)),
            cut AS (
                SELECT *, hv_interval(?, t, 0) AS i, coalesce(len > 0 AND (\(covered)), 0) AS cov FROM st
                WHERE (len > 0 AND (\(covered)))\(ranks.map { " OR p\($0) IS NOT NULL" }.joined()))
            SELECT i, max(CASE WHEN cov THEN t2 ELSE t END),
                sum(CASE WHEN cov THEN len * \(chosen) ELSE 0 END) + sum(\(points)),
                \(options.contains(.duration) ? "sum(CASE WHEN cov THEN len ELSE 0 END)" : "0")\(bySource.joined()),
                \(won.joined(separator: ", "))
            FROM cut WHERE i >= 0 AND i <= ? GROUP BY i
            """
    }

    /// What a covering sample adds per second: its share of a sum, or its level.
    private var rate: String { style == .cumulative ? "x / (b - a)" : level("x") }

    private func segmentsArguments(blob: DatabaseValue, count: Int64) -> [DatabaseValue] {
        [.integer(count)] + rankArguments + rankArguments + [blob, blob, .integer(count)]
    }
}

/// One source's rows in one interval, from the pieces statement.
struct Pieces {
    var count: Int
    var sum: Double
    var minimum: Double
    var maximum: Double
    /// Σ level × seconds and Σ seconds over samples with a duration.
    var weighted: Double
    var weight: Double
    /// Σ level and count over samples without a duration.
    var pointLevels: Double
    var points: Int
    /// The source's sum, each sample apportioned by time.
    var share: Double
    var mostRecent: (value: Double, start: Double, end: Double)?

    init?(_ row: Row) {
        guard let count = row[2].int64, let sum = row[3].double, let minimum = row[4].double,
            let maximum = row[5].double
        else { return nil }
        self.count = Int(count)
        self.sum = sum
        self.minimum = minimum
        self.maximum = maximum
        weighted = row[6].double ?? 0
        weight = row[7].double ?? 0
        pointLevels = row[8].double ?? 0
        points = Int(row[9].int64 ?? 0)
        share = row[10].double ?? 0
        if let value = row[11].double, let start = row[12].double, let end = row[13].double {
            mostRecent = (value, start, end)
        }
    }
}

/// One interval's segments: the merged sum, the time covered, and per source its own sum, its
/// coverage, whether it had samples without a duration here and whether it supplied any of the
/// merged sum.
struct Segments {
    var merged: Double
    var covered: Double
    var sumBySource: [Double]
    var coveredBySource: [Double]
    var pointsBySource: [Bool]
    var won: [Bool]

    init(_ row: Row, sources: Int) {
        merged = row[2].double ?? 0
        covered = row[3].double ?? 0
        sumBySource = (0..<sources).map { row[4 + 3 * $0].double ?? 0 }
        coveredBySource = (0..<sources).map { row[5 + 3 * $0].double ?? 0 }
        pointsBySource = (0..<sources).map { (row[6 + 3 * $0].int64 ?? 0) != 0 }
        won = (0..<sources).map { (row[4 + 3 * sources + $0].int64 ?? 0) != 0 }
    }
}

/// One interval's computed rows.
struct IntervalResult {
    let index: Int
    var perSource: [Pieces?]
    var segments: Segments?

    init(index: Int, perSource: [Pieces?]) {
        self.index = index
        self.perSource = perSource
    }

    func statistics(_ plan: StatisticsPlan, start: Date, end: Date) -> Statistics {
        let type = plan.type
        let options = plan.options
        let unit = type.canonicalUnit
        let merging = type.aggregationStyle == .cumulative && plan.sources.count > 1
        let present = perSource.compactMap { $0 }

        func values(_ pieces: [Pieces], sum: Double?, duration: Double?) -> StatisticsValues {
            let recent = pieces.compactMap(\.mostRecent).max { ($0.end, $0.start) < ($1.end, $1.start) }
            return StatisticsValues(
                sum: options.contains(.cumulativeSum) ? sum.map { Quantity($0, unit) } : nil,
                average: options.contains(.discreteAverage) ? average(pieces, type).map { Quantity($0, unit) } : nil,
                minimum: options.contains(.discreteMin) ? pieces.map(\.minimum).min().map { Quantity($0, unit) } : nil,
                maximum: options.contains(.discreteMax) ? pieces.map(\.maximum).max().map { Quantity($0, unit) } : nil,
                mostRecent: options.contains(.mostRecent) ? recent.map { Quantity($0.value, unit) } : nil,
                mostRecentStartDate: options.contains(.mostRecent)
                    ? recent.map { Date(timeIntervalSinceReferenceDate: $0.start) } : nil,
                mostRecentEndDate: options.contains(.mostRecent)
                    ? recent.map { Date(timeIntervalSinceReferenceDate: $0.end) } : nil,
                duration: options.contains(.duration) ? duration.map { Quantity($0, .second) } : nil
            )
        }

        // Merged sums come whole from the segments; otherwise each source's pieces add up.
        let sum: Double? =
            merging ? segments?.merged : (present.isEmpty ? nil : present.reduce(0) { $0 + $1.share })
        var contributing: [Source] = []
        var bySource: [SourceStatistics] = []
        for (rank, ranked) in plan.sources.enumerated() {
            let pieces = perSource[rank]
            let covered = segments?.coveredBySource[rank] ?? 0
            let points = segments?.pointsBySource[rank] ?? false
            let won = segments?.won[rank] ?? false
            // Coverage is computed only when asked for (duration, separateBySource).
            guard pieces != nil || covered > 0 || points || won else { continue }
            let supplied = merging ? won || points : true
            if supplied { contributing.append(ranked.source) }
            if options.contains(.separateBySource) {
                bySource.append(
                    SourceStatistics(
                        source: ranked.source,
                        values: values(
                            pieces.map { [$0] } ?? [],
                            sum: merging ? segments?.sumBySource[rank] : pieces?.share,
                            duration: covered
                        )
                    )
                )
            }
        }
        let byBundle: (Source, Source) -> Bool = {
            $0.bundleIdentifier.utf8.lexicographicallyPrecedes($1.bundleIdentifier.utf8)
        }
        return Statistics(
            quantityType: type,
            startDate: start,
            endDate: end,
            values: values(present, sum: sum, duration: segments?.covered ?? 0),
            sources: contributing.sorted(by: byBundle),
            valuesBySource: bySource.sorted { byBundle($0.source, $1.source) }
        )
    }

    /// The average of the pieces: arithmetic, weighted by time, or as energy (sound levels).
    /// Samples without a duration weigh only where no sample with one is present.
    private func average(_ pieces: [Pieces], _ type: QuantityTypeIdentifier) -> Double? {
        guard !pieces.isEmpty else { return nil }
        switch type.aggregationStyle {
        case .cumulative:
            return nil
        case .discreteArithmetic:
            let count = pieces.reduce(0) { $0 + $1.count }
            return count == 0 ? nil : pieces.reduce(0) { $0 + $1.sum } / Double(count)
        case .discreteTemporallyWeighted, .discreteEquivalentContinuousLevel:
            let weight = pieces.reduce(0) { $0 + $1.weight }
            let level: Double
            if weight > 0 {
                level = pieces.reduce(0) { $0 + $1.weighted } / weight
            } else {
                let points = pieces.reduce(0) { $0 + $1.points }
                guard points > 0 else { return nil }
                level = pieces.reduce(0) { $0 + $1.pointLevels } / Double(points)
            }
            return type.aggregationStyle == .discreteEquivalentContinuousLevel ? 10 * log10(level) : level
        }
    }
}
