import ArgumentParser
import CommandSupport
import Foundation
import HealthModel
import VaultClient
import VaultProtocol

/// Which source counts first when two record the same minutes (docs/STATISTICS.md).
struct Priority: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Order the sources of a type: when two record the same time, sums count the first.",
        subcommands: [Show.self, Set.self, Reset.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The orders you have set (one type, or all).")
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "A quantity type (all when omitted).")
        var type: String?

        func run() async throws {
            let quantityType = try type.map(parseQuantityType)
            let result = try await vault.withOwner {
                try await $0.call(
                    Method.sourcesPriority,
                    SourcePriorityParams(type: quantityType),
                    as: SourcePriorityResult.self
                )
            }
            if output.json { return try printJSON(result) }
            let set = result.priorities.filter { !$0.value.isEmpty }
            guard !set.isEmpty else {
                return print("Default order: sources in the order they first saved to the vault.")
            }
            for (type, sources) in set.sorted(by: { $0.key < $1.key }) {
                print("\(type)  \(sources.joined(separator: " > ")) (then the rest, oldest first)")
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a type's order: bundle identifiers, highest priority first."
        )
        @OptionGroup var vault: VaultOptions

        @Argument(help: "A quantity type.")
        var type: String

        @Argument(help: "Bundle identifiers, highest priority first.")
        var sources: [String]

        func run() async throws {
            let quantityType = try parseQuantityType(type)
            try await vault.withOwner {
                _ = try await $0.call(
                    Method.sourcesSetPriority,
                    SetSourcePriorityParams(type: quantityType, sources: sources),
                    as: Empty.self
                )
            }
            print("\(quantityType.rawValue): \(sources.joined(separator: " > ")), then the rest.")
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Back to the default order for a type.")
        @OptionGroup var vault: VaultOptions

        @Argument(help: "A quantity type.")
        var type: String

        func run() async throws {
            let quantityType = try parseQuantityType(type)
            try await vault.withOwner {
                _ = try await $0.call(
                    Method.sourcesSetPriority,
                    SetSourcePriorityParams(type: quantityType, sources: []),
                    as: Empty.self
                )
            }
            print("\(quantityType.rawValue): default order.")
        }
    }
}

/// The owner's time zone, in which statistics count days.
struct Timezone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timezone",
        abstract: "Show or set your time zone: statistics count days, weeks and months in it."
    )
    @OptionGroup var vault: VaultOptions

    @Argument(help: "An IANA time zone name (Europe/Paris) to set.")
    var zone: String?

    func run() async throws {
        let result = try await vault.withOwner { connection in
            if let zone {
                _ = try await connection.call(
                    Method.settingsSetTimeZone,
                    TimeZoneParams(timeZone: zone),
                    as: Empty.self
                )
            }
            return try await connection.call(Method.settingsShow, Empty(), as: SettingsResult.self)
        }
        print("Time zone: \(result.timeZone)")
    }
}

