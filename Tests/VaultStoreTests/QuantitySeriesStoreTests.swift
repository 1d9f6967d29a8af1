import Foundation
import HealthModel
import HealthModelTestSupport
import Testing

@testable import VaultStore

/// Quantity series in the real encrypted store (schema 11): a series sample saved with its
/// quantities, read back as a sample with its count and summary, its quantities read in batches
/// from the chunks that hold them, only where the scope sees it, and deleted with it.
@Suite(.serialized)
struct QuantitySeriesStoreTests {
    let test: TestVault
    let store: SampleStore

    init() throws {
        test = try TestVault()
        store = try test.store
    }

    static let source = SourceRevision(source: Source(bundleIdentifier: "org.example.strap", name: "Strap"))

    /// A series of `count` quantities of `type`, one a second from the start, some with a duration.
    static func series(
        _ type: QuantityTypeIdentifier,
        _ count: Int,
        unit: HealthUnit,
        source: SourceRevision = source
    ) throws -> QuantitySample {
        var quantities: [QuantitySample.SeriesQuantity] = []
        for index in 0..<count {
            let value: Double = 50 + Double((index * 37) % 90)
            let start: Date = Fixtures.start.addingTimeInterval(Double(index))
            let duration: Double = Double(index % 3) * 0.25
            quantities.append(
                QuantitySample.SeriesQuantity(
                    quantity: Quantity(value, unit),
                    dateInterval: DateInterval(start: start, duration: duration)
                )
            )
        }
        return try QuantitySample(
            type: type,
            series: quantities.reversed(),
            unit: unit,
            start: Fixtures.start,
            end: Fixtures.start.addingTimeInterval(Double(count)),
            sourceRevision: source,
            metadata: ["org.example.session": .string("a")]
        )
    }

    /// Every quantity of a sample, read in batches of `size`.
    func quantities(
        of sample: QuantitySample,
        batch size: Int,
        scope: ReadScope = .owner
    ) throws -> [QuantitySample.SeriesQuantity]? {
        var all: [QuantitySample.SeriesQuantity] = []
        var offset: Int? = 0
        while let from = offset {
            guard
                let batch = try store.database.read({
                    try store.seriesQuantities(
                        of: sample.uuid,
                        type: sample.quantityType,
                        offset: from,
                        limit: size,
                        scope: scope,
                        in: $0
                    )
                })
            else { return nil }
            all += batch.points
            offset = batch.next
        }
        return all
    }

    @Test func aSeriesRoundTripsWithItsSummaryAndReadsBackInAnyBatchSize() throws {
        let heart = try Self.series(.heartRate, 3000, unit: .countPerMinute)
        let steps = try Self.series(.stepCount, 100, unit: .count)
        try store.save([.quantity(heart), .quantity(steps)])
        #expect(try store.sample(uuid: heart.uuid, scope: .owner) == .quantity(heart.withoutSeriesQuantities))
        #expect(try store.sample(uuid: steps.uuid, scope: .owner) == .quantity(steps.withoutSeriesQuantities))
        let read = try #require(try store.sample(uuid: heart.uuid, scope: .owner))
        guard case .quantity(let back) = read else { throw HealthError(.unknownError, "not a quantity sample") }
        #expect(back.count == 3000)
        #expect(back.minimumQuantity == Quantity(50, .countPerMinute))
        #expect(back.maximumQuantity == Quantity(139, .countPerMinute))
        #expect(back.mostRecentQuantityDateInterval?.start == Fixtures.start.addingTimeInterval(2999))
        // Three chunks hold the heart rate, one the steps.
        #expect(try store.database.read { try $0.scalarInt("SELECT count(*) FROM quantity_series_chunks") } == 4)
        for size in [1, 7, 1023, 1025, 10_000] {
            #expect(try quantities(of: heart, batch: size) == heart.seriesQuantities)
        }
        #expect(try quantities(of: steps, batch: 30) == steps.seriesQuantities)
        // A batch straddling a chunk's end, and one past the end.
        let middle = try store.database.read {
            try store.seriesQuantities(of: heart.uuid, type: .heartRate, offset: 1020, limit: 10, scope: .owner, in: $0)
        }
        #expect(middle?.points == Array(heart.seriesQuantities![1020..<1030]))
        #expect(middle?.next == 1030)
        let past = try store.database.read {
            try store.seriesQuantities(of: heart.uuid, type: .heartRate, offset: 5000, limit: 10, scope: .owner, in: $0)
        }
        #expect(past == SeriesBatch(points: [], next: nil))
        // Queries, predicates and sorting see the sample as any other.
        let query = SampleQueryDescriptor(
            predicates: [
                .quantitySample(type: .heartRate, predicate: .quantity(.greaterThan, Quantity(90, .countPerMinute)))
            ]
        )
        #expect(try store.samples(matching: query, scope: .owner).map(\.uuid) == [heart.uuid])
    }

