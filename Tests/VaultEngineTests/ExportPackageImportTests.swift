import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore
import ZIPFoundation

/// An export as the phone gives it: `export.zip` (its XML named in the phone's language), the
/// unzipped folder, or the XML alone; with a workout's route in a GPX file, a heart rate
/// variability reading's beat-to-beat list, the activity summaries' goals, and files HealthVault
/// does not read, which are counted by kind.
@Suite struct ExportPackageImportTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="zh_CN">
         <ExportDate value="2026-03-05 10:00:00 +0800"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="李的 Apple Watch" unit="count" startDate="2026-03-02 08:00:00 +0800" endDate="2026-03-02 08:05:00 +0800" value="420"/>
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="李的 Apple Watch" unit="ms" startDate="2026-03-02 23:59:58 +0800" endDate="2026-03-03 00:00:03 +0800" value="48.2">
          <HeartRateVariabilityMetadataList>
           <InstantaneousBeatsPerMinute bpm="60" time="11:59:58.50 PM"/>
           <InstantaneousBeatsPerMinute bpm="60" time="11:59:59.50 PM"/>
           <InstantaneousBeatsPerMinute bpm="61" time="12:00:00.48 AM"/>
           <InstantaneousBeatsPerMinute bpm="60" time="12:00:02.50 AM"/>
          </HeartRateVariabilityMetadataList>
         </Record>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="10" durationUnit="min" sourceName="李的 Apple Watch" startDate="2026-03-04 18:00:00 +0800" endDate="2026-03-04 18:10:00 +0800">
          <WorkoutRoute sourceName="李的 Apple Watch" startDate="2026-03-04 18:00:00 +0800" endDate="2026-03-04 18:10:00 +0800">
           <FileReference path="/workout-routes/route_2026-03-04_6.00pm.gpx"/>
          </WorkoutRoute>
         </Workout>
         <ActivitySummary dateComponents="2026-03-01" activeEnergyBurned="300" activeEnergyBurnedGoal="0" activeEnergyBurnedUnit="kcal" appleExerciseTime="0" appleExerciseTimeGoal="0" appleStandHours="0" appleStandHoursGoal="0"/>
         <ActivitySummary dateComponents="2026-03-02" activeEnergyBurned="400" activeEnergyBurnedGoal="620" activeEnergyBurnedUnit="kcal" appleExerciseTime="30" appleExerciseTimeGoal="40" appleStandHours="10" appleStandHoursGoal="10"/>
         <ActivitySummary dateComponents="2026-03-03" activeEnergyBurned="400" activeEnergyBurnedGoal="620" activeEnergyBurnedUnit="kcal" appleExerciseTime="30" appleExerciseTimeGoal="40" appleStandHours="10" appleStandHoursGoal="10"/>
        </HealthData>

        """

    /// Apple's GPX form: three points (one without a time, which is left out).
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
         <metadata><time>2026-03-04T10:00:00Z</time></metadata>
         <trk><name>Route 2026-03-04 6:00pm</name><trkseg>
          <trkpt lon="116.397128" lat="39.916527"><ele>44.1</ele><time>2026-03-04T10:00:01Z</time><extensions><speed>2.8</speed><course>90.5</course><hAcc>4.2</hAcc><vAcc>3.1</vAcc></extensions></trkpt>
          <trkpt lon="116.397528" lat="39.916627"><ele>44.3</ele><time>2026-03-04T10:00:02Z</time><extensions><speed>2.9</speed><course>91.0</course><hAcc>4.0</hAcc><vAcc>3.0</vAcc></extensions></trkpt>
          <trkpt lon="116.397928" lat="39.916727"><ele>44.5</ele><extensions><speed>2.9</speed></extensions></trkpt>
         </trkseg></trk>
        </gpx>

        """

    static let files: [(String, String)] = [
        ("apple_health_export/导出.xml", xml),
        ("apple_health_export/export_cda.xml", "<ClinicalDocument/>"),
        ("apple_health_export/workout-routes/route_2026-03-04_6.00pm.gpx", gpx),
        ("apple_health_export/electrocardiograms/ecg_2026-03-01.csv", "Name,Li\n"),
        ("apple_health_export/electrocardiograms/ecg_2026-03-02.csv", "Name,Li\n"),
    ]

    static func zip(_ files: [(String, String)]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hv-export-\(UUID().uuidString).zip")
        let archive = try Archive(url: url, accessMode: .create)
        for (path, text) in files {
            let data = Data(text.utf8)
            try archive.addEntry(
                with: path,
                type: .file,
                uncompressedSize: Int64(data.count),
                compressionMethod: .deflate
            ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
        }
        return url
    }

    static func folder(_ files: [(String, String)]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hv-export-\(UUID().uuidString)")
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: file)
        }
        return root.appendingPathComponent("apple_health_export")
    }

    @Test(arguments: ["zip", "folder"])
    func anExportPackageComesInWithRoutesBeatsAndGoals(form: String) async throws {
        let test = try TestEngine()
        let engine = test.engine
        let url = form == "zip" ? try Self.zip(Self.files) : try Self.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: url) }

        let summary = try await engine.importAppleHealth(at: url)
        #expect(summary.xml?.hasSuffix("导出.xml") == true)
        #expect(summary.byType["HKQuantityTypeIdentifierStepCount"]?.imported == 1)
        #expect(summary.byType["HKWorkoutTypeIdentifier"]?.imported == 1)
        #expect(summary.byType["HKWorkoutRouteTypeIdentifier"]?.imported == 1)
        #expect(summary.byType["HKDataTypeIdentifierHeartbeatSeries"]?.imported == 1)
        #expect(summary.routeLocationsSkipped == 1)
        #expect(summary.unsupported["electrocardiograms (CSV)"] == 2)
        #expect(summary.unsupported["export_cda.xml (clinical document)"] == 1)

        // The route is the workout's, with its locations in time order.
        let workouts = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.workout)]),
            as: .owner
        )
        let workout = try #require(workouts.first)
        let routes = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [
                SampleTypePredicate(.workoutRoute, predicate: .workout(workout.uuid))
            ]),
            as: .owner
        )
        let route = try #require(routes.first)
        #expect(route.sourceRevision.source.name == "李的 Apple Watch")
        let locations = try await engine.routeLocations(route.uuid, as: .owner).locations
        #expect(locations.map(\.latitude) == [39.916527, 39.916627])
        #expect(locations.first?.horizontalAccuracy == 4.2 && locations.first?.course == 90.5)
        #expect(locations.first?.timestamp == Date(timeIntervalSince1970: 1_772_618_401))

        // The beat-to-beat list: four beats across midnight, the last after a missed beat.
        let series = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.heartbeatSeries)]),
            as: .owner
        )
        let seriesUUID = try #require(series.first?.uuid)
        let beats = try #require(try await engine.heartbeats(of: seriesUUID, as: .owner)?.points)
        let times = beats.map(\.timeSinceSeriesStart)
        #expect(Swift.zip(times, [0.5, 1.5, 2.48, 4.5]).allSatisfy { abs($0 - $1) < 0.001 }, "\(times)")
        #expect(beats.map(\.precededByGap) == [false, false, false, true])

        // The goals of 2 March on (1 March's zero goals are no goals): the owner's now.
        #expect(summary.goalChanges == 1)
        #expect(
            try await engine.activityGoals()
                == ActivityGoals(activeEnergyBurned: 620, exerciseMinutes: 40, standHours: 10)
        )

        // Again: nothing new, route and series included.
        let again = try await engine.importAppleHealth(at: url)
        #expect(again.byType.values.allSatisfy { $0.imported == 0 })
        #expect(again.byType["HKWorkoutRouteTypeIdentifier"]?.alreadyPresent == 1)
        #expect(again.goalChanges == 0)
    }

    @Test func theOwnersOwnGoalsWinOverAnImportsGoals() async throws {
        let test = try TestEngine()
        let mine = ActivityGoals(activeEnergyBurned: 450, exerciseMinutes: 25, standHours: 11)
        try await test.engine.setActivityGoals(mine)
        let url = try Self.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        _ = try await test.engine.importAppleHealth(at: url)
        #expect(try await test.engine.activityGoals() == mine)
    }

    @Test func aDamagedOrCutZipIsRefusedAndNothingIsStored() async throws {
        let test = try TestEngine()
        let url = try Self.zip(Self.files)
        defer { try? FileManager.default.removeItem(at: url) }
        var bytes = [UInt8](try Data(contentsOf: url))

        // Cut short: no table of contents at the end.
        let cut = url.deletingPathExtension().appendingPathExtension("cut.zip")
        defer { try? FileManager.default.removeItem(at: cut) }
        try Data(bytes[0..<(bytes.count * 2 / 3)]).write(to: cut)
        let cutError = await #expect(throws: AppleHealthReadError.self) {
            _ = try await test.engine.importAppleHealth(at: cut)
        }
        #expect(cutError?.message.contains("cut short") == true)

        // A flipped byte inside the compressed XML: its checksum no longer matches.
        let damaged = url.deletingPathExtension().appendingPathExtension("damaged.zip")
        defer { try? FileManager.default.removeItem(at: damaged) }
        let name = Array("导出.xml".utf8)
        let at = try #require(bytes.indices.first { bytes[$0..<min($0 + name.count, bytes.count)].elementsEqual(name) })
        bytes[at + name.count + 40] ^= 0x55
        try Data(bytes).write(to: damaged)
        for acceptTruncated in [false, true] {
            let damage = await #expect(throws: AppleHealthReadError.self) {
                _ = try await test.engine.importAppleHealth(at: damaged, acceptTruncated: acceptTruncated)
            }
            #expect(
                damage?.code == .unreadable && damage?.message.contains("damaged") == true,
                "\(String(describing: damage))"
            )
        }
        #expect(try await test.engine.typeSummaries().isEmpty)
    }
}
