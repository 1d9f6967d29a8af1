public import Foundation

// Samples write and read their wire JSON by hand (JSONWriter, JSONReader): a sample query's
// answer of 10,000 samples, an anchored query's page and a save's request spent most of their
// time in the generic coders. Quantity samples (series included) and category samples, nearly
// every sample a vault holds, are written and read here; every other kind (correlations,
// workouts, routes, states of mind, assessments, electrocardiograms, audiograms, heartbeat
// series, vision prescriptions, CDA documents) goes through the Codable form sample by sample,
// inside the same array. The bytes are exactly the Codable form's (docs/MODEL_JSON.md);
// Tests/HealthModelTests/SampleJSONTests.swift compares both, byte for byte and value for value.
//
// The readers here are fast paths, not a second definition of the form: they accept only what
// the Codable decoder accepts, with the same values, and refuse (throw) anything they are not
// sure of (a member given twice, a whole number written `1e3` or `1.0`, a `null` where the
// decoder would take it, a value the sample's validation refuses). Their callers then decode the
// same bytes with ``HealthJSON/decode(_:from:)``, which either accepts them or gives its own
// error, naming the field: what is accepted, and every error, is the Codable decoder's.

extension JSONWriter {
    /// A UUID as `JSONEncoder` writes one: its `uuidString`, upper-case.
    public mutating func uuid(_ value: UUID) {
        let hex = Self.upperHex
        // Written into a buffer of its own and appended at once: each append checks the capacity.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 38) { text in
            var at = 0
            func put(_ byte: UInt8) {
                text[at] = byte
                at += 1
            }
            put(UInt8(ascii: "\""))
            withUnsafeBytes(of: value.uuid) { raw in
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 { put(UInt8(ascii: "-")) }
                    put(hex[Int(raw[index] >> 4)])
                    put(hex[Int(raw[index] & 0xF)])
                }
            }
            put(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    private static let upperHex = Array("0123456789ABCDEF".utf8)

    /// Whatever `JSONEncoder` (``HealthJSON/encoder()``) writes for `value`, in place: for the
    /// kinds of value not written by hand.
    public mutating func encoded(_ value: some Encodable) throws {
        raw(try HealthJSON.encode(value))
    }
}

// MARK: Writing

extension Sample: JSONWritable {
    /// A quantity sample of a watch with its source revision takes about 300 bytes; one with a
    /// device, metadata or another kind more (the writer's buffer grows then).
    public static let estimatedJSONBytes = 320

    public var estimatedJSONBytes: Int { Self.estimatedJSONBytes }

