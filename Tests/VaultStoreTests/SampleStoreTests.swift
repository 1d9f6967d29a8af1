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
            // An electrocardiogram's measurements and a series' beats are read by their own
            // queries (SampleKindStoreTests), not with the sample.
            let loaded = try store.sample(uuid: sample.uuid, scope: .owner)
            #expect(loaded == sample.withoutSeriesData, "\(String(describing: loaded)) != \(sample)")
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

    @Test func sqlQueriesMatchTheReferenceSemanticsOfPredicates() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (9, 8, 7, 6))
        // Most samples of a few types (two of them decibel and mmHg pressures, one with an offset
        // unit), so queries find many rows to compare and sort; the rest of any kind.
        let dense: [QuantityTypeIdentifier] = [
            .stepCount, .bodyMass, .environmentalAudioExposure, .bloodPressureSystolic, .bodyTemperature, .heartRate,
        ]
        let samples = (0..<600).map { index in
            index % 3 == 0
                ? RandomModel.sample(&rng)
                : .quantity(RandomModel.quantitySample(&rng, type: dense.randomElement(using: &rng)!))
        }
        try store.save(samples)
        // Queries from a fixed seed too, so CI runs the same 1,000 every time and a failure reproduces.
        try expectQueriesMatchTheReferenceSemantics(of: samples, queries: 1000, seed: (5, 4, 3, 2))
    }

    @Test func sqlQueriesMatchTheReferenceSemanticsOfStateOfMindAndElectrocardiogramPredicates() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (6, 1, 8, 0))
        // Many of both kinds, so every kind, label, association, classification and status is held
        // by some and not by others; and a few of other kinds around them.
        let samples = (0..<400).map { index -> Sample in
            switch index % 8 {
            case 0: RandomModel.sample(&rng)
            case 1, 2, 3: .electrocardiogram(RandomModel.electrocardiogram(&rng, count: 4))
            default: .stateOfMind(RandomModel.stateOfMind(&rng))
            }
        }
        try store.save(samples)
        try expectQueriesMatchTheReferenceSemantics(
            of: samples,
            queries: 600,
            seed: (7, 7, 2, 1),
            types: [.stateOfMind, .electrocardiogram]
        )
    }

    /// Runs `queries` random queries (from `seed`) over the stored `samples`, each asking for one
    /// to three of `types` (or of the samples' types) with random predicates, sorts, limits and
    /// scopes, and expects the store to answer what `SamplePredicate.matches` and the read rules
    /// select, in the descriptors' order.
    func expectQueriesMatchTheReferenceSemantics(
        of samples: [Sample],
        queries: Int,
        seed: (UInt64, UInt64, UInt64, UInt64),
        types queriedTypes: [SampleType]? = nil
    ) throws {
        let everything = samples.flatMap { sample -> [Sample] in
            if case .correlation(let c) = sample { [sample] + c.objects } else { [sample] }
        }
        let types = Array(Set(everything.map(\.sampleType))).sorted { $0.identifier < $1.identifier }
        let queriedTypes = queriedTypes ?? types
        // What a scope may read: the rule the store applies in SQL, written out plainly.
        func visible(_ sample: Sample, to scope: ReadScope) -> Bool {
            guard let app = scope.bundleIdentifier else { return true }
            func readable(_ sample: Sample) -> Bool {
                scope.readableTypes.contains(sample.sampleType) || sample.sourceRevision.source.bundleIdentifier == app
            }
            if case .correlation(let c) = sample, !c.objects.allSatisfy(readable) { return false }
            return readable(sample)
        }
        var queryRNG: any SeededRandomNumberGenerator = Xoshiro(seed: seed)
        func input(_ rng: inout any SeededRandomNumberGenerator) -> (SampleQueryDescriptor, ReadScope) {
            let predicates = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                let type = queriedTypes.randomElement(using: &rng)!
                return SampleTypePredicate(
                    type,
                    predicate: Int.random(in: 0...2, using: &rng) == 0 ? nil : RandomModel.predicate(&rng, for: type)
                )
            }
            let scope: ReadScope =
                Bool.random(using: &rng)
                ? .owner
                : .app(
                    "org.example.app\(Int.random(in: 0...4, using: &rng))",
                    readableTypes: Set(types.filter { _ in Int.random(in: 0...2, using: &rng) == 0 })
                )
            let limit = Bool.random(using: &rng) ? 0 : Int.random(in: 1...30, using: &rng)
            return (
                SampleQueryDescriptor(
                    predicates: predicates,
                    sortDescriptors: RandomModel.sortDescriptors(&rng),
                    limit: limit
                ), scope
            )
        }
        var found = 0
        for _ in 0..<queries {
            let (query, scope) = input(&queryRNG)
            guard (try? query.validate()) != nil else {
                #expect(throws: HealthError.self) { try store.samples(matching: query, scope: scope) }
                continue
            }
            let matching = everything.filter { sample in
                visible(sample, to: scope)
                    && query.predicates.contains {
                        $0.sampleType == sample.sampleType && ($0.predicate?.matches(sample) ?? true)
                    }
            }
            let sorted = matching.sorted { a, b in
                for descriptor in query.sortDescriptors {
                    if descriptor.orders(a, before: b) { return true }
                    if descriptor.orders(b, before: a) { return false }
                }
                return a.uuid.bytes.lexicographicallyPrecedes(b.uuid.bytes)
            }
            let expected = (query.limit > 0 ? Array(sorted.prefix(query.limit)) : sorted).map(\.uuid)
            let actual = try store.samples(matching: query, scope: scope).map(\.uuid)
            #expect(actual == expected, "\(query) \(scope)")
            found += actual.count
        }
        #expect(found > queries, "the queries find enough to compare")
    }

    @Test func correlationQueriesMatchTheReferenceSemantics() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (3, 1, 4, 1))
        let correlations = (0..<300).map { _ in RandomModel.correlation(&rng) }
        // And other samples around them, members of nothing.
        try store.save(correlations.map(Sample.correlation) + (0..<200).map { _ in RandomModel.sample(&rng) })
        let all = try store.samples(
            matching: SampleQueryDescriptor(
                predicates: CorrelationTypeIdentifier.allCases.map { SampleTypePredicate(.correlation($0)) }
            ),
            scope: .owner
        )
        .compactMap { sample -> Correlation? in
            if case .correlation(let correlation) = sample { return correlation }
            return nil
        }
        var queryRNG: any SeededRandomNumberGenerator = Xoshiro(seed: (2, 7, 1, 8))
        var found = 0
        for _ in 0..<400 {
            let type = CorrelationTypeIdentifier.allCases.randomElement(using: &queryRNG)!
            let members = Array(type.allowedMemberTypes).sorted { $0.identifier < $1.identifier }
            let query = CorrelationQueryDescriptor(
                type: type,
                predicate: Int.random(in: 0...2, using: &queryRNG) == 0
                    ? RandomModel.predicate(&queryRNG, for: .correlation(type)) : nil,
                samplePredicates: (0..<Int.random(in: 0...2, using: &queryRNG)).map { _ in
                    let member =
                        type == .bloodPressure
                        ? members.randomElement(using: &queryRNG)!
                        // Food: the few dietary types the random correlations hold, mostly.
                        : all.filter { $0.correlationType == .food }.randomElement(using: &queryRNG)?.objects
                            .randomElement(using: &queryRNG)?.sampleType ?? members[0]
                    return SampleTypePredicate(member, predicate: RandomModel.predicate(&queryRNG, for: member))
                }
            )
            guard (try? query.validate()) != nil else {
                #expect(throws: HealthError.self) { try store.correlations(matching: query, scope: .owner) }
                continue
            }
            let expected = all.filter(query.matches).sorted {
                ($0.startDate, $0.uuid.uuidString) < ($1.startDate, $1.uuid.uuidString)
            }
            let actual = try store.correlations(matching: query, scope: .owner)
            #expect(actual.map(\.uuid) == expected.map(\.uuid), "\(query)")
            found += actual.count
        }
        #expect(found > 1000, "the queries find enough to compare")
    }

    @Test func comparisonsAgreeAtTiesAcrossUnitsAndForUnnormalizedText() throws {
        // One pound, stored as given; compared in grams (the canonical unit) whatever the unit.
        let pound = try Fixtures.quantity(.bodyMass, 1, .pound, metadata: ["org.example.note": .string("e\u{301}")])
        try store.save([.quantity(pound)])
        for (op, expected) in [
            (ComparisonOperator.equalTo, true), (.lessThanOrEqualTo, true), (.greaterThanOrEqualTo, true),
            (.lessThan, false), (.greaterThan, false), (.notEqualTo, false),
        ] {
            for unit in [HealthUnit.pound, .gram, .kilogram, .ounce] {
                let predicate = SamplePredicate.quantity(op, Quantity(try pound.quantity.doubleValue(for: unit), unit))
                #expect(predicate.matches(.quantity(pound)) == expected || unit != .pound, "\(op) \(unit)")
                #expect(
                    try all(.quantity(.bodyMass), predicate: predicate).isEmpty == !predicate.matches(.quantity(pound)),
                    "\(op) \(unit)"
                )
            }
        }
        // "é" as e + combining accent is not the precomposed "é": text compares by its bytes.
        let precomposed = SamplePredicate.metadata("org.example.note", .compare(.equalTo, .string("\u{e9}")))
        let decomposed = SamplePredicate.metadata("org.example.note", .compare(.equalTo, .string("e\u{301}")))
        #expect(!precomposed.matches(.quantity(pound)) && decomposed.matches(.quantity(pound)))
        #expect(try all(.quantity(.bodyMass), predicate: precomposed).isEmpty)
        #expect(try all(.quantity(.bodyMass), predicate: decomposed).count == 1)
        // A decibel type compared with a pressure of zero has no canonical value: a clear error.
        let silence = SamplePredicate.quantity(.greaterThan, Quantity(0, try HealthUnit(from: "Pa")))
        let error = healthError { _ = try all(.quantity(.environmentalAudioExposure), predicate: silence) }
        #expect(error?.code == .invalidArgument, "\(String(describing: error))")
    }

    @Test func aTypeNamedTwiceInOneQueryReturnsEachSampleOnce() throws {
        try store.save([try steps(5), try steps(500)])
        let big = SamplePredicate.quantity(.greaterThan, Quantity(100, .count))
        let query = SampleQueryDescriptor(predicates: [
            .quantitySample(type: .stepCount), .quantitySample(type: .stepCount, predicate: big),
        ])
        #expect(try store.samples(matching: query, scope: .owner).count == 2)
        let both = SampleQueryDescriptor(predicates: [
            .quantitySample(type: .stepCount, predicate: big), .quantitySample(type: .stepCount, predicate: .not(big)),
        ])
        #expect(try store.samples(matching: both, scope: .owner).count == 2)
    }

    @Test func aPredicateOfTenThousandNodesRunsWhateverItsShape() throws {
        try store.save([try steps(5), try steps(500, hour: 1), try steps(50, hour: 2)])
        let values = (0..<4999).map { SamplePredicate.quantity(.equalTo, Quantity(Double($0 + 1000), .count)) }
        // Wide: one `or` of 5,000; deep in negations: an `and` of 4,999 `not`s and one more.
        let wide = SamplePredicate.or(values + [.quantity(.equalTo, Quantity(500, .count))])
        #expect(try all(.quantity(.stepCount), predicate: wide).count == 1)
        let negated = SamplePredicate.and(values.map { .not($0) } + [.quantity(.lessThan, Quantity(100, .count))])
        #expect(try all(.quantity(.stepCount), predicate: negated).count == 2)
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
        // Across a decibel level and a pressure in mmHg: 100 dBASPL is 2 Pa, 1 mmHg is 133 Pa.
        try store.save([
            .quantity(try Fixtures.quantity(.environmentalAudioExposure, 100, try HealthUnit(from: "dBASPL"))),
            .quantity(try Fixtures.quantity(.bloodPressureSystolic, 1, .millimeterOfMercury)),
            .quantity(try Fixtures.quantity(.environmentalAudioExposure, 30, try HealthUnit(from: "dBASPL"))),
        ])
        let pressures = try store.samples(
            matching: SampleQueryDescriptor(
                predicates: [
                    .quantitySample(type: .bloodPressureSystolic), .quantitySample(type: .environmentalAudioExposure),
                ],
                sortDescriptors: [SampleSortDescriptor(.value, order: .descending)]
            ),
            scope: .owner
        ).map { sample -> Double in
            guard case .quantity(let q) = sample else { return -1 }
            return q.quantity.value
        }
        #expect(pressures == [1, 100, 30])
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
                    columns: SQLFragment("s.id"),
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
        // A newer version is a new object: under the replaced sample's UUID it is refused, and
        // nothing changes.
        let v4 = try version(4, value: 400)
        guard case .quantity(let quantity) = v4 else { return }
        let reused = Sample.quantity(
            try QuantitySample(
                uuid: v3.uuid,
                type: quantity.quantityType,
                quantity: quantity.quantity,
                start: quantity.startDate,
                end: quantity.endDate,
                sourceRevision: quantity.sourceRevision,
                metadata: quantity.metadata
            )
        )
        #expect(throws: HealthError.self) { try store.save([reused]) }
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
            let older = try OlderSchemaDatabase(version: version)
            let database = older.database
            #expect(try Schema.version(of: database) == version)
            try Schema.migrate(database)
            #expect(try Schema.version(of: database) == Schema.latestVersion)
            #expect(
                try database.read { try $0.rows("SELECT type, name, sql FROM sqlite_master ORDER BY name") } == expected
            )
            database.close()
        }
    }

    @Test func schemaSevenRefusesAVaultWhereTwoAppsHoldOneUUIDAndChangesNothing() throws {
        let older = try OlderSchemaDatabase(version: 6)
        let database = older.database
        // Schema 6 let two sources hold one UUID (today's store refuses to save it: the second
        // sample is given the first's UUID afterwards).
        let shared = UUID()
        let store = SampleStore(database: database)
        for app in ["org.example.one", "org.example.two"] {
            try store.saveAsBeforeSchema17([
                .quantity(
                    try QuantitySample(
                        uuid: app == "org.example.one" ? shared : UUID(),
                        type: .stepCount,
                        quantity: Quantity(1, .count),
                        start: Fixtures.start,
                        end: Fixtures.end,
                        sourceRevision: SourceRevision(source: Source(bundleIdentifier: app, name: app))
                    )
                )
            ])
        }
        try database.write { try $0.execute("UPDATE samples SET uuid = ?", [DatabaseValue.blob(shared.bytes)]) }
        do {
            try Schema.migrate(database)
            Issue.record("the migration took a database with one UUID in two sources")
        } catch {
            #expect(error.caseName == "cannotMigrate", "\(error)")
            #expect("\(error)".contains("1 UUID is held by samples of more than one app"), "\(error)")
        }
        #expect(try Schema.version(of: database) == 6)
        #expect(try database.read { try $0.scalarInt("SELECT count(*) FROM samples") } == 2)
    }

    @Test func versionTwelveGivesEveryQuantitySeriesItsTypeAndSource() throws {
        let older = try OlderSchemaDatabase(version: 11)
        let database = older.database
        try database.write { db in
            try db.execute("INSERT INTO types (code, identifier) VALUES (7, 'HKQuantityTypeIdentifierHeartRate')")
            try db.execute("INSERT INTO sources (id, bundle_id) VALUES (3, 'org.example.strap')")
            try db.execute("INSERT INTO revisions (id, source_id, identity, name) VALUES (1, 3, 'r', 'Strap')")
            try db.execute(
                """
                INSERT INTO samples (id, uuid, type, source_id, revision_id, start_date, end_date, value, seq)
                VALUES (42, x'00112233445566778899AABBCCDDEEFF', 7, 3, 1, 0, 60, 1.2, 1)
                """
            )
            try db.execute(
                "INSERT INTO quantity_series (sample_id, quantity_count, minimum_base, maximum_base) VALUES (42, 3, 1, 1.5)"
            )
        }
        try Schema.migrate(database)
        let row = try database.read { try $0.rows("SELECT type, source_id FROM quantity_series WHERE sample_id = 42") }
        #expect(row.first?[0].int64 == 7 && row.first?[1].int64 == 3)
        let probe = try database.read {
            try $0.scalarInt(
                "SELECT count(*) FROM quantity_series INDEXED BY quantity_series_extremes WHERE type = 7 AND source_id = 3 AND minimum_base IS NOT NULL"
            )
        }
        #expect(probe == 1)
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

extension SampleStoreTests {
    /// A query matching more objects than one answer holds is refused before they are loaded;
    /// the same query with a limit, or seeing fewer, is served.
    @Test func aQueryMatchingMoreThanAnAnswerHoldsIsRefusedBeforeLoading() throws {
        let count = SampleStore.maximumAnswerObjects + 1
        let start = Fixtures.start
        let samples = try (0..<count).map { index in
            Sample.quantity(
                try QuantitySample(
                    type: .stepCount,
                    quantity: Quantity(1, .count),
                    start: start.addingTimeInterval(Double(index)),
                    end: start.addingTimeInterval(Double(index) + 1),
                    sourceRevision: Fixtures.app
                )
            )
        }
        try store.save(samples)
        let everything = [SampleTypePredicate(.quantity(.stepCount))]
        func refused(_ body: () throws -> Void) -> Bool {
            do {
                try body()
                return false
            } catch let error as HealthError {
                return error.code == .dataSizeExceeded && error.message.contains("100000")
            } catch {
                return false
            }
        }
        #expect(
            refused { _ = try store.samples(matching: SampleQueryDescriptor(predicates: everything), scope: .owner) }
        )
        #expect(
            refused {
                _ = try store.samples(
                    matching: SampleQueryDescriptor(predicates: everything, limit: 200_000),
                    scope: .owner
                )
            }
        )
        #expect(
            refused {
                _ = try store.database.read {
                    try store.changes(
                        matching: AnchoredObjectQueryDescriptor(predicates: everything),
                        after: 0,
                        scope: .owner,
                        in: $0
                    )
                }
            }
        )
        #expect(
            try store.samples(matching: SampleQueryDescriptor(predicates: everything, limit: 10), scope: .owner).count
                == 10
        )
        // Another app sees none of them: nothing it cannot see counts.
        let other = ReadScope.app("org.example.other", readableTypes: [])
        #expect(try store.samples(matching: SampleQueryDescriptor(predicates: everything), scope: other).isEmpty)
    }
}
