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
        discussion: """
            Examples:
              healthvault priority
              healthvault priority set steps org.example.watch org.example.phone
              healthvault priority reset steps
            """,
        subcommands: [Show.self, Set.self, Reset.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The orders you have set (one type, or all).",
            discussion: """
                --json prints one object per type with an order, {"type": identifier, "sources": [bundle id]}.

                Examples:
                  healthvault priority show
                  healthvault priority show steps --json
                """
        )
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
            let set = result.priorities.filter { !$0.value.isEmpty }
            if output.json {
                return try printJSONLines(
                    set.sorted(by: { $0.key < $1.key }).map { PriorityJSON(type: $0.key, sources: $0.value) }
                )
            }
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
            abstract: "Set a type's order: bundle identifiers, highest priority first.",
            discussion: "Example: healthvault priority set steps org.example.watch org.example.phone"
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

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
            if output.json { return try printJSON(PriorityJSON(type: quantityType.rawValue, sources: sources)) }
            print("\(quantityType.rawValue): \(sources.joined(separator: " > ")), then the rest.")
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Back to the default order for a type.",
            discussion: "Example: healthvault priority reset steps"
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

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
            if output.json { return try printJSON(PriorityJSON(type: quantityType.rawValue, sources: [])) }
            print("\(quantityType.rawValue): default order.")
        }
    }
}

/// One type's order of sources in `--json`: highest priority first; none for the default order.
struct PriorityJSON: Encodable {
    let type: String
    let sources: [String]
}

