public import Foundation
import HealthModel

/// Statistics kept by the hour (docs/STATISTICS.md, "Hours kept"), so that a query over a long
/// history costs what its intervals cost rather than what the vault holds.
///
/// For a quantity type and one of two kinds of reader, every UTC hour's pieces (per source) and
/// segments (merged sums, coverage, per source), computed by the same statements as any query,
/// over the same rows, are kept in `statistics_hours` once a query has computed them:
///
/// - key 0: a reader who sees every sample of the type (the owner, an app with a read grant
///   without a window);
/// - key = a source's row id: an app that sees only its own samples of the type.
///
/// An interval made of whole hours is then the sum of its hours: sums, weights and counts add,
/// minimums, maximums and the most recent sample combine, and a merged sum is additive in time
/// (the segments are cut at every hour). The hours a sample saved or deleted reaches are forgotten
/// (for key 0 and for its source) and the change counted in `statistics_changes`: a save's once per
/// type and source of its batch (`recordInserted`), a deletion's by a trigger on `samples`; a
/// change of a type's source priority forgets its key-0 hours. A query
/// computes the hours it lacks from the same snapshot it answers from; they are written with the
/// read's audit entry only when no change of the type (for that key) was committed meanwhile.
///
/// Every whole-hour query without a predicate or with one of dates alone is computed hour by hour,
/// for every reader, so its answer is the same whether its hours were kept or not (a reader
/// through a window computes its hours each time and keeps none). Anything else is computed from
/// the rows as before: other predicates, intervals that are not whole UTC hours (a zone with a
/// half-hour offset), live statistics.
public final class StatisticsHoursKeeper: @unchecked Sendable {
    /// What a query does with the hours kept.
    public enum Mode: Sendable {
        /// Uses them, and hands those it computes to the keeper, for the read's write.
        case keep
        /// Computes every hour from the rows, using and keeping none (to measure that cost).
        case off
    }

    let mode: Mode
    /// How many hours the queries given this keeper computed from the rows (rather than read).
    public var hoursComputed: Int { lock.withLock { computedCount } }
    private var computedCount = 0

    func counted(_ hours: Int64) { lock.withLock { computedCount += Int(hours) } }

    struct Computed {
        let type: Int64
        let key: Int64
        /// `statistics_changes.changes` of (type, key) in the snapshot the hours came from.
        let changes: Int64
        var hours: [(hour: Int64, result: [UInt8])]
    }

    private let lock = NSLock()
    private var computed: [Computed] = []

    public init(_ mode: Mode = .keep) { self.mode = mode }

    func add(_ hours: Computed) { lock.withLock { computed.append(hours) } }

    func take() -> [Computed] {
        lock.withLock {
            defer { computed = [] }
            return computed
        }
    }
}

extension SampleStore {
    /// Writes the hours a read computed, in the transaction of its audit entry, unless a sample
    /// of the type (of the key's kind) was saved or deleted since the read's snapshot.
    public func keepStatisticsHours(_ keeper: StatisticsHoursKeeper, in db: Connection) throws {
        for computed in keeper.take() where !computed.hours.isEmpty {
            let changes =
                try db.scalarInt(
                    "SELECT changes FROM statistics_changes WHERE type = ? AND source = ?",
                    [computed.type, computed.key]
                ) ?? 0
            guard changes == computed.changes else { continue }
            let insert = try db.statement(
                "INSERT OR REPLACE INTO statistics_hours (type, source, hour, result) VALUES (?, ?, ?, ?)"
            )
            for (hour, result) in computed.hours {
                try insert.execute(values: [
                    .integer(computed.type), .integer(computed.key), .integer(hour), .blob(result),
                ])
            }
        }
    }

    /// Forgets a type's hours kept for readers of every source (its source priority changed).
    func forgetMergedHours(of type: QuantityTypeIdentifier, in db: Connection) throws {
        guard let code = try typeCode(.quantity(type), db) else { return }
        try db.execute("DELETE FROM statistics_hours WHERE type = ? AND source = 0", [code])
        try db.execute(
            "INSERT INTO statistics_changes (type, source, changes) VALUES (?, 0, 1) ON CONFLICT (type, source) DO UPDATE SET changes = changes + 1",
            [code]
        )
    }
}

/// One hour's kept result: per source its pieces, the segments, and the latest end seen.
struct HourResult {
    var pieces: [Int64: Pieces] = [:]
    var segments: HourSegments?
    var end = -Double.greatestFiniteMagnitude

