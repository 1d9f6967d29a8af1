public import Foundation

/// A config file that cannot be used, or no vault to name: one line, with the file and the line.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// The owner's settings file, `$XDG_CONFIG_HOME/healthvault/config` (else
/// `$HOME/.config/healthvault/config`): `key = value` lines, `#` comments, blank lines. Keys:
/// `vault` (the vault's folder; `~/` means `$HOME`) and `session` (how long `healthvault login`
/// lasts when `--for` is not given). An unknown key, a line without `=`, a key given twice or a
/// value that does not parse is refused with the file and the line: a typo must not quietly send
/// a command to another vault.
public struct ToolConfiguration: Sendable, Equatable {
    /// The vault's folder, absolute.
    public var vault: URL?
    /// The default of `healthvault login --for`, as written (checked by the command).
    public var session: String?
    /// The file read, when there was one.
    public var file: String?

    public static let keys = ["vault", "session"]

    public init(vault: URL? = nil, session: String? = nil, file: String? = nil) {
        self.vault = vault
        self.session = session
        self.file = file
    }

    /// The file's path for `environment`: `$XDG_CONFIG_HOME` when it is absolute, else
    /// `$HOME/.config` (the environment's `HOME`, not the password database's).
    public static func path(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/healthvault/config"
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.config/healthvault/config"
    }

    /// Reads the file for `environment`; no file is an empty configuration.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> ToolConfiguration {
        guard let path = path(environment: environment) else { return ToolConfiguration() }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            if !FileManager.default.fileExists(atPath: path) { return ToolConfiguration() }
            throw ConfigurationError("cannot read \(path): \((error as NSError).localizedDescription)")
        }
        return try parse(text, file: path, environment: environment)
    }

    /// Parses the file's text; `file` names it in messages.
    public static func parse(
        _ text: String,
        file: String,
        environment: [String: String]
    ) throws(ConfigurationError) -> ToolConfiguration {
        var result = ToolConfiguration(file: file)
        var seen: Set<String> = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigurationError("\(file), line \(number): `\(line)` is not `key = value`")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard keys.contains(key) else {
                throw ConfigurationError(
                    "\(file), line \(number): unknown key `\(key)` (known: \(keys.joined(separator: ", ")))"
                )
            }
            guard seen.insert(key).inserted else {
                throw ConfigurationError("\(file), line \(number): `\(key)` is given twice")
            }
            guard !value.isEmpty else { throw ConfigurationError("\(file), line \(number): `\(key)` has no value") }
            switch key {
            case "vault":
                var path = value
                if path == "~" || path.hasPrefix("~/") {
                    guard let home = environment["HOME"], home.hasPrefix("/") else {
                        throw ConfigurationError("\(file), line \(number): `~` in `vault` needs $HOME")
                    }
                    path = home + path.dropFirst()
                }
                guard path.hasPrefix("/") else {
                    throw ConfigurationError(
                        "\(file), line \(number): `vault` must be an absolute path or start with ~/"
                    )
                }
                result.vault = URL(fileURLWithPath: path).standardizedFileURL
            default:
                result.session = value
            }
        }
        return result
    }
}

/// Where a command finds the vault: `--vault`, else `$HEALTHVAULT_DIR`, else the config file's
/// `vault`, else `$XDG_DATA_HOME/healthvault`, else `$HOME/.local/share/healthvault` (README,
/// "Where the vault is"). The owner's tools, healthvaultd and HealthVaultKit's apps all find it
/// this way, so they meet at one socket.
public enum VaultLocation {
    public static func resolve(
        flag: String?,
        configuration: ToolConfiguration,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> URL {
        if let flag { return URL(fileURLWithPath: flag).standardizedFileURL }
        if let env = environment["HEALTHVAULT_DIR"], !env.isEmpty {
            return URL(fileURLWithPath: env).standardizedFileURL
        }
        if let vault = configuration.vault { return vault }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("healthvault").standardizedFileURL
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw ConfigurationError(
                "no vault named: give --vault or set HEALTHVAULT_DIR (neither XDG_DATA_HOME nor HOME is set)"
            )
        }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/healthvault").standardizedFileURL
    }
}
