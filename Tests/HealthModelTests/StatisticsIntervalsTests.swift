import Foundation
import HealthModel
import Testing

/// Where statistics intervals start across clock changes, as docs/STATISTICS.md ("Intervals") says.
struct StatisticsIntervalsTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!

    static func starts(_ anchor: String, _ components: IntervalComponents, _ ks: ClosedRange<Int>) -> [String] {
        let intervals = StatisticsIntervals(
            anchorDate: RFC3339.date(from: anchor)!,
            components: components,
            timeZone: paris
        )
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = paris
        return ks.map { formatter.string(from: intervals.start(of: $0)) }
    }

    @Test func aSkippedLocalTimeMovesForwardByTheSkippedHour() {
        #expect(
            Self.starts("2026-03-28T02:30:00.000+01:00", IntervalComponents(day: 1), 0...2) == [
                "2026-03-28T02:30:00+01:00", "2026-03-29T03:30:00+02:00", "2026-03-30T02:30:00+02:00",
            ]
        )
    }

    @Test func aRepeatedLocalTimeTakesItsFirstOccurrence() {
        #expect(
            Self.starts("2026-10-24T02:30:00.000+02:00", IntervalComponents(day: 1), 0...2) == [
                "2026-10-24T02:30:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00",
            ]
        )
    }

    @Test func mixedComponentsAddTheCalendarPartThenTheClockPartAsElapsedTime() {
        let starts = Self.starts("2026-10-23T12:00:00.000+02:00", IntervalComponents(day: 1, hour: 12), 0...3)
        #expect(
            starts == [
                "2026-10-23T12:00:00+02:00", "2026-10-25T00:00:00+02:00", "2026-10-26T12:00:00+01:00",
                "2026-10-28T00:00:00+01:00",
            ]
        )
        let intervals = StatisticsIntervals(
            anchorDate: RFC3339.date(from: "2026-10-23T12:00:00.000+02:00")!,
            components: IntervalComponents(day: 1, hour: 12),
            timeZone: Self.paris
        )
        #expect((0...2).map { intervals.interval($0).duration / 3600 } == [36, 37, 36])
    }
}
