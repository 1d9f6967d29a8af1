import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultCrypto

@testable import VaultStore

/// States of mind, scored assessments, electrocardiograms, audiograms and heartbeat series in the
/// real encrypted store (schema 8): saved, read back, their series read in batches, deleted with
/// their details.
@Suite(.serialized)
struct SampleKindStoreTests {
    let test: TestVault
    let store: SampleStore

    init() throws {
        test = try TestVault()
        store = try test.store
    }

    func app(_ id: String) -> SourceRevision {
        SourceRevision(source: Source(bundleIdentifier: id, name: id))
    }

    /// Every measurement of an electrocardiogram, read in batches of `size`.
    func measurements(
        of uuid: UUID,
        batch size: Int,
        scope: ReadScope = .owner
    ) throws
        -> [Electrocardiogram.VoltageMeasurement]?
    {
        var all: [Electrocardiogram.VoltageMeasurement] = []
        var offset: Int? = 0
        while let from = offset {
            guard
                let batch = try store.database.read({
                    try store.voltageMeasurements(of: uuid, offset: from, limit: size, scope: scope, in: $0)
                })
            else { return nil }
            #expect(batch.points.count <= size)
            all += batch.points
            offset = batch.next
        }
        return all
    }

    func heartbeats(
        of uuid: UUID,
        batch size: Int,
        scope: ReadScope = .owner
    ) throws
        -> [HeartbeatSeriesSample.Heartbeat]?
    {
        var all: [HeartbeatSeriesSample.Heartbeat] = []
        var offset: Int? = 0
        while let from = offset {
            guard
                let batch = try store.database.read({
                    try store.heartbeats(of: uuid, offset: from, limit: size, scope: scope, in: $0)
                })
            else { return nil }
            all += batch.points
            offset = batch.next
        }
        return all
    }

    @Test func everyKindRoundTripsAndItsSeriesReadsBackInAnyBatchSize() async throws {
        await propertyCheck(count: 60, input: Generator(run: { rng in RandomModel.sampleOfAnotherKind(&rng) })) {
            sample throws in
            try store.save([sample])
            #expect(try store.sample(uuid: sample.uuid, scope: .owner) == sample.withoutSeriesData)
            switch sample {
            case .electrocardiogram(let ecg):
                for size in [1, 7, 64] {
                    #expect(try measurements(of: ecg.uuid, batch: size) == ecg.voltageMeasurements)
                }
            case .heartbeatSeries(let series):
                for size in [1, 10, 1000] {
                    #expect(try heartbeats(of: series.uuid, batch: size) == series.heartbeats)
                }
            default:
                break
            }
        }
    }