    @Test func quantitiesAreReadOnlyWhereTheScopeSeesThem() throws {
        let series = try Self.series(.heartRate, 20, unit: .countPerMinute)
        let single = try Fixtures.quantity(.heartRate, 72, .countPerMinute).attributed(to: Self.source)
        try store.save([.quantity(series), .quantity(single)])
        let own = ReadScope.app("org.example.strap", readableTypes: [])
        let other = ReadScope.app("org.example.other", readableTypes: [])
        let reader = ReadScope.app("org.example.other", readableTypes: [.quantity(.heartRate)])
        #expect(try quantities(of: series, batch: 8, scope: own) == series.seriesQuantities)
        #expect(try quantities(of: series, batch: 8, scope: reader) == series.seriesQuantities)
        #expect(try quantities(of: series, batch: 8, scope: other) == nil)
        // A sample that is not a series: its one quantity over its span.
        #expect(
            try quantities(of: single, batch: 8)
                == [
                    .init(
                        quantity: single.quantity,
                        dateInterval: DateInterval(start: single.startDate, end: single.endDate)
                    )
                ]
        )
        // Another type's UUID is no sample of this type.
        let asSteps = try store.database.read {
            try store.seriesQuantities(of: series.uuid, type: .stepCount, offset: 0, limit: 8, scope: .owner, in: $0)
        }
        #expect(asSteps == nil)
    }

    @Test func deletingASeriesDeletesItsQuantities() throws {
        let series = try Self.series(.heartRate, 2000, unit: .countPerMinute)
        try store.save([.quantity(series)])
        func rows() throws -> [Int64] {
            try store.database.read { db in
                try ["quantity_series", "quantity_series_chunks"].map {
                    try db.scalarInt("SELECT count(*) FROM \($0)") ?? -1
                }
            }
        }
        #expect(try rows() == [1, 2])
        #expect(try store.delete(uuids: [series.uuid], scope: .owner) == 1)
        #expect(try rows() == [0, 0])
    }

    @Test func aSeriesWithoutItsQuantitiesIsRefused() throws {
        let bare = try Self.series(.heartRate, 5, unit: .countPerMinute).withoutSeriesQuantities
        let error = #expect(throws: HealthError.self) { try store.save([.quantity(bare)]) }
        #expect(error?.field == "objects[0].count")
        // Inside a correlation too.
        let food = try Correlation(
            type: .food,
            start: Fixtures.start,
            end: Fixtures.end,
            objects: [
                .quantity(
                    try Fixtures.quantity(.dietaryEnergyConsumed, 200, .kilocalorie).series(
                        count: 2,
                        discreteSummary: nil
                    )
                )
            ],
            sourceRevision: Fixtures.app
        )
        let nested = #expect(throws: HealthError.self) { try store.save([.correlation(food)]) }
        #expect(nested?.field == "[0].objects[0].count")
    }
}
