public import Foundation
public import HealthModel

// The hand-written wire forms (HealthModel's JSONWriter and JSONReader) for the messages around
// large results: the same bytes and values as the Codable forms, without their cost.

extension RPCID {
    func write(to writer: inout JSONWriter) {
        switch self {
        case .number(let number): writer.raw(String(number).utf8)
        case .string(let string): writer.string(string)
        }
    }
}

/// A success answer whose result writes itself (``JSONWritable``): `{"id":…,"jsonrpc":"2.0",
/// "result":…}`, byte for byte what ``HealthJSON/encode(_:)`` writes for ``RPCResponse``.
public struct RPCWrittenResponse {
    public var id: RPCID
    public var result: any JSONWritable

    public init(id: RPCID, result: any JSONWritable) {
        self.id = id
        self.result = result
    }

    public func json() throws -> Data {
        Data(try bytes())
    }

    /// The answer's UTF-8 bytes, written into a buffer of the size the result estimates at first.
    public func bytes() throws -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + result.estimatedJSONBytes)
        writer.raw("{\"id\":")
        id.write(to: &writer)
        writer.raw(",\"jsonrpc\":")
        writer.string(jsonRPCVersion)
        writer.raw(",\"result\":")
        try result.write(to: &writer)
        writer.raw("}")
        return writer.bytes
    }
}

extension RPCResult where Result: JSONReadable {
    /// The `result` member of an answer, read by hand.
    public static func read(from data: Data) throws(HealthError) -> Result {
        var reader = JSONReader(data)
        var result: Result?
        try reader.object { (reader, key) throws(HealthError) in
            if key == "result" {
                result = try Result(reading: &reader)
            } else {
                try reader.skip()
            }
        }
        try reader.end()
        guard let result else { throw HealthError.invalidArgument("missing field", field: "result") }
        return result
    }
}

extension RPCHead {
    /// The head of a message, read without decoding its `result`: the same as decoding ``RPCHead``
    /// from the bytes, except that the `result` is only skipped by its structure (strings and
    /// brackets balanced), however large; whoever takes the answer reads it in full and refuses it
    /// if malformed. Only an `error` member, always small, goes through the generic decoder.
    public static func scan(_ data: Data) throws -> RPCHead {
        var reader = JSONReader(data)
        var head = RPCHead(jsonrpc: nil, id: nil, method: nil, hasResult: false, error: nil)
        var hasError = false
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "jsonrpc":
                head.jsonrpc = try reader.null() ? nil : try reader.string()
            case "method":
                head.method = try reader.null() ? nil : try reader.string()
            case "id":
                head.id = try reader.id()
            case "result":
                // Read in full by whoever takes the answer.
                head.hasResult = true
                try reader.skipStructure()
            case "error":
                hasError = true
                try reader.skip()
            default:
                try reader.skip()
            }
        }
        try reader.end()
        if hasError { return try HealthJSON.decode(RPCHead.self, from: data) }
        return head
    }
}

extension RPCHead {
    /// The id of a success answer as the daemon writes one, members sorted and no white space:
    /// `{"id":12,"jsonrpc":"2.0","result":…` read from its first bytes alone, without the pass
    /// over the whole answer that ``scan(_:)`` makes; nil for any other message, which ``scan(_:)``
    /// reads. The call that takes the answer reads it in full, and refuses it if it is not one
    /// whole JSON-RPC answer.
    public static func successID(_ data: Data) -> Int64? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int64? in
            let opening = #"{"id":"#.utf8
            let closing = #","jsonrpc":"2.0","result":"#.utf8
            guard bytes.starts(with: opening) else { return nil }
            var at = opening.count
            var digits = 0
            var value: Int64 = 0
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) {
                // The ids a client sends: 1, 2, 3 …, no leading zero, well within 18 digits.
                guard digits < 18, digits == 0 || value != 0 else { return nil }
                value = value * 10 + Int64(bytes[at] - UInt8(ascii: "0"))
                digits += 1
                at += 1
            }
            guard digits > 0, bytes[at...].starts(with: closing) else { return nil }
            return value
        }
    }
}

extension JSONReader {
    /// An id as ``RPCHead`` reads one: a number that fits an `Int64`, or a string; anything else
    /// (null, a fraction, an object) is no id.
    fileprivate mutating func id() throws(HealthError) -> RPCID? {
        if try null() { return nil }
        var probe = self
        if let text = try? probe.string() {
            self = probe
            return .string(text)
        }
        probe = self
        if let text = try? probe.numberText() {
            self = probe
            if let exact = Int64(text) { return .number(exact) }
            guard let number = Double(text), number.rounded() == number, let exact = Int64(exactly: number) else {
                return nil
            }
            return .number(exact)
        }
        try skip()
        return nil
    }
}

extension StatisticsResult: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"statistics\":")
        if let statistics {
            try statistics.write(to: &writer)
        } else {
            writer.null()
        }
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var statistics: Statistics?
        try reader.object { (reader, key) throws(HealthError) in
            if key == "statistics" {
                statistics = try reader.null() ? nil : try Statistics(reading: &reader)
            } else {
                try reader.skip()
            }
        }
        self.init(statistics: statistics)
    }
}

extension StatisticsCollectionResult: JSONWritable, JSONReadable {
    /// An interval with a sum or the discrete values and its dates takes about 200 bytes.
    public var estimatedJSONBytes: Int { 256 + collection.statistics.count * 200 }

    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"collection\":")
        try collection.write(to: &writer)
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var collection: StatisticsCollection?
        try reader.object { (reader, key) throws(HealthError) in
            if key == "collection" {
                collection = try StatisticsCollection(reading: &reader)
            } else {
                try reader.skip()
            }
        }
        guard let collection else { throw HealthError.invalidArgument("missing field", field: "collection") }
        self.init(collection: collection)
    }
}

