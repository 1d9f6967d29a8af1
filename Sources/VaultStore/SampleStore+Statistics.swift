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
        keeping keeper: StatisticsHoursKeeper? = nil,
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
        let computed = try plan.compute(
            boundaries: [plan.start, .greatestFiniteMagnitude],
            scope: scope,
            predicate: query.predicate,
            store: self,
            keeper: keeper,
            db
        )
        return computed.results.first.map {
            $0.statistics(
                plan,
                start: Date(timeIntervalSinceReferenceDate: plan.start),
                end: Date(timeIntervalSinceReferenceDate: max(plan.start, computed.end))
            )
        }
    }

    /// A statistics collection query under a scope, its intervals in the zone named `timeZone`
    /// (the query's own zone when it names one); the answer names the zone as it was named.
    /// Intervals without visible data are absent.
    public func statisticsCollection(
        matching query: StatisticsCollectionQueryDescriptor,
        scope: ReadScope,
        timeZone: String,
        keeping keeper: StatisticsHoursKeeper? = nil,
        in db: Connection
    ) throws -> StatisticsCollection {
        try query.validate()
        let name = query.timeZone ?? timeZone
        let zone = TimeZone(identifier: name) ?? TimeZone.current
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
                let computed = try plan.compute(
                    boundaries: boundaries.map(\.timeIntervalSinceReferenceDate),
                    scope: scope,
                    predicate: query.predicate,
                    store: self,
                    keeper: keeper,
                    db
                )
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
            timeZone: name,
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
        try forgetMergedHours(of: type, in: db)
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
    /// The ranks in the order of the sources' bundle identifiers, as statistics list them.
    let bundleOrder: [Int]
    /// Whether any of the sources has a sample of the type without a duration (whether or not
    /// it matches the predicate), from the index of such samples alone; only when merging.
    let withoutDuration: Bool
    /// Merges a cumulative sum whatever the number of sources (the hours kept compute a merging
    /// query's segments for every hour, also those with one source).
    let mergesAlways: Bool
    /// Computes each interval's segments from the samples reaching into it alone (each cut at
    /// the interval's edges), so that an interval's figures do not depend on the rows of other
    /// intervals computed with it, not even in a floating-point sum's last bit (the hours kept).
    var partitionedSegments = false

    /// The plan of a query over the rows `scope` sees that match `predicate`, and `restriction`
    /// when given; `restrictionOfDates` says the restriction bounds the start date alone (a run of
    /// hours'), so that its sources are found by index probes, as a date predicate's are.
    init?(
        type: QuantityTypeIdentifier,
        predicate: SamplePredicate?,
        options: StatisticsOptions,
        scope: ReadScope,
        store: SampleStore,
        restrictedTo restriction: SQLFragment? = nil,
        restrictionOfDates: Bool = false,
        path: SampleStore.RowPath = .byStart,
        mergingAlways: Bool = false,
        _ db: Connection
    ) throws {
        // Values inside the type's domain, as saving keeps them (QuantityTypeIdentifier.valueLimit):
        // a vault written before that limit may hold larger ones, which count as the limit, so
        // that no sum or weighted sum overflows and no reader's answer fails for another app's values.
        let domain = type.valueDomain
        func bounded(_ value: String) -> String {
            "min(max(\(value), \(domain.lowerBound)), \(domain.upperBound))"
        }
        guard let code = try store.typeCode(.quantity(type), db) else { return nil }
        // A discrete quantity series counts as one sample of its average (docs/STATISTICS.md,
        // "Quantity series"), but its minimum and maximum are its quantities' extremes: looked
        // up row by row only when the scope sees such a series of the type (one index probe,
        // within the scope, so another app's series cost a reader nothing).
        let access = scope.access(to: .quantity(type))
        var windowed: (window: ReadWindow, own: Int64?)?
        if case .window(let window, let own) = access { windowed = (window, try store.sourceID(own, db)) }
        var seriesExtremes = false
        if windowed != nil {
            // Which of the series a window shows is known only row by row: every visible row is
            // looked up (the answer is the same; the probe below would read other apps' series).
            seriesExtremes = options.contains(.discreteMin) || options.contains(.discreteMax)
        } else if options.contains(.discreteMin) || options.contains(.discreteMax) {
            let own = try scope.ownSource(of: .quantity(type)).map { try store.sourceID($0, db) ?? -1 }
            seriesExtremes =
                try db.scalarInt(
                    "SELECT EXISTS (SELECT 1 FROM quantity_series INDEXED BY quantity_series_extremes WHERE type = ? AND minimum_base IS NOT NULL"
                        + (own == nil ? ")" : " AND source_id = ?)"),
                    [code] + (own.map { [$0] } ?? [])
                ) == 1
        }
        let extremes =
            seriesExtremes
            ? ", "
                + bounded("coalesce((SELECT q.minimum_base FROM quantity_series q WHERE q.sample_id = s.id), s.value)")
                + " AS lo, "
                + bounded("coalesce((SELECT q.maximum_base FROM quantity_series q WHERE q.sample_id = s.id), s.value)")
                + " AS hi"
            : options.contains(.discreteMin) || options.contains(.discreteMax)
                ? ", " + bounded("s.value") + " AS lo, " + bounded("s.value") + " AS hi" : ""
        guard
            let branch = try store.branch(
                for: SampleTypePredicate(.quantity(type), predicate: predicate),
                scope: scope,
                columns: SQLFragment(
                    "s.id AS id, s.source_id AS src, s.start_date AS a, s.end_date AS b, "
                        + bounded("s.value") + " AS x" + extremes
                ),
                path: path,
                condition: restriction,
                db
            )
        else { return nil }
        // The sources: the app's own, or every one with samples of the type, found through the
        // (type, source, start) index one source at a time; each one's first and last start
        // from the same index. Never a pass over the rows. Within a window, the sources are
        // those the pass below finds among the visible rows: walking every source would touch
        // those with nothing inside.
        var ids: [Int64] = []
        if let own = scope.ownSource(of: .quantity(type)) {
            if let id = try store.sourceID(own, db) { ids = [id] }
        } else if windowed != nil {
            ids = []
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
        // With a predicate or a restriction, only the sources with a match are kept, and the
        // span narrowed to their matches' start dates.
        var matched: (start: Double, end: Double)?
        let datesAlone: Bool
        if case .date = predicate { datesAlone = true } else { datesAlone = predicate == nil }
        if datesAlone, predicate != nil || restriction != nil, restriction == nil || restrictionOfDates,
            windowed == nil
        {
            // Dates alone (a predicate's, a run of hours' bounds on the start, or both), each
            // source's first and last match through the (type, source, start) index, two probes a
            // source instead of the pass: the cost of a year's predicate is that of a day's. Any
            // other restriction (a live workout's rows) is read in one pass.
            var first: Double?
            var last: Double?
            var kept: [Int64] = []
            for id in ids {
                let source = SQLFragment("s.source_id = ?", [.integer(id)])
                guard
                    let probe = try store.branch(
                        for: SampleTypePredicate(.quantity(type), predicate: predicate),
                        scope: scope,
                        columns: SQLFragment("s.start_date AS a"),
                        path: path,
                        condition: restriction.map {
                            SQLFragment("(\($0.sql)) AND \(source.sql)", $0.arguments + source.arguments)
                        } ?? source,
                        db
                    ),
                    let earliest = try db.rows("SELECT a FROM (\(probe.sql)) ORDER BY a LIMIT 1", probe.arguments)
                        .first?[0].double,
                    let latest = try db.rows("SELECT a FROM (\(probe.sql)) ORDER BY a DESC LIMIT 1", probe.arguments)
                        .first?[0].double
                else { continue }
                kept.append(id)
                first = min(first ?? earliest, earliest)
                last = max(last ?? latest, latest)
            }
            ids = kept
            guard let first, let last else { return nil }
            matched = (first, last)
        } else if predicate != nil || restriction != nil || windowed != nil {
            let spans = try db.rows(
                "SELECT src, min(a), max(a) FROM (\(branch.sql)) GROUP BY src",
                branch.arguments
            )
            let kept = Set(spans.compactMap { $0[0].int64 })
            ids = windowed != nil ? kept.sorted() : ids.filter(kept.contains)
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
            // Named as its latest sample of the type names it (that the window shows).
            var edge = """
                SELECT s.start_date, src.bundle_id, r.name FROM samples s INDEXED BY samples_by_type_source_start
                JOIN sources src ON src.id = s.source_id JOIN revisions r ON r.id = s.revision_id
                WHERE s.type = ? AND s.source_id = ?
                """
            var arguments: [DatabaseValue] = [.integer(code), .integer(id)]
            if let windowed, windowed.own != id {
                let inside = windowed.window.condition("s")
                edge += " AND " + inside.sql
                arguments += inside.arguments
            }
            edge += " ORDER BY s.start_date"
            guard let first = try db.rows(edge + " LIMIT 1", arguments).first?[0].double,
                let latest = try db.rows(edge + " DESC LIMIT 1", arguments).first,
                let last = latest[0].double, let bundle = latest[1].string, let name = latest[2].string
            else { continue }
            found.append((id, Source(bundleIdentifier: bundle, name: name), first, last))
        }
        guard !found.isEmpty else { return nil }
        let start = matched?.start ?? found.map(\.first).min()!
        let end = matched?.end ?? found.map(\.last).max()!
        found = Self.ordered(found, priority: try store.sourcePriority(for: type, in: db)) { ($0.id, $0.source) }
        self.type = type
        self.options = options
        self.visible = branch
        self.sources = found.map { ($0.id, $0.source) }
        // Asked only where it is used: merging sums of several sources.
        self.mergesAlways = mergingAlways && Self.merges(type, options, sources: 2)
        let merges = mergesAlways || Self.merges(type, options, sources: found.count)
        if merges, let windowed {
            // Within a window: the app's own such samples, and others' inside the window.
            let others = found.map(\.id).filter { $0 != windowed.own }
            let inside = windowed.window.condition("samples")
            var probes: [SQLFragment] = []
            if let own = windowed.own, found.contains(where: { $0.id == own }) {
                probes.append(
                    SQLFragment(
                        "SELECT 1 FROM samples INDEXED BY samples_without_duration WHERE type = ? AND source_id = ? AND end_date = start_date",
                        [.integer(code), .integer(own)]
                    )
                )
            }
            if !others.isEmpty {
                probes.append(
                    SQLFragment(
                        "SELECT 1 FROM samples INDEXED BY samples_without_duration WHERE type = ? AND source_id IN (\(others.map { _ in "?" }.joined(separator: ", "))) AND end_date = start_date AND \(inside.sql)",
                        [.integer(code)] + others.map { .integer($0) } + inside.arguments
                    )
                )
            }
            self.withoutDuration =
                try !probes.isEmpty
                && db.scalarInt(
                    "SELECT EXISTS (\(probes.map(\.sql).joined(separator: " UNION ALL ")))",
                    probes.flatMap(\.arguments)
                ) == 1
        } else {
            self.withoutDuration =
                try merges
                && db.scalarInt(
                    "SELECT EXISTS (SELECT 1 FROM samples INDEXED BY samples_without_duration WHERE type = ? AND source_id IN (\(found.map { _ in "?" }.joined(separator: ", "))) AND end_date = start_date)",
                    [code] + found.map(\.id)
                ) == 1
        }
        self.bundleOrder = Self.bundleOrder(found.map(\.source))
        self.start = start
        self.end = end
    }

    /// A plan that computes nothing, over sources already known: it turns per-source pieces
    /// carried from earlier computations into statistics (live workout statistics). Never
    /// merging: a sum over two or more sources needs the segments pass over every row.
    init(
        type: QuantityTypeIdentifier,
        options: StatisticsOptions,
        sources: [(id: Int64, source: Source)],
        priority: [String]
    ) {
        let found = Self.ordered(sources, priority: priority) { $0 }
        self.type = type
        self.options = options
        self.visible = SQLFragment("")
        self.sources = found
        self.start = 0
        self.end = 0
        self.bundleOrder = Self.bundleOrder(found.map(\.source))
        self.withoutDuration = false
        self.mergesAlways = false
    }

    /// The owner's order first, then the order in which sources first saved (their row ids).
    private static func ordered<S>(_ sources: [S], priority: [String], _ key: (S) -> (id: Int64, source: Source)) -> [S]
    {
        func rank(_ item: S) -> (Int, Int64) {
            let (id, source) = key(item)
            return (priority.firstIndex(of: source.bundleIdentifier) ?? priority.count, id)
        }
        return sources.sorted { rank($0) < rank($1) }
    }

    private static func bundleOrder(_ sources: [Source]) -> [Int] {
        sources.indices.sorted {
            sources[$0].bundleIdentifier.utf8.lexicographicallyPrecedes(sources[$1].bundleIdentifier.utf8)
        }
    }

    private var style: AggregationStyle { type.aggregationStyle }

    /// Whether a sample counts in every interval it reaches, by time, rather than only in the
    /// interval holding its start.
    private var apportioned: Bool { style != .discreteArithmetic }

    /// A sum over two or more sources is merged, entirely in the segments pass. Without a sum
    /// asked (`duration` alone) nothing is merged: every source with a sample in the interval is
    /// listed, as for any other statistic.
    var merging: Bool { mergesAlways || Self.merges(type, options, sources: sources.count) }

    private static func merges(_ type: QuantityTypeIdentifier, _ options: StatisticsOptions, sources: Int) -> Bool {
        type.aggregationStyle == .cumulative && options.contains(.cumulativeSum) && sources > 1
    }

    var needsPieces: Bool { !merging }

    var needsSegments: Bool { merging || options.contains(.duration) }

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
        var results: [IntervalResult?] = Array(repeating: nil, count: boundaries.count - 1)
        var end = -Double.greatestFiniteMagnitude
        func update(_ index: Int, _ change: (inout IntervalResult) -> Void) {
            var interval =
                results[index] ?? IntervalResult(index: index, perSource: Array(repeating: nil, count: sources.count))
            change(&interval)
            results[index] = interval
        }
        if needsPieces {
            // Each sample in the interval holding its start; a sample reaching past that interval's
            // end shows in its group's latest end, and only then the second pass adds its later pieces.
            var rows = try db.rows(piecesSQL(crossing: false), visible.arguments + piecesArguments(blob, count, false))
            let crossing = rows.contains { row in
                guard let index = row[0].int64.map(Int.init), let latest = row[14].double else { return false }
                return index + 1 < boundaries.count && latest > boundaries[index + 1]
            }
            if crossing, apportioned {
                rows += try db.rows(piecesSQL(crossing: true), visible.arguments + piecesArguments(blob, count, true))
            }
            for row in rows {
                guard let index = row[0].int64.map(Int.init), index >= 0, index < results.count,
                    let rank = row[1].int64.map(Int.init), let pieces = Pieces(row)
                else { continue }
                end = max(end, row[14].double ?? end)
                update(index) { interval in
                    interval.perSource[rank] = interval.perSource[rank].map { $0.adding(pieces) } ?? pieces
                    interval.latestEnd = max(interval.latestEnd, row[14].double ?? interval.latestEnd)
                }
            }
        }
        if needsSegments {
            let (sql, arguments) =
                partitionedSegments
                ? (
                    partitionedSegmentsSQL(),
                    rankArguments + [blob, blob, blob, .integer(count), blob, .integer(count)]
                )
                : (segmentsSQL(), segmentsArguments(blob: blob, count: count))
            for row in try db.rows(sql, visible.arguments + arguments) {
                guard let index = row[0].int64.map(Int.init) else { continue }
                end = max(end, row[1].double ?? end)
                guard index >= 0, index < results.count else { continue }
                let segments = Segments(row, sources: sources.count)
                update(index) { interval in
                    interval.segments = segments
                    interval.latestEnd = max(interval.latestEnd, row[1].double ?? interval.latestEnd)
                }
            }
            // Samples without a duration, added to the merged sum by a pass of their own, run only
            // when the sources have some.
            if merging, withoutDuration {
                for row in try db.rows(pointsSQL(), visible.arguments + rankArguments + [blob, .integer(count)]) {
                    guard let index = row[0].int64.map(Int.init), index >= 0, index < results.count,
                        let rank = row[1].int64.map(Int.init), let sum = row[2].double
                    else { continue }
                    end = max(end, row[3].double ?? end)
                    update(index) { interval in
                        interval.latestEnd = max(interval.latestEnd, row[3].double ?? interval.latestEnd)
                        var segments = interval.segments ?? Segments(sources: sources.count)
                        segments.merged += sum
                        segments.sumBySource[rank] += sum
                        segments.pointsBySource[rank] = true
                        interval.segments = segments
                    }
                }
            }
        }
        return (results.compactMap { $0 }, end)
    }

    /// The source's rank, as SQL over `src`.
    private var rankSQL: String {
        "CASE src " + sources.indices.map { "WHEN ? THEN \($0) " }.joined() + "END"
    }

    private var rankArguments: [DatabaseValue] { sources.map { .integer($0.id) } }

    /// Per interval and source: the samples starting in the interval, with the seconds they
    /// spend there (`crossing: false`); or the pieces of samples in the intervals after the one
    /// holding their start, through a recursive common table expression (`crossing: true`).
    /// Only the aggregates the options need are computed; the others are NULL.
    private func piecesSQL(crossing: Bool) -> String {
        let mostRecent = options.contains(.mostRecent)
        // A series' extremes (lo, hi), carried only when the minimum or maximum is asked.
        let extremes = options.contains(.discreteMin) || options.contains(.discreteMax)
        let x = extremes ? "x, lo, hi" : "x"
        let rows =
            crossing
            ? """
            spans(id, k, a, b, \(x), i, i1) AS (
                SELECT id, k, a, b, \(x), i0 + 1, hv_interval(?, b, 1)
                FROM (SELECT id, \(rankSQL) AS k, a, b, \(x), hv_interval(?, a, 0) AS i0 FROM v)
                WHERE b > hv_boundary(?, i0 + 1)
                UNION ALL SELECT id, k, a, b, \(x), i + 1, i1 FROM spans WHERE i < i1),
            q AS (
                SELECT id, k, a, b, \(x), i, min(b, hv_boundary(?, i + 1)) - hv_boundary(?, i) AS w FROM spans
                WHERE i >= 0 AND i < ?)
            """
            : """
            q AS (
                SELECT *, \(apportioned ? "min(b, hv_boundary(?, i + 1)) - a" : "b - a") AS w
                FROM (SELECT id, \(rankSQL) AS k, a, b, \(x), hv_interval(?, a, 0) AS i FROM v) WHERE i < ?)
            """
        let average = options.contains(.discreteAverage)
        let weighted = average && apportioned && style != .cumulative
        func column(_ needed: Bool, _ sql: String) -> String { needed ? sql : "NULL" }
        return """
            WITH RECURSIVE v AS NOT MATERIALIZED (\(visible.sql)),
            \(rows),
            r AS (
                SELECT *\(mostRecent ? ", row_number() OVER (PARTITION BY i, k ORDER BY b DESC, a DESC, id DESC) AS rn" : "")
                FROM q)
            SELECT i, k, count(*), \(column(average && !apportioned, "sum(x)")),
                \(column(options.contains(.discreteMin), "min(lo)")), \(column(options.contains(.discreteMax), "max(hi)")),
                \(column(weighted, "sum(\(level("x")) * w)")), \(column(weighted, "sum(w)")),
                \(column(weighted, "sum(\(level("x")))")), NULL,
                \(column(style == .cumulative, "sum(CASE WHEN w = b - a THEN x ELSE x * w / (b - a) END)")),
                \(mostRecent ? "max(CASE WHEN rn = 1 THEN x END), max(CASE WHEN rn = 1 THEN a END), max(CASE WHEN rn = 1 THEN b END)" : "NULL, NULL, NULL"),
                max(b), \(column(mostRecent, "max(CASE WHEN rn = 1 THEN id END)"))
            FROM r GROUP BY i, k
            """
    }

    private func piecesArguments(_ blob: DatabaseValue, _ count: Int64, _ crossing: Bool) -> [DatabaseValue] {
        if crossing { return [blob] + rankArguments + [blob, blob, blob, blob, .integer(count)] }
        return (apportioned ? [blob] : []) + rankArguments + [blob, .integer(count)]
    }

    /// The segments statements' per-source columns: whether any source covers a segment, the
    /// rate of the covering source of highest priority, whether each source supplied part of the
    /// merged sum, each source's rate and cover count per instant and running, and (only as the
    /// options need them) each source's own sum and covered time.
    private var segmentColumns:
        (covered: String, chosen: String, won: [String], perRank: [String], running: [String], bySource: [String])
    {
        let ranks = sources.indices
        let separate = options.contains(.separateBySource)
        let coverage = separate || options.contains(.duration)
        return (
            ranks.map { "c\($0) > 0" }.joined(separator: " OR "),
            "CASE " + ranks.map { "WHEN c\($0) > 0 THEN r\($0) " }.joined() + "ELSE 0 END",
            ranks.map { k in "max(" + (ranks.prefix(k).map { "c\($0) <= 0 AND " }.joined()) + "c\(k) > 0)" },
            ranks.map {
                ", sum(CASE k WHEN \($0) THEN dr ELSE 0 END) AS r\($0), sum(CASE k WHEN \($0) THEN dc ELSE 0 END) AS c\($0)"
            },
            ranks.map { ", sum(r\($0)) OVER o AS r\($0), sum(c\($0)) OVER o AS c\($0)" },
            ranks.map { k in
                ", " + (separate ? "sum(CASE WHEN c\(k) > 0 THEN (t2 - t) * r\(k) ELSE 0 END)" : "0")
                    + ", " + (coverage ? "sum(CASE WHEN c\(k) > 0 THEN t2 - t ELSE 0 END)" : "0")
            }
        )
    }

    /// Time cut at every start and end of a sample with a duration and at every boundary; per
    /// source, a running count of the samples covering each segment and the sum of their rates
    /// (value per second, or level for a discrete type). Only covered segments are grouped. Only
    /// the columns the options need are computed; the others are constant zeros.
    private func segmentsSQL() -> String {
        let (covered, chosen, won, perRank, running, bySource) = segmentColumns
        return """
            WITH RECURSIVE v AS NOT MATERIALIZED (\(visible.sql)),
            bounds(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM bounds WHERE i < ?),
            e(t, k, dr, dc) AS (
                SELECT a, \(rankSQL), \(rate), 1 FROM v WHERE b > a
                UNION ALL SELECT b, \(rankSQL), -\(rate), -1 FROM v WHERE b > a
                UNION ALL SELECT hv_boundary(?, i), -1, 0, 0 FROM bounds),
            g AS (SELECT t\(perRank.joined()) FROM e GROUP BY t),
            st AS (
                SELECT t, lead(t) OVER o AS t2\(running.joined())
                FROM g WINDOW o AS (ORDER BY t ROWS UNBOUNDED PRECEDING))
            SELECT hv_interval(?, t, 0) AS i, max(t2), sum((t2 - t) * \(chosen)),
                \(options.contains(.duration) ? "sum(t2 - t)" : "0")\(bySource.joined()), \(won.joined(separator: ", "))
            FROM st WHERE \(covered) GROUP BY i
            """
    }

    /// ``segmentsSQL()`` per interval: each sample with a duration, cut at the edges of every
    /// interval it reaches, starts and ends its coverage within each; the running sums start
    /// again in each interval (a window partitioned by interval), so no event of another interval
    /// enters an interval's sums. An interval's latest end is the uncut end of the samples
    /// reaching into it (`z`, carried by their start events, each of which opens a covered
    /// segment), so that a caller learns of a sample reaching past the last boundary, as the
    /// pieces tell it.
    private func partitionedSegmentsSQL() -> String {
        let (covered, chosen, won, perRank, running, bySource) = segmentColumns
        return """
            WITH RECURSIVE v AS NOT MATERIALIZED (\(visible.sql)),
            sp(a, b, k, r, i, i1) AS (
                SELECT a, b, \(rankSQL), \(rate), hv_interval(?, a, 0), hv_interval(?, b, 1) FROM v WHERE b > a
                UNION ALL SELECT a, b, k, r, i + 1, i1 FROM sp WHERE i < i1),
            e(i, t, k, dr, dc, z) AS (
                SELECT i, max(a, hv_boundary(?, i)), k, r, 1, b FROM sp WHERE i >= 0 AND i < ?
                UNION ALL SELECT i, min(b, hv_boundary(?, i + 1)), k, -r, -1, NULL FROM sp WHERE i >= 0 AND i < ?),
            g AS (SELECT i, t, max(z) AS z\(perRank.joined()) FROM e GROUP BY i, t),
            st AS (
                SELECT i, t, z, lead(t) OVER o AS t2\(running.joined())
                FROM g WINDOW o AS (PARTITION BY i ORDER BY t ROWS UNBOUNDED PRECEDING))
            SELECT i, max(z), sum((t2 - t) * \(chosen)),
                \(options.contains(.duration) ? "sum(t2 - t)" : "0")\(bySource.joined()), \(won.joined(separator: ", "))
            FROM st WHERE \(covered) GROUP BY i
            """
    }

    /// What a covering sample adds per second: its share of a sum, or its level.
    private var rate: String { style == .cumulative ? "x / (b - a)" : level("x") }

    private func segmentsArguments(blob: DatabaseValue, count: Int64) -> [DatabaseValue] {
        [.integer(count)] + rankArguments + rankArguments + [blob, blob]
    }

    /// Per interval and source, the sum and the latest instant of the samples without a duration.
    private func pointsSQL() -> String {
        """
        WITH v AS NOT MATERIALIZED (\(visible.sql))
        SELECT i, k, sum(x), max(a) FROM (SELECT \(rankSQL) AS k, a, x, hv_interval(?, a, 0) AS i FROM v WHERE b = a)
        WHERE i >= 0 AND i < ? GROUP BY i, k
        """
    }
}

