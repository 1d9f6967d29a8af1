import ArgumentParser
import CommandSupport
import Foundation
import VaultClient
import VaultCrypto
import VaultProtocol
import VaultStore

/// `healthvault backup`: a copy of the whole vault, still encrypted, made by the daemon while it
/// serves (docs/VAULT_FORMAT.md, "Backups").
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Back the vault up while it is served: into a new directory, or as a restic snapshot.",
        discussion: """
            The daemon copies the database as one consistent snapshot (apps keep working; with \
            no daemon serving the vault, the command opens it itself), with \
            the key file, the audit public key and the checkpoint that covers the backup, and \
            records it as vault.backup. Nothing is ever written in the clear: the database pages \
            stay SQLCipher's, the keys stay wrapped under your passphrase (the backup opens with \
            the passphrase you have when you make it). With --restic the backup is stored as a \
            snapshot of a restic repository (REPO, else $RESTIC_REPOSITORY; restic's password and \
            backend settings come from its usual environment variables), which encrypts and \
            deduplicates it again: a day's new samples add little.

            Examples:
              healthvault backup /media/usb/healthvault-2026-11-26
              healthvault backup --restic sftp:me@nas.local:/srv/restic/health
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "A new (or empty) directory; with --restic, the restic repository (else $RESTIC_REPOSITORY).")
    var destination: String?

    @Flag(help: "Store the backup as a snapshot in a restic repository.")
    var restic = false

    @Option(
        help:
            "How the database is copied: online-backup (SQLite's online backup) or file-image (its pages as on disk; the default with --restic)."
    )
    var method: String?

    func validate() throws {
        if !restic, destination == nil { throw ValidationError("name the backup's directory, or use --restic") }
        if let method, BackupMethod(rawValue: method) == nil {
            throw ValidationError("--method is online-backup or file-image")
        }
    }

    func run() async throws {
        try vault.requireVault()
        let terminal = isatty(2) == 1 && !output.json
        if restic {
            return try await runRestic(terminal: terminal)
        }
        let target = URL(fileURLWithPath: destination!).standardizedFileURL
        let result = try await backUp(
            into: target,
            method: method ?? BackupMethod.onlineBackup.rawValue,
            terminal: terminal
        )
        if output.json { return try printJSON(result) }
        let bytes = result.files.values.reduce(0) { $0 + $1.bytes }
        print(
            "Backed up vault \(result.vault) into \(target.path): \(Self.size(bytes)), still encrypted "
                + "(the database copied by \(result.method); recorded as vault.backup, audit entry \(result.checkpointSize - 1))."
        )
        print("It opens with the passphrase the vault has now. Check it with `healthvault check \(target.path)`.")
    }

    /// Asks the daemon for the backup, showing its progress on a terminal; with no daemon
    /// serving the vault, opens it here (as `passwd` does), backs it up and locks it again.
    /// `then` runs once the backup is made, the vault still open when this command opened it; when
    /// it throws, the backup is recorded as failed (`vault.backup`, outcome `error`).
    func backUp(
        into target: URL,
        method: String,
        terminal: Bool,
        then: (BackupResult) async throws -> Void = { _ in }
    ) async throws -> BackupResult {
        let started = Date()
        guard FileManager.default.fileExists(atPath: vault.socketPath) else {
            return try await backUpWithoutDaemon(
                into: target,
                method: method,
                terminal: terminal,
                started: started,
                then: then
            )
        }
        let credential = try vault.ownerKey()
        let result = try await vault.withOwner(key: credential) { connection in
            let watcher = Task {
                for await progress in connection.backupProgress() where terminal {
                    FileHandle.standardError.write(Data(Self.progressLine(progress, since: started).utf8))
                }
            }
            defer { watcher.cancel() }
            return try await connection.call(
                Method.backup,
                BackupParams(directory: target.path, method: method),
                as: BackupResult.self
            )
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        try await Self.recordingFailure(
            of: { try await then(result) },
            // A new connection (the step may outlast the daemon's idle timeout), proved the same way.
            by: {
                try await vault.withOwner(key: credential) { connection in
                    _ = try await connection.call(Method.backupFailed, Empty(), as: Empty.self)
                }
            }
        )
        return result
    }

    /// Runs `step` (what follows a backup made and recorded); when it throws, records the
    /// backup's failure with `record` (a warning when even that fails) and throws its error.
    static func recordingFailure(
        of step: () async throws -> Void,
        by record: () async throws -> Void
    ) async throws {
        do {
            try await step()
        } catch {
            do {
                try await record()
            } catch let recording {
                FileHandle.standardError.write(
                    Data(
                        "healthvault: warning: the failure could not be recorded in the audit log: \(recording)\n".utf8
                    )
                )
            }
            throw error
        }
    }

    func backUpWithoutDaemon(
        into target: URL,
        method: String,
        terminal: Bool,
        started: Date,
        then: (BackupResult) async throws -> Void
    ) async throws -> BackupResult {
        // This process is the only one that may open the vault meanwhile.
        let lock = try DaemonLock(directory: vault.directory)
        defer { withExtendedLifetime(lock) {} }
        let passphrase = try vault.passphrase(prompt: "Passphrase for \(vault.directory.path): ")
        defer { passphrase.wipe() }
        let opened = try openVault(passphrase)
        defer { opened.lock() }
        let manifest: BackupManifest
        do {
            manifest = try opened.backup(to: target, method: BackupMethod(rawValue: method) ?? .onlineBackup) {
                progress in
                if terminal {
                    let line = Self.progressLine(
                        BackupProgressParams(bytesCopied: progress.bytesCopied, totalBytes: progress.totalBytes),
                        since: started
                    )
                    FileHandle.standardError.write(Data(line.utf8))
                }
            }
        } catch let error as StoreError {
            throw ToolError("\(error)")
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let result = BackupResult(
            directory: target.path,
            vault: manifest.vaultID,
            createdAt: manifest.createdAt,
            method: manifest.method,
            checkpointSize: manifest.checkpointSize,
            files: manifest.files.mapValues { BackupResult.File(bytes: $0.bytes, sha256: $0.sha256) }
        )
        try await Self.recordingFailure(of: { try await then(result) }, by: { try opened.recordBackupFailure() })
        return result
    }

    /// The vault opened by this command, for a backup with no daemon serving it.
    func openVault(_ passphrase: SecureBytes) throws -> Vault {
        do {
            return try Vault.open(at: vault.directory, passphrase: passphrase, by: .owner)
        } catch {
            if case .wrongPassphrase = error { throw ToolError(vault.wrongPassphrase) }
            throw ToolError("\(error)")
        }
    }

    func runRestic(terminal: Bool) async throws {
        let restic = Restic(repository: destination)
        _ = try Restic.executable ?? { throw ToolError("restic is not installed (Debian: `apt install restic`)") }()
        let vaultID: UUID
        do {
            vaultID = try Vault.identifier(at: vault.directory)
        } catch {
            throw ToolError("\(error)")
        }
        // What can be found wrong before the vault is copied is found then, and nothing recorded:
        // no repository named; a repository restic cannot open with the password it is given.
        try restic.requireRepository()
        if !Restic.passwordWouldBeAsked { try restic.checkRepository() }
        // One backup --restic of a vault at a time: they share the staging directory.
        let staging = try resticStagingDirectory(vault: vaultID)
        defer { try? FileManager.default.removeItem(at: staging.directory) }
        var summary: Restic.BackupSummary?
        let result = try await backUp(
            into: staging.directory,
            method: method ?? BackupMethod.fileImage.rawValue,
            terminal: terminal
        ) { _ in
            try PageFiles.split(staging.directory)
            var lastShown = Date.distantPast
            let data = try restic.run(
                ["backup", "--json", "--tag", Restic.tag, "--tag", Restic.vaultTag(vaultID), staging.directory.path],
                failure: "the vault's copy did not reach the repository (recorded as vault.backup, outcome error)",
                forwardingStops: true
            ) { line in
                guard terminal, Date().timeIntervalSince(lastShown) > 0.2,
                    let status = try? JSONDecoder().decode(Restic.BackupStatus.self, from: Data(line.utf8)),
                    status.message_type == "status", let done = status.percent_done
                else { return }
                lastShown = Date()
                FileHandle.standardError.write(
                    Data(String(format: "\r\u{1B}[KStoring it in the restic repository: %.0f%%", done * 100).utf8)
                )
            }
            if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            summary =
                String(decoding: data, as: UTF8.self).split(separator: "\n").reversed()
                .compactMap { try? JSONDecoder().decode(Restic.BackupSummary.self, from: Data($0.utf8)) }.first
            guard summary != nil else {
                throw ToolError(
                    "restic backup finished without naming its snapshot (recorded as vault.backup, outcome error)"
                )
            }
        }
        withExtendedLifetime(staging) {}
        guard let summary else { throw ToolError("restic backup finished without naming its snapshot") }
        if output.json {
            return try printJSON(
                ResticBackupReport(
                    vault: vaultID,
                    snapshot: summary.snapshot_id,
                    bytes: summary.total_bytes_processed ?? 0,
                    bytesAdded: summary.data_added ?? 0,
                    checkpointSize: result.checkpointSize
                )
            )
        }
        print(
            "Backed up vault \(vaultID) as restic snapshot \(summary.snapshot_id.prefix(8)): "
                + "\(Self.size(summary.total_bytes_processed ?? 0)) read, \(Self.size(summary.data_added ?? 0)) added to the repository."
        )
    }

    static func progressLine(_ progress: BackupProgressParams, since start: Date) -> String {
        let elapsed = max(Date().timeIntervalSince(start), 0.001)
        let fraction = progress.totalBytes > 0 ? Double(progress.bytesCopied) / Double(progress.totalBytes) : 1
        var line = "\r\u{1B}[KBacking up: \(size(progress.bytesCopied)) of \(size(progress.totalBytes))"
        line += String(format: " (%.0f%%)", fraction * 100)
        if fraction > 0.01, fraction < 1 { line += ", about \(Int(elapsed / fraction - elapsed)) s left" }
        return line
    }

    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 30 { return String(format: "%.1f GiB", Double(bytes) / Double(1 << 30)) }
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return String(format: "%.1f KiB", Double(bytes) / Double(1 << 10)) }
        return "\(bytes) bytes"
    }
}

struct ResticBackupReport: Encodable {
    var vault: UUID
    var snapshot: String
    var bytes: Int
    var bytesAdded: Int
    var checkpointSize: UInt64
}

/// `healthvault restore`: a backup back into a vault directory, verified before anything is written.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore a backup (a directory, or a restic snapshot) into --vault, verified first.",
        discussion: """
            The backup is checked whole before anything is written: every file against its \
            manifest, the key file, each database page's HMAC (cipher_integrity_check), \
            integrity_check, and the audit log against its signed checkpoints. A damaged backup \
            is refused with what is damaged named. Restoring over an existing vault (the same \
            vault, not served: stop healthvaultd first) replaces it, and asks first (--yes in \
            scripts; --dry-run checks the backup and says what it would do, writing nothing); \
            when the vault's log went on after the backup with entries that changed it (saves, \
            grants, settings...), restoring is a rollback, refused unless --allow-rollback; \
            entries that changed nothing (reads, locks, backups, exports) are only said. Either \
            way the restored log records the replaced log's size (vault.restore-older). Other \
            files in the vault's folder are kept. The restored vault opens with the passphrase \
            the vault had when the backup was made.

            Examples:
              healthvault restore /media/usb/healthvault-2026-11-26 --vault ~/.local/share/healthvault-restored
              healthvault restore --restic sftp:me@nas.local:/srv/restic/health --vault ~/restored
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The backup's directory; with --restic, the restic repository (else $RESTIC_REPOSITORY).")
    var backup: String?

    @Flag(help: "Restore a snapshot from a restic repository.")
    var restic = false

    @Option(
        help:
            "With --restic: the snapshot's id (or its first characters); default the latest (of the vault at --vault, when there is one)."
    )
    var snapshot: String?

    @Flag(help: "Restore even when it rolls the vault back to an older state (recorded in its log).")
    var allowRollback = false

    @Flag(help: "Replace an existing vault without asking.")
    var yes = false

    @Flag(help: "Check the backup and say what a restore would do, writing nothing.")
    var dryRun = false

    func validate() throws {
        if !restic, backup == nil { throw ValidationError("name the backup's directory, or use --restic") }
        if snapshot != nil, !restic { throw ValidationError("--snapshot goes with --restic") }
        if snapshot?.isEmpty == true {
            throw ValidationError("--snapshot needs the snapshot's id (or its first characters)")
        }
        if yes, dryRun { throw ValidationError("--yes and --dry-run exclude each other") }
    }

    func run() async throws {
        let target = vault.directory
        if restic {
            return try restoreFromRestic(into: target)
        }
        try restore(from: URL(fileURLWithPath: backup!).standardizedFileURL, into: target, source: nil)
    }

    func restoreFromRestic(into target: URL) throws {
        let restic = Restic(repository: backup)
        var snapshots = try restic.snapshots()
        // Over an existing vault, its own snapshots (a repository may hold several vaults').
        if snapshot == nil, let existing = try? Vault.identifier(at: target) {
            snapshots = snapshots.filter { $0.tags?.contains(Restic.vaultTag(existing)) == true }
        }
        let chosen: Restic.Snapshot?
        if let snapshot {
            chosen = snapshots.last { $0.id.hasPrefix(snapshot) }
        } else {
            chosen = snapshots.last
        }
        guard let chosen, let path = chosen.paths.first else {
            throw ToolError(
                snapshot.map { "the restic repository has no HealthVault snapshot \($0)" }
                    ?? "the restic repository has no HealthVault snapshot"
            )
        }
        let parent = target.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: parent,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let prefix = ".\(target.lastPathComponent).restic-"
        // What a restore killed before its end left (its snapshot's files, still encrypted): a
        // scratch folder no running restore holds.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        where name.hasPrefix(prefix) {
            let abandoned = parent.appendingPathComponent(name)
            let held = open(abandoned.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard held >= 0 else { continue }
            if flock(held, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(at: abandoned) }
            close(held)
        }
        let scratch = parent.appendingPathComponent(prefix + UUID().uuidString)
        umask(0o077)
        do {
            try FileManager.default.createDirectory(
                at: scratch,
                withIntermediateDirectories: false,
                attributes: [
                    .posixPermissions: 0o700
                ]
            )
        } catch {
            throw ToolError("cannot create \(scratch.path): \(error.localizedDescription)")
        }
        // Held while this restore runs, so that another one never takes it for abandoned.
        let scratchLock = open(scratch.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if scratchLock >= 0 { flock(scratchLock, LOCK_EX | LOCK_NB) }
        defer {
            try? FileManager.default.removeItem(at: scratch)
            if scratchLock >= 0 { close(scratchLock) }
        }
        if isatty(2) == 1, !output.json {
            FileHandle.standardError.write(
                Data("Fetching snapshot \(chosen.id.prefix(8)) of \(chosen.time) from the restic repository...\n".utf8)
            )
        }
        _ = try restic.run(["restore", chosen.id, "--target", scratch.path])
        try PageFiles.join(scratch.appendingPathComponent(path))
        try restore(
            from: scratch.appendingPathComponent(path),
            into: target,
            source: "restic snapshot \(chosen.id.prefix(8))"
        )
    }

    func restore(from source: URL, into target: URL, source name: String?) throws {
        // A vault's own folder given as the backup: not while a daemon serves it, since what it
        // saved lately may be only in its write-ahead log, still changing.
        let isVaultFolder =
            FileManager.default.fileExists(atPath: source.appendingPathComponent("keyring.json").path)
            && !FileManager.default.fileExists(atPath: source.appendingPathComponent("backup.json").path)
        if isVaultFolder, DaemonLock.isHeld(in: source) {
            throw ToolError(
                "\(source.path) is a vault healthvaultd is serving: what it saved lately may be only in its "
                    + "write-ahead log, which goes on changing. Back it up (`healthvault backup DIR --vault \(source.path)`) "
                    + "and restore that backup, or stop healthvaultd first; nothing was restored"
            )
        }
        let passphrase = try vault.passphrase(prompt: "Passphrase of the backup (the vault's when it was made): ")
        defer { passphrase.wipe() }
        // A vault being replaced must not be served meanwhile; its daemon lock keeps one from starting.
        var daemonLock: DaemonLock?
        if FileManager.default.fileExists(atPath: target.appendingPathComponent("keyring.json").path) {
            if dryRun {
                // A dry run writes nothing, not even the lock's file; a served vault is said as such.
                if DaemonLock.isHeld(in: target) {
                    throw ToolError("healthvaultd is serving \(target.path); stop it first (nothing was restored)")
                }
            } else {
                daemonLock = try DaemonLock(directory: target)
            }
        }
        defer { withExtendedLifetime(daemonLock) {} }
        let interactive = isatty(0) == 1 && isatty(2) == 1
        let label = name ?? source.path
        if isatty(2) == 1, !output.json {
            FileHandle.standardError.write(
                Data("Checking the backup (every page and the audit log) before restoring...\n".utf8)
            )
        }
        // `--dry-run --json`: what the restore would do, as one object instead of its lines.
        struct DryRun: Encodable {
            let vault: String
            let directory: String
            let backup: String
            let dryRun = true
            let replaces: Bool
            let rollback: String?
            let unkeptEntries: String?
        }
        var dryRunJSON: DryRun?
        // What a restore without --yes in a script would have done, said in its one line.
        var refusedWithoutYes: String?
        let plan: RestorePlan
        do {
            plan = try Vault.restore(
                from: source,
                to: target,
                passphrase: passphrase,
                // A dry run writes nothing, so it describes a rollback rather than refusing it.
                allowingRollback: allowRollback || dryRun
            ) { plan in
                guard case .replaces(let entries, let rollback, let unkept) = plan.targetState else {
                    if dryRun, output.json {
                        dryRunJSON = DryRun(
                            vault: plan.vaultID.uuidString,
                            directory: target.path,
                            backup: label,
                            replaces: false,
                            rollback: nil,
                            unkeptEntries: nil
                        )
                        return false
                    }
                    if dryRun {
                        print(
                            "The backup \(label) is whole (\(plan.report.auditEntries.map { "\($0) audit entries" } ?? "checked")); "
                                + "restoring it would create the vault \(plan.vaultID) in \(target.path)."
                        )
                        return false
                    }
                    return true
                }
                var what = "This replaces the vault in \(target.path)"
                if let entries { what += " (its audit log: \(entries) entries)" }
                what += " with the backup \(label)"
                if let createdAt = plan.createdAt { what += " of \(timestamp(createdAt))" }
                if let backupEntries = plan.report.auditEntries { what += " (\(backupEntries) entries)" }
                what += "."
                if !plan.otherFiles.isEmpty {
                    what +=
                        " What else its folder holds stays, moved into the restored one: "
                        + plan.otherFiles.joined(separator: ", ") + "."
                }
                if let rollback {
                    what += " It rolls the vault back: \(rollback); "
                    what +=
                        allowRollback
                        ? "the restored log will record that you insisted (vault.restore-older)."
                        : "a restore needs --allow-rollback, and the restored log then records that you insisted (vault.restore-older)."
                }
                if let unkept {
                    what +=
                        " The restored log will not hold them: \(unkept); it records how long the replaced log was (vault.restore-older)."
                }
                if dryRun {
                    if output.json {
                        dryRunJSON = DryRun(
                            vault: plan.vaultID.uuidString,
                            directory: target.path,
                            backup: label,
                            replaces: true,
                            rollback: rollback,
                            unkeptEntries: unkept
                        )
                    } else {
                        print(what)
                    }
                    return false
                }
                if yes { return true }
                guard interactive else {
                    refusedWithoutYes = what
                    return false
                }
                FileHandle.standardError.write(Data("\(what)\nReplace it? [y/N] ".utf8))
                let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
                return answer == "y" || answer == "yes"
            }
        } catch {
            switch error {
            case .wrongPassphrase:
                let source = (try? PassphraseSource(fd: vault.passphraseFd, file: vault.passphraseFile)) ?? .prompt
                let whereFrom =
                    switch source {
                    case .prompt: ""
                    case .file(let path): " in \(path) (its first line)"
                    case .fileDescriptor(let fd): " from file descriptor \(fd)"
                    }
                throw ToolError(
                    "wrong passphrase for the backup \(label)\(whereFrom): it opens with the passphrase the vault had when the backup was made"
                )
            case .cancelled where dryRun:
                if let dryRunJSON { return try printJSON(dryRunJSON) }
                print("Dry run: nothing was restored.")
                return
            case .cancelled:
                if let refusedWithoutYes {
                    throw ToolError("nothing was restored: confirm with --yes. \(refusedWithoutYes)")
                }
                throw ToolError("nothing was restored")
            default:
                // A restic snapshot is fetched into a scratch folder: named as the snapshot.
                throw ToolError("\(error)".replacingOccurrences(of: source.path, with: label))
            }
        }
        if output.json {
            struct Restored: Encodable {
                let vault: String
                let directory: String
                let backup: String
                let auditEntries: UInt64?
            }
            return try printJSON(
                Restored(
                    vault: plan.vaultID.uuidString,
                    directory: target.path,
                    backup: label,
                    auditEntries: plan.report.auditEntries
                )
            )
        }
        print(
            "Restored vault \(plan.vaultID) from \(label) into \(target.path), verified first"
                + (plan.isRollback
                    ? ", rolled back as you insisted (recorded as vault.restore-older)"
                    : plan.dropsLogEntries ? " (the replaced log's later entries recorded as vault.restore-older)" : "")
                + "; recorded as vault.restore."
        )
        if !plan.otherFiles.isEmpty {
            print("Kept in its folder: \(plan.otherFiles.joined(separator: ", ")).")
        }
        print("It opens with the passphrase the vault had when the backup was made.")
        print("Serve it with: healthvaultd --vault \(target.path)")
    }
}

