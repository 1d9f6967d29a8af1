import Foundation
import HealthModel
import ProcessTestSupport
import Testing
import VaultCrypto

@testable import VaultStore

/// A database alone, no vault around it, brought only to schema `version`, in a throwaway
/// directory closed and removed when the value goes: for the migrations' tests.
final class OlderSchemaDatabase {
    let directory: URL
    let database: Database

    init(version: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hv-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try Database(
            path: directory.appendingPathComponent("vault.db").path,
            key: .random(count: 32),
            create: true
        )
        try Schema.migrate(database, upTo: version)
    }

    deinit {
        database.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A throwaway vault directory for one test, removed when the value goes.
final class TestVault {
    static let passphrase = "correct horse battery staple"
    let directory: URL
    private(set) var vault: Vault?

    init(create: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthvault-test-\(UUID().uuidString)", isDirectory: true)
        if create {
            vault = try Vault.create(
                at: directory,
                passphrase: SecureBytes(utf8: Self.passphrase),
                parameters: .minimumForTesting
            )
        }
    }

    deinit {
        vault?.lock()
        try? FileManager.default.removeItem(at: directory)
    }

    var store: SampleStore {
        get throws { SampleStore(database: try vault!.db()) }
    }

    func reopen(passphrase: String = TestVault.passphrase) throws {
        vault?.lock()
        vault = nil
        vault = try Vault.open(at: directory, passphrase: SecureBytes(utf8: passphrase))
    }

    func close() {
        vault?.lock()
        vault = nil
    }

    var databaseURL: URL { directory.appendingPathComponent(Vault.databaseFileName) }

    /// Every file in the vault directory with its bytes.
    func files() throws -> [(String, Data)] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
            ($0, try Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }

    /// The raw database key, unwrapped from the key file (for interop checks only).
    func rawDatabaseKeyHex(passphrase: String = TestVault.passphrase) throws -> String {
        let keyring = try Keyring.read(from: directory)
        let (key, _) = try keyring.unwrap(passphrase: SecureBytes(utf8: passphrase))
        return key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }
}

/// Runs a command and returns its exit status and output.
@discardableResult
func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> (Int32, String) {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    let stdin = Pipe()
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The path of a program on PATH, or nil.
func which(_ program: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(directory)/\(program)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

extension TestVault {
    /// Opens the vault expecting a failure, and checks that the failed open changed no file.
    func expectOpenFails(
        with expected: String,
        containing text: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try files()
        var message = ""
        let name = storeError {
            do {
                try reopen()
            } catch {
                message = "\(error)"
                throw error
            }
        }
        #expect(name == expected, sourceLocation: sourceLocation)
        if let text {
            #expect(message.contains(text), "\(message)", sourceLocation: sourceLocation)
        }
        // The -shm file is SQLite's shared-memory index of the -wal, rebuilt by whoever opens it:
        // not data, so only its presence is compared.
        func data(_ files: [(String, Data)]) -> [Data] { files.filter { !$0.0.hasSuffix("-shm") }.map(\.1) }
        let after = try files()
        #expect(before.map(\.0) == after.map(\.0), sourceLocation: sourceLocation)
        #expect(data(before) == data(after), "a failed open changed a file", sourceLocation: sourceLocation)
    }
}

/// The case name of the StoreError `body` throws, or a note that it threw something else.
func storeError(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "no error"
    } catch let error as StoreError {
        return error.caseName
    } catch {
        return "not a StoreError: \(error)"
    }
}
