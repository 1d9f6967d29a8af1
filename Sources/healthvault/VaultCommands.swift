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

    func run() async throws {
        let directory = vault.directory
        let passphrase = try vault.passphrase(prompt: "New passphrase for \(directory.path): ")
        defer { passphrase.wipe() }
        if vault.passphraseFd == nil, vault.passphraseFile == nil {
            let again = try vault.passphrase(prompt: "Repeat the passphrase: ")
            defer { again.wipe() }
            guard passphrase.constantTimeEquals(again) else {
                throw ToolError("the passphrases differ; nothing was created")
            }
        }
        if !output.json {
            FileHandle.standardError.write(Data("Deriving the key (Argon2id, about a second)...\n".utf8))
        }
        let created: Vault
        do {
            created = try Vault.create(at: directory, passphrase: passphrase)
        } catch {
            throw ToolError("\(error)")
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
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("keyring.json").path) else {
            throw ToolError("\(directory.path) is not a vault; create one with `healthvault init`")
        }
        guard FileManager.default.fileExists(atPath: vault.socketPath) else {
            if output.json {
                try printJSON(StatusJSON(directory: directory.path, served: false))
            } else {
                print(
                    "\(directory.path): a vault, not served (start it with `healthvaultd --vault \(directory.path)`)."
                )
            }
            return
        }
        let connection: VaultConnection
        do {
            connection = try await VaultConnection.connect(socketPath: vault.socketPath, identity: .anonymous)
        } catch let error as RPCError {
            throw ToolError("healthvaultd refused this connection: \(error.healthError.message)")
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
        let passphrase = try vault.passphrase(prompt: "Passphrase for \(vault.directory.path): ")
        defer { passphrase.wipe() }
        let key = try vault.ownerKey(passphrase: passphrase, wrong: "wrong passphrase")
        let connection = try await VaultConnection.connect(socketPath: vault.socketPath, identity: .owner(key: key))
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
            Examples:
              healthvault passwd
              healthvault passwd --passphrase-file old.txt --new-passphrase-file new.txt
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: "Read the new passphrase from this open file descriptor.")
    var newPassphraseFd: Int32?

    @Option(name: .long, help: "Read the new passphrase from this file.")
    var newPassphraseFile: String?

    func run() async throws {
        let old = try vault.passphrase(prompt: "Current passphrase: ")
        defer { old.wipe() }
        let source = try PassphraseSource(fd: newPassphraseFd, file: newPassphraseFile)
        let new = try source.read(prompt: "New passphrase: ")
        defer { new.wipe() }
        if source == .prompt {
            let again = try source.read(prompt: "Repeat the new passphrase: ")
            defer { again.wipe() }
            guard new.constantTimeEquals(again) else { throw ToolError("the passphrases differ; nothing was changed") }
        }
        if FileManager.default.fileExists(atPath: vault.socketPath) {
            let key = try vault.ownerKey(passphrase: old, wrong: "the current passphrase is wrong")
            let connection = try await VaultConnection.connect(socketPath: vault.socketPath, identity: .owner(key: key))
            defer { connection.close() }
            let params = ChangePassphraseParams(
                old: old.withUnsafeBytes { Data($0).base64EncodedString() },
                new: new.withUnsafeBytes { Data($0).base64EncodedString() }
            )
            _ = try await connection.call(Method.changePassphrase, params, as: Empty.self)
        } else {
            // No daemon: this process is the only one that may open the vault meanwhile.
            let lock = try DaemonLock(directory: vault.directory)
            defer { withExtendedLifetime(lock) {} }
            do {
                let opened = try Vault.open(at: vault.directory, passphrase: old, by: .owner)
                defer { opened.lock() }
                try opened.changePassphrase(from: old, to: new)
                // Recorded as healthvaultd records it (docs/AUDIT_LOG.md): the key file is rewrapped.
                _ = try? opened.signAuditCheckpoint(
                    recording: AuditEntry(time: Date(), actor: .owner, operation: .passphraseChange, outcome: .ok)
                )
            } catch {
                if case .wrongPassphrase = error { throw ToolError("the current passphrase is wrong") }
                throw ToolError("\(error)")
            }
        }
        if output.json { return try printJSON(["directory": vault.directory.path, "changed": "passphrase"]) }
        print("Changed the passphrase of \(vault.directory.path).")
    }
}
