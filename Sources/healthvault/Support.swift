import ArgumentParser
import CommandSupport
import Foundation
import Glibc
import HealthInterchange
import HealthModel
import Synchronization
import VaultClient
import VaultCrypto
import VaultProtocol
import VaultStore

/// The options every command that touches a vault shares.
struct VaultOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "The vault directory (default: $HEALTHVAULT_DIR, else `vault` in ~/.config/healthvault/config, else $XDG_DATA_HOME/healthvault, else ~/.local/share/healthvault)."
    )
    var vault: String?

    @Option(name: .long, parsing: .unconditional, help: "Read the passphrase from this open file descriptor.")
    var passphraseFd: Int32?

    @Option(name: .long, help: "Read the passphrase from this file (its first line).")
    var passphraseFile: String?

    /// The owner's config file, read once (``ToolConfiguration``).
    static let configuration = Result { () throws -> ToolConfiguration in try ToolConfiguration.load() }
        .mapError { ToolError(($0 as? ConfigurationError)?.description ?? "\($0)") }

    /// A config file that cannot be used, or no vault to name, stops the command before it
    /// starts, with the file and the line.
    func validate() throws {
        do {
            _ = try VaultLocation.resolve(flag: vault, configuration: Self.configuration.get())
        } catch let error as ConfigurationError {
            throw ToolError(error.description)
        }
    }

    /// The vault's folder: --vault, $HEALTHVAULT_DIR, the config file's `vault`,
    /// $XDG_DATA_HOME/healthvault, $HOME/.local/share/healthvault (``VaultLocation``).
    var directory: URL {
        let configuration = (try? Self.configuration.get()) ?? ToolConfiguration()
        return (try? VaultLocation.resolve(flag: vault, configuration: configuration))
            ?? URL(fileURLWithPath: "/nonexistent/healthvault")
    }

    var socketPath: String { directory.appendingPathComponent(WireProtocol.socketFileName).path }

    func passphrase(prompt: String = "Passphrase: ") throws -> SecureBytes {
        try PassphraseSource(fd: passphraseFd, file: passphraseFile).read(prompt: prompt)
    }

    /// A wrong passphrase for this vault, said with where it came from and what to do.
    var wrongPassphrase: String {
        ((try? PassphraseSource(fd: passphraseFd, file: passphraseFile)) ?? .prompt)
            .wrongPassphrase(for: directory.path)
    }

    /// Checks, before anything is asked, that the folder holds a vault this user can open: what
    /// is wrong is said as what it is (``VaultFolder``).
    func requireVault() throws {
        try VaultFolder.require(directory)
    }

    /// Whether the daemon's socket is there (a daemon runs, or one killed left it).
    var isServed: Bool {
        access(socketPath, F_OK) == 0
    }

    /// The error for a vault no daemon serves.
    var notServed: ToolError {
        ToolError(
            "healthvaultd is not running for \(directory.path); start it with `healthvaultd --vault \(directory.path)`"
        )
    }

    /// An owner connection to the vault's daemon: the session of `healthvault login`, else the
    /// passphrase derives the owner key, which signs the daemon's challenge.
    func ownerConnection() async throws -> VaultConnection {
        try await connect(owner: ownerKey())
    }

    /// How this command proves it is the owner, once the folder and the daemon are checked: the
    /// session of `healthvault login` when there is one and no passphrase option is given, else
    /// the owner key from the passphrase. For a command that connects twice (one that asks the
    /// owner in between, longer than the daemon keeps an idle connection) without asking twice.
    func ownerKey() throws -> OwnerCredential {
        try requireVault()
        guard isServed else {
            guard LocalDaemon.permitted.load(ordering: .relaxed) else { throw notServed }
            return .key(try serveLocally())
        }
        var context: String?
        if passphraseFd == nil, passphraseFile == nil, let file = SessionFile(vault: directory) {
            let existed = file.exists
            if let session = try file.read() { return .session(session.token, file) }
            if existed { context = "the session of `healthvault login` has ended" }
        }
        return .key(try passphraseKey(context: context))
    }

    /// With no healthvaultd: asks the passphrase, opens the vault in this process and serves it
    /// to this command on a private socket (``LocalDaemon``); returns the owner key.
    func serveLocally() throws -> Ed25519.SigningKey {
        let passphrase = try self.passphrase(prompt: "Passphrase for \(directory.path): ")
        defer { passphrase.wipe() }
        let key = try ownerKey(passphrase: passphrase, wrong: wrongPassphrase)
        try LocalDaemon.start(directory: directory, passphrase: passphrase)
        return key
    }

    /// The owner key from the passphrase; `context` opens the message when it cannot be asked.
    func passphraseKey(context: String? = nil) throws -> Ed25519.SigningKey {
        let passphrase: SecureBytes
        do {
            passphrase = try self.passphrase(prompt: "Passphrase for \(directory.path): ")
        } catch let error as ToolError {
            throw ToolError([context, error.description].compactMap { $0 }.joined(separator: "; "))
        }
        defer { passphrase.wipe() }
        return try ownerKey(passphrase: passphrase, wrong: wrongPassphrase)
    }

    /// Connects as the owner with `credential`; a session the daemon no longer knows (expired,
    /// ended, the vault locked, the daemon restarted) is removed and the passphrase asked instead.
    func connect(owner credential: OwnerCredential) async throws -> VaultConnection {
        switch credential {
        case .key(let key):
            return try await connect(identity: .owner(key: key))
        case .session(let token, let file):
            do {
                return try await connect(identity: .ownerSession(token: token))
            } catch is SessionRefused {
                file.remove()
                return try await connect(
                    identity: .owner(
                        key: passphraseKey(
                            context: "healthvaultd no longer knows the session of `healthvault login` "
                                + "(it expired or ended, the vault was locked, or the daemon restarted)"
                        )
                    )
                )
            }
        }
    }

    /// Connects to the vault's daemon as `identity`; a socket no daemon listens on is said as that.
    func connect(identity: ClientIdentity) async throws -> VaultConnection {
        do {
            return try await VaultConnection.connect(
                socketPath: LocalDaemon.socketPath ?? socketPath,
                identity: identity
            )
        } catch let error as ConnectionError where error.reason == .notListening {
            throw ToolError(
                "healthvaultd is not running for \(directory.path) (a daemon that was killed left its socket); "
                    + "start it with `healthvaultd --vault \(directory.path)`"
            )
        } catch let error as RPCError where error.code == RPCError.authenticationFailed {
            if case .ownerSession = identity { throw SessionRefused() }
            // The owner key came from the right passphrase: the daemon refused this user, or it
            // serves another vault than the one now in the folder.
            let owner = (try? FileManager.default.attributesOfItem(atPath: socketPath)[.ownerAccountID] as? NSNumber)
                .flatMap { $0 }?.uint32Value
            if let owner, owner != getuid() {
                throw ToolError(
                    "healthvaultd refused you (uid \(getuid())): it runs as uid \(owner) and serves only that user "
                        + "and those its --allowed-uid names; run this as that user"
                )
            }
            throw ToolError(
                "healthvaultd refused the owner key of \(directory.path): it serves another vault than the one now "
                    + "in the folder; restart it (`healthvaultd --vault \(directory.path)`)"
            )
        }
    }

    /// The owner key, derived from the passphrase; a wrong one is `wrong`.
    func ownerKey(passphrase: SecureBytes, wrong: String) throws -> Ed25519.SigningKey {
        do {
            return try Vault.ownerKey(at: directory, passphrase: passphrase)
        } catch {
            if case .wrongPassphrase = error { throw ToolError(wrong) }
            throw ToolError(VaultFolder.message(for: error, directory: directory))
        }
    }

    /// Runs `body` on an owner connection, closing it afterwards.
    func withOwner<T>(key: OwnerCredential? = nil, _ body: (VaultConnection) async throws -> T) async throws -> T {
        let connection: VaultConnection
        if let key {
            connection = try await connect(owner: key)
        } else {
            connection = try await ownerConnection()
        }
        do {
            let result = try await body(connection)
            await connection.closeAndWait()
            return result
        } catch {
            await connection.closeAndWait()
            throw error
        }
    }
}

