import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// The engine's report (`healthReport(firstDay:lastDay:)`): its figures are the vault's own
/// statistics of the same days, it is one audited owner action, and its access history is the
/// audit log's.
@Suite struct HealthReportEngineTests {
    @Test func theReportsFiguresAreTheVaultsStatisticsAndItIsOneAuditedAction() async throws {
        let test = try TestEngine()
        let engine = test.engine
        try await engine.setTimeZone("UTC")
        try await test.enroll("org.example.phone")
        try await test.grant(.share, .quantity(.stepCount), .quantity(.heartRate), to: "org.example.phone")
        try await test.enroll("org.example.watch")
        try await test.grant(.share, .quantity(.stepCount), to: "org.example.watch")
        let day = 86_400.0
        let first = try #require(ISO8601DateFormatter().date(from: "2026-11-01T08:00:00Z"))
        var phone: [Sample] = []
        for index in 0..<5 {
            phone.append(
                try quantitySample(.stepCount, value: Double(1000 + index), start: first + Double(index) * day)
            )
            phone.append(
                try quantitySample(.heartRate, value: 1 + Double(index) / 10, start: first + Double(index) * day)
            )
        }
        try await engine.save(phone, as: .app("org.example.phone"))
        // The watch counts the first day's steps too: merged by priority, not added.
        try await engine.save(
            [try quantitySample(.stepCount, value: 700, start: first)],
            as: .app("org.example.watch")
        )
        // A read the watch may not make: served as empty, and the report says it was refused.
        _ = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.heartRate))]),
            as: .app("org.example.watch")
        )
        let before = try test.auditEntries().count

        let report = try await engine.healthReport(firstDay: "2026-11-01", lastDay: "2026-11-07")
        let entries = try test.auditEntries()

        let collection = try await engine.statisticsCollection(
            matching: StatisticsCollectionQueryDescriptor(
                quantityType: .stepCount,
                predicate: .date(start: report.start, end: report.end, options: []),
                options: [.cumulativeSum],
                anchorDate: report.start,
                intervalComponents: IntervalComponents(day: 1)
            ),
            as: .owner
        )
        #expect(report.daily(.stepCount) == collection.statistics)
        #expect(report.daily(.stepCount).count == 5)
        #expect(report.daily(.heartRate).count == 5)
        #expect(report.start == ISO8601DateFormatter().date(from: "2026-11-01T00:00:00Z"))
        #expect(report.end == ISO8601DateFormatter().date(from: "2026-11-08T00:00:00Z"))
        let summaries = try await engine.activitySummaries(
            matching: ActivitySummaryQueryDescriptor(start: "2026-11-01", end: "2026-11-07", timeZone: nil),
            as: .owner
        )
        #expect(report.activity == summaries)

        // Who gave what, and where they overlapped.
        let steps = try #require(report.sources.first { $0.type == .quantity(.stepCount) })
        #expect(steps.sources.map(\.bundleIdentifier) == ["org.example.phone", "org.example.watch"])
        #expect(steps.sources.map(\.count) == [5, 1])
        let overlap = try #require(report.overlaps.first { $0.type == .stepCount })
        #expect(overlap.day == "2026-11-01")
        #expect(abs(overlap.merged - 1000) < 1e-6)
        #expect(overlap.sources.map { $0.value.rounded() }.sorted() == [700, 1000])

        // One entry: vault.report by the owner, the types with samples and how many.
        #expect(entries.count == before + 1)
        let entry = try #require(entries.last)
        #expect(entry.operation == .report && entry.actor == .owner && entry.outcome == .ok)
        #expect(entry.types == [QuantityTypeIdentifier.heartRate.rawValue, QuantityTypeIdentifier.stepCount.rawValue])
        #expect(entry.objectCount == 11)
        #expect(report.auditLog.reportEntry == entry.sequence)
        #expect(report.auditLog.verified)
        #expect(report.auditLog.entries == UInt64(entries.count))

        // The access history: the apps' days, the watch's refusal, the owner's grants.
        let now = CalendarDay.string(of: Date(), in: .gmt)
        let todays = try await engine.healthReport(firstDay: now, lastDay: now)
        let watch = try #require(todays.access.first { $0.actor == "org.example.watch" })
        #expect(watch.reads == 1 && watch.refused == 1)
        #expect(watch.typesRefused == [QuantityTypeIdentifier.heartRate.rawValue])
        #expect(watch.writes == 1 && watch.objectsWritten == 1)
        #expect(watch.typesWritten == [QuantityTypeIdentifier.stepCount.rawValue])
        #expect(
            todays.grantChanges.contains {
                $0.app == "org.example.watch" && $0.operation == "authorization.grant-share"
            }
        )
        let owner = try #require(todays.access.first { $0.actor == "owner" })
        #expect(owner.operations["vault.report"] == 1)
    }

    @Test func refusedDaysAreRecordedAsAnError() async throws {
        let test = try TestEngine()
        let error = await healthError {
            _ = try await test.engine.healthReport(firstDay: "2026-11-08", lastDay: "2026-11-01")
        }
        #expect(error?.code == .invalidArgument && error?.field == "end")
        let last = try #require(try test.auditEntries().last)
        #expect(last.operation == .report && last.outcome == .error)
    }
}