    public func write(to writer: inout JSONWriter) throws {
        switch self {
        case .quantity(let sample): try sample.write(to: &writer)
        case .category(let sample): try sample.write(to: &writer)
        default: try writer.encoded(self)
        }
    }
}

extension QuantitySample: JSONWritable {
    public func write(to writer: inout JSONWriter) throws {
        // The members in the order of their names, as the sorted encoder writes them.
        var first = true
        writer.raw("{")
        if count != 1 {
            writer.key("count", first: &first)
            writer.number(count)
        }
        if let device {
            writer.key("device", first: &first)
            device.write(to: &writer)
        }
        writer.key("endDate", first: &first)
        try writer.date(endDate)
        if let discreteSummary {
            writer.key("maximumQuantity", first: &first)
            try discreteSummary.maximum.write(to: &writer)
        }
        if !metadata.isEmpty {
            writer.key("metadata", first: &first)
            try writer.metadata(metadata)
        }
        if let discreteSummary {
            writer.key("minimumQuantity", first: &first)
            try discreteSummary.minimum.write(to: &writer)
            writer.key("mostRecentQuantity", first: &first)
            try discreteSummary.mostRecent.write(to: &writer)
            writer.key("mostRecentQuantityEndDate", first: &first)
            try writer.date(discreteSummary.mostRecentDateInterval.end)
            writer.key("mostRecentQuantityStartDate", first: &first)
            try writer.date(discreteSummary.mostRecentDateInterval.start)
        }
        writer.key("quantity", first: &first)
        try quantity.write(to: &writer)
        writer.key("sourceRevision", first: &first)
        sourceRevision.write(to: &writer)
        writer.key("startDate", first: &first)
        try writer.date(startDate)
        writer.key("type", first: &first)
        writer.string(quantityType.rawValue)
        writer.key("uuid", first: &first)
        writer.uuid(uuid)
        writer.raw("}")
    }
}

extension CategorySample: JSONWritable {
    public func write(to writer: inout JSONWriter) throws {
        var first = true
        writer.raw("{")
        if let device {
            writer.key("device", first: &first)
            device.write(to: &writer)
        }
        writer.key("endDate", first: &first)
        try writer.date(endDate)
        if !metadata.isEmpty {
            writer.key("metadata", first: &first)
            try writer.metadata(metadata)
        }
        writer.key("sourceRevision", first: &first)
        sourceRevision.write(to: &writer)
        writer.key("startDate", first: &first)
        try writer.date(startDate)
        writer.key("type", first: &first)
        writer.string(categoryType.rawValue)
        writer.key("uuid", first: &first)
        writer.uuid(uuid)
        writer.key("value", first: &first)
        writer.number(value)
        writer.raw("}")
    }
}

extension Device {
    func write(to writer: inout JSONWriter) {
        var first = true
        func member(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            writer.key(name, first: &first)
            writer.string(value)
        }
        writer.raw("{")
        member("firmwareVersion", firmwareVersion)
        member("hardwareVersion", hardwareVersion)
        member("localIdentifier", localIdentifier)
        member("manufacturer", manufacturer)
        member("model", model)
        member("name", name)
        member("softwareVersion", softwareVersion)
        member("udiDeviceIdentifier", udiDeviceIdentifier)
        writer.raw("}")
    }
}

extension SourceRevision {
    func write(to writer: inout JSONWriter) {
        // An answer's samples mostly share one revision: its text again, once it is written.
        if let last = writer.lastSourceRevision, last.revision.isSpelled(as: self) {
            writer.bytes.append(contentsOf: last.text)
            return
        }
        let start = writer.bytes.count
        defer { writer.lastSourceRevision = (self, Array(writer.bytes[start...])) }
        var first = true
        writer.raw("{")
        if let operatingSystemVersion {
            writer.key("operatingSystemVersion", first: &first)
            writer.string(operatingSystemVersion)
        }
        if let productType {
            writer.key("productType", first: &first)
            writer.string(productType)
        }
        writer.key("source", first: &first)
        writer.raw("{\"bundleIdentifier\":")
        writer.string(source.bundleIdentifier)
        writer.raw(",\"name\":")
        writer.string(source.name)
        writer.raw("}")
        if let version {
            writer.key("version", first: &first)
            writer.string(version)
        }
        writer.raw("}")
    }
}

extension SourceRevision {
    /// Equal byte for byte, as it is written (`==` on strings is canonical equivalence: "é" and
    /// "e\u{301}" are equal but written apart).
    func isSpelled(as other: SourceRevision) -> Bool {
        func same(_ one: String?, _ other: String?) -> Bool {
            guard var first = one, var second = other else { return one == nil && other == nil }
            return first.withUTF8 { first in
                second.withUTF8 { second in
                    first.count == second.count
                        && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
                }
            }
        }
        return same(source.bundleIdentifier, other.source.bundleIdentifier) && same(source.name, other.source.name)
            && same(version, other.version) && same(productType, other.productType)
            && same(operatingSystemVersion, other.operatingSystemVersion)
    }
}

extension JSONWriter {
    /// Metadata as the sorted encoder writes a dictionary: members in the byte order of their
    /// keys' UTF-8.
    mutating func metadata(_ metadata: Metadata) throws {
        raw("{")
        var first = true
        let keys =
            metadata.count == 1
            ? Array(metadata.keys)
            : metadata.keys.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
        for key in keys {
            if !first { raw(",") }
            first = false
            string(key.rawValue)
            raw(":")
            switch metadata[key]! {
            case .string(let text): string(text)
            case .number(let number): try self.number(number)
            case .date(let date):
                raw("{\"date\":")
                try self.date(date)
                raw("}")
            case .quantity(let quantity): try quantity.write(to: &self)
            }
        }
        raw("}")
    }
}

extension DeletedObject: JSONWritable {
    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"type\":")
        writer.string(sampleType.identifier)
        writer.raw(",\"uuid\":")
        writer.uuid(uuid)
        writer.raw("}")
    }
}

