import ArgumentParser
import AuditLog
import CommandSupport
import Foundation
import HealthModel
import VaultClient
import VaultCrypto
import VaultProtocol
import VaultStore

struct Init: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a vault: a new directory, its keys wrapped under your passphrase.",
        discussion: """
            The directory is --vault, else $HEALTHVAULT_DIR, else ~/.local/share/healthvault. \
            --json prints {"vault": id, "directory": path, "auditKey": path}.

            Examples:
              healthvault init
              healthvault init --vault ~/health --passphrase-fd 3 3< <(pass show healthvault)
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Take a passphrase the strength check finds weak (on a terminal you are asked instead).")
    var allowWeakPassphrase = false

    func run() async throws {
        let directory = vault.directory
        // Before the passphrase is asked: a folder that cannot take a vault is refused now.
        do {
            try Vault.checkCreatable(at: directory)
        } catch {
            throw ToolError(Self.notCreatable(error, directory: directory))
        }
        let passphrase = try PassphraseSource(fd: vault.passphraseFd, file: vault.passphraseFile).readNew(
            prompt: "New passphrase for \(directory.path): ",
            allowWeak: allowWeakPassphrase,
            nothingDone: "nothing was created"
        )
        defer { passphrase.wipe() }
        if !output.json {
            FileHandle.standardError.write(Data("Deriving the key (Argon2id, about a second)...\n".utf8))
        }
        let created: Vault
        do {
            created = try Vault.create(at: directory, passphrase: passphrase)
        } catch {
            throw ToolError(Self.notCreatable(error, directory: directory))
        }
        defer { created.lock() }
        let keyPath = directory.appendingPathComponent(Vault.auditPublicKeyFileName).path
        if output.json {
            try printJSON(["vault": created.vaultID.uuidString, "directory": directory.path, "auditKey": keyPath])
        } else {
            print("Created vault \(created.vaultID) in \(directory.path).")
            print("Auditors verify its log with the key in \(keyPath).")
            print("Start serving it with: healthvaultd --vault \(directory.path)")
        }
    }

    /// Why no vault can be made at `directory`, with what to do.
    static func notCreatable(_ error: StoreError, directory: URL) -> String {
        switch error {
        case .vaultExists(let message):
            if (try? Vault.checkAccessible(directory)) != nil {
                return
                    "\(directory.path) holds a vault already; nothing was created (`healthvault status --vault \(directory.path)` shows it)"
            }
            return "\(message); nothing was created"
        default:
            return "\(error); nothing was created"
        }
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Whether the vault is served and unlocked; with the passphrase, its apps and log too.",
        discussion: """
            --json prints one object: {"directory", "served": bool, "vault"?: id, "locked"?: bool}, \
            and with --detail the counts (connections, apps, pendingRequests, auditEntries) and \
            the daemon's memory (residentBytes, storeBytes).

            Examples:
              healthvault status
              healthvault status --detail --json
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Authenticate as the owner and show counts (apps, pending requests, log entries).")
    var detail = false

    func run() async throws {
        let directory = vault.directory
        try vault.requireVault()
        func notServed(_ detail: String = "") throws {
            if output.json {
                try printJSON(StatusJSON(directory: directory.path, served: false))
            } else {
                print(
                    "\(directory.path): a vault, not served\(detail) (start it with `healthvaultd --vault \(directory.path)`)."
                )
            }
        }
        guard vault.isServed else { return try notServed() }
        let connection: VaultConnection
        do {
            connection = try await VaultConnection.connect(socketPath: vault.socketPath, identity: .anonymous)
        } catch let error as ConnectionError where error.reason == .notListening {
            return try notServed("; a daemon that was killed left its socket")
        } catch let error as RPCError {
            throw ToolError("healthvaultd refused this connection: \(error.message)")
        }
        let hello = connection.hello
        await connection.closeAndWait()
        if detail {
            let status = try await vault.withOwner { try await $0.call(Method.status, Empty(), as: StatusResult.self) }
            if output.json {
                return try printJSON(
                    StatusJSON(
                        directory: status.directory,
                        served: true,
                        vault: status.vault,
                        locked: status.locked,
                        connections: status.connections,
                        apps: status.apps,
                        pendingRequests: status.pendingRequests,
                        auditEntries: status.auditEntries,
                        residentBytes: status.residentBytes,
                        storeBytes: status.storeBytes
                    )
                )
            }
            print("vault        \(status.vault)")
            print("directory    \(status.directory)")
            print("served       yes (\(status.connections) connection\(status.connections == 1 ? "" : "s"))")
            print("locked       \(status.locked ? "yes" : "no")")
            if let apps = status.apps { print("apps         \(apps)") }
            if let pending = status.pendingRequests { print("requests     \(pending) pending") }
            if let entries = status.auditEntries { print("audit log    \(entries) entr\(entries == 1 ? "y" : "ies")") }
            if let resident = status.residentBytes {
                let store = status.storeBytes.map { ", of which \($0 >> 20) MiB in the store's caches" } ?? ""
                print("memory       \(resident >> 20) MiB\(store)")
            }
            return
        }
        // Only what the owner asked: not the handshake's nonce, connection id or limits.
        if output.json {
            return try printJSON(
                StatusJSON(directory: directory.path, served: true, vault: hello.vault, locked: hello.locked)
            )
        }
        print(
            "\(directory.path): vault \(hello.vault), served by healthvaultd, \(hello.locked ? "locked" : "unlocked")."
        )
    }
}

