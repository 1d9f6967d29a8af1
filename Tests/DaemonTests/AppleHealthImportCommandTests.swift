import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import ProcessTestSupport
import Testing
import VaultClient
import VaultProtocol
import ZIPFoundation

extension DaemonEndToEnd {
    /// `healthvault import apple-health`, the real binary against a real daemon, on an export
    /// written here in Apple's form: sources kept, a blood pressure's members stored once, a
    /// re-import adding nothing, a cut file refused unless the owner accepts the part before it.
    @Suite struct AppleHealthImportCommandTests {
        static let export = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            <!ATTLIST HealthData locale CDATA #REQUIRED>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2026-03-05 10:00:00 +0100"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1984-02-29" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ana’s Apple Watch" sourceVersion="9.1" device="&lt;&lt;HKDevice: 0x283e8c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:9.1&gt;" unit="count" creationDate="2026-03-02 08:10:00 +0100" startDate="2026-03-02 08:00:00 +0100" endDate="2026-03-02 08:05:00 +0100" value="420"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ana’s iPhone" sourceVersion="16.2" unit="count" creationDate="2026-03-02 08:10:00 +0100" startDate="2026-03-02 08:00:00 +0100" endDate="2026-03-02 08:06:00 +0100" value="380"/>
             <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Omron" unit="mmHg" creationDate="2026-03-03 07:00:05 +0100" startDate="2026-03-03 07:00:00 +0100" endDate="2026-03-03 07:00:00 +0100" value="121"/>
             <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Omron" unit="mmHg" creationDate="2026-03-03 07:00:05 +0100" startDate="2026-03-03 07:00:00 +0100" endDate="2026-03-03 07:00:00 +0100" value="79"/>
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" creationDate="2026-03-03 07:00:05 +0100" startDate="2026-03-03 07:00:00 +0100" endDate="2026-03-03 07:00:00 +0100">
              <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Omron" unit="mmHg" creationDate="2026-03-03 07:00:05 +0100" startDate="2026-03-03 07:00:00 +0100" endDate="2026-03-03 07:00:00 +0100" value="121"/>
              <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Omron" unit="mmHg" creationDate="2026-03-03 07:00:05 +0100" startDate="2026-03-03 07:00:00 +0100" endDate="2026-03-03 07:00:00 +0100" value="79"/>
             </Correlation>
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="5" totalDistanceUnit="km" totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceName="Ana’s Apple Watch" sourceVersion="9.1" creationDate="2026-03-04 18:31:00 +0100" startDate="2026-03-04 18:00:00 +0100" endDate="2026-03-04 18:30:00 +0100"/>
             <ActivitySummary dateComponents="2026-03-02" activeEnergyBurned="400" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleExerciseTime="30" appleExerciseTimeGoal="30" appleStandHours="10" appleStandHoursGoal="12"/>
             <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" sourceName="Clinic" sourceVersion="1" identifier="x" fhirVersion="4.0.1" receivedDate="2026-03-01 10:00:00 +0100" resourceFilePath="/clinical-records/x.json"/>
            </HealthData>

