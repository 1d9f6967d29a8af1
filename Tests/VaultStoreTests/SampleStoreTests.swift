import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultCrypto

@testable import VaultStore

/// Persisting, querying and deleting HealthModel objects in the real encrypted store.
@Suite(.serialized)
struct SampleStoreTests {
    let test: TestVault
    let store: SampleStore

    init() throws {
        test = try TestVault()
        store = try test.store
    }

    func app(_ id: String) -> SourceRevision {
        SourceRevision(source: Source(bundleIdentifier: id, name: id), version: "1")
    }

    func steps(
        _ value: Double,
        hour: Double = 0,
        by source: SourceRevision = Fixtures.app,
        metadata: Metadata = [:]
    )
        throws -> Sample
    {
        .quantity(
            try QuantitySample(
                type: .stepCount,
                quantity: Quantity(value, .count),
                start: Fixtures.start.addingTimeInterval(hour * 3600),
                end: Fixtures.start.addingTimeInterval(hour * 3600 + 600),
                sourceRevision: source,
                metadata: metadata
            )
        )
    }

    func all(_ type: SampleType, scope: ReadScope = .owner, predicate: SamplePredicate? = nil) throws -> [Sample] {
        try store.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(type, predicate: predicate)]),
            scope: scope
        )
    }

    @Test func everyKindOfObjectRoundTripsWithSourceDeviceAndMetadata() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (1, 2, 3, 4))
        let samples = (0..<200).map { _ in RandomModel.sample(&rng) }
        try store.save(samples)
        for sample in samples {
            let loaded = try store.sample(uuid: sample.uuid, scope: .owner)
            #expect(loaded == sample, "\(String(describing: loaded)) != \(sample)")
        }
        try store.setCharacteristic(.dateOfBirth(try DateOfBirth(year: 1984, month: 2, day: 29)))
        try store.setCharacteristic(.bloodType(.oNegative))
        try store.setCharacteristic(.bloodType(.aPositive))
        #expect(try store.characteristic(.bloodType) == .bloodType(.aPositive))
        #expect(try store.characteristic(.dateOfBirth) == .dateOfBirth(try DateOfBirth(year: 1984, month: 2, day: 29)))
        #expect(try store.characteristic(.wheelchairUse) == nil)
        try store.removeCharacteristic(.bloodType)
        #expect(try store.characteristic(.bloodType) == nil)
    }

    @Test func aBatchIsSavedWhollyOrNotAtAll() throws {
        let first = try steps(10)
        try store.save([first])
        let fresh = try steps(20)
        let error = #expect(throws: HealthError.self) { try store.save([fresh, first]) }
        #expect(error?.code == .invalidArgument)
        #expect(try store.sample(uuid: fresh.uuid, scope: .owner) == nil)
        #expect(try all(.quantity(.stepCount)).count == 1)
        // And the store still works after the failed batch.
        try store.save([fresh])
        #expect(try all(.quantity(.stepCount)).count == 2)
    }

    @Test func sqlQueriesMatchTheReferenceSemanticsOfPredicates() async throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (9, 8, 7, 6))
        let samples = (0..<400).map { _ in RandomModel.sample(&rng) }
        try store.save(samples)
        let types = Set(
            samples.map(\.sampleType)
                + samples.flatMap { sample -> [SampleType] in
                    if case .correlation(let c) = sample { c.objects.map(\.sampleType) } else { [] }
                }
        )
        // Random sync identifiers can collide, and then the store keeps only the newest version:
        // compare over what is stored.
        let stored = Set(try types.flatMap { try all($0) }.map(\.uuid))
        let everything = samples.flatMap { sample -> [Sample] in
            if case .correlation(let c) = sample { [sample] + c.objects } else { [sample] }
        }.filter { stored.contains($0.uuid) }
        #expect(everything.count > 350)
        let inputs = Generator(run: { rng in
            (Array(types).randomElement(using: &rng)!, RandomModel.predicate(&rng))
        })
        await propertyCheck(count: 300, input: inputs) { type, predicate throws in
            guard (try? predicate.validate(for: type)) != nil else { return }
            let expected = Set(everything.filter { $0.sampleType == type && predicate.matches($0) }.map(\.uuid))
            let actual = Set(try all(type, predicate: predicate).map(\.uuid))
            #expect(actual == expected, "\(type) \(predicate)")
        }
    }

    @Test func resultsAreSortedAndLimitedInSQL() throws {
        let values: [Double] = [30, 10, 50, 20, 40]
        try store.save(try values.enumerated().map { try steps($0.element, hour: Double($0.offset)) })
        func query(_ sort: [SampleSortDescriptor], limit: Int = 0) throws -> [Double] {
            try store.samples(
                matching: SampleQueryDescriptor(
                    predicates: [.quantitySample(type: .stepCount)],
                    sortDescriptors: sort,
                    limit: limit
                ),
                scope: .owner
            ).map { if case .quantity(let q) = $0 { q.quantity.value } else { -1 } }
        }
        #expect(try query([SampleSortDescriptor(.startDate)]) == values)
        #expect(try query([SampleSortDescriptor(.startDate, order: .descending)], limit: 2) == [40, 20])
        #expect(try query([SampleSortDescriptor(.value)]) == [10, 20, 30, 40, 50])
        #expect(try query([SampleSortDescriptor(.value, order: .descending)], limit: 3) == [50, 40, 30])
        // Across canonical units: heart rate (count/s) and resting heart rate (count/min).
        try store.save([
            .quantity(try Fixtures.quantity(.heartRate, 120, .countPerMinute)),
            .quantity(try Fixtures.quantity(.restingHeartRate, 50, .countPerMinute)),
            .quantity(try Fixtures.quantity(.heartRate, 80, .countPerMinute)),
        ])
        let rates = try store.samples(
            matching: SampleQueryDescriptor(
                predicates: [.quantitySample(type: .heartRate), .quantitySample(type: .restingHeartRate)],
                sortDescriptors: [SampleSortDescriptor(.value)]
            ),
            scope: .owner
        ).map { sample -> Double in
            guard case .quantity(let q) = sample else { return -1 }
            return try q.quantity.doubleValue(for: .countPerMinute)
        }
        #expect(rates.map { $0.rounded() } == [50, 80, 120])
    }

    @Test func anAppSeesOnlyItsOwnSamplesOfTypesItMayNotRead() throws {
        let mine = app("org.example.mine")
        let theirs = app("org.example.theirs")
        let own = try steps(1, by: mine)
        let other = try steps(2, by: theirs)
        try store.save([own, other])
        let denied = ReadScope.app("org.example.mine", readableTypes: [])
        let granted = ReadScope.app("org.example.mine", readableTypes: [.quantity(.stepCount)])
        #expect(try all(.quantity(.stepCount), scope: denied).map(\.uuid) == [own.uuid])
        #expect(Set(try all(.quantity(.stepCount), scope: granted).map(\.uuid)) == [own.uuid, other.uuid])
        #expect(try store.sample(uuid: other.uuid, scope: denied) == nil)
        #expect(try store.sample(uuid: other.uuid, scope: granted) == other)
        // An app with no samples at all sees nothing, exactly as in an empty store.
        #expect(try all(.quantity(.stepCount), scope: .app("org.example.new", readableTypes: [])).isEmpty)
        #expect(try all(.quantity(.heartRate), scope: .owner).isEmpty)
    }

    @Test func aRestrictedQueryNeverWalksOtherAppsRows() throws {
        try store.save([try steps(1, by: app("org.example.mine"))])
        let plan = try store.database.read { db in
            let branch = try #require(
                try store.branch(
                    for: .quantitySample(type: .stepCount, predicate: .samples(withStart: Fixtures.start, end: nil)),
                    scope: .app("org.example.mine", readableTypes: []),
                    columns: "s.id",
                    db
                )
            )
            return try db.rows("EXPLAIN QUERY PLAN " + branch.sql, branch.arguments).map { $0[3].string ?? "" }
        }
        #expect(plan.contains { $0.contains("samples_by_type_source_start") && $0.contains("source_id=?") }, "\(plan)")
    }

    @Test func appsDeleteOnlyTheirOwnSamplesAndDeletionsLeaveTombstones() throws {
        let mine = try steps(1, by: app("org.example.mine"))
        let theirs = try steps(2, by: app("org.example.theirs"))
        try store.save([mine, theirs])
        let before = try store.changeSequence()
        #expect(try store.delete(uuids: [theirs.uuid], scope: .app("org.example.mine")) == 0)
        #expect(try store.delete(uuids: [UUID()], scope: .app("org.example.mine")) == 0)
        #expect(try store.changeSequence() == before)
        #expect(try store.delete(uuids: [mine.uuid, theirs.uuid], scope: .app("org.example.mine")) == 1)
        #expect(try store.sample(uuid: mine.uuid, scope: .owner) == nil)
        #expect(try store.sample(uuid: theirs.uuid, scope: .owner) == theirs)
        #expect(try store.delete(uuids: [theirs.uuid], scope: .owner) == 1)
        #expect(try store.changeSequence() == before + 2)
        let tombstones = try store.database.read { try $0.rows("SELECT uuid, seq FROM tombstones ORDER BY seq") }
        #expect(tombstones.map { $0[0].bytes.flatMap(UUID.init(bytes:)) } == [mine.uuid, theirs.uuid])
    }

    @Test func deletingByPredicateTouchesOnlyTheCallersMatchingSamples() throws {
        let mine = app("org.example.mine")
        try store.save([
            try steps(5, by: mine), try steps(500, by: mine), try steps(700, by: app("org.example.theirs")),
        ])
        let big = SampleTypePredicate.quantitySample(
            type: .stepCount,
            predicate: .quantity(.greaterThan, Quantity(100, .count))
        )
        #expect(try store.delete(matching: big, scope: .app("org.example.mine")) == 1)
        #expect(try all(.quantity(.stepCount)).count == 2)
        #expect(try store.delete(matching: big, scope: .owner) == 1)
        #expect(try all(.quantity(.stepCount)).count == 1)
    }

    @Test func deletingACorrelationMemberDeletesTheCorrelation() throws {
        let reading = try Fixtures.bloodPressure()
        try store.save([.correlation(reading)])
        #expect(try all(.quantity(.bloodPressureSystolic)).count == 1)
        #expect(try store.delete(uuids: [reading.objects[0].uuid], scope: .owner) == 3)
        #expect(try all(.correlation(.bloodPressure)).isEmpty)
        #expect(try all(.quantity(.bloodPressureDiastolic)).isEmpty)
    }

    @Test func aNewerSyncVersionReplacesAndAnOlderOrEqualOneIsIgnored() throws {
        func version(_ v: Double, value: Double) throws -> Sample {
            try steps(value, metadata: [.syncIdentifier: .string("day-2026-03-03"), .syncVersion: .number(v)])
        }
        let v2 = try version(2, value: 200)
        #expect(try store.save([v2]) == SaveOutcome(saved: 1))
        #expect(try store.save([try version(1, value: 100)]) == SaveOutcome(ignored: 1))
        #expect(try store.save([try version(2, value: 250)]) == SaveOutcome(ignored: 1))
        let v3 = try version(3, value: 300)
        #expect(try store.save([v3]) == SaveOutcome(saved: 1, replaced: 1))
        #expect(try all(.quantity(.stepCount)).map(\.uuid) == [v3.uuid])
        // Another source with the same identifier is a different series.
        try store.save([
            try steps(
                1,
                by: app("org.example.other"),
                metadata: [.syncIdentifier: .string("day-2026-03-03"), .syncVersion: .number(1)]
            )
        ])
        #expect(try all(.quantity(.stepCount)).count == 2)
    }

    @Test func theChangeSequenceGrowsWithEveryInsertAndDeletion() throws {
        let start = try store.changeSequence()
        try store.save([try steps(1), try steps(2), .correlation(try Fixtures.bloodPressure())])
        #expect(try store.changeSequence() == start + 5)
    }
}