/// How an owner command proves it is the owner (docs/PROTOCOL.md, "authenticate").
enum OwnerCredential {
    /// The owner key, derived from the passphrase.
    case key(Ed25519.SigningKey)
    /// The token of `healthvault login`, and the file it came from.
    case session(SecureBytes, SessionFile)
}

/// The daemon refused a session token: it no longer knows it.
struct SessionRefused: Error {}

/// `--json` (docs/COMMAND_LINE.md, "JSON output"): a command that gives one result prints one
/// JSON object on one line; a command that lists prints one object per line (JSON lines), nothing
/// for an empty list. Numbers are JSON numbers, dates RFC 3339 strings in UTC, types HealthKit
/// identifiers; samples and statistics in the shapes of docs/MODEL_JSON.md.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON: one object, or one object per line for a list (docs/COMMAND_LINE.md).")
    var json = false
}

/// A type named by its HealthKit identifier, its short name in any case (`stepCount`,
/// `stepcount`, `heart_rate`), or an alias (`steps`); anything else is an error that suggests the
/// closest short names (docs/NAMES.md).
func parseObjectType(_ name: String) throws -> ObjectType {
    do {
        return try ObjectType.resolving(name)
    } catch {
        throw ToolError(error.message)
    }
}

func parseSampleType(_ name: String) throws -> SampleType {
    let type = try parseObjectType(name)
    guard let sampleType = type.sampleType else {
        throw ToolError("\(type.shortName) is a \(type.kind) type, not a sample type")
    }
    return sampleType
}