/// `status --json`: the vault as its owner sees it, without the protocol's handshake.
struct StatusJSON: Encodable {
    var directory: String
    var served: Bool
    var vault: UUID?
    var locked: Bool?
    var connections: Int?
    var apps: Int?
    var pendingRequests: Int?
    var auditEntries: Int?
    var residentBytes: Int?
    var storeBytes: Int?
}

/// `lock --json`, `unlock --json`, `passwd --json`: the vault directory and its state.
struct VaultStateJSON: Encodable {
    let directory: String
    let locked: Bool
}

struct Lock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lock the served vault: keys wiped from the daemon's memory, apps refused until unlocked.",
        discussion: "Example: healthvault lock"
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await vault.withOwner { _ = try await $0.call(Method.lock, Empty(), as: Empty.self) }
        // healthvaultd forgot every session token: its file goes too.
        SessionFile(vault: vault.directory)?.remove()
        if output.json { return try printJSON(VaultStateJSON(directory: vault.directory.path, locked: true)) }
        print("Locked \(vault.directory.path).")
    }
}

struct Unlock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Unlock the served vault with the passphrase.",
        discussion: "Example: healthvault unlock"
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try vault.requireVault()
        guard vault.isServed else { throw vault.notServed }
        let passphrase = try vault.passphrase(prompt: "Passphrase for \(vault.directory.path): ")
        defer { passphrase.wipe() }
        let key = try vault.ownerKey(passphrase: passphrase, wrong: vault.wrongPassphrase)
        let connection = try await vault.connect(identity: .owner(key: key))
        defer { connection.close() }
        let encoded = passphrase.withUnsafeBytes { Data($0).base64EncodedString() }
        _ = try await connection.call(Method.unlock, PassphraseParams(passphrase: encoded), as: Empty.self)
        if output.json { return try printJSON(VaultStateJSON(directory: vault.directory.path, locked: false)) }
        print("Unlocked \(vault.directory.path).")
    }
}

struct Passwd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change the passphrase (the keys are rewrapped; the database is not re-encrypted).",
        discussion: """
            The current passphrase is checked first; then the new one is asked (twice on a \
            terminal) and its strength said: a weak one is asked again unless you take it.

            Examples:
              healthvault passwd
              healthvault passwd --passphrase-file old.txt --new-passphrase-file new.txt
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .long, parsing: .unconditional, help: "Read the new passphrase from this open file descriptor.")
    var newPassphraseFd: Int32?

    @Option(name: .long, help: "Read the new passphrase from this file.")
    var newPassphraseFile: String?

    @Flag(help: "Take a new passphrase the strength check finds weak (on a terminal you are asked instead).")
    var allowWeakPassphrase = false

    func run() async throws {
        try vault.requireVault()
        let source = try PassphraseSource(fd: newPassphraseFd, file: newPassphraseFile, option: "--new-passphrase")
        // No daemon: this process is the only one that may open the vault meanwhile (taken
        // before anything is asked, so a daemon starting meanwhile is refused, not raced).
        let served = vault.isServed
        let lock = served ? nil : try DaemonLock(directory: vault.directory)
        defer { withExtendedLifetime(lock) {} }
        let old = try vault.passphrase(prompt: "Current passphrase for \(vault.directory.path): ")
        defer { old.wipe() }
        // The current passphrase is checked before the new one is asked.
        let key = try vault.ownerKey(passphrase: old, wrong: "the current passphrase is wrong; nothing was changed")
        let new = try source.readNew(
            prompt: "New passphrase: ",
            allowWeak: allowWeakPassphrase,
            nothingDone: "nothing was changed"
        )
        defer { new.wipe() }
        if served {
            let connection = try await vault.connect(identity: .owner(key: key))
            defer { connection.close() }
            let params = ChangePassphraseParams(
                old: old.withUnsafeBytes { Data($0).base64EncodedString() },
                new: new.withUnsafeBytes { Data($0).base64EncodedString() }
            )
            _ = try await connection.call(Method.changePassphrase, params, as: Empty.self)
        } else {
            do {
                let opened = try Vault.open(at: vault.directory, passphrase: old, by: .owner)
                defer { opened.lock() }
                try opened.changePassphrase(from: old, to: new)
                // Recorded as healthvaultd records it (docs/AUDIT_LOG.md): the key file is rewrapped.
                _ = try? opened.signAuditCheckpoint(
                    recording: AuditEntry(time: Date(), actor: .owner, operation: .passphraseChange, outcome: .ok)
                )
            } catch {
                if case .wrongPassphrase = error {
                    throw ToolError("the current passphrase is wrong; nothing was changed")
                }
                throw ToolError(VaultFolder.message(for: error, directory: vault.directory))
            }
        }
        if output.json { return try printJSON(["directory": vault.directory.path, "changed": "passphrase"]) }
        print("Changed the passphrase of \(vault.directory.path).")
    }
}
