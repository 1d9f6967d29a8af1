import CommandSupport
import Foundation
import Synchronization

/// The restic child a stop (SIGINT, SIGTERM) is passed on to while a backup waits for it; 0 when none.
let resticChild = Atomic<Int32>(0)

/// restic (https://restic.net), run as a child process with the owner's environment, so its own
/// settings work as restic users know them: `RESTIC_REPOSITORY` (when no repository is named),
/// `RESTIC_PASSWORD`, `RESTIC_PASSWORD_FILE` or `RESTIC_PASSWORD_COMMAND` (else restic asks on
/// the terminal), and each backend's credentials (`AWS_ACCESS_KEY_ID`, `B2_ACCOUNT_ID`, ...).
struct Restic {
    /// The repository named on the command line; nil leaves it to `RESTIC_REPOSITORY`.
    let repository: String?

    /// `$RESTIC` when set (a path), else `restic` from `PATH`.
    static var executable: String? {
        if let path = ProcessInfo.processInfo.environment["RESTIC"], !path.isEmpty { return path }
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/restic" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The tag every HealthVault snapshot carries, and the one naming its vault.
    static let tag = "healthvault"
    static func vaultTag(_ vault: UUID) -> String { "vault-\(vault.uuidString.lowercased())" }

    /// A repository is named: on the command line, or by `RESTIC_REPOSITORY(_FILE)`.
    func requireRepository() throws {
        if repository == nil, (ProcessInfo.processInfo.environment["RESTIC_REPOSITORY"] ?? "").isEmpty,
            (ProcessInfo.processInfo.environment["RESTIC_REPOSITORY_FILE"] ?? "").isEmpty
        {
            throw ToolError("name the restic repository (--restic REPO) or set RESTIC_REPOSITORY")
        }
    }

    /// restic would ask for the repository's password on the terminal: none is set in its
    /// environment, and standard input is one.
    static var passwordWouldBeAsked: Bool {
        let environment = ProcessInfo.processInfo.environment
        let given = ["RESTIC_PASSWORD", "RESTIC_PASSWORD_FILE", "RESTIC_PASSWORD_COMMAND"].contains {
            !(environment[$0] ?? "").isEmpty
        }
        return !given && isatty(0) == 1
    }

    /// restic opens the repository with the password it is given (`restic cat config`): a
    /// missing repository or a wrong password is found before anything is backed up.
    func checkRepository() throws {
        _ = try run(["cat", "config"], inheritError: false, failure: "nothing was backed up, and nothing recorded")
    }

    /// Runs restic with `arguments` (after `-r REPO` when a repository was named); returns its
    /// standard output. Its standard error goes to ours (restic's own messages and prompts), or,
    /// not inherited, its first line ends the error; a non-zero exit or a signal is an error naming
    /// the command, then `failure` (what it means for the vault).
    ///
    /// With `forwardingStops`, Ctrl-C (SIGINT) and SIGTERM do not end this command while restic
    /// runs: they are passed on to restic, which stops, and its failure is then the caller's to
    /// record and say.
    func run(
        _ arguments: [String],
        inheritError: Bool = true,
        failure: String = "nothing of the vault was changed",
        forwardingStops: Bool = false,
        eachLine: ((Substring) -> Void)? = nil
    ) throws -> Data {
        guard let executable = Self.executable else {
            throw ToolError("restic is not installed (Debian: `apt install restic`; or set RESTIC to its path)")
        }
        try requireRepository()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = (repository.map { ["-r", $0] } ?? []) + arguments
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = inheritError ? FileHandle.standardError : errors
        var previous: [Int32: sig_t?] = [:]
        if forwardingStops {
            for stop in [SIGINT, SIGTERM] {
                previous[stop] = signal(stop) { received in
                    let child = resticChild.load(ordering: .relaxed)
                    if child > 0 { kill(child, received) }
                }
            }
        }
        defer {
            resticChild.store(0, ordering: .relaxed)
            for (stop, handler) in previous { signal(stop, handler ?? SIG_DFL) }
        }
        do {
            try process.run()
        } catch {
            throw ToolError("cannot run \(executable): no such program, or not one this user may run")
        }
        resticChild.store(process.processIdentifier, ordering: .relaxed)
        var data = Data()
        var pending = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
            guard let eachLine else { continue }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                eachLine(Substring(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        let message = inheritError ? Data() : errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit else {
            throw ToolError(
                "restic \(arguments.first ?? "") was killed (signal \(process.terminationStatus)); \(failure)"
            )
        }
        guard process.terminationStatus == 0 else {
            let detail = String(decoding: message, as: UTF8.self).split(separator: "\n").first.map { ": \($0)" } ?? ""
            throw ToolError(
                "restic \(arguments.first ?? "") failed (exit \(process.terminationStatus))\(detail); \(failure)"
            )
        }
        return data
    }

    /// A snapshot as `restic snapshots --json` lists it.
    struct Snapshot: Decodable {
        var id: String
        var short_id: String?
        var time: String
        var paths: [String]
        var tags: [String]?
        var hostname: String?
    }

    /// The HealthVault snapshots of the repository, oldest first.
    func snapshots() throws -> [Snapshot] {
        let data = try run(["snapshots", "--json", "--tag", Self.tag])
        do {
            return try JSONDecoder().decode([Snapshot].self, from: data)
        } catch {
            throw ToolError("restic snapshots answered something that is not its JSON list")
        }
    }

    /// A status line of `restic backup --json`.
    struct BackupStatus: Decodable {
        var message_type: String
        var percent_done: Double?
        var bytes_done: Int?
        var total_bytes: Int?
    }

    /// The summary line of `restic backup --json`.
    struct BackupSummary: Decodable {
        var snapshot_id: String
        var data_added: Int?
        var total_bytes_processed: Int?
        var files_new: Int?
        var files_changed: Int?
        var files_unmodified: Int?
    }
}

/// Where a restic backup is staged before restic reads it: a fixed place per vault under the
/// owner's cache (`$XDG_CACHE_HOME/healthvault/restic/`, else `~/.cache/…`), so every snapshot of
/// a vault has the same path and restic finds the previous one. Directories 0700, files 0600;
/// removed once restic is done. Held with a lock beside it (`healthvault-<vault>.lock`, flock)
/// while the backup runs: a second `backup --restic` of the same vault meanwhile is refused,
/// where it would have replaced the first one's files under restic.
final class ResticStaging {
    let directory: URL
    private let lock: Int32

    init(directory: URL, lock: Int32) {
        self.directory = directory
        self.lock = lock
    }

    deinit { close(lock) }
}

func resticStagingDirectory(vault: UUID) throws -> ResticStaging {
    let environment = ProcessInfo.processInfo.environment
    let cache =
        environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
    let parent = cache.appendingPathComponent("healthvault/restic")
    do {
        try FileManager.default.createDirectory(
            at: parent,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: parent.path)
    } catch {
        throw ToolError("cannot create \(parent.path): \(error.localizedDescription)")
    }
    let staging = parent.appendingPathComponent("healthvault-\(vault.uuidString.lowercased())")
    let lockPath = staging.path + ".lock"
    let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard lock >= 0 else { throw ToolError("cannot create \(lockPath): \(String(cString: strerror(errno)))") }
    guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
        close(lock)
        throw ToolError(
            "another `healthvault backup --restic` of this vault is under way (it stages the copy in \(staging.path)); "
                + "run this one when it is done"
        )
    }
    // One a killed backup left behind: ours, still encrypted; removed before the next.
    try? FileManager.default.removeItem(at: staging)
    return ResticStaging(directory: staging, lock: lock)
}

/// The database of a backup staged for restic, split into one file per 4096-byte page
/// (`vault.db.pages/<page ÷ 256, 4 hex digits>/<page mod 256, 2 hex digits>`), so that restic,
/// which cuts files into chunks of 512 KiB to 8 MiB by their content, stores again only the pages
/// that changed: SQLCipher rewrites (and re-encrypts) only the pages a change touches, but a
/// day's samples touch pages all over the file (an imported record's UUID, a keyed hash, lands
/// anywhere in the index keyed by UUID, and so did an app's before version 7), so whole-file
/// chunks would nearly all change (docs/VAULT_FORMAT.md, "Backups to restic").
enum PageFiles {
    static let directoryName = "vault.db.pages"
    static let pageSize = 4096

    /// Replaces `vault.db` in `directory` by its pages.
    static func split(_ directory: URL) throws {
        let database = directory.appendingPathComponent("vault.db")
        let pages = directory.appendingPathComponent(directoryName)
        guard let input = FileHandle(forReadingAtPath: database.path) else {
            throw ToolError("cannot read \(database.path)")
        }
        defer { try? input.close() }
        let fm = FileManager.default
        try fm.createDirectory(at: pages, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        var index = 0
        while true {
            let block = try input.read(upToCount: pageSize * 256) ?? Data()
            if block.isEmpty { break }
            let group = pages.appendingPathComponent(String(format: "%04x", index / 256))
            try fm.createDirectory(
                at: group,
                withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700]
            )
            var offset = 0
            while offset < block.count {
                let page = block.subdata(
                    in: block.startIndex + offset..<block.startIndex + min(offset + pageSize, block.count)
                )
                let file = group.appendingPathComponent(String(format: "%02x", index % 256))
                guard fm.createFile(atPath: file.path, contents: page, attributes: [.posixPermissions: 0o600]) else {
                    throw ToolError("cannot write \(file.path)")
                }
                offset += pageSize
                index += 1
            }
        }
        try fm.removeItem(at: database)
    }

    /// Puts `vault.db` back together in `directory` from its pages (a restored restic snapshot).
    static func join(_ directory: URL) throws {
        let pages = directory.appendingPathComponent(directoryName)
        guard FileManager.default.fileExists(atPath: pages.path) else { return }
        let database = directory.appendingPathComponent("vault.db")
        guard
            FileManager.default.createFile(
                atPath: database.path,
                contents: nil,
                attributes: [.posixPermissions: 0o600]
            ),
            let output = FileHandle(forWritingAtPath: database.path)
        else { throw ToolError("cannot write \(database.path)") }
        defer { try? output.close() }
        let groups = try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted()
        for (number, group) in groups.enumerated() {
            guard group == String(format: "%04x", number) else {
                throw ToolError(
                    "the snapshot's database pages are incomplete: no page group \(String(format: "%04x", number))"
                )
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: pages.appendingPathComponent(group).path)
                .sorted()
            for (position, name) in names.enumerated() {
                guard name == String(format: "%02x", position) else {
                    throw ToolError(
                        "the snapshot's database pages are incomplete: page \(group)/\(String(format: "%02x", position)) is missing"
                    )
                }
                let data = try Data(contentsOf: pages.appendingPathComponent(group).appendingPathComponent(name))
                try output.write(contentsOf: data)
            }
            if names.count < 256, number < groups.count - 1 {
                throw ToolError("the snapshot's database pages are incomplete in group \(group)")
            }
        }
        try output.synchronize()
        try FileManager.default.removeItem(at: pages)
    }
}
