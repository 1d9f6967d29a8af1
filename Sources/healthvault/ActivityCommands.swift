import ArgumentParser
import Foundation
import HealthModel
import VaultClient
import VaultProtocol

/// Daily activity: active energy, exercise minutes and stand hours beside the goals.
struct Activity: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Daily activity summaries: active energy, exercise minutes and stand hours, with your goals.",
        discussion: """
            Derived from every app's samples (docs/ACTIVITY.md). Days in your time zone; days without \
            data are not shown. --json prints one summary per line (docs/MODEL_JSON.md).

            Examples:
              healthvault activity
              healthvault activity --from -30d
              healthvault activity --from 2026-11-01 --to 2026-11-30 --json
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(parsing: .unconditional, help: .date("The first day, or a date in it (default: six days before the last)."))
    var from: DateArgument?

    @Option(parsing: .unconditional, help: .date("The last day, or a date in it (default: today)."))
    var to: DateArgument?

    func run() async throws {
        let summaries = try await vault.withOwner { [from, to] connection in
            let timeZone = try await ownerTimeZone(on: connection)
            let now = Date()
            let last = to?.day(in: timeZone, now: now) ?? CalendarDay.string(of: now, in: timeZone)
            var first = from?.day(in: timeZone, now: now)
            // Six days before the last: noon, so a 23- or 25-hour day never shifts the date.
            if first == nil, let lastMidnight = CalendarDay.midnight(of: last, in: timeZone) {
                first = CalendarDay.string(of: lastMidnight.addingTimeInterval(-6 * 86_400 + 12 * 3600), in: timeZone)
            }
            return try await connection.call(
                Method.queryActivitySummaries,
                ActivitySummaryQueryParams(query: ActivitySummaryQueryDescriptor(start: first ?? last, end: last)),
                as: ActivitySummariesResult.self
            ).summaries
        }
        if output.json { return try printJSONLines(summaries) }
        guard !summaries.isEmpty else { return print("No activity.") }
        func number(_ quantity: Quantity, _ unit: HealthUnit) -> String {
            ShownValue.number((try? quantity.doubleValue(for: unit)) ?? 0, in: unit)
        }
        for summary in summaries {
            print(
                "\(summary.day)  move \(number(summary.activeEnergyBurned, .kilocalorie))/"
                    + "\(number(summary.activeEnergyBurnedGoal, .kilocalorie)) kcal  exercise "
                    + "\(number(summary.appleExerciseTime, .minute))/\(number(summary.appleExerciseTimeGoal, .minute)) min"
                    + "  stand \(number(summary.appleStandHours, .count))/\(number(summary.appleStandHoursGoal, .count)) h"
            )
        }
    }
}

/// The owner's daily activity goals.
struct Goals: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or set your daily activity goals (from today on; earlier days keep theirs).",
        discussion: """
            Examples:
              healthvault goals
              healthvault goals --move 600 --stand 10
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(parsing: .unconditional, help: "Active energy to burn, kcal.")
    var move: Double?

    @Option(parsing: .unconditional, help: "Exercise, minutes.")
    var exercise: Double?

    @Option(parsing: .unconditional, help: "Stand hours.")
    var stand: Double?

    func validate() throws {
        // Said with the option's name and the range, before the daemon is asked (its limits,
        // docs/PROTOCOL.md, settings.setActivityGoals).
        func check(_ value: Double?, _ option: String, _ range: String, _ valid: (Double) -> Bool) throws {
            if let value, !valid(value) {
                throw ValidationError("\(option) \(Self.number(value)) is out of range: give \(range)")
            }
        }
        try check(move, "--move", "more than 0 and at most 100,000 kcal") { $0 > 0 && $0 <= 100_000 }
        try check(exercise, "--exercise", "more than 0 and at most 1,440 minutes") { $0 > 0 && $0 <= 1_440 }
        try check(stand, "--stand", "a whole number of hours from 1 to 24") {
            $0 >= 1 && $0 <= 24 && $0 == $0.rounded()
        }
    }

    static func number(_ value: Double) -> String { DecimalText.text(value) }

    func run() async throws {
        let goals = try await vault.withOwner { connection in
            let current = try await connection.call(Method.settingsShow, Empty(), as: SettingsResult.self).activityGoals
            if move != nil || exercise != nil || stand != nil {
                let updated = ActivityGoals(
                    activeEnergyBurned: move ?? current.activeEnergyBurned,
                    exerciseMinutes: exercise ?? current.exerciseMinutes,
                    standHours: stand ?? current.standHours
                )
                _ = try await connection.call(Method.settingsSetActivityGoals, updated, as: Empty.self)
                return updated
            }
            return current
        }
        if output.json { return try printJSON(goals) }
        print(
            "Goals: move \(ShownValue.number(goals.activeEnergyBurned, in: .kilocalorie)) kcal, exercise "
                + "\(ShownValue.number(goals.exerciseMinutes, in: .minute)) min, "
                + "stand \(ShownValue.number(goals.standHours, in: .count)) h"
        )
    }
}
