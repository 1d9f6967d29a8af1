import ArgumentParser
import CommandSupport
import Foundation
import HealthModel
import VaultClient
import VaultProtocol

/// The owner's view of workouts (docs/WORKOUTS.md): every app's, read through the daemon as the
/// other read commands do.
struct Workouts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Your workouts: a list, newest first, and everything about one.",
        discussion: """
            Dates in your time zone (see `timezone`), distances, energy and heart rate in your \
            preferred units (see `units`). `show` gives a workout's route (how many locations, \
            when); `list` does not, as that would take a read of the vault per workout.

            Examples:
              healthvault workouts --from -30d
              healthvault workouts show 266BD54A-9933-4A98-AABC-729AA6A1AD76
            """,
        subcommands: [List.self, Show.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One line per workout, newest first: type, duration, distance, energy, heart rate, laps.",
            discussion: """
                --json prints each workout as docs/MODEL_JSON.md writes it, one per line.

                Examples:
                  healthvault workouts list --from -7d
                  healthvault workouts list --from 2026-11-01 --to 2026-12-01 --limit 0 --json
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Option(parsing: .unconditional, help: .date("Workouts ending at or after this date."))
        var from: DateArgument?

        @Option(parsing: .unconditional, help: .date("Workouts starting before this date."))
        var to: DateArgument?

        @Option(parsing: .unconditional, help: "At most this many (the newest); 0 for all.")
        var limit: Int = 100

        func run() async throws {
            guard limit >= 0 else { throw ToolError("--limit must be 0 (all) or more, not \(limit)") }
            try checkDateOrder(from: from, to: to)
            let (workouts, view) = try await vault.withOwner { [from, to, limit] connection in
                let query = SampleQueryDescriptor(
                    predicates: [
                        SampleTypePredicate(
                            .workout,
                            predicate: try await datePredicate(from: from, to: to, on: connection)
                        )
                    ],
                    sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)],
                    limit: limit
                )
                let workouts = try await connection.call(
                    Method.querySamples,
                    SampleQueryParams(query: query),
                    as: SamplesResult.self
                ).samples.compactMap(\.workout)
                return (workouts, try await WorkoutView.load(for: workouts, on: connection))
            }
            if output.json { return try printJSONLines(workouts) }
            guard !workouts.isEmpty else { return print("No workouts.") }
            var rows = [["START (\(view.zoneName))", "TYPE", "DURATION", "DISTANCE", "ENERGY", "AVG HR", "LAPS"]]
            for workout in workouts {
                rows.append([
                    view.date(workout.startDate, seconds: false),
                    workout.workoutActivityType.name,
                    WorkoutView.duration(workout.duration),
                    view.text(workout.totalDistance, as: workout.workoutActivityType.distanceType),
                    view.text(workout.totalEnergyBurned, as: .activeEnergyBurned),
                    view.text(workout.statistics(for: .heartRate)?.averageQuantity(), as: .heartRate),
                    String(workout.workoutEvents.filter { $0.type == .lap }.count),
                ])
            }
            print(table(rows))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Everything about one workout: totals, events, activities, statistics, metadata, its samples.",
            discussion: """
                --json prints one object, {"workout": ..., "associatedSamples": {type: count}}.

                Example: healthvault workouts show 266BD54A-9933-4A98-AABC-729AA6A1AD76
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The workout's UUID.")
        var uuid: String

        func run() async throws {
            guard let id = UUID(uuidString: uuid) else { throw ToolError("\(uuid) is not a UUID") }
            let (workout, samples, view) = try await vault.withOwner { connection in
                let sample = try await connection.call(
                    Method.queryObject,
                    ObjectParams(uuid: id),
                    as: ObjectResult.self
                )
                .sample
                guard let sample else { throw ToolError("no workout has the UUID \(id.uuidString)") }
                guard let workout = sample.workout else {
                    throw ToolError("\(id.uuidString) is a \(sample.sampleType) sample, not a workout")
                }
                // The samples associated with it: HealthKit's predicateForObjects(from:), any type.
                let samples = try await connection.call(
                    Method.querySamples,
                    SampleQueryParams(
                        query: SampleQueryDescriptor(
                            predicates: SampleType.allTypes.map {
                                SampleTypePredicate($0, predicate: .objects(from: workout))
                            }
                        )
                    ),
                    as: SamplesResult.self
                ).samples
                return (workout, samples, try await WorkoutView.load(for: [workout], on: connection))
            }
            var associated: [String: Int] = [:]
            for sample in samples { associated[sample.sampleType.identifier, default: 0] += 1 }
            if output.json { return try printJSON(WorkoutJSON(workout: workout, associatedSamples: associated)) }
            let routes = samples.compactMap { sample -> WorkoutRoute? in
                if case .workoutRoute(let route) = sample { return route }
                return nil
            }
            print(view.describe(workout, associated: associated, routes: routes))
        }
    }

    /// `workouts show --json`: the workout as docs/MODEL_JSON.md writes it, and how many samples
    /// of each type are associated with it.
    struct WorkoutJSON: Encodable {
        let workout: Workout
        let associatedSamples: [String: Int]
    }
}

