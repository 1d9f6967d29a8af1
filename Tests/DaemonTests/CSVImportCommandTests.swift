import Foundation
import Glibc
import HealthInterchange
import HealthModel
import HealthVaultKit
import Testing
import VaultClient
import VaultProtocol

extension DaemonEndToEnd {
    /// `healthvault import csv`, the real binary against a real daemon: a good file comes in with
    /// its counts, again adds nothing, and a file with bad rows is refused whole, each bad row
    /// named by line and column.
    @Suite struct CSVImportCommandTests {
        static let good = """
            type,start,end,value,unit,source
            bodyMass,2026-03-02T08:00:00Z,,72.5,kg,"Withings, Inc."
            bodyMass,2026-03-03T08:00:00Z,,160,lb,"Withings, Inc."
            bloodPressure,2026-03-02 07:00:00 +0100,,120/80,mmHg,"Omron ""M7"", cuff"
            sleepAnalysis,2026-03-01T23:00:00Z,2026-03-02T06:30:00Z,asleepCore,,
            HKQuantityTypeIdentifierStepCount,2026-03-02T09:00:00Z,2026-03-02T10:00:00Z,1234,count,

            """

        static func write(_ text: String, _ daemon: TestDaemon, name: String) throws -> URL {
            let file = daemon.directory.deletingLastPathComponent().appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            return file
        }

        @Test func aFileComesInWithItsCountsAndAgainAddsNothing() async throws {
            let daemon = try TestDaemon()
            let file = try Self.write(Self.good, daemon, name: "history.csv")
            let first = try CLITests.healthvault(["import", "csv", file.path], daemon: daemon)
            #expect(first.status == 0, "\(first)")
            #expect(first.out.hasPrefix("Imported 5 of 5 rows of history.csv"), "\(first.out)")
            #expect(first.out.contains("Withings, Inc."), "\(first.out)")
            let again = try CLITests.healthvault(["import", "csv", file.path, "--json"], daemon: daemon)
            #expect(again.status == 0, "\(again)")
            let summary = try JSONDecoder().decode(CSVImportSummary.self, from: Data(again.out.utf8))
            #expect(summary.rows == 5 && summary.total.imported == 0 && summary.total.alreadyPresent == 5)
            #expect(summary.byType["HKQuantityTypeIdentifierBodyMass"]?.alreadyPresent == 2)
            #expect(summary.byType["HKCorrelationTypeIdentifierBloodPressure"]?.alreadyPresent == 1)
            #expect(summary.bySource["history.csv"]?.alreadyPresent == 2)
            #expect(summary.batches == 1)

            // Quoted fields with commas and quotes are the sources' names; a row without one is
            // the file's; a blood pressure's members are stored once, as its members.
            let weights = try CLITests.healthvault(["samples", "list", "bodyMass", "--json"], daemon: daemon).out
                .split(separator: "\n").map { try HealthJSON.decode(Sample.self, from: Data($0.utf8)) }
            #expect(weights.count == 2)
            #expect(
                weights.allSatisfy {
                    $0.sourceRevision.source
                        == Source(bundleIdentifier: "import:csv:Withings, Inc.", name: "Withings, Inc.")
                }
            )
            let data = try CLITests.healthvault(["data"], daemon: daemon).out
            let systolic = try #require(data.split(separator: "\n").first { $0.hasPrefix("bloodPressureSystolic") })
            #expect(systolic.contains(" 1 ") && systolic.contains("Omron \"M7\", cuff (1)"), "\(data)")
            let steps = try #require(data.split(separator: "\n").first { $0.hasPrefix("stepCount") })
            #expect(steps.contains("history.csv (1)"), "\(data)")
            // Each import is one audited owner action; the second stored nothing.
            let imports = try await daemon.auditEntries(operation: "vault.import")
            #expect(imports.map(\.count) == [5, 0])
        }

