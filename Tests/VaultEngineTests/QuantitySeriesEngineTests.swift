import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// The quantity series through the engine: the builder (HealthKit's
/// `HKQuantitySeriesSampleBuilder`), its limits and refusals, the series query under the read
/// rules, and statistics over a series sample.
@Suite struct QuantitySeriesEngineTests {
    static let app = "org.example.strap"
    static let other = "org.example.other"
    static let heartRateID = QuantityTypeIdentifier.heartRate.rawValue
    static let bpm = HealthUnit.countPerMinute

    /// A vault where `app` and `other` may share heart rate and steps.
    func vault() async throws -> TestEngine {
        let test = try TestEngine()
        for appID in [Self.app, Self.other] {
            try await test.enroll(appID)
            try await test.grant(.share, .quantity(.heartRate), .quantity(.stepCount), to: appID)
        }
        return test
    }

    func lastEntry(_ test: TestEngine) throws -> (String, [String], UInt64, AuditEntry.Outcome)? {
        try test.auditEntries().last.map { ($0.operation.rawValue, $0.types, $0.objectCount, $0.outcome) }
    }

    static func at(_ seconds: Double) -> Date { Fixtures.start.addingTimeInterval(seconds) }

    @Test func theBuilderSavesOneDiscreteSampleWithItsAverageAndExtremes() async throws {
        let test = try await vault()
        let engine = test.engine
        let app = Caller.app(Self.app)
        let connection = UUID()
        let builder = try await engine.beginQuantitySeries(
            type: .heartRate,
            start: Fixtures.start,
            device: Device(name: "Strap"),
            as: app,
            connection: connection
        )
        let entries = try test.auditEntries().count
        // Out of order, instants and intervals; a quantity at a start already given replaces it.
        #expect(
            try engine.insertQuantities(
                [
                    .init(quantity: Quantity(80, Self.bpm), at: Self.at(20)),
                    .init(
                        quantity: Quantity(1, .countPerSecond),
                        dateInterval: DateInterval(start: Self.at(0), duration: 5)
                    ),
                    .init(quantity: Quantity(999, Self.bpm), at: Self.at(10)),
                ],
                into: builder,
                as: app,
                connection: connection
            ) == 3
        )
        #expect(
            try engine.insertQuantities(
                [.init(quantity: Quantity(70, Self.bpm), at: Self.at(10))],
                into: builder,
                as: app,
                connection: connection
            ) == 3
        )
        // Nothing is stored or recorded before the finish.
        #expect(try test.sampleCount() == 0)
        #expect(try test.auditEntries().count == entries)
        // Another connection, and another app, do not reach it: as an unknown builder.
        let elsewhere = healthError { try engine.discardQuantitySeries(builder, as: app, connection: UUID()) }
        #expect(elsewhere?.field == "builder")
        #expect(
            healthError { try engine.discardQuantitySeries(builder, as: .app(Self.other), connection: connection) }
                == elsewhere
        )

        let saved = try await engine.finishQuantitySeries(
            builder,
            metadata: ["org.example.session": .string("run")],
            as: app,
            connection: connection,
            requestID: "f"
        )
        #expect(saved.count == 1)
        let sample = try #require(saved.first)
        #expect(sample.count == 3)
        #expect(sample.seriesQuantities == nil)
        // Kept in the first quantity's unit: 60, 70 and 80 beats per minute.
        #expect(sample.quantity.unit == Self.bpm)
        #expect(abs(try sample.quantity.doubleValue(for: Self.bpm) - 70) < 1e-9)
        #expect(abs(try sample.minimumQuantity!.doubleValue(for: Self.bpm) - 60) < 1e-9)
        #expect(abs(try sample.maximumQuantity!.doubleValue(for: Self.bpm) - 80) < 1e-9)
        #expect(abs(try sample.mostRecentQuantity!.doubleValue(for: Self.bpm) - 80) < 1e-9)
        #expect(sample.mostRecentQuantityDateInterval == DateInterval(start: Self.at(20), duration: 0))
        #expect(sample.sumQuantity == nil)
        #expect(sample.startDate == Fixtures.start)
        #expect(sample.endDate == Self.at(20))
        #expect(sample.device == Device(name: "Strap"))
        #expect(sample.sourceRevision.source.bundleIdentifier == Self.app)
        #expect(try lastEntry(test)! == ("save", [Self.heartRateID], 1, .ok))
        // Read back as it was answered, and its quantities in order of their start dates.
        #expect(try await engine.sample(uuid: sample.uuid, as: app) == .quantity(sample))
        let batch = try #require(try await engine.seriesQuantities(of: sample.uuid, type: .heartRate, as: app))
        #expect(batch.next == nil)
        #expect(batch.points.map(\.dateInterval.start) == [Self.at(0), Self.at(10), Self.at(20)])
        #expect(batch.points[0].dateInterval.duration == 5)
        #expect(try batch.points.map { try $0.quantity.doubleValue(for: Self.bpm).rounded() } == [60, 70, 80])
        // (Its own: the app reads without the read grant, so only its own samples.)
        #expect(try lastEntry(test)! == ("query.quantity-series", [Self.heartRateID], 1, .deniedServedEmpty))
        // The builder is gone.
        let again = await healthError {
            _ = try await engine.finishQuantitySeries(builder, as: app, connection: connection)
        }
        #expect(again?.field == "builder")
    }

    @Test func aCumulativeSeriesIsItsSumAndEndsWhereAsked() async throws {
        let test = try await vault()
        let engine = test.engine
        let app = Caller.app(Self.app)
        let builder = try await engine.beginQuantitySeries(type: .stepCount, start: Fixtures.start, as: app)
        try engine.insertQuantities(
            (0..<2500).map {
                .init(
                    quantity: Quantity(Double($0 % 7), .count),
                    dateInterval: DateInterval(start: Self.at(Double($0) * 60), duration: 60)
                )
            },
            into: builder,
            as: app
        )
        // An end before a quantity's end is refused, and the builder is done.
        let early = await healthError {
            _ = try await engine.finishQuantitySeries(builder, endDate: Self.at(60), as: app)
        }
        #expect(early?.field == "endDate")
        #expect(try test.sampleCount() == 0)

        let again = try await engine.beginQuantitySeries(type: .stepCount, start: Fixtures.start, as: app)
        let values = (0..<2500).map { Double($0 % 7) }
        try engine.insertQuantities(
            values.enumerated().map {
                .init(
                    quantity: Quantity($1, .count),
                    dateInterval: DateInterval(start: Self.at(Double($0) * 60), duration: 60)
                )
            },
            into: again,
            as: app
        )
        let end = Self.at(2500 * 60 + 600)
        let sample = try #require(try await engine.finishQuantitySeries(again, endDate: end, as: app).first)
        #expect(sample.count == 2500)
        #expect(sample.quantity == Quantity(values.reduce(0, +), .count))
        #expect(sample.sumQuantity == sample.quantity)
        #expect(sample.minimumQuantity == nil && sample.discreteSummary == nil)
        #expect(sample.endDate == end)
        // Read in batches (three chunks of 1,024 hold it); the owner reads it too.
        var read: [Double] = []
        var offset: Int? = 0
        while let from = offset {
            let batch = try #require(
                try await engine.seriesQuantities(
                    of: sample.uuid,
                    type: .stepCount,
                    offset: from,
                    limit: 700,
                    as: .owner
                )
            )
            read += batch.points.map(\.quantity.value)
            offset = batch.next
        }
        #expect(read == values)
        let tail = try await engine.seriesQuantities(of: sample.uuid, type: .stepCount, offset: 2400, as: app)
        #expect(tail?.points.count == 100)
        #expect(tail?.points.first?.dateInterval == DateInterval(start: Self.at(2400 * 60), duration: 60))
        // Deleted: gone with its quantities.
        try await engine.delete([sample.uuid], as: app)
        #expect(try await engine.seriesQuantities(of: sample.uuid, type: .stepCount, as: app) == nil)
        #expect(
            try test.vault.db().read { try $0.scalarInt("SELECT count(*) FROM quantity_series_chunks") } == 0
        )
    }

    @Test func theBuilderRefusesWhatHealthKitRefuses() async throws {
        let test = try await vault()
        let engine = test.engine
        // Without the share grant for the type: refused at the start, recorded as a denied save.
        let denied = await healthError {
            _ = try await engine.beginQuantitySeries(
                type: .bodyMass,
                start: Fixtures.start,
                as: .app(Self.app),
                requestID: "d"
            )
        }
        #expect(denied?.code == .authorizationDenied)
        #expect(try lastEntry(test)! == ("save", [QuantityTypeIdentifier.bodyMass.rawValue], 0, .denied))
        // The owner builds nothing.
        #expect(
            await healthError {
                _ = try await engine.beginQuantitySeries(type: .heartRate, start: Fixtures.start, as: .owner)
            }?
            .code == .invalidArgument
        )

        let app = Caller.app(Self.app)
        let builder = try await engine.beginQuantitySeries(type: .heartRate, start: Fixtures.start, as: app)
        func refusal(_ quantities: [QuantitySample.SeriesQuantity]) -> HealthError? {
            healthError { try engine.insertQuantities(quantities, into: builder, as: app) }
        }
        // Before the series' start, a unit of another dimension, a value outside the range: refused
        // whole, naming the field and never the value.
        let before = refusal([
            .init(quantity: Quantity(60, Self.bpm), at: Self.at(1)),
            .init(quantity: Quantity(61, Self.bpm), at: Self.at(-1)),
        ])
        #expect(before?.field == "quantities[1].startDate")
        #expect(
            refusal([.init(quantity: Quantity(60, .count), at: Self.at(1))])?.field == "quantities[0].quantity.unit"
        )
        let negative = refusal([.init(quantity: Quantity(-123.456, Self.bpm), at: Self.at(1))])
        #expect(negative?.field == "quantities[0].quantity.value")
        #expect(negative?.message.contains("123.456") == false)
        // At most 10,000 an insert and 50,000 a series.
        let big = (0..<10_001).map {
            QuantitySample.SeriesQuantity(quantity: Quantity(60, Self.bpm), at: Self.at(Double($0)))
        }
        #expect(refusal(big)?.code == .dataSizeExceeded)
        for piece in 0..<5 {
            try engine.insertQuantities(
                (0..<10_000).map { .init(quantity: Quantity(60, Self.bpm), at: Self.at(Double(piece * 10_000 + $0))) },
                into: builder,
                as: app
            )
        }
        // Replacing stays within the limit; one more does not.
        #expect(
            try engine.insertQuantities(
                [.init(quantity: Quantity(61, Self.bpm), at: Self.at(0))],
                into: builder,
                as: app
            ) == 50_000
        )
        let over = refusal([.init(quantity: Quantity(60, Self.bpm), at: Self.at(60_000))])
        #expect(over?.code == .dataSizeExceeded)
        #expect(over?.field == "quantities")
        // An insert of nothing says so, as a route's does.
        #expect(refusal([])?.field == "quantities")
        // Discarded: nothing saved, and the builder is gone.
        try engine.discardQuantitySeries(builder, as: app)
        #expect(refusal([])?.field == "builder")
        #expect(try test.sampleCount() == 0)
        // No quantity: nothing is saved.
        let empty = try await engine.beginQuantitySeries(type: .heartRate, start: Fixtures.start, as: app)
        #expect(await healthError { _ = try await engine.finishQuantitySeries(empty, as: app) }?.field == "builder")
        // Revoked meanwhile: the finish is refused as any save would be.
        let revoked = try await engine.beginQuantitySeries(type: .heartRate, start: Fixtures.start, as: app)
        try engine.insertQuantities([.init(quantity: Quantity(60, Self.bpm), at: Self.at(1))], into: revoked, as: app)
        try await engine.decide(.revoke, .share, of: [.quantity(.heartRate)], for: Self.app)
        #expect(
            await healthError { _ = try await engine.finishQuantitySeries(revoked, as: app) }?.code
                == .authorizationDenied
        )
        #expect(try lastEntry(test)! == ("save", [Self.heartRateID], 0, .denied))
        try await test.grant(.share, .quantity(.heartRate), to: Self.app)
        // At most 8 open per app, whatever the connection; a closed connection's are dropped.
        let connection = UUID()
        for index in 0..<8 {
            _ = try await engine.beginQuantitySeries(
                type: .heartRate,
                start: Fixtures.start,
                as: app,
                connection: index < 4 ? connection : UUID()
            )
        }
        let ninth = await healthError {
            _ = try await engine.beginQuantitySeries(
                type: .heartRate,
                start: Fixtures.start,
                as: app,
                connection: UUID()
            )
        }
        #expect(ninth?.code == .dataSizeExceeded)
        // Another app has room of its own.
        _ = try await engine.beginQuantitySeries(type: .heartRate, start: Fixtures.start, as: .app(Self.other))
        engine.discardQuantitySeriesBuilders(connection: connection)
        _ = try await engine.beginQuantitySeries(type: .heartRate, start: Fixtures.start, as: app)
    }

    @Test func aSeriesTheAppMayNotReadLooksLikeNoSample() async throws {
        let test = try await vault()
        let engine = test.engine
        let other = Caller.app(Self.other)
        let builder = try await engine.beginQuantitySeries(type: .heartRate, start: Fixtures.start, as: other)
        try engine.insertQuantities(
            (0..<10).map { .init(quantity: Quantity(Double(60 + $0), Self.bpm), at: Self.at(Double($0))) },
            into: builder,
            as: other
        )
        let series = try #require(try await engine.finishQuantitySeries(builder, as: other).first)
        let single = try Fixtures.quantity(.heartRate, 65, Self.bpm)
        try await engine.save([.quantity(single)], as: other)
        let app = Caller.app(Self.app)

        // Without the read grant: the same answer as an unknown UUID, recorded as served empty.
        let hidden = try await engine.seriesQuantities(of: series.uuid, type: .heartRate, as: app, requestID: "h")
        let unknown = try await engine.seriesQuantities(of: UUID(), type: .heartRate, as: app)
        #expect(hidden == nil && unknown == nil)
        #expect(try lastEntry(test)! == ("query.quantity-series", [Self.heartRateID], 0, .deniedServedEmpty))
        // Another type's UUID: nil too.
        #expect(try await engine.seriesQuantities(of: series.uuid, type: .stepCount, as: .owner) == nil)
        // With it: the series' quantities, and a single sample's one quantity over its span.
        try await test.grant(.read, .quantity(.heartRate), to: Self.app)
        #expect(try await engine.seriesQuantities(of: series.uuid, type: .heartRate, as: app)?.points.count == 10)
        let one = try await engine.seriesQuantities(of: single.uuid, type: .heartRate, as: app)
        #expect(
            one?.points == [
                .init(
                    quantity: single.quantity,
                    dateInterval: DateInterval(start: single.startDate, end: single.endDate)
                )
            ]
        )
        #expect(one?.next == nil)
        #expect(try await engine.seriesQuantities(of: single.uuid, type: .heartRate, offset: 1, as: app)?.points == [])
        // A bad batch is refused naming the field.
        let limit = await healthError {
            _ = try await engine.seriesQuantities(of: series.uuid, type: .heartRate, limit: 10_001, as: app)
        }
        #expect(limit?.field == "limit")
        #expect(try lastEntry(test)! == ("query.quantity-series", [Self.heartRateID], 0, .error))
    }

    @Test func aSaveCannotClaimASeries() async throws {
        let test = try await vault()
        let sample = try Fixtures.quantity(.heartRate, 70, Self.bpm)
            .series(
                count: 3,
                discreteSummary: .init(
                    minimum: Quantity(60, Self.bpm),
                    maximum: Quantity(80, Self.bpm),
                    mostRecent: Quantity(80, Self.bpm),
                    mostRecentDateInterval: DateInterval(start: Fixtures.start, duration: 0)
                )
            )
        let refused = await healthError { try await test.engine.save([.quantity(sample)], as: .app(Self.app)) }
        #expect(refused?.field == "objects[0].count")
        #expect(try test.sampleCount() == 0)
    }

    /// docs/STATISTICS.md, "Quantity series": a series counts as one sample of its sum (cumulative)
    /// or average (discrete) over its span, its minimum and maximum being its quantities'.
    @Test func statisticsCountASeriesAsOneSampleOfItsSumOrAverage() async throws {
        let test = try await vault()
        let engine = test.engine
        let app = Caller.app(Self.app)
        let values: [Double] = [60, 90, 75, 100]
        // The series from 08:00 to 08:04, and the same values as four one-minute samples on the
        // next day, by another app.
        let hr = try await engine.beginQuantitySeries(type: .heartRate, start: Fixtures.start, as: app)
        try engine.insertQuantities(
            values.enumerated().map {
                .init(
                    quantity: Quantity($1, Self.bpm),
                    dateInterval: DateInterval(start: Self.at(Double($0) * 60), duration: 60)
                )
            },
            into: hr,
            as: app
        )
        _ = try await engine.finishQuantitySeries(hr, as: app)
        let steps = try await engine.beginQuantitySeries(type: .stepCount, start: Fixtures.start, as: app)
        try engine.insertQuantities(
            values.enumerated().map {
                .init(
                    quantity: Quantity($1, .count),
                    dateInterval: DateInterval(start: Self.at(Double($0) * 60), duration: 60)
                )
            },
            into: steps,
            as: app
        )
        _ = try await engine.finishQuantitySeries(steps, as: app)
        let day = 86_400.0
        var singles: [Sample] = []
        for (index, value) in values.enumerated() {
            let start = Self.at(day + Double(index) * 60)
            singles.append(
                .quantity(
                    try Fixtures.quantity(.heartRate, value, Self.bpm, start: start, end: start.addingTimeInterval(60))
                )
            )
            singles.append(
                .quantity(
                    try Fixtures.quantity(.stepCount, value, .count, start: start, end: start.addingTimeInterval(60))
                )
            )
        }
        try await engine.save(singles, as: .app(Self.other))

        func statistics(
            _ type: QuantityTypeIdentifier,
            _ options: StatisticsOptions,
            day offset: Double
        ) async throws -> Statistics? {
            try await engine.statistics(
                matching: StatisticsQueryDescriptor(
                    quantityType: type,
                    predicate: .date(start: Self.at(offset * day), end: Self.at((offset + 1) * day), options: []),
                    options: options
                ),
                as: .owner
            )
        }
        // Cumulative: the same sum.
        let seriesSum = try await statistics(.stepCount, .cumulativeSum, day: 0)?.sumQuantity()
        let singlesSum = try await statistics(.stepCount, .cumulativeSum, day: 1)?.sumQuantity()
        #expect(seriesSum == Quantity(325, .count))
        #expect(seriesSum == singlesSum)
        // Discrete: the same minimum and maximum, and the average of the series (81.25), alone or
        // weighted with other samples as one sample of it over its span.
        let options: StatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
        let series = try #require(try await statistics(.heartRate, options, day: 0))
        let separate = try #require(try await statistics(.heartRate, options, day: 1))
        #expect(try series.minimumQuantity()?.doubleValue(for: Self.bpm) == 60)
        #expect(try series.maximumQuantity()?.doubleValue(for: Self.bpm) == 100)
        #expect(series.minimumQuantity() == separate.minimumQuantity())
        #expect(series.maximumQuantity() == separate.maximumQuantity())
        #expect(abs(try series.averageQuantity()!.doubleValue(for: Self.bpm) - 81.25) < 1e-9)
        #expect(abs(try separate.averageQuantity()!.doubleValue(for: Self.bpm) - 81.25) < 1e-9)
        // The most recent of a series is the series' sample: its average (a deviation, documented).
        #expect(abs(try series.mostRecentQuantity()!.doubleValue(for: Self.bpm) - 81.25) < 1e-9)
        #expect(try separate.mostRecentQuantity()?.doubleValue(for: Self.bpm) == 100)
    }
}
