import Foundation
import HealthModel
import HealthModelTestSupport
import Testing

@testable import VaultStore

/// The store's rules at the edges: one object per UUID in the vault, correlations and their objects under a scope,
/// and sync versions within one batch.
extension SampleStoreTests {
    func steps(uuid: UUID, by source: SourceRevision) throws -> Sample {
        .quantity(
            try QuantitySample(
                uuid: uuid,
                type: .stepCount,
                quantity: Quantity(10, .count),
                start: Fixtures.start,
                end: Fixtures.end,
                sourceRevision: source
            )
        )
    }

    @Test func aUUIDNamesOneObjectInTheWholeVaultWhoeverSavedIt() throws {
        let theirs = try steps(uuid: UUID(), by: app("org.example.theirs"))
        let own = try steps(uuid: UUID(), by: app("org.example.mine"))
        let gone = try steps(uuid: UUID(), by: app("org.example.theirs"))
        try store.save([theirs, own, gone])
        #expect(try store.delete(uuids: [gone.uuid], scope: .owner) == 1)
        // Another app's UUID, the app's own again, a deleted sample's, one UUID twice in a batch
        // (after a fresh one): each is refused with the same error, and nothing of the batch is saved.
        let fresh = try steps(uuid: UUID(), by: app("org.example.mine"))
        let twice = try steps(uuid: UUID(), by: app("org.example.mine"))
        let refused = healthError { try store.save([own]) }
        #expect(refused?.code == .invalidArgument && refused?.field == "uuid", "\(String(describing: refused))")
        for batch in [
            [try steps(uuid: theirs.uuid, by: app("org.example.mine"))],
            [try steps(uuid: gone.uuid, by: app("org.example.mine"))],
            [fresh, twice, try steps(uuid: twice.uuid, by: app("org.example.mine"))],
        ] {
            let refusal = healthError { try store.save(batch) }
            #expect(refusal == refused, "\(String(describing: refusal))")
        }
        #expect(try store.sample(uuid: fresh.uuid, scope: .owner) == nil)
        #expect(try store.sample(uuid: gone.uuid, scope: .owner) == nil)
        // A correlation's object holding a stored UUID too.
        let reading = try Fixtures.bloodPressure()
        var objects = reading.objects
        guard case .quantity(let systolic) = objects[0] else { throw HealthError.invalidArgument("fixture") }
        objects[0] = .quantity(
            try QuantitySample(
                uuid: theirs.uuid,
                type: .bloodPressureSystolic,
                quantity: systolic.quantity,
                start: systolic.startDate,
                end: systolic.endDate,
                sourceRevision: systolic.sourceRevision
            )
        )
        let colliding = try Correlation(
            type: .bloodPressure,
            start: reading.startDate,
            end: reading.endDate,
            objects: objects,
            sourceRevision: reading.sourceRevision
        )
        #expect(healthError { try store.save([.correlation(colliding)]) } == refused)
        // The owner's view: one sample per UUID, the first app's untouched.
        #expect(try store.sample(uuid: theirs.uuid, scope: .owner) == theirs)
        #expect(try store.sample(uuid: theirs.uuid, scope: .app("org.example.mine", readableTypes: [])) == nil)
        #expect(try store.save([fresh]).saved == 1)
    }

