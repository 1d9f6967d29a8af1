import CommandSupport
import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import ProcessTestSupport
import Testing
import VaultClient
import VaultCrypto
import VaultProtocol
import VaultStore

/// A real `healthvaultd` on a temporary vault: the binary built beside the tests, started as a
/// process, driven over its socket. The vault is created in-process with the minimum Argon2id
/// settings so a test does not spend a second per owner call.
final class TestDaemon: @unchecked Sendable {
    static let passphrase = "test passphrase"

    let directory: URL
    let passphraseFile: String
    let arguments: [String]
    private(set) var process: ChildProcess?
    private let log: URL

    /// The directory the test binaries and the products are built in.
    static var binDirectory: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [bundle, bundle.deletingLastPathComponent()]
        where FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("healthvaultd").path) {
            return directory
        }
        return bundle
    }

    static func binary(_ name: String) -> String { binDirectory.appendingPathComponent(name).path }

    /// Writes a passphrase file as its owner should: `text` and a newline, mode 0600 (a file
    /// others may read draws a warning from both tools, README "--passphrase-file").
    static func writePassphraseFile(_ text: String, to path: String) throws {
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    /// Creates a vault and starts the daemon with `arguments` added to its command line.
    init(_ arguments: [String] = [], start: Bool = true) throws {
        let root = try #require(mkdtemp(strdup("/tmp/hvd.XXXXXX")).map { String(cString: $0) })
        directory = URL(fileURLWithPath: root).appendingPathComponent("v")
        passphraseFile = root + "/passphrase"
        log = URL(fileURLWithPath: root + "/daemon.log")
        try Self.writePassphraseFile(Self.passphrase, to: passphraseFile)
        let vault = try Vault.create(
            at: directory,
            passphrase: SecureBytes(utf8: Self.passphrase),
            parameters: .minimumForTesting
        )
        vault.lock()
        self.arguments = arguments
        if start { try self.start() }
    }

    /// A daemon for the vault already at `directory` (a restored backup, say), unlocked with the
    /// same passphrase; its passphrase file and log sit beside it.
    init(existing directory: URL, start: Bool = true) throws {
        self.directory = directory
        let root = directory.deletingLastPathComponent().path
        passphraseFile = root + "/passphrase-\(directory.lastPathComponent)"
        log = URL(fileURLWithPath: root + "/daemon-\(directory.lastPathComponent).log")
        try Self.writePassphraseFile(Self.passphrase, to: passphraseFile)
        arguments = []
        if start { try self.start() }
    }

    deinit {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    var socketPath: String { directory.appendingPathComponent(WireProtocol.socketFileName).path }

    /// Starts the daemon and waits for its socket. `launcher` runs it (its first element is the
    /// program, the rest its arguments before the daemon's own).
    func start(
        extra: [String] = [],
        launcher: [String] = [TestDaemon.binary("healthvaultd")],
        environment: [String: String] = [:]
    ) throws {
        // A socket a stopped daemon could not remove would look like this one's.
        unlink(socketPath)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: launcher[0])
        // Apps in this process authenticate through the cooperative pool, which other suites'
        // waits for their processes can hold for seconds on a loaded two-core machine: the
        // default 10 s to authenticate is given more time unless a test sets its own.
        let patience =
            (arguments + extra).contains("--authentication-timeout") ? [] : ["--authentication-timeout", "120"]
        process.arguments =
            launcher.dropFirst() + ["--vault", directory.path, "--passphrase-file", passphraseFile] + arguments
            + extra + patience
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let servedBefore = logText.components(separatedBy: "] serving").count
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardError = handle
        process.standardOutput = handle
        try process.run()
        self.process = process
        // Serving: the socket is there and the daemon has logged `serving`, which it does once it
        // has made the socket 0600 (a test that opens the socket to another user after this is
        // not undone by the daemon's own chmod, as it was on a loaded machine).
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: socketPath),
                logText.components(separatedBy: "] serving").count > servedBefore
            {
                return
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        throw DaemonTestError("healthvaultd did not start: \(logText)")
    }

    /// The user ids a daemon without privileges over files runs as: nobody's when the tests run
    /// as root (root reads and writes any file, whatever its mode), else the tests' own.
    static var unprivilegedUser: UInt32 { getuid() == 0 ? 65534 : getuid() }

    /// Runs `command` as ``unprivilegedUser``.
    static func asUnprivileged(_ command: [String]) -> [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command : command
    }

    /// Starts the daemon as ``unprivilegedUser``: as root, from a copy of the binary it can reach,
    /// on a vault handed over to nobody.
    func startUnprivileged(extra: [String] = []) throws {
        guard getuid() == 0 else { return try start(extra: extra) }
        try start(extra: extra, launcher: Self.asUnprivileged([handToUnprivilegedUser()]))
    }

    /// Hands the vault and a copy of the daemon's binary to ``unprivilegedUser`` (as root; as
    /// anyone else, they are already theirs); returns the binary to run.
    func handToUnprivilegedUser() throws -> String {
        guard getuid() == 0 else { return Self.binary("healthvaultd") }
        let root = directory.deletingLastPathComponent()
        let copy = root.appendingPathComponent("healthvaultd").path
        if !FileManager.default.fileExists(atPath: copy) {
            try FileManager.default.copyItem(atPath: Self.binary("healthvaultd"), toPath: copy)
        }
        for path in [root.path] + (FileManager.default.subpaths(atPath: root.path) ?? []).map({ root.path + "/" + $0 })
        {
            lchown(path, 65534, 65534)
        }
        return copy
    }

    /// Runs one more healthvaultd on this vault, to its end (through `launcher`, with `extra`
    /// arguments); its exit status and stderr.
    func runAnotherDaemon(
        launcher: [String] = [TestDaemon.binary("healthvaultd")],
        extra: [String] = []
    ) throws -> (Int32, String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: launcher[0])
        process.arguments =
            launcher.dropFirst() + ["--vault", directory.path, "--passphrase-file", passphraseFile] + extra
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits; returns the exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        guard let process else { return -1 }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        self.process = nil
        return process.terminationStatus
    }

    /// Sends SIGTERM and waits at most `seconds`; returns the exit status, or nil when the
    /// daemon was still running then (it is killed: a test fails rather than waits for good).
    func stop(within seconds: Double) -> Int32? {
        guard let process else { return -1 }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        let exited = !process.isRunning
        if !exited { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
        return exited ? process.terminationStatus : nil
    }

    var pid: Int32? { process?.processIdentifier }

    /// The daemon's resident memory, KiB.
    var residentKiB: Int? {
        guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            return nil
        }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    }

    // MARK: Clients

    func ownerKey() throws -> Ed25519.SigningKey {
        try Vault.ownerKey(at: directory, passphrase: SecureBytes(utf8: Self.passphrase))
    }

    func owner() async throws -> VaultConnection {
        try await VaultConnection.connect(socketPath: socketPath, identity: .owner(key: ownerKey()))
    }

    /// Calls an owner method on a connection of its own.
    @discardableResult
    func ownerCall<P: Encodable & Sendable, R: Decodable>(
        _ method: String,
        _ params: P,
        as type: R.Type
    ) async throws -> R {
        let connection = try await owner()
        defer { connection.close() }
        return try await connection.call(method, params, as: type)
    }

    /// Enrols an app declaring `read` and `share`, with a fresh key pair written to key files.
    /// Returns the private key file's path.
    @discardableResult
    func enroll(_ appID: String, read: [ObjectType], share: [SampleType]) async throws -> String {
        let manifest: [String: Any] = [
            "version": 1, "appID": appID, "displayName": appID, "readPurpose": "tests", "sharePurpose": "tests",
            "read": read.map(\.description), "share": share.map(\.description),
        ]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: manifest), as: UTF8.self)
        let keyPath = directory.deletingLastPathComponent().appendingPathComponent("\(appID).key").path
        let publicPath = keyPath + ".pub"
        try? FileManager.default.removeItem(atPath: keyPath)
        try? FileManager.default.removeItem(atPath: publicPath)
        let key = try KeyFiles.generate(privatePath: keyPath, publicPath: publicPath)
        try await ownerCall(
            Method.appsEnroll,
            EnrollParams(
                manifest: text,
                file: "\(appID).json",
                publicKey: KeyFiles.publicKeyText(key),
                adoptExistingSamples: nil
            ),
            as: AppInfo.self
        )
        return keyPath
    }

    func keyPath(_ appID: String) -> String {
        directory.deletingLastPathComponent().appendingPathComponent("\(appID).key").path
    }

    func store(_ appID: String) async throws -> HealthStore {
        try await HealthStore(appID: appID, keyFile: keyPath(appID), vaultDirectory: directory.path)
    }

    /// A raw connection authenticated as the app: for byte-level checks.
    func connection(_ appID: String) async throws -> VaultConnection {
        try await VaultConnection.connect(
            socketPath: socketPath,
            identity: .app(id: appID, key: KeyFiles.readPrivateKey(keyPath(appID)))
        )
    }

    func decide(_ decision: String, _ access: [String], _ types: [ObjectType], for appID: String) async throws {
        try await ownerCall(
            Method.grantsDecide,
            DecideParams(app: appID, types: types, decision: decision, access: access),
            as: Empty.self
        )
    }

    func auditEntries(operation: String? = nil) async throws -> [AuditEntryInfo] {
        try await ownerCall(
            Method.auditEntries,
            AuditEntriesParams(operation: operation, limit: 10_000),
            as: AuditEntriesResult.self
        )
        .entries
    }
}