extension RouteQueryResult: JSONWritable, JSONReadable {
    /// A location with its accuracies, course and speed takes about 200 bytes.
    public var estimatedJSONBytes: Int { 64 + locations.count * 200 }

    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"locations\":")
        try writer.array(locations) { writer, location in try location.write(to: &writer) }
        if let next {
            writer.raw(",\"next\":")
            writer.number(next)
        }
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var locations: [WorkoutRouteLocation]?
        var next: Int?
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "locations":
                var read: [WorkoutRouteLocation] = []
                try reader.array { (reader) throws(HealthError) in
                    read.append(try WorkoutRouteLocation(reading: &reader))
                }
                locations = read
            case "next":
                next = try reader.null() ? nil : try reader.int()
            default:
                try reader.skip()
            }
        }
        guard let locations else { throw HealthError.invalidArgument("missing field", field: "locations") }
        self.init(locations: locations, next: next)
    }
}

// MARK: Samples

extension SamplesResult: JSONWritable, JSONReadable {
    public var estimatedJSONBytes: Int { 16 + samples.count * Sample.estimatedJSONBytes }

    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"samples\":")
        try writer.array(samples) { writer, sample in try sample.write(to: &writer) }
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var samples: [Sample]?
        try reader.object { (reader, key) throws(HealthError) in
            if key == "samples" {
                // Given twice: the decoder's to judge.
                guard samples == nil else { throw HealthError.invalidArgument("a member given twice") }
                samples = try reader.samples()
            } else {
                try reader.skip()
            }
        }
        guard let samples else { throw HealthError.invalidArgument("missing field", field: "samples") }
        self.init(samples: samples)
    }
}

extension SaveParams: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"objects\":")
        try writer.array(objects) { writer, sample in try sample.write(to: &writer) }
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var objects: [Sample]?
        try reader.object { (reader, key) throws(HealthError) in
            if key == "objects" {
                guard objects == nil else { throw HealthError.invalidArgument("a member given twice") }
                objects = try reader.samples()
            } else {
                try reader.skip()
            }
        }
        guard let objects else { throw HealthError.invalidArgument("missing field", field: "objects") }
        self.init(objects: objects)
    }
}

/// A request whose params write themselves (``JSONWritable``): `{"id":…,"jsonrpc":"2.0",
/// "method":…,"params":…}`, byte for byte what ``HealthJSON/encode(_:)`` writes for
/// ``RPCRequest``; when the hand-written form throws, the Codable form is written (or throws).
public struct RPCWrittenRequest {
    public var id: RPCID
    public var method: String
    public var params: any JSONWritable

    public init(id: RPCID, method: String, params: any JSONWritable) {
        self.id = id
        self.method = method
        self.params = params
    }

    public func json(capacity: Int = 256) throws -> Data {
        var writer = JSONWriter(capacity: capacity)
        writer.raw("{\"id\":")
        id.write(to: &writer)
        writer.raw(",\"jsonrpc\":")
        writer.string(jsonRPCVersion)
        writer.raw(",\"method\":")
        writer.string(method)
        writer.raw(",\"params\":")
        do {
            try params.write(to: &writer)
        } catch {
            // Only a value the wire cannot carry ends here: the generic encoder's own error.
            return try HealthJSON.encode(RPCRequest(id: id, method: method, params: WrittenValue(value: params)))
        }
        writer.raw("}")
        return Data(writer.bytes)
    }
}

/// One member of a message's top-level object read by hand, or nil when the fast reader is not
/// sure of the text (malformed, a member given twice, a number or a sample it leaves to the
/// Codable decoder, a value that does not validate): the caller then decodes the whole text with
/// ``HealthJSON/decode(_:from:)``, whose answer, value or error, is the one that counts.
///
/// The reader refuses nesting deeper than ``JSONNesting/maximumDepth`` itself, so the text is not
/// scanned for it first (a scan of every byte of a large answer): a text nested deeper is left to
/// the decoder, which refuses it as too deep.
private func readMemberFast<Value: JSONReadable>(_ name: StaticString, from data: Data) -> Value? {
    var reader = JSONReader(data, maximumDepth: JSONNesting.maximumDepth)
    var value: Value?
    var seen = false
    do {
        try reader.object { (reader, key) throws(HealthError) in
            if key == name {
                guard !seen else { throw HealthError.invalidArgument("a member given twice") }
                seen = true
                value = try Value(reading: &reader)
            } else {
                try reader.skip()
            }
        }
        try reader.end()
    } catch {
        return nil
    }
    return value
}

extension RPCParams where Params: JSONReadable {
    /// The `params` of a request read by hand, or nil when the fast reader is not sure of the
    /// text: the caller then decodes it with ``HealthJSON/decode(_:from:)``.
    public static func readFast(from data: Data) -> Params? { readMemberFast("params", from: data) }
}

extension RPCResult where Result: JSONReadable {
    /// The `result` of an answer read by hand, or nil when the fast reader is not sure of the
    /// text: the caller then decodes it with ``HealthJSON/decode(_:from:)``.
    public static func readFast(from data: Data) -> Result? { readMemberFast("result", from: data) }
}

/// A writable value through the generic encoder: what it writes is the value's own Codable form.
struct WrittenValue: Encodable {
    let value: any JSONWritable

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}