    @Test func aLongElectrocardiogramIsReadAcrossItsChunks() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (8, 6, 7, 5))
        // Thirty seconds at 512 Hz: 15,360 measurements, 15 chunks.
        let ecg = RandomModel.electrocardiogram(&rng, count: 15_360)
        try store.save([.electrocardiogram(ecg)])
        let chunks = try store.database.read { try $0.scalarInt("SELECT count(*) FROM series_chunks") }
        #expect(chunks == 15)
        for size in [10_000, 1000, 1023, 1025] {
            #expect(try measurements(of: ecg.uuid, batch: size) == ecg.voltageMeasurements)
        }
        // A batch from the middle, straddling a chunk's end, and one past the end.
        let middle = try store.database.read {
            try store.voltageMeasurements(of: ecg.uuid, offset: 1020, limit: 10, scope: .owner, in: $0)
        }
        #expect(middle?.points == Array(ecg.voltageMeasurements![1020..<1030]))
        #expect(middle?.next == 1030)
        let last = try store.database.read {
            try store.voltageMeasurements(of: ecg.uuid, offset: 15_350, limit: 100, scope: .owner, in: $0)
        }
        #expect(last?.points.count == 10)
        #expect(last?.next == nil)
        let past = try store.database.read {
            try store.voltageMeasurements(of: ecg.uuid, offset: 20_000, limit: 100, scope: .owner, in: $0)
        }
        #expect(past == SeriesBatch(points: [], next: nil))
    }

    @Test func seriesAreReadOnlyWhereTheScopeSeesThem() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (1, 1, 2, 3))
        let ecg = RandomModel.electrocardiogram(&rng).attributed(to: app("org.example.ecg"))
        let series = RandomModel.heartbeatSeries(&rng).attributed(to: app("org.example.ecg"))
        let steps = Sample.quantity(try Fixtures.quantity().attributed(to: app("org.example.ecg")))
        try store.save([.electrocardiogram(ecg), .heartbeatSeries(series), steps])
        let own = ReadScope.app("org.example.ecg", readableTypes: [])
        let other = ReadScope.app("org.example.other", readableTypes: [])
        let reader = ReadScope.app("org.example.other", readableTypes: [.electrocardiogram, .heartbeatSeries])
        #expect(try measurements(of: ecg.uuid, batch: 100, scope: own) == ecg.voltageMeasurements)
        #expect(try measurements(of: ecg.uuid, batch: 100, scope: reader) == ecg.voltageMeasurements)
        #expect(try measurements(of: ecg.uuid, batch: 100, scope: other) == nil)
        #expect(try heartbeats(of: series.uuid, batch: 100, scope: other) == nil)
        #expect(try heartbeats(of: series.uuid, batch: 100, scope: reader) == series.heartbeats)
        // Another kind's UUID, and one nothing has, are no series.
        #expect(try measurements(of: steps.uuid, batch: 100) == nil)
        #expect(try measurements(of: series.uuid, batch: 100) == nil)
        #expect(try heartbeats(of: ecg.uuid, batch: 100) == nil)
        #expect(try measurements(of: UUID(), batch: 100) == nil)
    }

    @Test func deletingASampleDeletesItsDetailsAndSeries() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (4, 4, 4, 4))
        let samples: [Sample] = [
            .stateOfMind(RandomModel.stateOfMind(&rng)), .gad7Assessment(RandomModel.gad7(&rng)),
            .phq9Assessment(RandomModel.phq9(&rng)),
            .electrocardiogram(RandomModel.electrocardiogram(&rng, count: 3000)),
            .audiogram(RandomModel.audiogram(&rng)), .heartbeatSeries(RandomModel.heartbeatSeries(&rng)),
        ]
        try store.save(samples)
        let tables = [
            "states_of_mind", "scored_assessments", "electrocardiograms", "audiograms", "heartbeat_series",
            "series_chunks",
        ]
        func rows() throws -> [Int64] {
            try store.database.read { db in try tables.map { try db.scalarInt("SELECT count(*) FROM \($0)") ?? -1 } }
        }
        #expect(try rows() == [1, 2, 1, 1, 1, 4])
        #expect(try store.delete(uuids: samples.map(\.uuid), scope: .owner) == 6)
        #expect(try rows() == [0, 0, 0, 0, 0, 0])
        // Each left a tombstone under its own type.
        let tombstones = try store.database.read {
            try $0.rows("SELECT t.identifier FROM tombstones b JOIN types t ON t.code = b.type").compactMap {
                $0[0].string
            }
        }
        #expect(Set(tombstones) == Set(samples.map(\.sampleType.identifier)))
    }

    @Test func aSeriesWithoutItsPointsIsRefusedAndNothingIsSaved() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (9, 9, 9, 9))
        let good = Sample.stateOfMind(RandomModel.stateOfMind(&rng))
        let bare = Sample.electrocardiogram(RandomModel.electrocardiogram(&rng)).withoutSeriesData
        let error = #expect(throws: HealthError.self) { try store.save([good, bare]) }
        #expect(error?.field == "objects[1].voltageMeasurements")
        let beatless = Sample.heartbeatSeries(RandomModel.heartbeatSeries(&rng)).withoutSeriesData
        #expect(#expect(throws: HealthError.self) { try store.save([beatless]) }?.field == "objects[0].heartbeats")
        #expect(try store.sample(uuid: good.uuid, scope: .owner) == nil)
    }

    @Test func aSchemaSevenVaultMigratesKeepingItsSamplesAndThenStoresTheNewKinds() throws {
        let older = try OlderSchemaDatabase(version: 7)
        let database = older.database
        let old = SampleStore(database: database)
        let steps = Sample.quantity(try Fixtures.quantity())
        try old.saveAsBeforeSchema17([steps])
        try Schema.migrate(database)
        #expect(try Schema.version(of: database) >= 8)
        let store = SampleStore(database: database)
        #expect(try store.sample(uuid: steps.uuid, scope: .owner) == steps)
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (7, 7, 7, 7))
        let ecg = Sample.electrocardiogram(RandomModel.electrocardiogram(&rng))
        try store.save([ecg])
        #expect(try store.sample(uuid: ecg.uuid, scope: .owner) == ecg.withoutSeriesData)
    }
}
