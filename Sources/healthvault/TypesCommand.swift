import ArgumentParser
import CommandSupport
import Foundation
import HealthModel

/// `healthvault types`: every type HealthKit defines, by the names the commands take
/// (docs/NAMES.md). Needs no vault.
struct Types: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Every type: its short name, kind, default unit, whether HealthVault supports it, its identifier.",
        discussion: """
            Every command takes a type by its short name in any case and with or without _ or - \
            (stepCount, stepcount, step_count), by one of a few aliases (steps, weight, sleep, \
            bmi, hrv, spo2, pulse, ecg, skinType, moveMode) or by its HealthKit identifier \
            (HKQuantityTypeIdentifierStepCount); app manifests and the policy file do too. The \
            unit is the one values are shown in until you choose another (`healthvault units`). \
            The list is HealthVault's catalog of HealthKit's types (docs/NAMES.md).

            Examples:
              healthvault types                   every type
              healthvault types heart             the types whose name holds "heart"
              healthvault types zzz               none: says so, and exits 0
              healthvault types --kind category   the category types
              healthvault types --json            one JSON object per type
            """
    )

    @Argument(help: "Show only the types whose short name or identifier holds this (any case), or that it names.")
    var search: String?

    @Option(help: "Only this kind: quantity, category, characteristic, correlation, workout, series, ...")
    var kind: String?

    @OptionGroup var output: OutputOptions

    /// One type in `--json`.
    struct TypeJSON: Encodable {
        let shortName: String
        let identifier: String
        let kind: String
        let unit: String?
        let supported: Bool
    }

    func run() throws {
        var types = ObjectType.typeDescriptions
        let kinds = Self.kindOrder
        if let kind {
            guard kinds.contains(kind) else {
                throw ToolError("--kind is one of \(kinds.joined(separator: ", ")), not \(kind)")
            }
            types = types.filter { $0.kind == kind }
        }
        if let search {
            let key = Self.key(search)
            let named = ObjectType.named(search)
            types = types.filter { description in
                description.type == named && named != nil
                    || Self.key(description.shortName).contains(key) || Self.key(description.identifier).contains(key)
            }
        }
        if types.isEmpty {
            // A filter that keeps nothing is an empty list, as for every command that lists
            // (exit 0; with --json, no line): said in words, with the closest names.
            if output.json { return }
            let what = kind.map { "\($0) type" } ?? "type"
            let suggestions = search.map { ObjectType.suggestions(for: $0) } ?? []
            print(
                "No \(what)'s name or identifier holds \"\(search ?? "")\""
                    + (suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?")
                    + " (`healthvault types` lists every type)."
            )
            return
        }
        types.sort {
            (kinds.firstIndex(of: $0.kind) ?? 99, $0.shortName) < (kinds.firstIndex(of: $1.kind) ?? 99, $1.shortName)
        }
        if output.json {
            return try printJSONLines(
                types.map {
                    TypeJSON(
                        shortName: $0.shortName,
                        identifier: $0.identifier,
                        kind: $0.kind,
                        unit: $0.defaultUnit?.unitString,
                        supported: $0.isSupported
                    )
                }
            )
        }
        var rows = [["NAME", "KIND", "UNIT", "SUPPORTED", "IDENTIFIER"]]
        for type in types {
            rows.append([
                type.shortName, type.kind, type.defaultUnit?.unitString ?? "-",
                type.isSupported ? "yes" : "not yet", type.identifier,
            ])
        }
        print(table(rows))
    }

    /// The kinds in the order the list shows them.
    static let kindOrder = [
        "quantity", "category", "characteristic", "correlation", "workout", "series", "activitySummary",
        "stateOfMind", "scoredAssessment", "electrocardiogram", "audiogram", "document", "visionPrescription",
    ]

    /// A name as searches compare it: lower case, without `_`, `-`, `.` and spaces.
    static func key(_ text: String) -> String {
        String(text.lowercased().filter { !"_-. ".contains($0) })
    }
}
