import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultStore

@testable import VaultEngine

/// The statistics kept by the hour (docs/STATISTICS.md, "Hours kept") give the answers computed
/// without them: every query through the engine (which keeps and reuses hours) against the same
/// query computed by the store from the rows alone, in the same snapshot, and as the owner's
/// report computes it (the hours kept read, the others computed for the query alone and not
/// kept), for readers of every source, of their own, and of the others' through a window, after
/// saves, deletions and a change of priority between queries; and against the reference computed
/// from the samples themselves (``StatisticsTests/expected``), every interval and each source's
/// figures apart: the three collections without a predicate, so that a query the hours cannot
/// serve (intervals of 3 hours in Kolkata, half an hour off UTC's) is not only compared with
/// itself, and the daily collections and the single statistics with each form of date predicate,
/// whose edges mix hours kept with hours computed from the rows the predicate matches.
@Suite struct StatisticsHoursTests {
    typealias Raw = StatisticsTests.Raw

    /// The same query through the store: from the rows alone with a keeper that is `.off`;
    /// without a keeper, as the report asks, reading the hours kept and keeping none it computes.
    static func direct(
        _ test: TestEngine,
        _ caller: Caller,
        collection query: StatisticsCollectionQueryDescriptor,
        keeping keeper: StatisticsHoursKeeper? = StatisticsHoursKeeper(.off)
    ) throws -> StatisticsCollection {
        try test.engine.database.read { db in
            try test.engine.store.statisticsCollection(
                matching: query,
                scope: try test.engine.scope(for: caller, db),
                timeZone: "UTC",
                keeping: keeper,
                in: db
            )
        }
    }

    static func direct(
        _ test: TestEngine,
        _ caller: Caller,
        statistics query: StatisticsQueryDescriptor,
        keeping keeper: StatisticsHoursKeeper? = StatisticsHoursKeeper(.off)
    ) throws
        -> Statistics?
    {
        try test.engine.database.read { db in
            try test.engine.store.statistics(
                matching: query,
                scope: try test.engine.scope(for: caller, db),
                keeping: keeper,
                in: db
            )
        }
    }

    static func same(_ a: Quantity?, _ b: Quantity?, _ what: String) {
        guard let a, let b else {
            #expect(a == nil && b == nil, "\(what): \(String(describing: a)) vs \(String(describing: b))")
            return
        }
        #expect(a.unit == b.unit, "\(what)")
        #expect(abs(a.value - b.value) <= 1e-9 * max(1, abs(b.value)), "\(what): \(a.value) vs \(b.value)")
    }

    static func same(_ a: StatisticsValues, _ b: StatisticsValues, _ label: String) {
        same(a.sum, b.sum, "sum at \(label)")
        same(a.average, b.average, "average at \(label)")
        same(a.minimum, b.minimum, "minimum at \(label)")
        same(a.maximum, b.maximum, "maximum at \(label)")
        same(a.mostRecent, b.mostRecent, "most recent at \(label)")
        same(a.duration, b.duration, "duration at \(label)")
        #expect(a.mostRecentStartDate == b.mostRecentStartDate, "most recent start at \(label)")
        #expect(a.mostRecentEndDate == b.mostRecentEndDate, "most recent end at \(label)")
    }

    static func same(_ a: Statistics?, _ b: Statistics?, _ label: String) {
        guard let a, let b else {
            #expect(a == nil && b == nil, "no data on one side only at \(label)")
            return
        }
        #expect(a.startDate == b.startDate && a.endDate == b.endDate, "dates at \(label)")
        #expect(a.sources == b.sources, "sources at \(label)")
        same(a.values, b.values, label)
        #expect(a.valuesBySource.map(\.source) == b.valuesBySource.map(\.source), "sources separately at \(label)")
        for (x, y) in zip(a.valuesBySource, b.valuesBySource) {
            same(x.values, y.values, "\(label), \(x.source.bundleIdentifier)")
        }
    }

    static func same(_ a: StatisticsCollection, _ b: StatisticsCollection, _ label: String) {
        #expect(a.statistics.count == b.statistics.count, "intervals at \(label)")
        for (x, y) in zip(a.statistics, b.statistics) {
            same(x, y, "\(label) \(RFC3339.string(from: x.startDate))")
        }
    }

