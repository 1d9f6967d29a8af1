import Foundation
import Glibc
import ProcessTestSupport
import Testing

/// The tests' own way of starting programs (Tests/ProcessTestSupport): what Foundation's
/// `Process` does for them, without its crash in a process with many descriptors open.
@Suite struct ChildProcessTests {
    /// Runs `program` with `arguments`; its status, why it ended and its standard output.
    static func run(
        _ program: String,
        _ arguments: [String],
        configure: (ChildProcess) -> Void = { _ in }
    ) throws -> (status: Int32, reason: ChildProcess.TerminationReason, out: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        configure(process)
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason, String(decoding: data, as: UTF8.self))
    }

    @Test func aChildAmongThousandsOfOpenDescriptorsInheritsOnlyItsStandardStreams() throws {
        // As many descriptors as a full run of the suite holds (1,600 at its peak), leaving a
        // thousand of the limit to the tests running beside this one.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let alreadyOpen = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        let count = max(0, min(2000, Int(limit.rlim_cur) - alreadyOpen - 1000))
        let null = open("/dev/null", O_RDONLY)
        let extra = (0..<count).map { _ in dup(null) }
        defer {
            for descriptor in extra + [null] { close(descriptor) }
        }
        #expect(extra.allSatisfy { $0 >= 0 })
        for _ in 0..<20 {
            let listing = try Self.run("/bin/ls", ["/proc/self/fd"])
            #expect(listing.status == 0)
            // ls's own descriptor of the folder it lists is the fourth.
            #expect(listing.out.split(separator: "\n") == ["0", "1", "2", "3"])
        }
    }

    @Test func theStatusTheSignalTheFolderAndAnInputOfNothing() throws {
        let exited = try Self.run("/bin/sh", ["-c", "exit 3"])
        #expect(exited.status == 3 && exited.reason == .exit)
        let killed = try Self.run("/bin/sh", ["-c", "kill -9 $$"])
        #expect(killed.status == SIGKILL && killed.reason == .uncaughtSignal)
        let folder = try Self.run("/bin/pwd", []) { $0.currentDirectoryURL = URL(fileURLWithPath: "/usr/share") }
        #expect(folder.out == "/usr/share\n")
        let nothing = try Self.run("/bin/cat", []) { $0.standardInput = nil }
        #expect(nothing.status == 0 && nothing.out.isEmpty)
        let nullDevice = try Self.run("/bin/cat", []) { $0.standardInput = FileHandle.nullDevice }
        #expect(nullDevice.status == 0 && nullDevice.out.isEmpty)
        let silenced = try Self.run("/bin/sh", ["-c", "ls -l /proc/self/fd/2"]) {
            $0.standardError = FileHandle.nullDevice
        }
        #expect(silenced.out.hasSuffix("-> /dev/null\n"), "\(silenced.out)")
        let environment = try Self.run("/usr/bin/env", []) { $0.environment = ["ONLY": "this"] }
        #expect(environment.out == "ONLY=this\n")
        #expect(throws: ChildProcessError.self) { try Self.run("/nonexistent/program", []) }
    }

    @Test func isRunningUntilItEndsAndIsReapedOnce() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        try process.run()
        #expect(process.isRunning)
        process.terminate()
        process.waitUntilExit()
        #expect(!process.isRunning)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
    }
}
