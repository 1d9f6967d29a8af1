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
            let (info, zone) = try await vault.withOwner { connection in
                (
                    try await connection.call(Method.appsShow, AppParams(app: app), as: AppInfo.self),
                    try await ownerTimeZone(on: connection)
                )
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
                // Vision prescriptions and documents: read object by object, never by this grant.
                let read =
                    grant.type.sampleType?.isReadPerObject == true
                    ? "object by object (healthvault objects \(info.app))" : describe(grant.read)
                rows.append([grant.type.description, read, describe(grant.share)])
            }
            print(table(rows))
            // Windows and expiries in words, one line each.
            let terms = (info.grants ?? []).flatMap { GrantWords.sentences($0, in: zone) }
            if !terms.isEmpty {
                print("limits:")
                for sentence in terms { print("  " + sentence) }
            }
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
            A request to read vision prescriptions or documents asks for objects one by one: \
            choose them with `healthvault objects`, or deny the request.

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
            let objectRequests = result.objectRequests ?? []
            if output.json {
                try printJSONLines(result.requests)
                try printJSONLines(objectRequests)
                return try printJSONLines(repeated.map(RepeatedJSON.init))
            }
            if result.requests.isEmpty && objectRequests.isEmpty {
                print("No requests are waiting.")
            } else {
                var rows: [(Int64, [String])] = []
                for request in result.requests {
                    rows.append(
                        (
                            request.id,
                            [
                                String(request.id), request.app, timestamp(request.requestedAt),
                                request.read.map(\.description).joined(separator: ","),
                                request.share.map(\.description).joined(separator: ","),
                            ]
                        )
                    )
                }
                // A request to read object by object: the type, and where to choose its objects.
                for request in objectRequests {
                    let some = request.predicate == nil ? "" : " (some)"
                    rows.append(
                        (
                            request.id,
                            [
                                String(request.id), request.app, timestamp(request.requestedAt),
                                "\(request.type.identifier) objects\(some): healthvault objects \(request.app)", "",
                            ]
                        )
                    )
                }
                let header = ["ID", "APP", "REQUESTED", "READ", "SHARE"]
                print(table([header] + rows.sorted { $0.0 < $1.0 }.map(\.1)))
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

    func decide(_ decision: String, terms: GrantTermsOptions? = nil) async throws {
        let parsed = try types.map(parseObjectType)
        let access = (read ? ["read"] : []) + (share ? ["share"] : [])
        let (window, expiresAt, zone) = try await vault.withOwner { connection in
            var window: WindowInfo?
            var expiresAt: Date?
            var zone = TimeZone.gmt
            if let terms, terms.hasWindow || terms.until != nil {
                zone = try await ownerTimeZone(on: connection)
                (window, expiresAt) = try terms.wire(in: zone)
            }
            _ = try await connection.call(
                Method.grantsDecide,
                DecideParams(
                    app: app,
                    types: parsed,
                    decision: decision,
                    access: access,
                    window: window,
                    expiresAt: expiresAt
                ),
                as: Empty.self
            )
            return (window, expiresAt, zone)
        }
        if output.json {
            return try printJSON(
                DecisionJSON(
                    app: app,
                    decision: decision,
                    access: access,
                    types: parsed.map(\.identifier),
                    window: window,
                    expiresAt: expiresAt
                )
            )
        }
        let past = ["grant": "Granted", "deny": "Denied", "revoke": "Revoked"][decision] ?? decision
        let limits = GrantWords.limits(window: window, expiresAt: expiresAt, in: zone)
        print(
            "\(past) \(access.joined(separator: " and ")) of \(parsed.map(\.description).joined(separator: ", ")) for \(app)"
                + (limits.isEmpty ? "" : ", " + limits.joined(separator: ", ")) + "."
        )
    }
}

/// A decision in `--json`: the app, the decision, the accesses and the types' identifiers; for a
/// grant with them, its window and expiry as `grants.decide` took them.
struct DecisionJSON: Encodable {
    let app: String
    let decision: String
    let access: [String]
    let types: [String]
    var window: WindowInfo?
    var expiresAt: Date?
}

