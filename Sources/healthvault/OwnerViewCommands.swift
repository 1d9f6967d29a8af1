import ArgumentParser
import CommandSupport
import Foundation
import HealthInterchange
import HealthModel
import VaultClient
import VaultProtocol

/// The owner's view of what the vault holds (issue 20): per type at a glance, and the samples of
/// one type, every app's (and every import's), read through the daemon as the other reads are.
struct DataSummary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "What the vault holds: per type, how many samples, from when to when, and from which sources.",
        discussion: """
            Dates in your time zone (see `timezone`). Counts include a correlation's members under \
            their own types. `samples list TYPE` shows the samples of one type.

            Examples:
              healthvault data
              healthvault data --json
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let (summary, view) = try await vault.withOwner { connection in
            let summary = try await connection.call(Method.samplesSummary, Empty(), as: SamplesSummaryResult.self)
            return (summary, try await WorkoutView.load(for: [], on: connection))
        }
        if output.json { return try printJSONLines(summary.types) }
        guard !summary.types.isEmpty else { return print("The vault holds no samples.") }
        var rows = [["TYPE", "SAMPLES", "FIRST (\(view.zoneName))", "LAST", "SOURCES"]]
        for type in summary.types {
            rows.append([
                shortName(type.type),
                String(type.count),
                view.date(type.firstStart, seconds: false),
                view.date(type.lastStart, seconds: false),
                type.sources.map { "\($0.name) (\($0.count))" }.joined(separator: ", "),
            ])
        }
        print(table(rows))
    }
}

extension Samples {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The samples of one type, newest first: dates, value in your unit, source, UUID.",
            discussion: """
                Dates in your time zone (see `timezone`), values in your unit of the type (see `units`).

                Examples:
                  healthvault samples list steps --from today
                  healthvault samples list heartRate --from -12h --limit 0
                  healthvault samples list weight --from 2026-01-01 --to 2026-07-01 --json
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The type: a short name (stepCount, heartRate, sleepAnalysis, bloodPressure) or an identifier.")
        var type: String

        @Option(parsing: .unconditional, help: .date("Samples ending at or after this date."))
        var from: DateArgument?

        @Option(parsing: .unconditional, help: .date("Samples starting before this date."))
        var to: DateArgument?

        @Option(help: "Only this source's samples (its bundle identifier, as `data` lists them).")
        var source: String?

        @Option(parsing: .unconditional, help: "At most this many (the newest); 0 for all.")
        var limit: Int = 100

        func run() async throws {
            guard limit >= 0 else { throw ToolError("--limit must be 0 (all) or more, not \(limit)") }
            let sampleType = try parseSampleType(type)
            try checkDateOrder(from: from, to: to)
            let (samples, view) = try await vault.withOwner { [from, to, source, limit] connection in
                var conditions: [SamplePredicate] = []
                if let dates = try await datePredicate(from: from, to: to, on: connection) { conditions.append(dates) }
                if let source { conditions.append(.sources([source])) }
                let query = SampleQueryDescriptor(
                    predicates: [
                        SampleTypePredicate(sampleType, predicate: conditions.isEmpty ? nil : .and(conditions))
                    ],
                    sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)],
                    limit: limit
                )
                let samples = try await connection.call(
                    Method.querySamples,
                    SampleQueryParams(query: query),
                    as: SamplesResult.self
                ).samples
                return (samples, try await WorkoutView.load(for: [], on: connection, types: quantityTypes(of: samples)))
            }
            if output.json { return try printJSONLines(samples) }
            guard !samples.isEmpty else { return print("No \(shortName(sampleType)) samples.") }
            var rows = [["START (\(view.zoneName))", "END", "VALUE", "SOURCE", "UUID"]]
            for sample in samples {
                rows.append([
                    view.date(sample.startDate),
                    view.date(sample.endDate),
                    value(of: sample, view),
                    sample.sourceRevision.source.name,
                    sample.uuid.uuidString,
                ])
            }
            print(table(rows))
        }

        /// A sample's value as a person reads it: a quantity in the owner's unit (``ShownValue``), a
        /// category's value by name, a correlation's members, a workout's type and duration, a vision
        /// prescription's kind (and a contacts prescription's brand).
        func value(of sample: Sample, _ view: WorkoutView) -> String {
            switch sample {
            case .quantity(let quantity):
                let unit = view.units[quantity.quantityType] ?? quantity.quantityType.canonicalUnit
                return ShownValue.text(quantity.quantity, in: unit)
            case .category(let category):
                // By name, as `samples add` takes it (asleepCore); the number where the set has none.
                return category.categoryType.valueSet.caseName(of: category.value) ?? "value \(category.value)"
            case .correlation(let correlation):
                return correlation.objects.compactMap { member -> String? in
                    guard case .quantity(let quantity) = member else { return nil }
                    return value(of: .quantity(quantity), view)
                }
                .joined(separator: " / ")
            case .workout(let workout):
                return "\(workout.workoutActivityType.name), \(WorkoutView.duration(workout.duration))"
            case .visionPrescription(let prescription):
                return prescription.prescriptionType.word + (prescription.brand.map { ", \($0)" } ?? "")
            default:
                return sample.sampleType.identifier
            }
        }

    }
}

/// `stepCount` for `HKQuantityTypeIdentifierStepCount`, as the commands take it.
func shortName(_ type: SampleType) -> String { TypeNames.shortName(of: type) }

/// The quantity types among samples (correlation members included).
func quantityTypes(of samples: [Sample]) -> Set<QuantityTypeIdentifier> {
    var types: Set<QuantityTypeIdentifier> = []
    for sample in samples {
        switch sample {
        case .quantity(let quantity): types.insert(quantity.quantityType)
        case .correlation(let correlation):
            for case .quantity(let member) in correlation.objects { types.insert(member.quantityType) }
        default: break
        }
    }
    return types
}