    /// Since schema 21 the insert keeps a UUID to one row: a correlation's object holding the
    /// correlation's own UUID, and two correlations of one batch sharing an object's UUID, are
    /// refused as any UUID held, and nothing of the batch stays.
    @Test func aCorrelationsUUIDsAreOneObjectEachWithinItsBatch() throws {
        let refused = healthError { throw SampleStore.uuidInUse }
        let reading = try Fixtures.bloodPressure()
        func copy(_ sample: Sample, uuid: UUID) throws -> Sample {
            guard case .quantity(let quantity) = sample else { throw HealthError.invalidArgument("fixture") }
            return .quantity(
                try QuantitySample(
                    uuid: uuid,
                    type: quantity.quantityType,
                    quantity: quantity.quantity,
                    start: quantity.startDate,
                    end: quantity.endDate,
                    sourceRevision: quantity.sourceRevision
                )
            )
        }
        func correlation(uuid: UUID = UUID(), objects: [Sample]) throws -> Sample {
            .correlation(
                try Correlation(
                    uuid: uuid,
                    type: .bloodPressure,
                    start: reading.startDate,
                    end: reading.endDate,
                    objects: objects,
                    sourceRevision: reading.sourceRevision
                )
            )
        }
        let own = UUID()
        let holdingItself = try correlation(
            uuid: own,
            objects: [try copy(reading.objects[0], uuid: own), try copy(reading.objects[1], uuid: UUID())]
        )
        #expect(healthError { try store.save([holdingItself]) } == refused)
        let shared = UUID()
        let first = try correlation(
            objects: [try copy(reading.objects[0], uuid: shared), try copy(reading.objects[1], uuid: UUID())]
        )
        let second = try correlation(
            objects: [try copy(reading.objects[0], uuid: UUID()), try copy(reading.objects[1], uuid: shared)]
        )
        #expect(healthError { try store.save([first, second]) } == refused)
        #expect(try store.database.read { try $0.scalarInt("SELECT count(*) FROM samples") } == 0)
        #expect(try store.save([first]).saved == 1)
    }

    @Test func aDeletedUUIDIsRefusedWhetherTheBatchOrTheTombstonesAreMore() throws {
        let deleted = try (0..<3).map { _ in try steps(uuid: UUID(), by: app("org.example.mine")) }
        try store.save(deleted)
        #expect(try store.delete(uuids: deleted.map(\.uuid), scope: .owner) == 3)
        let fresh = { try self.steps(uuid: UUID(), by: self.app("org.example.mine")) }
        let reused = try steps(uuid: deleted[1].uuid, by: app("org.example.mine"))
        // Fewer samples than tombstones (the store probes the tombstones once per UUID), and more
        // (it reads the tombstones once), the deleted UUID first, last and alone.
        for batch in [
            [reused], [try fresh(), reused], (0..<5).map { _ in try! fresh() } + [reused],
            [reused] + (0..<5).map { _ in try! fresh() },
        ] {
            let refusal = healthError { try store.save(batch) }
            #expect(refusal?.code == .invalidArgument && refusal?.field == "uuid", "\(String(describing: refusal))")
        }
        #expect(try store.sample(uuid: deleted[1].uuid, scope: .owner) == nil)
        // Without a deleted UUID, both kinds of batch are saved.
        #expect(try store.save([try fresh()]).saved == 1)
        #expect(try store.save((0..<5).map { _ in try! fresh() }).saved == 5)
    }