struct Grant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Grant an app reading and/or sharing of types, for good or until a date, reading all or a window.",
        discussion: """
            Only types the app's manifest declares for that access. Types by short name or identifier. \
            A grant replaces what the app had for those types, window and expiry included.

            A read grant may show other apps' samples only within a window (the app's own it \
            always reads): --last 30d (the last 30 days, moving with time; also 12h, 2w), \
            --from DATE and/or --to DATE (samples lying wholly between them), or --since-grant \
            (from this instant on). Any grant may end with --until DATE: it is revoked then. \
            The app is never told of a window or an expiry; outside the window its data is, to \
            the app, data that does not exist.

            Examples:
              healthvault grant org.example.stepcounter steps heartRate --read --share
              healthvault grant org.example.trial heartRate --read --last 30d --until 2026-12-31
              healthvault grant org.example.trial bloodPressure --read --from 2026-01-01 --to 2026-07-01
            """
    )
    @OptionGroup var arguments: DecisionArguments
    @OptionGroup var terms: GrantTermsOptions

    func validate() throws {
        if terms.hasWindow, !arguments.read {
            throw ValidationError(
                "a window (--last, --from, --to, --since-grant) limits reading: add --read; a share grant takes only --until"
            )
        }
    }

    func run() async throws { try await arguments.decide("grant", terms: terms) }
}

/// `grant`'s window and expiry (docs/COMMAND_LINE.md, "grant").
struct GrantTermsOptions: ParsableArguments {
    @Option(
        name: .long,
        parsing: .unconditional,
        help: ArgumentHelp(
            "Read other apps' samples of the last so long only: 30d, 12h, 2w (a window moving with time).",
            valueName: "duration"
        )
    )
    var last: RollingDuration?

    @Option(name: .long, parsing: .unconditional, help: .date("Read other apps' samples from this date on only."))
    var from: DateArgument?

    @Option(name: .long, parsing: .unconditional, help: .date("Read other apps' samples up to this date only."))
    var to: DateArgument?

    @Flag(name: .long, help: "Read other apps' samples from the instant of this grant on only.")
    var sinceGrant = false

    @Option(name: .long, parsing: .unconditional, help: .date("The grant expires then: revoked at that instant."))
    var until: DateArgument?

    var hasWindow: Bool { last != nil || from != nil || to != nil || sinceGrant }

    func validate() throws {
        let windows = [last != nil, from != nil || to != nil, sinceGrant].filter { $0 }.count
        guard windows <= 1 else {
            throw ValidationError("give one window: --last, --from and --to, or --since-grant")
        }
        try checkDateOrder(from: from, to: to)
    }

    /// The window and expiry as `grants.decide` takes them, dates read in `zone`.
    func wire(in zone: TimeZone, now: Date = Date()) throws -> (window: WindowInfo?, expiresAt: Date?) {
        var window: WindowInfo?
        if let last {
            window = WindowInfo(kind: "last", seconds: last.seconds)
        } else if let range = try dateRange(from: from, to: to, in: zone, now: now) {
            window = WindowInfo(kind: "fixed", start: range.start, end: range.end)
        } else if sinceGrant {
            window = WindowInfo(kind: "sinceGrant")
        }
        let expiresAt = until?.date(in: zone, now: now)
        if let expiresAt, expiresAt <= now {
            throw ToolError("--until \(until?.text ?? "") is not in the future; give a later date")
        }
        return (window, expiresAt)
    }
}

/// `--last`'s length: a whole number of days, weeks or hours (`30d`, `2w`, `12h`).
struct RollingDuration: ExpressibleByArgument, Sendable, Hashable {
    let seconds: Double

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6, let count = Int(digits), count > 0 else { return nil }
        let unit: Double
        switch text.dropFirst(digits.count) {
        case "d", "day", "days": unit = 86_400
        case "w", "week", "weeks": unit = 7 * 86_400
        case "h", "hour", "hours": unit = 3_600
        default: return nil
        }
        guard Double(count) * unit <= 100 * 366 * 86_400 else { return nil }
        seconds = Double(count) * unit
    }

    static var defaultCompletionKind: CompletionKind { .list(["7d", "30d", "90d", "12h"]) }
}

