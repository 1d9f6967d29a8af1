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

    /// The day's figures and goals as HealthModel's activity summary: energy in kilocalories,
    /// exercise in minutes, stand hours as a whole number. A missing figure counts 0 and a
    /// missing goal takes the standard goal's value; move time is left out (HealthModel has no
    /// place for it). Throws `invalidArgument` for a day that is not `YYYY-MM-DD`, a unit that
    /// is not an energy, or a figure that is not a number.
    public func activitySummary() throws(HealthError) -> ActivitySummary {
        guard let day = dateComponents, CalendarDay.midnight(of: day, in: .gmt) != nil else {
            throw .invalidArgument("the day is not written YYYY-MM-DD", field: "dateComponents")
        }
        let unit = try UnitCache.unit(activeEnergyBurnedUnit ?? "kcal")
        guard unit.isCompatible(with: .kilocalorie) else {
            throw .invalidArgument("unit \(unit) is not an energy", field: "activeEnergyBurnedUnit")
        }
        func number(_ text: String?, _ field: String) throws(HealthError) -> Double? {
            guard let text else { return nil }
            guard let value = ExportValues.number(text), value >= 0 else {
                throw .invalidArgument("not a number of at least 0", field: field)
            }
            return value
        }
        let energy = try number(activeEnergyBurned, "activeEnergyBurned") ?? 0
        let energyGoal = try number(activeEnergyBurnedGoal, "activeEnergyBurnedGoal")
        let standard = ActivityGoals.standard
        let goals = ActivityGoals(
            activeEnergyBurned: try energyGoal.map { value throws(HealthError) in
                try unit.convert(value, to: .kilocalorie)
            } ?? standard.activeEnergyBurned,
            exerciseMinutes: try number(appleExerciseTimeGoal, "appleExerciseTimeGoal") ?? standard.exerciseMinutes,
            standHours: try number(appleStandHoursGoal, "appleStandHoursGoal") ?? standard.standHours
        )
        return ActivitySummary(
            day: day,
            activeEnergyBurnedKilocalories: try unit.convert(energy, to: .kilocalorie),
            exerciseMinutes: try number(appleExerciseTime, "appleExerciseTime") ?? 0,
            standHours: Int(try number(appleStandHours, "appleStandHours") ?? 0),
            goals: goals
        )
    }
}
