import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

/// The hand-written sample JSON (JSONWriter, JSONReader; Sources/HealthModel/Coding/Sample+JSON.swift)
/// against the Codable form it stands in for: the same bytes written for every kind of sample, and
/// read, whatever the member order, white space, escapes and unknown members, either to the value
/// the Codable decoder gives or not at all (the caller then asks the Codable decoder); never a
/// value the decoder refuses or reads otherwise.
@Suite struct SampleJSONTests {
    /// What the fast reader makes of a JSON array of samples, or nil where it leaves the text to
    /// the Codable decoder.
    static func fast(_ data: Data) -> [Sample]? {
        guard JSONNesting.isWithin(data) else { return nil }
        var reader = JSONReader(data)
        do {
            let samples = try reader.samples()
            try reader.end()
            return samples
        } catch {
            return nil
        }
    }

    static func codable(_ data: Data) -> [Sample]? {
        try? HealthJSON.decode([Sample].self, from: data)
    }

    static func written(_ samples: [Sample]) throws -> Data {
        var writer = JSONWriter()
        try writer.array(samples) { writer, sample in try sample.write(to: &writer) }
        return Data(writer.bytes)
    }

    /// A quantity series sample (count above 1; a discrete type's with its summary), as it comes
    /// back from the wire (without the series' quantities the builder's value carries).
    static func series(_ rng: inout RandomModel.RNG) -> Sample {
        let type: QuantityTypeIdentifier = Bool.random(using: &rng) ? .heartRate : .stepCount
        let start = RandomModel.date(&rng)
        let quantities = (0..<Int.random(in: 2...6, using: &rng)).map { index in
            let at = start.addingTimeInterval(Double(index) * 10 + Double.random(in: 0..<5, using: &rng))
            return QuantitySample.SeriesQuantity(
                quantity: Quantity(Double(Int.random(in: 40...180, using: &rng)) + 0.5, type.canonicalUnit),
                dateInterval: DateInterval(start: at, end: at.addingTimeInterval(Double.random(in: 0...5, using: &rng)))
            )
        }
        let sample = try! QuantitySample(
            uuid: UUID(using: &rng),
            type: type,
            series: quantities,
            unit: type.canonicalUnit,
            start: start,
            end: start.addingTimeInterval(100),
            sourceRevision: RandomModel.source(&rng),
            device: RandomModel.device(&rng),
            metadata: RandomModel.metadata(&rng)
        )
        return try! HealthJSON.decode(Sample.self, from: try HealthJSON.encode(Sample.quantity(sample)))
    }

