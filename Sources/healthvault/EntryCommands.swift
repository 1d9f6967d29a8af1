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
            usage: "healthvault samples add <type> <value> [<unit>] [--at <date>] [--from <date>] [--to <date>] "
                + "[--metadata <metadata> ...] [<options>]",
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

        /// The value and the unit, collected so that a negative value is a value (``PositionalWords``).
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(
                "The value: a number (a negative one too, which is then refused as out of range), systolic/diastolic, "
                    + "a category value's name, a workout's activity; then the unit (kg, lb, st, mmHg, bpm, °F), "
                    + "without which your preferred unit for the type is taken.",
                valueName: "value> <unit"
            )
        )
        var words: [String] = []

        /// The value, as written.
        var value: String { (try? PositionalWords.read(words, names: Self.wordNames))?[0] ?? "" }

        /// The unit, if one is given.
        var unit: String? { (try? PositionalWords.read(words, names: Self.wordNames))?[1] }

        static let wordNames = ["<value>", "[<unit>]"]

        @Option(parsing: .unconditional, help: .date("When it was measured (default: now)."))
        var at: DateArgument?

        @Option(parsing: .unconditional, help: .date("When it began (with --to; --to defaults to now)."))
        var from: DateArgument?

        @Option(parsing: .unconditional, help: .date("When it ended."))
        var to: DateArgument?

        @Option(parsing: .upToNextOption, help: "Metadata, KEY=VALUE (a number, or text), as many as you like.")
        var metadata: [String] = []

        func validate() throws {
            _ = try PositionalWords.read(words, names: Self.wordNames)
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
            // A unit that does not parse, or a value out of range in the unit given, fails before
            // the passphrase is asked for.
            if let unit, let unitType { _ = try parseUnit(unit, option: nil, for: unitType) }
            if unit != nil, let early = try? SampleEntry(type: type, value: value, unit: unit, start: now, end: now) {
                try Self.checkRange(early.value, written: type)
            }
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
                    try Self.checkRange(entry.value, written: type)
                    sample = try entry.sample(
                        uuids: (0..<entry.uuidCount).map { _ in UUID.forNewObject() },
                        source: Source(bundleIdentifier: "owner:healthvault", name: "HealthVault")
                    )
                } catch let error as ValidationError {
                    throw error
                } catch {
                    throw ToolError("\(shortName(sampleType)): \((error as? HealthError)?.message ?? "\(error)")")
                }
                _ = try await connection.call(Method.samplesAdd, SaveParams(objects: [sample]), as: SaveResult.self)
                return sample
            }
            if output.json { return try printJSON(sample) }
            print("Added \(shortName(sampleType)) \(sample.uuid.uuidString)")
        }

        /// A value its type does not allow, said as `goals` says its own (README, "Errors and exit
        /// codes"), in the unit it was given in: `weight -5 kg is out of range: give 0 kg or more`.
        /// A `ValidationError`: exit 64, as for any value out of range on the command line.
        static func checkRange(_ value: SampleEntry.Value, written name: String) throws {
            switch value {
            case .quantity(let quantity):
                if let type = try? parseSampleType(name), case .quantity(let quantityType) = type {
                    try checkRange(quantity, of: quantityType, written: name)
                }
            case .bloodPressure(let systolic, let diastolic):
                try checkRange(systolic, of: .bloodPressureSystolic, written: "the systolic pressure")
                try checkRange(diastolic, of: .bloodPressureDiastolic, written: "the diastolic pressure")
            case .category, .workout:
                break
            }
        }

        static func checkRange(_ quantity: Quantity, of type: QuantityTypeIdentifier, written name: String) throws {
            guard quantity.value.isFinite, let canonical = try? quantity.doubleValue(for: type.canonicalUnit),
                !type.valueDomain.contains(canonical)
            else { return }
            let domain = type.valueDomain
            let unit = quantity.unit
            // The catalog's ceilings (10^15, or 1000 dB) are no bound a person needs to read.
            let ceiling =
                type.aggregationStyle == .discreteEquivalentContinuousLevel
                ? QuantityTypeIdentifier.soundLevelLimit : QuantityTypeIdentifier.valueLimit
            func shown(_ bound: Double) -> String {
                DecimalText.text((try? type.canonicalUnit.convert(bound, to: unit)) ?? bound) + " \(unit)"
            }
            let hasLower = domain.lowerBound > -ceiling
            let hasUpper = domain.upperBound < ceiling
            let range =
                hasLower && hasUpper
                ? "\(DecimalText.text((try? type.canonicalUnit.convert(domain.lowerBound, to: unit)) ?? 0)) to "
                    + shown(domain.upperBound)
                : canonical < domain.lowerBound
                    ? "\(shown(domain.lowerBound)) or more" : "at most \(shown(domain.upperBound))"
            throw ValidationError(
                "\(name) \(DecimalText.text(quantity.value)) \(unit) is out of range: give \(range)"
            )
        }
    }
}