/// One source's rows in one interval, from a pieces statement; the aggregates not asked for are
/// nil or zero.
struct Pieces {
    var count: Int
    var sum: Double
    var minimum: Double?
    var maximum: Double?
    /// Σ level × seconds and Σ seconds over samples with a duration.
    var weighted: Double
    var weight: Double
    /// Σ level and count over samples without a duration, read only when `weight` is zero: a
    /// sample with a duration always weighs, so then every sample counted is one without.
    var pointLevels: Double
    var points: Int
    /// The source's sum, each sample apportioned by time.
    var share: Double
    /// Its latest sample, by end, start and row id.
    var mostRecent: (value: Double, start: Double, end: Double, id: Int64)?

    init(
        count: Int,
        sum: Double,
        minimum: Double?,
        maximum: Double?,
        weighted: Double,
        weight: Double,
        pointLevels: Double,
        points: Int,
        share: Double,
        mostRecent: (value: Double, start: Double, end: Double, id: Int64)?
    ) {
        self.count = count
        self.sum = sum
        self.minimum = minimum
        self.maximum = maximum
        self.weighted = weighted
        self.weight = weight
        self.pointLevels = pointLevels
        self.points = points
        self.share = share
        self.mostRecent = mostRecent
    }

    init?(_ row: Row) {
        guard let count = row[2].int64 else { return nil }
        self.count = Int(count)
        sum = row[3].double ?? 0
        minimum = row[4].double
        maximum = row[5].double
        weighted = row[6].double ?? 0
        weight = row[7].double ?? 0
        pointLevels = row[8].double ?? 0
        points = Int(count)
        share = row[10].double ?? 0
        if let value = row[11].double, let start = row[12].double, let end = row[13].double {
            mostRecent = (value, start, end, row[15].int64 ?? 0)
        }
    }

