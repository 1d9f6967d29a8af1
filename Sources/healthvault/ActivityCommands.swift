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
            data are not shown.
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "The first day, YYYY-MM-DD (default: six days before the last).")
    var from: String?

    @Option(help: "The last day, YYYY-MM-DD (default: today).")
    var to: String?

    func run() async throws {
        let summaries = try await vault.withOwner { connection in
            let zone = try await connection.call(Method.settingsShow, Empty(), as: SettingsResult.self).timeZone
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
            func day(_ date: Date) -> String {
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            }
            let last = to ?? day(Date())
            var first = from
            if first == nil, let lastDate = Self.date(last, calendar) {
                first = day(calendar.date(byAdding: .day, value: -6, to: lastDate) ?? lastDate)
            }
            return try await connection.call(
                Method.queryActivitySummaries,
                ActivitySummaryQueryParams(query: ActivitySummaryQueryDescriptor(start: first ?? last, end: last)),
                as: ActivitySummariesResult.self
            ).summaries
        }
        if output.json { return try printJSON(summaries) }
        guard !summaries.isEmpty else { return print("No activity.") }
        func number(_ quantity: Quantity, _ unit: HealthUnit) -> String {
            let value = (try? quantity.doubleValue(for: unit)) ?? 0
            return String(Int(value.rounded()))
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

    static func date(_ day: String, _ calendar: Calendar) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }
}

/// The owner's daily activity goals.
struct Goals: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or set your daily activity goals (from today on; earlier days keep theirs)."
    )
    @OptionGroup var vault: VaultOptions

    @Option(help: "Active energy to burn, kcal.")
    var move: Double?

    @Option(help: "Exercise, minutes.")
    var exercise: Double?

    @Option(help: "Stand hours.")
    var stand: Double?

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
        print(
            "Goals: move \(Int(goals.activeEnergyBurned)) kcal, exercise \(Int(goals.exerciseMinutes)) min, "
                + "stand \(Int(goals.standHours)) h"
        )
    }
}