/// How the owner sees workouts: dates in their time zone, quantities in their preferred units.
struct WorkoutView {
    /// As the owner named it (`UTC` stays `UTC`).
    let zoneName: String
    let timeZone: TimeZone
    let units: [QuantityTypeIdentifier: HealthUnit]

    /// The owner's time zone and preferred units of every type these workouts show.
    static func load(
        for workouts: [Workout],
        on connection: VaultConnection,
        types more: Set<QuantityTypeIdentifier> = []
    ) async throws -> WorkoutView {
        var types: Set<QuantityTypeIdentifier> = more.union([.activeEnergyBurned, .heartRate])
        for workout in workouts {
            if let distance = workout.workoutActivityType.distanceType { types.insert(distance) }
            types.formUnion(workout.allStatistics.map(\.quantityType))
            for activity in workout.workoutActivities {
                types.formUnion(activity.allStatistics.map(\.quantityType))
            }
        }
        let zone = try await connection.call(Method.settingsShow, Empty(), as: SettingsResult.self).timeZone
        let preferred = try await connection.call(
            Method.preferredUnits,
            PreferredUnitsParams(types: types.sorted { $0.rawValue < $1.rawValue }),
            as: PreferredUnitsResult.self
        ).units
        var units: [QuantityTypeIdentifier: HealthUnit] = [:]
        for (identifier, unit) in preferred {
            if let type = QuantityTypeIdentifier(rawValue: identifier) { units[type] = unit }
        }
        return WorkoutView(zoneName: zone, timeZone: TimeZone(identifier: zone) ?? .gmt, units: units)
    }

    func date(_ date: Date, seconds: Bool = true) -> String {
        let formatter = DateFormatter()
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = seconds ? "yyyy-MM-dd HH:mm:ss" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// `h:mm:ss`.
    static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(max(0, seconds).rounded())
        return String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }

    /// A quantity in the owner's unit of `type` (its own unit when no type says which), or "-".
    func text(_ quantity: Quantity?, as type: QuantityTypeIdentifier?, unit: Bool = true) -> String {
        guard let quantity else { return "-" }
        let shown = type.flatMap { units[$0] ?? $0.canonicalUnit } ?? quantity.unit
        guard let value = try? quantity.doubleValue(for: shown) else { return "\(quantity)" }
        return ShownValue.number(value, in: shown) + (unit ? " \(shown)" : "")
    }

    /// One statistics line: a sum, or average, minimum and maximum, with the sources.
    func text(_ statistics: Statistics) -> String {
        let type = statistics.quantityType
        let values =
            type.aggregationStyle == .cumulative
            ? "sum \(text(statistics.sumQuantity(), as: type))"
            : "avg \(text(statistics.averageQuantity(), as: type, unit: false))  "
                + "min \(text(statistics.minimumQuantity(), as: type, unit: false))  "
                + "max \(text(statistics.maximumQuantity(), as: type))"
        return "\(values)  [\(statistics.sources.map(\.bundleIdentifier).joined(separator: ", "))]"
    }