/// Schema migrations are forward-only and reach the same schema from every earlier version.
@Suite(.serialized)
struct SchemaTests {
    @Test func everyEarlierVersionMigratesToTheLatestSchema() throws {
        let fresh = try TestVault()
        let expected = try fresh.vault!.db().read {
            try $0.rows("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        }
        for version in 0..<Schema.latestVersion {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "hv-migrate-\(UUID().uuidString)"
            )
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let database = try Database(
                path: directory.appendingPathComponent("vault.db").path,
                key: .random(count: 32),
                create: true
            )
            try Schema.migrate(database, upTo: version)
            #expect(try Schema.version(of: database) == version)
            try Schema.migrate(database)
            #expect(try Schema.version(of: database) == Schema.latestVersion)
            #expect(
                try database.read { try $0.rows("SELECT type, name, sql FROM sqlite_master ORDER BY name") } == expected
            )
            database.close()
        }
    }

    @Test func aDatabaseFromANewerHealthVaultIsRefused() throws {
        let test = try TestVault()
        try test.vault!.db().withWriter { try $0.execute("PRAGMA user_version = \(Schema.latestVersion + 1)") }
        test.close()
        #expect(throws: StoreError.self) { try test.reopen() }
    }
}

extension SampleStoreTests {
    @Test func queriesOfManyShapesDoNotGrowTheStatementCacheWithoutEnd() throws {
        try store.save([try steps(1)])
        for count in 0..<600 {
            let predicate = SamplePredicate.and(Array(repeating: .uuids([]), count: count % 300 + 1))
            _ = try all(.quantity(.stepCount), predicate: .not(predicate))
        }
        let cached = try store.database.read { $0.cachedStatementCount }
        #expect(cached <= Connection.maximumCachedStatements)
    }
}

