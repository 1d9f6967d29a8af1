public import Foundation
public import HealthModel

/// Writes the lossless JSON export (docs/EXPORT_JSON.md): `samples.jsonl`, one sample a line in
/// the shape of docs/MODEL_JSON.md with its series; `route-locations.jsonl`, the routes' locations
/// in the order of their routes; `characteristics.jsonl` and `settings.json` for a whole-vault
/// export; and `manifest.json`, last.
public final class JSONExportWriter: ExportWriter {
    public static let manifestFile = "manifest.json"
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
        let file = try directory.create(Self.manifestFile)
        try file.write(try encoder.encode(manifest) + Data("\n".utf8))
        try file.close()
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

/// One sample's JSON as HealthJSON writes it.
enum SampleLine {
    static func json(of sample: Sample, encoder: JSONEncoder) throws -> [UInt8] {
        Array(try encoder.encode(sample))
    }
}