struct DaemonTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A plain socket client: bytes in, bytes out, for frames no well-behaved client would send.
final class RawSocket: @unchecked Sendable {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            let bytes = Array(path.utf8)
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw DaemonTestError("connect failed: \(errno)") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    func sendFrame(_ payload: [UInt8]) {
        let length = UInt32(payload.count)
        send(
            [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
                + payload
        )
    }

    func sendFrame(_ text: String) { sendFrame(Array(text.utf8)) }

    /// Reads exactly `count` bytes, or nil at end of stream or timeout.
    func read(_ count: Int) -> [UInt8]? {
        var result = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = result[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got <= 0 { return nil }
            offset += got
        }
        return result
    }

    /// The next frame's JSON, or nil when the daemon closed the connection (or said nothing in 5 s).
    /// The blocking read runs on a thread of its own, never on the Swift concurrency pool.
    func readFrame() async -> [String: Any]? {
        await offPool { self.readFrameBlocking() }
    }

    /// Whether the daemon has closed the connection (reads end of stream).
    var isClosedByPeer: Bool {
        get async { await offPool { self.closedBlocking() } }
    }

    private func readFrameBlocking() -> [String: Any]? {
        guard let header = read(4) else { return nil }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard let payload = read(length) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
    }

    private func closedBlocking() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }
}