    /// The same source's pieces of the same interval from both passes, together.
    func adding(_ other: Pieces) -> Pieces {
        var both = self
        both.count += other.count
        both.sum += other.sum
        both.minimum = [minimum, other.minimum].compactMap { $0 }.min()
        both.maximum = [maximum, other.maximum].compactMap { $0 }.max()
        both.weighted += other.weighted
        both.weight += other.weight
        both.pointLevels += other.pointLevels
        both.points += other.points
        both.share += other.share
        both.mostRecent = [mostRecent, other.mostRecent].compactMap { $0 }.max {
            ($0.end, $0.start, $0.id) < ($1.end, $1.start, $1.id)
        }
        return both
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
        sumBySource = (0..<sources).map { row[4 + 2 * $0].double ?? 0 }
        coveredBySource = (0..<sources).map { row[5 + 2 * $0].double ?? 0 }
        pointsBySource = Array(repeating: false, count: sources)
        won = (0..<sources).map { (row[4 + 2 * sources + $0].int64 ?? 0) != 0 }
    }

    /// An interval holding only samples without a duration.
    init(sources: Int) {
        merged = 0
        covered = 0
        sumBySource = Array(repeating: 0, count: sources)
        coveredBySource = Array(repeating: 0, count: sources)
        pointsBySource = Array(repeating: false, count: sources)
        won = Array(repeating: false, count: sources)
    }
}

