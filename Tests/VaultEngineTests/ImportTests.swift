import AuditLog
import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// The owner's import through the engine: samples that arrive without an app keep the file's
/// sources under import bundle identifiers, get this vault's content UUIDs, come in once however
/// often the file is imported, stay deleted once the owner deletes them, and are read by apps
/// under their grants like any app's samples.
@Suite struct ImportTests {
    static let watch = VaultEngine.importSource(origin: "apple-health", name: "Ana’s Apple Watch")
    static let phone = VaultEngine.importSource(origin: "apple-health", name: "Ana’s iPhone")

    /// A step count the way an importer makes it: its UUID from its content.
    static func steps(_ value: Double, minute: Int, from source: Source, _ engine: VaultEngine) throws -> Sample {
        let start = Fixtures.start.addingTimeInterval(Double(minute) * 60)
        let identity =
            "HKQuantityTypeIdentifierStepCount|\(source.name)|\(value)|count|\(start.timeIntervalSinceReferenceDate)"
        return .quantity(
            try QuantitySample(
                uuid: try engine.importUUID(for: Array(identity.utf8)),
                type: .stepCount,
                quantity: Quantity(value, .count),
                start: start,
                end: start.addingTimeInterval(60),
                sourceRevision: SourceRevision(source: source, version: "9.1")
            )
        )
    }

    @Test func anImportComesInOnceStaysDeletedAndReadsAsItsSource() async throws {
        let test = try TestEngine()
        let engine = test.engine
        let batch = [
            try Self.steps(120, minute: 0, from: Self.watch, engine),
            try Self.steps(80, minute: 1, from: Self.phone, engine),
            try Self.steps(120, minute: 0, from: Self.watch, engine),  // the same record twice in the file
        ]
        let first = try await engine.importSamples(batch)
        #expect(first.stored == [batch[0].uuid, batch[1].uuid])
        #expect(first.repeated == [batch[2].uuid])
        // The same file again: nothing new.
        let again = try await engine.importSamples(batch)
        #expect(again.stored.isEmpty && again.alreadyPresent.count == 2 && again.repeated.count == 1)
        // The owner deletes one; importing the file again does not bring it back.
        _ = try await engine.delete([batch[1].uuid], as: .owner)
        let third = try await engine.importSamples(batch)
        #expect(third.deletedBefore == [batch[1].uuid] && third.alreadyPresent == [batch[0].uuid])

        // One entry per batch, with the types and the count stored, and no value.
        let imports = try test.auditEntries().filter { $0.operation == .import }
        #expect(imports.map(\.objectCount) == [2, 0, 0])
        #expect(imports.first?.types == ["HKQuantityTypeIdentifierStepCount"])

        // An app that reads steps sees the watch's steps under the watch's name; one that may
        // not sees what an empty vault shows; no app may delete them.
        try await test.enroll("org.example.reader")
        try await test.grant(.read, .quantity(.stepCount), to: "org.example.reader")
        let query = SampleQueryDescriptor(predicates: [.quantitySample(type: .stepCount)])
        let read = try await engine.samples(matching: query, as: .app("org.example.reader"))
        #expect(read.map(\.sourceRevision.source) == [Self.watch])
        try await test.enroll("org.example.other")
        #expect(try await engine.samples(matching: query, as: .app("org.example.other")).isEmpty)
        #expect(try await engine.delete([batch[0].uuid], as: .app("org.example.reader")) == 0)
        #expect(try await engine.samples(matching: query, as: .owner).count == 1)
    }

    @Test func anImportCarriesOnlyImportSourcesAndAnAppCannotBeOne() async throws {
        let test = try TestEngine()
        let appSample = Sample.quantity(try Fixtures.quantity(.stepCount, 10))
        let refused = await healthError { _ = try await test.engine.importSamples([appSample]) }
        #expect(refused?.field == "objects[0].sourceRevision")
        // An app id never has a colon: no app can be enrolled as an import's source.
        let enrol = await healthError { _ = try await test.enroll(Self.watch.bundleIdentifier) }
        #expect(enrol?.code == .invalidArgument)
        // Another vault names the same content otherwise.
        let other = try TestEngine()
        let content = Array("HKQuantityTypeIdentifierStepCount|Ana’s iPhone|80".utf8)
        #expect(try test.engine.importUUID(for: content) != other.engine.importUUID(for: content))
    }
}

extension ImportTests {
    @Test func unclaimedMemberRecordsAreStoredInBatchesOfTheirOwn() async throws {
        let test = try TestEngine()
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2026-03-05 10:00:00 +0100"/>

            """
        for minute in 0..<5 {
            text += """
                 <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Omron" unit="mmHg" startDate="2026-03-03 07:0\(minute):00 +0100" endDate="2026-03-03 07:0\(minute):00 +0100" value="12\(minute)"/>

                """
        }
        text += "</HealthData>\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hv-import-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(text.utf8).write(to: file)
        let summary = try await test.engine.importAppleHealth(at: file, batchSize: 2)
        #expect(summary.byType["HKQuantityTypeIdentifierBloodPressureSystolic"]?.imported == 5)
        #expect(summary.batches == 3)
        #expect(try test.auditEntries().filter { $0.operation == .import }.map(\.objectCount) == [2, 2, 1])
    }

    /// A record whose JSON no answer could carry (a huge metadata value in a crafted export) is
    /// skipped with its reason, as an app's save of it would be refused; the others come in.
    @Test func aRecordNoAnswerCouldCarryIsSkipped() async throws {
        let test = try TestEngine(largestObjectJSONBytes: 8_192)
        func record(minute: Int, note: Int) -> String {
            """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2026-03-03 07:0\(minute):00 +0100" endDate="2026-03-03 07:0\(minute):30 +0100" value="12">
              <MetadataEntry key="org.example.note" value="\(String(repeating: "n", count: note))"/>
             </Record>

            """
        }
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2026-03-05 10:00:00 +0100"/>

            """ + record(minute: 0, note: 10) + record(minute: 1, note: 9_000) + record(minute: 2, note: 5_000)
            + "</HealthData>\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hv-import-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(text.utf8).write(to: file)
        let summary = try await test.engine.importAppleHealth(at: file, batchSize: 100)
        #expect(summary.byType["HKQuantityTypeIdentifierStepCount"]?.imported == 2)
        #expect(summary.byType["HKQuantityTypeIdentifierStepCount"]?.skipped == 1)
        #expect(
            summary.skipped.keys.contains {
                $0.contains("larger than an answer may hold for one object (8192 bytes of JSON)")
            },
            "\(summary.skipped)"
        )
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))])
        #expect(try await test.engine.samples(matching: query, as: .owner).count == 2)
    }
}