extension [String: Any] {
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
}

/// One quantity sample of `type` at `start`.
func quantity(
    _ type: QuantityTypeIdentifier,
    _ value: Double,
    _ unit: HealthUnit,
    at start: Date,
    minutes: Double = 1
) throws
    -> Sample
{
    .quantity(
        try QuantitySample(
            type: type,
            quantity: Quantity(value, unit),
            start: start,
            end: start.addingTimeInterval(minutes * 60),
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: "ignored", name: "ignored"))
        )
    )
}

let steps = SampleType.quantity(.stepCount)
let heartRate = SampleType.quantity(.heartRate)
let sleepAnalysis = SampleType.category(.sleepAnalysis)

/// Runs blocking work on a thread of its own and waits for it without holding a pool thread.
func offPool<T>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: body())
        }
        thread.start()
    }
}

/// Every suite that starts a daemon, one at a time: each daemon is a process of its own, and
/// timing checks (timeouts, rates) hold better without the others competing for two cores.
@Suite(.serialized) enum DaemonEndToEnd {}

/// Runs `command` (the program, then its arguments) with standard input closed, in `folder` (the
/// tests' own when nil), with `environment` (the tests' own when nil); its exit status, standard
/// output and standard error. Every suite that runs a binary goes through here.
@discardableResult
func runProcess(
    _ command: [String],
    environment: [String: String]? = nil,
    in folder: String? = nil
) throws -> (status: Int32, out: String, err: String) {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    if let environment { process.environment = environment }
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self)
    )
}