    /// `workouts show`: the workout in sections.
    func describe(_ workout: Workout, associated: [String: Int], routes: [WorkoutRoute]) -> String {
        let start = workout.startDate
        let span = workout.endDate.timeIntervalSince(start)
        let source = workout.sourceRevision
        var lines = ["Workout \(workout.uuid.uuidString): \(workout.workoutActivityType.name)"]
        var facts = [
            [
                "Source",
                (source.source.name == source.source.bundleIdentifier
                    ? source.source.name : "\(source.source.name) (\(source.source.bundleIdentifier))")
                    + (source.version.map { ", version \($0)" } ?? ""),
            ],
            ["Start", "\(date(start)) \(zoneName)"],
            ["End", "\(date(workout.endDate)) \(zoneName)"],
            ["Duration", "\(Self.duration(workout.duration)) of \(Self.duration(span))"],
            ["Distance", text(workout.totalDistance, as: workout.workoutActivityType.distanceType)],
            ["Energy", text(workout.totalEnergyBurned, as: .activeEnergyBurned)],
        ]
        if let heart = workout.statistics(for: .heartRate) {
            facts.append(["Heart rate", text(heart)])
        }
        facts.append(["Laps", String(workout.workoutEvents.filter { $0.type == .lap }.count)])
        // Each route: how many locations, and when (its first and last), from the workout's start.
        let route = routes.sorted { $0.startDate < $1.startDate }.map { route in
            "\(route.count) location\(route.count == 1 ? "" : "s"), "
                + "\(Self.duration(route.startDate.timeIntervalSince(start)))-"
                + "\(Self.duration(route.endDate.timeIntervalSince(start)))"
        }
        facts.append(["Route", route.isEmpty ? "none" : route.joined(separator: "; ")])
        if let device = workout.device, let name = device.name ?? device.model ?? device.manufacturer {
            facts.append(["Device", name])
        }
        lines.append(table(facts))

        func offset(_ date: Date) -> String { Self.duration(date.timeIntervalSince(start)) }
        /// Rows aligned in columns under `indent`.
        func rows(_ rows: [[String]], indent: String = "  ") -> [String] {
            table(rows).split(separator: "\n").map { indent + $0 }
        }
        func section(_ title: String, _ content: [String]) {
            lines.append("\n\(title)")
            lines += content.isEmpty ? ["  none"] : content
        }
        /// Events by their time from the workout's start.
        func events(_ events: [WorkoutEvent]) -> [[String]] {
            events.map { event in
                let span = "\(offset(event.startDate))" + (event.duration > 0 ? "-\(offset(event.endDate))" : "")
                return [span, "\(event.type)" + (event.metadata.isEmpty ? "" : "  " + Self.text(event.metadata))]
            }
        }

        section("Events (time from the start)", rows(events(workout.workoutEvents)))
        var activities: [String] = []
        for (index, activity) in workout.workoutActivities.enumerated() {
            let end = activity.endDate ?? workout.endDate
            activities.append(
                "  \(index + 1). \(activity.workoutConfiguration.activityType.name)  "
                    + "\(offset(activity.startDate))-\(offset(end))  "
                    + "(\(Self.duration(end.timeIntervalSince(activity.startDate))))"
            )
            activities += rows(activity.allStatistics.map { [$0.quantityType.rawValue, text($0)] }, indent: "     ")
            activities += rows(events(activity.workoutEvents), indent: "     ")
            if !activity.metadata.isEmpty { activities.append("     metadata: \(Self.text(activity.metadata))") }
        }
        section("Activities", activities)
        section("Statistics", rows(workout.allStatistics.map { [$0.quantityType.rawValue, text($0)] }))
        let metadata = workout.metadata.sorted { $0.key.rawValue < $1.key.rawValue }
        section("Metadata", rows(metadata.map { [$0.key.rawValue, Self.text($0.value)] }))
        section(
            "Samples of the workout",
            rows(associated.sorted { $0.key < $1.key }.map { [$0.key, String($0.value)] })
        )
        return lines.joined(separator: "\n")
    }

    static func text(_ value: MetadataValue) -> String {
        switch value {
        case .string(let string): string
        case .number(let number): DecimalText.text(number)
        case .date(let date): timestamp(date)
        case .quantity(let quantity): ShownValue.text(quantity, in: quantity.unit)
        }
    }

    static func text(_ metadata: Metadata) -> String {
        metadata.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\(text($0.value))" }
            .joined(separator: " ")
    }
}

extension Sample {
    var workout: Workout? {
        if case .workout(let workout) = self { return workout }
        return nil
    }
}

extension WorkoutActivityType {
    /// The activity as people say it: `running`, `functionalStrengthTraining`.
    var name: String { "\(self)" }
}
