import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// Category statistics (docs/STATISTICS.md, "Category statistics") against a reference computed
/// here minute by minute from the raw samples, across Paris's change of the clock.
@Suite struct CategoryStatisticsTests {
    static let apps = ["org.example.sleeptracker", "org.example.watch"]
    static let paris = TimeZone(identifier: "Europe/Paris")!

    struct Raw {
        let source: String
        let start: Double
        let end: Double
        let value: Int
    }

    /// Sleep samples on whole minutes over the week in which Paris leaves summer time: from none
    /// to five hours long, overlapping within and across the two sources.
    static func random(count: Int, seed: UInt64) -> [Raw] {
        var rng = SplitMix64(seed: seed)
        let origin = RFC3339.date(from: "2026-10-21T22:00:00.000Z")!.timeIntervalSinceReferenceDate
        return (0..<count).map { _ in
            let start = origin + Double(Int.random(in: 0..<(7 * 24 * 60), using: &rng)) * 60
            let minutes = Int.random(in: 0...6, using: &rng) == 0 ? 0 : Int.random(in: 1...300, using: &rng)
            return Raw(
                source: apps[Int.random(in: 0..<apps.count, using: &rng)],
                start: start,
                end: start + Double(minutes) * 60,
                value: Int.random(in: 0...5, using: &rng)
            )
        }
    }

    static func vault(_ raw: [Raw]) async throws -> TestEngine {
        let test = try TestEngine()
        for app in apps {
            try await test.enroll(app)
            try await test.grant(.share, .category(.sleepAnalysis), to: app)
            let samples = try raw.filter { $0.source == app }.map { sample -> Sample in
                .category(
                    try CategorySample(
                        type: .sleepAnalysis,
                        value: sample.value,
                        start: Date(timeIntervalSinceReferenceDate: sample.start),
                        end: Date(timeIntervalSinceReferenceDate: sample.end),
                        sourceRevision: Fixtures.app
                    )
                )
            }
            if !samples.isEmpty { try await test.engine.save(samples, as: .app(app)) }
        }
        return test
    }

    /// The statistics of one interval, minute by minute.
    static func reference(_ raw: [Raw], from start: Double, to end: Double) -> CategoryStatistics? {
        let inside = raw.filter {
            $0.start == $0.end ? ($0.start >= start && $0.start < end) : ($0.start < end && $0.end > start)
        }
        guard !inside.isEmpty else { return nil }
        let asleep = Set(CategoryValueSleepAnalysis.allAsleepValues.map(\.rawValue))
        func covered(_ samples: [Raw]) -> Double {
            var minutes = 0.0
            var minute = start
            while minute < end {
                if samples.contains(where: { $0.start <= minute && minute < $0.end }) { minutes += 60 }
                minute += 60
            }
            return minutes
        }
        let values = Set(inside.map(\.value)).sorted().map { value in
            let of = inside.filter { $0.value == value }
            return CategoryStatistics.ValueStatistics(value: value, count: of.count, duration: covered(of))
        }
        return CategoryStatistics(
            startDate: Date(timeIntervalSinceReferenceDate: start),
            endDate: Date(timeIntervalSinceReferenceDate: end),
            count: inside.count,
            duration: covered(inside),
            asleepDuration: covered(inside.filter { asleep.contains($0.value) }),
            values: values,
            sources: Set(inside.map(\.source)).sorted()
        )
    }

