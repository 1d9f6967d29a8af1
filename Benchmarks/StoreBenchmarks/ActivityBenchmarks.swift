// Activity summaries against a statistics collection over the same data, in the same run
// (issue 18): one step sample an hour (a minute of steps) for four years, in a vault opened
// in-process; the owner asks for a year and for four years of summaries, and for the four years'
// daily step sums as a statistics collection. The summaries' cost must grow with the range, not
// with its square: four years within 5x one year (linear is 4x), and within a small factor of the
// collection, which reads the same rows once.
import Benchmark
import Foundation
import HealthModel
import VaultEngine

/// 2021-01-01T00:00:00Z.
let activityStart = Date(timeIntervalSince1970: 1_609_459_200)
/// 2021 to 2024, 1,461 days.
let activityDays = 4 * 365 + 1

extension StatisticsRows {
    /// A minute of steps at the start of every hour, from `activityStart` on, for `days` days.
    static func hourlySteps(days: Int) -> StatisticsRows {
        var rows = StatisticsRows(type: .stepCount, source: "org.example.phone")
        let origin = activityStart.timeIntervalSinceReferenceDate
        for hour in 0..<(days * 24) {
            let start = origin + Double(hour) * 3600
            rows.starts.append(start)
            rows.ends.append(start + 60)
            rows.values.append(Double(1 + (hour * 37) % 200))
        }
        return rows
    }
}

func activityBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(60),
        // Each run is short: more of them steady the medians the ratio is taken from.
        maxIterations: 21
    )
    let oneYear = ActivitySummaryQueryDescriptor(start: "2021-01-01", end: "2021-12-31", timeZone: "UTC")
    let fourYears = ActivitySummaryQueryDescriptor(start: "2021-01-01", end: "2024-12-31", timeZone: "UTC")
    let dailySteps = StatisticsCollectionQueryDescriptor(
        quantityType: .stepCount,
        options: [.cumulativeSum],
        anchorDate: activityStart,
        intervalComponents: IntervalComponents(day: 1),
        timeZone: "UTC"
    )

    // One vault for the three benchmarks, made by the first to run.
    nonisolated(unsafe) var fixture: EngineFixture?
    let setup: @Sendable () async throws -> Void = {
        guard fixture == nil else { return }
        fixture = try EngineFixture(try await StatisticsVault([.hourlySteps(days: activityDays)], priority: []))
    }

    Benchmark("Activity summaries hourly steps: 1 year", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let summaries = try await fixture!.engine.activitySummaries(matching: oneYear, as: .owner)
            precondition(summaries.count == 365)
            blackHole(summaries)
        }
    } setup: {
        try await setup()
    }

    Benchmark("Activity summaries hourly steps: 4 years", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let summaries = try await fixture!.engine.activitySummaries(matching: fourYears, as: .owner)
            precondition(summaries.count == activityDays)
            blackHole(summaries)
        }
    } setup: {
        try await setup()
    }

    Benchmark("Activity summaries hourly steps: 4 years statistics collection", configuration: configuration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let collection = try await fixture!.engine.statisticsCollection(matching: dailySteps, as: .owner)
            precondition(collection.statistics.count == activityDays)
            blackHole(collection)
        }
    } setup: {
        try await setup()
    } teardown: {
        await fixture?.stop()
        fixture = nil
    }
}
