public import Foundation
public import HealthModel

/// Writes the lossless JSON export (docs/EXPORT_JSON.md): `samples.jsonl`, one sample a line in
/// the shape of docs/MODEL_JSON.md with its series; `route-locations.jsonl`, the routes' locations
/// in the order of their routes; `characteristics.jsonl` and `settings.json` for a whole-vault
/// export; and `manifest.json`, last.
public final class JSONExportWriter: ExportWriter {
    public static let manifestFile = ExportDirectory.manifestFile
    public static let samplesFile = "samples.jsonl"
    public static let routeLocationsFile = "route-locations.jsonl"
    public static let characteristicsFile = "characteristics.jsonl"
    public static let settingsFile = "settings.json"
    /// The most locations one line of `route-locations.jsonl` holds.
    public static let locationsPerLine = 10_000

    let directory: ExportDirectory
    private let samples: ExportFile
    private var routeLocations: ExportFile?
    public private(set) var files: [String] = [JSONExportWriter.samplesFile]
    private let encoder = HealthJSON.encoder()

    public init(directory: ExportDirectory) throws {
        self.directory = directory
        // Files of an earlier export in a directory being overwritten would mix with this one's.
        for name in [Self.manifestFile, Self.routeLocationsFile, Self.characteristicsFile, Self.settingsFile] {
            unlink(directory.url.appendingPathComponent(name).path)
        }
        samples = try directory.create(Self.samplesFile)
    }

    public func write(_ exported: ExportedSample) throws {
        var line = try SampleLine.json(of: exported.sample, encoder: encoder)
        // The sample's own members, then what MODEL_JSON keeps outside a sample.
        line.removeLast()  // "}"
        if case .quantity(let quantity) = exported.sample, let quantities = quantity.seriesQuantities {
            line += Array(",\"quantities\":".utf8)
            var writer = JSONWriter(capacity: quantities.count * 96)
            try writer.array(quantities) { writer, entry in try writer.seriesQuantity(entry) }
            line += writer.bytes
        }
        if !exported.workouts.isEmpty {
            line += Array(",\"workouts\":[".utf8)
            for (index, uuid) in exported.workouts.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                line += Array("\"\(uuid.uuidString)\"".utf8)
            }
            line.append(UInt8(ascii: "]"))
        }
        line += Array("}\n".utf8)
        try samples.write(line)
        if let locations = exported.routeLocations {
            let file = try routeLocationsFile()
            var first = 0
            repeat {
                let end = min(first + Self.locationsPerLine, locations.count)
                var writer = JSONWriter(capacity: (end - first) * 200 + 80)
                writer.raw("{\"first\":")
                writer.number(first)
                writer.raw(",\"locations\":")
                try writer.array(Array(locations[first..<end])) { writer, location in try location.write(to: &writer) }
                writer.raw(",\"route\":")
                writer.string(exported.sample.uuid.uuidString)
                writer.raw("}\n")
                try file.write(writer.bytes)
                first = end
            } while first < locations.count
        }
    }

    private func routeLocationsFile() throws -> ExportFile {
        if let routeLocations { return routeLocations }
        let file = try directory.create(Self.routeLocationsFile)
        routeLocations = file
        files.append(Self.routeLocationsFile)
        return file
    }

    public func write(characteristics: [CharacteristicValue], settings: ExportedSettings) throws {
        let file = try directory.create(Self.characteristicsFile)
        for value in characteristics {
            try file.write(try encoder.encode(value) + Data("\n".utf8))
        }
        try file.close()
        let settingsFile = try directory.create(Self.settingsFile)
        try settingsFile.write(try encoder.encode(settings) + Data("\n".utf8))
        try settingsFile.close()
        files += [Self.characteristicsFile, Self.settingsFile]
    }

    public func finish(_ manifest: ExportManifest) throws {
        try samples.close()
        try routeLocations?.close()
        try directory.writeManifest(manifest)
    }
}

extension JSONWriter {
    /// A series quantity as the quantity series query answers it: `{"endDate","quantity","startDate"}`.
    mutating func seriesQuantity(_ entry: QuantitySample.SeriesQuantity) throws {
        raw("{\"endDate\":")
        try date(entry.dateInterval.end)
        raw(",\"quantity\":")
        try entry.quantity.write(to: &self)
        raw(",\"startDate\":")
        try date(entry.dateInterval.start)
        raw("}")
    }
}