extension AnchoredObjectQueryResult: JSONWritable {
    public var estimatedJSONBytes: Int {
        64 + addedSamples.count * Sample.estimatedJSONBytes + deletedObjects.count * 96
    }

    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"addedSamples\":")
        try writer.array(addedSamples) { writer, sample in try sample.write(to: &writer) }
        writer.raw(",\"deletedObjects\":")
        try writer.array(deletedObjects) { writer, object in try object.write(to: &writer) }
        writer.raw(",\"newAnchor\":")
        writer.string(newAnchor.token)
        writer.raw("}")
    }
}

// MARK: Reading

/// Which members of an object a reader has met, to refuse a member given twice (the Codable
/// decoder keeps the first; the fast readers leave such a text to it).
struct SeenMembers {
    private var bits: UInt32 = 0

    mutating func insert(_ bit: Int) throws(HealthError) {
        let mask: UInt32 = 1 << UInt32(bit)
        guard bits & mask == 0 else { throw HealthError.invalidArgument("a member given twice") }
        bits |= mask
    }
}

extension Sample: JSONReadable {
    /// Reads a sample as ``HealthJSON/decode(_:from:)`` does, in one pass: the members every
    /// sample has are read as they come; a member of one kind (a quantity's `quantity`, a
    /// category's `value`) is passed by its structure and its place kept, and read there in full
    /// once the `type` (which sorts after most of them) says the kind; one the kind does not read
    /// is then checked all the same. Any sample the fast path is not sure of throws (the
    /// caller decodes the text again with the Codable decoder); a sample of another kind is decoded
    /// by the Codable decoder from its bytes.
    public init(reading reader: inout JSONReader) throws(HealthError) {
        let start = reader.offsetOfNextValue()
        var common = CommonMembers()
        var seen = SeenMembers()
        var places = KindMembers()
        var type: SampleType?
        try reader.object { (reader, key) throws(HealthError) in
            if key == "type" {
                try seen.insert(1)
                type = try reader.sampleType()
            } else if try !reader.commonMember(key, &common, &seen) {
                try places.keep(key, &reader)
            }
        }
        guard let type else { throw HealthError.invalidArgument("a sample without its type") }
        switch type {
        case .quantity(let type):
            self = .quantity(try QuantitySample(common, &places, type: type, &reader))
            try places.checkUnread(&reader)
        case .category(let type):
            self = .category(try CategorySample(common, &places, type: type, &reader))
            try places.checkUnread(&reader)
        default:
            do {
                self = try HealthJSON.decoder().decode(Sample.self, from: Data(reader.bytes(from: start)))
            } catch {
                throw HealthError.invalidArgument("a sample the generic decoder refuses")
            }
        }
    }
}

/// Where the members of one kind of sample stand in the text: a quantity sample's and a category
/// sample's, each at most once, each passed by its structure (to the depth allowed where it
/// stands) and checked in full when it is read, or after the sample when it is not.
struct KindMembers {
    enum Member: Int {
        case quantity, count, minimumQuantity, maximumQuantity, mostRecentQuantity
        case mostRecentQuantityStartDate, mostRecentQuantityEndDate, value

        init?(_ key: JSONKey) {
            switch key {
            case "quantity": self = .quantity
            case "count": self = .count
            case "minimumQuantity": self = .minimumQuantity
            case "maximumQuantity": self = .maximumQuantity
            case "mostRecentQuantity": self = .mostRecentQuantity
            case "mostRecentQuantityStartDate": self = .mostRecentQuantityStartDate
            case "mostRecentQuantityEndDate": self = .mostRecentQuantityEndDate
            case "value": self = .value
            default: return nil
            }
        }
    }

    /// Each member's offset in the text, -1 for none, and where its value ends (white space after
    /// it passed).
    private var offsets = InlineArray<8, Int>(repeating: -1)
    private var ends = InlineArray<8, Int>(repeating: -1)
    /// The members read where they stand (a bit a member).
    private var read: UInt8 = 0

    /// Keeps the place of `key`'s value if it is one of the members (a second time throws), and
    /// passes the value by its structure alone: a member kept is checked in full when it is read,
    /// or by ``checkUnread(_:)``. Any other member is skipped and checked now.
    mutating func keep(_ key: JSONKey, _ reader: inout JSONReader) throws(HealthError) {
        guard let member = Member(key) else { return try reader.skip() }
        guard offsets[member.rawValue] < 0 else { throw HealthError.invalidArgument("a member given twice") }
        offsets[member.rawValue] = reader.offsetOfNextValue()
        try reader.skipStructure()
        ends[member.rawValue] = reader.offsetOfNextValue()
    }

