import ArgumentParser
import CommandSupport
import Foundation
import VaultClient
import VaultCrypto
import VaultProtocol

/// How long a session lasts: a whole number of seconds, minutes, hours or days (`90s`, `15m`,
/// `1h`, `1d`; a number alone is seconds), at most a day.
struct SessionLength: ExpressibleByArgument {
    let seconds: Int

    init?(argument: String) {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = Substring(argument)
        var unit = 1
        if let last = text.last, let multiplier = units[last] {
            unit = multiplier
            text = text.dropLast()
        }
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text),
            value > 0, value <= SessionOpenParams.maximumSeconds / unit
        else { return nil }
        seconds = value * unit
    }

    static var defaultValueDescription: String { "15m" }
}

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Unlock once: later owner commands need no passphrase until the session ends.",
        discussion: """
            Asks for the passphrase once; healthvaultd then issues a session token for your uid that
            lasts --for (15m by default, at most 24h). The token is kept in
            $XDG_RUNTIME_DIR/healthvault/ (0700, checked before each use) and only in healthvaultd's
            memory: it unlocks nothing at rest. `healthvault logout` ends it; so do `healthvault lock`
            and a restart of healthvaultd. A passphrase option (--passphrase-fd, --passphrase-file)
            on a later command is used instead of the session.

            Examples:
              healthvault login
              healthvault login --for 1h
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(
        name: .customLong("for"),
        parsing: .unconditional,
        help: ArgumentHelp(
            "How long the session lasts: 90s, 15m, 1h, 1d (at most 24h; default: `session` in the config file, else 15m).",
            valueName: "duration"
        ),
        transform: { text in
            guard let length = SessionLength(argument: text) else {
                throw ValidationError(
                    "--for \(text) is not a session length: give seconds, minutes, hours or a day (90s, 15m, 1h, 1d), at most 24h"
                )
            }
            return length
        }
    )
    var length: SessionLength?

    func run() async throws {
        guard let file = SessionFile(vault: vault.directory) else {
            throw ToolError(
                "$XDG_RUNTIME_DIR is not set: login keeps its token only in your runtime folder; "
                    + "log in to a systemd session, or set XDG_RUNTIME_DIR to a folder only you can read"
            )
        }
        // A session lives in healthvaultd's memory: without one running there is nothing to log in to.
        try vault.requireVault()
        guard vault.isServed else { throw vault.notServed }
        // The folder is checked before the passphrase is asked.
        _ = try file.read()
        let key = try vault.ownerKey()
        guard case .key = key else {
            // A session is live: logging in again asks the passphrase and replaces it.
            return try await login(with: .key(vault.passphraseKey()), file: file)
        }
        try await login(with: key, file: file)
    }

    /// --for, else the config file's `session`, else 15 minutes.
    private func seconds() throws -> Int {
        if let length { return length.seconds }
        let configuration = try VaultOptions.configuration.get()
        guard let text = configuration.session else { return 15 * 60 }
        guard let length = SessionLength(argument: text) else {
            throw ToolError(
                "\(configuration.file ?? "the config file"): session = \(text) is not a session length (90s, 15m, 1h, 1d, at most 24h)"
            )
        }
        return length.seconds
    }

    private func login(with key: OwnerCredential, file: SessionFile) async throws {
        let seconds = try seconds()
        let opened = try await vault.withOwner(key: key) { connection in
            try await connection.call(
                Method.sessionOpen,
                SessionOpenParams(seconds: seconds),
                as: SessionOpenResult.self
            )
        }
        guard let token = SessionFile.token(hex: opened.token) else {
            throw ToolError("healthvaultd answered a malformed session token")
        }
        defer { token.wipe() }
        let expires = Date().addingTimeInterval(Double(opened.seconds))
        try file.write(token: token, expires: expires)
        if output.json {
            return try printJSON(
                SessionJSON(directory: vault.directory.path, expires: expires, seconds: opened.seconds)
            )
        }
        print("Logged in to \(vault.directory.path) until \(timestamp(expires)); `healthvault logout` ends it.")
    }
}

struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "End the session of `healthvault login`: owner commands ask for the passphrase again.",
        discussion: "Example: healthvault logout"
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        guard let file = SessionFile(vault: vault.directory), let session = try file.read() else {
            if output.json { return try printJSON(LogoutJSON(directory: vault.directory.path, session: false)) }
            print("No session for \(vault.directory.path).")
            return
        }
        defer {
            session.token.wipe()
            file.remove()
        }
        var closed = false
        if vault.isServed {
            do {
                let connection = try await vault.connect(identity: .ownerSession(token: session.token))
                closed = try await connection.call(Method.sessionClose, Empty(), as: SessionCloseResult.self).closed
                await connection.closeAndWait()
            } catch is SessionRefused {
                closed = false
            }
        }
        if output.json {
            return try printJSON(LogoutJSON(directory: vault.directory.path, session: true, ended: closed))
        }
        print(
            closed
                ? "Logged out of \(vault.directory.path)."
                : "Logged out of \(vault.directory.path) (healthvaultd had already ended the session)."
        )
    }
}

/// `login --json` (docs/COMMAND_LINE.md): where, until when, and how long.
struct SessionJSON: Encodable {
    let directory: String
    let expires: Date
    let seconds: Int
}

/// `logout --json`: whether there was a session, and whether healthvaultd still knew it.
struct LogoutJSON: Encodable {
    let directory: String
    let session: Bool
    var ended: Bool?
}