    struct HourSegments {
        var merged: Double
        var covered: Double
        /// By source id: its own sum, its covered time, whether it had samples without a
        /// duration, whether it supplied some of the merged sum.
        var bySource: [Int64: (sum: Double, covered: Double, points: Bool, won: Bool)]
    }

    var isEmpty: Bool { pieces.isEmpty && segments == nil }

    // The encoding: doubles in the machine's order (the vault is never read elsewhere).
    // [end, pieces count, segments (0/1), per source 15 values, merged, covered, count, per source 5].
    func encoded() -> [UInt8] {
        // An hour without data: no bytes (most hours of a sparse type's history).
        if isEmpty && end == -Double.greatestFiniteMagnitude { return [] }
        var values: [Double] = [end, Double(pieces.count), segments == nil ? 0 : 1]
        for (id, p) in pieces.sorted(by: { $0.key < $1.key }) {
            values += [
                Double(id), Double(p.count), p.sum, p.minimum ?? .nan, p.maximum ?? .nan, p.weighted, p.weight,
                p.pointLevels, Double(p.points), p.share,
            ]
            if let recent = p.mostRecent {
                values += [1, recent.value, recent.start, recent.end, Double(recent.id)]
            } else {
                values += [0, 0, 0, 0, 0]
            }
        }
        if let segments {
            values += [segments.merged, segments.covered, Double(segments.bySource.count)]
            for (id, s) in segments.bySource.sorted(by: { $0.key < $1.key }) {
                values += [Double(id), s.sum, s.covered, s.points ? 1 : 0, s.won ? 1 : 0]
            }
        }
        return values.withUnsafeBytes { Array($0) }
    }

    init() {}

    init?(decoding bytes: [UInt8]) {
        if bytes.isEmpty { return }
        guard bytes.count % 8 == 0, bytes.count >= 24 else { return nil }
        let values: [Double] = bytes.withUnsafeBytes { raw in
            (0..<bytes.count / 8).map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: Double.self) }
        }
        var at = 3
        end = values[0]
        let count = Int(values[1])
        guard values.count >= 3 + count * 15 else { return nil }
        for _ in 0..<count {
            let v = values[at..<(at + 15)].map { $0 }
            at += 15
            pieces[Int64(v[0])] = Pieces(
                count: Int(v[1]),
                sum: v[2],
                minimum: v[3].isNaN ? nil : v[3],
                maximum: v[4].isNaN ? nil : v[4],
                weighted: v[5],
                weight: v[6],
                pointLevels: v[7],
                points: Int(v[8]),
                share: v[9],
                mostRecent: v[10] == 1 ? (v[11], v[12], v[13], Int64(v[14])) : nil
            )
        }
        if values[2] == 1 {
            guard values.count >= at + 3 else { return nil }
            var segments = HourSegments(merged: values[at], covered: values[at + 1], bySource: [:])
            let sources = Int(values[at + 2])
            at += 3
            guard values.count >= at + sources * 5 else { return nil }
            for _ in 0..<sources {
                segments.bySource[Int64(values[at])] = (
                    values[at + 1], values[at + 2], values[at + 3] == 1, values[at + 4] == 1
                )
                at += 5
            }
            self.segments = segments
        }
    }

    /// Adds the part of an interval's computed rows that a plan's source ranks name.
    mutating func add(_ interval: IntervalResult, sources: [(id: Int64, source: Source)]) {
        for (rank, pieces) in interval.perSource.enumerated() {
            guard let pieces else { continue }
            let id = sources[rank].id
            self.pieces[id] = self.pieces[id].map { $0.adding(pieces) } ?? pieces
        }
        if let s = interval.segments {
            var segments = self.segments ?? HourSegments(merged: 0, covered: 0, bySource: [:])
            segments.merged += s.merged
            segments.covered += s.covered
            for rank in sources.indices {
                let id = sources[rank].id
                let old = segments.bySource[id] ?? (0, 0, false, false)
                segments.bySource[id] = (
                    old.sum + s.sumBySource[rank], old.covered + s.coveredBySource[rank],
                    old.points || s.pointsBySource[rank], old.won || s.won[rank]
                )
            }
            self.segments = segments
        }
    }
}