    /// Reads the value at `index`'s place with `read`, which must read all of it (a number
    /// passed as `2x` would otherwise be read as `2`).
    private func value<T>(
        at index: Int,
        _ reader: inout JSONReader,
        _ read: (inout JSONReader) throws(HealthError) -> T
    ) throws(HealthError) -> T {
        let end = reader.offsetOfNextValue()
        reader.move(to: offsets[index])
        defer { reader.move(to: end) }
        let value = try read(&reader)
        guard reader.offsetOfNextValue() == ends[index] else {
            throw HealthError.invalidArgument("malformed JSON: a value that ends early at byte \(ends[index])")
        }
        return value
    }

    /// Reads `member` with `read` where it stands, if the sample has it; the reader is left where
    /// it was.
    mutating func read<T>(
        _ member: Member,
        _ reader: inout JSONReader,
        _ read: (inout JSONReader) throws(HealthError) -> T
    ) throws(HealthError) -> T? {
        guard offsets[member.rawValue] >= 0 else { return nil }
        self.read |= 1 << UInt8(member.rawValue)
        return try value(at: member.rawValue, &reader, read)
    }

    /// Checks in full each member kept but not read (a category's `value` beside a quantity
    /// sample's members, say): the text must be JSON wherever it is not read.
    func checkUnread(_ reader: inout JSONReader) throws(HealthError) {
        for index in 0..<offsets.count where offsets[index] >= 0 && read & (1 << UInt8(index)) == 0 {
            try value(at: index, &reader) { (reader) throws(HealthError) in try reader.skip() }
        }
    }
}

extension JSONReader {
    /// A member every sample has (uuid, dates, source revision, device, metadata); false for
    /// another member, left unread.
    mutating func commonMember(
        _ key: JSONKey,
        _ common: inout CommonMembers,
        _ seen: inout SeenMembers
    ) throws(HealthError) -> Bool {
        switch key {
        case "uuid":
            try seen.insert(0)
            common.uuid = try uuid()
        case "startDate":
            try seen.insert(2)
            common.startDate = try date(field: "startDate")
        case "endDate":
            try seen.insert(3)
            common.endDate = try date(field: "endDate")
        case "sourceRevision":
            try seen.insert(4)
            common.sourceRevision = try sourceRevision()
        case "device":
            try seen.insert(5)
            common.device = try null() ? nil : try device()
        case "metadata":
            try seen.insert(6)
            common.metadata = try null() ? [:] : try metadata()
        default:
            return false
        }
        return true
    }

    /// A quantity as `Quantity`'s decoder reads one, strictly: a unit string and a number, each
    /// once; other members skipped.
    mutating func strictQuantity() throws(HealthError) -> Quantity {
        var unit: HealthUnit?
        var value: Double?
        var seen = SeenMembers()
        try object { (reader, key) throws(HealthError) in
            switch key {
            case "unit":
                try seen.insert(0)
                unit = try reader.unit()
            case "value":
                try seen.insert(1)
                value = try reader.double()
            default: try reader.skip()
            }
        }
        guard let unit, let value else { throw HealthError.invalidArgument("a quantity needs a unit and a value") }
        return Quantity(value, unit)
    }

    /// Metadata as `[MetadataKey: MetadataValue]` decodes: each value a string, true or false (1
    /// or 0), a number, `{"date": …}` or a quantity.
    mutating func metadata() throws(HealthError) -> Metadata {
        var metadata: Metadata = [:]
        try object { (reader, key) throws(HealthError) in
            let name = MetadataKey(rawValue: key.description)
            // Two spellings of one key (`é` and `e` with a combining accent are one Swift string).
            guard metadata[name] == nil else { throw HealthError.invalidArgument("a metadata key given twice") }
            metadata[name] = try reader.metadataValue()
        }
        return metadata
    }

