import Foundation
import HealthModel
import HealthModelTestSupport
import HealthVaultKit
import Testing
import VaultClient
import VaultProtocol

extension DaemonEndToEnd {
    /// Quantity series through the real daemon and HealthVaultKit: the builder
    /// (`QuantitySeriesSampleBuilder`), the series query in both orders, a series another app may
    /// not read answered as none, and bad input refused with its field.
    @Suite struct DaemonQuantitySeriesTests {
        static let app = "org.example.strap"
        static let coach = "org.example.coach"
        static let types: [SampleType] = [.quantity(.heartRate), .quantity(.stepCount)]
        static let bpm = HealthUnit.countPerMinute

        /// A daemon with `app` sharing and reading heart rate and steps, and `coach` enrolled to
        /// read them but not granted.
        func daemon() async throws -> TestDaemon {
            let daemon = try TestDaemon()
            try await daemon.enroll(Self.app, read: Self.types.map(ObjectType.init), share: Self.types)
            try await daemon.decide("grant", ["read", "share"], Self.types.map(ObjectType.init), for: Self.app)
            try await daemon.enroll(Self.coach, read: Self.types.map(ObjectType.init), share: [])
            return daemon
        }

        static func at(_ seconds: Double) -> Date { Fixtures.start.addingTimeInterval(seconds) }

        @Test func aSeriesIsBuiltOverTheSocketAndReadBackInOrder() async throws {
            let daemon = try await daemon()
            let store = try await daemon.store(Self.app)
            let strap = Device(name: "Chest strap")
            let builder = QuantitySeriesSampleBuilder(
                healthStore: store,
                quantityType: .heartRate,
                startDate: Fixtures.start,
                device: strap
            )
            try await builder.insert(Quantity(60, Self.bpm), at: Self.at(0))
            try await builder.insert(Quantity(61, Self.bpm), for: DateInterval(start: Self.at(1), duration: 1))
            // 12,000 at 1 Hz more: two batches of the series query.
            let values = (2..<12_002).map { Double(60 + $0 % 40) }
            let entries = values.enumerated().map {
                QuantitySample.SeriesQuantity(quantity: Quantity($1, Self.bpm), at: Self.at(Double($0 + 2)))
            }
            // At most 10,000 a call.
            await #expect(throws: HealthError.self) { try await builder.insert(contentsOf: entries) }
            try await builder.insert(contentsOf: Array(entries.prefix(6000)))
            #expect(try await builder.insert(contentsOf: Array(entries.dropFirst(6000))) == 12_002)
            // Before the start: refused with its field; what was inserted stays.
            do {
                try await builder.insert(Quantity(60, Self.bpm), at: Self.at(-5))
                Issue.record("a quantity before the series' start was inserted")
            } catch let error as HealthError {
                #expect(error.code == .invalidArgument)
                #expect(error.field == "quantities[0].startDate")
            }
            let saved = try await builder.finishSeries(metadata: ["org.example.session": .string("morning")])
            let series = try #require(saved.first)
            #expect(saved.count == 1)
            #expect(series.count == 12_002)
            #expect(series.device == strap)
            #expect(series.endDate == Self.at(12_001))
            #expect(series.minimumQuantity == Quantity(60, Self.bpm))
            #expect(series.maximumQuantity == Quantity(99, Self.bpm))
            #expect(series.sourceRevision.source.bundleIdentifier == Self.app)
            await #expect(throws: HealthError.self) { try await builder.insert(Quantity(60, Self.bpm), at: Self.at(1)) }
            // One ordinary sample in the middle of the series.
            let single = try Fixtures.quantity(.heartRate, 150, Self.bpm, start: Self.at(5.5), end: Self.at(6.5))
            try await store.save(.quantity(single))

            // By default every quantity in order of its start date, across the samples.
            let all = try await QuantitySeriesSampleQueryDescriptor(quantityType: .heartRate).result(for: store)
            #expect(all.count == 12_003)
            #expect(zip(all, all.dropFirst()).allSatisfy { $0.dateInterval.start <= $1.dateInterval.start })
            #expect(all[6].quantity == Quantity(150, Self.bpm))
            #expect(all[6].dateInterval == DateInterval(start: single.startDate, end: single.endDate))
            #expect(all[1].dateInterval.duration == 1)
            #expect(all.allSatisfy { $0.sample == nil })
            // Grouped by sample, each with its sample: the series first (it starts first), then the single one.
            let grouped = try await QuantitySeriesSampleQueryDescriptor(
                quantityType: .heartRate,
                options: [.includeSample, .orderByQuantitySampleStartDate]
            )
            .result(for: store)
            #expect(grouped.map(\.sample?.uuid).prefix(12_002).allSatisfy { $0 == series.uuid })
            #expect(grouped.last?.sample?.uuid == single.uuid)
            #expect(grouped.dropLast().map(\.quantity.value) == [60, 61] + values)
            // A predicate narrows the samples as in a sample query; a stream gives the same.
            var streamed: [QuantitySeriesSampleQueryDescriptor.Result] = []
            for try await result in QuantitySeriesSampleQueryDescriptor(
                quantityType: .heartRate,
                predicate: .uuids([single.uuid])
            )
            .results(for: store) {
                streamed.append(result)
            }
            #expect(streamed.map(\.quantity) == [single.quantity])
            let reads = try await daemon.auditEntries(operation: "query.quantity-series")
            #expect(reads.allSatisfy { $0.types == [QuantityTypeIdentifier.heartRate.rawValue] && $0.count == 1 })
            #expect(reads.count == 4)
            await store.close()
        }

