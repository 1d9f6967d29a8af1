public import Foundation

/// One day's activity (HealthKit's `HKActivitySummary`): active energy, exercise minutes and
/// stand hours, each beside the owner's goal for that day. HealthVault derives it from samples
/// (docs/ACTIVITY.md): the day's active energy burned (merged across sources as a statistics sum),
/// the minutes covered by workouts or exercise-time samples, and the clock hours in which a
/// stand-hour sample says "stood" or a step sample counted steps.
///
/// JSON: `{"day": "YYYY-MM-DD", "activeEnergyBurned": quantity, "activeEnergyBurnedGoal":
/// quantity, "appleExerciseTime": quantity, "appleExerciseTimeGoal": quantity, "appleStandHours":
/// quantity, "appleStandHoursGoal": quantity}`, in kcal, min and count.
public struct ActivitySummary: Hashable, Sendable, Codable {
    /// The calendar day, in the time zone of the query (the owner's unless it names one).
    public let day: String
    public let activeEnergyBurned: Quantity
    public let activeEnergyBurnedGoal: Quantity
    public let appleExerciseTime: Quantity
    public let appleExerciseTimeGoal: Quantity
    public let appleStandHours: Quantity
    public let appleStandHoursGoal: Quantity

    public init(
        day: String,
        activeEnergyBurnedKilocalories: Double,
        exerciseMinutes: Double,
        standHours: Int,
        goals: ActivityGoals
    ) {
        self.day = day
        activeEnergyBurned = Quantity(activeEnergyBurnedKilocalories, .kilocalorie)
        activeEnergyBurnedGoal = Quantity(goals.activeEnergyBurned, .kilocalorie)
        appleExerciseTime = Quantity(exerciseMinutes, .minute)
        appleExerciseTimeGoal = Quantity(goals.exerciseMinutes, .minute)
        appleStandHours = Quantity(Double(standHours), .count)
        appleStandHoursGoal = Quantity(goals.standHours, .count)
    }
}

/// The owner's daily activity goals: active energy in kilocalories, exercise in minutes, stand
/// hours. JSON: `{"activeEnergyBurned": kcal, "exerciseMinutes": min, "standHours": hours}`.
public struct ActivityGoals: Hashable, Sendable, Codable {
    public let activeEnergyBurned: Double
    public let exerciseMinutes: Double
    public let standHours: Double

    /// The goals of a vault whose owner has set none: 500 kcal, 30 minutes, 12 hours.
    public static let standard = ActivityGoals(activeEnergyBurned: 500, exerciseMinutes: 30, standHours: 12)

    public init(activeEnergyBurned: Double, exerciseMinutes: Double, standHours: Double) {
        self.activeEnergyBurned = activeEnergyBurned
        self.exerciseMinutes = exerciseMinutes
        self.standHours = standHours
    }

    /// Each goal positive and no more than a day holds: energy up to 100,000 kcal, exercise up to
    /// 1,440 minutes, stand hours a whole number up to 24.
    public func validate() throws(HealthError) {
        guard activeEnergyBurned.isFinite, activeEnergyBurned > 0, activeEnergyBurned <= 100_000 else {
            throw .invalidArgument("the active energy goal is 1 to 100,000 kcal", field: "activeEnergyBurned")
        }
        guard exerciseMinutes.isFinite, exerciseMinutes > 0, exerciseMinutes <= 1440 else {
            throw .invalidArgument("the exercise goal is 1 to 1,440 minutes", field: "exerciseMinutes")
        }
        guard standHours.isFinite, standHours >= 1, standHours <= 24, standHours.rounded() == standHours else {
            throw .invalidArgument("the stand goal is a whole number of hours, 1 to 24", field: "standHours")
        }
    }
}

/// An activity summary query (HealthKit's `HKActivitySummaryQuery` with a date-range predicate):
/// the summaries of the days from `start` through `end`, both `YYYY-MM-DD`, in `timeZone` (the
/// owner's when nil). Days without any data the caller may see are left out.
public struct ActivitySummaryQueryDescriptor: Hashable, Sendable, Codable {
    public let start: String
    public let end: String
    public let timeZone: String?

    /// The most days one query covers (ten years).
    public static let maximumDays = 3660

    public init(start: String, end: String, timeZone: String? = nil) {
        self.start = start
        self.end = end
        self.timeZone = timeZone
    }

    public func validate() throws(HealthError) {
        guard let first = Self.dayNumber(start) else {
            throw .invalidArgument("a day is written YYYY-MM-DD", field: "start")
        }
        guard let last = Self.dayNumber(end) else {
            throw .invalidArgument("a day is written YYYY-MM-DD", field: "end")
        }
        guard last >= first else { throw .invalidArgument("the last day is before the first", field: "end") }
        guard last - first < Self.maximumDays else {
            throw .invalidArgument("at most \(Self.maximumDays) days in one query", field: "end")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw .invalidArgument("unknown time zone \"\(timeZone)\"", field: "timeZone")
        }
    }

    /// The midnights (in `zone`) from the first day's through the day after the last's.
    public func midnights(in zone: TimeZone) throws(HealthError) -> [Date] {
        try validate()
        guard let first = CalendarDay.midnight(of: start, in: zone),
            let count = Self.dayNumber(end).flatMap({ last in Self.dayNumber(start).map { last - $0 + 1 } })
        else { throw .invalidArgument("a day is written YYYY-MM-DD", field: "start") }
        let intervals = StatisticsIntervals(anchorDate: first, components: IntervalComponents(day: 1), timeZone: zone)
        return intervals.boundaries(from: 0, through: count - 1)
    }

    /// Days since 0001-01-01 of a valid `YYYY-MM-DD` (proleptic Gregorian), or nil.
    static func dayNumber(_ day: String) -> Int? {
        let bytes = Array(day.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes.indices.allSatisfy({
                [4, 7].contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0])
            })
        else { return nil }
        let parts = day.split(separator: "-").map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let dayOfMonth = parts[2],
            (1...9999).contains(year), (1...12).contains(month)
        else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(dayOfMonth) else { return nil }
        let y = year - 1
        return y * 365 + y / 4 - y / 100 + y / 400 + lengths[..<(month - 1)].reduce(0, +) + dayOfMonth - 1
    }
}

/// Calendar days written `YYYY-MM-DD`, as activity summaries name them.
public enum CalendarDay {
    /// The day holding `date` in `zone`.
    public static func string(of date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The first instant of `day` in `zone`, or nil when `day` is not a valid `YYYY-MM-DD`.
    public static func midnight(of day: String, in zone: TimeZone) -> Date? {
        guard ActivitySummaryQueryDescriptor.dayNumber(day) != nil else { return nil }
        let parts = day.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }
}