    /// Metadata with what JSON writes in more than one way: escapes, keys beyond ASCII (ordered by
    /// their bytes), numbers written with exponents, negative zero, whole doubles.
    static func oddMetadata(_ rng: inout RandomModel.RNG) -> Metadata {
        var metadata: Metadata = [:]
        let odd = [
            "\u{0}", "\u{1F}", "\n", "\t", "\u{7F}", "\u{2028}", "😀", "\"", "\\", "/", "é", "Z", "a", "\u{FF61}",
        ]
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            let key = MetadataKey("org.example." + odd.randomElement(using: &rng)! + RandomModel.string(&rng))
            let numbers: [Double] = [1e20, 1e16, 1e-7, -0.0, 123_456_789.125, 5e-324, 1.7976931348623157e308, 100, 0.1]
            metadata[key] =
                switch Int.random(in: 0...3, using: &rng) {
                case 0: .string(odd.randomElement(using: &rng)! + RandomModel.string(&rng))
                case 1: .number(numbers.randomElement(using: &rng)!)
                case 2: .date(RandomModel.date(&rng))
                default: .quantity(Quantity(numbers.randomElement(using: &rng)!, .meter))
                }
        }
        return metadata
    }

    static func sample(_ rng: inout RandomModel.RNG) -> Sample {
        switch Int.random(in: 0...9, using: &rng) {
        case 0, 1, 2: .quantity(RandomModel.quantitySample(&rng))
        case 3: series(&rng)
        case 4, 5: .category(RandomModel.categorySample(&rng))
        case 6:
            // Metadata the random model does not make, dates across the years 0001-9999.
            .category(
                try! CategorySample(
                    uuid: UUID(using: &rng),
                    type: .mindfulSession,
                    value: 0,
                    start: Date(timeIntervalSinceReferenceDate: -62e9),
                    end: Date(timeIntervalSinceReferenceDate: Double.random(in: -62e9...252e9, using: &rng)),
                    sourceRevision: RandomModel.source(&rng),
                    metadata: oddMetadata(&rng)
                )
            )
        case 7: RandomModel.perObjectSample(&rng)
        default: RandomModel.sample(&rng)
        }
    }

    @Test func writesWhatTheEncoderWritesForEveryKind() async {
        await propertyCheck(count: 300, input: Generator(run: { rng in rng })) { generator in
            var rng = generator
            let samples = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.sample(&rng) }
            let expected = try HealthJSON.encode(samples)
            let written = try Self.written(samples)
            #expect(written == expected, "\(String(decoding: expected, as: UTF8.self))")
            let deleted = samples.map { DeletedObject(uuid: $0.uuid, sampleType: $0.sampleType) }
            let page = AnchoredObjectQueryResult(
                addedSamples: samples,
                deletedObjects: deleted,
                newAnchor: QueryAnchor(token: RandomModel.string(&rng))
            )
            #expect(try JSONWriter.data(page) == (try HealthJSON.encode(page)))
        }
    }

    @Test func readsWhatTheDecoderReads() async {
        await propertyCheck(count: 300, input: Generator(run: { rng in rng })) { generator in
            var rng = generator
            let samples = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.sample(&rng) }
            let text = try HealthJSON.encode(samples)
            let decoded = try HealthJSON.decode([Sample].self, from: text)
            // The daemon's own form is read by hand, whatever the kind, to the decoder's value.
            #expect(Self.fast(text) == decoded)
            let page = try HealthJSON.encode(
                AnchoredObjectQueryResult(addedSamples: samples, deletedObjects: [], newAnchor: QueryAnchor(token: "a"))
            )
            #expect(
                (try? JSONReader.read(AnchoredObjectQueryResult.self, from: page))?.addedSamples
                    == (try HealthJSON.decode(AnchoredObjectQueryResult.self, from: page)).addedSamples
            )
            // Another writer's form: members in any order, white space, escapes, unknown members.
            let other = Data(Reshaper.reshape(text, &rng).utf8)
            let otherDecoded = Self.codable(other)
            #expect(otherDecoded == decoded, "\(String(decoding: other, as: UTF8.self))")
            let otherFast = Self.fast(other)
            #expect(otherFast == nil || otherFast == otherDecoded, "\(String(decoding: other, as: UTF8.self))")
            // Quantity and category samples are read by hand in that form too.
            if samples.allSatisfy({
                if case .quantity = $0 { true } else if case .category = $0 { true } else { false }
            }) {
                #expect(otherFast != nil, "\(String(decoding: other, as: UTF8.self))")
            }
        }
    }

    @Test func refusesWhatTheDecoderRefuses() async {
        await propertyCheck(count: 500, input: Generator(run: { rng in rng })) { generator in
            var rng = generator
            let samples = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                Bool.random(using: &rng)
                    ? Sample.quantity(RandomModel.quantitySample(&rng))
                    : Sample.category(RandomModel.categorySample(&rng))
            }
            var bytes = Array(try HealthJSON.encode(samples))
            // Truncated, a byte changed, a byte dropped, or a piece of JSON pasted in.
            switch Int.random(in: 0...3, using: &rng) {
            case 0: bytes.removeLast(Int.random(in: 1...bytes.count, using: &rng))
            case 1: bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            case 2: bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng))
            default:
                let pieces = [
                    "null", "1e3", "1.0", "-0", "1e400", "\"\\ud800\"", "{}", "[]", ",", "\"x\"", "true",
                    "99999999999999999999",
                    "\"\\u0041\"", ":", "\"2026-02-30T00:00:00Z\"", "{\"unit\":\"kg\"}",
                ]
                bytes.insert(
                    contentsOf: Array(pieces.randomElement(using: &rng)!.utf8),
                    at: Int.random(in: 0...bytes.count, using: &rng)
                )
            }
            let data = Data(bytes)
            let decoded = Self.codable(data)
            let fast = Self.fast(data)
            if decoded == nil {
                #expect(fast == nil, "\(String(decoding: data, as: UTF8.self))")
            } else {
                #expect(fast == nil || fast == decoded, "\(String(decoding: data, as: UTF8.self))")
            }
        }
    }

    /// An answer's samples mostly share a revision, which the writer writes again from its last
    /// text and the reader takes again from the same bytes: each revision still comes out and
    /// back as it is spelled, byte for byte, a name in a decomposed form included (`==` on
    /// strings would take "é" and "e\u{301}" for one).
    @Test func aRepeatedRevisionIsWrittenAndReadAsEachIsSpelled() throws {
        func revision(
            _ name: String,
            version: String? = "1",
            productType: String? = nil,
            operatingSystemVersion: String? = nil
        ) -> SourceRevision {
            SourceRevision(
                source: Source(bundleIdentifier: "org.example.caf\u{E9}", name: name),
                version: version,
                productType: productType,
                operatingSystemVersion: operatingSystemVersion
            )
        }
        let composed = revision("Caf\u{E9}")
        let decomposed = revision("Cafe\u{301}")
        #expect(composed == decomposed)
        // Equal by `==` but spelled apart; then texts that differ only at their end (a version
        // given or not: `}` or `,` after the source), and in one optional member each.
        let revisions = [
            composed, composed, decomposed, composed, revision("Other"), decomposed,
            revision("Caf\u{E9}", version: nil), composed, revision("Caf\u{E9}", version: nil),
            revision("Caf\u{E9}", productType: "Watch7,1"), revision("Caf\u{E9}", productType: "Watch7,2"),
            revision("Caf\u{E9}", operatingSystemVersion: "11.0"), composed,
        ]
        let samples = try Self.steps(revisions.map { ($0, nil) })
        let written = try Self.written(samples)
        #expect(written == (try HealthJSON.encode(samples)))
        let read = try #require(Self.fast(written))
        #expect(read == samples)
        func spelling(_ revision: SourceRevision) -> [[UInt8]] {
            [revision.source.name, revision.source.bundleIdentifier, revision.version ?? "-"].map { Array($0.utf8) }
        }
        #expect(read.map { spelling($0.sourceRevision) } == revisions.map(spelling))
        func spellingWhole(_ revision: SourceRevision) -> [[UInt8]] {
            spelling(revision)
                + [revision.productType ?? "-", revision.operatingSystemVersion ?? "-"].map { Array($0.utf8) }
        }
        #expect(read.map { spellingWhole($0.sourceRevision) } == revisions.map(spellingWhole))
        try Self.expectReadInFull(samples, respacing: "\"source\":{", as: "\"source\": {")
    }

    /// Steps of one count each, attributed to these source revisions and devices in order.
    static func steps(_ attributions: [(SourceRevision, Device?)]) throws -> [Sample] {
        try attributions.enumerated().map { index, attribution in
            Sample.quantity(
                try QuantitySample(
                    type: .stepCount,
                    quantity: Quantity(Double(index), .count),
                    start: Fixtures.start,
                    end: Fixtures.end,
                    sourceRevision: attribution.0,
                    device: attribution.1
                )
            )
        }
    }

    /// Another writer's white space inside a value the reader has just read (the second sample's
    /// last `text`, spaced as `spaced`): not the same bytes, so read in full, to the decoder's value.
    static func expectReadInFull(_ samples: [Sample], respacing text: String, as spaced: String) throws {
        let compact = String(decoding: try written(Array(samples.prefix(2))), as: UTF8.self)
        let found = try #require(compact.range(of: text, options: .backwards))
        let reshaped = Data(compact.replacingCharacters(in: found, with: spaced).utf8)
        #expect(fast(reshaped) == codable(reshaped))
        #expect(fast(reshaped) == Array(samples.prefix(2)))
    }

    /// An answer's samples mostly name one device, which the reader takes again from the same
    /// bytes: each device still comes back as it is spelled, byte for byte (a name in a decomposed
    /// form, which `==` takes for the composed one, included), and a device whose text only begins
    /// like the last one's, or differs in one member, or is spaced otherwise, is read in full.
    @Test func aRepeatedDeviceIsReadAsEachIsSpelled() throws {
        let composed = Device(name: "Caf\u{E9} Watch", model: "Watch7,1")
        let decomposed = Device(name: "Cafe\u{301} Watch", model: "Watch7,1")
        #expect(composed == decomposed)
        let devices: [Device?] = [
            composed, composed, decomposed, composed, nil, composed, Device(name: "Caf\u{E9} Watch"),
            Device(name: "Caf\u{E9} Watch", model: "Watch7,2"), composed,
            Device(name: "Caf\u{E9} Watch", model: "Watch7,1", softwareVersion: "11.2"), Device(), composed,
        ]
        let samples = try Self.steps(devices.map { (Fixtures.app, $0) })
        let written = try Self.written(samples)
        #expect(written == (try HealthJSON.encode(samples)))
        let read = try #require(Self.fast(written))
        #expect(read == samples)
        func spelling(_ device: Device?) -> [[UInt8]] {
            guard let device else { return [] }
            return [device.name ?? "-", device.model ?? "-", device.softwareVersion ?? "-"].map { Array($0.utf8) }
        }
        #expect(read.map { spelling($0.device) } == devices.map(spelling))
        try Self.expectReadInFull(samples, respacing: "\"device\":{\"model\":", as: "\"device\":{ \"model\":")
    }

    /// A sample's type and a quantity's unit are taken again from the last one read when their
    /// text is the same bytes, quotes included: a type or unit whose text begins with the last
    /// one's (heart rate, then heart rate variability; `count`, then `count/min`) is read in full,
    /// and one spelled with an escape is read to the same value.
    @Test func aRepeatedTypeOrUnitIsReadAgainOnlyFromTheSameBytes() throws {
        func sample(_ type: QuantityTypeIdentifier, _ value: Double, _ unit: HealthUnit) throws -> Sample {
            .quantity(
                try QuantitySample(
                    type: type,
                    quantity: Quantity(value, unit),
                    start: Fixtures.start,
                    end: Fixtures.end,
                    sourceRevision: SourceRevision(source: Source(bundleIdentifier: "org.example.a", name: "A"))
                )
            )
        }
        let samples = [
            try sample(.stepCount, 1, .count), try sample(.stepCount, 2, .count),
            try sample(.heartRate, 60, .countPerMinute), try sample(.heartRate, 61, .countPerMinute),
            try sample(.heartRateVariabilitySDNN, 40, try HealthUnit(from: "ms")),
            try sample(.heartRate, 1, .countPerSecond), try sample(.heartRate, 62, .countPerMinute),
            try sample(.stepCount, 3, .count),
        ]
        let written = try Self.written(samples)
        #expect(Self.fast(written) == samples)
        // The same texts with the second sample's type and unit, the first's again, spelled with
        // escapes: not the same bytes, read in full.
        var text = String(decoding: written, as: UTF8.self)
        func second(_ target: String) throws -> Range<String.Index> {
            let first = try #require(text.range(of: target))
            return try #require(text.range(of: target, range: first.upperBound..<text.endIndex))
        }
        text.replaceSubrange(
            try second("\"HKQuantityTypeIdentifierStepCount\""),
            with: "\"HKQuantityTypeIdentifier\\u0053tepCount\""
        )
        text.replaceSubrange(try second("\"unit\":\"count\""), with: "\"unit\":\"c\\u006funt\"")
        let escaped = Data(text.utf8)
        #expect(escaped != written)
        #expect(Self.fast(escaped) == samples)
        #expect(Self.codable(escaped) == samples)
    }

    /// A quantity's members beside a category sample's, which the category does not read: checked
    /// all the same, so a malformed one is refused as the decoder refuses it.
    @Test func aCategorySamplesUnreadQuantityMembersAreChecked() throws {
        let sample = try CategorySample(
            uuid: UUID(uuidString: "0C7E3B1A-5D2F-4A68-9E41-7B3C2D1E0F59")!,
            type: .mindfulSession,
            value: 0,
            start: RFC3339.date(from: "2026-03-03T08:00:00Z")!,
            end: RFC3339.date(from: "2026-03-03T08:10:00Z")!,
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: "org.example.a", name: "A"))
        )
        let text = String(decoding: try HealthJSON.encode([Sample.category(sample)]), as: UTF8.self)
        for (member, accepted) in [
            (#""quantity":{"unit":"count","value":1}"#, true), (#""count":3"#, true),
            (#""quantity":{"unit":"count","value":1x}"#, false), (#""quantity":{"unit":"count","value":[1,}"#, false),
            (#""count":3x"#, false), (#""mostRecentQuantityEndDate":tru"#, false),
        ] {
            let edited = Data(text.replacingOccurrences(of: #"[{"#, with: "[{" + member + ",").utf8)
            let decoded = Self.codable(edited)
            #expect((decoded != nil) == accepted, "\(member)")
            #expect(Self.fast(edited) == decoded, "\(member)")
        }
    }

    /// Texts that the Codable decoder reads its own way, each read the same way or left to it.
    @Test(arguments: SampleJSONTests.edgeCases)
    func edgeCasesAreTheDecodersOrLeftToIt(edit: Edit) throws {
        let sample = try QuantitySample(
            uuid: UUID(uuidString: "6F1C2A9E-3B7D-4E55-9A0C-1D2E3F405162")!,
            type: .heartRate,
            quantity: Quantity(72, .countPerMinute),
            start: RFC3339.date(from: "2026-03-03T08:00:00Z")!,
            end: RFC3339.date(from: "2026-03-03T08:00:00Z")!,
            count: 2,
            discreteSummary: QuantitySample.DiscreteSummary(
                minimum: Quantity(70, .countPerMinute),
                maximum: Quantity(74, .countPerMinute),
                mostRecent: Quantity(74, .countPerMinute),
                mostRecentDateInterval: DateInterval(start: RFC3339.date(from: "2026-03-03T08:00:00Z")!, duration: 0)
            ),
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: "org.example.a", name: "A")),
            metadata: ["org.example.k": .string("v"), .wasUserEntered: .bool(true)]
        )
        let text = String(decoding: try HealthJSON.encode([Sample.quantity(sample)]), as: UTF8.self)
        let edited = Data(text.replacingOccurrences(of: edit.from, with: edit.to).utf8)
        #expect(edited != Data(text.utf8), "\(edit.from) is in \(text)")
        let decoded = Self.codable(edited)
        let fast = Self.fast(edited)
        if let accepts = edit.decoderAccepts {
            #expect((decoded != nil) == accepts, "\(String(decoding: edited, as: UTF8.self))")
        }
        // Never a text the decoder refuses, nor another value.
        if decoded == nil { #expect(fast == nil) }
        #expect((fast != nil) == edit.readByHand, "\(String(decoding: edited, as: UTF8.self))")
        if let fast { #expect(fast == decoded) }
    }

    struct Edit: Sendable, CustomTestStringConvertible {
        let from: String
        let to: String
        /// Nil: not asserted (what Foundation's decoder makes of it is its own affair).
        let decoderAccepts: Bool?
        let readByHand: Bool
        var testDescription: String { "\(from) → \(to)" }
    }

    static let edgeCases: [Edit] = [
        Edit(from: #""count":2"#, to: #""count":2e0"#, decoderAccepts: true, readByHand: false),
        Edit(from: #""count":2"#, to: #""count":2.0"#, decoderAccepts: true, readByHand: false),
        Edit(from: #""count":2"#, to: #""count":2.5"#, decoderAccepts: false, readByHand: false),
        // A member of the kind is passed by its structure and read once the type is known: read
        // whole, white space after it allowed, and a member of another kind checked all the same.
        Edit(from: #""count":2"#, to: #""count":2x"#, decoderAccepts: false, readByHand: false),
        Edit(from: #""count":2"#, to: #""count":2 "#, decoderAccepts: true, readByHand: true),
        Edit(from: #""value":72}"#, to: #""value":72tru}"#, decoderAccepts: false, readByHand: false),
        Edit(from: #""metadata":{"#, to: #""value":1x,"metadata":{"#, decoderAccepts: false, readByHand: false),
        Edit(
            from: #""metadata":{"#,
            to: #""value":[1,{"a":tru}],"metadata":{"#,
            decoderAccepts: false,
            readByHand: false
        ),
        Edit(from: #""count":2"#, to: #""count":2,"count":3"#, decoderAccepts: true, readByHand: false),
        Edit(from: #""count":2"#, to: #""count":99999999999999999999"#, decoderAccepts: false, readByHand: false),
        Edit(from: #""value":72}"#, to: #""value":7.2e1}"#, decoderAccepts: true, readByHand: true),
        Edit(from: #""value":72}"#, to: #""value":72,"value":73}"#, decoderAccepts: true, readByHand: false),
        Edit(from: #""org.example.k":"v""#, to: #""org.example.k":-0"#, decoderAccepts: true, readByHand: true),
        Edit(from: #""org.example.k":"v""#, to: #""org.example.k":-1.5E-3"#, decoderAccepts: true, readByHand: true),
        Edit(from: #""value":72}"#, to: #""value":1e400}"#, decoderAccepts: false, readByHand: false),
        Edit(from: #""value":72}"#, to: #""value":"72"}"#, decoderAccepts: false, readByHand: false),
        Edit(from: #""value":72}"#, to: #""value":72,}"#, decoderAccepts: nil, readByHand: false),
        Edit(from: #""org.example.k":"v""#, to: #""k":"\u0076""#, decoderAccepts: true, readByHand: true),
        Edit(from: #""org.example.k":"v""#, to: #""k":"\ud83d\ude00""#, decoderAccepts: true, readByHand: true),
        Edit(from: #""org.example.k":"v""#, to: #""k":"\ud83d""#, decoderAccepts: false, readByHand: false),
        Edit(from: #""org.example.k":"v""#, to: #""k":true"#, decoderAccepts: true, readByHand: true),
        Edit(from: #""org.example.k":"v""#, to: #""k":null"#, decoderAccepts: false, readByHand: false),
        Edit(from: #""org.example.k":"v""#, to: #""k":[1]"#, decoderAccepts: false, readByHand: false),
        Edit(
            from: #""org.example.k":"v""#,
            to: #""k":{"date":"2026-03-03T08:00:00+01:00"}"#,
            decoderAccepts: true,
            readByHand: true
        ),
        Edit(
            from: #""org.example.k":"v""#,
            to: #""k":{"value":1,"unit":"km","x":null}"#,
            decoderAccepts: true,
            readByHand: true
        ),
        Edit(
            from: #""org.example.k":"v""#,
            to: #""org.example.k":"v","org.example.k":"w""#,
            decoderAccepts: true,
            readByHand: false
        ),
        Edit(
            from: #""org.example.k":"v""#,
            to: #""org.example.\u00e9":"v","org.example.e\u0301":"w""#,
            decoderAccepts: nil,
            readByHand: false
        ),
        Edit(from: #""HKWasUserEntered":1"#, to: #""HKWasUserEntered":1.0"#, decoderAccepts: true, readByHand: true),
        Edit(from: #""HKWasUserEntered":1"#, to: #""HKWasUserEntered":2"#, decoderAccepts: false, readByHand: false),
        Edit(from: #""metadata":{"#, to: #""device":null,"metadata":{"#, decoderAccepts: true, readByHand: true),
        Edit(
            from: #""metadata":{"#,
            to: #""device":{"name":null,"model":"M"},"metadata":{"#,
            decoderAccepts: true,
            readByHand: true
        ),
        Edit(
            from: #""metadata":{"#,
            to: #""device":{"name":1},"metadata":{"#,
            decoderAccepts: false,
            readByHand: false
        ),
        Edit(
            from: #""metadata":{"#,
            to: #""extra":{"deep":[[[{}]]]},"metadata":{"#,
            decoderAccepts: true,
            readByHand: true
        ),
        Edit(from: #""metadata":{"#, to: #""extra":[1,],"metadata":{"#, decoderAccepts: nil, readByHand: false),
        Edit(from: #""metadata":{"#, to: #""metadata":null,"metadata2":{"#, decoderAccepts: true, readByHand: true),
        Edit(from: #""uuid":"6F1C2A9E"#, to: #""uuid":"6f1c2a9e"#, decoderAccepts: true, readByHand: true),
        Edit(from: #""uuid":"6F1C2A9E-"#, to: #""uuid":"6F1C2A9E"#, decoderAccepts: false, readByHand: false),
        Edit(
            from: #""startDate":"2026-03-03T08:00:00.000Z""#,
            to: #""startDate":"2026-03-03T09:00:00+01:00""#,
            decoderAccepts: true,
            readByHand: true
        ),
        Edit(
            from: #""startDate":"2026-03-03T08:00:00.000Z""#,
            to: #""startDate":"2026-03-03T08:00:01Z""#,
            decoderAccepts: false,
            readByHand: false
        ),
        Edit(
            from: #""minimumQuantity":{"unit":"count/min","value":70},"#,
            to: "",
            decoderAccepts: false,
            readByHand: false
        ),
        Edit(
            from: #""mostRecentQuantityEndDate":"2026-03-03T08:00:00.000Z","#,
            to: #""mostRecentQuantityEndDate":null,"#,
            decoderAccepts: false,
            readByHand: false
        ),
        Edit(
            from: #""type":"HKQuantityTypeIdentifierHeartRate""#,
            to: #""type":"HKQuantityTypeIdentifierHeartRate","type":"HKQuantityTypeIdentifierStepCount""#,
            decoderAccepts: true,
            readByHand: false
        ),
        Edit(
            from: #""type":"HKQuantityTypeIdentifierHeartRate""#,
            to: #""type":"HKQuantityTypeIdentifierNope""#,
            decoderAccepts: false,
            readByHand: false
        ),
        Edit(
            from: #""source":{"#,
            to: #""source":{"bundleIdentifier":null,"#,
            decoderAccepts: false,
            readByHand: false
        ),
        Edit(
            from: #""source":{"#,
            to: #""version":null,"productType":"P","source":{"#,
            decoderAccepts: true,
            readByHand: true
        ),
        Edit(from: "[", to: " [ \n\t", decoderAccepts: true, readByHand: true),
        Edit(from: "]", to: "] x", decoderAccepts: false, readByHand: false),
    ]
}