        @Test func aSeriesTheCoachMayNotReadIsAnsweredAsNone() async throws {
            let daemon = try await daemon()
            let store = try await daemon.store(Self.app)
            let builder = QuantitySeriesSampleBuilder(
                healthStore: store,
                quantityType: .stepCount,
                startDate: Fixtures.start,
                device: nil
            )
            try await builder.insert(
                contentsOf: (0..<30).map {
                    .init(
                        quantity: Quantity(10, .count),
                        dateInterval: DateInterval(start: Self.at(Double($0) * 60), duration: 60)
                    )
                }
            )
            let series = try #require(try await builder.finishSeries(metadata: nil).first)
            #expect(series.quantity == Quantity(300, .count))
            // A builder lost with its connection, and a discarded one, save nothing.
            let lost = QuantitySeriesSampleBuilder(
                healthStore: store,
                quantityType: .stepCount,
                startDate: Fixtures.start,
                device: nil
            )
            try await lost.insert(Quantity(5, .count), at: Self.at(1))
            let dropped = QuantitySeriesSampleBuilder(
                healthStore: store,
                quantityType: .stepCount,
                startDate: Fixtures.start,
                device: nil
            )
            try await dropped.insert(Quantity(5, .count), at: Self.at(1))
            await dropped.discard()
            await store.close()

            let coach = try await daemon.store(Self.coach)
            #expect(try await QuantitySeriesSampleQueryDescriptor(quantityType: .stepCount).result(for: coach).isEmpty)
            // The same answer for the hidden series and an unknown UUID.
            let connection = try await daemon.connection(Self.coach)
            let hidden = try await connection.call(
                Method.queryQuantitySeries,
                QuantitySeriesQueryParams(quantityType: .stepCount, uuid: series.uuid),
                as: SeriesQuantitiesResult.self
            )
            let unknown = try await connection.call(
                Method.queryQuantitySeries,
                QuantitySeriesQueryParams(quantityType: .stepCount, uuid: UUID()),
                as: SeriesQuantitiesResult.self
            )
            #expect(hidden == unknown)
            #expect(hidden.quantities == nil)
            connection.close()
            // Granted: the coach reads it.
            try await daemon.decide("grant", ["read"], [.quantity(.stepCount)], for: Self.coach)
            let read = try await QuantitySeriesSampleQueryDescriptor(quantityType: .stepCount).result(for: coach)
            #expect(read.map(\.quantity.value) == Array(repeating: 10, count: 30))
            await coach.close()
            let again = try await daemon.store(Self.app)
            let samples = try await SampleQueryDescriptor(predicates: [.quantitySample(type: .stepCount)]).result(
                for: again
            )
            #expect(samples.map(\.uuid) == [series.uuid])
            let saves = try await daemon.auditEntries(operation: "save")
            #expect(saves.map(\.types) == [[QuantityTypeIdentifier.stepCount.rawValue]])
            await again.close()
        }

        @Test func badInputIsRefusedNamingTheField() async throws {
            let daemon = try await daemon()
            let connection = try await daemon.connection(Self.app)
            defer { connection.close() }
            func refusal<P: Encodable & Sendable>(_ method: String, _ params: P) async -> RPCError? {
                do {
                    _ = try await connection.rawCall(method, params)
                    return nil
                } catch let error as RPCError {
                    return error
                } catch {
                    return nil
                }
            }
            // A save cannot claim a series.
            let claimed = try Fixtures.quantity(.stepCount, 30, .count).series(count: 3, discreteSummary: nil)
            let save = await refusal(Method.save, SaveParams(objects: [.quantity(claimed)]))
            #expect(save?.code == RPCError.healthError)
            #expect(save?.data?.field == "objects[0].count")
            // Unknown builders, bad batches, a type the app may not share.
            let unknown = await refusal(
                Method.quantitySeriesBuilderInsert,
                QuantitySeriesInsertParams(builder: UUID(), quantities: [])
            )
            #expect(unknown?.data?.field == "builder")
            let limit = await refusal(
                Method.queryQuantitySeries,
                QuantitySeriesQueryParams(quantityType: .heartRate, uuid: UUID(), limit: 10_001)
            )
            #expect(limit?.data?.field == "limit")
            let denied = await refusal(
                Method.quantitySeriesBuilderBegin,
                QuantitySeriesBeginParams(quantityType: .bodyMass, startDate: Fixtures.start, device: nil)
            )
            #expect(denied?.data?.code == .authorizationDenied)
            // An end date before a quantity's end.
            let begun = try await connection.call(
                Method.quantitySeriesBuilderBegin,
                QuantitySeriesBeginParams(quantityType: .heartRate, startDate: Fixtures.start, device: nil),
                as: HeartbeatSeriesBuilderResult.self
            )
            _ = try await connection.call(
                Method.quantitySeriesBuilderInsert,
                QuantitySeriesInsertParams(
                    builder: begun.builder,
                    quantities: [
                        .init(
                            quantity: Quantity(60, Self.bpm),
                            dateInterval: DateInterval(start: Self.at(0), duration: 60)
                        )
                    ]
                ),
                as: HeartbeatSeriesCountResult.self
            )
            let end = await refusal(
                Method.quantitySeriesBuilderFinish,
                QuantitySeriesFinishParams(builder: begun.builder, endDate: Self.at(30))
            )
            #expect(end?.data?.field == "endDate")
            // The daemon keeps serving.
            #expect(
                try await connection.call(
                    Method.queryQuantitySeries,
                    QuantitySeriesQueryParams(quantityType: .heartRate, uuid: UUID()),
                    as: SeriesQuantitiesResult.self
                ).quantities == nil
            )
        }
    }
}
