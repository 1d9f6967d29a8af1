import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import ProcessTestSupport
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// `healthvault report` against a real daemon, and the page it writes opened in headless
    /// Chromium (scripts/report-browser-test.py, Selenium): every chart's numbers against the
    /// vault's own statistics, nothing fetched, nothing overflowing, the printed PDF's pages.
    @Suite struct ReportCommandTests {
        static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        static func healthvault(
            _ arguments: [String],
            daemon: TestDaemon
        ) throws -> (
            status: Int32, out: String, err: String
        ) {
            try CLITests.healthvault(arguments, daemon: daemon)
        }

        /// The days of the report: the last 14 days through today, in the vault's zone.
        static func days(in zone: TimeZone) -> [String] {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let noon = calendar.date(byAdding: .hour, value: 12, to: calendar.startOfDay(for: Date()))!
            return (0..<14).reversed().map { back in
                CalendarDay.string(of: calendar.date(byAdding: .day, value: -back, to: noon)!, in: zone)
            }
        }

        /// Runs the browser test on the report at `report`; its output when it fails.
        static func browserCheck(
            _ daemon: TestDaemon,
            report: String,
            from: String,
            to: String,
            empty: Bool = false
        )
            throws -> (status: Int32, output: String)
        {
            let python = repository.appendingPathComponent(".venv/bin/python").path
            try #require(
                FileManager.default.isExecutableFile(atPath: python),
                "the test tools' virtual environment is missing: run make venv (make test does)"
            )
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments =
                [
                    repository.appendingPathComponent("scripts/report-browser-test.py").path,
                    "--healthvault", TestDaemon.binary("healthvault"), "--vault", daemon.directory.path,
                    "--passphrase-file", daemon.passphraseFile, "--report", report, "--from", from, "--to", to,
                ] + (empty ? ["--empty"] : [])
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }

        /// A CSV of known samples over `days` (UTC instants in the morning, inside each Paris day).
        static func knownData(_ days: [String]) -> String {
            var rows = ["type,start,end,value,unit,source"]
            for (index, day) in days.enumerated() {
                rows.append("steps,\(day)T08:00:00Z,\(day)T09:00:00Z,\(3000 + 457 * index),count,Phone")
                if index % 3 == 0 {
                    // The watch counts the same walk: merged, not added.
                    rows.append("steps,\(day)T08:30:00Z,\(day)T09:30:00Z,\(2500 + 100 * index),count,Watch")
                }
                if index % 2 == 0 {
                    rows.append("activeEnergyBurned,\(day)T08:00:00Z,\(day)T09:00:00Z,\(250 + 31 * index),kcal,Watch")
                    rows.append("heartRate,\(day)T06:00:00Z,,\(52 + index),bpm,Watch")
                    rows.append("heartRate,\(day)T16:00:00Z,,\(128 + index),bpm,Watch")
                    rows.append("heartRate,\(day)T16:01:00Z,\(day)T16:31:00Z,\(97 + index),bpm,Strap")
                }
                if index % 4 == 1 {
                    rows.append("restingHeartRate,\(day)T06:00:00Z,,\(Double(55) + Double(index) / 3),bpm,Watch")
                    rows.append("heartRateVariabilitySDNN,\(day)T06:00:00Z,,\(40 + index),ms,Watch")
                    rows.append("bodyMass,\(day)T06:30:00Z,,\(72.4 - Double(index) * 0.07),kg,Scale")
                    rows.append("bodyMassIndex,\(day)T06:30:00Z,,\(23.1 - Double(index) * 0.02),count,Scale")
                    rows.append("bloodPressure,\(day)T06:35:00Z,,\(118 + index)/\(77 + index),mmHg,Cuff")
                }
                if index % 5 == 2 {
                    rows.append("workout,\(day)T16:00:00Z,\(day)T16:\(30 + index):00Z,running,,Watch")
                }
            }
            // Three nights, noon to noon: in bed, then stages.
            for index in [3, 7, 8] where index + 1 < days.count {
                let (night, morning) = (days[index], days[index + 1])
                rows.append("sleep,\(night)T21:30:00Z,\(morning)T05:30:00Z,inBed,,Watch")
                let deepEnd = "\(morning)T02:\(10 + 5 * index):00Z"
                rows.append("sleep,\(night)T22:00:00Z,\(morning)T01:00:00Z,asleepCore,,Watch")
                rows.append("sleep,\(morning)T01:00:00Z,\(deepEnd),asleepDeep,,Watch")
                rows.append("sleep,\(deepEnd),\(morning)T04:00:00Z,asleepREM,,Watch")
                rows.append("sleep,\(morning)T04:00:00Z,\(morning)T04:20:00Z,awake,,Watch")
            }
            return rows.joined(separator: "\n") + "\n"
        }

        @Test func aReportOfKnownDataAgreesWithTheVaultInABrowser() async throws {
            let daemon = try TestDaemon()
            let root = daemon.directory.deletingLastPathComponent().path
            for command in [["timezone", "Europe/Paris"], ["units", "weight", "lb"], ["goals", "--move", "400"]] {
                let done = try Self.healthvault(command, daemon: daemon)
                try #require(done.status == 0, "\(command): \(done.err)")
            }
            let zone = TimeZone(identifier: "Europe/Paris")!
            let days = Self.days(in: zone)
            let csv = root + "/known.csv"
            try Data(Self.knownData(days).utf8).write(to: URL(fileURLWithPath: csv))
            let imported = try Self.healthvault(["import", "csv", csv], daemon: daemon)
            try #require(imported.status == 0, "\(imported.err)")

            // An app: it saves a run with its distance, reads heart rate (granted) and steps (not:
            // served as empty), so the access history has something to say of it.
            try await daemon.enroll(
                "org.example.runner",
                read: [.quantity(.heartRate), .quantity(.stepCount)],
                share: [.workout]
            )
            try await daemon.decide("grant", ["read"], [.quantity(.heartRate)], for: "org.example.runner")
            try await daemon.decide("grant", ["share"], [.workout], for: "org.example.runner")
            let store = try await daemon.store("org.example.runner")
            let start = ISO8601DateFormatter().date(from: "\(days[11])T06:00:00Z")!
            try await store.save(
                .workout(
                    try Workout(
                        activityType: .running,
                        start: start,
                        end: start.addingTimeInterval(1800),
                        totalEnergyBurned: Quantity(310, .kilocalorie),
                        totalDistance: Quantity(5.2, try HealthUnit(from: "km")),
                        sourceRevision: SourceRevision(source: Source(bundleIdentifier: "x", name: "x"))
                    )
                )
            )
            for type in [QuantityTypeIdentifier.heartRate, .stepCount] {
                _ = try await store.samples(
                    matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(type))])
                )
            }
            await store.close()

            let report = root + "/report.html"
            let written = try Self.healthvault(
                ["report", "--from", days[0], "--to", days[13], report],
                daemon: daemon
            )
            #expect(written.status == 0, "\(written.err)")
            #expect(written.out.contains("recorded as vault.report, audit entry"))
            #expect(written.err.contains("NOT encrypted"))
            let mode = try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            // One audit entry: the types the report summarized and how many samples, no value.
            let entries = try await daemon.auditEntries(operation: "vault.report")
            #expect(entries.count == 1)
            let entry = try #require(entries.last)
            #expect(entry.actor == "owner" && entry.outcome == "ok")
            #expect(entry.types.contains(QuantityTypeIdentifier.stepCount.rawValue))
            #expect(entry.types.contains(ObjectType.workoutTypeIdentifier))
            #expect(entry.count > 50)

            let check = try Self.browserCheck(daemon, report: report, from: days[0], to: days[13])
            #expect(check.status == 0, "\(check.output)")

            // With healthvaultd stopped, the command serves the vault to itself: the same figures.
            daemon.stop()
            let again = root + "/again.html"
            let stopped = try Self.healthvault(["report", "--from", days[0], "--to", days[13], again], daemon: daemon)
            #expect(stopped.status == 0, "\(stopped.err)")
            func stepsTable(_ path: String) throws -> Substring {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let start = try #require(text.range(of: "data-chart-table=\"steps\""))
                let end = try #require(text.range(of: "</table>", range: start.upperBound..<text.endIndex))
                return text[start.lowerBound..<end.upperBound]
            }
            #expect(try stepsTable(report) == stepsTable(again))
        }

        @Test func anEmptyVaultsReportSaysSo() async throws {
            let daemon = try TestDaemon()
            let root = daemon.directory.deletingLastPathComponent().path
            let report = root + "/empty.html"
            let days = Self.days(in: .gmt)
            let written = try Self.healthvault(["report", "--from", days[0], "--to", days[13], report], daemon: daemon)
            #expect(written.status == 0, "\(written.err)")
            let text = try String(contentsOfFile: report, encoding: .utf8)
            #expect(text.contains("Your vault holds no health data"))
            let check = try Self.browserCheck(daemon, report: report, from: days[0], to: days[13], empty: true)
            #expect(check.status == 0, "\(check.output)")
        }

        @Test func badInputIsOneLineAndNothingIsWritten() async throws {
            let daemon = try TestDaemon()
            let root = daemon.directory.deletingLastPathComponent().path
            let report = root + "/r.html"
            let backwards = try Self.healthvault(
                ["report", "--from", "2026-11-10", "--to", "2026-11-01", report],
                daemon: daemon
            )
            #expect(backwards.status != 0)
            #expect(
                backwards.err == "healthvault: --to 2026-11-01 is before --from 2026-11-10: give the first day first\n"
            )
            #expect(!FileManager.default.fileExists(atPath: report))

            try Data("mine".utf8).write(to: URL(fileURLWithPath: report))
            let exists = try Self.healthvault(["report", report], daemon: daemon)
            #expect(exists.status != 0)
            #expect(exists.err == "healthvault: \(report) exists; give --overwrite to replace it, or another name\n")
            #expect(try String(contentsOfFile: report, encoding: .utf8) == "mine")
            #expect(try Self.healthvault(["report", report, "--overwrite"], daemon: daemon).status == 0)

            let directory = try Self.healthvault(["report", root], daemon: daemon)
            #expect(directory.err.hasPrefix("healthvault: \(root) is a directory"))
            let tooLong = try Self.healthvault(
                ["report", "--from", "2000-01-01", "--to", "2026-01-01", root + "/long.html"],
                daemon: daemon
            )
            #expect(tooLong.status != 0 && tooLong.err.split(separator: "\n").count == 1)
            #expect(!FileManager.default.fileExists(atPath: root + "/long.html"))

            // --pdf without Chromium: said before the vault is asked.
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: TestDaemon.binary("healthvault"))
            process.arguments = [
                "report", "--pdf", root + "/r.pdf", "--vault", daemon.directory.path, "--passphrase-file",
                daemon.passphraseFile,
            ]
            process.environment = ["PATH": "/nonexistent"]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0)
            #expect(said.hasPrefix("healthvault: --pdf needs Chromium, and none is installed"))
            #expect(!FileManager.default.fileExists(atPath: root + "/r.pdf"))
            // Two reports made (the refused ones record nothing but the too-long range's error).
            let entries = try await daemon.auditEntries(operation: "vault.report")
            #expect(entries.map(\.outcome) == ["ok", "error"] || entries.map(\.outcome) == ["error", "ok"])
        }
    }
}
