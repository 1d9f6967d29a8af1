import ArgumentParser
import AuditLog
import CommandSupport
import Foundation
import Glibc
import HealthModel
import VaultClient
import VaultProtocol

/// `healthvault grants history`: what each app could read and share, when, replayed from the
/// signed audit log alone (docs/AUDIT_LOG.md, "Grants and their history"). The owner's form
/// exports the vault's log, verifies it against the vault's audit key and replays it; the
/// auditor's form (`--export DIR --key FILE`) needs neither the vault nor the daemon.
struct Grants: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What apps could read and share, and when: replayed from the signed audit log.",
        discussion: """
            Examples:
              healthvault grants
              healthvault grants history
              healthvault grants history org.example.stepcounter --at 2026-03-03
            """,
        subcommands: [List.self, History.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What each app may read and share now, in words, windows and expiries included.",
            discussion: """
                Every decision the vault holds, app by app: what it reads and shares (with a \
                read grant's window and any grant's expiry), what it was denied, and what expired. \
                Types an app declared but nobody decided are not listed (nothing is granted). \
                --json prints each app's AppInfo (docs/PROTOCOL.md), as apps list does.

                Examples:
                  healthvault grants
                  healthvault grants list org.example.stepcounter
                """
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "Only this app's.")
        var app: String?

        func run() async throws {
            let (apps, zone) = try await vault.withOwner { connection in
                (
                    try await connection.call(Method.appsList, Empty(), as: AppsResult.self).apps,
                    try await ownerTimeZone(on: connection)
                )
            }
            let shown = apps.filter { app == nil || $0.app == app }
            if let app, shown.isEmpty { throw ToolError("no app \(app) is enrolled; see `healthvault apps list`") }
            if output.json { return try printJSONLines(shown) }
            guard !shown.isEmpty else { return print("No app is enrolled.") }
            for (index, info) in shown.enumerated() {
                if index > 0 { print("") }
                print("\(info.name) (\(info.app))")
                let sentences = (info.grants ?? []).flatMap { GrantWords.sentences($0, in: zone, everyDecision: true) }
                if sentences.isEmpty { print("  nothing decided yet") }
                for sentence in sentences { print("  " + sentence) }
            }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every change of every app's permissions, or what each could do at one instant (--at).",
            discussion: """
                The answer comes from the audit log alone: every grant, denial, revocation and \
                expiry is an entry carrying the permission's new state (a read grant's window, any \
                grant's expiry), signed into the log. The log is verified first (as audit verify \
                does); a log that does not verify is not replayed (exit 1 tampered, 2 could not \
                verify).

                The owner's form exports the vault's log (with healthvaultd, or opening the vault \
                when it is stopped) and verifies it against the vault's audit-key.pub. An auditor \
                gives an export and the key as received: --export DIR --key FILE, needing neither \
                the vault nor the daemon; dates are then in UTC.

                Without --at: one line per change, oldest first (a grant's own expiry is a change \
                at its instant). With --at: each permission decided at that instant (not \
                determined ones are not listed). --json prints one object per line.

                Examples:
                  healthvault grants history
                  healthvault grants history org.example.stepcounter --at 2026-03-03
                  healthvault grants history --type heartRate --at "2026-03-03 09:00"
                  healthvault grants history --export /srv/audit/2026-11 --key audit-key.pub --at 2026-03-03
                """
        )

        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "Only this app's permissions.")
        var app: String?

        @Option(name: .long, help: "Only this type's (short name or identifier).")
        var type: String?

        @Option(name: .long, parsing: .unconditional, help: .date("What each could do at this instant."))
        var at: DateArgument?

        @Option(
            name: .long,
            help: "An audit export to replay (`healthvault audit export`), instead of the vault's log."
        )
        var export: String?

        @Option(name: .long, help: "With --export: the vault's audit key file (audit-key.pub), as you received it.")
        var key: String?

        func validate() throws {
            if export != nil, key == nil {
                throw ValidationError("--export needs --key: the vault's audit-key.pub, as you received it")
            }
            if key != nil, export == nil { throw ValidationError("--key goes with --export") }
        }

        func run() async throws {
            let typeFilter = try type.map(parseObjectType)?.identifier
            let (entries, zone, verified) = try await replayable()
            let history = GrantHistory(entries: entries)
            let keep: (GrantHistory.Key) -> Bool = { key in
                (app == nil || key.app == app) && (typeFilter == nil || key.type == typeFilter)
            }
            if !output.json {
                print("From the audit log: \(verified)")
                if !history.unreplayable.isEmpty {
                    print(
                        "\(history.unreplayable.count) decision\(history.unreplayable.count == 1 ? "" : "s") of the "
                            + "earlier spelling (authorization.grant, -deny, -revoke without read or share) name no "
                            + "permission and are left out: entries \(history.unreplayable.map(String.init).joined(separator: ", "))."
                    )
                }
            }
            let keepObjects: (String, String) -> Bool = { objectApp, objectType in
                (app == nil || objectApp == app) && (typeFilter == nil || objectType == typeFilter)
            }
            if let at {
                let instant = at.date(in: zone)
                let states = history.states(at: instant).filter { keep($0.key) }.sorted { $0.key < $1.key }
                let objects = history.objects(at: instant).filter { keepObjects($0.key.app, $0.key.type) }
                    .sorted { $0.key < $1.key }
                if output.json {
                    try printJSONLines(states.map { StateJSON(key: $0.key, state: $0.value) })
                    return try printJSONLines(
                        objects.map {
                            StateJSON(
                                key: $0.key,
                                objects: $0.value.objects,
                                since: $0.value.since,
                                entry: $0.value.entry
                            )
                        }
                    )
                }
                print("At \(GrantWords.date(instant, in: zone)):")
                guard !states.isEmpty || !objects.isEmpty else {
                    return print("No permission was decided then (everything not determined: nothing granted).")
                }
                var rows = [["APP", "TYPE", "ACCESS", "STATE", "SINCE", "ENTRY"]]
                for (key, state) in states {
                    rows.append([
                        key.app, Self.typeName(key.type), key.access, Self.words(state, zone: zone),
                        GrantWords.date(state.since, in: zone), String(state.entry),
                    ])
                }
                for (key, held) in objects {
                    rows.append([
                        key.app, Self.typeName(key.type), "read",
                        "these objects: " + held.objects.sorted().joined(separator: ", "),
                        GrantWords.date(held.since, in: zone), String(held.entry),
                    ])
                }
                return print(table(rows))
            }
            let changes = history.timeline(app: app).filter { keep($0.key) }
            let objectChanges = history.objectChanges.filter { keepObjects($0.app, $0.type) }
            if output.json {
                var lines = changes.map(ChangeJSON.init) + objectChanges.map(ChangeJSON.init)
                lines = lines.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                    .map(\.element)
                return try printJSONLines(lines)
            }
            guard !changes.isEmpty || !objectChanges.isEmpty else { return print("No permission was ever decided.") }
            var rows: [(Date, [String])] = []
            for change in changes {
                rows.append(
                    (
                        change.time,
                        [
                            GrantWords.date(change.time, in: zone), change.key.app, Self.typeName(change.key.type),
                            change.key.access, change.state.map { Self.words($0, zone: zone) } ?? "not determined",
                            change.operation == "expires"
                                ? (change.time > Date() ? "its expiry (to come)" : "its expiry")
                                : "\(change.operation) (entry \(change.state?.entry ?? 0))",
                        ]
                    )
                )
            }
            for change in objectChanges {
                rows.append(
                    (
                        change.time,
                        [
                            GrantWords.date(change.time, in: zone), change.app, Self.typeName(change.type), "read",
                            (change.granted ? "these objects too: " : "not these objects: ")
                                + change.objects.joined(separator: ", "),
                            "\(change.operation) (entry \(change.entry))",
                        ]
                    )
                )
            }
            let ordered = rows.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            print(table([["TIME", "APP", "TYPE", "ACCESS", "NOW", "BY"]] + ordered.map(\.element.1)))
        }

        /// The entries of a verified log, the time zone to show dates in, and what was verified.
        func replayable() async throws -> ([AuditEntry], TimeZone, String) {
            if let export, let key {
                let trusted = try Audit.Verify.trustedKey(at: key)
                return (
                    try verifiedEntries(at: URL(fileURLWithPath: export), key: trusted), .gmt, "\(export), verified"
                )
            }
            // The owner's: the vault's log exported into a private folder, verified, replayed, removed.
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("healthvault-grants-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: folder,
                withIntermediateDirectories: false,
                attributes: [
                    .posixPermissions: 0o700
                ]
            )
            defer { try? FileManager.default.removeItem(at: folder) }
            let exported = folder.appendingPathComponent("log")
            let zone = try await vault.withOwner { connection in
                _ = try await connection.call(
                    Method.auditExport,
                    AuditExportParams(directory: exported.path),
                    as: AuditExportResult.self
                )
                return try await ownerTimeZone(on: connection)
            }
            let keyFile = vault.directory.appendingPathComponent("audit-key.pub").path
            let trusted = try Audit.Verify.trustedKey(at: keyFile)
            let entries = try verifiedEntries(at: exported, key: trusted)
            return (entries, zone, "the vault's, \(entries.count) entries, verified against \(keyFile)")
        }

        /// The export's entries, once it verifies against `key`; refused otherwise, with audit
        /// verify's exit codes.
        func verifiedEntries(at directory: URL, key: VerifierKey) throws -> [AuditEntry] {
            let report = AuditVerifier.verify(directory: directory, trustedKey: key)
            guard report.verdict == .verified else {
                FileHandle.standardError.write(
                    Data(
                        "healthvault: the log does not verify, so it is not replayed: \(report.summary)\n".utf8
                    )
                )
                throw ExitCode(report.verdict.exitCode)
            }
            let export = try AuditExport.read(from: directory).export
            return try export.entries.map { bytes throws(AuditLogError) in try AuditEntry(decoding: bytes) }
        }

        static func typeName(_ identifier: String) -> String {
            (try? ObjectType(identifier: identifier).shortName) ?? identifier
        }

        /// A state in words: `granted (reading from the last 30 days, until ...)`, `denied`.
        static func words(_ state: GrantHistory.State, zone: TimeZone) -> String {
            guard state.granted else { return "denied" }
            var limits: [String] = []
            let attributes = state.attributes
            switch attributes["window"] {
            case "last":
                limits.append("reading from \(GrantWords.last(Double(attributes["window-seconds"] ?? "") ?? 0))")
            case "since-grant":
                limits.append(
                    "reading from \(attributes["window-start"].flatMap(Self.date).map { GrantWords.date($0, in: zone) } ?? "the grant") on"
                )
            case "fixed":
                if let start = attributes["window-start"].flatMap(Self.date) {
                    limits.append("from \(GrantWords.date(start, in: zone))")
                }
                if let end = attributes["window-end"].flatMap(Self.date) {
                    limits.append("up to \(GrantWords.date(end, in: zone))")
                }
            default: break
            }
            if let expires = state.expires { limits.append("until \(GrantWords.date(expires, in: zone))") }
            return limits.isEmpty ? "granted" : "granted (\(limits.joined(separator: ", ")))"
        }

        static func date(_ text: String) -> Date? {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.date(from: text)
        }

        /// A permission at `--at`, as `--json` prints it.
        struct StateJSON: Encodable {
            let app: String
            let type: String
            /// `read`, `share`, or `read-objects` for the objects of a per-object type it could read.
            let access: String
            let state: String
            let attributes: [String: String]?
            var objects: [String]?
            /// As the log keeps instants: RFC 3339, UTC, exactly three fractional digits.
            let since: String
            let entry: UInt64

            init(key: GrantHistory.Key, state: GrantHistory.State) {
                app = key.app
                type = key.type
                access = key.access
                self.state = state.granted ? "granted" : "denied"
                attributes = state.attributes.isEmpty ? nil : state.attributes
                since = AuditEntry.attributeTime(state.since)
                entry = state.entry
            }

            init(key: GrantHistory.ObjectKey, objects: Set<String>, since: Date, entry: UInt64) {
                app = key.app
                type = key.type
                access = "read-objects"
                state = "granted"
                attributes = nil
                self.objects = objects.sorted()
                self.since = AuditEntry.attributeTime(since)
                self.entry = entry
            }
        }

        /// A change, as `--json` prints it.
        struct ChangeJSON: Encodable {
            /// As the log keeps instants: RFC 3339, UTC, exactly three fractional digits.
            let time: String
            let app: String
            let type: String
            let access: String
            let state: String
            let attributes: [String: String]?
            let operation: String
            let entry: UInt64?
            var objects: [String]?

            init(_ change: GrantHistory.ObjectChange) {
                time = AuditEntry.attributeTime(change.time)
                app = change.app
                type = change.type
                access = "read-objects"
                state = change.granted ? "granted" : "denied"
                attributes = nil
                operation = change.operation
                entry = change.entry
                objects = change.objects
            }

            init(_ change: GrantHistory.Change) {
                time = AuditEntry.attributeTime(change.time)
                app = change.key.app
                type = change.key.type
                access = change.key.access
                state = change.state.map { $0.granted ? "granted" : "denied" } ?? "notDetermined"
                attributes = change.state.flatMap { $0.attributes.isEmpty ? nil : $0.attributes }
                operation = change.operation
                entry = change.state?.entry
            }
        }
    }
}
