import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// Many callers at once: one writer, readers side by side, no lost save, a log that verifies.
@Suite struct ConcurrencyTests {
    @Test func concurrentAppsSaveQueryAndDeleteWithoutLoss() async throws {
        let test = try TestEngine()
        let apps = (1...8).map { "org.example.busy\($0)" }
        for app in apps {
            try await test.enroll(app)
            try await test.grant(.share, .quantity(.stepCount), .quantity(.heartRate), to: app)
        }
        try await test.grant(.read, .quantity(.stepCount), to: apps[0])
        let rounds = 25
        // Each app saves, reads its own view, and deletes every fifth batch; all at once, while the
        // owner revokes and grants the first app's read.
        let saved = try await withThrowingTaskGroup(of: (String, Set<UUID>).self) { group in
            for app in apps {
                group.addTask {
                    var kept: Set<UUID> = []
                    for round in 0..<rounds {
                        let batch = [try quantitySample(), try quantitySample(.heartRate)]
                        try await test.engine.save(batch, as: .app(app))
                        let mine = try await test.engine.samples(
                            matching: SampleQueryDescriptor(
                                predicates: [SampleTypePredicate(.quantity(.stepCount), predicate: .sources([app]))]
                            ),
                            as: .app(app)
                        )
                        #expect(mine.allSatisfy { $0.sourceRevision.source.bundleIdentifier == app })
                        if round % 5 == 4 {
                            #expect(try await test.engine.delete(batch.map(\.uuid), as: .app(app)) == 2)
                        } else {
                            kept.formUnion(batch.map(\.uuid))
                        }
                    }
                    return (app, kept)
                }
            }
            group.addTask {
                for _ in 0..<10 {
                    try await test.engine.decide(.revoke, .read, of: [.quantity(.stepCount)], for: apps[0])
                    try await test.engine.decide(.grant, .read, of: [.quantity(.stepCount)], for: apps[0])
                }
                return ("", [])
            }
            var saved: [String: Set<UUID>] = [:]
            for try await (app, uuids) in group where !app.isEmpty { saved[app] = uuids }
            return saved
        }
        for app in apps {
            let stored = try await test.engine.samples(
                matching: SampleQueryDescriptor(
                    predicates: [
                        SampleTypePredicate(.quantity(.stepCount), predicate: .sources([app])),
                        SampleTypePredicate(.quantity(.heartRate), predicate: .sources([app])),
                    ]
                ),
                as: .owner
            )
            #expect(Set(stored.map(\.uuid)) == saved[app], "\(app) lost or kept a sample")
        }
        let export = test.directory.deletingLastPathComponent().appendingPathComponent("export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: export) }
        try test.vault.exportAuditLog(to: export)
        let report = AuditVerifier.verify(directory: export, trustedKey: test.vault.verifierKey)
        #expect(report.verdict == .verified, "\(report.summary)")
        let saves = try test.auditEntries().filter { $0.operation == .save && $0.outcome == .ok }
        #expect(saves.count == apps.count * rounds)
    }

    @Test func storeWorkWaitingForTheWriterNeverHoldsTheCallersThreads() async throws {
        let test = try TestEngine()
        try await test.enroll("org.example.waiting")
        try await test.grant(.share, .quantity(.stepCount), to: "org.example.waiting")
        let database = try test.vault.db()
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let releasedByTimeout = LockedFlag()
        // Another thread holds the write transaction (as a long import would) until the test lets
        // go, or ten minutes pass: if the saves below held the cooperative pool's threads, the
        // work after them could only run once the timeout let go. Ten minutes, longer than the
        // whole test run takes: other suites running at the same time may hold the pool's threads
        // for a while themselves (waiting for a process they started), which on a slow 2-core
        // machine outlasted a minute; only a pool the saves hold stays held that long.
        Thread.detachNewThread {
            try? database.write { _ in
                held.signal()
                if release.wait(timeout: .now() + 600) == .timedOut { releasedByTimeout.set() }
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                held.wait()
                continuation.resume()
            }
        }
        // More saves than the engine has threads, and than the cooperative pool has, all waiting
        // for the writer.
        let count = 2 * ProcessInfo.processInfo.activeProcessorCount + 8
        let saves = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        try await test.engine.save([try quantitySample()], as: .app("org.example.waiting"))
                    }
                }
                try await group.waitForAll()
            }
        }
        // Meanwhile the cooperative pool runs other work.
        for _ in 0..<5 { _ = await Task.detached { 1 }.value }
        #expect(!releasedByTimeout.isSet, "the caller's threads waited for the store")
        release.signal()
        try await saves.value
        #expect(try test.sampleCount() == count)
    }
}

/// A flag set from one thread and read from another.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
