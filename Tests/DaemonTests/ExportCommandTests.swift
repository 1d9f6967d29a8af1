import Foundation
import HealthInterchange
import HealthModel
import HealthVaultKit
import ProcessTestSupport
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// `healthvault export --format json` and `healthvault import json`, the real binaries against
    /// real daemons: filters, owner-only files, the warning, an app's view unchanged, the audit
    /// log's entry, and a restore into another vault that keeps every UUID and source.
    @Suite struct ExportCommandTests {
        static let steps = SampleType.quantity(.stepCount)
        static let heartRate = SampleType.quantity(.heartRate)

        static func permissions(_ url: URL) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
        }

        @Test func anExportIsFilteredOwnerOnlyAuditedAndImportsIntoAnotherVault() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.writer", read: [], share: [Self.steps, Self.heartRate])
            try await daemon.decide(
                "grant",
                ["share"],
                [ObjectType(Self.steps), ObjectType(Self.heartRate)],
                for: "org.example.writer"
            )
            try await daemon.enroll("org.example.reader", read: [ObjectType(Self.steps)], share: [])
            try await daemon.decide("grant", ["read"], [ObjectType(Self.steps)], for: "org.example.reader")
            let writer = try await daemon.store("org.example.writer")
            let reader = try await daemon.store("org.example.reader")
            let day = RFC3339.date(from: "2026-11-02T08:00:00.000Z")!
            // Steps every six hours from 08:00 on 2 November (three that day, three on the 3rd), three heart rates on 2 November.
            var saved = try (0..<6).map {
                try quantity(.stepCount, Double(100 + $0), .count, at: day.addingTimeInterval(Double($0) * 21_600))
            }
            saved += try (0..<3).map {
                try quantity(
                    .heartRate,
                    60.5 + Double($0),
                    .countPerMinute,
                    at: day.addingTimeInterval(Double($0) * 60)
                )
            }
            try await writer.save(saved)
            let query = SampleQueryDescriptor(
                predicates: [SampleTypePredicate(Self.steps)],
                sortDescriptors: [SampleSortDescriptor(.startDate)]
            )
            let before = try await reader.samples(matching: query)

            let root = daemon.directory.deletingLastPathComponent()
            let out = root.appendingPathComponent("export-steps")
            let filtered = try CLITests.healthvault(
                [
                    "export", "--format", "json", out.path, "--type", "stepCount", "--from", "2026-11-02", "--to",
                    "2026-11-03", "--source", "org.example.writer",
                ],
                daemon: daemon
            )
            #expect(filtered.status == 0, "\(filtered)")
            #expect(filtered.err.contains("NOT encrypted"), "\(filtered.err)")
            #expect(filtered.out.hasPrefix("Exported 3 samples to \(out.path)"), "\(filtered.out)")
            #expect(try Self.permissions(out) == 0o700)
            let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            #expect(files == ["manifest.json", "samples.jsonl"])
            for file in files { #expect(try Self.permissions(out.appendingPathComponent(file)) == 0o600, "\(file)") }
            let lines = try String(contentsOf: out.appendingPathComponent("samples.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { try HealthJSON.decode(Sample.self, from: Data($0.utf8)) }
            #expect(Set(lines.map(\.uuid)) == Set(saved.prefix(3).map(\.uuid)))
            #expect(lines.allSatisfy { $0.sourceRevision.source.bundleIdentifier == "org.example.writer" })

            // A directory that holds files is refused, unless the owner says to overwrite it.
            let again = try CLITests.healthvault(["export", "--format", "json", out.path], daemon: daemon)
            #expect(again.status != 0 && again.err.contains("is not empty"), "\(again)")
            // Nothing was written: no warning that something unencrypted was.
            #expect(!again.err.contains("NOT encrypted"), "\(again)")
            let everything = try CLITests.healthvault(
                ["export", "--format", "json", out.path, "--overwrite", "--json"],
                daemon: daemon
            )
            #expect(everything.status == 0, "\(everything)")
            let summary = try HealthJSON.decode(ExportSummary.self, from: Data(everything.out.utf8))
            #expect(
                summary.manifest.samples == [
                    "HKQuantityTypeIdentifierStepCount": 6, "HKQuantityTypeIdentifierHeartRate": 3,
                ]
            )
            #expect(summary.manifest.settings)
            for file in try FileManager.default.contentsOfDirectory(atPath: out.path) {
                #expect(try Self.permissions(out.appendingPathComponent(file)) == 0o600, "\(file)")
            }

            // The app's view is what it was; the audit log holds the exports and verifies.
            #expect(try await reader.samples(matching: query) == before)
            let exports = try await daemon.auditEntries(operation: "vault.export")
            #expect(exports.map(\.count) == [3, 9])
            #expect(exports.first?.types == ["HKQuantityTypeIdentifierStepCount"])
            #expect(exports.allSatisfy { $0.actor == "owner" && $0.outcome == "ok" })
            #expect(try CLITests.healthvault(["audit", "export", root.path + "/audit"], daemon: daemon).status == 0)
            let key = daemon.directory.appendingPathComponent("audit-key.pub").path
            let verified = try CLITests.healthvault(["audit", "verify", root.path + "/audit", "--key", key])
            #expect(verified.status == 0 && verified.out.hasPrefix("verified:"), "\(verified)")

            // Into another vault: every UUID and the app's source kept; again, nothing added.
            let other = try TestDaemon()
            let restored = try CLITests.healthvault(["import", "json", out.path], daemon: other)
            #expect(restored.status == 0, "\(restored)")
            #expect(restored.out.hasPrefix("Imported 9 of 9 samples"), "\(restored.out)")
            let listed = try CLITests.healthvault(["samples", "list", "stepCount", "--json"], daemon: other).out
                .split(separator: "\n").map { try HealthJSON.decode(Sample.self, from: Data($0.utf8)) }
            #expect(Set(listed.map(\.uuid)) == Set(saved.prefix(6).map(\.uuid)))
            #expect(listed.allSatisfy { $0.sourceRevision.source.bundleIdentifier == "org.example.writer" })
            let repeated = try CLITests.healthvault(["import", "json", out.path, "--json"], daemon: other)
            let second = try HealthJSON.decode(JSONImportSummary.self, from: Data(repeated.out.utf8))
            #expect(second.total.imported == 0 && second.total.alreadyPresent == 9, "\(repeated)")
            #expect(try await other.auditEntries(operation: "vault.import").map(\.count) == [9, 0])
            // A folder that is not there is said as such over the protocol, as the other imports
            // say it (the command says it before it asks).
            let missing = root.appendingPathComponent("no-such-export").path
            do {
                _ = try await other.ownerCall(
                    Method.importJSON,
                    ImportJSONParams(path: missing),
                    as: JSONImportSummary.self
                )
                Issue.record("a missing export was imported")
            } catch let error as RPCError {
                #expect(error.data?.field == "path")
                #expect(
                    error.message.contains("the daemon cannot read \(missing) (no such file, or no permission)"),
                    "\(error)"
                )
            }
        }

        /// `--format fhir` and `--format csv` through the real binaries: owner-only files, the FHIR
        /// resources valid R4 for an independent library, the CSV in the owner's units and zone.
        @Test func fhirAndCSVExportsAreWrittenOwnerOnlyInTheOwnersTerms() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.writer", read: [], share: [Self.heartRate])
            try await daemon.decide("grant", ["share"], [ObjectType(Self.heartRate)], for: "org.example.writer")
            let writer = try await daemon.store("org.example.writer")
            let at = RFC3339.date(from: "2026-11-02T08:00:00.000Z")!
            try await writer.save([try quantity(.heartRate, 72, .countPerMinute, at: at)])
            #expect(try CLITests.healthvault(["timezone", "Europe/Paris"], daemon: daemon).status == 0)
            let root = daemon.directory.deletingLastPathComponent()

            let fhir = root.appendingPathComponent("fhir")
            let written = try CLITests.healthvault(["export", "--format", "fhir", fhir.path], daemon: daemon)
            #expect(written.status == 0, "\(written)")
            #expect(written.err.contains("NOT encrypted"), "\(written)")
            #expect(try Self.permissions(fhir) == 0o700)
            #expect(try Self.permissions(fhir.appendingPathComponent("Observation.ndjson")) == 0o600)
            let python = ExportWriterPaths.root.appendingPathComponent(".venv/bin/python")
            try #require(FileManager.default.isExecutableFile(atPath: python.path), "run make venv (make test does)")
            let process = ChildProcess()
            process.executableURL = python
            process.arguments = [
                ExportWriterPaths.root.appendingPathComponent("scripts/validate-fhir.py").path, fhir.path,
            ]
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let observation = try String(contentsOf: fhir.appendingPathComponent("Observation.ndjson"), encoding: .utf8)
            #expect(observation.contains("\"code\":\"8867-4\"") && observation.contains("\"value\":72,"))

            let csv = root.appendingPathComponent("csv")
            #expect(try CLITests.healthvault(["export", "--format", "csv", csv.path], daemon: daemon).status == 0)
            let rates = csv.appendingPathComponent("heartRate.csv")
            #expect(try Self.permissions(rates) == 0o600)
            #expect(
                try String(contentsOf: rates, encoding: .utf8).hasSuffix(",+01:00\n")
                    && String(contentsOf: rates, encoding: .utf8).contains(
                        "2026-11-02 09:00:00,2026-11-02 09:01:00,72,count/min,"
                    )
            )
        }
    }
}

/// The checkout's root, for its scripts and test tools.
enum ExportWriterPaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
