import Foundation
import Glibc
import ProcessTestSupport
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// What healthvaultd checks and does to itself before it serves a vault: its memory closed to
    /// other processes, vault files it could not serve refused by name, and a checkpoint it could
    /// not write reported, not swallowed.
    @Suite struct DaemonHardeningTests {
        /// Runs `command` to its end; its exit status.
        static func run(_ command: [String]) throws -> Int32 {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }

        @Test func anotherProcessOfTheDaemonsUserCannotOpenItsMemory() throws {
            let daemon = try TestDaemon(start: false)
            try daemon.startUnprivileged()
            let pid = try #require(daemon.pid)
            // The same user, not root: /proc/PID/mem is closed to it when the daemon is not
            // dumpable, and readable otherwise.
            let status = try Self.run(TestDaemon.asUnprivileged(["/bin/sh", "-c", "exec 3< /proc/\(pid)/mem"]))
            #expect(status != 0, "a process of the daemon's user opened its memory")
            // The files /proc shows of an undumpable process belong to root.
            let owner =
                try FileManager.default.attributesOfItem(atPath: "/proc/\(pid)/mem")[.ownerAccountID] as? NSNumber
            #expect(owner?.intValue == 0)
            #expect(daemon.stop() == 0)
        }

        @Test func aVaultFileTheDaemonCannotWriteIsRefusedByName() throws {
            let daemon = try TestDaemon(start: false)
            let database = daemon.directory.appendingPathComponent("vault.db").path
            let binary = try daemon.handToUnprivilegedUser()
            chmod(database, 0o400)
            let (status, message) = try daemon.runAnotherDaemon(launcher: TestDaemon.asUnprivileged([binary]))
            #expect(status == 1)
            #expect(
                message.contains(database) && message.contains("mode 400") && message.contains("cannot write"),
                "\(message)"
            )
            #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        }

        @Test func aVaultDirectoryOthersCanWriteIsRefusedAndOneTheyCanListIsWarnedOf() throws {
            let daemon = try TestDaemon(start: false)
            chmod(daemon.directory.path, 0o777)
            let (status, message) = try daemon.runAnotherDaemon()
            #expect(status == 1)
            #expect(message.contains("mode 777") && message.contains("chmod 700"), "\(message)")
            chmod(daemon.directory.path, 0o755)
            try daemon.start()
            #expect(daemon.logText.contains("mode 755"))
            #expect(daemon.stop() == 0)
        }

        @Test func somethingOtherThanASocketAtTheSocketPathIsNamedInWords() throws {
            let daemon = try TestDaemon(start: false)
            FileManager.default.createFile(atPath: daemon.socketPath, contents: Data("not a socket".utf8))
            let (status, message) = try daemon.runAnotherDaemon()
            #expect(status == 1)
            #expect(message.contains("\(daemon.socketPath) exists and is not a socket"), "\(message)")
            #expect(!message.contains("UnixDomainSocketPathWrongType"))
        }

        @Test func aCheckpointThatCannotBeWrittenAtStopFailsLoudlyAndIsToldAtTheNextStart() throws {
            let daemon = try TestDaemon(start: false)
            try daemon.startUnprivileged()
            // The directory becomes read-only for the daemon's user: the database (its files
            // stay writable) takes the lock entry, the checkpoint note cannot be replaced.
            chmod(daemon.directory.path, 0o500)
            let status = daemon.stop()
            chmod(daemon.directory.path, 0o700)
            #expect(status == 1)
            #expect(daemon.logText.contains("could not be recorded and checkpointed"), "\(daemon.logText.suffix(1500))")
            try daemon.startUnprivileged()
            #expect(daemon.logText.contains("was not locked cleanly"), "\(daemon.logText.suffix(1500))")
            #expect(daemon.stop() == 0)
        }
    }
}