extension StatisticsPlan {
    /// The hours are kept for this plan's reader and query: its key, or nil (computed as before).
    private func hoursKey(_ scope: ReadScope, _ store: SampleStore, _ db: Connection) throws -> Int64? {
        switch scope.access(to: .quantity(type)) {
        case .all: return 0
        case .ownSamples(let bundleIdentifier): return try store.sourceID(bundleIdentifier, db)
        default: return nil
        }
    }

    /// The hours whose kept results a query with `predicate` may use: those every sample reaching
    /// into matches (a sample reaching into an hour starts at most `longest` seconds before it
    /// and ends at most `longest` seconds after it); nil when none is.
    static func inside(_ predicate: SamplePredicate?, longest: Double) -> ClosedRange<Int64>? {
        guard let predicate else { return Int64.min...Int64.max }
        guard case .date(let start, let end, let options) = predicate else { return nil }
        func hour(_ t: Double, _ rule: FloatingPointRoundingRule) -> Int64? {
            let h = (t / 3600).rounded(rule)
            return abs(h) < 1e12 ? Int64(h) : nil
        }
        var low = Int64.min
        var high = Int64.max
        if let start = start?.timeIntervalSinceReferenceDate {
            // Matched: from `start` on, by the end (the overlap) or by the start.
            guard let h = hour(options.contains(.strictStartDate) ? start + longest : start, .up) else { return nil }
            low = h
        }
        if let end = end?.timeIntervalSinceReferenceDate {
            // Matched: before `end`, by the start (the overlap) or by the end.
            guard let h = hour(options.contains(.strictEndDate) ? end - longest : end, .down) else { return nil }
            high = h - 1
        }
        return low <= high ? low...high : nil
    }