extension ImportTests {
    /// Blood pressure the way Apple writes it: each member once at top level, then again inside
    /// its correlation. Whatever the batches, each member is stored once, as the correlation's
    /// member, and a re-import adds nothing.
    @Test(arguments: [1, 2, 3, 100])
    func correlationMembersStoredAtTopLevelBecomeMembers(batchSize: Int) async throws {
        let test = try TestEngine()
        func record(_ type: String, _ minute: Int, _ value: Int) -> String {
            """
            <Record type="HKQuantityTypeIdentifier\(type)" sourceName="Omron" unit="mmHg" \
            startDate="2026-03-03 07:0\(minute):00 +0100" endDate="2026-03-03 07:0\(minute):00 +0100" value="\(value)"/>

            """
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        for minute in 0..<3 {
            text += record("BloodPressureSystolic", minute, 120 + minute) + record("BloodPressureDiastolic", minute, 80)
        }
        // A systolic reading no correlation claims.
        text += record("BloodPressureSystolic", 9, 150)
        for minute in 0..<3 {
            text += """
                <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" \
                startDate="2026-03-03 07:0\(minute):00 +0100" endDate="2026-03-03 07:0\(minute):00 +0100">

                """
            text += record("BloodPressureSystolic", minute, 120 + minute) + record("BloodPressureDiastolic", minute, 80)
            text += "</Correlation>\n"
        }
        text += "</HealthData>\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hv-import-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(text.utf8).write(to: file)

        let summary = try await test.engine.importAppleHealth(at: file, batchSize: batchSize)
        #expect(summary.byType["HKQuantityTypeIdentifierBloodPressureSystolic"]?.imported == 4)
        #expect(summary.byType["HKQuantityTypeIdentifierBloodPressureDiastolic"]?.imported == 3)
        #expect(summary.byType["HKCorrelationTypeIdentifierBloodPressure"]?.imported == 3)

        let systolic = SampleQueryDescriptor(predicates: [.quantitySample(type: .bloodPressureSystolic)])
        #expect(try await test.engine.samples(matching: systolic, as: .owner).count == 4)
        let pressure = CorrelationQueryDescriptor(type: .bloodPressure)
        let correlations = try await test.engine.correlations(matching: pressure, as: .owner)
        #expect(correlations.count == 3)
        #expect(correlations.allSatisfy { $0.objects.count == 2 })
        let summaryRows = try await test.engine.typeSummaries()
        #expect(summaryRows.first { $0.type == .quantity(.bloodPressureDiastolic) }?.count == 3)

        let again = try await test.engine.importAppleHealth(at: file, batchSize: batchSize)
        #expect(again.byType.values.allSatisfy { $0.imported == 0 })
        #expect(again.byType["HKCorrelationTypeIdentifierBloodPressure"]?.alreadyPresent == 3)
        #expect(try await test.engine.samples(matching: systolic, as: .owner).count == 4)
    }
}

extension ImportTests {
    /// A batch that mixes what the vault holds with what it does not: the held ones are passed
    /// over as they are inserted (no lookup beforehand), the rest stored, and the changes name
    /// only what was stored. A held sample with a sync identifier is passed over too, whatever
    /// sync version the file now gives it (replacing it would reuse its UUID).
    @Test func aBatchPartlyHeldStoresTheRestAndPassesOverTheHeld() async throws {
        let test = try TestEngine()
        let engine = test.engine
        func synced(_ version: Int) throws -> Sample {
            let start = Fixtures.start.addingTimeInterval(3_600)
            return .quantity(
                try QuantitySample(
                    uuid: try engine.importUUID(for: Array("synced weight".utf8)),
                    type: .bodyMass,
                    quantity: Quantity(70, .kilogram),
                    start: start,
                    end: start,
                    sourceRevision: SourceRevision(source: Self.phone, version: "17.1"),
                    metadata: [.syncIdentifier: .string("scale-1"), .syncVersion: .number(Double(version))]
                )
            )
        }
        let held = [try Self.steps(10, minute: 0, from: Self.watch, engine), try synced(1)]
        #expect(try await engine.importSamples(held).stored.count == 2)

        let fresh = try Self.steps(20, minute: 1, from: Self.phone, engine)
        let batch = [held[0], fresh, try synced(2)]
        let sorting = try await engine.importSamples(batch)
        #expect(sorting.stored == [fresh.uuid])
        #expect(Set(sorting.alreadyPresent) == [held[0].uuid, held[1].uuid])
        #expect(sorting.changes == [.quantity(.stepCount): [Self.phone.bundleIdentifier]])
        let weights = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [.quantitySample(type: .bodyMass)]),
            as: .owner
        )
        #expect(weights.map(\.metadata[.syncVersion]) == [.number(1)])
        #expect(try test.auditEntries().filter { $0.operation == .import }.map(\.objectCount) == [2, 1])
    }
}