/// Grants' windows and expiries in plain words, as `apps show` prints them.
enum GrantWords {
    /// A short name in words: `heartRate` → `heart rate`.
    static func words(_ type: ObjectType) -> String {
        var out = ""
        var previous: Character?
        for character in type.shortName {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { out.append(" ") }
            out.append(contentsOf: character.lowercased())
            previous = character
        }
        return out
    }

    /// An instant in the owner's zone, to the minute (to the second when it has seconds), with the zone's name.
    /// A decision's window and expiry as `grant` says them: `reading from the last 30 days`,
    /// `from 2026-01-01 00:00 UTC`, `until 2026-12-31 00:00 Europe/Paris`.
    static func limits(window: WindowInfo?, expiresAt: Date?, in zone: TimeZone) -> [String] {
        var limits: [String] = []
        if let window {
            switch window.kind {
            case "last": limits.append("reading from \(last(window.seconds ?? 0))")
            case "sinceGrant": limits.append("reading from now on")
            default:
                if let start = window.start { limits.append("from \(date(start, in: zone))") }
                if let end = window.end { limits.append("up to \(date(end, in: zone))") }
            }
        }
        if let expiresAt { limits.append("until \(date(expiresAt, in: zone))") }
        return limits
    }

    static func date(_ date: Date, in zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = zone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) % 60 != 0
        formatter.dateFormat = seconds ? "yyyy-MM-dd HH:mm:ss" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date) + " " + zone.identifier
    }

    /// `the last 30 days`, `the last 12 hours`, `the last 90 seconds`.
    static func last(_ seconds: Double) -> String {
        func plural(_ count: Int, _ unit: String) -> String { "the last \(count) \(unit)\(count == 1 ? "" : "s")" }
        let whole = Int(seconds)
        if whole % 86_400 == 0 { return plural(whole / 86_400, "day") }
        if whole % 3_600 == 0 { return plural(whole / 3_600, "hour") }
        if whole % 60 == 0 { return plural(whole / 60, "minute") }
        return plural(whole, "second")
    }

    /// The sentences of one type's grants that have a window, an expiry or expired; none for a
    /// plain grant, a denial or no decision.
    static func sentences(_ grant: GrantInfo, in zone: TimeZone, everyDecision: Bool = false) -> [String] {
        let name = words(grant.type)
        var sentences: [String] = []
        for (verb, noun, determination) in [("reads", "reading", grant.read), ("shares", "sharing", grant.share)] {
            switch determination.state {
            case "granted":
                var sentence = "\(verb) \(name)"
                if let window = determination.window {
                    switch window.kind {
                    case "last":
                        sentence += " from \(last(window.seconds ?? 0))"
                    case "sinceGrant":
                        sentence += " from the grant on" + (window.start.map { " (\(date($0, in: zone)))" } ?? "")
                    default:
                        switch (window.start, window.end) {
                        case (let start?, let end?):
                            sentence += " from \(date(start, in: zone)) to \(date(end, in: zone))"
                        case (let start?, nil): sentence += " from \(date(start, in: zone)) on"
                        case (nil, let end?): sentence += " up to \(date(end, in: zone))"
                        case (nil, nil): break
                        }
                    }
                }
                guard everyDecision || determination.window != nil || determination.expiresAt != nil else { continue }
                if let expiry = determination.expiresAt {
                    sentence += (determination.window == nil ? " until " : ", until ") + date(expiry, in: zone)
                }
                sentences.append(sentence)
            case "denied" where determination.by == "expiry":
                if let expiry = determination.expiresAt ?? determination.at {
                    sentences.append("\(noun) \(name) expired \(date(expiry, in: zone))")
                }
            case "denied" where everyDecision:
                let when = determination.at.map { " (denied \(date($0, in: zone)))" } ?? ""
                sentences.append("does not \(verb.dropLast()) \(name)\(when)")
            default:
                continue
            }
        }
        return sentences
    }
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
