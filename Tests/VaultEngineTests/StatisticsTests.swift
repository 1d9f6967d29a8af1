import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// Statistics and statistics collections against a reference computed here, sample by sample,
/// from the raw samples (docs/STATISTICS.md states the rules both follow).
@Suite struct StatisticsTests {
    static let apps = ["org.example.phone", "org.example.watch", "org.example.scale"]
    static let paris = TimeZone(identifier: "Europe/Paris")!
    /// Paris leaves summer time on 2026-10-25 (a 25-hour day).
    static let dstWeek = RFC3339.date(from: "2026-10-21T22:00:00.000Z")!

    /// One raw sample as the reference sees it.
    struct Raw {
        let source: String
        let start: Double
        let end: Double
        let value: Double
    }

    /// Enrolls the apps with share grants and saves `raw` as each sample's app.
    static func vault(_ type: QuantityTypeIdentifier, _ raw: [Raw]) async throws -> TestEngine {
        let test = try TestEngine()
        for app in apps {
            try await test.enroll(app)
            try await test.grant(.share, .quantity(type), to: app)
        }
        try await save(type, raw, to: test.engine)
        return test
    }

    /// Saves `raw` as each sample's app.
    static func save(_ type: QuantityTypeIdentifier, _ raw: [Raw], to engine: VaultEngine) async throws {
        for app in apps {
            let samples = try raw.filter { $0.source == app }.map { sample -> Sample in
                .quantity(
                    try QuantitySample(
                        type: type,
                        quantity: Quantity(sample.value, type.canonicalUnit),
                        start: Date(timeIntervalSinceReferenceDate: sample.start),
                        end: Date(timeIntervalSinceReferenceDate: sample.end),
                        sourceRevision: Fixtures.app
                    )
                )
            }
            if !samples.isEmpty { try await engine.save(samples, as: .app(app)) }
        }
    }

    /// Random samples over the DST week: durations from none to three hours, overlapping
    /// across sources and within them.
    static func random(
        count: Int,
        values: ClosedRange<Double>,
        seed: UInt64,
        maximumDuration: Double = 3 * 3600
    ) -> [Raw] {
        var rng = SplitMix64(seed: seed)
        let origin = dstWeek.timeIntervalSinceReferenceDate
        return (0..<count).map { _ in
            let start = origin + Double(Int.random(in: 0..<(7 * 86400), using: &rng))
            let duration =
                Int.random(in: 0..<5, using: &rng) == 0
                ? 0 : Double(Int.random(in: 1...Int(maximumDuration), using: &rng))
            return Raw(
                source: apps.randomElement(using: &rng)!,
                start: start,
                end: start + duration,
                value: Double(Int.random(in: Int(values.lowerBound)...Int(values.upperBound), using: &rng))
            )
        }
    }

    // MARK: The reference

    struct Expected {
        var sum: Double?
        var average: Double?
        var minimum: Double?
        var maximum: Double?
        var mostRecent: Double?
        /// The most recent sample's own dates (which may lie outside the interval).
        var mostRecentDates: (start: Double, end: Double)?
        var duration: Double
        /// Of a cumulative type, the sources that supplied the merged sum.
        var sources: Set<String>
        var reachingSources: Set<String>
        var memberSources: Set<String>
        var sumBySource: [String: Double]

        /// Only the figures `options` ask for; nil when nothing counts in the interval for them
        /// (without duration, an interval an arithmetic sample only reaches into is absent).
        func asked(by options: StatisticsOptions, _ type: QuantityTypeIdentifier) -> Expected? {
            if type.aggregationStyle == .discreteArithmetic, !options.contains(.duration), average == nil {
                return nil
            }
            var asked = self
            if !options.contains(.cumulativeSum) { asked.sum = nil }
            if !options.contains(.discreteAverage) { asked.average = nil }
            if !options.contains(.discreteMin) { asked.minimum = nil }
            if !options.contains(.discreteMax) { asked.maximum = nil }
            if !options.contains(.mostRecent) {
                asked.mostRecent = nil
                asked.mostRecentDates = nil
            }
            return asked
        }
    }

    static func overlap(_ sample: Raw, _ interval: (Double, Double)) -> Double {
        max(0, min(sample.end, interval.1) - max(sample.start, interval.0))
    }

    /// Measure of the union of the samples' spans within the interval.
    static func covered(_ samples: [Raw], _ interval: (Double, Double)) -> Double {
        let spans = samples.filter { $0.end > $0.start }.map { (max($0.start, interval.0), min($0.end, interval.1)) }
            .filter { $0.1 > $0.0 }.sorted { $0.0 < $1.0 }
        var total = 0.0
        var current: (Double, Double)?
        for span in spans {
            if let c = current, span.0 <= c.1 {
                current = (c.0, max(c.1, span.1))
            } else {
                if let c = current { total += c.1 - c.0 }
                current = span
            }
        }
        if let c = current { total += c.1 - c.0 }
        return total
    }