    /// Checks every interval of `collection` against the reference, from `raw` (what its reader
    /// sees) merged in `priority`, and that it holds no interval beyond those with data.
    /// `intervals` covers the samples' span.
    static func checkAgainstReference(
        _ collection: StatisticsCollection,
        _ type: QuantityTypeIdentifier,
        _ options: StatisticsOptions,
        _ raw: [Raw],
        priority: [String],
        intervals: [(Double, Double)],
        _ label: String
    ) throws {
        var checked = 0
        for interval in intervals {
            let statistics = collection.statistics.first { $0.startDate.timeIntervalSinceReferenceDate == interval.0 }
            if let statistics {
                #expect(statistics.endDate.timeIntervalSinceReferenceDate == interval.1, "end at \(label)")
            }
            // The reference has every figure; the query only those its options ask.
            let expected = StatisticsTests.expected(type, raw, interval: interval, priority: priority)?
                .asked(by: options, type)
            let at = "\(label) \(RFC3339.string(from: Date(timeIntervalSinceReferenceDate: interval.0)))"
            try StatisticsTests.check(statistics, against: expected, type, at: at, options: options)
            if expected != nil { checked += 1 }
            if options.contains(.separateBySource), let statistics {
                try checkEachSource(statistics, type, options, raw, interval: interval, at)
            }
        }
        #expect(checked > 0, "data at \(label)")
        #expect(collection.statistics.count == checked, "no intervals beyond the data at \(label)")
    }

