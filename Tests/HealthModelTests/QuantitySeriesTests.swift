import Foundation
import HealthModel
import HealthModelTestSupport
import Testing

/// A quantity sample holding a series (HealthKit's `count` > 1): what the builder makes of its
/// quantities, the JSON form (docs/MODEL_JSON.md, "Quantity series"), and what is refused.
@Suite struct QuantitySeriesTests {
    static let bpm = HealthUnit.countPerMinute

    func json(_ value: some Encodable) throws -> String {
        String(decoding: try HealthJSON.encode(value), as: UTF8.self)
    }

    static func at(_ seconds: Double) -> Date { Fixtures.start.addingTimeInterval(seconds) }

    static func heartRate() throws -> QuantitySample {
        try QuantitySample(
            uuid: UUID(uuidString: "0B7C9E21-4A3D-4F5E-8C6B-2D1E0F9A8B7C")!,
            type: .heartRate,
            series: [
                .init(quantity: Quantity(90, bpm), at: at(60)),
                .init(quantity: Quantity(1, .countPerSecond), dateInterval: DateInterval(start: at(0), duration: 30)),
                .init(quantity: Quantity(75, bpm), at: at(30)),
            ],
            unit: bpm,
            start: Fixtures.start,
            end: at(120),
            sourceRevision: Fixtures.app
        )
    }

    @Test func aDiscreteSeriesIsItsAverageWithItsExtremesAndLatest() throws {
        let sample = try Self.heartRate()
        #expect(sample.count == 3 && sample.isSeries)
        #expect(sample.quantity == Quantity(75, Self.bpm))
        #expect(sample.averageQuantity == sample.quantity)
        #expect(sample.minimumQuantity == Quantity(60, Self.bpm))
        #expect(sample.maximumQuantity == Quantity(90, Self.bpm))
        #expect(sample.mostRecentQuantity == Quantity(90, Self.bpm))
        #expect(sample.mostRecentQuantityDateInterval == DateInterval(start: Self.at(60), duration: 0))
        #expect(sample.sumQuantity == nil)
        // In order of their start dates, in the series' unit.
        #expect(sample.seriesQuantities?.map(\.quantity.value) == [60, 75, 90])
        // One quantity alone is an ordinary sample over the span, as is any sample of count 1.
        let one = try Fixtures.quantity(.heartRate, 70, Self.bpm)
        #expect(one.count == 1 && !one.isSeries)
        #expect(one.minimumQuantity == one.quantity && one.mostRecentQuantity == one.quantity)
        #expect(one.mostRecentQuantityDateInterval == DateInterval(start: one.startDate, end: one.endDate))
    }

    @Test func aCumulativeSeriesIsItsSum() throws {
        let sample = try QuantitySample(
            type: .stepCount,
            series: (0..<10).map { .init(quantity: Quantity(12, .count), at: Self.at(Double($0))) },
            unit: .count,
            start: Fixtures.start,
            end: Self.at(10),
            sourceRevision: Fixtures.app
        )
        #expect(sample.quantity == Quantity(120, .count))
        #expect(sample.sumQuantity == sample.quantity)
        #expect(sample.discreteSummary == nil && sample.averageQuantity == nil && sample.minimumQuantity == nil)
    }