    /// What the interval's statistics must be, from the raw samples; nil when it has no data.
    static func expected(
        _ type: QuantityTypeIdentifier,
        _ raw: [Raw],
        interval: (Double, Double),
        priority: [String]
    ) -> Expected? {
        let style = type.aggregationStyle
        let contains = { (t: Double) in interval.0 <= t && t < interval.1 }
        // Members: samples in the interval by time (points by their instant), or, for
        // arithmetic types, by their start date only.
        let members = raw.filter { sample in
            if style == .discreteArithmetic || sample.end == sample.start { return contains(sample.start) }
            return overlap(sample, interval) > 0
        }
        // The time covered counts every sample that reaches into the interval, whatever its type.
        let reaching = raw.filter { overlap($0, interval) > 0 }
        guard !members.isEmpty || !reaching.isEmpty else { return nil }
        var expected = Expected(
            duration: covered(reaching, interval),
            sources: Set((members + reaching).map(\.source)),
            reachingSources: Set((members + reaching).map(\.source)),
            memberSources: Set(members.map(\.source)),
            sumBySource: [:]
        )
        func share(_ sample: Raw) -> Double {
            sample.end == sample.start
                ? sample.value : sample.value * overlap(sample, interval) / (sample.end - sample.start)
        }
        switch style {
        case .cumulative:
            for sample in members { expected.sumBySource[sample.source, default: 0] += share(sample) }
            // Merged: cut the interval at every date; each piece from the covering source of
            // highest priority.
            let cuts = Set([interval.0, interval.1] + members.flatMap { [$0.start, $0.end] })
                .filter { $0 >= interval.0 && $0 <= interval.1 }.sorted()
            var merged = members.filter { $0.end == $0.start }.reduce(0) { $0 + $1.value }
            var winners = Set(members.filter { $0.end == $0.start }.map(\.source))
            for (u, v) in zip(cuts, cuts.dropFirst()) where v > u {
                let middle = (u + v) / 2
                let covering = members.filter { $0.end > $0.start && $0.start <= middle && middle < $0.end }
                guard let winner = priority.first(where: { source in covering.contains { $0.source == source } })
                else { continue }
                winners.insert(winner)
                merged +=
                    covering.filter { $0.source == winner }.reduce(0) { $0 + $1.value / ($1.end - $1.start) }
                    * (v - u)
            }
            expected.sum = merged
            expected.sources = winners
        case .discreteArithmetic:
            expected.average = members.isEmpty ? nil : members.reduce(0) { $0 + $1.value } / Double(members.count)
        case .discreteTemporallyWeighted, .discreteEquivalentContinuousLevel:
            let level: (Double) -> Double =
                style == .discreteEquivalentContinuousLevel ? { pow(10, $0 / 10) } : { $0 }
            let weight = members.reduce(0) { $0 + overlap($1, interval) }
            let mean =
                weight > 0
                ? members.reduce(0) { $0 + level($1.value) * overlap($1, interval) } / weight
                : members.reduce(0) { $0 + level($1.value) } / Double(members.count)
            expected.average = style == .discreteEquivalentContinuousLevel ? 10 * log10(mean) : mean
        }
        if style.isDiscrete {
            expected.minimum = members.map(\.value).min()
            expected.maximum = members.map(\.value).max()
            let latest = members.max { ($0.end, $0.start) < ($1.end, $1.start) }
            expected.mostRecent = latest?.value
            expected.mostRecentDates = latest.map { ($0.start, $0.end) }
        }
        return expected
    }