/// `healthvault check`: is the vault (or a backup) whole?
struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a vault or a backup: files and permissions, every database page, the audit log.",
        discussion: """
            Reads only (a served vault can be checked while apps use it). Checks the files and \
            their permissions, a backup's files against its manifest, the key file, every \
            database page's HMAC (cipher_integrity_check), the tables and indexes \
            (integrity_check), and the audit log against its signed checkpoints and the note \
            kept beside it. Exit 0: whole (warnings may be printed); 1: something is damaged, \
            missing or unsafe, each named; 2: it could not be checked (wrong passphrase, not a \
            vault).

            Examples:
              healthvault check
              healthvault check /media/usb/healthvault-2026-11-26 --json
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "A vault or backup directory (default: the vault of --vault).")
    var path: String?

    func run() async throws {
        let directory = path.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? vault.directory
        // A folder or key file this user may not read cannot be checked (2): that is no damage.
        do {
            try Vault.checkAccessible(directory)
        } catch {
            if case .permission(let message) = error {
                FileHandle.standardError.write(Data("healthvault: \(message)\n".utf8))
                throw ExitCode(2)
            }
        }
        let passphrase = try vault.passphrase(prompt: "Passphrase for \(directory.path): ")
        defer { passphrase.wipe() }
        let report: CheckReport
        if isatty(2) == 1, !output.json {
            FileHandle.standardError.write(Data("Checking \(directory.path) (every page and the audit log)...\n".utf8))
        }
        do {
            report = try Vault.check(directory, passphrase: passphrase)
        } catch {
            let message: String
            if case .wrongPassphrase = error {
                message =
                    ((try? PassphraseSource(fd: vault.passphraseFd, file: vault.passphraseFile)) ?? .prompt)
                    .wrongPassphrase(
                        for: directory.path,
                        which: FileManager.default.fileExists(
                            atPath: directory.appendingPathComponent("backup.json").path
                        )
                            ? "the one the vault had when the backup was made" : PassphraseSource.whichPassphrase
                    ) + "; nothing was checked beyond the key file"
            } else {
                message = "\(error)"
            }
            FileHandle.standardError.write(Data("healthvault: \(message)\n".utf8))
            throw ExitCode(2)
        }
        if output.json {
            try printJSON(
                CheckJSON(
                    path: directory.path,
                    vault: report.vaultID,
                    backup: report.isBackup,
                    whole: report.isWhole,
                    auditEntries: report.auditEntries,
                    findings: report.findings.map {
                        .init(status: $0.status.rawValue, subject: $0.subject, detail: $0.detail)
                    }
                )
            )
        } else {
            print(
                "\(report.isBackup ? "Backup" : "Vault") \(directory.path)"
                    + (report.vaultID.map { " (vault \($0))" } ?? "")
            )
            print(
                table(
                    report.findings.map {
                        [$0.status == .ok ? "ok" : $0.status.rawValue.uppercased(), $0.subject, $0.detail]
                    }
                )
            )
            let problems = report.problems.count
            print(
                problems == 0
                    ? "Whole: nothing is damaged."
                    : "\(problems) problem\(problems == 1 ? "" : "s") found: \(Set(report.problems.map(\.subject)).sorted().joined(separator: ", "))."
            )
        }
        if !report.isWhole { throw ExitCode(1) }
    }
}

struct CheckJSON: Encodable {
    struct Finding: Encodable {
        var status: String
        var subject: String
        var detail: String
    }

    var path: String
    var vault: UUID?
    var backup: Bool
    var whole: Bool
    var auditEntries: UInt64?
    var findings: [Finding]
}