    /// The documented example is what the vault writes, byte for byte; an answer never carries the
    /// quantities, and a count of 1 is not written, so every older client's JSON stays the same.
    @Test func theJSONFormIsTheDocumentedOne() throws {
        let sample = try Self.heartRate().withoutSeriesQuantities
        let expected = """
            {"count":3,"endDate":"2026-03-03T08:02:00.000Z","maximumQuantity":{"unit":"count/min","value":90},\
            "minimumQuantity":{"unit":"count/min","value":60},"mostRecentQuantity":{"unit":"count/min","value":90},\
            "mostRecentQuantityEndDate":"2026-03-03T08:01:00.000Z","mostRecentQuantityStartDate":"2026-03-03T08:01:00.000Z",\
            "quantity":{"unit":"count/min","value":75},\
            "sourceRevision":{"source":{"bundleIdentifier":"org.example.stepcounter","name":"Step Counter"},"version":"1.2"},\
            "startDate":"2026-03-03T08:00:00.000Z","type":"HKQuantityTypeIdentifierHeartRate",\
            "uuid":"0B7C9E21-4A3D-4F5E-8C6B-2D1E0F9A8B7C"}
            """
        #expect(try json(Sample.quantity(sample)) == expected)
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/MODEL_JSON.md")
        let documented = try String(contentsOf: document, encoding: .utf8).components(separatedBy: "```json\n")
            .map { $0.components(separatedBy: "\n```").first! }
            .first { $0.contains(#""type":"HKQuantityTypeIdentifierHeartRate""#) && $0.contains(#""count":3"#) }
        #expect(documented?.replacingOccurrences(of: "\n *", with: "", options: .regularExpression) == expected)
        #expect(try json(Sample.quantity(try Self.heartRate())) == expected)
        #expect(try HealthJSON.decode(Sample.self, from: Data(expected.utf8)) == .quantity(sample))
        let single = try Fixtures.quantity()
        #expect(try !json(single).contains(#""count":"#))
        #expect(try HealthJSON.decode(QuantitySample.self, from: try HealthJSON.encode(single)).count == 1)
        // A quantity of a series: an absent end date is its start.
        let entry = try HealthJSON.decode(
            QuantitySample.SeriesQuantity.self,
            from: Data(#"{"quantity":{"unit":"count","value":3},"startDate":"2026-03-03T08:00:00.000Z"}"#.utf8)
        )
        #expect(entry == .init(quantity: Quantity(3, .count), at: Fixtures.start))
        #expect(
            try json(entry)
                == #"{"endDate":"2026-03-03T08:00:00.000Z","quantity":{"unit":"count","value":3},"startDate":"2026-03-03T08:00:00.000Z"}"#
        )
    }

    @Test func whatIsNotASeriesIsRefusedNamingTheField() throws {
        let expected = try json(Sample.quantity(try Self.heartRate().withoutSeriesQuantities))
        func refusal(_ text: String) -> String? {
            do {
                _ = try HealthJSON.decode(Sample.self, from: Data(text.utf8))
                return nil
            } catch {
                return error.field
            }
        }
        // A discrete series without its summary, a summary in part, a count out of range.
        let bare = expected.replacingOccurrences(
            of:
                #","maximumQuantity":{"unit":"count/min","value":90},"minimumQuantity":{"unit":"count/min","value":60}"#,
            with: ""
        )
        #expect(refusal(bare) == "minimumQuantity")
        #expect(refusal(expected.replacingOccurrences(of: #""count":3"#, with: #""count":0"#)) == "count")
        #expect(refusal(expected.replacingOccurrences(of: #""count":3"#, with: #""count":1"#)) == "minimumQuantity")
        // A minimum above the maximum; a most recent quantity outside the span.
        let crossed = expected.replacingOccurrences(of: #""value":60}"#, with: #""value":95}"#)
        #expect(refusal(crossed) == "minimumQuantity")
        let outside = expected.replacingOccurrences(
            of: #""mostRecentQuantityStartDate":"2026-03-03T08:01:00.000Z""#,
            with: #""mostRecentQuantityStartDate":"2026-03-03T07:01:00.000Z""#
        )
        #expect(refusal(outside) == "mostRecentQuantityStartDate")
        // The builder's quantities: two at one start, one outside the span, a sum out of range.
        #expect(
            healthError {
                _ = try QuantitySample(
                    type: .heartRate,
                    series: [
                        .init(quantity: Quantity(60, Self.bpm), at: Self.at(1)),
                        .init(quantity: Quantity(61, Self.bpm), at: Self.at(1)),
                    ],
                    unit: Self.bpm,
                    start: Fixtures.start,
                    end: Self.at(2),
                    sourceRevision: Fixtures.app
                )
            }?.field == "quantities[1].startDate"
        )
        #expect(
            healthError {
                _ = try QuantitySample(
                    type: .heartRate,
                    series: [.init(quantity: Quantity(60, Self.bpm), at: Self.at(5))],
                    unit: Self.bpm,
                    start: Fixtures.start,
                    end: Self.at(2),
                    sourceRevision: Fixtures.app
                )
            }?.field == "quantities[0].endDate"
        )
    }
}