/// One sample's JSON, byte for byte as ``HealthJSON`` writes it. Quantity and category samples,
/// nearly all of a vault, are written by hand (``JSONWriter``: the generic encoder cost most of
/// an export's time); their metadata, and every other kind, through the encoder.
/// `Tests/HealthInterchangeTests/JSONExportTests.swift` compares both on random samples.
enum SampleLine {
    static func json(of sample: Sample, encoder: JSONEncoder) throws -> [UInt8] {
        switch sample {
        case .quantity(let quantity):
            var writer = JSONWriter(capacity: 512)
            var first = true
            writer.raw("{")
            if quantity.count != 1 {
                writer.key("count", first: &first)
                writer.number(quantity.count)
            }
            try common(quantity, &writer, &first, encoder: encoder) { writer, first in
                if let summary = quantity.discreteSummary {
                    writer.key("maximumQuantity", first: &first)
                    try summary.maximum.write(to: &writer)
                }
            } middle: { writer, first in
                if let summary = quantity.discreteSummary {
                    writer.key("minimumQuantity", first: &first)
                    try summary.minimum.write(to: &writer)
                    writer.key("mostRecentQuantity", first: &first)
                    try summary.mostRecent.write(to: &writer)
                    writer.key("mostRecentQuantityEndDate", first: &first)
                    try writer.date(summary.mostRecentDateInterval.end)
                    writer.key("mostRecentQuantityStartDate", first: &first)
                    try writer.date(summary.mostRecentDateInterval.start)
                }
                writer.key("quantity", first: &first)
                try quantity.quantity.write(to: &writer)
            } last: { _, _ in
            }
            return writer.bytes
        case .category(let category):
            var writer = JSONWriter(capacity: 512)
            var first = true
            writer.raw("{")
            try common(category, &writer, &first, encoder: encoder) { _, _ in
            } middle: { _, _ in
            } last: { writer, first in
                writer.key("value", first: &first)
                writer.number(category.value)
            }
            return writer.bytes
        default:
            return Array(try encoder.encode(sample))
        }
    }

    /// The members every sample has, in the order of their names, with the kind's own members
    /// where their names fall: `beforeMetadata` (after `endDate`), `middle` (after `metadata`),
    /// `last` (after `uuid`); the object's `{` is the caller's, its `}` written here.
    private static func common(
        _ sample: some HealthSample,
        _ writer: inout JSONWriter,
        _ first: inout Bool,
        encoder: JSONEncoder,
        beforeMetadata: (inout JSONWriter, inout Bool) throws -> Void,
        middle: (inout JSONWriter, inout Bool) throws -> Void,
        last: (inout JSONWriter, inout Bool) throws -> Void
    ) throws {
        if let device = sample.device {
            writer.key("device", first: &first)
            writer.raw("{")
            var inner = true
            for (name, value) in [
                ("firmwareVersion", device.firmwareVersion), ("hardwareVersion", device.hardwareVersion),
                ("localIdentifier", device.localIdentifier), ("manufacturer", device.manufacturer),
                ("model", device.model), ("name", device.name), ("softwareVersion", device.softwareVersion),
                ("udiDeviceIdentifier", device.udiDeviceIdentifier),
            ] as [(StaticString, String?)] {
                guard let value else { continue }
                writer.key(name, first: &inner)
                writer.string(value)
            }
            writer.raw("}")
        }
        writer.key("endDate", first: &first)
        try writer.date(sample.endDate)
        try beforeMetadata(&writer, &first)
        if !sample.metadata.isEmpty {
            writer.key("metadata", first: &first)
            writer.raw(Array(try encoder.encode(sample.metadata)))
        }
        try middle(&writer, &first)
        writer.key("sourceRevision", first: &first)
        let revision = sample.sourceRevision
        writer.raw("{")
        var inner = true
        if let version = revision.operatingSystemVersion {
            writer.key("operatingSystemVersion", first: &inner)
            writer.string(version)
        }
        if let productType = revision.productType {
            writer.key("productType", first: &inner)
            writer.string(productType)
        }
        writer.key("source", first: &inner)
        try revision.source.write(to: &writer)
        if let version = revision.version {
            writer.key("version", first: &inner)
            writer.string(version)
        }
        writer.raw("}")
        writer.key("startDate", first: &first)
        try writer.date(sample.startDate)
        writer.key("type", first: &first)
        writer.string(sample.sampleType.identifier)
        writer.key("uuid", first: &first)
        writer.string(sample.uuid.uuidString)
        try last(&writer, &first)
        writer.raw("}")
    }
}
