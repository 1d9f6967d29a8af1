import ArgumentParser
import CommandSupport
import Foundation
import Glibc
import HealthModel
import VaultClient
import VaultProtocol

/// `healthvault requests review`: each waiting request with the app's name, why it wants what it
/// asks for (its manifest's purposes), what it already has, and a decision per type and access;
/// at a terminal by questions, in a script by `--allow` and `--deny` (docs/COMMAND_LINE.md,
/// "requests review"). The app learns the outcome as from any decision: by its next status call.
struct RequestReview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Go through the waiting requests: why each app asks, what it has, and a decision per type.",
        discussion: """
            At a terminal, each request (oldest first; only ID when given) is shown with the app's \
            purposes and the permissions it already has, then asked type by type: allow, deny, or \
            skip (it stays waiting). A request's answers are applied together once its last \
            question is answered; Ctrl-C before that applies nothing of that request. An allow \
            may carry a window for reading and an expiry, after the `a`: `a 30d` (the last 30 days), \
            `a since-grant`, `a from 2026-01-01 to 2026-07-01`, `a until 2026-12-31`, or several \
            (`a 30d until 2026-12-31`), as grant's --last, --since-grant, --from, --to and --until.

            In a script (or with --allow/--deny at a terminal), --allow and --deny decide: \
            `read:TYPE` or `share:TYPE` for one access, `TYPE` for whatever the request asks of \
            that type. Each must name something waiting in the requests reviewed; what is not \
            named stays waiting. --last, --from, --to or --since-grant give every read allowed a \
            window, --until every allow an expiry. Without --allow or --deny a script gets the \
            review printed and nothing is decided.

            Apps that asked again for permissions you had all decided are listed after the \
            requests (nothing of theirs waits): change a decision with grant, deny or revoke.

            --json prints one object per decision made (or, with nothing decided, one per \
            request, as `requests list --json`).

            Examples:
              healthvault requests review
              healthvault requests review 3 --allow read:stepCount --deny heartRate
              healthvault requests review --allow read:heartRate --last 30d --until 2026-12-31
              healthvault requests review --allow steps
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "Only this request.")
    var id: Int64?

    @Option(name: .long, help: "Allow: read:TYPE, share:TYPE, or TYPE for both (repeat it).")
    var allow: [String] = []

    @Option(name: .long, help: "Deny: read:TYPE, share:TYPE, or TYPE for both (repeat it).")
    var deny: [String] = []

    @OptionGroup(title: "Terms of what --allow grants")
    var terms: GrantTermsOptions

    /// One permission a request waits for, and what the owner chose for it.
    struct Question: Hashable {
        let access: String
        let type: ObjectType
    }

    /// What the owner chose for one question: `grant` or `deny`, and a grant's window and expiry.
    struct Answer: Hashable {
        let decision: String
        var window: WindowInfo?
        var expiresAt: Date?
    }

    /// A decision made, as `--json` prints it.
    struct DecisionLine: Encodable {
        let request: Int64
        let app: String
        let access: String
        let type: String
        let decision: String
        var window: WindowInfo?
        var expiresAt: Date?
    }

    func run() async throws {
        let specs = try parse(allow, "allow") + parse(deny, "deny")
        if specs.isEmpty, terms.hasWindow || terms.until != nil {
            throw ToolError(
                "--last, --from, --to, --since-grant and --until are the terms of what --allow grants: add --allow "
                    + "(at a terminal, give them with each answer: a 30d, a until DATE); nothing was decided"
            )
        }
        let credential = try vault.ownerKey()
        let (requests, repeated, apps, zone, objectRequests) = try await vault.withOwner(key: credential) {
            connection in
            let listed = try await connection.call(
                Method.requestsList,
                RequestsListParams(app: nil),
                as: RequestsResult.self
            )
            let requests = listed.requests.filter { id == nil || $0.id == id }
            var apps: [String: AppInfo] = [:]
            for app in Set(requests.map(\.app) + (listed.repeated ?? []).map(\.app)) {
                apps[app] = try await connection.call(Method.appsShow, AppParams(app: app), as: AppInfo.self)
            }
            let objectRequests = (listed.objectRequests ?? []).filter { id == nil || $0.id == id }
            return (requests, listed.repeated ?? [], apps, try await ownerTimeZone(on: connection), objectRequests)
        }
        // Requests to read object by object are decided object by object, with `objects`.
        defer { showObjectRequests(objectRequests) }
        if let id, requests.isEmpty, objectRequests.isEmpty {
            throw ToolError("request \(id) waits for nothing (decided, or no such request); see `healthvault requests`")
        }

        let interactive = specs.isEmpty && isatty(0) == 1 && !output.json
        if specs.isEmpty && !interactive {
            if output.json { return try printJSONLines(requests) }
            if requests.isEmpty {
                print(objectRequests.isEmpty ? "No requests are waiting." : "No request waits for a decision by type.")
            }
            show(requests, apps: apps)
            showRepeated(repeated, apps: apps)
            if !requests.isEmpty {
                print("Nothing was decided: decide with --allow and --deny (or at a terminal).")
            }
            return
        }
        if requests.isEmpty {
            print(objectRequests.isEmpty ? "No requests are waiting." : "No request waits for a decision by type.")
            showRepeated(repeated, apps: apps)
            if !specs.isEmpty { throw ToolError("there is nothing waiting to --allow or --deny") }
            return
        }

        var made: [DecisionLine] = []
        if interactive {
            print(
                "For each type: a (allow), d (deny) or s (skip: it stays waiting); an allow may add a window "
                    + "for reading and an expiry: a 30d, a since-grant, a from DATE to DATE, a until DATE."
            )
            for request in requests {
                show([request], apps: apps)
                let answers = try ask(request, zone: zone)
                made += try await apply(answers, of: request, credential: credential)
            }
            showRepeated(repeated, apps: apps)
        } else {
            let (window, expiresAt) = try terms.wire(in: zone)
            let answers = try match(specs, in: requests, window: window, expiresAt: expiresAt)
            for request in requests {
                made += try await apply(answers[request.id] ?? [:], of: request, credential: credential)
            }
        }
        if output.json { return try printJSONLines(made) }
        if made.isEmpty { return print("Nothing was decided.") }
        for line in made {
            let past = line.decision == "grant" ? "Allowed" : "Denied"
            let type = try ObjectType(identifier: line.type).shortName
            let limits = GrantWords.limits(window: line.window, expiresAt: line.expiresAt, in: zone)
            print(
                "\(past) \(line.access) of \(type) for \(line.app) (request \(line.request))"
                    + (limits.isEmpty ? "" : ", " + limits.joined(separator: ", ")) + "."
            )
        }
    }

    /// `read:TYPE`, `share:TYPE` or `TYPE` of `--option`, with its decision (`grant` for
    /// `--allow`, `deny` for `--deny`).
    private func parse(_ values: [String], _ option: String) throws -> [(String?, ObjectType, String)] {
        let decision = option == "allow" ? "grant" : "deny"
        return try values.map { value in
            let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                guard parts[0] == "read" || parts[0] == "share" else {
                    throw ToolError("--\(option) \(value): say read:TYPE, share:TYPE or TYPE")
                }
                return (parts[0], try parseObjectType(parts[1]), decision)
            }
            return (nil, try parseObjectType(value), decision)
        }
    }

    /// The decisions `specs` make in `requests`, by request; every spec must decide something
    /// waiting, and no permission may be both allowed and denied.
    private func match(
        _ specs: [(String?, ObjectType, String)],
        in requests: [RequestInfo],
        window: WindowInfo?,
        expiresAt: Date?
    ) throws -> [Int64: [Question: Answer]] {
        var answers: [Int64: [Question: Answer]] = [:]
        for (access, type, decision) in specs {
            var matched = false
            for request in requests {
                for question in questions(request)
                where question.type == type && (access == nil || access == question.access) {
                    if let earlier = answers[request.id]?[question], earlier.decision != decision {
                        throw ToolError(
                            "\(question.access) of \(type.shortName) is both allowed and denied; nothing was decided"
                        )
                    }
                    var answer = Answer(decision: decision)
                    if decision == "grant" {
                        answer.window = question.access == "read" ? window : nil
                        answer.expiresAt = expiresAt
                    }
                    answers[request.id, default: [:]][question] = answer
                    matched = true
                }
            }
            guard matched else {
                let what = access.map { "\($0) of \(type.shortName)" } ?? type.shortName
                throw ToolError(
                    "--\(decision == "grant" ? "allow" : "deny") \(what): no request reviewed waits for it "
                        + "(see `healthvault requests`); nothing was decided"
                )
            }
        }
        if window != nil,
            !answers.values.contains(where: { $0.contains { $0.key.access == "read" && $0.value.decision == "grant" } })
        {
            throw ToolError(
                "a window (--last, --from, --to, --since-grant) limits reading: allow a read; nothing was decided"
            )
        }
        if expiresAt != nil, !answers.values.contains(where: { $0.values.contains { $0.decision == "grant" } }) {
            throw ToolError("--until is the expiry of what --allow grants: allow something; nothing was decided")
        }
        return answers
    }

    /// What a request waits for, reads first, in its order.
    private func questions(_ request: RequestInfo) -> [Question] {
        request.read.map { Question(access: "read", type: $0) }
            + request.share.map { Question(access: "share", type: $0) }
    }

    /// Asks each question of `request` at the terminal.
    private func ask(_ request: RequestInfo, zone: TimeZone) throws -> [Question: Answer] {
        var answers: [Question: Answer] = [:]
        for question in questions(request) {
            while true {
                FileHandle.standardOutput.write(
                    Data("  \(question.access) \(question.type.shortName)? allow, deny or skip [a/d/s]: ".utf8)
                )
                guard let line = readLine() else {
                    throw ToolError(
                        "the review ended before request \(request.id) was answered; nothing of it was decided"
                    )
                }
                let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
                switch words.first?.lowercased() ?? "" {
                case "a", "allow", "y", "yes":
                    do {
                        let terms = try GrantTermsOptions.parse(Self.options(Array(words.dropFirst())))
                        if terms.hasWindow, question.access == "share" {
                            throw ToolError("a window is for reading; a share grant takes only until DATE")
                        }
                        let (window, expiresAt) = try terms.wire(in: zone)
                        answers[question] = Answer(decision: "grant", window: window, expiresAt: expiresAt)
                    } catch {
                        let message = (error as? ToolError)?.description ?? GrantTermsOptions.message(for: error)
                        print(
                            "  \(message). Answer a, a 30d, a since-grant, a from DATE to DATE, a until DATE, d or s."
                        )
                        continue
                    }
                case "d", "deny", "n", "no":
                    guard words.count == 1 else {
                        print("  A denial takes no window or expiry. Answer a (allow), d (deny) or s (skip).")
                        continue
                    }
                    answers[question] = Answer(decision: "deny")
                case "s", "skip", "":
                    guard words.count <= 1 else {
                        print("  Answer a (allow), d (deny) or s (skip).")
                        continue
                    }
                default:
                    print("  Answer a (allow), d (deny) or s (skip).")
                    continue
                }
                break
            }
        }
        return answers
    }

    /// Applies the answers for one request: one call per decision and access.
    private func apply(
        _ answers: [Question: Answer],
        of request: RequestInfo,
        credential: OwnerCredential
    ) async throws -> [DecisionLine] {
        guard !answers.isEmpty else { return [] }
        var made: [DecisionLine] = []
        try await vault.withOwner(key: credential) { connection in
            // One call per access and answer (the same terms together), in the request's order.
            var groups: [(access: String, answer: Answer, types: [ObjectType])] = []
            for question in questions(request) {
                guard let answer = answers[question] else { continue }
                if let index = groups.firstIndex(where: { $0.access == question.access && $0.answer == answer }) {
                    groups[index].types.append(question.type)
                } else {
                    groups.append((question.access, answer, [question.type]))
                }
            }
            for group in groups {
                _ = try await connection.call(
                    Method.grantsDecide,
                    DecideParams(
                        app: request.app,
                        types: group.types,
                        decision: group.answer.decision,
                        access: [group.access],
                        window: group.answer.window,
                        expiresAt: group.answer.expiresAt
                    ),
                    as: Empty.self
                )
                made += group.types.map {
                    DecisionLine(
                        request: request.id,
                        app: request.app,
                        access: group.access,
                        type: $0.identifier,
                        decision: group.answer.decision,
                        window: group.answer.window,
                        expiresAt: group.answer.expiresAt
                    )
                }
            }
        }
        return made
    }

    /// An answer's words after `a` as grant's options: `30d` or `last 30d` (--last), `since-grant`,
    /// `from DATE`, `to DATE`, `until DATE`.
    static func options(_ words: [String]) -> [String] {
        var options: [String] = []
        var rest = words[...]
        while let word = rest.popFirst() {
            switch word.lowercased() {
            case "last", "from", "to", "until": options += ["--" + word.lowercased(), rest.popFirst() ?? ""]
            case "since-grant", "since": options.append("--since-grant")
            default:
                options += RollingDuration(argument: word) != nil ? ["--last", word] : [word]
            }
        }
        return options
    }

    private func show(_ requests: [RequestInfo], apps: [String: AppInfo]) {
        for request in requests {
            let app = apps[request.app]
            print("")
            print(
                "Request \(request.id) from \(app?.name ?? request.app) (\(request.app)), \(timestamp(request.requestedAt))"
            )
            if let app {
                if !request.read.isEmpty { print("  it reads for:  \(app.readPurpose)") }
                if !request.share.isEmpty { print("  it shares for: \(app.sharePurpose)") }
                print("  it has:        \(holdings(app))")
            }
            let waiting = questions(request).map { "\($0.access) \($0.type.shortName)" }
            print("  it asks:       \(waiting.joined(separator: ", "))")
            // Its reasons type by type, where its manifest gives them.
            let asked = Set(questions(request).map(\.type.identifier))
            for (identifier, purpose) in (app?.purposes ?? [:]).sorted(by: { $0.key < $1.key })
            where asked.contains(identifier) {
                let name = (try? ObjectType(identifier: identifier).shortName) ?? identifier
                print("    why \(name): \(purpose)")
            }
        }
    }

    private func showObjectRequests(_ requests: [ObjectRequestInfo]) {
        guard !requests.isEmpty, !output.json else { return }
        print("")
        print("Asked to read object by object (choose each with `healthvault objects`, or answer with requests deny):")
        for request in requests {
            let some = request.predicate == nil ? "" : " (some of them)"
            print(
                "  request \(request.id): \(request.app), \(ObjectType(request.type).shortName)\(some), "
                    + "\(timestamp(request.requestedAt)): healthvault objects \(request.app) --type "
                    + ObjectType(request.type).shortName
            )
        }
    }

    private func showRepeated(_ repeated: [RepeatedRequestInfo], apps: [String: AppInfo]) {
        guard !repeated.isEmpty else { return }
        print("")
        print(RepeatedRequests.heading)
        for line in RepeatedRequests.lines(repeated, apps: apps) { print(line) }
    }

    /// The permissions an app holds or was refused, in words.
    private func holdings(_ app: AppInfo) -> String {
        var parts: [String] = []
        for grant in app.grants ?? [] {
            for (access, determination) in [("read", grant.read), ("share", grant.share)]
            where determination.state != "notDetermined" {
                parts.append("\(access) \(grant.type.shortName) \(determination.state)")
            }
        }
        return parts.isEmpty ? "nothing yet" : parts.joined(separator: ", ")
    }
}

/// The apps that asked again for what the owner decided, as `requests list` and `requests review`
/// show them.
enum RepeatedRequests {
    static let heading = "Asked again after your decisions (nothing new waits; change one with grant, deny or revoke):"

    static func lines(_ repeated: [RepeatedRequestInfo], apps: [String: AppInfo] = [:]) -> [String] {
        repeated.map { ask in
            let name = apps[ask.app].map { "\($0.name) (\(ask.app))" } ?? ask.app
            let times = ask.times == 1 ? "once" : "\(ask.times) times"
            let asked = (ask.read.map { "read \($0.shortName)" } + ask.share.map { "share \($0.shortName)" })
            var when = "at \(timestamp(ask.lastAskedAt))"
            if ask.times > 1 { when = "from \(timestamp(ask.firstAskedAt)) to \(timestamp(ask.lastAskedAt))" }
            return "  \(name): \(times), \(when), for \(asked.joined(separator: ", "))"
        }
    }
}
