import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

/// The JSON export's writer (docs/EXPORT_JSON.md): each line of samples.jsonl is the sample's
/// JSON exactly as HealthJSON writes it (quantity and category samples are written by hand, so
/// this holds the hand to the encoder, byte for byte), and the reader gives back what was written
/// (plain quantity and category lines read by hand, the rest by the decoder: both are checked).
@Suite struct JSONExportTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hv-json-export-\(UUID().uuidString)")
    }

    @Test func eachLineIsTheSampleAsHealthJSONWritesItAndReadsBack() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (3, 1, 4, 1))
        var samples: [Sample] = []
        for index in 0..<3_000 {
            switch index % 4 {
            case 0, 1: samples.append(.quantity(RandomModel.quantitySample(&rng)))
            case 2: samples.append(.category(RandomModel.categorySample(&rng)))
            default: samples.append(RandomModel.sample(&rng))
            }
        }
        // A discrete series (its summary members) read back as the store reads one.
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let unit = HealthUnit.countPerMinute
        let series = try QuantitySample(
            type: .heartRate,
            series: (0..<3).map {
                QuantitySample.SeriesQuantity(
                    quantity: Quantity(60 + Double($0) * 15, unit),
                    at: start.addingTimeInterval(Double($0) * 30)
                )
            },
            unit: unit,
            start: start,
            end: start.addingTimeInterval(120),
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: "org.example.watch", name: "Watch"))
        )
        samples.append(.quantity(series))
        let url = Self.directory()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try JSONExportWriter(directory: try ExportDirectory(url, overwrite: false))
        for sample in samples { try writer.write(ExportedSample(sample: sample)) }
        try writer.finish(
            ExportManifest(
                vault: UUID(),
                createdAt: start,
                filters: ExportFilter(),
                samples: [:],
                routeLocations: 0,
                characteristics: 0,
                settings: false,
                files: writer.files
            )
        )
        let lines = try String(contentsOf: url.appendingPathComponent(JSONExportWriter.samplesFile), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == samples.count)
        for (line, sample) in zip(lines, samples.dropLast()) {
            let expected = String(decoding: try HealthJSON.encode(sample), as: UTF8.self)
            #expect(String(line) == expected)
        }
        // The series' line carries its quantities after its own members.
        let last = String(lines.last!)
        let own = String(decoding: try HealthJSON.encode(Sample.quantity(series)), as: UTF8.self)
        #expect(last.hasPrefix(String(own.dropLast()) + ",\"quantities\":[{\"endDate\":"), "\(last)")

        let reader = try JSONExportReader(directory: url)
        var read: [Sample] = []
        while let next = try reader.next() { read.append(next.sample) }
        #expect(read == samples)
    }

    @Test func aDirectoryThatHoldsFilesIsRefusedUnlessOverwritten() throws {
        let url = Self.directory()
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: url.appendingPathComponent("notes.txt"))
        #expect(throws: HealthError.self) { try ExportDirectory(url, overwrite: false) }
        let directory = try ExportDirectory(url, overwrite: true)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect(attributes[.posixPermissions] as? Int == 0o700)
        let file = try directory.create("samples.jsonl")
        try file.write(Array("{}\n".utf8))
        try file.close()
        let fileAttributes = try FileManager.default.attributesOfItem(
            atPath: url.appendingPathComponent("samples.jsonl").path
        )
        #expect(fileAttributes[.posixPermissions] as? Int == 0o600)
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("notes.txt").path))
    }

    @Test func anExportWithoutItsManifestIsRefused() throws {
        let url = Self.directory()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try JSONExportWriter(directory: try ExportDirectory(url, overwrite: false))
        let error = #expect(throws: HealthError.self) { try JSONExportReader(directory: url) }
        #expect(error?.message.contains("holds no manifest.json") == true)
    }
}