    /// ``compute(boundaries:_:)`` hour by hour, when the boundaries are whole UTC hours (or one
    /// open interval) and the predicate is none or one of dates: each interval the sum of its
    /// hours, each hour computed from the samples reaching into it alone, so that an answer is
    /// the same, to the last bit, whichever hours were kept and whoever computed them. For a
    /// reader the hours are kept for (``hoursKey``), the hours kept serve (unless `keeper` is
    /// off) and those computed are handed to `keeper`, if any, for the read's write; for any
    /// other reader (a window, objects chosen one by one) every hour is computed, in one pass,
    /// and none kept.
    func compute(
        boundaries: [Double],
        scope: ReadScope,
        predicate: SamplePredicate?,
        store: SampleStore,
        keeper: StatisticsHoursKeeper?,
        _ db: Connection
    ) throws -> (results: [IntervalResult], end: Double) {
        let open = boundaries.count == 2 && boundaries[1] == .greatestFiniteMagnitude
        let dates: Bool
        if case .date = predicate { dates = true } else { dates = predicate == nil }
        guard dates, let first = boundaries.first, first.isFinite, abs(first) < 1e15,
            open
                || boundaries.allSatisfy({ $0.truncatingRemainder(dividingBy: 3600) == 0 && abs($0) < 1e15 }),
            let code = try store.typeCode(.quantity(type), db)
        else { return try compute(boundaries: boundaries, db) }
        let readerKey = try hoursKey(scope, store, db)
        let key = keeper?.mode == .off ? nil : readerKey
        let changes =
            try db.scalarInt(
                "SELECT changes FROM statistics_changes WHERE type = ? AND source = ?",
                [code, key ?? 0]
            ) ?? 0
        // The longest duration of the samples the reader may see reaching into an hour (kept in
        // `sample_durations`): of its own source's, or of the type's (a window bounds the rows
        // read by itself). One second more covers the rounding of a duration.
        func longestSaved(_ source: Int64?) throws -> Double {
            let durations =
                source.map {
                    SQLFragment(
                        "SELECT longest FROM sample_durations WHERE type = ? AND source_id = ?",
                        [.integer(code), .integer($0)]
                    )
                } ?? SQLFragment("SELECT max(longest) FROM sample_durations WHERE type = ?", [.integer(code)])
            return (try db.rows(durations.sql, durations.arguments).first?[0].double) ?? 0
        }
        let longest: Double
        if case .window(let window, let own) = scope.access(to: .quantity(type)) {
            // Through a window, only what the reader may see: its own samples' longest, and the
            // window's length for the others' (no bound for an open window), never the durations
            // of samples the window hides (docs/ACCESS_RULES.md, "Reading").
            let span = window.start.flatMap { start in window.end.map { $0.timeIntervalSince(start) } }
            longest = 1 + max(try longestSaved(try store.sourceID(own, db) ?? -1), span ?? 1e300)
        } else {
            longest = 1 + (try longestSaved(readerKey.flatMap { $0 == 0 ? nil : $0 }))
        }
        let inside = key == nil ? nil : Self.inside(predicate, longest: longest)
        // The hours from the one holding the first boundary through the last boundary; for one
        // open interval (a statistics query, from the earliest start on), through the hour after
        // the latest start, then on through the hour holding the latest end.
        let firstHour = Int64((first / 3600).rounded(.down))
        var lastHour =
            open ? Int64((end / 3600).rounded(.down)) + 1 : Int64(boundaries[boundaries.count - 1] / 3600)
        var hours: [Int64: HourResult] = [:]
        var computed = StatisticsHoursKeeper.Computed(type: code, key: key ?? 0, changes: changes, hours: [])
        var from = firstHour
        while true {
            if let key, let inside,
                case let upper = inside.upperBound == .max ? Int64.max : inside.upperBound + 1,
                max(from, inside.lowerBound) < min(lastHour, upper)
            {
                for row in try db.rows(
                    "SELECT hour, result FROM statistics_hours WHERE type = ? AND source = ? AND hour >= ? AND hour < ?",
                    [code, key, max(from, inside.lowerBound), min(lastHour, upper)]
                ) {
                    guard let hour = row[0].int64, case .blob(let bytes) = row[1],
                        let result = HourResult(decoding: bytes)
                    else { continue }
                    hours[hour] = result
                }
            }
            // The runs of hours not kept, each computed in one pass over the rows reaching into
            // it: inside the predicate's dates from every row, with every figure, to be kept; elsewhere,
            // and everywhere for a query whose hours nobody will keep (the owner's report, which
            // passes no keeper), only what the query asks, from the rows the predicate matches.
            let keeps = keeper?.mode == .keep
            func keepable(_ hour: Int64) -> Bool { keeps && inside?.contains(hour) == true }
            var hour = from
            while hour < lastHour {
                guard hours[hour] == nil else {
                    hour += 1
                    continue
                }
                let kept = keepable(hour)
                var runEnd = hour + 1
                while runEnd < lastHour, hours[runEnd] == nil, keepable(runEnd) == kept {
                    runEnd += 1
                }
                keeper?.counted(runEnd - hour)
                let fresh = try Self.hours(
                    hour..<runEnd,
                    type: type,
                    predicate: kept ? nil : predicate,
                    asked: kept ? nil : (needsPieces, needsSegments, options),
                    scope: scope,
                    store: store,
                    longest: longest,
                    db
                )
                for each in hour..<runEnd {
                    let result = fresh[each] ?? HourResult()
                    hours[each] = result
                    if kept { computed.hours.append((each, result.encoded())) }
                }
                hour = runEnd
            }
            let latest = (from..<lastHour).reduce(-Double.greatestFiniteMagnitude) { max($0, hours[$1]?.end ?? $0) }
            guard open, latest > Double(lastHour) * 3600 else { break }
            from = lastHour
            lastHour = Int64((latest / 3600).rounded(.up))
        }
        if let keeper, keeper.mode == .keep, !computed.hours.isEmpty { keeper.add(computed) }
        return combine(hours, boundaries: boundaries, firstHour: firstHour, lastHour: lastHour)
    }