    private mutating func metadataValue() throws(HealthError) -> MetadataValue {
        switch try peekByte() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try bool())
        case UInt8(ascii: "{"):
            // `{"date": …}` whatever else it holds; otherwise a quantity.
            var probe = self
            var isDate = false
            try probe.object { (reader, key) throws(HealthError) in
                if key == "date" { isDate = true }
                try reader.skipStructure()
            }
            guard isDate else { return .quantity(try strictQuantity()) }
            var date: Date?
            var seen = SeenMembers()
            try object { (reader, key) throws(HealthError) in
                if key == "date" {
                    try seen.insert(0)
                    date = try reader.date(field: "metadata")
                } else {
                    try reader.skip()
                }
            }
            guard let date else { throw HealthError.invalidArgument("a metadata date without a date") }
            return .date(date)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try double())
        default: throw HealthError.invalidArgument("a metadata value of another kind")
        }
    }
}

/// The members every sample has, as they are read.
struct CommonMembers {
    var uuid: UUID?
    var startDate: Date?
    var endDate: Date?
    var sourceRevision: SourceRevision?
    var device: Device?
    var metadata: Metadata = [:]

    func all() throws(HealthError) -> (UUID, Date, Date, SourceRevision) {
        guard let uuid, let startDate, let endDate, let sourceRevision else {
            throw HealthError.invalidArgument("a sample without its uuid, dates or source revision")
        }
        return (uuid, startDate, endDate, sourceRevision)
    }
}

extension QuantitySample {
    init(
        _ common: CommonMembers,
        _ places: inout KindMembers,
        type: QuantityTypeIdentifier,
        _ reader: inout JSONReader
    ) throws(HealthError) {
        func optional<T>(
            _ member: KindMembers.Member,
            _ read: (inout JSONReader) throws(HealthError) -> T
        ) throws(HealthError) -> T? {
            try places.read(member, &reader) { (reader) throws(HealthError) in
                try reader.null() ? nil : try read(&reader)
            }
                ?? nil
        }
        let (uuid, start, end, sourceRevision) = try common.all()
        guard
            let quantity = try places.read(
                .quantity,
                &reader,
                { (reader) throws(HealthError) in try reader.strictQuantity() }
            )
        else { throw HealthError.invalidArgument("a quantity sample without its quantity") }
        let count = try optional(.count) { (reader) throws(HealthError) in try reader.plainInt() }
        let minimum = try optional(.minimumQuantity) { (reader) throws(HealthError) in try reader.strictQuantity() }
        let maximum = try optional(.maximumQuantity) { (reader) throws(HealthError) in try reader.strictQuantity() }
        let mostRecent = try optional(.mostRecentQuantity) { (reader) throws(HealthError) in try reader.strictQuantity()
        }
        let mostRecentStart = try optional(.mostRecentQuantityStartDate) { (reader) throws(HealthError) in
            try reader.date(field: "mostRecentQuantityStartDate")
        }
        let mostRecentEnd = try optional(.mostRecentQuantityEndDate) { (reader) throws(HealthError) in
            try reader.date(field: "mostRecentQuantityEndDate")
        }
        var summary: DiscreteSummary?
        if minimum != nil || maximum != nil || mostRecent != nil || mostRecentStart != nil || mostRecentEnd != nil {
            // All five or none, the dates in order: anything else is the decoder's to refuse.
            guard let minimum, let maximum, let mostRecent, let mostRecentStart, let mostRecentEnd,
                mostRecentEnd >= mostRecentStart
            else { throw HealthError.invalidArgument("an incomplete discrete summary") }
            summary = DiscreteSummary(
                minimum: minimum,
                maximum: maximum,
                mostRecent: mostRecent,
                mostRecentDateInterval: DateInterval(start: mostRecentStart, end: mostRecentEnd)
            )
        }
        try self.init(
            uuid: uuid,
            type: type,
            quantity: quantity,
            start: start,
            end: end,
            count: count ?? 1,
            discreteSummary: summary,
            sourceRevision: sourceRevision,
            device: common.device,
            metadata: common.metadata
        )
    }
}

extension CategorySample {
    init(
        _ common: CommonMembers,
        _ places: inout KindMembers,
        type: CategoryTypeIdentifier,
        _ reader: inout JSONReader
    ) throws(HealthError) {
        let (uuid, start, end, sourceRevision) = try common.all()
        guard let value = try places.read(.value, &reader, { (reader) throws(HealthError) in try reader.plainInt() })
        else { throw HealthError.invalidArgument("a category sample without its value") }
        try self.init(
            uuid: uuid,
            type: type,
            value: value,
            start: start,
            end: end,
            sourceRevision: sourceRevision,
            device: common.device,
            metadata: common.metadata
        )
    }
}