            """

        static func write(_ text: String, in directory: URL, name: String = "export.xml") throws -> URL {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            return file
        }

        static func summary(_ output: String) throws -> AppleHealthImportSummary {
            try JSONDecoder().decode(AppleHealthImportSummary.self, from: Data(output.utf8))
        }

        @Test func anExportComesInWithItsSourcesOnceAndAgainAddsNothing() async throws {
            let daemon = try TestDaemon()
            let folder = daemon.directory.deletingLastPathComponent().appendingPathComponent("apple_health_export")
            _ = try Self.write(Self.export, in: folder, name: "导出.xml")
            let first = try CLITests.healthvault(["import", "apple-health", folder.path], daemon: daemon)
            #expect(first.status == 0, "\(first)")
            #expect(first.out.hasPrefix("Imported 6 of 导出.xml"), "\(first.out)")
            #expect(first.out.contains("1  ClinicalRecord HKClinicalTypeIdentifierLabResultRecord"), "\(first.out)")
            // Again: nothing new; the summary says why, per type.
            let again = try CLITests.healthvault(["import", "apple-health", folder.path, "--json"], daemon: daemon)
            let summary = try Self.summary(again.out)
            #expect(summary.total.imported == 0 && summary.total.alreadyPresent == 6, "\(again.out)")
            #expect(summary.byType["HKQuantityTypeIdentifierStepCount"]?.alreadyPresent == 2)
            #expect(summary.byType["HKCorrelationTypeIdentifierBloodPressure"]?.alreadyPresent == 1)
            #expect(summary.byType["HKQuantityTypeIdentifierBloodPressureSystolic"]?.alreadyPresent == 1)
            #expect(summary.bySource["Ana’s Apple Watch"]?.alreadyPresent == 2)
            // The characteristics were set by the first import; the second leaves them be.
            #expect(summary.characteristics == 0 && summary.activitySummaries == 1)

            // The owner's view: the watch and the phone are two sources; a blood pressure's members
            // are stored once, as its members.
            let data = try CLITests.healthvault(["data"], daemon: daemon)
            let steps = try #require(data.out.split(separator: "\n").first { $0.hasPrefix("stepCount") })
            #expect(steps.contains("Ana’s Apple Watch (1)") && steps.contains("Ana’s iPhone (1)"), "\(data.out)")
            let systolic = try #require(data.out.split(separator: "\n").first { $0.hasPrefix("bloodPressureSystolic") })
            #expect(systolic.contains(" 1 "), "\(data.out)")
            // Each import of this size is one batch: one audited owner action.
            let imports = try await daemon.auditEntries(operation: "vault.import")
            #expect(imports.count == 2)
            // The audit log verifies offline after the imports.
            let root = daemon.directory.deletingLastPathComponent().path
            #expect(try CLITests.healthvault(["audit", "export", root + "/audit"], daemon: daemon).status == 0)
            let key = daemon.directory.appendingPathComponent("audit-key.pub").path
            let verified = try CLITests.healthvault(["audit", "verify", root + "/audit", "--key", key])
            #expect(verified.status == 0 && verified.out.hasPrefix("verified:"), "\(verified)")
        }

        @Test func anAppReadsImportedStepsUnderItsGrantAndWithoutOneAsAnEmptyVault() async throws {
            let steps = SampleType.quantity(.stepCount)
            func setUp(importing: Bool) async throws -> TestDaemon {
                let daemon = try TestDaemon()
                for app in ["org.example.reader", "org.example.denied"] {
                    try await daemon.enroll(app, read: [ObjectType(steps)], share: [])
                }
                try await daemon.decide("grant", ["read"], [ObjectType(steps)], for: "org.example.reader")
                if importing {
                    let file = try Self.write(
                        Self.export,
                        in: daemon.directory.deletingLastPathComponent().appendingPathComponent("in")
                    )
                    #expect(
                        try CLITests.healthvault(["import", "apple-health", file.path], daemon: daemon).status == 0
                    )
                }
                return daemon
            }
            let query = SampleQueryParams(query: SampleQueryDescriptor(predicates: [.quantitySample(type: .stepCount)]))
            func answer(_ daemon: TestDaemon, _ app: String) async throws -> Data {
                let connection = try await daemon.connection(app)
                defer { connection.close() }
                let frame = try await connection.rawCall(Method.querySamples, query)
                let object = try #require(try JSONSerialization.jsonObject(with: frame) as? [String: Any])
                return try JSONSerialization.data(withJSONObject: try #require(object["result"]), options: .sortedKeys)
            }
            let imported = try await setUp(importing: true)
            let empty = try await setUp(importing: false)
            // Granted: the watch's and the phone's steps, under their own names.
            let read = try HealthJSON.decode(
                [String: [Sample]].self,
                from: try await answer(imported, "org.example.reader")
            )
            #expect(
                Set(read["samples"]?.map(\.sourceRevision.source.name) ?? []) == ["Ana’s Apple Watch", "Ana’s iPhone"]
            )
            // Denied: the very bytes an empty vault answers.
            #expect(try await answer(imported, "org.example.denied") == answer(empty, "org.example.denied"))
        }

        @Test func aCutFileIsRefusedUnlessTheOwnerKeepsWhatPrecedesTheCut() async throws {
            let daemon = try TestDaemon()
            let text = Self.export
            let cut = String(text[..<text.range(of: "<Workout ")!.upperBound]) + "workoutActivityType=\"HKWork"
            let file = try Self.write(
                cut,
                in: daemon.directory.deletingLastPathComponent().appendingPathComponent("cut")
            )
            let refused = try CLITests.healthvault(["import", "apple-health", file.path], daemon: daemon)
            #expect(refused.status != 0)
            #expect(refused.err.contains("cut") || refused.err.contains("truncated"), "\(refused)")
            #expect(try CLITests.healthvault(["data"], daemon: daemon).out == "The vault holds no samples.\n")
            let kept = try CLITests.healthvault(
                ["import", "apple-health", file.path, "--accept-truncated", "--json"],
                daemon: daemon
            )
            #expect(kept.status == 0, "\(kept)")
            let summary = try Self.summary(kept.out)
            #expect(summary.total.imported == 5)
            #expect(summary.truncated?.completeItems != nil)
        }

        /// Ctrl-C at the command, then a crash of the daemon (SIGKILL), each part-way through an
        /// import: whole batches only, the audit log verifies, and a rerun finishes the job.
        @Test func ctrlCOrACrashMidImportKeepsWholeBatchesAndARerunFinishesTheJob() async throws {
            let daemon = try TestDaemon()
            let days = 120  // 86,400 heart rates, 120 blood pressures, runs and routes: 9 batches
            let folder = try ExportFolderFixture.write(days: days)
            defer { try? FileManager.default.removeItem(at: folder) }
            func startImport() throws -> ChildProcess {
                let process = ChildProcess()
                process.executableURL = URL(fileURLWithPath: TestDaemon.binary("healthvault"))
                process.arguments = [
                    "import", "apple-health", folder.path, "--json", "--vault", daemon.directory.path,
                    "--passphrase-file", daemon.passphraseFile,
                ]
                process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
                process.standardError = FileHandle(forWritingAtPath: "/dev/null")
                try process.run()
                return process
            }
            /// The batches stored so far, asked on one owner connection (one unlock).
            func batchesStored(_ connection: VaultConnection) async throws -> Int {
                try await connection.call(
                    Method.auditEntries,
                    AuditEntriesParams(operation: "vault.import", limit: 10_000),
                    as: AuditEntriesResult.self
                ).entries.count
            }
            func waitFor(_ connection: VaultConnection, moreThan count: Int) async throws -> Int {
                for _ in 0..<3_000 {
                    let now = try await batchesStored(connection)
                    if now > count { return now }
                    try await Task.sleep(for: .milliseconds(10))
                }
                throw DaemonTestError("no batch was stored")
            }

            // Ctrl-C once a batch is stored: the daemon stops after the batch under way.
            var owner = try await daemon.owner()
            let interrupted = try startImport()
            _ = try await waitFor(owner, moreThan: 0)
            kill(interrupted.processIdentifier, SIGINT)
            interrupted.waitUntilExit()
            #expect(interrupted.terminationReason == .uncaughtSignal)
            var stopped = try await batchesStored(owner)
            for _ in 0..<50 {
                try await Task.sleep(for: .milliseconds(100))
                let now = try await batchesStored(owner)
                if now == stopped { break }
                stopped = now
            }
            #expect(stopped < 9, "the import went on after Ctrl-C: \(stopped) batches")
            owner.close()

            // A crash of the daemon while a rerun stores its batches.
            owner = try await daemon.owner()
            let crashed = try startImport()
            _ = try await waitFor(owner, moreThan: stopped)
            owner.close()
            #expect(daemon.stop(signal: SIGKILL) == SIGKILL)
            crashed.waitUntilExit()
            #expect(crashed.terminationStatus != 0)

            // Restarted: the rerun adds what is missing, once.
            try daemon.start()
            let rerun = try CLITests.healthvault(["import", "apple-health", folder.path, "--json"], daemon: daemon)
            #expect(rerun.status == 0, "\(rerun)")
            let summary = try Self.summary(rerun.out)
            #expect(summary.total.alreadyPresent > 0 && summary.total.imported > 0)
            let counts = try await daemon.ownerCall(Method.samplesSummary, Empty(), as: SamplesSummaryResult.self)
                .types.reduce(into: [SampleType: Int]()) { $0[$1.type] = $1.count }
            #expect(counts[.quantity(.heartRate)] == days * 720)
            #expect(counts[.correlation(.bloodPressure)] == days)
            #expect(counts[.quantity(.bloodPressureSystolic)] == days)
            #expect(counts[.workout] == days && counts[.workoutRoute] == days)
            // The log holds every batch that committed, and verifies.
            let root = daemon.directory.deletingLastPathComponent().path
            #expect(try CLITests.healthvault(["audit", "export", root + "/audit"], daemon: daemon).status == 0)
            let key = daemon.directory.appendingPathComponent("audit-key.pub").path
            let verified = try CLITests.healthvault(["audit", "verify", root + "/audit", "--key", key])
            #expect(verified.status == 0, "\(verified)")
        }

        /// The phone's export.zip itself, read by the daemon without unpacking it: the XML inside
        /// under its localized name, the workouts' routes from their GPX files, and the files
        /// HealthVault does not read named in the report.
        @Test func anExportZipComesInWithItsRoutes() async throws {
            let daemon = try TestDaemon()
            let folder = try ExportFolderFixture.write(days: 2)
            defer { try? FileManager.default.removeItem(at: folder) }
            let zip = daemon.directory.deletingLastPathComponent().appendingPathComponent("export.zip")
            let archive = try Archive(url: zip, accessMode: .create)
            let files = [
                ("apple_health_export/导出.xml", folder.appendingPathComponent("export.xml")),
                (
                    "apple_health_export/workout-routes/route_0.gpx",
                    folder.appendingPathComponent("workout-routes/route_0.gpx")
                ),
                (
                    "apple_health_export/workout-routes/route_1.gpx",
                    folder.appendingPathComponent("workout-routes/route_1.gpx")
                ),
            ]
            for (path, file) in files {
                let data = try Data(contentsOf: file)
                try archive.addEntry(
                    with: path,
                    type: .file,
                    uncompressedSize: Int64(data.count),
                    compressionMethod: .deflate
                ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
            }
            let ecg = Data("Name,Ana\n".utf8)
            try archive.addEntry(
                with: "apple_health_export/electrocardiograms/ecg_2026-01-01.csv",
                type: .file,
                uncompressedSize: Int64(ecg.count)
            ) { position, size in ecg.subdata(in: Int(position)..<Int(position) + size) }

            let imported = try CLITests.healthvault(["import", "apple-health", zip.path], daemon: daemon)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.out.hasPrefix("Imported 1450 of apple_health_export/导出.xml"), "\(imported.out)")
            #expect(imported.out.contains("1  electrocardiograms (CSV)"), "\(imported.out)")
            let counts = try await daemon.ownerCall(Method.samplesSummary, Empty(), as: SamplesSummaryResult.self)
                .types.reduce(into: [SampleType: Int]()) { $0[$1.type] = $1.count }
            #expect(counts[.workout] == 2 && counts[.workoutRoute] == 2 && counts[.correlation(.bloodPressure)] == 2)
            let again = try CLITests.healthvault(["import", "apple-health", zip.path, "--json"], daemon: daemon)
            #expect(try Self.summary(again.out).total.imported == 0)
        }
    }
}