    /// Each source's entry of `statistics` (`valuesBySource`) against the reference of that
    /// source's samples alone, not merged: an entry for each source with a sample that counts in
    /// the interval, and no other.
    static func checkEachSource(
        _ statistics: Statistics,
        _ type: QuantityTypeIdentifier,
        _ options: StatisticsOptions,
        _ raw: [Raw],
        interval: (Double, Double),
        _ at: String
    ) throws {
        let unit = type.canonicalUnit
        var listed: [String] = []
        for source in Set(raw.map(\.source)).sorted() {
            let own = raw.filter { $0.source == source }
            guard
                let expected = StatisticsTests.expected(type, own, interval: interval, priority: [source])?
                    .asked(by: options, type)
            else { continue }
            listed.append(source)
            guard let entry = statistics.valuesBySource.first(where: { $0.source.bundleIdentifier == source }) else {
                Issue.record("no entry for \(source) at \(at)")
                continue
            }
            let values = entry.values
            let what = "of \(source) alone"
            StatisticsTests.close(try values.sum?.doubleValue(for: unit), expected.sum, "sum \(what)", at)
            StatisticsTests.close(try values.average?.doubleValue(for: unit), expected.average, "average \(what)", at)
            StatisticsTests.close(try values.minimum?.doubleValue(for: unit), expected.minimum, "minimum \(what)", at)
            StatisticsTests.close(try values.maximum?.doubleValue(for: unit), expected.maximum, "maximum \(what)", at)
            StatisticsTests.close(
                try values.mostRecent?.doubleValue(for: unit),
                expected.mostRecent,
                "most recent \(what)",
                at
            )
            StatisticsTests.sameMostRecentDates(values, expected, "\(what) at \(at)")
            StatisticsTests.close(
                try values.duration?.doubleValue(for: .second),
                options.contains(.duration) ? expected.duration : nil,
                "duration \(what)",
                at
            )
        }
        #expect(
            statistics.valuesBySource.map(\.source.bundleIdentifier) == listed,
            "sources separately at \(at): \(statistics.valuesBySource.map(\.source.bundleIdentifier)), expected \(listed)"
        )
    }

    /// Intervals of `seconds` from `anchor`, from two days before the DST week to ten after it.
    static func fixedIntervals(from anchor: String, every seconds: Double) -> [(Double, Double)] {
        let anchor = RFC3339.date(from: anchor)!.timeIntervalSinceReferenceDate
        let first = StatisticsTests.dstWeek.timeIntervalSinceReferenceDate - 2 * 86400
        let last = StatisticsTests.dstWeek.timeIntervalSinceReferenceDate + 10 * 86400
        var start = anchor + ((first - anchor) / seconds).rounded(.down) * seconds
        var intervals: [(Double, Double)] = []
        while start < last {
            intervals.append((start, start + seconds))
            start += seconds
        }
        return intervals
    }

    /// The samples as a reader sees them after `deleted` went: `raw` less one sample of the same
    /// source, dates and value for each.
    static func removing(_ deleted: [Sample], from raw: [Raw], _ type: QuantityTypeIdentifier) throws -> [Raw] {
        var raw = raw
        for sample in deleted {
            guard case .quantity(let sample) = sample else { continue }
            let start = sample.startDate.timeIntervalSinceReferenceDate
            let end = sample.endDate.timeIntervalSinceReferenceDate
            let value = try sample.quantity.doubleValue(for: type.canonicalUnit)
            let index = raw.firstIndex {
                $0.source == "org.example.watch" && $0.start == start && $0.end == end && $0.value == value
            }
            #expect(index != nil, "a deleted sample the reference holds")
            if let index { raw.remove(at: index) }
        }
        return raw
    }

    /// A date predicate (`samples(withStart:end:options:)`) and which samples it selects, as
    /// docs/MODEL_JSON.md states it: without options, `endDate >= start` and `startDate < end`;
    /// `strictStartDate` replaces the first test with `startDate >= start`, `strictEndDate` the
    /// second with `endDate <= end`; an absent bound is open.
    struct DateWindow {
        let label: String
        let start: Date?
        let end: Date?
        let options: QueryOptions

        init(_ label: String, _ start: Date?, _ end: Date?, _ options: QueryOptions = []) {
            self.label = label
            self.start = start
            self.end = end
            self.options = options
        }

        var predicate: SamplePredicate { .samples(withStart: start, end: end, options: options) }

        func selects(_ sample: Raw) -> Bool {
            if let start = start?.timeIntervalSinceReferenceDate {
                guard options.contains(.strictStartDate) ? sample.start >= start : sample.end >= start else {
                    return false
                }
            }
            if let end = end?.timeIntervalSinceReferenceDate {
                guard options.contains(.strictEndDate) ? sample.end <= end : sample.start < end else { return false }
            }
            return true
        }
    }

    static let kinds: [(QuantityTypeIdentifier, ClosedRange<Double>, StatisticsOptions)] = [
        (.stepCount, 0...500, [.cumulativeSum, .duration, .separateBySource]),
        (.stepCount, 0...500, [.cumulativeSum]),
        (.stepCount, 0...500, [.duration]),
        (.heartRate, 40...190, [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration]),
        (.heartRate, 40...190, [.discreteAverage, .separateBySource]),
        (.bodyMass, 50...100, [.discreteAverage, .discreteMin, .discreteMax, .duration, .separateBySource]),
        (.environmentalAudioExposure, 30...100, [.discreteAverage, .discreteMax]),
    ]

    @Test(arguments: 0..<7, [UInt64(1), 2])
    func everyQueryGivesWhatTheRowsGive(kind: Int, seed: UInt64) async throws {
        let (type, values, options) = Self.kinds[kind]
        // Date predicates of every form, on whole hours and not: inside them the hours kept
        // serve, at their edges the rows matched are counted.
        let day = StatisticsTests.dstWeek.addingTimeInterval(2 * 86400)
        let windows = [
            DateWindow("two days, overlapping", day, day.addingTimeInterval(2 * 86400)),
            DateWindow("strict start from a day on", day, nil, .strictStartDate),
            DateWindow(
                "strict end, strict start, not on hours",
                day.addingTimeInterval(-1234.5),
                day.addingTimeInterval(3 * 86400 + 77),
                [.strictStartDate, .strictEndDate]
            ),
            DateWindow("strict end until a day", nil, day, .strictEndDate),
        ]
        // And a sample of each app across each edge of those dates, so that each strict bound
        // leaves out samples an overlap would take.
        let edges = Set(windows.flatMap { [$0.start, $0.end] }.compactMap { $0?.timeIntervalSinceReferenceDate })
        let across = edges.sorted().flatMap { edge in
            StatisticsTests.apps.enumerated().map { index, app in
                Raw(
                    source: app,
                    start: edge - 1800 - Double(index) * 600,
                    end: edge + 900 + Double(index) * 60,
                    value: values.lowerBound + (values.upperBound - values.lowerBound) * Double(index + 1) / 4
                )
            }
        }
        var raw = StatisticsTests.random(count: 200, values: values, seed: seed) + across
        let test = try await StatisticsTests.vault(type, raw)
        // The default: the order in which the apps first saved (docs/STATISTICS.md, "Priority").
        var priority = StatisticsTests.apps
        let queries: [(String, StatisticsCollectionQueryDescriptor)] = [
            (
                "daily in Paris",
                StatisticsCollectionQueryDescriptor(
                    quantityType: type,
                    options: options,
                    anchorDate: RFC3339.date(from: "2026-01-01T00:00:00.000+01:00")!,
                    intervalComponents: IntervalComponents(day: 1),
                    timeZone: "Europe/Paris"
                )
            ),
            (
                "hourly in UTC",
                StatisticsCollectionQueryDescriptor(
                    quantityType: type,
                    options: options,
                    anchorDate: RFC3339.date(from: "2026-01-01T00:00:00.000Z")!,
                    intervalComponents: IntervalComponents(hour: 1),
                    timeZone: "UTC"
                )
            ),
            (
                "every 3 hours in Kolkata (not whole UTC hours)",
                StatisticsCollectionQueryDescriptor(
                    quantityType: type,
                    options: options,
                    anchorDate: RFC3339.date(from: "2026-01-01T00:00:00.000+05:30")!,
                    intervalComponents: IntervalComponents(hour: 3),
                    timeZone: "Asia/Kolkata"
                )
            ),
        ]
        // Each of those queries' intervals over the samples' span, for the reference.
        let intervals = [
            StatisticsTests.parisDays(),
            Self.fixedIntervals(from: "2026-01-01T00:00:00.000Z", every: 3600),
            Self.fixedIntervals(from: "2026-01-01T00:00:00.000+05:30", every: 3 * 3600),
        ]
        let predicates: [(String, SamplePredicate?)] =
            [("no predicate", nil)] + windows.map { ($0.label, $0.predicate) }
        // Each strict edge leaves out a sample the same dates without it would take, so a strict
        // bound read as an overlap fails the checks against the reference.
        for window in windows {
            for option in [QueryOptions.strictStartDate, .strictEndDate] where window.options.contains(option) {
                let looser = DateWindow(window.label, window.start, window.end, window.options.subtracting(option))
                #expect(
                    raw.filter(looser.selects).count > raw.filter(window.selects).count,
                    "\(window.label): a sample straddles the \(option == .strictStartDate ? "start" : "end")"
                )
            }
        }
        /// Daily intervals in Paris, with `predicate`.
        func dailyInParis(_ predicate: SamplePredicate?) -> StatisticsCollectionQueryDescriptor {
            StatisticsCollectionQueryDescriptor(
                quantityType: type,
                predicate: predicate,
                options: options,
                anchorDate: RFC3339.date(from: "2026-01-01T00:00:00.000+01:00")!,
                intervalComponents: IntervalComponents(day: 1),
                timeZone: "Europe/Paris"
            )
        }
        // The phone reads the others' samples through a window that is not on whole hours: its
        // hours are computed for each query and never kept.
        let window = (
            StatisticsTests.dstWeek.addingTimeInterval(86400 + 1234.5),
            StatisticsTests.dstWeek.addingTimeInterval(5 * 86400 + 77)
        )
        try await test.engine.decide(
            .grant,
            .read,
            of: [.quantity(type)],
            for: "org.example.phone",
            terms: GrantTerms(window: .fixed(start: window.0, end: window.1))
        )
        let callers: [Caller] = [.owner, .app("org.example.watch")]
        let readers = callers + [.app("org.example.phone")]
        /// What `caller` sees of `raw`.
        func visible(_ raw: [Raw], to caller: Caller) -> [Raw] {
            switch caller {
            case .owner: raw
            case .app("org.example.phone"):
                raw.filter {
                    $0.source == "org.example.phone"
                        || ($0.start >= window.0.timeIntervalSinceReferenceDate
                            && $0.end <= window.1.timeIntervalSinceReferenceDate)
                }
            default: raw.filter { $0.source == "org.example.watch" }
            }
        }
        var rng = SplitMix64(seed: seed * 7919)
        for round in 0..<4 {
            for caller in readers {
                for (name, query) in queries
                    + predicates.dropFirst().map({ (label, predicate) in
                        ("daily in Paris, \(label)", dailyInParis(predicate))
                    })
                {
                    // Twice: computing the hours, then from the hours kept. The report's way first,
                    // so that it computes what was not kept before the engine keeps it.
                    for time in 0..<2 {
                        let label = "round \(round), \(caller), \(name), time \(time)"
                        let report = try Self.direct(test, caller, collection: query, keeping: nil)
                        let kept = try await test.engine.statisticsCollection(matching: query, as: caller)
                        let rows = try Self.direct(test, caller, collection: query)
                        Self.same(kept, rows, label)
                        Self.same(report, kept, "\(label), as the report computes it")
                    }
                }
                for (label, predicate) in predicates {
                    let single = StatisticsQueryDescriptor(quantityType: type, predicate: predicate, options: options)
                    for time in 0..<2 {
                        let label = "round \(round), \(caller), one statistics, \(label), time \(time)"
                        let report = try Self.direct(test, caller, statistics: single, keeping: nil)
                        let kept = try await test.engine.statistics(matching: single, as: caller)
                        let rows = try Self.direct(test, caller, statistics: single)
                        Self.same(kept, rows, label)
                        Self.same(report, kept, "\(label), as the report computes it")
                    }
                }
            }
            // The queries against the reference. Without a predicate: the owner sees every
            // source, merged in the order of the moment; the watch reads its own samples alone,
            // the phone its own and the others' inside its window.
            func hoursKept() throws -> Int64? {
                try test.engine.database.read { try $0.scalarInt("SELECT count(*) FROM statistics_hours") }
            }
            for caller in readers {
                let visible = visible(raw, to: caller)
                let before = try hoursKept()
                defer {
                    // A reader through a window computes its hours for each query and keeps none.
                    if caller == .app("org.example.phone") {
                        #expect((try? hoursKept()) == before, "round \(round): the phone's hours were kept")
                    }
                }
                for ((name, query), intervals) in zip(queries, intervals) {
                    let collection = try await test.engine.statisticsCollection(matching: query, as: caller)
                    try Self.checkAgainstReference(
                        collection,
                        type,
                        options,
                        visible,
                        priority: priority,
                        intervals: intervals,
                        "round \(round), \(caller), \(name), against the reference"
                    )
                }
                // The collections and the single statistics with a date predicate too: the samples
                // the predicate selects (docs/MODEL_JSON.md, "date"), whole, in every interval they
                // reach; inside the predicate's dates the hours kept serve, at its edges the hours
                // are computed from the rows it matches.
                for window in windows {
                    let label = "round \(round), \(caller), daily in Paris, \(window.label), against the reference"
                    let query = dailyInParis(window.predicate)
                    let selected = visible.filter(window.selects)
                    #expect(!selected.isEmpty && selected.count < visible.count, "\(label): the predicate selects some")
                    try Self.checkAgainstReference(
                        try await test.engine.statisticsCollection(matching: query, as: caller),
                        type,
                        options,
                        selected,
                        priority: priority,
                        intervals: intervals[0],
                        label
                    )
                }
                for window in [nil] + windows.map(Optional.some) {
                    let label =
                        "round \(round), \(caller), one statistics, \(window?.label ?? "no predicate")"
                        + ", against the reference"
                    let selected = window.map { visible.filter($0.selects) } ?? visible
                    #expect(!selected.isEmpty, "\(label): the predicate selects some")
                    let statistics = try await test.engine.statistics(
                        matching: StatisticsQueryDescriptor(
                            quantityType: type,
                            predicate: window?.predicate,
                            options: options
                        ),
                        as: caller
                    )
                    guard let first = selected.map(\.start).min(), let last = selected.map(\.end).max() else {
                        #expect(statistics == nil, "\(label): no sample selected, no statistics")
                        continue
                    }
                    // One interval over the samples selected, from the first start to past the last end.
                    let span = (first, last.nextUp)
                    let expected = StatisticsTests.expected(type, selected, interval: span, priority: priority)?
                        .asked(by: options, type)
                    try StatisticsTests.check(statistics, against: expected, type, at: label, options: options)
                    if options.contains(.separateBySource), let statistics {
                        try Self.checkEachSource(statistics, type, options, selected, interval: span, label)
                    }
                }
            }
            let hours = try test.engine.database.read { try $0.scalarInt("SELECT count(*) FROM statistics_hours") }
            #expect((hours ?? 0) > 0, "hours are kept")
            // Asked again, every whole-hour query without a predicate reads its hours: none is
            // computed from the rows (whatever the answers, which are the same either way).
            for caller in callers {
                for (name, query) in queries.prefix(2) {
                    let keeper = StatisticsHoursKeeper()
                    _ = try test.engine.database.read { db in
                        try test.engine.store.statisticsCollection(
                            matching: query,
                            scope: try test.engine.scope(for: caller, db),
                            timeZone: "UTC",
                            keeping: keeper,
                            in: db
                        )
                    }
                    #expect(keeper.hoursComputed == 0, "round \(round), \(caller), \(name): hours computed again")
                }
            }
            // Between rounds: more samples (some reaching far back), a deletion, a new order.
            switch round {
            case 0:
                let more = StatisticsTests.random(
                    count: 40,
                    values: values,
                    seed: seed + 100,
                    maximumDuration: 30 * 3600
                )
                try await StatisticsTests.save(type, more, to: test.engine)
                raw += more
            case 1:
                let watch = try await test.engine.samples(
                    matching: SampleQueryDescriptor(predicates: [.quantitySample(type: type)]),
                    as: .app("org.example.watch")
                )
                let doomed = Array(watch.shuffled(using: &rng).prefix(15))
                _ = try await test.engine.delete(doomed.map(\.uuid), as: .app("org.example.watch"))
                raw = try Self.removing(doomed, from: raw, type)
            case 2:
                try await test.engine.setSourcePriority(["org.example.scale", "org.example.watch"], for: type)
                priority = ["org.example.scale", "org.example.watch", "org.example.phone"]
            default:
                break
            }
        }
    }
}
