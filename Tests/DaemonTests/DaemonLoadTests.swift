import AuditLog
import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import Synchronization
import Testing
import VaultClient
import VaultProtocol
import VaultStore

extension DaemonEndToEnd {
    /// Shutdown under load, and many clients at once.
    @Suite struct DaemonLoadTests {
        /// SIGTERM while an app saves as fast as it can: every save the daemon acknowledged is there
        /// after a restart, and the socket file is gone.
        @Test func sigtermDuringAStreamOfSavesLosesNothingAcknowledged() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.app")
            let acknowledged = Acknowledged()
            let start = Date(timeIntervalSince1970: 1_790_000_000)

            let writers = (0..<4).map { writer in
                Task {
                    guard let store = try? await daemon.store("org.example.app") else { return }
                    var index = 0
                    while true {
                        let batch = (0..<5).compactMap { offset in
                            try? quantity(
                                .stepCount,
                                1,
                                .count,
                                at: start.addingTimeInterval(Double(writer * 1_000_000 + index * 5 + offset))
                            )
                        }
                        index += 1
                        do {
                            try await store.save(batch)
                            acknowledged.uuids.withLock { $0.append(contentsOf: batch.map(\.uuid)) }
                        } catch {
                            return
                        }
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(1500))
            let status = daemon.stop(signal: SIGTERM)
            for writer in writers { await writer.value }
            #expect(status == 0, "\(daemon.logText.suffix(2000))")
            #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
            let saved = acknowledged.uuids.withLock { $0 }
            #expect(saved.count > 20)

            try daemon.start()
            let store = try await daemon.store("org.example.app")
            let found = Set(
                try await store.samples(matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)])).map(
                    \.uuid
                )
            )
            let missing = saved.filter { !found.contains($0) }
            #expect(missing.isEmpty, "\(missing.count) of \(saved.count) acknowledged samples are missing")
            await store.close()
        }

        /// A request being answered when SIGTERM arrives is answered before the connection closes.
        @Test func theAnswerUnderWayAtSigtermIsWritten() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.app")
            let socket = try await DaemonBadInputTests.authenticated(daemon, "org.example.app")
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let batch = try (0..<30_000).map {
                try quantity(.stepCount, 1, .count, at: start.addingTimeInterval(Double($0) * 60))
            }
            let params = String(decoding: try HealthJSON.encode(SaveParams(objects: batch)), as: UTF8.self)
            let pid = try #require(daemon.pid)
            let cpuBefore = try #require(Self.cpuTime(of: pid))
            // The whole frame is written (so the daemon has read all but a socket buffer of it),
            // then the daemon is seen working on it, however loaded the machine: only then SIGTERM.
            await offPool {
                socket.sendFrame(#"{"jsonrpc":"2.0","id":1,"method":"samples.save","params":"# + params + "}")
            }
            let deadline = Date().addingTimeInterval(30)
            while let cpu = Self.cpuTime(of: pid), cpu - cpuBefore < 0.3, Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let signalled = Date()
            kill(pid, SIGTERM)
            // Each read waits up to 5 s; the save may take longer on a busy machine.
            var answer: [String: Any]?
            for _ in 0..<6 where answer == nil { answer = await socket.readFrame() }
            #expect((answer?["result"] as? [String: Any])?["saved"] as? Int == 30_000, "\(String(describing: answer))")
            #expect(daemon.stop() == 0)
            print("sigterm: answered \(Date().timeIntervalSince(signalled)) s after the signal")
        }

        /// The CPU time `pid` has used, seconds (user and system, from /proc).
        static func cpuTime(of pid: Int32) -> Double? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        /// 64 clients (8 apps, 8 connections each) save and query for a few seconds: no error, no
        /// lost save, each app sees exactly its own, and the audit log verifies afterwards.
        @Test func sixtyFourClientsSaveAndQueryTogether() async throws {
            // One test process plays 64 clients that would be separate processes: its connections
            // may all wait to authenticate at once.
            let daemon = try TestDaemon(["--max-unauthenticated", "64", "--max-unauthenticated-per-peer", "64"])
            let apps = (0..<8).map { "org.example.app\($0)" }
            for app in apps {
                try await daemon.enroll(app, read: [ObjectType(steps)], share: [steps])
                try await daemon.decide("grant", ["share"], [ObjectType(steps)], for: app)
            }
            let seconds = Double(ProcessInfo.processInfo.environment["HEALTHVAULT_LOAD_SECONDS"] ?? "") ?? 4
            let deadline = Date().addingTimeInterval(seconds)
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let results = try await withThrowingTaskGroup(of: (String, [UUID], Int).self) { group in
                for client in 0..<64 {
                    let app = apps[client % 8]
                    group.addTask {
                        let store = try await daemon.store(app)
                        var saved: [UUID] = []
                        var queries = 0
                        var index = 0
                        while Date() < deadline {
                            let sample = try quantity(
                                .stepCount,
                                1,
                                .count,
                                at: start.addingTimeInterval(Double(client * 1_000_000 + index))
                            )
                            index += 1
                            try await store.save(sample)
                            saved.append(sample.uuid)
                            if index % 4 == 0 {
                                let own = try await store.samples(
                                    matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)], limit: 10)
                                )
                                #expect(own.allSatisfy { $0.sourceRevision.source.bundleIdentifier == app })
                                queries += 1
                            }
                        }
                        await store.close()
                        return (app, saved, queries)
                    }
                }
                var all: [(String, [UUID], Int)] = []
                for try await result in group { all.append(result) }
                return all
            }
            let total = results.reduce(0) { $0 + $1.1.count }
            #expect(results.count == 64)
            #expect(results.allSatisfy { $0.1.count > 0 && $0.2 > 0 }, "a client saved or queried nothing")
            for app in apps {
                let store = try await daemon.store(app)
                let found = Set(
                    try await store.samples(matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)]))
                        .map(
                            \.uuid
                        )
                )
                let expected = Set(results.filter { $0.0 == app }.flatMap(\.1))
                #expect(found == expected, "\(app): \(expected.subtracting(found).count) saves lost")
                await store.close()
            }
            let export = daemon.directory.deletingLastPathComponent().appendingPathComponent("export")
            _ = try await daemon.ownerCall(
                Method.auditExport,
                AuditExportParams(directory: export.path),
                as: AuditExportResult.self
            )
            let key = try String(
                contentsOf: daemon.directory.appendingPathComponent(Vault.auditPublicKeyFileName),
                encoding: .utf8
            )
            let report = AuditVerifier.verify(
                directory: export,
                trustedKey: try VerifierKey(line: key.trimmingCharacters(in: .whitespacesAndNewlines))
            )
            #expect(report.verdict == .verified, "\(report.summary)")
            let saves = try await daemon.auditEntries(operation: "save")
            #expect(saves.filter { $0.outcome == "ok" }.count == total)
            print("load: 64 clients, \(total) saves and \(results.reduce(0) { $0 + $1.2 }) queries in \(seconds) s")
            #expect(daemon.stop() == 0)
        }
    }
}

/// The saves the daemon acknowledged, from several tasks.
final class Acknowledged: Sendable {
    let uuids = Mutex<[UUID]>([])
}
