import ArgumentParser
import CommandSupport
import Foundation
import HealthModel
import VaultClient
import VaultProtocol

struct Apps: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Enrol, list, show and remove apps; generate an app's key pair.",
        discussion: """
            Examples:
              healthvault apps keygen --private-key ~/.config/stepcounter/app.key --public-key stepcounter.pub
              healthvault apps enroll policies/apps/org.example.stepcounter.json --key stepcounter.pub
              healthvault apps
              healthvault apps show org.example.stepcounter
            """,
        subcommands: [List.self, Show.self, Enroll.self, Remove.self, Keygen.self],
        defaultSubcommand: List.self
    )

    struct Keygen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate an app's Ed25519 key pair: the private key only where you say, 0600.",
            discussion: """
                Example: healthvault apps keygen --private-key ~/.config/stepcounter/app.key --public-key stepcounter.pub
                """
        )
        @OptionGroup var output: OutputOptions

        @Option(name: .long, help: "Where to write the private key (created 0600; never overwritten).")
        var privateKey: String

        @Option(name: .long, help: "Where to write the public key (for `apps enroll --key`).")
        var publicKey: String

        func run() async throws {
            let key = try KeyFiles.generate(privatePath: privateKey, publicPath: publicKey)
            // Absolute, as every path the commands print (`init`, `export`, `backup`): the files
            // are found again from any folder.
            let privatePath = URL(fileURLWithPath: privateKey).standardizedFileURL.path
            let publicPath = URL(fileURLWithPath: publicKey).standardizedFileURL.path
            if output.json {
                return try printJSON([
                    "privateKey": privatePath, "publicKey": publicPath, "key": KeyFiles.publicKeyText(key),
                ])
            }
            print(
                "Wrote the private key to \(privatePath) (0600) and the public key \(KeyFiles.publicKeyText(key)) to \(publicPath)."
            )
        }
    }

    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enrol an app from its manifest (policies/apps/<id>.json) with its public key.",
            discussion: """
                The manifest names types by HealthKit identifier or short name (docs/POLICIES.md). \
                --json prints the app as `apps show --json` does.

                Example: healthvault apps enroll policies/apps/org.example.stepcounter.json --key stepcounter.pub
                """
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The app's manifest file.")
        var manifest: String

        @Option(name: .long, help: "The app's public key file (from `apps keygen`).")
        var key: String

        @Flag(name: .long, help: "Let the app own samples already stored under its id.")
        var adoptExistingSamples = false

        func run() async throws {
            guard let text = try? String(contentsOfFile: manifest, encoding: .utf8) else {
                throw ToolError("cannot read the manifest \(manifest)")
            }
            let publicKey = try KeyFiles.readPublicKey(key)
            let info = try await vault.withOwner {
                try await $0.call(
                    Method.appsEnroll,
                    EnrollParams(
                        manifest: text,
                        file: manifest,
                        publicKey: KeyFiles.publicKeyText(publicKey),
                        adoptExistingSamples: adoptExistingSamples
                    ),
                    as: AppInfo.self
                )
            }
            if output.json { return try printJSON(info) }
            print(
                "Enrolled \(info.app) (\(info.name)). It may ask to read \(info.declaredRead.count) and share \(info.declaredShare.count) types."
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The enrolled apps and what each may read and share.",
            discussion: """
                --json prints one app per line, as `apps show --json` does.

                Example: healthvault apps list
                """
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let result = try await vault.withOwner { try await $0.call(Method.appsList, Empty(), as: AppsResult.self) }
            if output.json { return try printJSONLines(result.apps) }
            guard !result.apps.isEmpty else { return print("No apps are enrolled.") }
            var rows = [["APP", "NAME", "READS", "SHARES", "PENDING", "ENROLLED"]]
            for app in result.apps {
                let grants = app.grants ?? []
                rows.append([
                    app.app, app.name,
                    String(grants.filter { $0.read.state == "granted" }.count),
                    String(grants.filter { $0.share.state == "granted" }.count),
                    String(app.pendingRequests?.count ?? 0),
                    timestamp(app.enrolledAt),
                ])
            }
            print(table(rows))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One app: its purposes, key, and each type's grants.",
            discussion: "Example: healthvault apps show org.example.stepcounter"
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The app id.")
        var app: String

        func run() async throws {
            let info = try await vault.withOwner {
                try await $0.call(Method.appsShow, AppParams(app: app), as: AppInfo.self)
            }
            if output.json { return try printJSON(info) }
            print("\(info.app) (\(info.name)), enrolled \(timestamp(info.enrolledAt))")
            print("key          \(info.publicKey)")
            print("reads for    \(info.readPurpose)")
            print("shares for   \(info.sharePurpose)")
            for (identifier, purpose) in (info.purposes ?? [:]).sorted(by: { $0.key < $1.key }) {
                let name = (try? ObjectType(identifier: identifier).shortName) ?? identifier
                print("why \(name)  \(purpose)")
            }
            var rows = [["TYPE", "READ", "SHARE"]]
            for grant in info.grants ?? [] {
                rows.append([grant.type.description, describe(grant.read), describe(grant.share)])
            }
            print(table(rows))
            for request in info.pendingRequests ?? [] {
                print(
                    "pending request \(request.id) from \(timestamp(request.requestedAt)): read \(request.read.count), share \(request.share.count) types"
                )
            }
        }

        func describe(_ determination: DeterminationInfo) -> String {
            guard let at = determination.at else { return determination.state }
            return "\(determination.state) \(timestamp(at))"
        }
    }

    struct Remove: AsyncParsableCommand {
        /// `--json`: the app removed; with `--dry-run`, the one that would be and what goes with it.
        struct Removed: Encodable {
            let app: String
            let removed: Bool
            var dryRun: Bool?
            var readTypes: Int?
            var shareTypes: Int?
            var pendingRequests: Int?
        }

        static let configuration = CommandConfiguration(
            abstract: "Remove an app: its grants and requests go, its sessions end; its samples stay.",
            discussion: """
                First says what goes (its grants, its pending requests); then asks at a terminal, \
                needs --yes in a script, or with --dry-run only says. Enrolling it again starts \
                with no grants.

                Examples:
                  healthvault apps remove org.example.stepcounter --dry-run
                  healthvault apps remove org.example.stepcounter --yes
                """
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var confirmation: ConfirmationOptions

        @Argument(help: "The app id.")
        var app: String

        func run() async throws {
            // Two connections with one passphrase: the question may outlast the daemon's idle timeout.
            let key = try vault.ownerKey()
            let info = try await vault.withOwner(key: key) {
                try await $0.call(Method.appsShow, AppParams(app: app), as: AppInfo.self)
            }
            let grants = info.grants ?? []
            let reads = grants.filter { $0.read.state == "granted" }.count
            let shares = grants.filter { $0.share.state == "granted" }.count
            let pending = info.pendingRequests?.count ?? 0
            let what =
                "its grants (read \(reads) type\(reads == 1 ? "" : "s"), share \(shares)) and "
                + "\(pending) pending request\(pending == 1 ? "" : "s")"
            let removed = try confirmation.confirm(
                plan: [
                    "This removes \(info.app) (\(info.name)), enrolled \(timestamp(info.enrolledAt)):",
                    "  \(what) go, its open connections end;",
                    "  its samples stay.",
                ],
                summary: "this removes \(info.app) with \(what)",
                question: "Remove it?",
                nothingDone: "nothing was removed",
                json: output.json
                    ? Removed(
                        app: info.app,
                        removed: false,
                        dryRun: true,
                        readTypes: reads,
                        shareTypes: shares,
                        pendingRequests: pending
                    ) : nil
            )
            guard removed else { return }
            try await vault.withOwner(key: key) {
                _ = try await $0.call(Method.appsRemove, AppParams(app: app), as: Empty.self)
            }
            if output.json { return try printJSON(Removed(app: app, removed: true)) }
            print("Removed \(app).")
        }
    }
}

struct Requests: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apps' authorization requests waiting for you: list, review, approve, deny.",
        discussion: """
            Examples:
              healthvault requests
              healthvault requests review
              healthvault requests approve 1
              healthvault requests deny 2
            """,
        subcommands: [List.self, RequestReview.self, Approve.self, DenyRequest.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The pending requests, and the apps that asked again for what you decided.",
            discussion: """
                After the requests, the apps that asked again for permissions you had all decided \
                (nothing of theirs waits): how often, when, for what, until you next decide \
                something for that app.

                --json prints one request per line, then one line per app that asked again, with \
                "repeated": true (docs/COMMAND_LINE.md).

                Examples:
                  healthvault requests list
                  healthvault requests list --app org.example.sleeptracker --json
                """
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Option(name: .long, help: "Only this app's.")
        var app: String?

        func run() async throws {
            let result = try await vault.withOwner {
                try await $0.call(Method.requestsList, RequestsListParams(app: app), as: RequestsResult.self)
            }
            let repeated = result.repeated ?? []
            if output.json {
                try printJSONLines(result.requests)
                return try printJSONLines(repeated.map(RepeatedJSON.init))
            }
            if result.requests.isEmpty {
                print("No requests are waiting.")
            } else {
                var rows = [["ID", "APP", "REQUESTED", "READ", "SHARE"]]
                for request in result.requests {
                    rows.append([
                        String(request.id), request.app, timestamp(request.requestedAt),
                        request.read.map(\.description).joined(separator: ","),
                        request.share.map(\.description).joined(separator: ","),
                    ])
                }
                print(table(rows))
            }
            if !repeated.isEmpty {
                print(RepeatedRequests.heading)
                for line in RepeatedRequests.lines(repeated) { print(line) }
            }
        }

        /// An app that asked again, as a line of `--json`.
        struct RepeatedJSON: Encodable {
            let app: String
            let repeated = true
            let times: Int
            let firstAskedAt: Date
            let lastAskedAt: Date
            let read: [String]
            let share: [String]

            init(_ info: RepeatedRequestInfo) {
                app = info.app
                times = info.times
                firstAskedAt = info.firstAskedAt
                lastAskedAt = info.lastAskedAt
                read = info.read.map(\.identifier)
                share = info.share.map(\.identifier)
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Grant everything a request asks for (types needing an explicit decision stay pending).",
            usage: "healthvault requests approve <id> [<options>]",
            discussion: "Example: healthvault requests approve 1"
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @OptionGroup var request: RequestID

        func run() async throws {
            let id = try request.id
            try await vault.withOwner {
                _ = try await $0.call(Method.requestsApprove, RequestIDParams(id: id), as: Empty.self)
            }
            if output.json { return try printJSON(["request": id]) }
            print("Approved request \(id).")
        }
    }

    struct DenyRequest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deny",
            abstract: "Deny everything a request asks for.",
            usage: "healthvault requests deny <id> [<options>]",
            discussion: "Example: healthvault requests deny 2"
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @OptionGroup var request: RequestID

        func run() async throws {
            let id = try request.id
            try await vault.withOwner {
                _ = try await $0.call(Method.requestsDeny, RequestIDParams(id: id), as: Empty.self)
            }
            if output.json { return try printJSON(["request": id]) }
            print("Denied request \(id).")
        }
    }
}

/// The request `requests approve` and `requests deny` decide: a positive whole number, as
/// `requests list` shows it. Collected as ``PositionalWords`` so that `-3` is a number out of range
/// rather than an unknown option.
struct RequestID: ParsableArguments {
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The request's id.", valueName: "id"))
    var words: [String] = []

    func validate() throws { _ = try id }

    /// The id, or the refusal ArgumentParser would give (exit 64).
    var id: Int64 {
        get throws {
            let word = try PositionalWords.read(words, names: ["<id>"])[0] ?? ""
            guard let id = Int64(word) else { throw ValidationError("The value '\(word)' is invalid for '<id>'") }
            guard id > 0 else {
                throw ValidationError(
                    "request \(id) is out of range: requests are numbered from 1 (`healthvault requests list` shows them)"
                )
            }
            return id
        }
    }
}

/// grant, deny and revoke: one app, some types, read and/or share.
struct DecisionArguments: ParsableArguments {
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The app id.")
    var app: String

    @Argument(help: "Types, by short name (stepCount, heartRate, workout, activitySummary) or HealthKit identifier.")
    var types: [String]

    @Flag(name: .long, help: "Decide reading.")
    var read = false

    @Flag(name: .long, help: "Decide sharing (saving).")
    var share = false

    func validate() throws {
        guard !types.isEmpty else { throw ValidationError("name at least one type") }
        guard read || share else { throw ValidationError("say --read, --share or both") }
    }

    func decide(_ decision: String) async throws {
        let parsed = try types.map(parseObjectType)
        let access = (read ? ["read"] : []) + (share ? ["share"] : [])
        try await vault.withOwner {
            _ = try await $0.call(
                Method.grantsDecide,
                DecideParams(app: app, types: parsed, decision: decision, access: access),
                as: Empty.self
            )
        }
        if output.json {
            return try printJSON(
                DecisionJSON(app: app, decision: decision, access: access, types: parsed.map(\.identifier))
            )
        }
        let past = ["grant": "Granted", "deny": "Denied", "revoke": "Revoked"][decision] ?? decision
        print(
            "\(past) \(access.joined(separator: " and ")) of \(parsed.map(\.description).joined(separator: ", ")) for \(app)."
        )
    }
}

/// A decision in `--json`: the app, the decision, the accesses and the types' identifiers.
struct DecisionJSON: Encodable {
    let app: String
    let decision: String
    let access: [String]
    let types: [String]
}

struct Grant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Grant an app reading and/or sharing of types.",
        discussion: """
            Only types the app's manifest declares for that access. Types by short name or identifier.

            Example: healthvault grant org.example.stepcounter steps heartRate --read --share
            """
    )
    @OptionGroup var arguments: DecisionArguments
    func run() async throws { try await arguments.decide("grant") }
}

struct Deny: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Deny an app reading and/or sharing of types.",
        discussion: "Example: healthvault deny org.example.sleeptracker steps --read"
    )
    @OptionGroup var arguments: DecisionArguments
    func run() async throws { try await arguments.decide("deny") }
}

struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Revoke a grant: effective at the app's next request, its subscriptions included.",
        discussion: "Example: healthvault revoke org.example.sleeptracker steps --read"
    )
    @OptionGroup var arguments: DecisionArguments
    func run() async throws { try await arguments.decide("revoke") }
}
