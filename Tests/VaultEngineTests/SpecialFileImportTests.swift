import AuditLog
import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine

/// An import given a path that is not the regular file (or the folder) it reads is refused
/// before it opens it, naming what the path is, and stores nothing; an export's file that is not
/// a regular file is refused before any sample is stored (docs/CSV_IMPORT.md,
/// docs/APPLE_HEALTH_IMPORT.md, docs/EXPORT_JSON.md). Here, folders and files where the other is
/// due, end to end through the engine; named pipes and devices, which would hold a thread for good
/// without the check, are tried on threads of their own in HealthInterchangeTests/InputFileTests
/// and against the real daemon under `timeout` in DaemonTests/CSVImportCommandTests.
@Suite struct SpecialFileImportTests {
    /// The message of the error `body` throws, whatever its type; nil when it throws none.
    static func refusal(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as HealthError {
            #expect(error.code == .invalidArgument && error.field == "path")
            return error.message
        } catch let error as AppleHealthReadError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    static func imports(_ test: TestEngine) throws -> Int {
        try test.auditEntries().filter { $0.operation == .import }.count
    }

    @Test func aCSVImportRefusesAFolder() async throws {
        let test = try TestEngine()
        let message = await Self.refusal { _ = try await test.engine.importCSV(at: test.directory) }
        #expect(
            message == "\(test.directory.path) is a folder, not a regular file: give the path of a CSV file",
            "\(message ?? "no error")"
        )
        #expect(try Self.imports(test) == 0)
    }

    @Test func anAppleHealthFolderWhoseXMLIsAFolderIsRefused() async throws {
        let test = try TestEngine()
        let folder = test.directory.appendingPathComponent("apple_health_export")
        let xml = folder.appendingPathComponent("export.xml")
        try FileManager.default.createDirectory(at: xml, withIntermediateDirectories: true)
        let message = await Self.refusal { _ = try await test.engine.importAppleHealth(at: folder) }
        #expect(message == "\(xml.path) is a folder, not a regular file", "\(message ?? "no error")")
        #expect(try Self.imports(test) == 0)
    }

    @Test func aRouteWhoseGPXFileIsNotARegularFileIsSkippedAndTheRestComesIn() async throws {
        let test = try TestEngine()
        let folder = try ExportFolderFixture.write(days: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gpx = folder.appendingPathComponent("workout-routes/route_0.gpx")
        try FileManager.default.removeItem(at: gpx)
        try FileManager.default.createDirectory(at: gpx, withIntermediateDirectories: false)
        let summary = try await test.engine.importAppleHealth(at: folder)
        let routes = summary.byType[ObjectType.workoutRouteTypeIdentifier]
        #expect(routes?.imported == 1 && routes?.skipped == 1)
        #expect(summary.byType["HKWorkoutTypeIdentifier"]?.imported == 2)
        #expect(
            summary.skipped.keys.contains {
                $0.hasSuffix(": workout-routes/route_0.gpx is a folder, not a regular file")
            },
            "\(summary.skipped)"
        )
    }

    @Test func aJSONImportRefusesAFileAndAnExportWithAFolderForAFile() async throws {
        let test = try TestEngine()
        let file = test.directory.deletingLastPathComponent().appendingPathComponent("notes-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("not an export\n".utf8).write(to: file)
        let message = await Self.refusal { _ = try await test.engine.importJSONExport(at: file) }
        #expect(message == "\(file.path) is a file: a HealthVault JSON export is a folder", "\(message ?? "no error")")

        // A real export whose settings, then samples, are folders (refused before any sample is
        // stored), then whose manifest is too large to be one.
        _ = try await test.enroll("org.example.steps")
        try await test.grant(.share, .quantity(.stepCount), to: "org.example.steps")
        _ = try await test.engine.save([try quantitySample()], as: .app("org.example.steps"))
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("hv-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: export) }
        _ = try await test.engine.export(
            ExportFilter(),
            to: try JSONExportWriter(directory: try ExportDirectory(export, overwrite: false))
        )
        let fresh = try TestEngine()
        for name in [JSONExportWriter.settingsFile, JSONExportWriter.samplesFile] {
            let part = export.appendingPathComponent(name)
            try FileManager.default.removeItem(at: part)
            try FileManager.default.createDirectory(at: part, withIntermediateDirectories: false)
            let message = await Self.refusal { _ = try await fresh.engine.importJSONExport(at: export) }
            #expect(message == "\(part.path) is a folder, not a regular file", "\(message ?? "no error")")
            #expect(try Self.imports(fresh) == 0)
        }
        let manifest = export.appendingPathComponent(JSONExportWriter.manifestFile)
        try Data(repeating: UInt8(ascii: " "), count: JSONExportReader.maximumManifestBytes + 1).write(to: manifest)
        let large = await Self.refusal { _ = try await fresh.engine.importJSONExport(at: export) }
        #expect(
            large
                == "manifest.json is larger than \(JSONExportReader.maximumManifestBytes) bytes: not a HealthVault export",
            "\(large ?? "no error")"
        )
        #expect(try Self.imports(fresh) == 0)
    }
}