extension SampleStoreTests {
    @Test func aNulByteInAnAppIdOrValueIsKeptNotATerminator() throws {
        let victim = try steps(1, by: app("org.a"), metadata: ["org.example.note": .string("a\u{0}b")])
        try store.save([victim])
        let spy = "org.a\u{0}.spy"
        #expect(try all(.quantity(.stepCount), scope: .app(spy, readableTypes: [])).isEmpty)
        #expect(try store.delete(uuids: [victim.uuid], scope: .app(spy)) == 0)
        #expect(try store.sample(uuid: victim.uuid, scope: .owner) == victim)
    }
}

extension SampleStoreTests {
    @Test func failedBatchesOnOneThreadDoNotMisfileAnotherThreadsSamples() throws {
        let existing = try steps(1, by: app("org.example.base"))
        try store.save([existing])
        let store = self.store
        let saved = try (0..<20).map { round in
            try steps(Double(round), by: app("org.example.good\(round)"))
        }
        let failing = try (0..<20).map { round in
            // A new source and unit, then a duplicate UUID: the batch rolls back after minting ids.
            [
                Sample.quantity(try Fixtures.quantity(.bodyMass, 70, .pound)).attributed(
                    to: app("org.example.bad\(round)")
                ),
                existing,
            ]
        }
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            if index % 2 == 0 {
                _ = try? store.save([saved[index / 2]])
            } else {
                _ = try? store.save(failing[index / 2])
            }
        }
        for sample in saved {
            #expect(try store.sample(uuid: sample.uuid, scope: .owner) == sample)
        }
        #expect(try all(.quantity(.bodyMass)).isEmpty)
    }
}
