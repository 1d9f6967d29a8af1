import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultEngine

/// Activity summaries, checked against figures computed here from the raw samples.
@Suite struct ActivitySummaryTests {
    static let app = "org.example.fitness"
    static let other = "org.example.other"

    @Test func summariesMatchAReferenceAcrossADaylightSavingChange() async throws {
        let test = try TestEngine()
        for id in [Self.app, Self.other] {
            try await test.enroll(id)
            try await test.grant(.share, .quantity(.activeEnergyBurned), .workout, .quantity(.stepCount), to: id)
        }
        try await test.engine.setTimeZone("Europe/Paris")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        // 23-27 October 2026: Paris leaves summer time on the 25th (a 25-hour day).
        let midnights = (23...28).map { calendar.date(from: DateComponents(year: 2026, month: 10, day: $0))! }
        let first = midnights[0].timeIntervalSinceReferenceDate
        let span = midnights[5].timeIntervalSince(midnights[0])

        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (4, 4, 2, 1))
        // One source of energy (merging sources is the statistics tests' business), a few hours long.
        var energy: [(Double, Double, Double)] = []
        var samples: [Sample] = []
        for _ in 0..<120 {
            let start = first - 3600 + Double.random(in: 0..<(span + 3600), using: &rng).rounded()
            let length = Double(Int.random(in: 0...4, using: &rng) * 1800)
            let kcal = Double(Int.random(in: 1...300, using: &rng))
            energy.append((start, start + length, kcal))
            samples.append(
                .quantity(
                    try QuantitySample(
                        type: .activeEnergyBurned,
                        quantity: Quantity(kcal, .kilocalorie),
                        start: Date(timeIntervalSinceReferenceDate: start),
                        end: Date(timeIntervalSinceReferenceDate: start + length),
                        sourceRevision: Fixtures.app
                    )
                )
            )
        }
        // Overlapping workouts, some across midnight.
        var workouts: [(Double, Double)] = []
        for _ in 0..<40 {
            let start = first + Double.random(in: 0..<span, using: &rng).rounded()
            let length = Double(Int.random(in: 5...150, using: &rng) * 60)
            workouts.append((start, start + length))
            samples.append(
                .workout(
                    try Workout(
                        activityType: .running,
                        start: Date(timeIntervalSinceReferenceDate: start),
                        end: Date(timeIntervalSinceReferenceDate: start + length),
                        sourceRevision: Fixtures.app
                    )
                )
            )
        }
        // Steps, some zero.
        var steps: [(Double, Double)] = []
        for _ in 0..<300 {
            let start = first + Double.random(in: 0..<span, using: &rng).rounded()
            let count = Double(Int.random(in: 0...3, using: &rng) == 0 ? 0 : Int.random(in: 1...500, using: &rng))
            steps.append((start, count))
            samples.append(
                .quantity(
                    try QuantitySample(
                        type: .stepCount,
                        quantity: Quantity(count, .count),
                        start: Date(timeIntervalSinceReferenceDate: start),
                        end: Date(timeIntervalSinceReferenceDate: start + 60),
                        sourceRevision: Fixtures.app
                    )
                )
            )
        }
        try await test.engine.save(samples, as: .app(Self.app))

        // The reference, day by day.
        struct Day: Equatable {
            var energy = 0.0
            var exercise = 0.0
            var stand = 0
        }
        var reference: [Day] = []
        for index in 0..<5 {
            let lo = midnights[index].timeIntervalSinceReferenceDate
            let hi = midnights[index + 1].timeIntervalSinceReferenceDate
            var day = Day()
            for (start, end, kcal) in energy {
                if end == start {
                    if start >= lo && start < hi { day.energy += kcal }
                } else {
                    day.energy += kcal * max(0, min(end, hi) - max(start, lo)) / (end - start)
                }
            }
            // Covered time: the clipped spans merged where they overlap.
            let clipped = workouts.map { (max($0.0, lo), min($0.1, hi)) }.filter { $0.0 < $0.1 }.sorted { $0.0 < $1.0 }
            var merged: [(Double, Double)] = []
            for span in clipped {
                if let lastEnd = merged.last?.1, span.0 <= lastEnd {
                    merged[merged.count - 1].1 = max(lastEnd, span.1)
                } else {
                    merged.append(span)
                }
            }
            day.exercise = merged.reduce(0) { $0 + ($1.1 - $1.0) } / 60
            day.stand = Set(steps.filter { $0.1 > 0 && $0.0 >= lo && $0.0 < hi }.map { Int(($0.0 - lo) / 3600) }).count
            reference.append(day)
        }