/// Statistics per day (or another interval), as the owner sees every source.
struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Statistics of a quantity type per interval: sums, or average, minimum and maximum.",
        discussion: """
            Sums for cumulative types (steps, energy), overlapping sources merged by priority; \
            average, minimum and maximum for the others. Intervals in your time zone.
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "A quantity type (stepCount, heartRate, ...).")
    var type: String

    @Option(help: "The interval: minute, hour, day, week, month or year.")
    var interval: String = "day"

    @Option(help: "Samples ending at or after this date.")
    var from: String?

    @Option(help: "Samples starting before this date.")
    var to: String?

    @Option(help: "The unit to show values in (defaults to your preferred unit of the type, see `units`).")
    var unit: String?

    func run() async throws {
        let quantityType = try parseQuantityType(type)
        let components: IntervalComponents =
            switch interval {
            case "minute": IntervalComponents(minute: 1)
            case "hour": IntervalComponents(hour: 1)
            case "day": IntervalComponents(day: 1)
            case "week": IntervalComponents(weekOfYear: 1)
            case "month": IntervalComponents(month: 1)
            case "year": IntervalComponents(year: 1)
            default: throw ToolError("--interval is minute, hour, day, week, month or year, not \(interval)")
            }
        var asked: HealthUnit?
        do {
            asked = try unit.map { try HealthUnit(from: $0) }
            if let asked { _ = try Quantity(0, quantityType.canonicalUnit).doubleValue(for: asked) }
        } catch {
            throw ToolError("--unit: \((error as? HealthError)?.message ?? "\(error)")")
        }
        var predicate: SamplePredicate?
        if from != nil || to != nil {
            predicate = .date(start: try from.map(parseDate), end: try to.map(parseDate), options: [])
        }
        let options: StatisticsOptions =
            quantityType.aggregationStyle == .cumulative
            ? [.cumulativeSum] : [.discreteAverage, .discreteMin, .discreteMax]
        // Anchored on a Monday midnight in 2001, so weeks start on Monday, days at midnight.
        let (collection, preferred) = try await vault.withOwner { connection in
            let zone = try await connection.call(Method.settingsShow, Empty(), as: SettingsResult.self).timeZone
            // Without --unit, the owner's preferred unit of the type.
            let preferred = try await connection.call(
                Method.preferredUnits,
                PreferredUnitsParams(types: [quantityType]),
                as: PreferredUnitsResult.self
            ).units[quantityType.rawValue]
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
            let anchor = calendar.date(from: DateComponents(year: 2001, month: 1, day: 1))!
            let collection = try await connection.call(
                Method.queryStatisticsCollection,
                StatisticsCollectionQueryParams(
                    query: StatisticsCollectionQueryDescriptor(
                        quantityType: quantityType,
                        predicate: predicate,
                        options: options,
                        anchorDate: anchor,
                        intervalComponents: components,
                        timeZone: zone
                    )
                ),
                as: StatisticsCollectionResult.self
            ).collection
            return (collection, preferred)
        }
        let shown = asked ?? preferred ?? quantityType.canonicalUnit
        if output.json { return try printJSON(collection) }
        guard !collection.statistics.isEmpty else { return print("No samples.") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: collection.timeZone) ?? .gmt
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = components.hour > 0 || components.minute > 0 ? "yyyy-MM-dd HH:mm" : "yyyy-MM-dd"
        func text(_ quantity: Quantity?) throws -> String {
            guard let quantity else { return "-" }
            let value = try quantity.doubleValue(for: shown)
            return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.2f", value)
        }
        print("\(quantityType.rawValue) per \(interval), \(shown), \(collection.timeZone)")
        for statistics in collection.statistics {
            let values = statistics.values
            let line =
                quantityType.aggregationStyle == .cumulative
                ? "sum \(try text(values.sum))"
                : "avg \(try text(values.average))  min \(try text(values.minimum))  max \(try text(values.maximum))"
            let sources = statistics.sources.map(\.bundleIdentifier).joined(separator: ", ")
            print("\(formatter.string(from: statistics.startDate))  \(line)  [\(sources)]")
        }
    }
}

func parseQuantityType(_ name: String) throws -> QuantityTypeIdentifier {
    guard case .quantity(let id) = try parseSampleType(name) else {
        throw ToolError("\(name) is not a quantity type")
    }
    return id
}

/// The owner's preferred units: what `stats` shows, and what apps are told to display.
struct Units: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or set your preferred unit of a quantity type (apps display values in it).",
        discussion:
            "`units` shows the types whose unit you chose; `units TYPE UNIT` sets one; `units TYPE --reset` goes back."
    )
    @OptionGroup var vault: VaultOptions

    @Argument(help: "A quantity type (bodyMass, bodyTemperature, ...).")
    var type: String?

    @Argument(help: "A unit of the type (lb, degF, mi, ...).")
    var unit: String?

    @Flag(help: "Go back to the type's default unit (heart rate and respiratory rate per minute).")
    var reset = false

    func run() async throws {
        let quantityType = try type.map(parseQuantityType)
        if reset, unit != nil { throw ToolError("give a unit or --reset, not both") }
        let chosen: HealthUnit?
        do {
            chosen = try unit.map { try HealthUnit(from: $0) }
        } catch {
            throw ToolError("\(unit ?? ""): \((error as? HealthError)?.message ?? "\(error)")")
        }
        let units = try await vault.withOwner { connection in
            if let quantityType, chosen != nil || reset {
                _ = try await connection.call(
                    Method.settingsSetPreferredUnit,
                    PreferredUnitParams(type: quantityType, unit: chosen),
                    as: Empty.self
                )
            }
            let types = quantityType.map { [$0] } ?? QuantityTypeIdentifier.allCases
            return try await connection.call(
                Method.preferredUnits,
                PreferredUnitsParams(types: types),
                as: PreferredUnitsResult.self
            ).units
        }
        var lines: [String] = []
        for (identifier, unit) in units.sorted(by: { $0.key < $1.key }) {
            guard let type = QuantityTypeIdentifier(rawValue: identifier) else { continue }
            // Listing every type, only those the owner changed.
            if quantityType == nil, unit == type.defaultUnit { continue }
            lines.append("\(identifier)  \(unit)")
        }
        print(lines.isEmpty ? "Every type in its default unit." : lines.joined(separator: "\n"))
    }
}
