import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

/// The hand-written statistics JSON (JSONWriter, JSONReader) against the Codable forms: the same
/// bytes written, the same values read, and malformed input refused.
@Suite struct JSONWriterTests {
    static func quantity(_ rng: inout RandomModel.RNG) -> Quantity? {
        guard Bool.random(using: &rng) else { return nil }
        let value: Double =
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: Double(Int.random(in: -1000...100_000, using: &rng))
            case 1: Double.random(in: -1e-6...1e-6, using: &rng)
            case 2: Double.random(in: -1e22...1e22, using: &rng)
            default: Double.random(in: 0...500, using: &rng)
            }
        return Quantity(value, RandomModel.units.randomElement(using: &rng)!)
    }

    static func values(_ rng: inout RandomModel.RNG) -> StatisticsValues {
        StatisticsValues(
            sum: quantity(&rng),
            average: quantity(&rng),
            minimum: quantity(&rng),
            maximum: quantity(&rng),
            mostRecent: quantity(&rng),
            mostRecentStartDate: Bool.random(using: &rng) ? RandomModel.date(&rng) : nil,
            mostRecentEndDate: Bool.random(using: &rng) ? RandomModel.date(&rng) : nil,
            duration: quantity(&rng)
        )
    }

    static func source(_ rng: inout RandomModel.RNG) -> Source {
        // Names with what JSON escapes: quotes, backslashes, control characters, and beyond ASCII.
        let odd = ["\u{0}", "\u{1F}", "\n", "\t", "\u{8}", "\u{C}", "\r", "\u{7F}", "\u{2028}", "😀", "\"", "\\", "/"]
        let name = RandomModel.string(&rng) + (Bool.random(using: &rng) ? odd.randomElement(using: &rng)! : "")
        return Source(bundleIdentifier: RandomModel.source(&rng).source.bundleIdentifier, name: name)
    }

    static func statistics(_ rng: inout RandomModel.RNG) -> Statistics {
        // Whole seconds (as intervals start) and fractions, each written its own way.
        let random = RandomModel.date(&rng)
        let start =
            Bool.random(using: &rng)
            ? Date(timeIntervalSinceReferenceDate: random.timeIntervalSinceReferenceDate.rounded(.down)) : random
        return Statistics(
            quantityType: QuantityTypeIdentifier.allCases.randomElement(using: &rng)!,
            startDate: start,
            endDate: start.addingTimeInterval(Double(Int.random(in: 0...86_400, using: &rng))),
            values: values(&rng),
            sources: (0..<Int.random(in: 0...3, using: &rng)).map { _ in source(&rng) },
            valuesBySource: (0..<Int.random(in: 0...2, using: &rng)).map { _ in
                SourceStatistics(source: source(&rng), values: values(&rng))
            }
        )
    }

    static func collection(_ rng: inout RandomModel.RNG) -> StatisticsCollection {
        StatisticsCollection(
            quantityType: QuantityTypeIdentifier.allCases.randomElement(using: &rng)!,
            anchorDate: RandomModel.date(&rng),
            intervalComponents: IntervalComponents(
                year: Int.random(in: 0...1, using: &rng),
                month: Int.random(in: 0...2, using: &rng),
                weekOfYear: Int.random(in: 0...1, using: &rng),
                day: Int.random(in: 0...7, using: &rng),
                hour: Int.random(in: 0...24, using: &rng),
                minute: Int.random(in: 0...90, using: &rng),
                second: Int.random(in: 0...1, using: &rng)
            ),
            timeZone: ["UTC", "Europe/Paris", "America/St_Johns"].randomElement(using: &rng)!,
            statistics: (0..<Int.random(in: 0...6, using: &rng)).map { _ in statistics(&rng) }
        )
    }

    @Test func writesWhatTheEncoderWritesAndReadsWhatTheDecoderReads() async {
        await propertyCheck(count: 400, input: Generator(run: { rng in Self.collection(&rng) })) { collection in
            let expected = try HealthJSON.encode(collection)
            let written = try JSONWriter.data(collection)
            #expect(written == expected, "\(String(decoding: expected, as: UTF8.self))")
            let read = try JSONReader.read(StatisticsCollection.self, from: expected)
            #expect(read == collection)
            #expect(read == (try HealthJSON.decode(StatisticsCollection.self, from: expected)))
            // Dates and values read back to the bit.
            for (a, b) in zip(read.statistics, collection.statistics) {
                #expect(
                    a.startDate.timeIntervalSinceReferenceDate.bitPattern
                        == b.startDate.timeIntervalSinceReferenceDate.bitPattern
                )
                #expect(a.values.sum?.value.bitPattern == b.values.sum?.value.bitPattern)
            }
        }
    }

    static func location(_ rng: inout RandomModel.RNG) throws -> WorkoutRouteLocation {
        // Each optional number known or not (negative), with awkward doubles.
        func maybe(_ rng: inout RandomModel.RNG, _ range: ClosedRange<Double>) -> Double {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: -1
            case 1: 0
            default: Double.random(in: range, using: &rng)
            }
        }
        return try WorkoutRouteLocation(
            timestamp: RandomModel.date(&rng),
            latitude: Double.random(in: -90...90, using: &rng),
            longitude: Bool.random(using: &rng) ? 180 : Double.random(in: -180...180, using: &rng),
            altitude: Double.random(in: -430...8849, using: &rng),
            horizontalAccuracy: Double.random(in: 0...1e4, using: &rng),
            verticalAccuracy: maybe(&rng, 0...100),
            speed: maybe(&rng, 0...1e-5),
            course: maybe(&rng, 0...359.999),
            speedAccuracy: maybe(&rng, 0...10),
            courseAccuracy: maybe(&rng, 0...180)
        )
    }

    @Test func routeLocationsWriteWhatTheEncoderWritesAndReadWhatTheDecoderReads() async {
        await propertyCheck(count: 300, input: Generator(run: { rng in rng })) { generator in
            var rng = generator
            let locations = try (0..<Int.random(in: 0...5, using: &rng)).map { _ in try Self.location(&rng) }
            for location in locations {
                let expected = try HealthJSON.encode(location)
                #expect(try JSONWriter.data(location) == expected, "\(String(decoding: expected, as: UTF8.self))")
                let read = try JSONReader.read(WorkoutRouteLocation.self, from: expected)
                #expect(read == location)
                #expect(read == (try HealthJSON.decode(WorkoutRouteLocation.self, from: expected)))
            }
        }
        // Absent members as the decoder takes them: altitude 0, the others unknown.
        let minimal =
            #"{"horizontalAccuracy":5,"latitude":1.5,"longitude":-2,"timestamp":"2026-03-05T08:00:00.000Z","speed":null}"#
        let read = try? JSONReader.read(WorkoutRouteLocation.self, from: Data(minimal.utf8))
        #expect(read != nil && read == (try? HealthJSON.decode(WorkoutRouteLocation.self, from: Data(minimal.utf8))))
        #expect(read?.altitude == 0 && read?.speed == -1 && read?.course == -1)
        // What the location refuses, refused the same, naming the field.
        for (bad, field) in [
            (
                #"{"horizontalAccuracy":5,"latitude":91,"longitude":0,"timestamp":"2026-03-05T08:00:00.000Z"}"#,
                "latitude"
            ),
            (
                #"{"horizontalAccuracy":-1,"latitude":0,"longitude":0,"timestamp":"2026-03-05T08:00:00.000Z"}"#,
                "horizontalAccuracy"
            ),
            (#"{"horizontalAccuracy":5,"latitude":0,"timestamp":"2026-03-05T08:00:00.000Z"}"#, "longitude"),
            (
                #"{"horizontalAccuracy":5,"latitude":0,"longitude":0,"course":360,"timestamp":"2026-03-05T08:00:00.000Z"}"#,
                "course"
            ),
        ] {
            #expect(throws: HealthError.self, "\(field)") {
                try JSONReader.read(WorkoutRouteLocation.self, from: Data(bad.utf8))
            }
            do {
                _ = try JSONReader.read(WorkoutRouteLocation.self, from: Data(bad.utf8))
            } catch {
                #expect(error.field == field, "\(bad)")
            }
        }
    }

    @Test func readsWhatTheDecoderAcceptsBeyondTheWrittenForm() throws {
        // White space, members in another order, unknown members, explicit nulls, escapes.
        let text = """
             { "statistics" : [ { "valuesBySource":[], "unknown": {"a": [1, 2.5e3, true, false, null, "x"]},
               "values" : { "sum" : { "value" : -0.0, "unit" : "count" }, "average": null,
                            "mostRecentStartDate": null },
               "startDate":"2026-03-29T00:00:00+01:00", "endDate": "2026-03-30T00:00:00.000+02:00",
               "sources": [{"name": "W\\u00e9tch \\ud83d\\ude00 \\/ \\"q\\"", "bundleIdentifier": "org.example.watch"}],
               "quantityType": "HKQuantityTypeIdentifierStepCount" } ],
               "timeZone": "Europe/Paris", "quantityType": "HKQuantityTypeIdentifierStepCount",
               "intervalComponents": {"day": 1, "hour": null}, "anchorDate": "2026-01-01T00:00:00Z" }
            """
        let data = Data(text.utf8)
        let expected = try HealthJSON.decode(StatisticsCollection.self, from: data)
        let read = try JSONReader.read(StatisticsCollection.self, from: data)
        #expect(read == expected)
        #expect(read.statistics.first?.sources.first?.name == "Wétch 😀 / \"q\"")
        #expect(read.intervalComponents == IntervalComponents(day: 1))

        // Statistics out of order stay in the order given, integers beyond a double's precision
        // stay exact, as the decoder reads them.
        let collection = try JSONWriterTests.outOfOrder()
        let unordered = try HealthJSON.encode(collection).replacingFirst(
            #""day":1"#,
            with: #""second":9007199254740993"#
        )
        let decoded = try HealthJSON.decode(StatisticsCollection.self, from: unordered)
        let readBack = try JSONReader.read(StatisticsCollection.self, from: unordered)
        #expect(readBack == decoded)
        #expect(readBack.statistics.map(\.startDate) == decoded.statistics.map(\.startDate))
        #expect(readBack.intervalComponents.second == 9_007_199_254_740_993)
    }

    /// A collection whose statistics are written later first (built through the wire form).
    static func outOfOrder() throws -> StatisticsCollection {
        let statistics = [7200.0, 0].map { start in
            Statistics(
                quantityType: .stepCount,
                startDate: Date(timeIntervalSinceReferenceDate: start),
                endDate: Date(timeIntervalSinceReferenceDate: start + 3600),
                values: StatisticsValues(sum: Quantity(start, .count))
            )
        }
        let text =
            #"{"anchorDate":"2001-01-01T00:00:00.000Z","intervalComponents":{"day":1},"quantityType":"HKQuantityTypeIdentifierStepCount","statistics":"#
            + String(decoding: try HealthJSON.encode(statistics), as: UTF8.self) + #","timeZone":"UTC"}"#
        return try HealthJSON.decode(StatisticsCollection.self, from: Data(text.utf8))
    }

    @Test func refusesMalformedInputAtEveryCut() throws {
        let collection = StatisticsCollection(
            quantityType: .heartRate,
            anchorDate: Date(timeIntervalSinceReferenceDate: 0),
            intervalComponents: IntervalComponents(hour: 1),
            timeZone: "UTC",
            statistics: [
                Statistics(
                    quantityType: .heartRate,
                    startDate: Date(timeIntervalSinceReferenceDate: 0),
                    endDate: Date(timeIntervalSinceReferenceDate: 3600),
                    values: StatisticsValues(
                        average: Quantity(61.5, try HealthUnit(from: "count/min")),
                        minimum: Quantity(50, .count)
                    ),
                    sources: [Source(bundleIdentifier: "org.example.watch", name: "Watch \"7\"")]
                )
            ]
        )
        let bytes = Array(try HealthJSON.encode(collection))
        // Every prefix is incomplete; the reader throws, never traps.
        for cut in 0..<bytes.count {
            #expect(throws: HealthError.self) {
                try JSONReader.read(StatisticsCollection.self, from: Data(bytes[..<cut]))
            }
        }
        let bad = [
            #"{"statistics":[],"timeZone":"UTC","quantityType":"HKQuantityTypeIdentifierHeartRate","intervalComponents":{"hour":1},"anchorDate":"2001-01-01T00:00:00.000Z"} x"#,
            #"{"statistics":[],"timeZone":"UTC","quantityType":"HKQuantityTypeIdentifierNope","intervalComponents":{"hour":1},"anchorDate":"2001-01-01T00:00:00.000Z"}"#,
            #"{"statistics":[],"timeZone":"UTC","quantityType":"HKQuantityTypeIdentifierHeartRate","intervalComponents":{"hour":1.5},"anchorDate":"2001-01-01T00:00:00.000Z"}"#,
            #"{"statistics":[],"timeZone":"UTC","quantityType":"HKQuantityTypeIdentifierHeartRate","intervalComponents":{"hour":1},"anchorDate":"yesterday"}"#,
            #"{"statistics":[],"timeZone":"U\u0001TC","quantityType":"HKQuantityTypeIdentifierHeartRate","intervalComponents":{"hour":01},"anchorDate":"2001-01-01T00:00:00.000Z"}"#,
            #"{"statistics":[],"timeZone":"\ud800","quantityType":"HKQuantityTypeIdentifierHeartRate","intervalComponents":{"hour":1},"anchorDate":"2001-01-01T00:00:00.000Z"}"#,
            #"{"statistics":[],"timeZone":"UTC","quantityType":"HKQuantityTypeIdentifierHeartRate","intervalComponents":{"hour":1}}"#,
            #"{"statistics":[{"values":{"sum":{"unit":"parsec","value":1}}}],"timeZone":"UTC"}"#,
            #"{"statistics":[1e999]}"#,
            #"["#, #"{"a":}"#, #"{"a" 1}"#, #"{"a":1,}"#, #"[1,]"#, #"{"a":tru}"#, #"{"a":-}"#, #"{"a":1.}"#,
            #"{"a":.5}"#, #"{"a":"\x"}"#, #"{"a":"unterminated}"#, String(repeating: "[", count: 600),
            // Refused where Foundation's decoder is lenient: a number too small for a double, a
            // trailing comma (docs of JSONReader).
            #"{"statistics":[],"timeZone":"UTC","quantityType":"HKQuantityTypeIdentifierHeartRate","intervalComponents":{"hour":1},"anchorDate":"2001-01-01T00:00:00.000Z","x":1e-400}"#,
            #"{"statistics":[],"timeZone":"UTC","quantityType":"HKQuantityTypeIdentifierHeartRate","intervalComponents":{"hour":1},"anchorDate":"2001-01-01T00:00:00.000Z",}"#,
        ]
        for text in bad {
            #expect(throws: HealthError.self, "\(text.prefix(80))") {
                try JSONReader.read(StatisticsCollection.self, from: Data(text.utf8))
            }
        }
        // Not UTF-8.
        var invalid = Array(#"{"timeZone":"#.utf8) + [UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")]
        invalid += Array("}".utf8)
        #expect(throws: HealthError.self) { try JSONReader.read(StatisticsCollection.self, from: Data(invalid)) }
        // Nor in a member's name.
        let badName = Array(#"{""#.utf8) + [0xC3, 0x28] + Array(#"":1}"#.utf8)
        #expect(throws: HealthError.self) { try JSONReader.read(StatisticsCollection.self, from: Data(badName)) }
        #expect(throws: (any Error).self) { try HealthJSON.decode(StatisticsCollection.self, from: Data(badName)) }
    }

    @Test func numbersAsTheEncoderWritesThem() throws {
        for value in [
            100.0, 0.1, 1e-7, 1.2345678901234568e+20, 5e-324, -0.0, 1e16, 1e15, 123456789012.5, 1.0 / 3, 2.5e-5,
            .greatestFiniteMagnitude, -.leastNormalMagnitude,
            // Whole numbers, written as digits below 2^53 and by `description` from there.
            0.0, 12.0, -12.0, 9_007_199_254_740_991, -9_007_199_254_740_991, 9_007_199_254_740_992,
            -9_007_199_254_740_992, 4_503_599_627_370_495.5, -2_251_799_813_685_248.5, 1e300,
        ] {
            var writer = JSONWriter()
            try writer.number(value)
            #expect(writer.bytes == Array(try HealthJSON.encode(value)), "\(value)")
            var reader = JSONReader(writer.bytes)
            #expect(try reader.double().bitPattern == value.bitPattern)
        }
        for value in [0, 7, -7, 10, -10, 1_000_000, Int.max, Int.min] {
            var writer = JSONWriter()
            writer.number(value)
            #expect(writer.bytes == Array(try HealthJSON.encode(value)), "\(value)")
        }
        var writer = JSONWriter()
        #expect(throws: EncodingError.self) { try writer.number(.nan) }
        #expect(throws: EncodingError.self) { try writer.number(.infinity) }
        #expect(throws: EncodingError.self) { try writer.date(Date.distantFuture.addingTimeInterval(1e12)) }
    }
}

extension Data {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> Data {
        let text = String(decoding: self, as: UTF8.self)
        guard let range = text.range(of: target) else { return self }
        return Data(text.replacingCharacters(in: range, with: replacement).utf8)
    }
}