    /// Every hour of `run` with visible data, computed by the ordinary statements over the rows
    /// that reach into the run (bounded on both sides of the start by the longest duration kept).
    private static func hours(
        _ run: Range<Int64>,
        type: QuantityTypeIdentifier,
        predicate: SamplePredicate?,
        asked: (pieces: Bool, segments: Bool, options: StatisticsOptions)?,
        scope: ReadScope,
        store: SampleStore,
        longest: Double,
        _ db: Connection
    ) throws -> [Int64: HourResult] {
        let from = Double(run.lowerBound) * 3600
        let to = Double(run.upperBound) * 3600
        let restriction = SQLFragment(
            "s.start_date >= ? AND s.start_date < ? AND (s.end_date > ? OR s.start_date >= ?)",
            [.real(from - longest), .real(to), .real(from), .real(from)]
        )
        let boundaries = (run.lowerBound...run.upperBound).map { Double($0) * 3600 }
        var result: [Int64: HourResult] = [:]
        func add(_ computed: [IntervalResult], _ sources: [(id: Int64, source: Source)], segmentsOnly: Bool) {
            for interval in computed {
                let hour = run.lowerBound + Int64(interval.index)
                var kept = result[hour] ?? HourResult()
                var part = interval
                if segmentsOnly {
                    part.perSource = Array(repeating: nil, count: part.perSource.count)
                    kept.segments = nil
                }
                kept.add(part, sources: sources)
                // The latest end of a sample reaching into the hour: over the hours a query asks
                // for (they hold every start), the latest end of all.
                kept.end = max(kept.end, interval.latestEnd)
                result[hour] = kept
            }
        }
        // Hours to keep: pieces of every kind the options can ask for, with coverage (a
        // cumulative type's coverage comes with its merged segments below). Hours for one query
        // alone: what it asks (each figure is computed on its own, the same whatever else is).
        let style = type.aggregationStyle
        var options: StatisticsOptions =
            style == .cumulative
            ? [.mostRecent, .separateBySource]
            : [.mostRecent, .duration, .separateBySource, .discreteAverage, .discreteMin, .discreteMax]
        if let asked {
            options = asked.options.subtracting(.cumulativeSum)
            if style == .cumulative || !asked.segments { options.remove(.duration) }
        }
        if asked?.pieces != false,
            var pieces = try StatisticsPlan(
                type: type,
                predicate: predicate,
                options: options,
                scope: scope,
                store: store,
                restrictedTo: restriction,
                restrictionOfDates: true,
                db
            )
        {
            pieces.partitionedSegments = true
            add(try pieces.compute(boundaries: boundaries, db).results, pieces.sources, segmentsOnly: false)
        }
        // A cumulative type's segments as a merging query computes them (with the samples without
        // a duration added), whatever the number of sources in the run.
        if style == .cumulative, asked?.segments != false,
            var merged = try StatisticsPlan(
                type: type,
                predicate: predicate,
                options: asked.map { $0.options.intersection([.duration, .separateBySource]).union(.cumulativeSum) }
                    ?? [.cumulativeSum, .duration, .separateBySource],
                scope: scope,
                store: store,
                restrictedTo: restriction,
                restrictionOfDates: true,
                mergingAlways: true,
                db
            )
        {
            merged.partitionedSegments = true
            let segments = try merged.compute(boundaries: boundaries, db)
            add(segments.results, merged.sources, segmentsOnly: true)
        }
        return result
    }

    /// The intervals of `boundaries` from the hours, as ``compute(boundaries:_:)`` returns them:
    /// only what this plan's options and merging compute, by this plan's source ranks.
    private func combine(
        _ hours: [Int64: HourResult],
        boundaries: [Double],
        firstHour: Int64,
        lastHour: Int64
    ) -> (
        results: [IntervalResult], end: Double
    ) {
        var rank: [Int64: Int] = [:]
        for (index, source) in sources.enumerated() { rank[source.id] = index }
        var results: [IntervalResult] = []
        var end = -Double.greatestFiniteMagnitude
        for index in 0..<(boundaries.count - 1) {
            let open = boundaries[index + 1] == .greatestFiniteMagnitude
            let from = open ? firstHour : Int64(boundaries[index] / 3600)
            let to = open ? lastHour : Int64(boundaries[index + 1] / 3600)
            var interval = IntervalResult(index: index, perSource: Array(repeating: nil, count: sources.count))
            var any = false
            for hour in from..<to {
                guard let kept = hours[hour] else { continue }
                end = max(end, kept.end)
                guard !kept.isEmpty else { continue }
                if needsPieces {
                    for (id, pieces) in kept.pieces {
                        guard let k = rank[id] else { continue }
                        interval.perSource[k] = interval.perSource[k].map { $0.adding(pieces) } ?? pieces
                        any = true
                    }
                }
                if needsSegments, let s = kept.segments {
                    var segments = interval.segments ?? Segments(sources: sources.count)
                    segments.merged += s.merged
                    segments.covered += s.covered
                    for (id, part) in s.bySource {
                        guard let k = rank[id] else { continue }
                        segments.sumBySource[k] += part.sum
                        segments.coveredBySource[k] += part.covered
                        segments.pointsBySource[k] = segments.pointsBySource[k] || part.points
                        segments.won[k] = segments.won[k] || part.won
                    }
                    interval.segments = segments
                    any = true
                }
            }
            if any { results.append(interval) }
        }
        return (results, end)
    }
}
