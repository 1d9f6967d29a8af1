public import Foundation

/// The intervals of a statistics collection: interval `k` starts at `anchorDate` plus `k` times
/// the interval components, counted in the calendar of a time zone, for every integer `k`
/// (negative ones before the anchor). Interval `k` ends where interval `k + 1` starts.
///
/// Calendar units follow the zone's clock: a day is midnight to midnight even when it has 23 or
/// 25 hours, a month ends on the same day of the next month (clamped to its last day, so an
/// anchor on the 31st gives intervals starting on the 30th, the 28th or 29th in February, and
/// back on the 31st). Hours, minutes and seconds are fixed lengths of time.
public struct StatisticsIntervals: Sendable {
    public let anchorDate: Date
    public let components: IntervalComponents
    public let calendar: Calendar
    /// The length of every interval when the components are only hours, minutes and seconds.
    private let fixedLength: TimeInterval?
    private let approximateLength: TimeInterval

    public init(anchorDate: Date, components: IntervalComponents, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.anchorDate = anchorDate
        self.components = components
        self.calendar = calendar
        let clock = TimeInterval(components.hour * 3600 + components.minute * 60 + components.second)
        let calendarDays =
            Double(components.year) * 365.2425 + Double(components.month) * 30.436875
            + Double(components.weekOfYear * 7 + components.day)
        // (Components that do not validate, all zero, still give a lookup that ends.)
        fixedLength = calendarDays == 0 ? max(1, clock) : nil
        approximateLength = max(1, calendarDays * 86400 + clock)
    }

    /// When interval `k` starts.
    public func start(of k: Int) -> Date {
        if let fixedLength {
            return anchorDate.addingTimeInterval(Double(k) * fixedLength)
        }
        let c = components
        let multiple = DateComponents(
            year: c.year * k,
            month: c.month * k,
            day: c.day * k,
            hour: c.hour * k,
            minute: c.minute * k,
            second: c.second * k,
            weekOfYear: c.weekOfYear * k
        )
        // Only nil for dates far outside what RFC 3339 and the store allow.
        return calendar.date(byAdding: multiple, to: anchorDate)
            ?? anchorDate.addingTimeInterval(Double(k) * approximateLength)
    }

    /// Interval `k` as a date interval.
    public func interval(_ k: Int) -> DateInterval {
        DateInterval(start: start(of: k), end: start(of: k + 1))
    }

    /// The index of the interval holding `date`.
    public func index(containing date: Date) -> Int {
        let estimate = (date.timeIntervalSince(anchorDate) / approximateLength).rounded(.down)
        var k = Int(max(-1e12, min(1e12, estimate)))
        // The estimate is off by a few intervals at most (clock changes, month lengths); the
        // bound only keeps components that never validated from looping.
        var steps = 0
        while steps < 10_000, start(of: k) > date {
            k -= 1
            steps += 1
        }
        while steps < 20_000, start(of: k + 1) <= date {
            k += 1
            steps += 1
        }
        return k
    }

    /// The boundaries of intervals `first` through `last`: `last - first + 2` dates, each
    /// interval's start and the last one's end.
    public func boundaries(from first: Int, through last: Int) -> [Date] {
        (first...(last + 1)).map(start(of:))
    }
}

extension StatisticsCollection {
    /// The collection's intervals.
    public var intervals: StatisticsIntervals {
        StatisticsIntervals(
            anchorDate: anchorDate,
            components: intervalComponents,
            timeZone: TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)!
        )
    }

    /// The statistics of every interval from the one holding `start` through the one holding
    /// `end`, in order, an interval without data as statistics without values (HealthKit's
    /// `enumerateStatistics(from:to:with:)`). At most `limit` intervals; nil when there would be
    /// more, or when `end` is before `start`.
    public func enumerateStatistics(from start: Date, to end: Date, limit: Int = 1_000_000) -> [Statistics]? {
        guard start <= end else { return nil }
        let intervals = intervals
        let first = intervals.index(containing: start)
        let last = intervals.index(containing: end)
        guard last - first < limit else { return nil }
        var byStart: [Date: Statistics] = [:]
        for statistics in statistics { byStart[statistics.startDate] = statistics }
        return (first...last).map { k in
            let interval = intervals.interval(k)
            return byStart[interval.start]
                ?? Statistics(
                    quantityType: quantityType,
                    startDate: interval.start,
                    endDate: interval.end,
                    values: StatisticsValues()
                )
        }
    }
}
