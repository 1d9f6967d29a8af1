import Foundation
public import HealthModel

/// An `<ActivitySummary>` as written: one day's rings and goals; and its conversion to
/// HealthModel's ``HealthModel/ActivitySummary``.
public struct AppleHealthActivitySummary: Hashable, Sendable {
    /// The day, `YYYY-MM-DD`.
    public var dateComponents: String?
    public var activeEnergyBurned: String?
    public var activeEnergyBurnedGoal: String?
    /// The energy unit (`kcal`, `Cal`, `kJ`).
    public var activeEnergyBurnedUnit: String?
    /// Move minutes, for a move goal in time (HealthModel has no place for them).
    public var appleMoveTime: String?
    public var appleMoveTimeGoal: String?
    /// Minutes.
    public var appleExerciseTime: String?
    public var appleExerciseTimeGoal: String?
    /// Hours.
    public var appleStandHours: String?
    public var appleStandHoursGoal: String?
    public var otherAttributes: [AppleHealthAttribute]
    public var byteOffset: Int

    public init(
        dateComponents: String?,
        activeEnergyBurned: String? = nil,
        activeEnergyBurnedGoal: String? = nil,
        activeEnergyBurnedUnit: String? = nil,
        appleMoveTime: String? = nil,
        appleMoveTimeGoal: String? = nil,
        appleExerciseTime: String? = nil,
        appleExerciseTimeGoal: String? = nil,
        appleStandHours: String? = nil,
        appleStandHoursGoal: String? = nil,
        otherAttributes: [AppleHealthAttribute] = [],
        byteOffset: Int = 0
    ) {
        self.dateComponents = dateComponents
        self.activeEnergyBurned = activeEnergyBurned
        self.activeEnergyBurnedGoal = activeEnergyBurnedGoal
        self.activeEnergyBurnedUnit = activeEnergyBurnedUnit
        self.appleMoveTime = appleMoveTime
        self.appleMoveTimeGoal = appleMoveTimeGoal
        self.appleExerciseTime = appleExerciseTime
        self.appleExerciseTimeGoal = appleExerciseTimeGoal
        self.appleStandHours = appleStandHours
        self.appleStandHoursGoal = appleStandHoursGoal
        self.otherAttributes = otherAttributes
        self.byteOffset = byteOffset
    }

    /// The summary's identity: its day (an export holds one summary per day).
    public var identity: AppleHealthIdentity {
        AppleHealthIdentity(element: "ActivitySummary", fields: [dateComponents])
    }

    /// The day's goals: energy in kilocalories, exercise in minutes, stand hours; a missing goal
    /// takes the standard goal's value. (A goal of 0, which phones write for days without a
    /// watch, is kept: HealthModel's goals refuse it, so such a day gives no goals.) Throws
    /// `invalidArgument` for a unit that is not an energy or a goal that is not a number.
    public func goals() throws(HealthError) -> ActivityGoals {
        let unit = try energyUnit()
        let standard = ActivityGoals.standard
        return ActivityGoals(
            activeEnergyBurned: try Self.number(activeEnergyBurnedGoal, "activeEnergyBurnedGoal").map {
                value throws(HealthError) in try unit.convert(value, to: .kilocalorie)
            } ?? standard.activeEnergyBurned,
            exerciseMinutes: try Self.number(appleExerciseTimeGoal, "appleExerciseTimeGoal")
                ?? standard.exerciseMinutes,
            standHours: try Self.number(appleStandHoursGoal, "appleStandHoursGoal") ?? standard.standHours
        )
    }

    private func energyUnit() throws(HealthError) -> HealthUnit {
        let unit = try UnitCache.unit(activeEnergyBurnedUnit ?? "kcal")
        guard unit.isCompatible(with: .kilocalorie) else {
            throw .invalidArgument("unit \(unit) is not an energy", field: "activeEnergyBurnedUnit")
        }
        return unit
    }

    private static func number(_ text: String?, _ field: String) throws(HealthError) -> Double? {
        guard let text else { return nil }
        guard let value = ExportValues.number(text), value >= 0 else {
            throw .invalidArgument("not a number of at least 0", field: field)
        }
        return value
    }

    /// The day's figures and goals as HealthModel's activity summary: energy in kilocalories,
    /// exercise in minutes, stand hours as a whole number. A missing figure counts 0 and a
    /// missing goal takes the standard goal's value (``goals()``); move time is left out
    /// (HealthModel has no place for it). Throws `invalidArgument` for a day that is not
    /// `YYYY-MM-DD`, a unit that is not an energy, or a figure that is not a number.
    public func activitySummary() throws(HealthError) -> ActivitySummary {
        guard let day = dateComponents, CalendarDay.midnight(of: day, in: .gmt) != nil else {
            throw .invalidArgument("the day is not written YYYY-MM-DD", field: "dateComponents")
        }
        let unit = try energyUnit()
        let energy = try Self.number(activeEnergyBurned, "activeEnergyBurned") ?? 0
        return ActivitySummary(
            day: day,
            activeEnergyBurnedKilocalories: try unit.convert(energy, to: .kilocalorie),
            exerciseMinutes: try Self.number(appleExerciseTime, "appleExerciseTime") ?? 0,
            standHours: Int(try Self.number(appleStandHours, "appleStandHours") ?? 0),
            goals: try goals()
        )
    }
}