        let query = ActivitySummaryQueryDescriptor(start: "2026-10-23", end: "2026-10-27")
        let summaries = try await test.engine.activitySummaries(matching: query, as: .owner)
        #expect(summaries.map(\.day) == ["2026-10-23", "2026-10-24", "2026-10-25", "2026-10-26", "2026-10-27"])
        for (summary, expected) in zip(summaries, reference) {
            let kcal = try summary.activeEnergyBurned.doubleValue(for: .kilocalorie)
            #expect(abs(kcal - expected.energy) < 1e-6, "\(summary.day) energy \(kcal) vs \(expected.energy)")
            let minutes = try summary.appleExerciseTime.doubleValue(for: .minute)
            #expect(
                abs(minutes - expected.exercise) < 1e-9,
                "\(summary.day) exercise \(minutes) vs \(expected.exercise)"
            )
            #expect(try summary.appleStandHours.doubleValue(for: .count) == Double(expected.stand), "\(summary.day)")
            #expect(summary.activeEnergyBurnedGoal == Quantity(500, .kilocalorie))
            #expect(summary.appleExerciseTimeGoal == Quantity(30, .minute))
            #expect(summary.appleStandHoursGoal == Quantity(12, .count))
        }
        #expect(reference.contains { $0.stand > 20 }, "the random steps fill most hours of some day")

        // A range without data has no summaries; the query's own zone moves the days.
        #expect(
            try await test.engine.activitySummaries(
                matching: ActivitySummaryQueryDescriptor(start: "2026-11-10", end: "2026-11-12"),
                as: .owner
            ).isEmpty
        )
        let tokyo = try await test.engine.activitySummaries(
            matching: ActivitySummaryQueryDescriptor(start: "2026-10-23", end: "2026-10-27", timeZone: "Asia/Tokyo"),
            as: .owner
        )
        #expect(tokyo.map(\.day).first == "2026-10-23" && tokyo != summaries)

        // Another app: without the activity summary grant, only its own samples (none); with it,
        // everyone's, as the owner sees them.
        let other = Caller.app(Self.other)
        #expect(try await test.engine.activitySummaries(matching: query, as: other).isEmpty)
        #expect(try test.auditEntries().last?.outcome == .deniedServedEmpty)
        try await test.engine.decide(.grant, .read, of: [.activitySummary], for: Self.other)
        #expect(try await test.engine.activitySummaries(matching: query, as: other) == summaries)
        let last = try #require(try test.auditEntries().last)
        #expect(last.operation == .queryActivitySummary && last.types == ["HKActivitySummaryTypeIdentifier"])
        #expect(last.outcome == .ok && last.objectCount == 5)
    }

    @Test func aWorkoutWithoutDurationMakesNoDayAndALongOneCountsInEveryDayItCrosses() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        try await test.grant(.share, .workout, to: Self.app)
        try await test.engine.setTimeZone("UTC")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func date(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
            calendar.date(from: DateComponents(year: 2026, month: 3, day: day, hour: hour, minute: minute))!
        }
        func workout(_ start: Date, _ end: Date) throws -> Sample {
            .workout(try Workout(activityType: .walking, start: start, end: end, sourceRevision: Fixtures.app))
        }
        try await test.engine.save(
            [
                // Instants, inside a day and on a midnight: they cover nothing.
                try workout(date(2, 10), date(2, 10)),
                try workout(date(3, 0), date(3, 0)),
                // From 22:00 on the 5th to 01:30 on the 7th: 2 h, 24 h and 1.5 h.
                try workout(date(5, 22), date(7, 1, 30)),
                // Inside the first, counted once.
                try workout(date(6, 8), date(6, 9)),
            ],
            as: .app(Self.app)
        )
        let summaries = try await test.engine.activitySummaries(
            matching: ActivitySummaryQueryDescriptor(start: "2026-03-01", end: "2026-03-09"),
            as: .owner
        )
        #expect(summaries.map(\.day) == ["2026-03-05", "2026-03-06", "2026-03-07"])
        #expect(try summaries.map { try $0.appleExerciseTime.doubleValue(for: .minute) } == [120, 1440, 90])
    }

    @Test func goalsApplyFromTheDayTheyAreSetAndBadInputIsRefused() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        try await test.grant(.share, .quantity(.stepCount), to: Self.app)
        try await test.engine.setTimeZone("UTC")
        let today = Calendar(identifier: .gregorian).startOfDay(for: Date())
        let yesterday = today.addingTimeInterval(-86_400)
        try await test.engine.save(
            [try quantitySample(start: yesterday.addingTimeInterval(3600)), try quantitySample(start: today)],
            as: .app(Self.app)
        )
        #expect(try await test.engine.activityGoals() == .standard)
        let goals = ActivityGoals(activeEnergyBurned: 650, exerciseMinutes: 45, standHours: 10)
        try await test.engine.setActivityGoals(goals)
        #expect(try await test.engine.activityGoals() == goals)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let summaries = try await test.engine.activitySummaries(
            matching: ActivitySummaryQueryDescriptor(
                start: formatter.string(from: yesterday),
                end: formatter.string(from: today)
            ),
            as: .app(Self.app)
        )
        #expect(summaries.count == 2)
        #expect(summaries.first?.activeEnergyBurnedGoal == Quantity(500, .kilocalorie))
        #expect(summaries.last?.activeEnergyBurnedGoal == Quantity(650, .kilocalorie))
        #expect(summaries.last?.appleStandHoursGoal == Quantity(10, .count))
        #expect(summaries.allSatisfy { $0.appleStandHours == Quantity(1, .count) })
        #expect(
            try test.auditEntries().contains {
                $0.operation == .settingsSet && $0.types == ["HKActivitySummaryTypeIdentifier"]
            }
        )

        for bad in [
            ActivityGoals(activeEnergyBurned: 0, exerciseMinutes: 30, standHours: 12),
            ActivityGoals(activeEnergyBurned: 500, exerciseMinutes: 2000, standHours: 12),
            ActivityGoals(activeEnergyBurned: 500, exerciseMinutes: 30, standHours: 12.5),
        ] {
            let error = await healthError { try await test.engine.setActivityGoals(bad) }
            #expect(error?.code == .invalidArgument, "\(bad)")
        }
        for (query, field) in [
            (ActivitySummaryQueryDescriptor(start: "2026-02-30", end: "2026-03-01"), "start"),
            (ActivitySummaryQueryDescriptor(start: "2026-03-02", end: "2026-03-01"), "end"),
            (ActivitySummaryQueryDescriptor(start: "2000-01-01", end: "2026-03-01"), "end"),
            (ActivitySummaryQueryDescriptor(start: "2026-3-01", end: "2026-03-01"), "start"),
            (
                ActivitySummaryQueryDescriptor(start: "2026-03-01", end: "2026-03-01", timeZone: "Mars/Olympus"),
                "timeZone"
            ),
            (ActivitySummaryQueryDescriptor(start: "2026-03-01", end: "2026-03-01", timeZone: ""), "timeZone"),
        ] {
            let error = await healthError { _ = try await test.engine.activitySummaries(matching: query, as: .owner) }
            #expect(error?.code == .invalidArgument && error?.field == field, "\(query)")
        }
    }
}