/// A unit as the owner writes it: HealthKit's unit string or a name people use (`bpm`, `°F`,
/// `lbs`; docs/UNITS.md, "Names people use"). One that does not parse is said with the closest
/// units (of `type`'s kind, when one is named) and where the list is: `unknown unit "kgs"; did
/// you mean kg? (docs/UNITS.md lists them)`. `option` names the option it was given to
/// (`--unit`), nil for a positional argument, whose unit is the whole of it.
func parseUnit(_ text: String, option: String?, for type: QuantityTypeIdentifier? = nil) throws -> HealthUnit {
    do {
        return try HealthUnit(named: text)
    } catch {
        let suggestions = HealthUnit.suggestions(for: text, compatibleWith: type?.canonicalUnit)
        let hint =
            switch suggestions.count {
            case 0: ""
            case 1: "; did you mean \(suggestions[0])?"
            default: "; did you mean one of \(suggestions.joined(separator: ", "))?"
            }
        throw ToolError("\(option.map { "\($0): " } ?? "")\(error.message)\(hint) (docs/UNITS.md lists them)")
    }
}

/// The owner's time zone, as `timezone` set it: the zone dates are shown and read in.
func ownerTimeZone(on connection: VaultConnection) async throws -> TimeZone {
    let name = try await connection.call(Method.settingsShow, Empty(), as: SettingsResult.self).timeZone
    return TimeZone(identifier: name) ?? .gmt
}

/// The `from`...`to` date predicate of two date options, read in the owner's time zone; nil
/// when neither is given; `--to` not after `--from` is refused (``dateRange(from:to:in:now:)``).
func datePredicate(
    from: DateArgument?,
    to: DateArgument?,
    on connection: VaultConnection
) async throws -> SamplePredicate? {
    guard from != nil || to != nil else { return nil }
    return try datePredicate(from: from, to: to, in: try await ownerTimeZone(on: connection))
}

/// The `from`...`to` date predicate of two date options, read in `zone`; nil when neither is given.
func datePredicate(from: DateArgument?, to: DateArgument?, in zone: TimeZone) throws -> SamplePredicate? {
    try dateRange(from: from, to: to, in: zone).map { .date(start: $0.start, end: $0.end, options: []) }
}

/// `--from` and `--to` as dates, days and local times in the owner's time zone `zone`, nil when
/// neither is given; `--to` must come after `--from`, said with the options' own names.
func dateRange(
    from: DateArgument?,
    to: DateArgument?,
    in zone: TimeZone,
    now: Date = Date()
) throws -> (start: Date?, end: Date?)? {
    guard from != nil || to != nil else { return nil }
    try checkDateOrder(from: from, to: to)
    let start = from?.date(in: zone, now: now)
    let end = to?.date(in: zone, now: now)
    if let start, let end, end <= start { throw dateOrderError(from: from, to: to) }
    return (start, end)
}

/// `--to` not after `--from`, refused before anything is asked (the passphrase, the daemon)
/// whenever that does not depend on the owner's time zone: two days or local times, two
/// instants, two dates relative to today or two relative to now. The rest is checked once the
/// zone is known (``dateRange(from:to:in:now:)``).
func checkDateOrder(from: DateArgument?, to: DateArgument?) throws {
    guard let from, let to, let after = to.isAfter(from), !after else { return }
    throw dateOrderError(from: from, to: to)
}

private func dateOrderError(from: DateArgument?, to: DateArgument?) -> ToolError {
    ToolError("--to \(to?.text ?? "") is not after --from \(from?.text ?? ""): no time lies between them")
}

/// A time for people: to the second, UTC.
func timestamp(_ date: Date) -> String {
    let string = RFC3339.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    return string.replacingOccurrences(of: ".000Z", with: "Z")
}

/// Aligns rows in columns.
func table(_ rows: [[String]]) -> String {
    guard let first = rows.first else { return "" }
    let widths = first.indices.map { column in
        rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
        row.enumerated().map { column, cell in
            column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }.joined(separator: "\n")
}

/// The daemon's refusal as one line in the tools' style: its message for a person, never the
/// protocol's code or field names (`invalidArgument: app: ...`); a method this daemon does not
/// know means it is older than this command.
func daemonMessage(_ error: RPCError) -> String {
    switch error.code {
    case RPCError.methodNotFound:
        return "this healthvaultd does not know the request (it is older than this healthvault); "
            + "restart it with the healthvaultd that came with this healthvault"
    default:
        return error.message
    }
}
