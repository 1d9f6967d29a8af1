import ArgumentParser
import AuditLog
import CommandSupport
import Foundation
import Glibc
import HealthModel
import VaultClient
import VaultCrypto
import VaultProtocol
import VaultStore

struct Profile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Your characteristics: biological sex, blood type, date of birth, skin type, wheelchair use, move mode.",
        discussion: """
            Examples:
              healthvault profile                          what is set, in words
              healthvault profile set bloodType A+
              healthvault profile set dateOfBirth 1990-05-01
              healthvault profile remove wheelchairUse
            """,
        subcommands: [Show.self, Set.self, Remove.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Your characteristics, in words; those not set say so.",
            discussion: """
                Read as one audit entry (query.characteristic, naming the six types). --json prints \
                each characteristic that is set as docs/MODEL_JSON.md writes it, one per line.

                Example: healthvault profile show
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let result = try await vault.withOwner {
                try await $0.call(Method.profileShow, Empty(), as: ProfileResult.self)
            }
            if output.json { return try printJSONLines(result.values) }
            var rows: [[String]] = []
            for type in CharacteristicTypeIdentifier.allCases.sorted(by: { $0.title < $1.title }) {
                let value = result.values.first { $0.type == type }
                var words = value?.words ?? "not set"
                if case .dateOfBirth(let birth)? = value, let age = Self.age(birth) { words += " (age \(age))" }
                rows.append([type.title, words])
            }
            print(table(rows))
            if result.values.count < CharacteristicTypeIdentifier.allCases.count {
                print("Set one with `healthvault profile set TYPE VALUE` (bloodType A+, biologicalSex female, ...).")
            }
        }

        /// Whole years from the date of birth to today, on this machine's calendar.
        static func age(_ birth: DateOfBirth) -> Int? {
            let calendar = Calendar(identifier: .gregorian)
            guard let born = calendar.date(from: DateComponents(year: birth.year, month: birth.month, day: birth.day))
            else { return nil }
            return calendar.dateComponents([.year], from: born, to: Date()).year.flatMap { $0 >= 0 ? $0 : nil }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set one characteristic, in words.",
            discussion: """
                biologicalSex female, male or other; bloodType A+, A-, B+, B-, AB+, AB-, O+ or O-; \
                dateOfBirth YYYY-MM-DD; fitzpatrickSkinType (or skinType) I to VI; wheelchairUse \
                yes or no; activityMoveMode (or moveMode) activeEnergy or moveTime. Case does not \
                matter. HealthKit's numbers and docs/MODEL_JSON.md's JSON are read too \
                (`biologicalSex 1`, `dateOfBirth '{"year":1990,"month":5,"day":1}'`).

                Examples:
                  healthvault profile set bloodType A+
                  healthvault profile set biologicalSex female
                  healthvault profile set dateOfBirth 1990-05-01
                  healthvault profile set skinType III
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The characteristic: biologicalSex, bloodType, dateOfBirth, skinType, wheelchairUse, moveMode.")
        var type: String

        @Argument(help: "Its value, in words (A+, female, 1990-05-01, III, no, activeEnergy).")
        var value: [String]

        func run() async throws {
            let parsed = try Self.characteristic(type, value.joined(separator: " "))
            try await vault.withOwner {
                _ = try await $0.call(Method.profileSet, ProfileSetParams(value: parsed), as: Empty.self)
            }
            if output.json { return try printJSON(parsed) }
            print("Set \(parsed.type.title.lowercased()) to \(parsed.words).")
        }

        /// The characteristic `text` says, in words, or (as before) HealthKit's number or JSON.
        static func characteristic(_ name: String, _ text: String) throws -> CharacteristicValue {
            guard case .characteristic(let id) = try parseObjectType(name) else {
                throw ToolError("\(name) is not a characteristic (biologicalSex, bloodType, dateOfBirth, ...)")
            }
            do {
                return try CharacteristicValue(id, words: text)
            } catch {
                // A number or a JSON object: docs/MODEL_JSON.md's form, as earlier versions took it.
                guard let first = text.first, first.isNumber || first == "{",
                    let decoded = try? HealthJSON.decode(
                        CharacteristicValue.self,
                        from: Data(#"{"type":"\#(id.rawValue)","value":\#(text)}"#.utf8)
                    )
                else { throw ToolError(error.message) }
                return decoded
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Clear one characteristic.",
            discussion: """
                Asks first at a terminal; --yes in a script; --dry-run only says.

                Example: healthvault profile remove wheelchairUse --yes
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var confirmation: ConfirmationOptions

        /// `--json`: the characteristic cleared, or with `--dry-run` the one that would be.
        struct Cleared: Encodable {
            let type: String
            var dryRun: Bool?
        }

        @Argument(help: "The characteristic: biologicalSex, bloodType, dateOfBirth, skinType, wheelchairUse, moveMode.")
        var type: String

        func run() async throws {
            guard case .characteristic(let id) = try parseObjectType(type) else {
                throw ToolError("\(type) is not a characteristic (biologicalSex, bloodType, dateOfBirth, ...)")
            }
            guard
                try confirmation.confirm(
                    plan: [
                        "This clears \(id.shortName) from your profile; apps that may read it will find it not set."
                    ],
                    summary: "this clears \(id.shortName) from your profile",
                    question: "Clear it?",
                    nothingDone: "nothing was cleared",
                    json: output.json ? Cleared(type: id.rawValue, dryRun: true) : nil
                )
            else { return }
            try await vault.withOwner {
                _ = try await $0.call(Method.profileRemove, CharacteristicParams(type: id), as: Empty.self)
            }
            if output.json { return try printJSON(Cleared(type: id.rawValue)) }
            print("Cleared \(id.title.lowercased()).")
        }
    }
}

struct Samples: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The samples of a type: list them, add your own, delete them (any app's).",
        discussion: """
            Examples:
              healthvault samples list steps --from today
              healthvault samples add weight 72.5 kg
              healthvault samples delete --type steps --from yesterday --to today
            """,
        subcommands: [List.self, Add.self, Delete.self]
    )

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete samples (any app's): by UUID, or of --type between --from and --to, or --all of it.",
            discussion: """
                First says what would go: how many samples, of which types and sources, over which \
                dates. At a terminal it then asks; in a script it needs --yes (without it nothing is \
                deleted and the exit is 1); --dry-run only says. Every sample of a type goes only \
                with --all. A deletion cannot be undone (apps' anchored queries see it as deleted).

                Examples:
                  healthvault samples delete 1D00FF0F-B990-40A7-8FFC-559F60FEA72E
                  healthvault samples delete --type steps --from yesterday --to today --dry-run
                  healthvault samples delete --type steps --all --yes
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var confirmation: ConfirmationOptions

        /// `--json`: how many were deleted; with `--dry-run`, what would go (`samples.deletePreview`'s
        /// answer).
        struct Deleted: Encodable {
            var deleted: Int?
            var dryRun: Bool?
            var count: Int?
            var types: [DeletePreviewResult.TypeInfo]?
        }

        @Argument(help: "Sample UUIDs.")
        var uuids: [String] = []

        @Option(name: .long, help: "Delete samples of this type instead.")
        var type: String?

        @Option(name: .long, parsing: .unconditional, help: .date("With --type: samples ending at or after this date."))
        var from: DateArgument?

        @Option(name: .long, parsing: .unconditional, help: .date("With --type: samples starting before this date."))
        var to: DateArgument?

        @Flag(name: .long, help: "With --type and no dates: every sample of the type, every app's.")
        var all = false

        func validate() throws {
            guard uuids.isEmpty != (type == nil) else { throw ValidationError("give UUIDs or --type, one of them") }
            if type != nil, from == nil, to == nil, !all {
                throw ValidationError(
                    "--type without --from or --to deletes every sample of the type, every app's: say so with --all, or give dates"
                )
            }
            if all, from != nil || to != nil {
                throw ValidationError("--all deletes every sample of the type: give it without --from and --to")
            }
            if all, type == nil { throw ValidationError("--all goes with --type") }
            if type == nil, from != nil || to != nil { throw ValidationError("--from and --to go with --type") }
        }

        func run() async throws {
            try checkDateOrder(from: from, to: to)
            let sampleType = try type.map(parseSampleType)
            let parsed = try uuids.map { text in
                guard let uuid = UUID(uuidString: text) else { throw ToolError("\(text) is not a UUID") }
                return uuid
            }
            // Two connections with one passphrase: the question may outlast the daemon's idle timeout.
            let key = try vault.ownerKey()
            let (predicate, preview, view) = try await vault.withOwner(key: key) { [from, to] connection in
                let zone = try await connection.call(Method.settingsShow, Empty(), as: SettingsResult.self).timeZone
                let timeZone = TimeZone(identifier: zone) ?? .gmt
                // Days and local times in the owner's time zone, as the plan shows them.
                let predicate = try datePredicate(from: from, to: to, in: timeZone)
                let params =
                    sampleType.map { DeletePreviewParams(type: $0, predicate: predicate) }
                    ?? DeletePreviewParams(uuids: parsed)
                let preview = try await connection.call(
                    Method.samplesDeletePreview,
                    params,
                    as: DeletePreviewResult.self
                )
                return (predicate, preview, WorkoutView(zoneName: zone, timeZone: timeZone, units: [:]))
            }
            let dryRunJSON = Deleted(dryRun: true, count: preview.count, types: preview.types)
            guard preview.count > 0 else {
                if output.json { return try printJSON(confirmation.dryRun ? dryRunJSON : Deleted(deleted: 0)) }
                return print(
                    sampleType.map { "No \(shortName($0)) sample matches: nothing to delete." }
                        ?? "None of these UUIDs names a sample: nothing to delete."
                )
            }
            guard
                try confirmation.confirm(
                    plan: Self.plan(preview, view: view, uuids: sampleType == nil ? parsed.count : nil),
                    summary: "this deletes \(Self.samples(preview.count)) of \(Self.summary(preview, view: view))",
                    question: "Delete \(preview.count == 1 ? "it" : "them")?",
                    nothingDone: "nothing was deleted",
                    json: output.json ? dryRunJSON : nil
                )
            else { return }
            let deleted = try await vault.withOwner(key: key) { connection in
                if let sampleType {
                    return try await connection.call(
                        Method.deleteObjects,
                        DeleteObjectsParams(type: sampleType, predicate: predicate),
                        as: DeleteResult.self
                    ).deleted
                }
                return try await connection.call(Method.delete, DeleteParams(uuids: parsed), as: DeleteResult.self)
                    .deleted
            }
            // Apps may save or delete between the question and the deletion.
            if output.json { return try printJSON(Deleted(deleted: deleted)) }
            let drift = deleted == preview.count ? "" : " (\(preview.count) were shown: the vault changed meanwhile)"
            print("Deleted \(Self.samples(deleted))\(drift).")
        }

        static func samples(_ count: Int) -> String { "\(count) sample\(count == 1 ? "" : "s")" }

        /// "stepCount from 2 sources, 2026-11-22 00:00 to 2026-11-23 00:00 (UTC)".
        static func summary(_ preview: DeletePreviewResult, view: WorkoutView) -> String {
            let sources = Set(preview.types.flatMap { $0.sources.map(\.bundleIdentifier) }).count
            let first = preview.types.map(\.firstStart).min() ?? Date()
            let last = preview.types.map(\.lastEnd).max() ?? Date()
            return preview.types.map { shortName($0.type) }.joined(separator: ", ")
                + " from \(sources) source\(sources == 1 ? "" : "s"), "
                + "\(view.date(first, seconds: false)) to \(view.date(last, seconds: false)) \(view.zoneName)"
        }

        /// The lines that say what would go: per type, its count and dates, then its sources.
        static func plan(_ preview: DeletePreviewResult, view: WorkoutView, uuids: Int?) -> [String] {
            var lines = [
                "This deletes \(samples(preview.count))"
                    + (uuids.map { " (named by \($0) UUID\($0 == 1 ? "" : "s"), a correlation's members counted)" }
                        ?? "")
                    + ", every app's, for good:"
            ]
            for part in preview.types {
                lines.append(
                    "  \(shortName(part.type))  \(part.count)  from \(view.date(part.firstStart, seconds: false)) "
                        + "to \(view.date(part.lastEnd, seconds: false)) (\(view.zoneName))"
                )
                for source in part.sources {
                    lines.append("    \(source.name) (\(source.bundleIdentifier))  \(source.count)")
                }
            }
            return lines
        }
    }
}

struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The signed audit log: export it, verify an export offline, show entries.",
        discussion: """
            Examples:
              healthvault audit show --from today
              healthvault audit export /srv/audit/2026-11
              healthvault audit verify /srv/audit/2026-11 --key audit-key.pub
            """,
        subcommands: [Export.self, Verify.self, Show.self, AcceptMissingCheckpoint.self]
    )

    struct AcceptMissingCheckpoint: AsyncParsableCommand {
        /// `--json`: whether the missing note was accepted (false: it was there).
        struct Accepted: Encodable {
            let directory: String
            let accepted: Bool
        }

        static let configuration = CommandConfiguration(
            commandName: "accept-missing-checkpoint",
            abstract: "Open a vault whose audit-checkpoint.note is gone, once, recording that you decided to.",
            discussion: """
                healthvaultd refuses a vault whose audit log has entries but whose checkpoint note is \
                missing: a database restored from an older copy could not be told. If you know the \
                database is the latest (you removed or lost only the note), this opens the vault \
                without healthvaultd, records vault.open-without-checkpoint in the audit log, signs \
                a new note and locks it again. Then start healthvaultd.

                Example: healthvault audit accept-missing-checkpoint --vault ~/.local/share/healthvault
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            try vault.requireVault()
            let note = vault.directory.appendingPathComponent(Vault.latestCheckpointFileName)
            guard !FileManager.default.fileExists(atPath: note.path) else {
                if output.json { return try printJSON(Accepted(directory: vault.directory.path, accepted: false)) }
                print("\(note.path) is there: nothing to accept.")
                return
            }
            let passphrase = try vault.passphrase(prompt: "Passphrase for \(vault.directory.path): ")
            defer { passphrase.wipe() }
            // No daemon: this process is the only one that may open the vault meanwhile.
            let lock = try DaemonLock(directory: vault.directory)
            defer { withExtendedLifetime(lock) {} }
            do {
                let opened = try Vault.open(
                    at: vault.directory,
                    passphrase: passphrase,
                    by: .owner,
                    acceptingMissingCheckpoint: true
                )
                opened.lock()
            } catch {
                if case .wrongPassphrase = error { throw ToolError(vault.wrongPassphrase) }
                throw ToolError("\(error)")
            }
            if output.json { return try printJSON(Accepted(directory: vault.directory.path, accepted: true)) }
            print(
                "Opened \(vault.directory.path) without its checkpoint note; the decision is in the audit log "
                    + "(vault.open-without-checkpoint) and a new note is signed. Start healthvaultd again."
            )
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the whole log, signed, to a new directory an auditor verifies offline.",
            discussion: "Example: healthvault audit export /srv/audit/2026-11"
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The export directory (must not exist yet).")
        var directory: String

        func run() async throws {
            let path = URL(fileURLWithPath: directory).standardizedFileURL.path
            let result = try await vault.withOwner {
                try await $0.call(Method.auditExport, AuditExportParams(directory: path), as: AuditExportResult.self)
            }
            if output.json { return try printJSON(result) }
            print("Exported \(result.entries) entries to \(result.directory).")
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify an export offline: every entry, every signed checkpoint, against the vault's key.",
            discussion: """
                Exit codes: 0 verified; 1 tampered (the entry named); 2 could not verify: a file \
                missing or unreadable, no --key, a key that is another vault's, or the checkpoint \
                not saved. Needs neither the vault nor the daemon.

                Example: healthvault audit verify /srv/audit/2026-11 --key audit-key.pub --checkpoint last.note
                """
        )

        @Argument(help: "The export directory.")
        var export: String

        @Option(name: .long, help: "The vault's audit key file (audit-key.pub), as you received it (required).")
        var key: String?

        @Option(name: .long, help: "A checkpoint kept from an earlier verification: the log must extend it.")
        var checkpoint: String?

        @Option(name: .long, help: "Write the latest verified checkpoint here, to pass as --checkpoint next time.")
        var saveCheckpoint: String?

        @OptionGroup var output: OutputOptions

        func run() async throws {
            let report: AuditVerifier.Report
            var refusal: ToolError?
            do {
                report = try verify()
            } catch let error as ToolError {
                // An input the auditor gave that cannot be read is "could not read", as for the export.
                refusal = error
                report = AuditVerifier.Report(
                    verdict: .unreadable(error.description),
                    entryCount: 0,
                    latestCheckpoint: nil,
                    warnings: []
                )
            }
            if output.json {
                // The verdict object, whatever the verdict (docs/AUDIT_LOG.md, "The verdict as JSON").
                try printJSON(VerdictJSON(report))
            } else {
                // A verdict on the log (verified, TAMPERED) is the command's output; what kept it
                // from verifying is an error, and warnings are messages: on standard error, in the
                // tools' style (README, "Errors and exit codes").
                switch report.verdict {
                case .verified, .tampered:
                    print(report.summary)
                case .unreadable(let why):
                    Self.say(
                        refusal?.description
                            ?? "could not read the export: \(why); nothing was verified: give the whole folder "
                            + "`healthvault audit export` wrote"
                    )
                case .otherVault:
                    Self.say(report.summary)
                }
                for warning in report.warnings { Self.say("warning: \(warning)") }
            }
            if let saveCheckpoint, let latest = report.latestCheckpoint {
                // Verified, but what the next verification needs was not kept: could not (2).
                let fd = open(saveCheckpoint, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                let bytes = Array(latest.text.utf8)
                let written = fd >= 0 ? write(fd, bytes, bytes.count) : -1
                let reason = String(cString: strerror(errno))
                if fd >= 0 { close(fd) }
                guard written == bytes.count else {
                    FileHandle.standardError.write(
                        Data("healthvault: cannot save the checkpoint to \(saveCheckpoint): \(reason)\n".utf8)
                    )
                    throw ExitCode(2)
                }
            }
            if report.verdict.exitCode != 0 { throw ExitCode(report.verdict.exitCode) }
        }

        /// The vault's audit key as the auditor received it (`--key`): one line,
        /// `<name>+<hash>+<key>`; a file that is missing, unreadable or something else is said as such.
        static func trustedKey(at key: String) throws -> VerifierKey {
            guard let keyLine = try? String(contentsOfFile: key, encoding: .utf8) else {
                throw ToolError(
                    FileManager.default.fileExists(atPath: key)
                        ? "the key file \(key) cannot be read; give the vault's audit-key.pub, as you received it, "
                            + "with --key"
                        : "the key file \(key) does not exist; give the vault's audit-key.pub, as you received it, "
                            + "with --key"
                )
            }
            let trusted: VerifierKey
            do {
                trusted = try VerifierKey(line: keyLine.trimmingCharacters(in: .whitespacesAndNewlines))
            } catch {
                throw ToolError(
                    "\(key) is not an audit key file (one line, <name>+<hash>+<key>, as the vault's audit-key.pub)"
                )
            }
            return trusted
        }

        /// One line on standard error, in the tools' style.
        static func say(_ line: String) {
            FileHandle.standardError.write(Data("healthvault: \(line)\n".utf8))
        }

        func verify() throws -> AuditVerifier.Report {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: export, isDirectory: &isFolder), isFolder.boolValue else {
                throw ToolError(
                    "there is no export at \(export): "
                        + (FileManager.default.fileExists(atPath: export)
                            ? "it is a file" : "the folder does not exist")
                        + "; give the folder `healthvault audit export` wrote"
                )
            }
            guard let key else {
                throw ToolError(
                    "no key given: name the vault's audit-key.pub, as you received it, with --key (the export's own key.vkey proves nothing)"
                )
            }
            let trusted = try Self.trustedKey(at: key)
            var previous: String?
            if let checkpoint {
                guard let data = FileManager.default.contents(atPath: checkpoint) else {
                    throw ToolError(
                        "the checkpoint \(checkpoint) "
                            + (FileManager.default.fileExists(atPath: checkpoint) ? "cannot be read" : "does not exist")
                            + "; give the file --save-checkpoint kept, or leave out --checkpoint"
                    )
                }
                previous = String(decoding: data, as: UTF8.self)
            }
            return AuditVerifier.verify(
                directory: URL(fileURLWithPath: export),
                trustedKey: trusted,
                previousCheckpoint: previous
            )
        }

        /// The `--json` verdict (docs/AUDIT_LOG.md, "The verdict as JSON"): numbers are JSON numbers.
        struct VerdictJSON: Encodable {
            let verdict: String
            let fault: String?
            let entry: UInt64?
            let entries: Int
            let checkpointSize: UInt64?
            let summary: String
            let warnings: [String]

            init(_ report: AuditVerifier.Report) {
                switch report.verdict {
                case .verified: (verdict, fault, entry) = ("verified", nil, nil)
                case .tampered(let found): (verdict, fault, entry) = ("tampered", found.kind.rawValue, found.entry)
                case .unreadable, .otherVault: (verdict, fault, entry) = ("unreadable", nil, nil)
                }
                entries = report.entryCount
                checkpointSize = report.latestCheckpoint?.checkpoint.size
                summary = report.summary
                warnings = report.warnings
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Entries, filtered: a table, or JSON lines with --json.",
            discussion: """
                Examples:
                  healthvault audit show --from today
                  healthvault audit show --app org.example.sleeptracker --type steps --from -7d
                  healthvault audit show --operation authentication.failure --json
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Option(name: .long, help: "Only this app's accesses.")
        var app: String?

        @Option(name: .long, help: "Only entries naming this type (a short name or an identifier).")
        var type: String?

        @Option(
            name: .long,
            help:
                "Only this operation (save, query.sample, authorization.grant-read, ...; docs/AUDIT_LOG.md lists them)."
        )
        var operation: String?

        @Option(name: .long, help: "Only this outcome: ok, denied, denied-served-empty, error.")
        var outcome: String?

        @Option(name: .long, parsing: .unconditional, help: .date("Entries at or after this date."))
        var from: DateArgument?

        @Option(name: .long, parsing: .unconditional, help: .date("Entries before this date."))
        var to: DateArgument?

        @Option(name: .long, parsing: .unconditional, help: "At most this many (the newest), 1 to 10,000.")
        var limit: Int = 1000

        func validate() throws {
            guard (1...10_000).contains(limit) else {
                throw ValidationError(
                    "--limit \(limit) is out of range: give 1 to 10,000 (page further back with --to)"
                )
            }
            if let outcome, !["ok", "denied", "denied-served-empty", "error"].contains(outcome) {
                throw ValidationError("--outcome is ok, denied, denied-served-empty or error, not \(outcome)")
            }
            // An operation the log never records would match nothing, silently: refused, with the
            // closest ones, or all of them when none is close.
            let known = AuditEntry.Operation.known.map(\.rawValue)
            if let operation, !known.contains(operation) {
                let closest = ClosestNames.to(operation, among: known)
                throw ValidationError(
                    "--operation \(operation) is no operation the audit log records; "
                        + (closest.isEmpty
                            ? "give one of \(known.sorted().joined(separator: ", "))"
                            : "did you mean \(closest.joined(separator: ", "))? (docs/AUDIT_LOG.md lists them all)")
                )
            }
        }

        func run() async throws {
            let typeID = try type.map { try parseObjectType($0).description }
            try checkDateOrder(from: from, to: to)
            let result = try await vault.withOwner { [app, operation, outcome, from, to, limit] connection in
                // Days and local times in the owner's time zone.
                var range: (start: Date?, end: Date?)?
                if from != nil || to != nil {
                    range = try dateRange(from: from, to: to, in: try await ownerTimeZone(on: connection))
                }
                let params = AuditEntriesParams(
                    app: app,
                    type: typeID,
                    operation: operation,
                    outcome: outcome,
                    from: range?.start,
                    to: range?.end,
                    limit: limit
                )
                return try await connection.call(Method.auditEntries, params, as: AuditEntriesResult.self)
            }
            // The log's own presentation (docs/AUDIT_LOG.md): JSON lines or a table.
            let entries = result.entries.map { info in
                AuditEntry(
                    sequence: info.index,
                    time: info.time,
                    actor: info.actor == "owner" ? .owner : info.actor == "system" ? .system : .app(info.actor),
                    operation: AuditEntry.Operation(rawValue: info.operation),
                    types: info.types,
                    objectCount: info.count,
                    outcome: AuditEntry.Outcome.allCases.first { $0.description == info.outcome } ?? .error,
                    requestID: info.request,
                    attributes: info.attributes ?? [:]
                )
            }
            if output.json {
                for entry in entries { print(JSONOutput.compacted(entry.jsonLine)) }
                return
            }
            print(AuditEntry.table(entries))
            print("\(result.entries.count) of \(result.total) entries")
        }
    }
}