        @Test func aFileWithBadRowsIsRefusedWholeEachBadRowNamed() async throws {
            let daemon = try TestDaemon()
            let text =
                Self.good + """
                    bodyMass,last tuesday,,72.5,kg,
                    bodyMass,2026-03-04T08:00:00Z,,72.5,mmHg,
                    moodiness,2026-03-04T08:00:00Z,,3,,
                    bodyMass,2026-03-04T08:00:00Z,,7"2,kg,
                    sleepAnalysis,2026-03-04T08:00:00Z,2026-03-04T07:00:00Z,asleepCore,,

                    """
            let file = try Self.write(text, daemon, name: "bad.csv")
            let refused = try CLITests.healthvault(["import", "csv", file.path], daemon: daemon)
            #expect(refused.status != 0)
            #expect(refused.err.hasPrefix("healthvault: bad.csv: 5 bad rows; nothing was imported"), "\(refused.err)")
            for place in [
                "line 7, column 2 (start): not a date", "line 8, column 5 (unit): mmHg does not measure",
                "line 9, column 1 (type): not a type HealthVault knows",
                "line 10, column 4 (value): a quote inside an unquoted field",
                "line 11, column 3 (end): the end comes before the start",
            ] {
                #expect(refused.err.contains(place), "\(place) in \(refused.err)")
            }
            #expect(!refused.err.contains("last tuesday") && !refused.err.contains("moodiness"))
            #expect(try CLITests.healthvault(["data"], daemon: daemon).out == "The vault holds no samples.\n")
            #expect(try await daemon.auditEntries(operation: "vault.import").isEmpty)
        }

        /// `import.csv` tells its owner connection how far it is, in order and before its answer:
        /// `import.progress`, the file's size as `totalBytes`, and at the end the rows done as
        /// `records`.
        @Test func theImportSendsItsProgress() async throws {
            let daemon = try TestDaemon()
            let file = try Self.write(Self.good, daemon, name: "history.csv")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
            let connection = try await daemon.owner()
            defer { connection.close() }
            let stream = connection.importProgress()
            let seen = Task {
                var reports: [ImportProgressParams] = []
                for await progress in stream {
                    reports.append(progress)
                    if progress.records == 5 { break }
                }
                return reports
            }
            let summary = try await connection.call(
                Method.importCSV,
                ImportCSVParams(path: file.path),
                as: CSVImportSummary.self
            )
            #expect(summary.total.imported == 5)
            let watchdog = Task {
                try await Task.sleep(for: .seconds(10))
                seen.cancel()
            }
            let reports = await seen.value
            watchdog.cancel()
            #expect(reports.last == ImportProgressParams(bytesRead: size, totalBytes: size, records: 5), "\(reports)")
            #expect(reports.allSatisfy { $0.totalBytes == size && $0.bytesRead <= size })
        }

        /// A device or a named pipe given to an import is refused at once: the daemon opened the
        /// pipe and waited on it for good, or read /dev/zero without end, and could not stop.
        /// Each command runs under `timeout`, so that such a wait fails the test.
        @Test func aDeviceOrANamedPipeIsRefusedAtOnceAndTheDaemonGoesOn() async throws {
            let daemon = try TestDaemon()
            let pipe = daemon.directory.deletingLastPathComponent().appendingPathComponent("rows.csv")
            #expect(mkfifo(pipe.path, 0o600) == 0)
            let notAnExport = "not an export: give the export's zip file, its folder or its export.xml"
            for (kind, path, message) in [
                (
                    "csv", "/dev/zero",
                    "/dev/zero is a character device, not a regular file: give the path of a CSV file"
                ),
                ("csv", pipe.path, "\(pipe.path) is a named pipe, not a regular file: give the path of a CSV file"),
                ("apple-health", "/dev/zero", "/dev/zero is a character device, \(notAnExport)"),
                ("apple-health", pipe.path, "\(pipe.path) is a named pipe, \(notAnExport)"),
            ] {
                let refused = try runProcess([
                    "/usr/bin/timeout", "30", TestDaemon.binary("healthvault"), "import", kind, path,
                    "--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile,
                ])
                #expect(refused.status == 1 && refused.err == "healthvault: \(message)\n", "\(refused)")
            }
            #expect(try CLITests.healthvault(["data"], daemon: daemon).out == "The vault holds no samples.\n")
            #expect(try await daemon.auditEntries(operation: "vault.import").isEmpty)
            // No thread is left reading: the daemon stops when asked.
            #expect(daemon.stop(within: 20) == 0)
        }
    }
}
