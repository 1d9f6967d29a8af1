import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine

/// A running activity summary query (HealthKit's `updateHandler`): an update exactly when the
/// answer to the same query changes, with the days that changed, and never one that tells an app
/// about data its summaries may not count.
@Suite struct ActivitySummaryUpdateTests {
    static let app = "org.example.rings"
    static let other = "org.example.other"

    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
    static let day1 = utc.date(from: DateComponents(year: 2026, month: 3, day: 2))!
    static let day2 = day1.addingTimeInterval(86_400)
    static let outside = day1.addingTimeInterval(5 * 86_400)
    static let query = ActivitySummaryQueryDescriptor(start: "2026-03-02", end: "2026-03-03")

    static func vault(grantSummaries: Bool) async throws -> TestEngine {
        let test = try TestEngine()
        try await test.engine.setTimeZone("UTC")
        for id in [app, other] {
            try await test.enroll(id)
            try await test.grant(.share, .quantity(.activeEnergyBurned), .quantity(.stepCount), to: id)
        }
        if grantSummaries {
            try await test.engine.decide(.grant, .read, of: [.activitySummary], for: app)
        }
        return test
    }

    static func energy(_ kcal: Double, at date: Date) throws -> Sample {
        try quantitySample(.activeEnergyBurned, value: kcal, start: date.addingTimeInterval(3600))
    }

    /// Gathers a running query's updates as they come (an iteration cancelled midway would end
    /// the stream, so nothing waits on it with a timeout), and the error that ended them.
    final class Updates: @unchecked Sendable {
        private let lock = NSLock()
        private var received: [ActivitySummaryUpdate] = []
        private var ended = false
        private(set) var failure: (any Error)?
        private var taken = 0

        init(_ stream: AsyncThrowingStream<ActivitySummaryUpdate, any Error>) {
            Task {
                do {
                    for try await update in stream { self.lock.withLock { self.received.append(update) } }
                } catch {
                    self.lock.withLock { self.failure = error }
                }
                self.lock.withLock { self.ended = true }
            }
        }

