import ArgumentParser
import CommandSupport
import Foundation
import HealthInterchange
import HealthModel
import VaultClient
import VaultProtocol

extension Samples {
    /// The owner's own entries (docs/ACCESS_RULES.md, "The owner's entries"), saved through the
    /// daemon's `samples.add` under the source `owner:healthvault` ("HealthVault").
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enter a sample yourself: a weight, a blood pressure, a night's sleep, a workout.",
            discussion: """
                A category value is its name (asleepCore, asleepREM, awake, inBed, ...), HealthKit's \
                constant, or its number. Units: HealthKit's (kg, lb, st, mmHg, count/min, degF) or \
                bpm, °F, °C, lbs; without one, your unit of the type (see `units`). Dates: \
                \(DateArgument.formats), days and local times in your time zone; without one, now. \
                Each entry is marked HKWasUserEntered = 1, and stored under the source HealthVault \
                (owner:healthvault), which apps that may read the type see.

                Examples:
                  healthvault samples add weight 72.5 kg
                  healthvault samples add bodyMass 11.5 st
                  healthvault samples add heartRate 62 bpm --at 2026-11-23T08:00
                  healthvault samples add bodyTemperature 98.6 °F --at today
                  healthvault samples add bloodPressure 120/80 mmHg --at 2026-11-23T08:00:00Z
                  healthvault samples add sleep asleepCore --from "2026-11-22 23:00" --to "2026-11-23 06:30"
                  healthvault samples add workout running --from -1h --to now
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The type: a short name (bodyMass, bloodPressure, sleepAnalysis, workout) or an identifier.")
        var type: String

        @Argument(help: "The value: a number, systolic/diastolic, a category value's name, a workout's activity.")
        var value: String

        @Argument(help: "The unit (kg, lb, st, mmHg, bpm, °F); without it, your preferred unit for the type.")
        var unit: String?

        @Option(parsing: .unconditional, help: .date("When it was measured (default: now)."))
        var at: DateArgument?

        @Option(parsing: .unconditional, help: .date("When it began (with --to; --to defaults to now)."))
        var from: DateArgument?

        @Option(parsing: .unconditional, help: .date("When it ended."))
        var to: DateArgument?

        @Option(parsing: .upToNextOption, help: "Metadata, KEY=VALUE (a number, or text), as many as you like.")
        var metadata: [String] = []

        func validate() throws {
            if at != nil, from != nil || to != nil { throw ValidationError("give --at, or --from and --to, not both") }
            if to != nil, from == nil { throw ValidationError("--to needs --from") }
        }

        func run() async throws {
            let sampleType = try parseSampleType(type)
            let now = Date()
            // --to before --from, said before anything is asked when that does not depend on the
            // owner's time zone; otherwise once the zone is known.
            let endsBeforeStart = ToolError(
                "--to \(to?.text ?? "(now)") is before --from \(from?.text ?? ""): a sample ends after it starts"
            )
            if let from, let to, from.isAfter(to) == true { throw endsBeforeStart }
            if sampleType == .workout, from == nil {
                throw ToolError("a workout needs --from and --to")
            }
            var entered: Metadata = [:]
            for pair in metadata {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw ToolError("--metadata takes KEY=VALUE")
                }
                let text = String(pair[pair.index(after: equals)...])
                entered[MetadataKey(String(pair[..<equals]))] = Double(text).map(MetadataValue.number) ?? .string(text)
            }
            entered[.wasUserEntered] = .bool(true)
            // The unit the owner shows the type in, when none is given.
            let unitType: QuantityTypeIdentifier? =
                switch sampleType {
                case .quantity(let quantityType): quantityType
                case .correlation(.bloodPressure): .bloodPressureSystolic
                default: nil
                }
            // A unit that does not parse fails before the passphrase is asked for.
            if let unit, unitType != nil { _ = try parseUnit(unit, option: "unit") }
            let metadata = entered
            let sample = try await vault.withOwner { [at, from, to, unit, type, value] connection -> Sample in
                // Days and local times in the owner's time zone.
                let zone = at != nil || from != nil || to != nil ? try await ownerTimeZone(on: connection) : .gmt
                let start = at?.date(in: zone, now: now) ?? from?.date(in: zone, now: now) ?? now
                let end = at?.date(in: zone, now: now) ?? to?.date(in: zone, now: now) ?? now
                if end < start { throw endsBeforeStart }
                var preferred: [String: HealthUnit] = [:]
                if unit == nil, let unitType {
                    preferred = try await connection.call(
                        Method.preferredUnits,
                        PreferredUnitsParams(types: [unitType]),
                        as: PreferredUnitsResult.self
                    ).units
                }
                let sample: Sample
                do {
                    let entry = try SampleEntry(
                        type: type,
                        value: value,
                        unit: unit,
                        start: start,
                        end: end,
                        metadata: metadata,
                        defaultUnit: { preferred[$0.rawValue] }
                    )
                    sample = try entry.sample(
                        uuids: (0..<entry.uuidCount).map { _ in UUID() },
                        source: Source(bundleIdentifier: "owner:healthvault", name: "HealthVault")
                    )
                } catch {
                    throw ToolError("\(shortName(sampleType)): \((error as? HealthError)?.message ?? "\(error)")")
                }
                _ = try await connection.call(Method.samplesAdd, SaveParams(objects: [sample]), as: SaveResult.self)
                return sample
            }
            if output.json { return try printJSON(sample) }
            print("Added \(shortName(sampleType)) \(sample.uuid.uuidString)")
        }
    }
}