/// One interval's computed rows.
struct IntervalResult {
    let index: Int
    var perSource: [Pieces?]
    var segments: Segments?
    /// The latest end of the samples counted here.
    var latestEnd = -Double.greatestFiniteMagnitude

    init(index: Int, perSource: [Pieces?]) {
        self.index = index
        self.perSource = perSource
    }

    func statistics(_ plan: StatisticsPlan, start: Date, end: Date) -> Statistics {
        let type = plan.type
        let options = plan.options
        let unit = type.canonicalUnit
        let merging = plan.merging
        let present = perSource.compactMap { $0 }

        func values(_ pieces: [Pieces], sum: Double?, duration: Double?) -> StatisticsValues {
            let recent = pieces.compactMap(\.mostRecent).max { ($0.end, $0.start) < ($1.end, $1.start) }
            return StatisticsValues(
                sum: options.contains(.cumulativeSum) ? sum.map { Quantity($0, unit) } : nil,
                average: options.contains(.discreteAverage) ? average(pieces, type).map { Quantity($0, unit) } : nil,
                minimum: options.contains(.discreteMin)
                    ? pieces.compactMap(\.minimum).min().map { Quantity($0, unit) } : nil,
                maximum: options.contains(.discreteMax)
                    ? pieces.compactMap(\.maximum).max().map { Quantity($0, unit) } : nil,
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
        for rank in plan.bundleOrder {
            let ranked = plan.sources[rank]
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
        return Statistics(
            quantityType: type,
            startDate: start,
            endDate: end,
            values: values(present, sum: sum, duration: segments?.covered ?? 0),
            sources: contributing,
            valuesBySource: bySource
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