    /// Nights from noon to noon in Paris, laid out here day by day (not by StatisticsIntervals).
    static func nights() -> [(Double, Double)] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = paris
        return (19...31).map { day -> (Double, Double) in
            let start = calendar.date(from: DateComponents(year: 2026, month: 10, day: day, hour: 12))!
            let end = calendar.date(from: DateComponents(year: 2026, month: 10, day: day + 1, hour: 12))!
            return (start.timeIntervalSinceReferenceDate, end.timeIntervalSinceReferenceDate)
        }
    }

    static func query(predicate: SamplePredicate? = nil) -> CategoryStatisticsQueryDescriptor {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = paris
        return CategoryStatisticsQueryDescriptor(
            categoryType: .sleepAnalysis,
            predicate: predicate,
            anchorDate: calendar.date(from: DateComponents(year: 2001, month: 1, day: 1, hour: 12))!,
            intervalComponents: IntervalComponents(day: 1),
            timeZone: "Europe/Paris"
        )
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func nightsMatchAMinuteByMinuteCountAcrossTheClockChange(seed: UInt64) async throws {
        let raw = Self.random(count: 120, seed: seed)
        let test = try await Self.vault(raw)
        let answer = try await test.engine.categoryStatisticsCollection(matching: Self.query(), as: .owner)
        #expect(answer.timeZone == "Europe/Paris")
        let expected = Self.nights().compactMap { Self.reference(raw, from: $0.0, to: $0.1) }
        #expect(answer.statistics == expected)
        // The night Paris leaves summer time is 25 hours long.
        let long = answer.statistics.first { $0.endDate.timeIntervalSince($0.startDate) == 25 * 3600 }
        #expect(long?.startDate == RFC3339.date(from: "2026-10-24T10:00:00.000Z"))
        // Audited once, as the owner's read of the type, counting the nights.
        let entry = try #require(try test.auditEntries().last)
        #expect(entry.operation == .queryCategoryStatistics && entry.actor == .owner && entry.outcome == .ok)
        #expect(entry.types == ["HKCategoryTypeIdentifierSleepAnalysis"])
        #expect(entry.objectCount == UInt64(expected.count))
    }

    @Test func anAppWithoutTheReadGrantCountsItsOwnSamplesOnly() async throws {
        let raw = Self.random(count: 80, seed: 9)
        let test = try await Self.vault(raw)
        let app = Self.apps[0]
        let answer = try await test.engine.categoryStatisticsCollection(matching: Self.query(), as: .app(app))
        let own = raw.filter { $0.source == app }
        #expect(answer.statistics == Self.nights().compactMap { Self.reference(own, from: $0.0, to: $0.1) })
        #expect(try test.auditEntries().last?.outcome == .deniedServedEmpty)
    }

    @Test func overlapsCountOnceAndInstantsCountButCoverNothing() async throws {
        let start = RFC3339.date(from: "2026-03-01T23:00:00.000Z")!.timeIntervalSinceReferenceDate
        let raw = [
            Raw(source: Self.apps[0], start: start, end: start + 3 * 3600, value: 3),
            Raw(source: Self.apps[1], start: start + 3600, end: start + 2 * 3600, value: 3),
            Raw(source: Self.apps[1], start: start + 4 * 3600, end: start + 4 * 3600, value: 2),
        ]
        let test = try await Self.vault(raw)
        let answer = try await test.engine.categoryStatisticsCollection(matching: Self.query(), as: .owner)
        let night = try #require(answer.statistics.first)
        #expect(answer.statistics.count == 1)
        #expect(night.count == 3 && night.duration == 3 * 3600 && night.asleepDuration == 3 * 3600)
        #expect(night.statistics(of: 3) == .init(value: 3, count: 2, duration: 3 * 3600))
        #expect(night.statistics(of: 2) == .init(value: 2, count: 1, duration: 0))
        #expect(night.sources == Self.apps.sorted())
    }

    @Test func badQueriesAreRefusedNamingTheField() async throws {
        let test = try TestEngine()
        let zone = CategoryStatisticsQueryDescriptor(
            categoryType: .sleepAnalysis,
            anchorDate: Date(),
            intervalComponents: IntervalComponents(day: 1),
            timeZone: "Mars/Olympus"
        )
        await #expect(throws: HealthError.self) {
            _ = try await test.engine.categoryStatisticsCollection(matching: zone, as: .owner)
        }
        let none = CategoryStatisticsQueryDescriptor(
            categoryType: .sleepAnalysis,
            anchorDate: Date(),
            intervalComponents: IntervalComponents()
        )
        do {
            _ = try await test.engine.categoryStatisticsCollection(matching: none, as: .owner)
            Issue.record("no interval was accepted")
        } catch let error as HealthError {
            #expect(error.field == "intervalComponents")
        }
    }
}