/// The owner's time zone, in which statistics count days.
struct Timezone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timezone",
        abstract: "Show or set your time zone: statistics count days, weeks and months in it.",
        discussion: """
            Dates are shown in it, and the days and local times you type are read in it \
            (2026-11-23, today, -7d).

            Examples:
              healthvault timezone
              healthvault timezone Europe/Paris
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

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
        if output.json { return try printJSON(["timeZone": result.timeZone]) }
        print("Time zone: \(result.timeZone)")
    }
}

/// Statistics per day (or another interval), as the owner sees every source: a quantity type's
/// sums or averages, a category type's counts and time per value (sleep per night).
struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Statistics of a type per interval: sums or averages of a quantity, time per value of a category.",
        discussion: """
            A quantity type: sums for cumulative types (steps, energy), overlapping sources merged \
            by priority (see `priority`); average, minimum and maximum for the others; in your \
            unit of the type (see `units`). A category type: per interval, the samples and the \
            time each value covers, overlapping samples counted once; sleep (sleepAnalysis) per \
            night, from noon to noon, with the time in bed, asleep (any asleep stage) and in each \
            stage. Intervals in your time zone (see `timezone`). Read as one audit entry.

            Examples:
              healthvault stats steps --from -7d
              healthvault stats heartRate --interval hour --from today
              healthvault stats weight --interval month --unit lb
              healthvault stats sleep --from -14d
              healthvault stats mindfulSession --interval week --json
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "A quantity or category type (steps, heartRate, sleepAnalysis, ...; see `healthvault types`).")
    var type: String

    @Option(
        help: """
            The interval: minute, hour, day, night (noon to noon), week (from Monday), month or year \
            (default: night for sleep, else day).
            """
    )
    var interval: String?

    @Option(parsing: .unconditional, help: .date("Samples ending at or after this date."))
    var from: DateArgument?

    @Option(parsing: .unconditional, help: .date("Samples starting before this date."))
    var to: DateArgument?

    @Option(help: "The unit to show a quantity in (kg, lb, st, bpm, degF, °F; default: your unit of the type).")
    var unit: String?

    /// An interval's length and the hour of the day intervals start at.
    static func components(_ name: String) throws -> (IntervalComponents, hour: Int) {
        switch name {
        case "minute": (IntervalComponents(minute: 1), 0)
        case "hour": (IntervalComponents(hour: 1), 0)
        case "day": (IntervalComponents(day: 1), 0)
        case "night": (IntervalComponents(day: 1), 12)
        case "week": (IntervalComponents(weekOfYear: 1), 0)
        case "month": (IntervalComponents(month: 1), 0)
        case "year": (IntervalComponents(year: 1), 0)
        default: throw ToolError("--interval is minute, hour, day, night, week, month or year, not \(name)")
        }
    }

    func run() async throws {
        let sampleType = try parseSampleType(type)
        try checkDateOrder(from: from, to: to)
        switch sampleType {
        case .quantity(let quantityType): try await quantityStatistics(quantityType)
        case .category(let categoryType): try await categoryStatistics(categoryType)
        default:
            throw ToolError(
                "\(ObjectType(sampleType).shortName) is a \(ObjectType(sampleType).kind) type; stats takes quantity and category types"
            )
        }
    }

    /// The anchor: a Monday (1 January 2001) at `hour`, in the owner's zone, so weeks start on
    /// Monday and days at midnight (nights at noon).
    static func anchor(hour: Int, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: 2001, month: 1, day: 1, hour: hour))!
    }

    func quantityStatistics(_ quantityType: QuantityTypeIdentifier) async throws {
        let intervalName = interval ?? "day"
        let (components, hour) = try Self.components(intervalName)
        var asked: HealthUnit?
        if let unit {
            asked = try parseUnit(unit, option: "--unit", for: quantityType)
            guard asked!.isCompatible(with: quantityType.canonicalUnit) else {
                throw ToolError(
                    "--unit: \(unit) does not measure \(quantityType.shortName) (its unit is \(quantityType.defaultUnit) or one like it)"
                )
            }
        }
        let options: StatisticsOptions =
            quantityType.aggregationStyle == .cumulative
            ? [.cumulativeSum] : [.discreteAverage, .discreteMin, .discreteMax]
        let (collection, preferred) = try await vault.withOwner { [from, to] connection in
            let zone = try await ownerTimeZone(on: connection)
            let predicate = try datePredicate(from: from, to: to, in: zone)
            // Without --unit, the owner's preferred unit of the type.
            let preferred = try await connection.call(
                Method.preferredUnits,
                PreferredUnitsParams(types: [quantityType]),
                as: PreferredUnitsResult.self
            ).units[quantityType.rawValue]
            let collection = try await connection.call(
                Method.queryStatisticsCollection,
                StatisticsCollectionQueryParams(
                    query: StatisticsCollectionQueryDescriptor(
                        quantityType: quantityType,
                        predicate: predicate,
                        options: options,
                        anchorDate: Self.anchor(hour: hour, in: zone),
                        intervalComponents: components
                    )
                ),
                as: StatisticsCollectionResult.self
            ).collection
            return (collection, preferred)
        }
        let shown = asked ?? preferred ?? quantityType.defaultUnit
        if output.json { return try printJSONLines(collection.statistics) }
        guard !collection.statistics.isEmpty else { return print("No samples.") }
        let formatter = Self.formatter(collection.timeZone, clock: components.hour > 0 || components.minute > 0)
        func text(_ quantity: Quantity?) throws -> String {
            guard let quantity else { return "-" }
            return ShownValue.number(try quantity.doubleValue(for: shown), in: shown)
        }
        print("\(quantityType.rawValue) per \(intervalName), \(shown), \(collection.timeZone)")
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

    func categoryStatistics(_ categoryType: CategoryTypeIdentifier) async throws {
        if unit != nil {
            throw ToolError("--unit: \(categoryType.shortName) is a category type; its values have no unit")
        }
        let intervalName = interval ?? (categoryType == .sleepAnalysis ? "night" : "day")
        let (components, hour) = try Self.components(intervalName)
        let collection = try await vault.withOwner { [from, to] connection in
            let zone = try await ownerTimeZone(on: connection)
            let predicate = try datePredicate(from: from, to: to, in: zone)
            return try await connection.call(
                Method.samplesCategoryStatistics,
                CategoryStatisticsQueryParams(
                    query: CategoryStatisticsQueryDescriptor(
                        categoryType: categoryType,
                        predicate: predicate,
                        anchorDate: Self.anchor(hour: hour, in: zone),
                        intervalComponents: components
                    )
                ),
                as: CategoryStatisticsResult.self
            ).collection
        }
        if output.json { return try printJSONLines(collection.statistics) }
        guard !collection.statistics.isEmpty else { return print("No samples.") }
        let formatter = Self.formatter(collection.timeZone, clock: components.hour > 0 || components.minute > 0)
        let set = categoryType.valueSet
        let values = Array(Set(collection.statistics.flatMap { $0.values.map(\.value) })).sorted()
        func name(_ value: Int) -> String { set.caseName(of: value) ?? "value \(value)" }
        var rows: [[String]]
        if categoryType == .sleepAnalysis {
            // The Health app's figures first: in bed, asleep; then each stage there is.
            let stages = values.filter { $0 != CategoryValueSleepAnalysis.inBed.rawValue }
            rows = [
                ["NIGHT OF", "IN BED", "ASLEEP"] + stages.map { Self.title(name($0)) } + ["SOURCES"]
            ]
            for statistics in collection.statistics {
                rows.append(
                    [
                        formatter.string(from: statistics.startDate),
                        Self.duration(statistics.statistics(of: CategoryValueSleepAnalysis.inBed.rawValue)?.duration),
                        Self.duration(statistics.asleepDuration),
                    ] + stages.map { Self.duration(statistics.statistics(of: $0)?.duration) }
                        + [statistics.sources.joined(separator: ", ")]
                )
            }
            if intervalName != "night" { rows[0][0] = intervalName.uppercased() }
        } else {
            // Each value: how many samples, and the time they cover.
            let named = set == .notApplicable ? [] : values
            rows = [
                [intervalName.uppercased(), "SAMPLES", "TIME"] + named.map { Self.title(name($0)) } + ["SOURCES"]
            ]
            for statistics in collection.statistics {
                rows.append(
                    [
                        formatter.string(from: statistics.startDate), String(statistics.count),
                        Self.duration(statistics.duration),
                    ]
                        + named.map { value in
                            guard let figures = statistics.statistics(of: value) else { return "-" }
                            return "\(figures.count) (\(Self.duration(figures.duration)))"
                        } + [statistics.sources.joined(separator: ", ")]
                )
            }
        }
        let title =
            categoryType == .sleepAnalysis && intervalName == "night"
            ? "Sleep per night (noon to noon)" : "\(categoryType.rawValue) per \(intervalName)"
        print("\(title), \(collection.timeZone)")
        print(table(rows))
    }

    /// `asleepCore` as a column title: `ASLEEP CORE`.
    static func title(_ name: String) -> String {
        var words = ""
        for character in name {
            if character.isUppercase, !words.isEmpty, !(words.last?.isUppercase ?? false) { words.append(" ") }
            words.append(character)
        }
        return words.uppercased()
    }

    /// Hours and minutes, `7:05`; `-` for none.
    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds > 0 else { return "-" }
        let minutes = Int((seconds / 60).rounded())
        return String(format: "%d:%02d", minutes / 60, minutes % 60)
    }

    /// Interval starts as the owner reads them: the day, and the time for clock intervals.
    static func formatter(_ zoneName: String, clock: Bool) -> DateFormatter {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zoneName) ?? .gmt
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = clock ? "yyyy-MM-dd HH:mm" : "yyyy-MM-dd"
        return formatter
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
        discussion: """
            `units` shows the types whose unit you chose; `units TYPE` one type's unit; `units \
            TYPE UNIT` sets one; `units TYPE --reset` goes back to its default unit (the \
            canonical unit, but heart rate and respiratory rate in count/min). A unit is \
            HealthKit's (kg, lb, st, degF, mi, count/min) or one of bpm, °F, °C, lbs, kph, mph \
            (docs/UNITS.md). --json prints one object per type, {"type": identifier, "unit": unit}.

            Examples:
              healthvault units
              healthvault units weight st
              healthvault units bodyTemperature °F
              healthvault units weight --reset
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "A quantity type (bodyMass, bodyTemperature, ...).")
    var type: String?

    @Argument(help: "A unit of the type (lb, st, degF, °F, bpm, mi, ...).")
    var unit: String?

    @Flag(help: "Go back to the type's default unit.")
    var reset = false

    func run() async throws {
        let quantityType = try type.map(parseQuantityType)
        if reset, unit != nil { throw ToolError("give a unit or --reset, not both") }
        let chosen = try unit.map { try parseUnit($0, option: nil, for: quantityType) }
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
        var shown: [(type: String, unit: HealthUnit)] = []
        for (identifier, unit) in units.sorted(by: { $0.key < $1.key }) {
            guard let type = QuantityTypeIdentifier(rawValue: identifier) else { continue }
            // Listing every type, only those the owner changed.
            if quantityType == nil, unit == type.defaultUnit { continue }
            shown.append((identifier, unit))
        }
        if output.json { return try printJSONLines(shown.map { ["type": $0.type, "unit": $0.unit.unitString] }) }
        print(
            shown.isEmpty
                ? "Every type in its default unit." : shown.map { "\($0.type)  \($0.unit)" }.joined(separator: "\n")
        )
    }
}
