import AuditLog
import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultEngine
import VaultStore

/// The lossless JSON export (docs/EXPORT_JSON.md): a vault filled with random data of every kind
/// the store keeps, exported, imported into a fresh vault and exported again, gives the same
/// records.
@Suite struct JSONExportRoundTripTests {
    static let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Every kind of sample, with the series MODEL_JSON keeps outside a sample: quantity series,
    /// a route of 25,000 locations (three lines of route-locations.jsonl), electrocardiograms and
    /// heartbeat series among the random ones, vision prescriptions and CDA documents (their bytes
    /// as given), and a sample associated with a workout.
    static func fill(_ test: TestEngine, seed: (UInt64, UInt64, UInt64, UInt64)) async throws -> Int {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: seed)
        var samples = (0..<400).map { _ in RandomModel.sample(&rng) }
        samples += (0..<40).map { _ in RandomModel.sampleOfAnotherKind(&rng) }
        samples += (0..<20).map { _ in RandomModel.perObjectSample(&rng) }
        let source = SourceRevision(source: Source(bundleIdentifier: "org.example.watch", name: "Watch"), version: "2")
        for (type, unit) in [(QuantityTypeIdentifier.heartRate, HealthUnit.countPerMinute), (.stepCount, .count)] {
            let quantities = (0..<2_100).map { index in
                QuantitySample.SeriesQuantity(
                    quantity: Quantity(Double(60 + index % 50) + 0.1, unit),
                    at: t0.addingTimeInterval(Double(index) * 1.5)
                )
            }
            samples.append(
                .quantity(
                    try QuantitySample(
                        type: type,
                        series: quantities,
                        unit: unit,
                        start: t0,
                        end: t0.addingTimeInterval(4_000),
                        sourceRevision: source
                    )
                )
            )
        }
        let heartRate = Statistics(
            quantityType: .heartRate,
            startDate: t0,
            endDate: t0.addingTimeInterval(20_000),
            values: StatisticsValues(
                average: Quantity(141.25, .countPerMinute),
                minimum: Quantity(98, .countPerMinute),
                maximum: Quantity(171, .countPerMinute)
            ),
            sources: [source.source]
        )
        let activities = [
            try WorkoutActivity(
                configuration: try WorkoutConfiguration(activityType: .running),
                start: t0,
                end: t0.addingTimeInterval(20_000),
                metadata: [.indoorWorkout: .number(0)],
                statistics: [heartRate]
            ),
            try WorkoutActivity(
                configuration: try WorkoutConfiguration(activityType: .cycling),
                start: t0.addingTimeInterval(20_000),
                end: t0.addingTimeInterval(30_000)
            ),
        ]
        let workout = try Workout(
            activityType: .running,
            start: t0,
            end: t0.addingTimeInterval(30_000),
            totalEnergyBurned: Quantity(2_100.5, .kilocalorie),
            activities: activities,
            statistics: [heartRate],
            sourceRevision: source,
            metadata: [.indoorWorkout: .number(0)]
        )
        let collected = try QuantitySample(
            type: .heartRate,
            quantity: Quantity(150, .countPerMinute),
            start: t0.addingTimeInterval(60),
            end: t0.addingTimeInterval(60),
            sourceRevision: source
        )
        samples += [.workout(workout), .quantity(collected)]
        let locations = try (0..<25_000).map { index -> WorkoutRouteLocation in
            let step = Double(index)
            let latitude: Double = 48.137154 + step * 0.000025
            let longitude: Double = 11.576124 + Double(index % 7) * 1e-7
            let altitude: Double = 519.3 + Double(index % 13) / 3
            return try WorkoutRouteLocation(
                timestamp: t0.addingTimeInterval(step),
                latitude: latitude,
                longitude: longitude,
                altitude: altitude,
                horizontalAccuracy: 4.7,
                verticalAccuracy: index % 5 == 0 ? -1 : 3.1,
                speed: 2.8,
                course: Double(index % 360),
                speedAccuracy: 0.4,
                courseAccuracy: index % 2 == 0 ? -1 : 5
            )
        }
        let route = try WorkoutRoute(
            start: locations.first!.timestamp,
            end: locations.last!.timestamp,
            count: locations.count,
            sourceRevision: source
        )
        let store = SampleStore(database: try test.vault.db())
        try store.database.write { db in
            let before = try store.changeSequence(in: db)
            try store.save(samples, in: db)
            _ = try store.importSamples(
                [],
                routes: [ImportedRoute(route: route, locations: locations, workout: workout.uuid)],
                in: db
            )
            try store.associate(
                [(collected.uuid, .quantity(.heartRate))],
                ofSource: "org.example.watch",
                withWorkout: workout.uuid,
                storedAfter: before,
                in: db
            )
        }
        try await test.engine.setCharacteristic(.bloodType(.oPositive))
        try await test.engine.setCharacteristic(.biologicalSex(.female))
        try await test.engine.setTimeZone("Europe/Paris")
        try await test.engine.setPreferredUnit(.pound, for: .bodyMass)
        try await test.engine.setSourcePriority(["org.example.app1", "org.example.app0"], for: .stepCount)
        try await test.engine.setActivityGoals(
            ActivityGoals(activeEnergyBurned: 640, exerciseMinutes: 45, standHours: 10)
        )
        return samples.count + 1
    }

    static func export(
        _ engine: VaultEngine,
        _ filter: ExportFilter = ExportFilter()
    ) async throws -> (URL, ExportManifest) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hv-export-\(UUID().uuidString)")
        let writer = try JSONExportWriter(directory: try ExportDirectory(url, overwrite: false))
        return (url, try await engine.export(filter, to: writer))
    }

    static func lines(_ url: URL, _ file: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent(file).path) else { return [] }
        return try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    @Test func anExportImportedIntoAFreshVaultExportsTheSameRecords() async throws {
        let first = try TestEngine()
        let stored = try await Self.fill(first, seed: (21, 4, 11, 30))
        let (one, manifest) = try await Self.export(first.engine)
        defer { try? FileManager.default.removeItem(at: one) }
        #expect(manifest.sampleCount == stored)
        #expect(manifest.routeLocations == 25_000)
        #expect(manifest.characteristics == 2)
        #expect(manifest.settings)

        let second = try TestEngine()
        let summary = try await second.engine.importJSONExport(at: one, batchSize: 100)
        #expect(summary.total.imported == stored)
        #expect(summary.characteristics == 2)
        #expect(summary.settings == 4)
        #expect(try second.sampleCount() == stored)

        let (two, again) = try await Self.export(second.engine)
        defer { try? FileManager.default.removeItem(at: two) }
        #expect(again.samples == manifest.samples)
        #expect(again.routeLocations == manifest.routeLocations)
        // Compared as sets of lines: the rows of a route come after its batch's samples on import.
        for file in [JSONExportWriter.samplesFile, JSONExportWriter.routeLocationsFile] {
            let (a, b) = (try Self.lines(one, file), try Self.lines(two, file))
            #expect(a.count == b.count, "\(file)")
            #expect(Set(a) == Set(b), "\(file)")
        }
        for file in [JSONExportWriter.characteristicsFile, JSONExportWriter.settingsFile] {
            #expect(try Self.lines(one, file) == Self.lines(two, file), "\(file)")
        }
        let written = try Self.lines(one, JSONExportWriter.samplesFile)
        #expect(written.count == stored)
        // Every kind, and the series MODEL_JSON keeps outside a sample, made it into the lines.
        for member in [
            "\"voltageMeasurements\":[", "\"heartbeats\":[", "\"quantities\":[", "\"workouts\":[", "\"objects\":[",
            "\"sensitivityPoints\":", "\"valence\":", "\"answers\":", "\"workoutEvents\":", "\"workoutActivities\":",
            "\"allStatistics\":",
        ] {
            #expect(written.contains { $0.contains(member) }, "\(member)")
        }
        // Audited before the data left: the types exported and how many objects, never a value.
        let entry = try #require(first.auditEntries().last { $0.operation == .export })
        #expect(entry.objectCount == UInt64(stored + 2))
        #expect(entry.types.contains("HKWorkoutRouteTypeIdentifier"))
        #expect(entry.types.contains("HKCharacteristicTypeIdentifierBloodType"))

        // A re-import adds nothing.
        let repeated = try await second.engine.importJSONExport(at: one)
        #expect(repeated.total.imported == 0)
        #expect(repeated.total.alreadyPresent == stored)
        #expect(repeated.characteristics == 0 && repeated.settings == 0)
    }

    @Test func filtersTakeTypesDatesAndSourcesInSQL() async throws {
        let test = try TestEngine()
        _ = try await Self.fill(test, seed: (5, 6, 7, 8))
        let from = Date(timeIntervalSinceReferenceDate: 0)
        let to = Date(timeIntervalSinceReferenceDate: 900_000_000)
        let filter = ExportFilter(
            types: [.quantity(.heartRate), .workout, .workoutRoute],
            from: from,
            to: to,
            sources: ["org.example.watch"]
        )
        let (url, manifest) = try await Self.export(test.engine, filter)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(
            manifest.samples == [
                "HKQuantityTypeIdentifierHeartRate": 2, "HKWorkoutTypeIdentifier": 1, "HKWorkoutRouteTypeIdentifier": 1,
            ]
        )
        #expect(!manifest.settings && manifest.characteristics == 0)
        let samples = try Self.lines(url, JSONExportWriter.samplesFile).map {
            try HealthJSON.decode(Sample.self, from: Data($0.utf8))
        }
        #expect(samples.count == 4)
        #expect(samples.allSatisfy { $0.sourceRevision.source.bundleIdentifier == "org.example.watch" })
        #expect(samples.allSatisfy { $0.startDate >= from && $0.startDate < to })
    }

    @Test func aBrokenLineIsNamedByFileAndLine() async throws {
        let test = try TestEngine()
        _ = try await Self.fill(test, seed: (1, 2, 3, 4))
        let (url, _) = try await Self.export(test.engine)
        defer { try? FileManager.default.removeItem(at: url) }
        var lines = try Self.lines(url, JSONExportWriter.samplesFile)
        lines[6] = lines[6].replacingOccurrences(of: "\"startDate\":\"", with: "\"startDate\":\"x")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(
            to: url.appendingPathComponent(JSONExportWriter.samplesFile)
        )
        let fresh = try TestEngine()
        let error = await #expect(throws: HealthError.self) {
            try await fresh.engine.importJSONExport(at: url, batchSize: 5)
        }
        #expect(error?.message.hasPrefix("samples.jsonl, line 7 (startDate):") == true, "\(String(describing: error))")
        #expect(error?.field == "path")
    }

    @Test func aSampleTheOwnerDeletedIsNotBroughtBackAndTheRestIs() async throws {
        let test = try TestEngine()
        let stored = try await Self.fill(test, seed: (9, 9, 9, 9))
        let (url, _) = try await Self.export(test.engine)
        defer { try? FileManager.default.removeItem(at: url) }
        let lines = try Self.lines(url, JSONExportWriter.samplesFile)
        let doomed = try (0..<3).map { try HealthJSON.decode(Sample.self, from: Data(lines[$0 * 7].utf8)).uuid }
        #expect(try await test.engine.delete(doomed, as: .owner) == 3)
        let summary = try await test.engine.importJSONExport(at: url)
        #expect(summary.total.deletedBefore == 3)
        #expect(summary.total.alreadyPresent == stored - 3)
        #expect(summary.total.imported == 0)
        #expect(try test.sampleCount() == stored - 3)
    }

    @Test func anEmptyVaultExportsAndImportsNothingButItsManifest() async throws {
        let empty = try TestEngine()
        let (url, manifest) = try await Self.export(empty.engine)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(manifest.sampleCount == 0 && manifest.samples.isEmpty && manifest.settings)
        #expect(try Self.lines(url, JSONExportWriter.samplesFile).isEmpty)
        let other = try TestEngine()
        let summary = try await other.engine.importJSONExport(at: url)
        #expect(summary.samples == 0 && summary.batches == 0 && summary.settings == 0)
    }

    @Test func anExportStoppedHasNoManifestAndItsEntriesSaySo() async throws {
        let test = try TestEngine()
        _ = try await Self.fill(test, seed: (2, 7, 1, 8))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hv-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try JSONExportWriter(directory: try ExportDirectory(url, overwrite: false))
        let error = await #expect(throws: HealthError.self) {
            try await test.engine.export(ExportFilter(), to: writer, stopRequested: { true })
        }
        #expect(error?.code == .userCanceled)
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathComponent(JSONExportWriter.manifestFile).path))
        let entries = try test.auditEntries().filter { $0.operation == .export }
        #expect(entries.map(\.outcome) == [.ok, .error])
        // A reader refuses the directory: the export did not end.
        let fresh = try TestEngine()
        await #expect(throws: HealthError.self) { try await fresh.engine.importJSONExport(at: url) }
    }
}