    @Test func appIdsThatDifferOnlyInUnicodeNormalizationAreDifferentSources() throws {
        // Swift's String calls these equal; the store must not, or one app would read the other's.
        let composed = app("org.example.caf\u{e9}")
        let decomposed = app("org.example.cafe\u{301}")
        #expect(composed.source.bundleIdentifier == decomposed.source.bundleIdentifier)
        let first = try steps(uuid: UUID(), by: composed)
        let second = try steps(uuid: UUID(), by: decomposed)
        try store.save([first, second])
        let own = try all(.quantity(.stepCount), scope: .app(decomposed.source.bundleIdentifier, readableTypes: []))
        #expect(own.map(\.uuid) == [second.uuid])
        #expect(
            try store.sample(uuid: second.uuid, scope: .owner)?.sourceRevision.source.bundleIdentifier.utf8
                .elementsEqual(
                    decomposed.source.bundleIdentifier.utf8
                ) == true
        )
    }

    @Test func aCorrelationsObjectsMustComeFromItsOwnSource() throws {
        let reading = try Fixtures.bloodPressure()
        var objects = reading.objects
        guard case .quantity(let diastolic) = objects[1] else { throw HealthError.invalidArgument("fixture") }
        objects[1] = .quantity(
            try QuantitySample(
                type: .bloodPressureDiastolic,
                quantity: diastolic.quantity,
                start: diastolic.startDate,
                end: diastolic.endDate,
                sourceRevision: app("org.example.other")
            )
        )
        let mixed = try Correlation(
            type: .bloodPressure,
            start: reading.startDate,
            end: reading.endDate,
            objects: objects,
            sourceRevision: reading.sourceRevision
        )
        let error = healthError { try store.save([.correlation(mixed)]) }
        #expect(error?.code == .invalidArgument, "\(String(describing: error))")
        #expect(error?.field == "[0].objects[1].sourceRevision.source.bundleIdentifier")
        #expect(try all(.quantity(.bloodPressureDiastolic)).isEmpty)
    }

    @Test func aCorrelationIsVisibleOnlyWithEveryObjectReadable() throws {
        let reading = try Fixtures.bloodPressure()
        try store.save([.correlation(reading)])
        let pressure = SampleType.correlation(.bloodPressure)
        let systolic = SampleType.quantity(.bloodPressureSystolic)
        let diastolic = SampleType.quantity(.bloodPressureDiastolic)
        func reader(_ types: Set<SampleType>) -> ReadScope { .app("org.example.reader", readableTypes: types) }
        func query(_ scope: ReadScope, limit: Int = 0) throws -> [Sample] {
            try store.samples(
                matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(pressure)], limit: limit),
                scope: scope
            )
        }
        // The owner, the creating app and a reader of all three types see it whole.
        #expect(try query(.owner) == [.correlation(reading)])
        #expect(try query(.app(Fixtures.app.source.bundleIdentifier, readableTypes: [])) == [.correlation(reading)])
        #expect(try query(reader([pressure, systolic, diastolic])) == [.correlation(reading)])
        #expect(try store.sample(uuid: reading.uuid, scope: reader([pressure, systolic, diastolic])) != nil)
        // With one object type unreadable the correlation is not there at all: not in a query (so a
        // limit counts only visible ones), not by UUID; the readable object is still readable alone.
        for scope in [reader([pressure, systolic]), reader([pressure])] {
            #expect(try query(scope).isEmpty)
            #expect(try query(scope, limit: 1).isEmpty)
            #expect(try store.sample(uuid: reading.uuid, scope: scope) == nil)
        }
        #expect(try store.sample(uuid: reading.objects[0].uuid, scope: reader([systolic])) == reading.objects[0])
        // The reader's own later reading is the first it sees: the hidden one does not use up the limit.
        let own = try Correlation(
            type: .bloodPressure,
            start: reading.endDate.addingTimeInterval(60),
            end: reading.endDate.addingTimeInterval(60),
            objects: try [(QuantityTypeIdentifier.bloodPressureSystolic, 130.0), (.bloodPressureDiastolic, 85.0)].map {
                .quantity(
                    try QuantitySample(
                        type: $0.0,
                        quantity: Quantity($0.1, .millimeterOfMercury),
                        start: reading.endDate.addingTimeInterval(60),
                        end: reading.endDate.addingTimeInterval(60),
                        sourceRevision: app("org.example.reader")
                    )
                )
            },
            sourceRevision: app("org.example.reader")
        )
        try store.save([.correlation(own)])
        let first = try store.samples(
            matching: SampleQueryDescriptor(
                predicates: [SampleTypePredicate(pressure)],
                sortDescriptors: [SampleSortDescriptor(.startDate)],
                limit: 1
            ),
            scope: reader([pressure])
        )
        #expect(first == [.correlation(own)])
    }

    @Test func onlyTheHighestSyncVersionOfABatchIsStoredAndLeavesNoTombstone() throws {
        func version(_ v: Double, value: Double) throws -> Sample {
            try steps(value, metadata: [.syncIdentifier: .string("batch"), .syncVersion: .number(v)])
        }
        let v1 = try version(1, value: 100)
        let v3 = try version(3, value: 300)
        let v2 = try version(2, value: 200)
        let v3again = try version(3, value: 333)
        let before = try store.changeSequence()
        #expect(try store.save([v1, v3, v2, v3again]) == SaveOutcome(saved: 1, ignored: 3))
        #expect(try all(.quantity(.stepCount)) == [v3])
        #expect(try store.changeSequence() == before + 1)
        #expect(try store.database.read { try $0.scalarInt("SELECT count(*) FROM tombstones") } == 0)
    }

    @Test func aSyncVersionBeyondWhatADoubleHoldsExactlyIsRefused() throws {
        for version in [9_223_372_036_854_775_808.0, 1e300, -1e17] {
            let error = healthError {
                _ = try steps(1, metadata: [.syncIdentifier: .string("x"), .syncVersion: .number(version)])
            }
            #expect(error?.code == .invalidArgument && error?.field == "metadata.HKMetadataKeySyncVersion")
        }
        let largest = try steps(
            1,
            metadata: [.syncIdentifier: .string("x"), .syncVersion: .number(9_007_199_254_740_991)]
        )
        try store.save([largest])
        #expect(
            try store.save([try steps(2, metadata: [.syncIdentifier: .string("x"), .syncVersion: .number(5)])])
                == SaveOutcome(ignored: 1)
        )
    }

    func food(_ minute: Double, _ nutrients: [QuantityTypeIdentifier], by source: SourceRevision) throws -> Correlation
    {
        let time = Fixtures.start.addingTimeInterval(minute * 60)
        return try Correlation(
            type: .food,
            start: time,
            end: time,
            objects: try nutrients.map {
                .quantity(
                    try QuantitySample(
                        type: $0,
                        quantity: Quantity(10, $0.canonicalUnit),
                        start: time,
                        end: time,
                        sourceRevision: source
                    )
                )
            },
            sourceRevision: source
        )
    }

    @Test func aHiddenCorrelationDoesNotUseUpTheLimitOfAnAppWithNoSamples() throws {
        let writer = app("org.example.writer")
        let hidden = try food(0, [.dietaryEnergyConsumed, .dietaryProtein], by: writer)
        let visible = try food(1, [.dietaryEnergyConsumed], by: writer)
        try store.save([.correlation(hidden), .correlation(visible)])
        // The reader has never saved anything: it has no row in the sources table.
        let first = try store.samples(
            matching: SampleQueryDescriptor(
                predicates: [SampleTypePredicate(.correlation(.food))],
                sortDescriptors: [SampleSortDescriptor(.startDate)],
                limit: 1
            ),
            scope: .app("org.example.reader", readableTypes: [.correlation(.food), .quantity(.dietaryEnergyConsumed)])
        )
        #expect(first == [.correlation(visible)])
    }

    @Test func noCheckComparesAppIdsAsSwiftStrings() throws {
        let composed = app("org.example.caf\u{e9}")
        let decomposed = app("org.example.cafe\u{301}")
        // By UUID: the other normalization is another app.
        let theirs = try steps(uuid: UUID(), by: decomposed)
        try store.save([theirs])
        #expect(
            try store.sample(uuid: theirs.uuid, scope: .app(composed.source.bundleIdentifier, readableTypes: [])) == nil
        )
        // A correlation's objects from the other normalization are another source's.
        let mixed = try Correlation(
            type: .food,
            start: Fixtures.start,
            end: Fixtures.start,
            objects: try food(0, [.dietaryEnergyConsumed], by: decomposed).objects,
            sourceRevision: composed
        )
        #expect(healthError { try store.save([.correlation(mixed)]) }?.code == .invalidArgument)
    }
}