        /// The next update, or nil when none comes within `wait`.
        func next(wait: Duration = .seconds(15)) async -> ActivitySummaryUpdate? {
            let deadline = ContinuousClock.now + wait
            while ContinuousClock.now < deadline {
                let update = lock.withLock { () -> ActivitySummaryUpdate? in
                    guard taken < received.count else { return nil }
                    defer { taken += 1 }
                    return received[taken]
                }
                if let update { return update }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return nil
        }

        /// Whether the stream ended (within a few seconds).
        func end() async -> Bool {
            for _ in 0..<1500 {
                if lock.withLock({ ended }) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
    }

    /// The answer a consumer holds after applying every update to the first answer.
    static func applied(_ first: [ActivitySummary], _ updates: [ActivitySummaryUpdate]) -> [ActivitySummary] {
        var byDay = Dictionary(first.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
        for update in updates {
            for summary in update.summaries { byDay[summary.day] = summary }
            for day in update.removedDays { byDay[day] = nil }
        }
        return byDay.values.sorted { $0.day < $1.day }
    }

    @Test func anUpdateCarriesTheDaysThatChangedAndOnlyWhenTheAnswerChanged() async throws {
        let test = try await Self.vault(grantSummaries: true)
        let engine = test.engine
        try await engine.save([try Self.energy(100, at: Self.day1)], as: .app(Self.other))
        let running = try await engine.observeActivitySummaries(matching: Self.query, as: .app(Self.app))
        #expect(running.summaries.map { $0.day } == ["2026-03-02"])
        let updates = Updates(running.updates)

        // Another app's energy on the second day: a new day, as asking again would show.
        try await engine.save([try Self.energy(250, at: Self.day2)], as: .app(Self.other))
        let added = try #require(await updates.next())
        #expect(added.summaries.map { $0.day } == ["2026-03-03"])
        #expect(added.summaries.first?.activeEnergyBurned == Quantity(250, .kilocalorie))
        #expect(added.removedDays.isEmpty)
        let asked = try await engine.activitySummaries(matching: Self.query, as: .app(Self.app))
        #expect(asked.last == added.summaries.first)

        // Outside the range: the answer is the same, so nothing is sent.
        try await engine.save([try Self.energy(80, at: Self.outside)], as: .app(Self.other))
        #expect(await updates.next(wait: .milliseconds(400)) == nil)

        // The owner's goals change from today on, not these days' goals: nothing.
        try await engine.setActivityGoals(ActivityGoals(activeEnergyBurned: 900, exerciseMinutes: 30, standHours: 12))
        #expect(await updates.next(wait: .milliseconds(400)) == nil)

        // The second day's data deleted: the day goes.
        let doomed = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [
                SampleTypePredicate(
                    .quantity(.activeEnergyBurned),
                    predicate: .date(start: Self.day2, end: Self.day2.addingTimeInterval(86_400), options: [])
                )
            ]),
            as: .app(Self.other)
        )
        _ = try await engine.delete(doomed.map(\.uuid), as: .app(Self.other))
        let removed = try #require(await updates.next())
        #expect(removed.summaries.isEmpty)
        #expect(removed.removedDays == ["2026-03-03"])

        // Every new answer is an audited activity summary query.
        let reads = try test.auditEntries().filter {
            $0.operation == .queryActivitySummary && $0.actor == .app(Self.app)
        }
        #expect(reads.count >= 3)

        // Stopped: the updates end, and a change says nothing more.
        engine.stopObservingActivitySummaries(running.id, as: .app(Self.app))
        #expect(await updates.end())
    }

    @Test func withoutTheSummaryGrantOnlyTheAppsOwnSamplesMoveItsQuery() async throws {
        let test = try await Self.vault(grantSummaries: false)
        let engine = test.engine
        let running = try await engine.observeActivitySummaries(matching: Self.query, as: .app(Self.app))
        #expect(running.summaries.isEmpty)
        let updates = Updates(running.updates)
        let before = try test.auditEntries().count

        // Another app's energy: its summaries may not count it, so nothing is computed or sent,
        // exactly as in a vault without that app.
        try await engine.save([try Self.energy(300, at: Self.day1)], as: .app(Self.other))
        #expect(await updates.next(wait: .milliseconds(400)) == nil)
        let after = try test.auditEntries()
        #expect(!after.dropFirst(before).contains { $0.operation == .queryActivitySummary })

        // Its own: an update with its own figure only.
        try await engine.save([try Self.energy(40, at: Self.day1.addingTimeInterval(6 * 3600))], as: .app(Self.app))
        let own = try #require(await updates.next())
        #expect(own.summaries.map(\.activeEnergyBurned) == [Quantity(40, .kilocalorie)])

        // Granted the summaries: the other app's energy now counts, and the day changes.
        try await engine.decide(.grant, .read, of: [.activitySummary], for: Self.app)
        let granted = try #require(await updates.next())
        #expect(granted.summaries.map(\.activeEnergyBurned) == [Quantity(340, .kilocalorie)])

        // Revoked: back to its own samples, at once.
        try await engine.decide(.revoke, .read, of: [.activitySummary], for: Self.app)
        let revoked = try #require(await updates.next())
        #expect(revoked.summaries.map(\.activeEnergyBurned) == [Quantity(40, .kilocalorie)])

        // Removing the app ends its query.
        try await engine.removeApp(Self.app)
        #expect(await updates.end())
    }

    @Test func changesWhileTheQueryStartsOrWhileNobodyReadsAreMergedNotLost() async throws {
        let test = try await Self.vault(grantSummaries: true)
        let engine = test.engine
        // Saves racing the query's start: whatever its first answer holds, the updates bring it
        // to what asking again says.
        let saving = Task {
            for minute in 0..<40 {
                try await engine.save(
                    [try Self.energy(1, at: Self.day1.addingTimeInterval(Double(minute) * 60))],
                    as: .app(Self.other)
                )
            }
        }
        let running = try await engine.observeActivitySummaries(matching: Self.query, as: .app(Self.app))
        try await saving.value
        // Nobody reads while 30 more changes come: the next update is one merged difference.
        for minute in 0..<30 {
            try await engine.save(
                [try Self.energy(2, at: Self.day2.addingTimeInterval(Double(minute) * 60))],
                as: .app(Self.other)
            )
        }
        try await Task.sleep(for: .milliseconds(500))
        let updates = Updates(running.updates)
        let asked = try await engine.activitySummaries(matching: Self.query, as: .app(Self.app))
        var received: [ActivitySummaryUpdate] = []
        // Read until the updates reach the answer (on a loaded machine they may come late), then
        // whatever else comes within 800 ms.
        let deadline = ContinuousClock.now + .seconds(60)
        while Self.applied(running.summaries, received) != asked, ContinuousClock.now < deadline {
            if let update = await updates.next(wait: .seconds(1)) { received.append(update) }
        }
        while let update = await updates.next(wait: .milliseconds(800)) { received.append(update) }
        #expect(received.count <= 3, "\(received.count) updates")
        #expect(Self.applied(running.summaries, received) == asked)
        #expect(asked.map { $0.activeEnergyBurned } == [Quantity(40, .kilocalorie), Quantity(60, .kilocalorie)])

        // The owner's order of energy sources moves the merged energy: an update.
        try await engine.save([try Self.energy(500, at: Self.day1)], as: .app(Self.app))
        _ = await updates.next()
        try await engine.setSourcePriority([Self.app, Self.other], for: .activeEnergyBurned)
        let reordered = try #require(await updates.next())
        #expect(reordered.summaries.map { $0.day } == ["2026-03-02"])
        engine.stopObservingActivitySummaries(running.id, as: .app(Self.app))
    }

    @Test func aNewAnswerThatCannotBeComputedEndsTheQueryWithItsError() async throws {
        let test = try await Self.vault(grantSummaries: true)
        let engine = test.engine
        // 64 sources of energy in the range: the most one answer merges.
        let sources = (0..<64).map { "org.example.source\($0)" }
        for (index, source) in sources.enumerated() {
            try await test.enroll(source)
            try await test.grant(.share, .quantity(.activeEnergyBurned), to: source)
            try await engine.save(
                [try Self.energy(1, at: Self.day1.addingTimeInterval(Double(index) * 60))],
                as: .app(source)
            )
        }
        let running = try await engine.observeActivitySummaries(matching: Self.query, as: .app(Self.app))
        let updates = Updates(running.updates)
        // A 65th: the query can no longer be answered, and says so rather than going quiet.
        try await engine.save([try Self.energy(1, at: Self.day2)], as: .app(Self.other))
        #expect(await updates.end())
        #expect((updates.failure as? HealthError)?.code == .invalidArgument)
        #expect(!engine.isObservingActivitySummaries(running.id, as: .app(Self.app)))
    }
}
