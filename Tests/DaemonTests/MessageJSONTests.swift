import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultProtocol

/// The hand-written forms of the messages around statistics (RPCWrittenResponse, RPCResult.read,
/// RPCHead.scan) against the Codable ones they stand in for.
@Suite struct MessageJSONTests {
    static let collection = StatisticsCollection(
        quantityType: .stepCount,
        anchorDate: Date(timeIntervalSinceReferenceDate: 757_382_400),
        intervalComponents: IntervalComponents(hour: 1),
        timeZone: "Europe/Paris",
        statistics: (0..<3).map { hour in
            Statistics(
                quantityType: .stepCount,
                startDate: Date(timeIntervalSinceReferenceDate: 757_382_400 + Double(hour) * 3600),
                endDate: Date(timeIntervalSinceReferenceDate: 757_386_000 + Double(hour) * 3600),
                values: StatisticsValues(sum: Quantity(Double(hour) * 101.25, .count)),
                sources: [
                    Source(bundleIdentifier: "org.example.phone", name: "Phone"),
                    Source(bundleIdentifier: "org.example.watch", name: "Watch \"2\" \\ /"),
                ]
            )
        }
    )

    @Test(arguments: [RPCID.number(7), .number(-9_007_199_254_740_993), .string("a \"quoted\" id\n")])
    func writtenAnswersAreTheEncodersBytes(id: RPCID) throws {
        let answers: [(any JSONWritable, Data)] = [
            (
                StatisticsCollectionResult(collection: Self.collection),
                try HealthJSON.encode(
                    RPCResponse(id: id, result: StatisticsCollectionResult(collection: Self.collection))
                )
            ),
            (
                StatisticsResult(statistics: Self.collection.statistics[1]),
                try HealthJSON.encode(
                    RPCResponse(id: id, result: StatisticsResult(statistics: Self.collection.statistics[1]))
                )
            ),
            (
                StatisticsResult(statistics: nil),
                try HealthJSON.encode(RPCResponse(id: id, result: StatisticsResult(statistics: nil)))
            ),
        ]
        for (result, expected) in answers {
            let written = try RPCWrittenResponse(id: id, result: result).json()
            #expect(written == expected, "\(String(decoding: expected, as: UTF8.self))")
            let head = try RPCHead.scan(written)
            #expect(head.id == id && head.hasResult && head.error == nil && head.jsonrpc == "2.0")
        }
        let data = try RPCWrittenResponse(id: id, result: StatisticsCollectionResult(collection: Self.collection))
            .json()
        #expect(try RPCResult<StatisticsCollectionResult>.read(from: data).collection == Self.collection)
        #expect(
            try RPCResult<StatisticsResult>.read(
                from: try HealthJSON.encode(RPCResponse(id: id, result: StatisticsResult(statistics: nil)))
            ).statistics == nil
        )
    }

    @Test func scannedHeadsAreTheDecodedOnes() throws {
        let frames = [
            #"{"id":1,"jsonrpc":"2.0","result":{"collection":{"statistics":[{"a":[1,2,{"b":"}"}]}]}}}"#,
            #"{"error":{"code":-32000,"message":"no","data":{"code":"invalidArgument","message":"bad","field":"x"}},"id":3,"jsonrpc":"2.0"}"#,
            #"{"error":{"code":-32700,"message":"parse"},"id":null,"jsonrpc":"2.0"}"#,
            #"{"jsonrpc":"2.0","method":"observer.update","params":{"subscription":"x"}}"#,
            #"{"jsonrpc":"2.0","id":"abc","result":{}}"#,
            #"{"jsonrpc":"2.0","id":1.5,"result":{}}"#,
            #"{"jsonrpc":"2.0","id":[1],"result":null}"#,
            #" { "result" : 1 , "id" : 12 } "#,
        ]
        for frame in frames {
            let data = Data(frame.utf8)
            let decoded = try HealthJSON.decode(RPCHead.self, from: data)
            let scanned = try RPCHead.scan(data)
            #expect(scanned.id == decoded.id, "\(frame)")
            #expect(scanned.jsonrpc == decoded.jsonrpc, "\(frame)")
            #expect(scanned.method == decoded.method, "\(frame)")
            #expect(scanned.hasResult == decoded.hasResult, "\(frame)")
            #expect(scanned.error == decoded.error, "\(frame)")
        }
        // A malformed result is only skipped by its structure while routing; reading it refuses it.
        let garbage = Data(#"{"id":9,"jsonrpc":"2.0","result":{"collection":[,1 2]}}"#.utf8)
        #expect(try RPCHead.scan(garbage).id == .number(9))
        #expect(throws: HealthError.self) { try RPCResult<StatisticsCollectionResult>.read(from: garbage) }
        for frame in [#"{"id":1,"result":{"#, #"[1]"#, #"{"id":1} {}"#, #"{"jsonrpc":2,"id":1}"#, ""] {
            #expect(throws: (any Error).self, "\(frame)") { try RPCHead.scan(Data(frame.utf8)) }
            #expect(throws: (any Error).self, "\(frame)") {
                try HealthJSON.decode(RPCHead.self, from: Data(frame.utf8))
            }
        }
    }

    /// A success answer in the daemon's own form is routed by its first bytes; every other message
    /// is left to ``RPCHead/scan(_:)``, whose id agrees wherever both answer.
    @Test func successAnswersAreKnownByTheirFirstBytes() throws {
        for id in [0, 7, 12, 123_456_789_012_345_678] as [Int64] {
            let written = try RPCWrittenResponse(id: .number(id), result: StatisticsResult(statistics: nil)).json()
            #expect(RPCHead.successID(written) == id)
            #expect(try RPCHead.scan(written).id == .number(id))
            let encoded = try HealthJSON.encode(RPCResponse(id: .number(id), result: Empty()))
            #expect(RPCHead.successID(encoded) == id)
        }
        let others = [
            #"{"error":{"code":-32000,"message":"no"},"id":3,"jsonrpc":"2.0"}"#,
            #"{"id":"3","jsonrpc":"2.0","result":{}}"#,
            #"{"id":-3,"jsonrpc":"2.0","result":{}}"#,
            #"{"id":03,"jsonrpc":"2.0","result":{}}"#,
            #"{"id":3.5,"jsonrpc":"2.0","result":{}}"#,
            #"{"id":1234567890123456789,"jsonrpc":"2.0","result":{}}"#,
            #"{"id":3,"jsonrpc":"1.0","result":{}}"#,
            #"{"id":3, "jsonrpc":"2.0","result":{}}"#,
            #"{"id":3,"jsonrpc":"2.0","method":"observer.update","params":{}}"#,
            #"{"jsonrpc":"2.0","id":3,"result":{}}"#,
            #"{"id":"#,
            #"{"id":3"#,
            "",
        ]
        for frame in others {
            #expect(RPCHead.successID(Data(frame.utf8)) == nil, "\(frame)")
        }
    }

    /// Samples of every kind, with series and metadata of every kind among them.
    static func samples(seed: UInt64, count: Int) -> [Sample] {
        var rng = RandomModel.seeded(seed)
        return (0..<count).map { index in
            switch index % 4 {
            case 0: .quantity(RandomModel.quantitySample(&rng))
            case 1: .category(RandomModel.categorySample(&rng))
            case 2: RandomModel.sample(&rng)
            default: RandomModel.perObjectSample(&rng)
            }
        }
    }

    @Test(arguments: [RPCID.number(12), .string("a \"quoted\" id\n")])
    func sampleAnswersAndSaveRequestsAreTheEncodersBytes(id: RPCID) throws {
        for seed in UInt64(1)...20 {
            let samples = Self.samples(seed: seed, count: Int(seed % 7) * 3)
            let answer = SamplesResult(samples: samples)
            let written = try RPCWrittenResponse(id: id, result: answer).json()
            #expect(written == (try HealthJSON.encode(RPCResponse(id: id, result: answer))))
            let page = AnchoredObjectQueryResult(
                addedSamples: samples,
                deletedObjects: samples.prefix(3).map { DeletedObject(uuid: $0.uuid, sampleType: $0.sampleType) },
                newAnchor: QueryAnchor(token: "anchor \(seed)")
            )
            let writtenPage = try RPCWrittenResponse(id: id, result: page).json()
            #expect(writtenPage == (try HealthJSON.encode(RPCResponse(id: id, result: page))))
            let save = SaveParams(objects: samples)
            let request = try RPCWrittenRequest(id: id, method: Method.save, params: save).json()
            #expect(request == (try HealthJSON.encode(RPCRequest(id: id, method: Method.save, params: save))))

            // Read back by hand, to the decoder's values.
            let decoded = try HealthJSON.decode(RPCResult<SamplesResult>.self, from: written).result.samples
            #expect(RPCResult<SamplesResult>.readFast(from: written)?.samples == decoded)
            let decodedPage = try HealthJSON.decode(RPCResult<AnchoredObjectQueryResult>.self, from: writtenPage).result
            let readPage = RPCResult<AnchoredObjectQueryResult>.readFast(from: writtenPage)
            #expect(readPage?.addedSamples == decodedPage.addedSamples)
            #expect(readPage?.deletedObjects == decodedPage.deletedObjects)
            #expect(readPage?.newAnchor == decodedPage.newAnchor)
            let decodedSave = try HealthJSON.decode(RPCParams<SaveParams>.self, from: request).params.objects
            #expect(RPCParams<SaveParams>.readFast(from: request)?.objects == decodedSave)

            // A request as another client writes it: the same samples, or left to the decoder.
            var rng = RandomModel.seeded(seed)
            let other = Data(Reshaper.reshape(request, &rng).utf8)
            #expect(try HealthJSON.decode(RPCParams<SaveParams>.self, from: other).params.objects == decodedSave)
            let otherFast = RPCParams<SaveParams>.readFast(from: other)?.objects
            #expect(otherFast == nil || otherFast == decodedSave)
        }
    }

    /// What the fast readers leave to the decoder: no `params` or `result` (or twice), a frame
    /// nested too deeply, trailing bytes, a value they refuse.
    @Test func fastReadersLeaveTheRestToTheDecoder() {
        let sample =
            #"{"endDate":"2026-03-03T08:30:00.000Z","quantity":{"unit":"count","value":12},"sourceRevision":{"source":{"bundleIdentifier":"x","name":"x"}},"startDate":"2026-03-03T08:00:00.000Z","type":"HKQuantityTypeIdentifierStepCount","uuid":"6B1A1D5E-2D4B-4E1A-9A57-1F3C2B7E4D10"}"#
        let good = #"{"id":1,"jsonrpc":"2.0","method":"samples.save","params":{"objects":["# + sample + "]}}"
        #expect(RPCParams<SaveParams>.readFast(from: Data(good.utf8))?.objects.count == 1)
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        for frame in [
            #"{"id":1,"jsonrpc":"2.0","method":"samples.save"}"#,
            #"{"id":1,"method":"samples.save","params":{"objects":[]},"params":{"objects":[]}}"#,
            #"{"id":1,"method":"samples.save","params":{"objects":[],"objects":[]}}"#,
            #"{"id":1,"method":"samples.save","x":"# + deep + #","params":{"objects":[]}}"#,
            good + " x",
            good.replacingOccurrences(of: #""value":12"#, with: #""value":-12"#),
        ] {
            #expect(RPCParams<SaveParams>.readFast(from: Data(frame.utf8)) == nil, "\(frame)")
        }
        // The reader stops at the depth the scan before the decoder allows (the frame's object is
        // the first level): 128 levels are read, 129 left to the decoder, which refuses them.
        for (levels, read) in [(127, true), (128, false)] {
            let nested = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            let frame = Data((#"{"id":1,"method":"samples.save","x":"# + nested + #","params":{"objects":[]}}"#).utf8)
            #expect(JSONNesting.isWithin(frame) == read)
            #expect((RPCParams<SaveParams>.readFast(from: frame) != nil) == read, "\(levels) levels")
        }
        // Inside a sample (the frame, params, objects and the sample are four levels).
        for (levels, read) in [(124, true), (125, false)] {
            let nested = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            let deepSample = sample.replacingOccurrences(of: #"{"endDate""#, with: #"{"x":"# + nested + #","endDate""#)
            let frame = Data(
                (#"{"id":1,"jsonrpc":"2.0","method":"samples.save","params":{"objects":["# + deepSample + "]}}").utf8
            )
            #expect(JSONNesting.isWithin(frame) == read)
            #expect((RPCParams<SaveParams>.readFast(from: frame) != nil) == read, "\(levels) levels in a sample")
        }
        // A member of a sample's kind is passed where it stands and read, or checked, after the
        // sample: held to the depth allowed where it stands all the same. A category's `value`
        // beside a quantity's members (checked after), a quantity's `quantity` (read after; the
        // nesting inside it starts a level deeper), and a member a workout's decoder reads.
        let run = try! Workout(
            activityType: .running,
            start: Date(timeIntervalSinceReferenceDate: 794_217_600),
            end: Date(timeIntervalSinceReferenceDate: 794_219_400),
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: "x", name: "x"))
        )
        let workout = String(decoding: try! HealthJSON.encode(Sample.workout(run)), as: UTF8.self)
        for (base, place, levels) in [
            (sample, "value", 124), (sample, "quantity", 123), (workout, "mostRecentQuantityStartDate", 124),
        ] {
            for (levels, read) in [(levels, true), (levels + 1, false)] {
                let nested = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
                let deepSample =
                    place == "quantity"
                    ? base.replacingOccurrences(of: #""value":12}"#, with: #""value":12,"x":"# + nested + "}")
                    : "{\"\(place)\":" + nested + "," + base.dropFirst()
                #expect(deepSample != base)
                let frame = Data(
                    (#"{"id":1,"jsonrpc":"2.0","method":"samples.save","params":{"objects":["# + deepSample + "]}}")
                        .utf8
                )
                #expect(JSONNesting.isWithin(frame) == read, "\(levels) levels in \(place)")
                #expect(
                    (RPCParams<SaveParams>.readFast(from: frame) != nil) == read,
                    "\(levels) levels in \(place)"
                )
            }
        }
    }
}
