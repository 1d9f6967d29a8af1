import ArgumentParser
import CommandSupport
import Foundation
import HealthModel
import VaultClient
import VaultProtocol

/// `healthvault objects`: the vision prescriptions and documents an app may read, chosen one by
/// one (HealthKit's per-object authorization; docs/ACCESS_RULES.md, "Per-object reads").
struct Objects: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Choose which vision prescriptions and documents an app may read, one by one.",
        discussion: """
            Vision prescriptions and clinical documents are never read by a type's grant: an app \
            asks (`healthvault requests` shows it), and you choose each object it may read. The \
            others do not exist for it. Its own objects it always reads.

            Examples:
              healthvault objects org.example.optician
              healthvault objects org.example.optician --type visionPrescription
              healthvault objects grant org.example.optician 6F1C2B0E-0D8A-4C55-9E1B-2A3F4C5D6E7F
              healthvault objects revoke org.example.optician 6F1C2B0E-0D8A-4C55-9E1B-2A3F4C5D6E7F
            """,
        subcommands: [List.self, GrantObjects.self, RevokeObjects.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The objects you may choose for an app: whether it may read each, and whether it asked.",
            discussion: """
                Lists every vision prescription and document other apps saved (the app's own are \
                left out: it reads them anyway), oldest first: its UUID, type, date, the app that \
                saved it, what it is (a document's title, a prescription's kind), whether the app \
                may read it (READ) and whether one of its waiting requests asks about it (ASKED). \
                --json prints one object per line.

                Examples:
                  healthvault objects list org.example.optician
                  healthvault objects org.example.optician --type cda --json
                """
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The app id.")
        var app: String

        @Option(name: .long, help: "Only this type: visionPrescription or cda.")
        var type: String?

        func run() async throws {
            let type = try self.type.map(Objects.perObjectType)
            let result = try await vault.withOwner {
                try await $0.call(Method.objectsList, ObjectsListParams(app: app, type: type), as: ObjectsResult.self)
            }
            if output.json { return try printJSONLines(result.objects) }
            guard !result.objects.isEmpty else {
                return print("No other app's vision prescriptions or documents are in the vault.")
            }
            var rows = [["UUID", "TYPE", "DATE", "SOURCE", "WHAT", "READ", "ASKED"]]
            for object in result.objects {
                rows.append([
                    object.uuid.uuidString, ObjectType(object.type).shortName, timestamp(object.startDate),
                    object.source.bundleIdentifier, object.summary, object.readable ? "yes" : "no",
                    object.asked ? "yes" : "-",
                ])
            }
            print(table(rows))
        }
    }

    struct GrantObjects: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant",
            abstract: "Let an app read these objects, from its next request on.",
            discussion: """
                Objects by UUID, separated by spaces or commas (`healthvault objects APP` lists \
                them). Choosing answers the app's waiting requests of those types.

                Example: healthvault objects grant org.example.optician 6F1C2B0E-0D8A-4C55-9E1B-2A3F4C5D6E7F
                """
        )
        @OptionGroup var arguments: ObjectDecisionArguments
        func run() async throws { try await arguments.decide("grant") }
    }

    struct RevokeObjects: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Take objects back: to the app they are gone, from its next request on.",
            discussion: """
                The app's next anchored query tells it they were deleted, as for an object deleted.

                Example: healthvault objects revoke org.example.optician 6F1C2B0E-0D8A-4C55-9E1B-2A3F4C5D6E7F
                """
        )
        @OptionGroup var arguments: ObjectDecisionArguments
        func run() async throws { try await arguments.decide("revoke") }
    }

    /// A type read object by object, or a one-line error saying which types are.
    static func perObjectType(_ name: String) throws -> SampleType {
        let type = try parseSampleType(name)
        guard type.isReadPerObject else {
            throw ToolError(
                "\(ObjectType(type).shortName) is granted by type (healthvault grant); only visionPrescription and cda are chosen object by object"
            )
        }
        return type
    }
}

/// `objects grant` and `objects revoke`: one app, some objects.
struct ObjectDecisionArguments: ParsableArguments {
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The app id.")
    var app: String

    @Argument(help: "The objects' UUIDs, separated by spaces or commas.")
    var objects: [String]

    /// The UUIDs, or a one-line error naming the first that is not one.
    func uuids() throws -> [UUID] {
        let words = objects.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
        guard !words.isEmpty else { throw ValidationError("name at least one object by its UUID") }
        return try words.map { word in
            guard let uuid = UUID(uuidString: word) else {
                throw ToolError("\"\(word)\" is not a UUID; `healthvault objects \(app)` lists the objects' UUIDs")
            }
            return uuid
        }
    }

    func validate() throws {
        _ = try uuids()
    }

    func decide(_ decision: String) async throws {
        let uuids = try uuids()
        try await vault.withOwner {
            _ = try await $0.call(
                Method.objectsDecide,
                ObjectsDecideParams(app: app, decision: decision, objects: uuids),
                as: Empty.self
            )
        }
        if output.json {
            return try printJSON(ObjectDecisionJSON(app: app, decision: decision, objects: uuids))
        }
        let count = uuids.count == 1 ? "1 object" : "\(uuids.count) objects"
        if decision == "grant" {
            print("\(app) may read \(count) more.")
        } else {
            print("\(app) may no longer read \(count).")
        }
    }
}

/// An object decision in `--json`.
struct ObjectDecisionJSON: Encodable {
    let app: String
    let decision: String
    let objects: [UUID]
}
