import Foundation
import HealthModel
import ProcessTestSupport
import Testing

@testable import VaultStore

/// A writer killed with SIGKILL at random moments loses no acknowledged batch and leaves no
/// partial one; the database stays intact.
@Suite(.serialized)
struct CrashSafetyTests {
    /// The `vault-crash-writer` built beside the test bundle.
    static var writerPath: String? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [bundle, bundle.deletingLastPathComponent()] {
            let path = directory.appendingPathComponent("vault-crash-writer").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Lines a child wrote to a pipe, collected as they arrive by blocking reads on a thread of
    /// their own until the pipe ends.
    ///
    /// Not `FileHandle.readabilityHandler`: its libdispatch read source, set up and torn down round
    /// after round, can leave a freed epoll muxnote that libdispatch's event loop later reads, and
    /// the test process dies with SIGSEGV in `_dispatch_event_loop_drain`
    /// (swiftlang/swift-corelibs-libdispatch#949). It did, once, in CI. A blocking read registers
    /// nothing with libdispatch.
    final class LineCollector: @unchecked Sendable {
        private let lock = NSLock()
        private var buffer = Data()
        private let ended = DispatchSemaphore(value: 0)

        /// Starts reading `handle` to its end (the child's exit, once this process holds no write end).
        func collect(from handle: FileHandle) {
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    lock.lock()
                    buffer.append(data)
                    lock.unlock()
                }
                ended.signal()
            }
        }

        /// Waits until the pipe has ended.
        func waitForEnd() {
            ended.wait()
        }

        /// Complete lines only: a line cut by the kill is not an acknowledgement.
        var lines: [String] {
            lock.lock()
            defer { lock.unlock() }
            let text = String(decoding: buffer, as: UTF8.self)
            var lines = text.components(separatedBy: "\n")
            lines.removeLast()
            return lines
        }
    }

    @Test func killedWriterLosesNoAcknowledgedBatchAndLeavesNoPartialOne() throws {
        let writer = try #require(Self.writerPath, "vault-crash-writer is not built next to the tests")
        let test = try TestVault()
        test.close()
        let batchSize = 40
        var acknowledged = Set<Int>()
        var nextBatch = 0
        var kills = 0
        for round in 0..<50 {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: writer)
            process.arguments = [test.directory.path, String(nextBatch), String(batchSize)]
            process.environment = ["HEALTHVAULT_TEST_PASSPHRASE": TestVault.passphrase]
            let output = Pipe()
            let collector = LineCollector()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            collector.collect(from: output.fileHandleForReading)
            // Kill at a random moment: before the vault opens, between batches, or mid-commit.
            usleep(UInt32.random(in: 20_000...250_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            collector.waitForEnd()
            if process.terminationReason == .uncaughtSignal { kills += 1 }
            for line in collector.lines where line.hasPrefix("ACK ") {
                acknowledged.insert(Int(line.dropFirst(4))!)
            }

            try test.reopen()
            let database = try test.vault!.db()
            let counts = try database.read { db in
                try db.rows(
                    "SELECT number_value, count(*) FROM sample_metadata WHERE key = 'org.healthvault.batch' GROUP BY number_value"
                )
            }
            var present: [Int: Int] = [:]
            for row in counts { present[Int(row[0].double!)] = Int(row[1].int64!) }
            for batch in acknowledged {
                #expect(
                    present[batch] == batchSize,
                    "round \(round): acknowledged batch \(batch) has \(present[batch] ?? 0) samples"
                )
            }
            for (batch, count) in present {
                #expect(count == batchSize, "round \(round): batch \(batch) is partial (\(count) of \(batchSize))")
            }
            #expect(try database.read { try $0.scalarText("PRAGMA integrity_check") } == "ok")
            nextBatch = (present.keys.max() ?? -1) + 1
            test.close()
        }
        #expect(kills == 50)
        #expect(acknowledged.count > 20, "the writer acknowledged too few batches to test anything")
    }
}
