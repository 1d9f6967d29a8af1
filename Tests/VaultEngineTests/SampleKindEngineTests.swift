import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultEngine
import VaultStore

/// The kinds of issue 19 through the engine: grants, scope, audit entries, observers, the series
/// queries and the heartbeat series builder.
@Suite struct SampleKindEngineTests {
    static let app = "org.example.heart"
    static let other = "org.example.other"
    static let seriesID = "HKDataTypeIdentifierHeartbeatSeries"
    static let ecgID = "HKDataTypeIdentifierElectrocardiogram"

    /// A vault where `app` and `other` may share every kind of issue 19.
    func vault() async throws -> TestEngine {
        let test = try TestEngine()
        for appID in [Self.app, Self.other] {
            try await test.enroll(appID)
            try await test.engine.decide(
                .grant,
                .share,
                of: Set(DenialLooksEmptyTests.kindTypes.map(ObjectType.init)),
                for: appID
            )
        }
        return test
    }

    /// The last audit entry, as (operation, types, count, outcome).
    func lastEntry(_ test: TestEngine) throws -> (String, [String], UInt64, AuditEntry.Outcome)? {
        try test.auditEntries().last.map { ($0.operation.rawValue, $0.types, $0.objectCount, $0.outcome) }
    }

    @Test func eachKindIsSavedQueriedAndAnnouncedUnderItsOwnGrant() async throws {
        let test = try await vault()
        let engine = test.engine
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (3, 3, 3, 3))
        let observation = try await engine.observe(Set(DenialLooksEmptyTests.kindTypes), as: .app(Self.app))
        var updates = observation.updates.makeAsyncIterator()
        for _ in 0..<12 {
            let sample = RandomModel.sampleOfAnotherKind(&rng)
            try await engine.save([sample], as: .app(Self.other), requestID: "s")
            #expect(try lastEntry(test)! == ("save", [sample.sampleType.identifier], 1, .ok))
            // Without the read grant, another app's sample is neither shown nor announced.
            let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(sample.sampleType)])
            #expect(try await engine.samples(matching: query, as: .app(Self.app)).isEmpty)
            #expect(try lastEntry(test)! == ("query.sample", [sample.sampleType.identifier], 0, .deniedServedEmpty))
            // With it, the sample is found and the change announced; always without series data.
            try await engine.decide(.grant, .read, of: [ObjectType(sample.sampleType)], for: Self.app)
            // (The vault stamped the saving app's identity on it.)
            let found = try await engine.samples(matching: query, as: .app(Self.app)).first { $0.uuid == sample.uuid }
            #expect(found?.sourceRevision.source.bundleIdentifier == Self.other)
            #expect(found?.attributed(to: sample.sourceRevision) == sample.withoutSeriesData)
            #expect(try await engine.sample(uuid: sample.uuid, as: .app(Self.app)) == found)
            var next = RandomModel.sampleOfAnotherKind(&rng)
            while next.sampleType != sample.sampleType { next = RandomModel.sampleOfAnotherKind(&rng) }
            try await engine.save([next], as: .app(Self.other))
            #expect(await updates.next()?.types == [sample.sampleType])
            try await engine.decide(.revoke, .read, of: [ObjectType(sample.sampleType)], for: Self.app)
        }
    }

    @Test func seriesQueriesAreScopedAuditedAndBatched() async throws {
        let test = try await vault()
        let engine = test.engine
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (5, 6, 7, 8))
        let ecg = RandomModel.electrocardiogram(&rng, count: 15_360)
        let series = RandomModel.heartbeatSeries(&rng, count: 1000)
        try await engine.save([.electrocardiogram(ecg), .heartbeatSeries(series)], as: .app(Self.other))

        // Another app's, without the read grant: as an unknown UUID, recorded as served empty.
        #expect(try await engine.voltageMeasurements(of: ecg.uuid, as: .app(Self.app), requestID: "q") == nil)
        #expect(try lastEntry(test)! == ("query.electrocardiogram", [Self.ecgID], 0, .deniedServedEmpty))
        #expect(try await engine.heartbeats(of: series.uuid, as: .app(Self.app)) == nil)
        #expect(try lastEntry(test)! == ("query.heartbeat-series", [Self.seriesID], 0, .deniedServedEmpty))

        // Its own, and the owner: in batches of at most 10,000 measurements, 1,000 beats.
        var read: [Electrocardiogram.VoltageMeasurement] = []
        var offset: Int? = 0
        while let from = offset {
            let batch = try #require(
                try await engine.voltageMeasurements(of: ecg.uuid, offset: from, as: .app(Self.other))
            )
            #expect(batch.points.count <= ElectrocardiogramQueryDescriptor.maximumBatchSize)
            #expect(try lastEntry(test)! == ("query.electrocardiogram", [Self.ecgID], 1, .deniedServedEmpty))
            read += batch.points
            offset = batch.next
        }
        #expect(read == ecg.voltageMeasurements)
        let beats = try await engine.heartbeats(of: series.uuid, limit: 300, as: .owner)
        #expect(beats?.points == Array(series.heartbeats!.prefix(300)))
        #expect(beats?.next == 300)
        #expect(try lastEntry(test)! == ("query.heartbeat-series", [Self.seriesID], 1, .ok))

        // Granted: another app's too.
        try await engine.decide(.grant, .read, of: [.electrocardiogram], for: Self.app)
        let granted = try await engine.voltageMeasurements(of: ecg.uuid, offset: 15_000, as: .app(Self.app))
        #expect(granted?.points == Array(ecg.voltageMeasurements![15_000...]))
        #expect(granted?.next == nil)
        #expect(try lastEntry(test)! == ("query.electrocardiogram", [Self.ecgID], 1, .ok))

        // A bad batch is refused naming the field, and recorded as an error.
        let negative = await healthError {
            _ = try await engine.voltageMeasurements(of: ecg.uuid, offset: -1, as: .app(Self.app))
        }
        #expect(negative?.field == "offset")
        #expect(try lastEntry(test)! == ("query.electrocardiogram", [Self.ecgID], 0, .error))
        let large = await healthError { _ = try await engine.heartbeats(of: series.uuid, limit: 1001, as: .owner) }
        #expect(large?.field == "limit")
    }

    @Test func theHeartbeatSeriesBuilderSavesOneSampleAtItsFinish() async throws {
        let test = try await vault()
        let engine = test.engine
        let app = Caller.app(Self.app)
        let connection = UUID()
        let start = Fixtures.start
        let builder = try await engine.beginHeartbeatSeries(
            start: start,
            device: Device(name: "Strap"),
            as: app,
            connection: connection,
            requestID: "b1"
        )
        // Nothing is stored or recorded until the finish.
        let entries = try test.auditEntries().count
        #expect(
            try engine.addHeartbeats([.init(timeSinceSeriesStart: 0.5)], to: builder, as: app, connection: connection)
                == 1
        )
        #expect(
            try engine.addHeartbeats(
                (2...400).map { .init(timeSinceSeriesStart: Double($0) * 0.75, precededByGap: $0 == 100) },
                to: builder,
                as: app,
                connection: connection
            ) == 400
        )
        // A piece out of order, or before the last beat, is refused whole.
        let unordered = healthError {
            try engine.addHeartbeats(
                [.init(timeSinceSeriesStart: 400), .init(timeSinceSeriesStart: 300)],
                to: builder,
                as: app,
                connection: connection
            )
        }
        #expect(unordered?.field == "heartbeats[1].timeSinceSeriesStart")
        let early = healthError {
            try engine.addHeartbeats([.init(timeSinceSeriesStart: 1)], to: builder, as: app, connection: connection)
        }
        #expect(early?.field == "heartbeats[0].timeSinceSeriesStart")
        try engine.addMetadata([.heartRateSensorLocation: .number(1)], to: builder, as: app, connection: connection)
        try engine.addMetadata(["org.example.strap": .string("v2")], to: builder, as: app, connection: connection)
        let badMetadata = healthError {
            try engine.addMetadata(
                [.heartRateSensorLocation: .string("chest")],
                to: builder,
                as: app,
                connection: connection
            )
        }
        #expect(badMetadata?.field == "metadata.HKHeartRateSensorLocation")
        // Metadata that grows past its cap, a call at a time, is refused whole; what came before
        // stays.
        let large = String(repeating: "x", count: HeartbeatSeriesSample.maximumBuilderMetadataBytes / 2)
        try engine.addMetadata(["org.example.first": .string(large)], to: builder, as: app, connection: connection)
        let tooLarge = healthError {
            try engine.addMetadata(["org.example.second": .string(large)], to: builder, as: app, connection: connection)
        }
        #expect(tooLarge?.code == .dataSizeExceeded && tooLarge?.field == "metadata")
        #expect(tooLarge?.message == "a heartbeat series builder's metadata holds at most 65536 bytes of JSON")
        try engine.addMetadata(["org.example.first": .string("")], to: builder, as: app, connection: connection)
        // Another connection, and another app, do not reach it: as an unknown builder.
        let elsewhere = healthError { try engine.discardHeartbeatSeries(builder, as: app, connection: UUID()) }
        #expect(elsewhere?.field == "builder")
        #expect(
            healthError { try engine.discardHeartbeatSeries(builder, as: .app(Self.other), connection: connection) }
                == elsewhere
        )
        #expect(try test.auditEntries().count == entries)

        let saved = try await engine.finishHeartbeatSeries(builder, as: app, connection: connection, requestID: "b9")
        #expect(saved.count == 400)
        #expect(saved.heartbeats == nil)
        #expect(saved.startDate == start)
        #expect(saved.endDate == start.addingTimeInterval(300))
        #expect(saved.device == Device(name: "Strap"))
        #expect(saved.metadata.count == 3)
        #expect(saved.metadata["org.example.second"] == nil)
        #expect(saved.sourceRevision.source.bundleIdentifier == Self.app)
        #expect(try lastEntry(test)! == ("save", [Self.seriesID], 1, .ok))
        #expect(try await engine.sample(uuid: saved.uuid, as: app) == .heartbeatSeries(saved))
        let beats = try await engine.heartbeats(of: saved.uuid, as: app)
        #expect(beats?.points.count == 400)
        #expect(beats?.points[99] == .init(timeSinceSeriesStart: 75, precededByGap: true))
        // The builder is gone.
        let again = await healthError {
            _ = try await engine.finishHeartbeatSeries(builder, as: app, connection: connection)
        }
        #expect(again?.field == "builder")
    }

    @Test func theBuilderRefusesWhatHealthKitRefuses() async throws {
        let test = try await vault()
        let engine = test.engine
        let connection = UUID()
        // Without the share grant: refused at the start, recorded as a denied save.
        try await test.enroll("org.example.nogrant")
        let denied = await healthError {
            _ = try await engine.beginHeartbeatSeries(
                start: Fixtures.start,
                as: .app("org.example.nogrant"),
                requestID: "d"
            )
        }
        #expect(denied?.code == .authorizationDenied)
        #expect(try lastEntry(test)! == ("save", [Self.seriesID], 0, .denied))
        // The owner builds nothing.
        #expect(
            await healthError { _ = try await engine.beginHeartbeatSeries(start: Fixtures.start, as: .owner) }?.code
                == .invalidArgument
        )

        let app = Caller.app(Self.app)
        // No beats: nothing is saved, and the builder is done.
        let empty = try await engine.beginHeartbeatSeries(start: Fixtures.start, as: app, connection: connection)
        let nothing = await healthError {
            _ = try await engine.finishHeartbeatSeries(empty, as: app, connection: connection)
        }
        #expect(nothing?.field == "builder")
        #expect(try test.sampleCount() == 0)
        // At most 1,000 beats.
        let full = try await engine.beginHeartbeatSeries(start: Fixtures.start, as: app, connection: connection)
        try engine.addHeartbeats(
            (0..<1000).map { .init(timeSinceSeriesStart: Double($0)) },
            to: full,
            as: app,
            connection: connection
        )
        let over = healthError {
            try engine.addHeartbeats([.init(timeSinceSeriesStart: 5000)], to: full, as: app, connection: connection)
        }
        #expect(over?.field == "heartbeats")
        // Revoked meanwhile: the finish is refused as any save would be, and the builder is done.
        try await engine.decide(.revoke, .share, of: [.heartbeatSeries], for: Self.app)
        #expect(
            await healthError { _ = try await engine.finishHeartbeatSeries(full, as: app, connection: connection) }?
                .code
                == .authorizationDenied
        )
        #expect(try lastEntry(test)! == ("save", [Self.seriesID], 0, .denied))
        try await engine.decide(.grant, .share, of: [.heartbeatSeries], for: Self.app)
        // At most 16 open on one connection; another connection has room of its own; a closed
        // connection's builders are dropped.
        let open = try await (0..<16).asyncMap { _ in
            try await engine.beginHeartbeatSeries(start: Fixtures.start, as: app, connection: connection)
        }
        let seventeenth = await healthError {
            _ = try await engine.beginHeartbeatSeries(start: Fixtures.start, as: app, connection: connection)
        }
        #expect(seventeenth?.code == .dataSizeExceeded)
        _ = try await engine.beginHeartbeatSeries(start: Fixtures.start, as: app, connection: UUID())
        engine.discardHeartbeatSeriesBuilders(connection: connection)
        #expect(
            healthError { try engine.discardHeartbeatSeries(open[0], as: app, connection: connection) }?.field
                == "builder"
        )
        _ = try await engine.beginHeartbeatSeries(start: Fixtures.start, as: app, connection: connection)
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
