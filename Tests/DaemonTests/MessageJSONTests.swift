import Foundation
import HealthModel
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
}
