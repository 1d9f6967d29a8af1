import CommandSupport
import Foundation
import HealthModel
import HealthModelTestSupport
import HealthVaultKit
import ProcessTestSupport
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// Issue 22, "Names people can find": the real `healthvault` and `healthvaultd` binaries
    /// against a real vault (docs/NAMES.md, docs/UNITS.md, docs/COMMAND_LINE.md).
    @Suite struct NameCommandTests {
        typealias Run = (status: Int32, out: String, err: String)

        static func healthvault(_ arguments: [String], _ daemon: TestDaemon? = nil) throws -> Run {
            try CLITests.healthvault(arguments, daemon: daemon)
        }

        /// Each line of a command's standard output as a JSON object.
        static func jsonLines(_ text: String) throws -> [[String: Any]] {
            try text.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
        }

        /// A JSON number as a double.
        static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

        /// The cells of the line of a table that begins with `first`.
        static func cells(_ table: String, _ first: String) -> [String] {
            let line = table.split(separator: "\n").first { $0.hasPrefix(first) } ?? ""
            return line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }

        /// The checkout (for `make`, `policies/`, `docs/`).
        static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        // MARK: types

        @Test(.enabled(if: Vectors.available, Vectors.missingMessage))
        func theTypesCommandListsEveryTypeOfHealthKitsCatalog() throws {
            let listed = try Self.healthvault(["types", "--json"])
            #expect(listed.status == 0, "\(listed.err)")
            let rows = try Self.jsonLines(listed.out)
            var byIdentifier: [String: [String: Any]] = [:]
            for row in rows { byIdentifier[try #require(row["identifier"] as? String)] = row }
            // The catalog of HealthKit's headers, with the two constants whose strings differ.
            let strings = Dictionary(
                uniqueKeysWithValues: try Vectors.table("healthkit/identifier_string_exceptions.tsv").map {
                    ($0["constant"] ?? "", $0["string_value"] ?? "")
                }
            )
            let catalog = try Vectors.table("healthkit/types.tsv")
            #expect(catalog.count == 205)
            for entry in catalog {
                let constant = try #require(entry["identifier"])
                let identifier = strings[constant] ?? constant
                let row = try #require(byIdentifier[identifier], "\(identifier) is not listed")
                let kind = entry["kind"] == "deprecated" ? "category" : entry["kind"]
                #expect(row["kind"] as? String == kind, "\(identifier)")
                // Every type is stored since documents and vision prescriptions (schema 16).
                #expect(row["supported"] as? Bool == true, "\(identifier)")
                if kind == "quantity", let unit = entry["canonical_unit"], !unit.isEmpty {
                    // The canonical unit, but rates per second per minute (docs/UNITS.md, "Default units").
                    let expected = try HealthUnit(from: unit == "count/s" ? "count/min" : unit)
                    #expect(try HealthUnit(from: try #require(row["unit"] as? String)) == expected, "\(identifier)")
                } else if kind != "quantity" {
                    #expect(row["unit"] == nil, "\(identifier)")
                }
                // The short name names it.
                let short = try #require(row["shortName"] as? String)
                #expect(ObjectType.named(short)?.identifier == identifier, "\(short)")
            }
            // And the types HealthKit names through accessors.
            for identifier in [
                "HKActivitySummaryTypeIdentifier", "HKDataTypeIdentifierElectrocardiogram",
                "HKDataTypeIdentifierAudiogram",
            ] {
                #expect(byIdentifier[identifier] != nil, "\(identifier)")
            }
            #expect(Set(rows.compactMap { $0["shortName"] as? String }).count == rows.count)

            // The table: a header and a row per type; a search in any case; a kind.
            let table = try Self.healthvault(["types"])
            #expect(table.out.split(separator: "\n").count == rows.count + 1)
            #expect(table.out.hasPrefix("NAME"))
            let heart = try Self.healthvault(["types", "Heart_Rate"])
            #expect(heart.status == 0 && heart.out.contains("heartRate  ") && heart.out.contains("count/min"))
            #expect(!heart.out.contains("stepCount"))
            let steps = try Self.healthvault(["types", "steps"])
            #expect(steps.out.split(separator: "\n").count == 2 && steps.out.contains("stepCount"), "\(steps.out)")
            let documents = try Self.healthvault(["types", "--kind", "document"])
            #expect(documents.out.contains("cda") && documents.out.contains("yes"), "\(documents.out)")
            #expect(!documents.out.contains("not yet"), "\(documents.out)")
            // A filter that keeps nothing is an empty list (exit 0), said with the closest names.
            let misspelt = try Self.healthvault(["types", "stepcont"])
            #expect(misspelt.status == 0)
            #expect(misspelt.out.contains("did you mean stepCount?"), "\(misspelt.out)")
        }

        @Test func typesGoByShortNameInAnyCaseEverywhereAManifestIncluded() async throws {
            let daemon = try TestDaemon()
            let root = daemon.directory.deletingLastPathComponent().path
            // An app whose manifest names its types by short name and alias.
            let manifest = root + "/org.example.named.json"
            try Data(
                #"""
                {"version": 1, "appID": "org.example.named", "displayName": "Named", "readPurpose": "tests",
                 "sharePurpose": "tests", "read": ["steps", "heart_rate", "sleep", "workout", "activitySummary"],
                 "share": ["stepCount", "HKQuantityTypeIdentifierHeartRate", "sleepAnalysis"]}
                """#.utf8
            ).write(to: URL(fileURLWithPath: manifest))
            let keygen = try Self.healthvault([
                "apps", "keygen", "--private-key", root + "/named.key", "--public-key", root + "/named.pub", "--json",
            ])
            #expect(keygen.status == 0, "\(keygen.err)")
            #expect(try Self.jsonLines(keygen.out).first?["publicKey"] as? String == root + "/named.pub")
            let enrolled = try Self.healthvault(
                ["apps", "enroll", manifest, "--key", root + "/named.pub", "--json"],
                daemon
            )
            #expect(enrolled.status == 0, "\(enrolled.err)")
            let info = try #require(try Self.jsonLines(enrolled.out).first)
            #expect(
                Set(info["declaredRead"] as? [String] ?? []) == [
                    "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate",
                    "HKCategoryTypeIdentifierSleepAnalysis", "HKWorkoutTypeIdentifier",
                    "HKActivitySummaryTypeIdentifier",
                ]
            )
            // grant by short names in any case; workouts and activity summaries too.
            for names in [["steps", "HEART_RATE"], ["stepcount"], ["workout", "activity_summary"], ["Sleep"]] {
                let granted = try Self.healthvault(["grant", "org.example.named"] + names + ["--read"], daemon)
                #expect(granted.status == 0, "\(names): \(granted.err)")
            }
            let decision = try Self.healthvault(
                ["deny", "org.example.named", "heart-rate", "--read", "--json"],
                daemon
            )
            let decided = try #require(try Self.jsonLines(decision.out).first)
            #expect(decided["types"] as? [String] == ["HKQuantityTypeIdentifierHeartRate"])
            #expect(decided["access"] as? [String] == ["read"])
            let shown = try Self.healthvault(["apps", "show", "org.example.named"], daemon)
            /// The read state in `apps show`'s row of a type.
            func read(_ identifier: String) -> String? {
                Self.cells(shown.out, identifier + " ").dropFirst().first
            }
            for identifier in [
                "HKQuantityTypeIdentifierStepCount", "HKWorkoutTypeIdentifier", "HKActivitySummaryTypeIdentifier",
                "HKCategoryTypeIdentifierSleepAnalysis",
            ] {
                #expect(read(identifier) == "granted", "\(identifier): \(shown.out)")
            }
            #expect(read("HKQuantityTypeIdentifierHeartRate") == "denied", "\(shown.out)")
            // A misspelt name is refused with the closest names, before anything is decided.
            let misspelt = try Self.healthvault(["grant", "org.example.named", "stepcont", "--share"], daemon)
            #expect(misspelt.status != 0)
            #expect(
                misspelt.err
                    == "healthvault: unknown type \"stepcont\"; did you mean stepCount? (`healthvault types` lists every type)\n",
                "\(misspelt.err)"
            )
            // Other commands take the same names.
            #expect(try Self.healthvault(["samples", "list", "StepCount"], daemon).out == "No stepCount samples.\n")
            #expect(try Self.healthvault(["audit", "show", "--type", "steps", "--json"], daemon).status == 0)
        }

        // MARK: units

        @Test func unitsPeopleUseAndHeartRatePerMinuteByDefault() async throws {
            let daemon = try TestDaemon()
            #expect(try Self.healthvault(["timezone", "UTC"], daemon).status == 0)
            let at = "2026-03-02T08:00:00Z"
            for entry in [
                ["heartRate", "62", "bpm"], ["weight", "11", "st"], ["bodyTemperature", "98.6", "°F"],
                ["bodyMass", "154", "lbs"],
            ] {
                let added = try Self.healthvault(["samples", "add"] + entry + ["--at", at], daemon)
                #expect(added.status == 0, "\(entry): \(added.err)")
            }
            // Heart rate in count/min with no unit chosen (the Health app's); the others in theirs.
            let heart = try Self.healthvault(["samples", "list", "heartRate"], daemon)
            #expect(heart.out.contains("62 count/min"), "\(heart.out)")
            let units = try Self.healthvault(["units", "heartRate", "--json"], daemon)
            #expect(try Self.jsonLines(units.out).first?["unit"] as? String == "count/min")
            let stats = try Self.healthvault(["stats", "pulse"], daemon)
            #expect(stats.out.hasPrefix("HKQuantityTypeIdentifierHeartRate per day, count/min, UTC"), "\(stats.out)")
            #expect(stats.out.contains("avg 62"), "\(stats.out)")
            let temperature = try Self.healthvault(["samples", "list", "bodyTemperature"], daemon)
            #expect(temperature.out.contains("37 degC"), "\(temperature.out)")
            // Stone as the owner's unit: 11 st and 154 lb are the same 69.85 kg.
            #expect(try Self.healthvault(["units", "weight", "stone"], daemon).status == 0)
            let weights = try Self.healthvault(["samples", "list", "bodyMass"], daemon)
            #expect(weights.out.components(separatedBy: " 11 st ").count == 3, "\(weights.out)")
            let inPounds = try Self.healthvault(["stats", "weight", "--unit", "lbs"], daemon)
            #expect(inPounds.out.contains(", lb, ") && inPounds.out.contains("avg 154"), "\(inPounds.out)")
            let wrong = try Self.healthvault(["stats", "weight", "--unit", "bpm"], daemon)
            #expect(wrong.status != 0 && wrong.err.contains("does not measure"), "\(wrong.err)")
        }

        // MARK: profile

        @Test func theProfileIsSetAndShownInWordsAndReadAsOneAuditEntry() async throws {
            let daemon = try TestDaemon()
            for (type, value) in [
                ("bloodType", ["A+"]), ("biologicalSex", ["female"]), ("dateOfBirth", ["1990-05-01"]),
                ("skinType", ["III"]), ("wheelchairUse", ["no"]), ("moveMode", ["active", "energy"]),
            ] {
                let set = try Self.healthvault(["profile", "set", type] + value, daemon)
                #expect(set.status == 0, "\(type): \(set.err)")
            }
            let before = try await daemon.auditEntries(operation: "query.characteristic").count
            let shown = try Self.healthvault(["profile", "show"], daemon)
            #expect(shown.status == 0)
            let lines = shown.out.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("Blood type") && $0.hasSuffix("  A+") }, "\(shown.out)")
            #expect(lines.contains { $0.hasPrefix("Biological sex") && $0.hasSuffix("  female") })
            #expect(lines.contains { $0.hasPrefix("Date of birth") && $0.contains("  1990-05-01 (age ") })
            #expect(lines.contains { $0.hasPrefix("Skin type (Fitzpatrick)") && $0.hasSuffix("  type III") })
            #expect(lines.contains { $0.hasPrefix("Wheelchair use") && $0.hasSuffix("  no") })
            #expect(lines.contains { $0.hasPrefix("Move mode") && $0.hasSuffix("  active energy") })
            #expect(!shown.out.contains("{") && !shown.out.contains("HKCharacteristic"), "\(shown.out)")
            // One audit entry for the whole profile, naming the six types, without a value.
            let entries = try await daemon.auditEntries(operation: "query.characteristic")
            #expect(entries.count == before + 1)
            #expect(entries.last?.types.count == 6 && entries.last?.count == 6)
            #expect(entries.last?.actor == "owner" && entries.last?.outcome == "ok")

            // JSON lines in docs/MODEL_JSON.md's form; clearing one; numbers and JSON as before.
            let json = try Self.jsonLines(try Self.healthvault(["profile", "show", "--json"], daemon).out)
            #expect(json.count == 6)
            #expect(
                json.contains {
                    $0["type"] as? String == "HKCharacteristicTypeIdentifierBloodType" && $0["value"] as? Int == 1
                }
            )
            #expect(try Self.healthvault(["profile", "remove", "wheelchair_use", "--yes"], daemon).status == 0)
            let after = try Self.healthvault(["profile"], daemon).out
            #expect(after.contains("Wheelchair use") && after.contains("not set"), "\(after)")
            #expect(try Self.healthvault(["profile", "set", "biologicalSex", "2"], daemon).status == 0)
            #expect(try Self.healthvault(["profile"], daemon).out.contains("  male\n"))
            let wrong = try Self.healthvault(["profile", "set", "bloodType", "C+"], daemon)
            #expect(wrong.status != 0)
            #expect(
                wrong.err == "healthvault: bloodType is A+, A-, B+, B-, AB+, AB-, O+ or O-, not C+\n",
                "\(wrong.err)"
            )
            let notACharacteristic = try Self.healthvault(["profile", "set", "steps", "3"], daemon)
            #expect(notACharacteristic.status != 0 && notACharacteristic.err.contains("not a characteristic"))

            // The log with these entries (and a category statistics read) verifies in Swift and in
            // the independent Python verifier written from docs/AUDIT_LOG.md.
            #expect(try Self.healthvault(["stats", "sleep"], daemon).out == "No samples.\n")
            let export = daemon.directory.deletingLastPathComponent().appendingPathComponent("audit").path
            #expect(try Self.healthvault(["audit", "export", export], daemon).status == 0)
            let key = daemon.directory.appendingPathComponent("audit-key.pub").path
            #expect(try Self.healthvault(["audit", "verify", export, "--key", key]).status == 0)
            let python = try #require(AuditVerifyAgreementTests.python, "needs python3 (make deps installs it)")
            let verified = try Self.run(
                python,
                [Self.checkout.appendingPathComponent("scripts/audit-verify.py").path, export, "--key", key]
            )
            #expect(verified.status == 0 && verified.out.hasPrefix("verified:"), "\(verified)")
        }

        // MARK: category statistics

        /// A night in UTC: in bed 22:30-06:45; core 23:00-02:00, deep 02:00-03:00, REM 03:00-04:00,
        /// awake 04:00-04:10, core 04:10-06:30; a watch records core 23:30-01:00 as well (each
        /// moment counts once). Then a nap the next afternoon, which belongs to the next night.
        static func sleep(_ value: CategoryValueSleepAnalysis, _ start: String, _ end: String) throws -> Sample {
            .category(
                try CategorySample(
                    type: .sleepAnalysis,
                    value: value,
                    start: RFC3339.date(from: start)!,
                    end: RFC3339.date(from: end)!,
                    sourceRevision: SourceRevision(source: Source(bundleIdentifier: "ignored", name: "ignored"))
                )
            )
        }

        @Test func sleepStatisticsPerNightThroughTheDaemonAsOneAuditEntry() async throws {
            let daemon = try TestDaemon()
            #expect(try Self.healthvault(["timezone", "UTC"], daemon).status == 0)
            for app in ["org.example.sleeptracker", "org.example.watch"] {
                try await daemon.enroll(app, read: [], share: [sleepAnalysis])
                try await daemon.decide("grant", ["share"], [ObjectType(sleepAnalysis)], for: app)
            }
            let tracker = try await daemon.store("org.example.sleeptracker")
            try await tracker.save([
                try Self.sleep(.inBed, "2026-03-01T22:30:00Z", "2026-03-02T06:45:00Z"),
                try Self.sleep(.asleepCore, "2026-03-01T23:00:00Z", "2026-03-02T02:00:00Z"),
                try Self.sleep(.asleepDeep, "2026-03-02T02:00:00Z", "2026-03-02T03:00:00Z"),
                try Self.sleep(.asleepREM, "2026-03-02T03:00:00Z", "2026-03-02T04:00:00Z"),
                try Self.sleep(.awake, "2026-03-02T04:00:00Z", "2026-03-02T04:10:00Z"),
                try Self.sleep(.asleepCore, "2026-03-02T04:10:00Z", "2026-03-02T06:30:00Z"),
                try Self.sleep(.asleepUnspecified, "2026-03-02T14:00:00Z", "2026-03-02T14:30:00Z"),
            ])
            await tracker.close()
            let watch = try await daemon.store("org.example.watch")
            try await watch.save(try Self.sleep(.asleepCore, "2026-03-01T23:30:00Z", "2026-03-02T01:00:00Z"))
            await watch.close()

            let before = try await daemon.auditEntries().count
            let stats = try Self.healthvault(["stats", "sleep", "--from", "2026-02-25"], daemon)
            #expect(stats.status == 0, "\(stats.err)")
            let lines = stats.out.split(separator: "\n").map(String.init)
            #expect(lines.first == "Sleep per night (noon to noon), UTC", "\(stats.out)")
            let header = try #require(lines.dropFirst().first).split(separator: " ", omittingEmptySubsequences: true)
            #expect(
                header.joined(separator: " ")
                    == "NIGHT OF IN BED ASLEEP ASLEEP UNSPECIFIED AWAKE ASLEEP CORE ASLEEP DEEP ASLEEP REM SOURCES",
                "\(stats.out)"
            )
            let night = try #require(lines.first { $0.hasPrefix("2026-03-01") }, "\(stats.out)")
            let cells = night.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            // in bed, asleep (5:00 + 2:20), unspecified, awake, core (3:00 + 2:20), deep, REM, sources.
            #expect(
                Array(cells.prefix(8)) == ["2026-03-01", "8:15", "7:20", "-", "0:10", "5:20", "1:00", "1:00"],
                "\(night)"
            )
            #expect(night.hasSuffix("org.example.sleeptracker, org.example.watch"), "\(night)")
            let nap = try #require(lines.first { $0.hasPrefix("2026-03-02") }, "\(stats.out)")
            #expect(
                nap.split(separator: " ", omittingEmptySubsequences: true).prefix(3) == ["2026-03-02", "-", "0:30"]
            )
            // One audit entry for the read, naming the type, counting the nights; no value.
            let entries = try await daemon.auditEntries()
            #expect(entries.count == before + 1, "\(entries.suffix(3))")
            let entry = try #require(entries.last)
            #expect(entry.operation == "query.category-statistics" && entry.actor == "owner")
            #expect(entry.types == ["HKCategoryTypeIdentifierSleepAnalysis"] && entry.count == 2)

            // JSON lines: one interval each, durations in seconds.
            let json = try Self.jsonLines(try Self.healthvault(["stats", "sleepAnalysis", "--json"], daemon).out)
            #expect(json.count == 2)
            #expect(json.first?["startDate"] as? String == "2026-03-01T12:00:00.000Z")
            #expect(Self.number(json.first?["asleepDuration"]) == Double(7 * 3600 + 20 * 60))
            #expect(json.first?["count"] as? Int == 7)
            let values = try #require(json.first?["values"] as? [[String: Any]])
            let core = values.first { $0["value"] as? Int == CategoryValueSleepAnalysis.asleepCore.rawValue }
            #expect(Self.number(core?["duration"]) == Double(5 * 3600 + 20 * 60))
            #expect(core?["count"] as? Int == 3)
            // By day instead of by night: the night is cut at midnight.
            let days = try Self.healthvault(["stats", "sleep", "--interval", "day"], daemon)
            #expect(Self.cells(days.out, "2026-03-01").prefix(3) == ["2026-03-01", "1:30", "1:00"], "\(days.out)")
            // Another category type: counts and time per day.
            try await daemon.enroll("org.example.mind", read: [], share: [.category(.mindfulSession)])
            try await daemon.decide("grant", ["share"], [.category(.mindfulSession)], for: "org.example.mind")
            let mind = try await daemon.store("org.example.mind")
            try await mind.save(
                .category(
                    try CategorySample(
                        type: .mindfulSession,
                        value: 0,
                        start: RFC3339.date(from: "2026-03-02T07:00:00Z")!,
                        end: RFC3339.date(from: "2026-03-02T07:15:00Z")!,
                        sourceRevision: SourceRevision(source: Source(bundleIdentifier: "x", name: "x"))
                    )
                )
            )
            await mind.close()
            let mindful = try Self.healthvault(["stats", "mindful_session"], daemon)
            #expect(
                Self.cells(mindful.out, "2026-03-02") == ["2026-03-02", "1", "0:15", "org.example.mind"],
                "\(mindful.out)"
            )
            // An app cannot call the owner's method: it does not exist for it.
            let socket = try await DaemonBadInputTests.authenticated(daemon, "org.example.watch")
            socket.sendFrame(
                #"{"jsonrpc":"2.0","id":7,"method":"samples.categoryStatistics","params":{"query":{"categoryType":"HKCategoryTypeIdentifierSleepAnalysis","anchorDate":"2026-01-01T12:00:00.000Z","intervalComponents":{"day":1}}}}"#
            )
            #expect(await socket.readFrame()?.errorCode == -32601)
        }

        @Test func quantityStatisticsAreOneAuditEntryToo() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.phone", read: [], share: [steps])
            try await daemon.decide("grant", ["share"], [ObjectType(steps)], for: "org.example.phone")
            let phone = try await daemon.store("org.example.phone")
            try await phone.save(try quantity(.stepCount, 300, .count, at: Date().addingTimeInterval(-7200)))
            await phone.close()
            let before = try await daemon.auditEntries().count
            let stats = try Self.healthvault(["stats", "steps", "--from", "-1d", "--json"], daemon)
            #expect(stats.status == 0, "\(stats.err)")
            let intervals = try Self.jsonLines(stats.out)
            #expect(!intervals.isEmpty)
            let entries = try await daemon.auditEntries()
            #expect(entries.count == before + 1)
            #expect(entries.last?.operation == "query.statistics-collection")
        }

        // MARK: dates

        @Test func relativeDatesAndDaysInTheOwnersTimeZone() async throws {
            let daemon = try TestDaemon()
            #expect(try Self.healthvault(["timezone", "Pacific/Auckland"], daemon).status == 0)
            var zone = Calendar(identifier: .gregorian)
            zone.timeZone = TimeZone(identifier: "Pacific/Auckland")!
            let now = Date()
            func added(_ at: String) throws -> Date {
                let run = try Self.healthvault(["samples", "add", "weight", "70", "kg", "--at", at, "--json"], daemon)
                #expect(run.status == 0, "\(at): \(run.err)")
                let sample = try HealthJSON.decode(Sample.self, from: Data(run.out.utf8))
                return sample.startDate
            }
            let today = zone.startOfDay(for: now)
            #expect(try added("today") == today)
            #expect(try added("Yesterday") == zone.startOfDay(for: today.addingTimeInterval(-12 * 3600)))
            let week = zone.date(byAdding: .day, value: -7, to: zone.date(byAdding: .hour, value: 12, to: today)!)!
            #expect(try added("-7d") == zone.startOfDay(for: week))
            #expect(abs(try added("-2h").timeIntervalSince(now.addingTimeInterval(-7200))) < 120)
            // A day and a local time are the owner's; an RFC 3339 instant is itself.
            #expect(
                try added("2026-03-02") == zone.date(from: DateComponents(year: 2026, month: 3, day: 2))!
            )
            #expect(
                try added("2026-03-02T08:30")
                    == zone.date(from: DateComponents(year: 2026, month: 3, day: 2, hour: 8, minute: 30))!
            )
            #expect(try added("2026-03-02T08:30:00Z") == RFC3339.date(from: "2026-03-02T08:30:00Z")!)
            // --from today lists today's only: midnight's, and two hours ago's when that was today.
            let listed = try Self.jsonLines(
                try Self.healthvault(["samples", "list", "weight", "--from", "today", "--json"], daemon).out
            )
            #expect(listed.count == (now.addingTimeInterval(-7200) >= today ? 2 : 1), "\(listed)")
            let since = try Self.jsonLines(
                try Self.healthvault(["samples", "list", "weight", "--from", "-7d", "--to", "now", "--json"], daemon)
                    .out
            )
            #expect(since.count == 4, "\(since)")
            // What is not a date is refused, naming the option.
            for wrong in ["2026-02-30", "lastweek", "-7", "-7x", "2026-03-02T25:00"] {
                let run = try Self.healthvault(["samples", "list", "weight", "--from", wrong], daemon)
                #expect(run.status != 0, "\(wrong)")
                #expect(run.err.contains("--from"), "\(wrong): \(run.err)")
            }
        }

        // MARK: help, version, JSON

        /// Every leaf command, as the argument parser describes the tree (`--experimental-dump-help`).
        static func commands() throws -> [(path: [String], options: [String])] {
            let dump = try Self.healthvault(["--experimental-dump-help"])
            let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])
            var found: [(path: [String], options: [String])] = []
            func walk(_ command: [String: Any], _ path: [String]) {
                let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).filter {
                    $0["commandName"] as? String != "help"
                }
                if subcommands.isEmpty {
                    let options = (command["arguments"] as? [[String: Any]] ?? []).compactMap {
                        ($0["names"] as? [[String: Any]])?.first { $0["kind"] as? String == "long" }?["name"] as? String
                    }
                    found.append((path, options))
                }
                for sub in subcommands {
                    walk(sub, path + [sub["commandName"] as? String ?? ""])
                }
            }
            walk(try #require(root["command"] as? [String: Any]), [])
            return found
        }

        @Test func everySubcommandsHelpHasAnExampleAndEveryDateOptionItsForms() throws {
            let commands = try Self.commands()
            #expect(commands.count >= 45, "\(commands.map(\.path))")
            var dated = 0
            for command in commands {
                let help = try Self.healthvault(command.path + ["--help"])
                #expect(help.status == 0, "\(command.path)")
                let text = help.out.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(
                    separator: " "
                )
                #expect(help.out.contains("Example"), "\(command.path.joined(separator: " ")) has no example")
                #expect(text.contains("healthvault \(command.path.joined(separator: " "))"), "\(command.path)")
                if command.options.contains(where: { ["from", "to", "at"].contains($0) }) {
                    dated += 1
                    for form in ["2026-11-23", "2026-11-23T08:00:00Z", "today", "yesterday", "-7d", "your time zone"] {
                        #expect(text.contains(form), "\(command.path): \(form)")
                    }
                }
                // --json on every command that prints something: every one.
                #expect(command.options.contains("json"), "\(command.path.joined(separator: " ")) has no --json")
            }
            #expect(
                dated == 12,
                "grant (its window), requests review (its terms), grants history (--at) and report among them"
            )
            let daemonHelp = try Self.run(TestDaemon.binary("healthvaultd"), ["--help"])
            #expect(daemonHelp.out.contains("Example"))
        }

        static func run(_ program: String, _ arguments: [String]) throws -> Run {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let output = out.fileHandleForReading.readDataToEndOfFile()
            let errors = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: output, as: UTF8.self),
                String(decoding: errors, as: UTF8.self)
            )
        }

        @Test func bothBinariesSayTheirOneVersion() throws {
            let client = try Self.healthvault(["--version"])
            let daemon = try Self.run(TestDaemon.binary("healthvaultd"), ["--version"])
            #expect(client.status == 0 && daemon.status == 0)
            #expect(client.out == HealthVaultVersion.current + "\n")
            #expect(daemon.out == HealthVaultVersion.current + "\n")
        }

        @Test func statusJSONIsTheVaultNotTheHandshake() async throws {
            let daemon = try TestDaemon()
            let status = try Self.healthvault(["status", "--json", "--vault", daemon.directory.path])
            let object = try #require(try Self.jsonLines(status.out).first)
            #expect(Set(object.keys) == ["directory", "served", "vault", "locked"], "\(object)")
            #expect(object["served"] as? Bool == true && object["locked"] as? Bool == false)
            let detail = try #require(
                try Self.jsonLines(try Self.healthvault(["status", "--detail", "--json"], daemon).out).first
            )
            #expect(detail["apps"] as? Int == 0 && detail["served"] as? Bool == true)
            #expect(detail["nonce"] == nil && detail["protocol"] == nil)
            daemon.stop()
            let stopped = try #require(
                try Self.jsonLines(try Self.healthvault(["status", "--json", "--vault", daemon.directory.path]).out)
                    .first
            )
            #expect(stopped["served"] as? Bool == false && stopped["vault"] == nil)
        }

        @Test func listsPrintJSONLinesAndOneResultOneObject() async throws {
            let daemon = try TestDaemon()
            for app in ["org.example.a", "org.example.b"] {
                try await daemon.enroll(app, read: [ObjectType(steps)], share: [steps])
            }
            #expect(try Self.healthvault(["timezone", "UTC", "--json"], daemon).out == "{\"timeZone\":\"UTC\"}\n")
            let apps = try Self.jsonLines(try Self.healthvault(["apps", "list", "--json"], daemon).out)
            #expect(apps.map { $0["app"] as? String } == ["org.example.a", "org.example.b"])
            let goals = try Self.jsonLines(try Self.healthvault(["goals", "--move", "600", "--json"], daemon).out)
            #expect(goals.count == 1 && Self.number(goals.first?["activeEnergyBurned"]) == Double(600))
            #expect(try Self.healthvault(["activity", "--from", "-3d", "--json"], daemon).out == "")
            let priority = try Self.healthvault(["priority", "set", "steps", "org.example.b", "--json"], daemon)
            #expect(try Self.jsonLines(priority.out).first?["sources"] as? [String] == ["org.example.b"])
            let orders = try Self.jsonLines(try Self.healthvault(["priority", "--json"], daemon).out)
            #expect(orders.count == 1 && orders.first?["type"] as? String == "HKQuantityTypeIdentifierStepCount")
            let locked = try Self.jsonLines(try Self.healthvault(["lock", "--json"], daemon).out)
            #expect(locked.first?["locked"] as? Bool == true)
            #expect(
                try Self.jsonLines(try Self.healthvault(["unlock", "--json"], daemon).out).first?["locked"] as? Bool
                    == false
            )
        }

        // MARK: manual pages and completions

        @Test func makeInstallDocsWritesManualPagesAndCompletionsThatNameTheSubcommands() throws {
            let prefix = try #require(mkdtemp(strdup("/tmp/hvdocs.XXXXXX")).map { String(cString: $0) })
            defer { try? FileManager.default.removeItem(atPath: prefix) }
            let make = try Self.run(
                "/usr/bin/make",
                ["-C", Self.checkout.path, "install-docs", "PREFIX=\(prefix)", "BIN=\(TestDaemon.binDirectory.path)"]
            )
            #expect(make.status == 0, "\(make.out)\n\(make.err)")
            let man1 = prefix + "/share/man/man1"
            let pages = try FileManager.default.contentsOfDirectory(atPath: man1)
            for page in [
                "healthvault.1", "healthvault.stats.1", "healthvault.samples.add.1", "healthvault.types.1",
                "healthvaultd.1",
            ] {
                #expect(pages.contains(page), "\(page) in \(pages)")
            }
            let main = try String(contentsOfFile: man1 + "/healthvault.1", encoding: .utf8)
            for subcommand in ["types", "stats", "profile", "samples", "audit", "backup"] {
                #expect(main.contains(subcommand), "healthvault.1 does not mention \(subcommand)")
            }
            let stats = try String(contentsOfFile: man1 + "/healthvault.stats.1", encoding: .utf8)
            #expect(stats.contains("yesterday") && stats.contains("Examples"))
            for (file, words) in [
                ("/share/bash-completion/completions/healthvault", ["types", "stats", "profile"]),
                ("/share/zsh/site-functions/_healthvault", ["types", "stats", "profile"]),
                ("/share/fish/vendor_completions.d/healthvault.fish", ["types", "stats", "profile"]),
                ("/share/bash-completion/completions/healthvaultd", ["--vault", "--passphrase-file"]),
            ] {
                let text = try String(contentsOfFile: prefix + file, encoding: .utf8)
                for word in words { #expect(text.contains(word), "\(file) does not mention \(word)") }
            }
        }
    }
}