    /// The most recent sample's own dates in `values` are the reference's (both absent when it has
    /// none).
    static func sameMostRecentDates(_ values: StatisticsValues, _ expected: Expected, _ label: String) {
        #expect(
            values.mostRecentStartDate?.timeIntervalSinceReferenceDate == expected.mostRecentDates?.start
                && values.mostRecentEndDate?.timeIntervalSinceReferenceDate == expected.mostRecentDates?.end,
            "most recent dates \(label)"
        )
    }

    static func close(_ a: Double?, _ b: Double?, _ what: String, _ where_: String) {
        guard let a, let b else {
            #expect(a == nil && b == nil, "\(what) at \(where_): \(String(describing: a)) vs \(String(describing: b))")
            return
        }
        #expect(abs(a - b) <= 1e-6 * max(1, abs(b)), "\(what) at \(where_): \(a), expected \(b)")
    }

    static func check(
        _ statistics: Statistics?,
        against expected: Expected?,
        _ type: QuantityTypeIdentifier,
        at label: String,
        options: StatisticsOptions? = nil
    ) throws {
        let options = options ?? Self.options(for: type)
        guard let expected else {
            #expect(statistics == nil, "no data expected at \(label)")
            return
        }
        guard let statistics else {
            Issue.record("statistics expected at \(label)")
            return
        }
        let unit = type.canonicalUnit
        let values = statistics.values
        if type.aggregationStyle == .cumulative {
            close(
                try values.sum?.doubleValue(for: unit),
                options.contains(.cumulativeSum) ? expected.sum : nil,
                "sum",
                label
            )
            if options.contains(.separateBySource) {
                for (source, sum) in expected.sumBySource {
                    let mine = statistics.valuesBySource.first { $0.source.bundleIdentifier == source }
                    close(try mine?.values.sum?.doubleValue(for: unit), sum, "sum of \(source)", label)
                }
                #expect(statistics.valuesBySource.count == expected.sumBySource.count, "sources at \(label)")
            } else {
                #expect(statistics.valuesBySource.isEmpty)
            }
        } else {
            close(try values.average?.doubleValue(for: unit), expected.average, "average", label)
            close(try values.minimum?.doubleValue(for: unit), expected.minimum, "minimum", label)
            close(try values.maximum?.doubleValue(for: unit), expected.maximum, "maximum", label)
            if options.contains(.mostRecent) {
                close(try values.mostRecent?.doubleValue(for: unit), expected.mostRecent, "most recent", label)
                sameMostRecentDates(values, expected, "at \(label)")
            } else {
                #expect(
                    values.mostRecent == nil && values.mostRecentStartDate == nil,
                    "most recent not asked at \(label)"
                )
            }
        }
        if options.contains(.duration) {
            close(try values.duration?.doubleValue(for: .second), expected.duration, "duration", label)
        } else {
            #expect(values.duration == nil)
        }
        // A merged sum lists the sources that supplied it; otherwise every source with a sample
        // there. Samples that only reach into an interval of an arithmetic type count for its
        // duration.
        let sources =
            type.aggregationStyle == .cumulative && options.contains(.cumulativeSum)
            ? expected.sources
            : options.contains(.duration) || type.aggregationStyle != .discreteArithmetic
                ? expected.reachingSources : expected.memberSources
        #expect(Set(statistics.sources.map(\.bundleIdentifier)) == sources, "contributing sources at \(label)")
    }

    /// Every day of the DST week and a day either side, as Paris counts them.
    static func parisDays() -> [(Double, Double)] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = paris
        var day = calendar.startOfDay(for: dstWeek.addingTimeInterval(-86_400))
        var days: [(Double, Double)] = []
        for _ in 0..<10 {
            let next = calendar.date(byAdding: .day, value: 1, to: day)!
            days.append((day.timeIntervalSinceReferenceDate, next.timeIntervalSinceReferenceDate))
            day = next
        }
        return days
    }

    static func options(for type: QuantityTypeIdentifier) -> StatisticsOptions {
        type.aggregationStyle == .cumulative
            ? [.cumulativeSum, .separateBySource, .duration]
            : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration, .separateBySource]
    }

    // MARK: Tests

    @Test(arguments: [
        (QuantityTypeIdentifier.stepCount, 0...500.0, UInt64(1)),
        (.stepCount, 0...500.0, 2),
        (.heartRate, 40...180.0, 3),
        (.bodyMass, 50...100.0, 4),
        (.environmentalAudioExposure, 30...100.0, 5),
    ])
    func dailyCollectionsAcrossDSTMatchTheReference(
        type: QuantityTypeIdentifier,
        values: ClosedRange<Double>,
        seed: UInt64
    ) async throws {
        let raw = Self.random(count: 300, values: values, seed: seed)
        let test = try await Self.vault(type, raw)
        // The owner puts the watch first; the scale keeps its default place (after, as last to
        // have saved); the phone second.
        let priority = ["org.example.watch", "org.example.phone", "org.example.scale"]
        try await test.engine.setSourcePriority(Array(priority.prefix(2)), for: type)
        let query = StatisticsCollectionQueryDescriptor(
            quantityType: type,
            options: Self.options(for: type),
            anchorDate: RFC3339.date(from: "2026-01-01T00:00:00.000+01:00")!,
            intervalComponents: IntervalComponents(day: 1),
            timeZone: "Europe/Paris"
        )
        let collection = try await test.engine.statisticsCollection(matching: query, as: .owner)
        #expect(collection.timeZone == "Europe/Paris")
        let days = Self.parisDays()
        #expect(days.contains { $0.1 - $0.0 == 25 * 3600 }, "the week has the 25-hour day")
        var checked = 0
        for day in days {
            let statistics = collection.statistics.first { $0.startDate.timeIntervalSinceReferenceDate == day.0 }
            if let statistics { #expect(statistics.endDate.timeIntervalSinceReferenceDate == day.1) }
            let expected = Self.expected(type, raw, interval: day, priority: priority)
            try Self.check(
                statistics,
                against: expected,
                type,
                at: RFC3339.string(from: Date(timeIntervalSinceReferenceDate: day.0))
            )
            if expected != nil { checked += 1 }
        }
        #expect(checked >= 7)
        #expect(collection.statistics.count == checked, "no intervals beyond the data")

        // A predicate narrows the samples before anything is counted or merged; asked with the
        // fewest options, so only the columns those need are computed.
        let minimal: StatisticsOptions =
            type.aggregationStyle == .cumulative ? [.cumulativeSum] : [.discreteAverage, .discreteMin, .discreteMax]
        let threshold = (values.lowerBound + values.upperBound) / 2
        let narrowed = try await test.engine.statisticsCollection(
            matching: StatisticsCollectionQueryDescriptor(
                quantityType: type,
                predicate: .quantity(.greaterThan, Quantity(threshold, type.canonicalUnit)),
                options: minimal,
                anchorDate: query.anchorDate,
                intervalComponents: query.intervalComponents,
                timeZone: "Europe/Paris"
            ),
            as: .owner
        )
        let above = raw.filter { $0.value > threshold }
        for day in days {
            let statistics = narrowed.statistics.first { $0.startDate.timeIntervalSinceReferenceDate == day.0 }
            let expected = Self.expected(type, above, interval: day, priority: priority)?.asked(by: minimal, type)
            try Self.check(
                statistics,
                against: expected,
                type,
                at: "values above \(threshold), \(day.0)",
                options: minimal
            )
        }

        // A cumulative type's duration alone merges nothing: every source that covers time in
        // a day is listed, not only those that would have supplied a merged sum.
        if type.aggregationStyle == .cumulative {
            let durationOnly = try await test.engine.statisticsCollection(
                matching: StatisticsCollectionQueryDescriptor(
                    quantityType: type,
                    options: [.duration],
                    anchorDate: query.anchorDate,
                    intervalComponents: query.intervalComponents,
                    timeZone: "Europe/Paris"
                ),
                as: .owner
            )
            for day in days {
                try Self.check(
                    durationOnly.statistics.first { $0.startDate.timeIntervalSinceReferenceDate == day.0 },
                    against: Self.expected(type, raw, interval: day, priority: priority),
                    type,
                    at: "duration alone, \(day.0)",
                    options: [.duration]
                )
            }
        }

        // The same samples as one statistics query: one interval over them all.
        let whole = try await test.engine.statistics(
            matching: StatisticsQueryDescriptor(quantityType: type, options: Self.options(for: type)),
            as: .owner
        )
        let span = (raw.map(\.start).min()!, raw.map(\.end).max()!.nextUp)
        try Self.check(
            whole,
            against: Self.expected(type, raw, interval: span, priority: priority),
            type,
            at: "the whole"
        )
    }

    @Test func hourlyBucketsApportionStraddlingSamples() async throws {
        // Short samples, many straddling an hour boundary; two sources overlapping.
        let raw = Self.random(count: 400, values: 0...300, seed: 11, maximumDuration: 2 * 3600)
        let test = try await Self.vault(.stepCount, raw)
        let query = StatisticsCollectionQueryDescriptor(
            quantityType: .stepCount,
            options: [.cumulativeSum, .separateBySource, .duration],
            anchorDate: Self.dstWeek,
            intervalComponents: IntervalComponents(hour: 1),
            timeZone: "Europe/Paris"
        )
        let collection = try await test.engine.statisticsCollection(matching: query, as: .owner)
        // Default priority: the order the sources first saved, as `vault` saves them.
        let origin = Self.dstWeek.timeIntervalSinceReferenceDate
        var checked = 0
        for hour in -1..<(8 * 24) {
            let interval = (origin + Double(hour) * 3600, origin + Double(hour + 1) * 3600)
            let statistics = collection.statistics.first { $0.startDate.timeIntervalSinceReferenceDate == interval.0 }
            let expected = Self.expected(.stepCount, raw, interval: interval, priority: Self.apps)
            try Self.check(statistics, against: expected, .stepCount, at: "hour \(hour)")
            if expected != nil { checked += 1 }
        }
        #expect(checked > 100)
        #expect(collection.statistics.count == checked)
    }

    @Test func aSampleAcrossMidnightAndTheLongDay() async throws {
        let midnight = RFC3339.date(from: "2026-10-25T00:00:00.000+02:00")!.timeIntervalSinceReferenceDate
        let raw =
            [
                // 120 steps from 23:00 to 01:00: 60 on each side of midnight.
                Raw(source: Self.apps[0], start: midnight - 3600, end: midnight + 3600, value: 120)
                // One step every hour of the 25-hour day.
            ]
            + (1..<25).map {
                Raw(
                    source: Self.apps[0],
                    start: midnight + Double($0) * 3600,
                    end: midnight + Double($0) * 3600 + 60,
                    value: 1
                )
            }
        let test = try await Self.vault(.stepCount, raw)
        let collection = try await test.engine.statisticsCollection(
            matching: StatisticsCollectionQueryDescriptor(
                quantityType: .stepCount,
                options: [.cumulativeSum],
                anchorDate: RFC3339.date(from: "2026-10-01T00:00:00.000+02:00")!,
                intervalComponents: IntervalComponents(day: 1),
                timeZone: "Europe/Paris"
            ),
            as: .owner
        )
        #expect(collection.statistics.count == 2)
        let (saturday, sunday) = (collection.statistics[0], collection.statistics[1])
        #expect(saturday.sumQuantity() == Quantity(60, .count))
        #expect(sunday.startDate.timeIntervalSinceReferenceDate == midnight)
        #expect(sunday.endDate.timeIntervalSince(sunday.startDate) == 25 * 3600)
        #expect(sunday.sumQuantity() == Quantity(60 + 24, .count))
        // enumerateStatistics fills the days without data; two days of seconds after the long
        // day's midnight is still Monday.
        let days = try #require(
            collection.enumerateStatistics(
                from: Date(timeIntervalSinceReferenceDate: midnight - 3 * 86400),
                to: Date(timeIntervalSinceReferenceDate: midnight + 2 * 86400)
            )
        )
        #expect(days.count == 5)
        #expect(try days.map { try $0.sumQuantity()?.doubleValue(for: .count) } == [nil, nil, 60, 84, nil])
        #expect(zip(days, days.dropFirst()).allSatisfy { $0.endDate == $1.startDate })
    }

    /// A heart rate sample across four hourly intervals, beside a shorter sample of another
    /// source and a sample without a duration of its own source, worked out by hand: the pieces
    /// of later intervals (the second pass) join each interval's own samples (the first).
    @Test func aLongSampleInHourlyIntervalsWithItsOwnPoint() async throws {
        let ten = RFC3339.date(from: "2026-03-02T10:00:00.000Z")!.timeIntervalSinceReferenceDate
        let (phone, watch) = (Self.apps[0], Self.apps[1])
        let raw = [
            // 10:30-13:30 at 60.
            Raw(source: watch, start: ten + 1800, end: ten + 3.5 * 3600, value: 60),
            // 11:15-11:45 at 90.
            Raw(source: phone, start: ten + 4500, end: ten + 6300, value: 90),
            // 12:00 at 120, without a duration: the watch's too.
            Raw(source: watch, start: ten + 7200, end: ten + 7200, value: 120),
        ]
        let test = try await Self.vault(.heartRate, raw)
        let collection = try await test.engine.statisticsCollection(
            matching: StatisticsCollectionQueryDescriptor(
                quantityType: .heartRate,
                options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .separateBySource],
                anchorDate: Date(timeIntervalSinceReferenceDate: ten),
                intervalComponents: IntervalComponents(hour: 1),
                timeZone: "UTC"
            ),
            as: .owner
        )
        // Values as saved: in the type's canonical unit (`vault`).
        let unit = QuantityTypeIdentifier.heartRate.canonicalUnit
        func figures(_ values: StatisticsValues?) throws -> [Double?] {
            try [values?.average, values?.minimum, values?.maximum, values?.mostRecent].map {
                try $0.map { (try $0.doubleValue(for: unit) * 1000).rounded() / 1000 }
            }
        }
        #expect(
            collection.statistics.map(\.startDate.timeIntervalSinceReferenceDate)
                == (0..<4).map { ten + Double($0) * 3600 }
        )
        let expected: [([Double?], [Double?], [Double?])] = [
            // (all, phone, watch): average, minimum, maximum, most recent.
            ([60, 60, 60, 60], [nil, nil, nil, nil], [60, 60, 60, 60]),
            // 60 for an hour and 90 for half an hour: 70; the watch's sample ends last.
            ([70, 60, 90, 60], [90, 90, 90, 90], [60, 60, 60, 60]),
            // The point weighs nothing beside a sample with a duration, but counts in the
            // extremes; the 60 ends after it.
            ([60, 60, 120, 60], [nil, nil, nil, nil], [60, 60, 120, 60]),
            ([60, 60, 60, 60], [nil, nil, nil, nil], [60, 60, 60, 60]),
        ]
        for (statistics, (all, byPhone, byWatch)) in zip(collection.statistics, expected) {
            let at = RFC3339.string(from: statistics.startDate)
            #expect(try figures(statistics.values) == all, "\(at)")
            let phoneValues = statistics.valuesBySource.first { $0.source.bundleIdentifier == phone }?.values
            let watchValues = statistics.valuesBySource.first { $0.source.bundleIdentifier == watch }?.values
            #expect(try figures(phoneValues) == byPhone, "\(at)")
            #expect(try figures(watchValues) == byWatch, "\(at)")
            #expect(statistics.values.mostRecentEndDate?.timeIntervalSinceReferenceDate == ten + 3.5 * 3600, "\(at)")
            #expect(statistics.values.mostRecentStartDate?.timeIntervalSinceReferenceDate == ten + 1800, "\(at)")
        }
    }

    @Test func valuesTooLargeForStatisticsAreRefusedAtSave() async throws {
        let test = try await Self.vault(.bodyMass, [])
        let start = Fixtures.start
        for (type, value) in [
            (QuantityTypeIdentifier.bodyMass, 1.5e308), (.heartRate, 1e306), (.stepCount, 1e308),
            (.stepCount, QuantityTypeIdentifier.valueLimit.nextUp), (.environmentalAudioExposure, 1001),
        ] {
            try await test.grant(.share, .quantity(type), to: "org.example.phone")
            // Refused when the sample is made (on the wire, when it is decoded: DaemonStatisticsTests).
            let error = await healthError {
                try await test.engine.save(
                    [try quantitySample(type, value: value, start: start, claimedSource: "org.example.phone")],
                    as: .app("org.example.phone")
                )
            }
            #expect(error?.code == .invalidArgument, "\(type) \(value)")
            #expect(error?.field == "quantity.value", "\(type) \(value)")
            #expect(error?.message.contains("outside the range") == true, "\(String(describing: error))")
        }
        // The limit itself is a value like any other.
        try await test.engine.save(
            [
                try quantitySample(
                    .stepCount,
                    value: QuantityTypeIdentifier.valueLimit,
                    claimedSource: "org.example.phone"
                )
            ],
            as: .app("org.example.phone")
        )
    }

    @Test func hugeValuesStoredBeforeTheLimitNeverBreakAnotherReadersStatistics() async throws {
        // Two samples of each type by one app, then made huge behind the engine's back, as a vault
        // written before the limit may hold them; another app may read them.
        let start = Fixtures.start.timeIntervalSinceReferenceDate
        for (type, huge) in [
            (QuantityTypeIdentifier.bodyMass, 1.5e308), (.heartRate, 1e306), (.stepCount, 1e308),
            (.environmentalAudioExposure, 1e300),
        ] {
            let raw = [
                Raw(source: "org.example.phone", start: start, end: start + 3600, value: 1),
                Raw(source: "org.example.watch", start: start, end: start + 3600, value: 1),
            ]
            let test = try await Self.vault(type, raw)
            try await test.grant(.read, .quantity(type), to: "org.example.scale")
            try test.vault.db().write { try $0.execute("UPDATE samples SET value = ?", [huge]) }
            let limit = type.valueDomain.upperBound
            let options: StatisticsOptions =
                type.aggregationStyle == .cumulative
                ? [.cumulativeSum, .separateBySource, .duration]
                : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .separateBySource, .duration]
            for caller in [Caller.owner, .app("org.example.scale")] {
                let statistics = try #require(
                    try await test.engine.statistics(
                        matching: StatisticsQueryDescriptor(quantityType: type, options: options),
                        as: caller
                    )
                )
                // Counted as the limit: finite, and encodable on the wire.
                let values = [
                    statistics.values.sum, statistics.values.average, statistics.values.minimum,
                    statistics.values.maximum,
                ].compactMap { $0?.value }
                #expect(!values.isEmpty && values.allSatisfy(\.isFinite), "\(type): \(values)")
                #expect(values.allSatisfy { abs($0 - limit) <= 1e-9 * limit }, "\(type): \(values)")
                _ = try HealthJSON.encode(statistics)
                let collection = try await test.engine.statisticsCollection(
                    matching: StatisticsCollectionQueryDescriptor(
                        quantityType: type,
                        options: options,
                        anchorDate: Fixtures.start,
                        intervalComponents: IntervalComponents(minute: 15),
                        timeZone: "UTC"
                    ),
                    as: caller
                )
                #expect(collection.statistics.count == 4)
                _ = try HealthJSON.encode(collection)
            }
        }
    }

    @Test func instantsHaveNoDurationAndSoundLevelInstantsAverageAsEnergy() async throws {
        let start = Fixtures.start.timeIntervalSinceReferenceDate
        let raw = [
            Raw(source: "org.example.phone", start: start + 60, end: start + 60, value: 60),
            Raw(source: "org.example.watch", start: start + 120, end: start + 120, value: 80),
        ]
        let test = try await Self.vault(.environmentalAudioExposure, raw)
        let statistics = try #require(
            try await test.engine.statistics(
                matching: StatisticsQueryDescriptor(
                    quantityType: .environmentalAudioExposure,
                    options: [.discreteAverage, .duration]
                ),
                as: .owner
            )
        )
        #expect(statistics.duration() == Quantity(0, .second))
        let average = try #require(
            try statistics.averageQuantity()?.doubleValue(for: .decibelAWeightedSoundPressureLevel)
        )
        #expect(abs(average - 10 * log10((1e6 + 1e8) / 2)) < 1e-9)
        #expect(abs(average - 77.03) < 0.01)
    }

    @Test func ofEqualDatesWithinOneSaveTheMostRecentIsTheLaterInTheBatch() async throws {
        let test = try await Self.vault(.heartRate, [])
        let samples = try [1.0, 2.0, 3.0].map { value in
            try quantitySample(.heartRate, value: value, claimedSource: "org.example.phone")
        }
        try await test.engine.save(samples, as: .app("org.example.phone"))
        let statistics = try #require(
            try await test.engine.statistics(
                matching: StatisticsQueryDescriptor(quantityType: .heartRate, options: [.mostRecent]),
                as: .owner
            )
        )
        #expect(statistics.mostRecentQuantity() == Quantity(3, QuantityTypeIdentifier.heartRate.canonicalUnit))
        // A later save of the same dates comes after.
        try await test.engine.save(
            [try quantitySample(.heartRate, value: 1.5, claimedSource: "org.example.phone")],
            as: .app("org.example.phone")
        )
        let later = try await test.engine.statistics(
            matching: StatisticsQueryDescriptor(quantityType: .heartRate, options: [.mostRecent]),
            as: .owner
        )
        #expect(later?.mostRecentQuantity() == Quantity(1.5, QuantityTypeIdentifier.heartRate.canonicalUnit))
    }

    @Test func durationAloneListsEverySourceAndAMergedSumOnlyItsSuppliers() async throws {
        let start = Fixtures.start.timeIntervalSinceReferenceDate
        // Two apps counted the same hour; the phone, first to save, has the higher priority.
        let raw = [
            Raw(source: "org.example.phone", start: start, end: start + 3600, value: 1000),
            Raw(source: "org.example.watch", start: start, end: start + 3600, value: 900),
        ]
        let test = try await Self.vault(.stepCount, raw)
        func sources(_ options: StatisticsOptions) async throws -> [String] {
            let statistics = try #require(
                try await test.engine.statistics(
                    matching: StatisticsQueryDescriptor(quantityType: .stepCount, options: options),
                    as: .owner
                )
            )
            #expect(statistics.duration() == Quantity(3600, .second), "\(options)")
            return statistics.sources.map(\.bundleIdentifier)
        }
        // Nothing is merged without a sum: both apps' samples count for the duration.
        #expect(try await sources([.duration]) == ["org.example.phone", "org.example.watch"])
        #expect(try await sources([.duration, .separateBySource]) == ["org.example.phone", "org.example.watch"])
        // A merged sum lists the sources that supplied it, with or without duration.
        #expect(try await sources([.cumulativeSum, .duration]) == ["org.example.phone"])
    }

    @Test func mergingCountsOverlapsOnceByPriority() async throws {
        let start = Fixtures.start.timeIntervalSinceReferenceDate
        // The phone and the watch both counted the same hour; the watch also the next.
        let raw = [
            Raw(source: "org.example.phone", start: start, end: start + 3600, value: 1000),
            Raw(source: "org.example.watch", start: start, end: start + 3600, value: 900),
            Raw(source: "org.example.watch", start: start + 3600, end: start + 7200, value: 500),
        ]
        let test = try await Self.vault(.stepCount, raw)
        let query = StatisticsQueryDescriptor(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource])
        // Default: the phone saved first, so it wins the shared hour.
        var statistics = try #require(try await test.engine.statistics(matching: query, as: .owner))
        #expect(statistics.sumQuantity() == Quantity(1500, .count))
        let phone = Source(bundleIdentifier: "org.example.phone", name: "App org.example.phone")
        let watch = Source(bundleIdentifier: "org.example.watch", name: "App org.example.watch")
        #expect(statistics.sources == [phone, watch])
        #expect(statistics.sumQuantity(for: phone) == Quantity(1000, .count))
        #expect(statistics.sumQuantity(for: watch) == Quantity(1400, .count))
        // Without separateBySource the contributing sources are the same.
        let plain = try #require(
            try await test.engine.statistics(
                matching: StatisticsQueryDescriptor(quantityType: .stepCount, options: [.cumulativeSum]),
                as: .owner
            )
        )
        #expect(plain.sumQuantity() == Quantity(1500, .count))
        #expect(plain.sources == [phone, watch])
        #expect(plain.valuesBySource.isEmpty)
        // The owner prefers the watch: the phone no longer contributes.
        try await test.engine.setSourcePriority(["org.example.watch"], for: .stepCount)
        #expect(try await test.engine.sourcePriority(for: .stepCount) == ["org.example.watch"])
        statistics = try #require(try await test.engine.statistics(matching: query, as: .owner))
        #expect(statistics.sumQuantity() == Quantity(1400, .count))
        #expect(statistics.sources == [watch])
        let entry = try #require(try test.auditEntries().last { $0.operation == .settingsSet })
        #expect(entry.types == ["HKQuantityTypeIdentifierStepCount"])
        #expect(try await test.engine.sourcePriorities() == [.stepCount: ["org.example.watch"]])
        // An empty order restores the default.
        try await test.engine.setSourcePriority([], for: .stepCount)
        #expect(try await test.engine.sourcePriorities().isEmpty)
        #expect(try await test.engine.statistics(matching: query, as: .owner)?.sumQuantity() == Quantity(1500, .count))
        try await test.engine.setSourcePriority(["org.example.watch"], for: .stepCount)

        // The owner's time zone: set, read back and audited without a type; an unknown one refused.
        try await test.engine.setTimeZone("Asia/Tokyo")
        #expect(try await test.engine.timeZone().identifier == "Asia/Tokyo")
        let zoneEntry = try #require(try test.auditEntries().last)
        #expect(zoneEntry.operation == .settingsSet && zoneEntry.types.isEmpty)
        #expect(await healthError { try await test.engine.setTimeZone("Mars/Olympus_Mons") }?.isInvalidArgument == true)
        #expect(try await test.engine.timeZone().identifier == "Asia/Tokyo")

        // An app that may read only its own steps sees only its own sum: nothing merged away.
        let alone = try #require(try await test.engine.statistics(matching: query, as: .app("org.example.phone")))
        #expect(alone.sumQuantity() == Quantity(1000, .count))
        #expect(alone.sources == [phone])
    }

    @Test func optionsThatDoNotFitTheTypeAreInvalid() async throws {
        let test = try TestEngine()
        let wrong: [(QuantityTypeIdentifier, StatisticsOptions)] = [
            (.heartRate, [.cumulativeSum]), (.stepCount, [.discreteAverage]), (.stepCount, [.discreteMin]),
            (.stepCount, [.mostRecent]), (.bodyMass, [.separateBySource]), (.bodyMass, []),
        ]
        for (type, options) in wrong {
            let error = await healthError {
                _ = try await test.engine.statistics(
                    matching: StatisticsQueryDescriptor(quantityType: type, options: options),
                    as: .owner
                )
            }
            guard error?.isInvalidArgument == true else {
                Issue.record("\(options) for \(type): \(String(describing: error))")
                continue
            }
        }
        // An unknown zone, and more intervals than a collection computes.
        let zoneError = await healthError {
            _ = try await test.engine.statisticsCollection(
                matching: StatisticsCollectionQueryDescriptor(
                    quantityType: .stepCount,
                    options: [.cumulativeSum],
                    anchorDate: Fixtures.start,
                    intervalComponents: IntervalComponents(day: 1),
                    timeZone: "Mars/Olympus_Mons"
                ),
                as: .owner
            )
        }
        #expect(zoneError?.isInvalidArgument == true)
        try await test.enroll("org.example.phone")
        try await test.grant(.share, .quantity(.stepCount), to: "org.example.phone")
        try await test.engine.save(
            [
                try quantitySample(start: Fixtures.start),
                try quantitySample(start: Fixtures.start.addingTimeInterval(86400 * 200)),
            ],
            as: .app("org.example.phone")
        )
        let tooMany = await healthError {
            _ = try await test.engine.statisticsCollection(
                matching: StatisticsCollectionQueryDescriptor(
                    quantityType: .stepCount,
                    options: [.cumulativeSum],
                    anchorDate: Fixtures.start,
                    intervalComponents: IntervalComponents(minute: 1)
                ),
                as: .owner
            )
        }
        #expect(tooMany?.isInvalidArgument == true)
    }

    @Test func limitsCountWhatTheQueryMatches() async throws {
        let test = try TestEngine()
        // Exactly 100,000 hourly intervals of data is allowed; one more is not.
        let start = Fixtures.start
        try await test.enroll("org.example.phone")
        try await test.grant(.share, .quantity(.stepCount), to: "org.example.phone")
        try await test.engine.save(
            [try quantitySample(start: start), try quantitySample(start: start.addingTimeInterval(99_999 * 3600))],
            as: .app("org.example.phone")
        )
        let hourly = StatisticsCollectionQueryDescriptor(
            quantityType: .stepCount,
            options: [.cumulativeSum],
            anchorDate: start,
            intervalComponents: IntervalComponents(hour: 1)
        )
        #expect(try await test.engine.statisticsCollection(matching: hourly, as: .owner).statistics.count == 2)
        try await test.engine.save(
            [try quantitySample(start: start.addingTimeInterval(100_000 * 3600))],
            as: .app("org.example.phone")
        )
        let error = await healthError { _ = try await test.engine.statisticsCollection(matching: hourly, as: .owner) }
        #expect(error?.isInvalidArgument == true)

        // 65 sources of steps are too many to merge, unless the predicate narrows them.
        for index in 0..<65 {
            let app = "org.example.app\(index)"
            try await test.enroll(app)
            try await test.grant(.share, .quantity(.stepCount), to: app)
            try await test.engine.save([try quantitySample(start: start)], as: .app(app))
        }
        let all = StatisticsQueryDescriptor(quantityType: .stepCount, options: [.cumulativeSum])
        let tooMany = await healthError { _ = try await test.engine.statistics(matching: all, as: .owner) }
        #expect(tooMany?.isInvalidArgument == true && tooMany?.field == "predicate")
        let narrowed = StatisticsQueryDescriptor(
            quantityType: .stepCount,
            predicate: .sources(["org.example.app3", "org.example.app4"]),
            options: [.cumulativeSum]
        )
        let statistics = try #require(try await test.engine.statistics(matching: narrowed, as: .owner))
        // The two overlap exactly: the one that saved first counts.
        #expect(statistics.sumQuantity() == Quantity(100, .count))
        #expect(statistics.sources.map(\.bundleIdentifier) == ["org.example.app3"])
        #expect(statistics.endDate == start.addingTimeInterval(60))
    }
}

/// A small deterministic generator, so a failure can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension HealthError {
    var isInvalidArgument: Bool {
        code == .invalidArgument
    }
}
