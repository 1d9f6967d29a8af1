import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import ProcessTestSupport
import PropertyBased
import Testing

/// The FHIR and CSV writers: FHIR checked by an independent library (fhir.resources, FHIR R4),
/// the codes against docs/FHIR_EXPORT.md's table; CSV as a spreadsheet reads it.
@Suite struct ExportWriterTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func folder() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hv-export-\(UUID().uuidString)")
    }

    static func manifest() -> ExportManifest {
        ExportManifest(
            vault: UUID(),
            createdAt: Date(),
            filters: ExportFilter(),
            samples: [:],
            routeLocations: 0,
            characteristics: 0,
            settings: false,
            files: []
        )
    }

    static let source = SourceRevision(source: Source(bundleIdentifier: "org.example.app", name: "=Ana, \"the\" app"))
    static let start = Date(timeIntervalSince1970: 1_772_438_400)  // 2026-03-02T08:00:00Z

    static func quantity(_ type: QuantityTypeIdentifier, _ value: Double, _ unit: String) throws -> QuantitySample {
        try QuantitySample(
            type: type,
            quantity: Quantity(value, try HealthUnit(from: unit)),
            start: start,
            end: start,
            sourceRevision: source
        )
    }

    static func known() throws -> [Sample] {
        [
            .quantity(try quantity(.heartRate, 72, "count/min")),
            .quantity(try quantity(.oxygenSaturation, 0.97, "%")),
            .quantity(try quantity(.bodyTemperature, 98.6, "degF")),
            .quantity(try quantity(.bloodGlucose, 5.5, "mmol<180.1558800000541>/L")),
            .quantity(try quantity(.bodyMass, 165, "lb")),
            .correlation(
                try Correlation(
                    type: .bloodPressure,
                    start: start,
                    end: start,
                    objects: [
                        .quantity(try quantity(.bloodPressureSystolic, 120, "mmHg")),
                        .quantity(try quantity(.bloodPressureDiastolic, 80, "mmHg")),
                    ],
                    sourceRevision: source
                )
            ),
        ]
    }

    @Test func theFHIRExportOfEveryKindIsValidR4() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (3, 1, 4, 1))
        var samples = try Self.known()
        for _ in 0..<300 { samples.append(RandomModel.sample(&rng)) }
        // Vision prescriptions and documents too.
        for _ in 0..<20 { samples.append(RandomModel.perObjectSample(&rng)) }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try FHIRExportWriter(directory: try ExportDirectory(folder, overwrite: false))
        for sample in samples { try writer.write(ExportedSample(sample: sample)) }
        try writer.write(
            characteristics: [
                .biologicalSex(.female), .dateOfBirth(try DateOfBirth(year: 1984, month: 2, day: 29)),
                .bloodType(.oPositive), .wheelchairUse(.no),
            ],
            settings: ExportedSettings()
        )
        try writer.finish(Self.manifest())
        #expect(writer.counts == ["Observation.ndjson": samples.count + 2, "Patient.ndjson": 1])
        let mode =
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("Observation.ndjson").path)[
                .posixPermissions
            ] as? Int
        #expect(mode == 0o600)

        // An independent FHIR R4 library parses every resource.
        let python = Self.root.appendingPathComponent(".venv/bin/python")
        try #require(
            FileManager.default.isExecutableFile(atPath: python.path),
            "the test tools' virtual environment is missing: run make venv (make test does)"
        )
        let process = ChildProcess()
        process.executableURL = python
        process.arguments = [Self.root.appendingPathComponent("scripts/validate-fhir.py").path, folder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(process.terminationStatus == 0, "\(String(decoding: data, as: UTF8.self).prefix(3000))")
        #expect(report["fhirVersion"] as? String == "4.0.1")
        #expect((report["files"] as? [String: Int])?["Observation.ndjson"] == samples.count + 2)

        // The codes and units, in the units of the code.
        let lines = try String(contentsOf: folder.appendingPathComponent("Observation.ndjson"), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        func value(_ index: Int) -> (code: String?, value: Double?, unit: String?) {
            let coding = ((lines[index]["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first
            let quantity = lines[index]["valueQuantity"] as? [String: Any]
            return (coding?["code"] as? String, quantity?["value"] as? Double, quantity?["code"] as? String)
        }
        #expect(value(0).code == "8867-4" && value(0).value == 72 && value(0).unit == "/min")
        #expect(value(1).code == "59408-5" && value(1).value == 97 && value(1).unit == "%")
        #expect(value(2).code == "8310-5" && abs((value(2).value ?? 0) - 37) < 1e-9 && value(2).unit == "Cel")
        #expect(value(3).code == "2339-0" && abs((value(3).value ?? 0) - 99.08573) < 1e-3 && value(3).unit == "mg/dL")
        #expect(value(4).code == "29463-7" && abs((value(4).value ?? 0) - 74.842741) < 1e-5 && value(4).unit == "kg")
        let panel = lines[5]
        #expect(value(5).code == "85354-9")
        let components = panel["component"] as? [[String: Any]] ?? []
        #expect(
            components.map {
                (($0["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String
            }
                == ["8480-6", "8462-4"]
        )
        let source = ((lines[0]["meta"] as? [String: Any])?["tag"] as? [[String: Any]])?.first
        #expect(source?["code"] as? String == "org.example.app")
        #expect(
            (lines[0]["identifier"] as? [[String: Any]])?.first?["value"] as? String == "urn:uuid:"
                + samples[0].uuid.uuidString.lowercased()
        )
    }

    /// docs/FHIR_EXPORT.md's table is the code's table.
    @Test func theDocumentedTableIsTheOneWritten() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/FHIR_EXPORT.md"), encoding: .utf8)
        var documented: [String: (String, String)] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `HKQuantityTypeIdentifier") {
            let cells = line.split(separator: "|").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
            documented[cells[0]] = (cells[1], cells[3])
        }
        let written = Dictionary(
            uniqueKeysWithValues: FHIRMapping.quantityCodes.map { ($0.key.rawValue, ($0.value.loinc, $0.value.ucum)) }
        )
        #expect(documented.count == written.count)
        for (type, code) in written {
            #expect(documented[type]?.0 == code.0 && documented[type]?.1 == code.1, "\(type)")
        }
    }

    @Test func theCSVExportReadsAsASpreadsheetExpects() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try CSVExportWriter(
            directory: try ExportDirectory(folder, overwrite: false),
            context: ExportContext(
                timeZone: TimeZone(identifier: "Europe/Paris")!,
                preferredUnits: [.bodyMass: try HealthUnit(from: "lb")]
            )
        )
        var samples = try Self.known()
        samples.append(
            .category(
                try CategorySample(
                    type: .sleepAnalysis,
                    value: 3,
                    start: Self.start,
                    end: Self.start.addingTimeInterval(3600),
                    sourceRevision: Self.source
                )
            )
        )
        // Across Paris's change to summer time (01:00 UTC on 29 March 2026), a second apart.
        let change = Date(timeIntervalSince1970: 1_774_746_000)
        for at in [change.addingTimeInterval(-1), change] {
            samples.append(
                .quantity(
                    try QuantitySample(
                        type: .restingHeartRate,
                        quantity: Quantity(55, try HealthUnit(from: "count/min")),
                        start: at,
                        end: at,
                        sourceRevision: Self.source
                    )
                )
            )
        }
        for sample in samples { try writer.write(ExportedSample(sample: sample)) }
        try writer.finish(Self.manifest())
        let files = writer.counts
        #expect(
            files["heartRate.csv"] == 1 && files["bloodPressure.csv"] == 1 && files["bloodPressureSystolic.csv"] == 1
        )
        func text(_ name: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        // Local time in the owner's zone, the offset beside it; the source's formula defused and quoted.
        #expect(
            try text("heartRate.csv")
                == "start,end,value,unit,source,device,uuid,utc_offset\n"
                + "2026-03-02 09:00:00,2026-03-02 09:00:00,72,count/min,\"'=Ana, \"\"the\"\" app\",,\(samples[0].uuid.uuidString),+01:00\n"
        )
        #expect(try text("oxygenSaturation.csv").contains(",97,%,"))
        #expect(try text("bodyMass.csv").contains(",165,lb,"))
        #expect(try text("bloodPressure.csv").contains(",120,80,mmHg,"))
        #expect(try text("sleepAnalysis.csv").contains("2026-03-02 10:00:00,asleepCore,"))
        let resting = try text("restingHeartRate.csv").split(separator: "\n")
        #expect(resting[1].hasPrefix("2026-03-29 01:59:59,") && resting[1].hasSuffix(",+01:00"))
        #expect(resting[2].hasPrefix("2026-03-29 03:00:00,") && resting[2].hasSuffix(",+02:00"))
    }
}
