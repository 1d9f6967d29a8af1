import ArgumentParser
import CommandSupport
import Foundation
import HealthInterchange
import HealthModel
import VaultClient
import VaultCrypto
import VaultProtocol
import VaultStore

/// The options every command that touches a vault shares.
struct VaultOptions: ParsableArguments {
    @Option(name: .long, help: "The vault directory (default: $HEALTHVAULT_DIR, else ~/.local/share/healthvault).")
    var vault: String?

    @Option(name: .long, help: "Read the passphrase from this open file descriptor.")
    var passphraseFd: Int32?

    @Option(name: .long, help: "Read the passphrase from this file (its first line).")
    var passphraseFile: String?

    var directory: URL {
        if let vault { return URL(fileURLWithPath: vault).standardizedFileURL }
        if let env = ProcessInfo.processInfo.environment["HEALTHVAULT_DIR"], !env.isEmpty {
            return URL(fileURLWithPath: env).standardizedFileURL
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/healthvault")
    }

    var socketPath: String { directory.appendingPathComponent(WireProtocol.socketFileName).path }

    func passphrase(prompt: String = "Passphrase: ") throws -> SecureBytes {
        try PassphraseSource(fd: passphraseFd, file: passphraseFile).read(prompt: prompt)
    }

    /// An owner connection to the vault's daemon: the passphrase derives the owner key, which
    /// signs the daemon's challenge.
    func ownerConnection() async throws -> VaultConnection {
        guard FileManager.default.fileExists(atPath: socketPath) else {
            throw ToolError(
                "healthvaultd is not running for \(directory.path); start it with `healthvaultd --vault \(directory.path)`"
            )
        }
        let passphrase = try passphrase(prompt: "Passphrase for \(directory.path): ")
        defer { passphrase.wipe() }
        let key = try ownerKey(passphrase: passphrase, wrong: "wrong passphrase")
        return try await VaultConnection.connect(socketPath: socketPath, identity: .owner(key: key))
    }

    /// The owner key, derived from the passphrase; a wrong one is `wrong`.
    func ownerKey(passphrase: SecureBytes, wrong: String) throws -> Ed25519.SigningKey {
        do {
            return try Vault.ownerKey(at: directory, passphrase: passphrase)
        } catch {
            if case .wrongPassphrase = error { throw ToolError(wrong) }
            throw ToolError("\(error)")
        }
    }

    /// Runs `body` on an owner connection, closing it afterwards.
    func withOwner<T>(_ body: (VaultConnection) async throws -> T) async throws -> T {
        let connection = try await ownerConnection()
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
/// `lbs`; docs/UNITS.md, "Names people use").
func parseUnit(_ text: String, option: String) throws -> HealthUnit {
    do {
        return try HealthUnit(named: text)
    } catch {
        throw ToolError("\(option): \(error.message)")
    }
}

/// Prints a value as JSON (sorted keys, RFC 3339 dates), one line.
func printJSON(_ value: some Encodable) throws {
    print(String(decoding: try HealthJSON.encode(value), as: UTF8.self))
}

/// Prints a list as JSON lines: one object per line, nothing for an empty list.
func printJSONLines<Element: Encodable>(_ values: some Sequence<Element>) throws {
    for value in values { try printJSON(value) }
}

/// The owner's time zone, as `timezone` set it: the zone dates are shown and read in.
func ownerTimeZone(on connection: VaultConnection) async throws -> TimeZone {
    let name = try await connection.call(Method.settingsShow, Empty(), as: SettingsResult.self).timeZone
    return TimeZone(identifier: name) ?? .gmt
}

/// The `from`...`to` date predicate of two date options, read in the owner's time zone; nil
/// when neither is given.
func datePredicate(
    from: DateArgument?,
    to: DateArgument?,
    on connection: VaultConnection
) async throws -> SamplePredicate? {
    guard from != nil || to != nil else { return nil }
    return datePredicate(from: from, to: to, in: try await ownerTimeZone(on: connection))
}

/// The `from`...`to` date predicate of two date options, read in `zone`; nil when neither is given.
func datePredicate(from: DateArgument?, to: DateArgument?, in zone: TimeZone) -> SamplePredicate? {
    guard from != nil || to != nil else { return nil }
    let now = Date()
    return .date(start: from?.date(in: zone, now: now), end: to?.date(in: zone, now: now), options: [])
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