extension SourceRevision {
    init(reading reader: inout JSONReader) throws(HealthError) {
        var source: Source?
        var version: String?
        var productType: String?
        var operatingSystemVersion: String?
        var seen = SeenMembers()
        func optional(_ reader: inout JSONReader) throws(HealthError) -> String? {
            try reader.null() ? nil : try reader.string()
        }
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "source":
                try seen.insert(0)
                var bundleIdentifier: String?
                var name: String?
                var seenInSource = SeenMembers()
                try reader.object { (reader, key) throws(HealthError) in
                    switch key {
                    case "bundleIdentifier":
                        try seenInSource.insert(0)
                        bundleIdentifier = try reader.string()
                    case "name":
                        try seenInSource.insert(1)
                        name = try reader.string()
                    default: try reader.skip()
                    }
                }
                guard let bundleIdentifier, let name else { throw HealthError.invalidArgument("an incomplete source") }
                source = Source(bundleIdentifier: bundleIdentifier, name: name)
            case "version":
                try seen.insert(1)
                version = try optional(&reader)
            case "productType":
                try seen.insert(2)
                productType = try optional(&reader)
            case "operatingSystemVersion":
                try seen.insert(3)
                operatingSystemVersion = try optional(&reader)
            default: try reader.skip()
            }
        }
        guard let source else { throw HealthError.invalidArgument("a source revision without its source") }
        self.init(
            source: source,
            version: version,
            productType: productType,
            operatingSystemVersion: operatingSystemVersion
        )
    }
}

extension Device {
    init(reading reader: inout JSONReader) throws(HealthError) {
        var values = [String?](repeating: nil, count: 8)
        var seen = SeenMembers()
        try reader.object { (reader, key) throws(HealthError) in
            let index: Int
            switch key {
            case "name": index = 0
            case "manufacturer": index = 1
            case "model": index = 2
            case "hardwareVersion": index = 3
            case "firmwareVersion": index = 4
            case "softwareVersion": index = 5
            case "localIdentifier": index = 6
            case "udiDeviceIdentifier": index = 7
            default:
                try reader.skip()
                return
            }
            try seen.insert(index)
            values[index] = try reader.null() ? nil : try reader.string()
        }
        self.init(
            name: values[0],
            manufacturer: values[1],
            model: values[2],
            hardwareVersion: values[3],
            firmwareVersion: values[4],
            softwareVersion: values[5],
            localIdentifier: values[6],
            udiDeviceIdentifier: values[7]
        )
    }
}

extension DeletedObject: JSONReadable {
    public init(reading reader: inout JSONReader) throws(HealthError) {
        var uuid: UUID?
        var type: SampleType?
        var seen = SeenMembers()
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "uuid":
                try seen.insert(0)
                uuid = try reader.uuid()
            case "type":
                try seen.insert(1)
                type = try reader.sampleType()
            default: try reader.skip()
            }
        }
        guard let uuid, let type else { throw HealthError.invalidArgument("an incomplete deleted object") }
        self.init(uuid: uuid, sampleType: type)
    }
}

extension AnchoredObjectQueryResult: JSONReadable {
    public init(reading reader: inout JSONReader) throws(HealthError) {
        var added: [Sample]?
        var deleted: [DeletedObject]?
        var anchor: String?
        var seen = SeenMembers()
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "addedSamples":
                try seen.insert(0)
                added = try reader.samples()
            case "deletedObjects":
                try seen.insert(1)
                var objects: [DeletedObject] = []
                try reader.array { (reader) throws(HealthError) in objects.append(try DeletedObject(reading: &reader)) }
                deleted = objects
            case "newAnchor":
                try seen.insert(2)
                anchor = try reader.string()
            default: try reader.skip()
            }
        }
        guard let added, let deleted, let anchor else {
            throw HealthError.invalidArgument("an incomplete anchored query result")
        }
        self.init(addedSamples: added, deletedObjects: deleted, newAnchor: QueryAnchor(token: anchor))
    }
}

extension JSONReader {
    /// An array of samples.
    public mutating func samples() throws(HealthError) -> [Sample] {
        var samples: [Sample] = []
        try array { (reader) throws(HealthError) in samples.append(try Sample(reading: &reader)) }
        return samples
    }
}
