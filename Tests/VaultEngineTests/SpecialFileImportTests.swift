import AuditLog
import Foundation
import HealthInterchange
import HealthModel
import HealthModelTestSupport
import Synchronization
import Testing
import VaultEngine

/// An import given a path that is not a regular file (a device that never ends, such as
/// /dev/zero, or a named pipe, whose opening waits for a writer) is refused at once, naming what
/// the path is, and stores nothing: before, it held one of the daemon's threads for good, and the
/// daemon could no longer stop (docs/CSV_IMPORT.md, docs/APPLE_HEALTH_IMPORT.md,
/// docs/EXPORT_JSON.md). Named pipes are tried on threads of their own in
/// HealthInterchangeTests/InputFileTests (a pipe opened here would hold one of the test's two
/// cooperative threads for good); here, the engine's answers end to end.
@Suite
struct SpecialFileImportTests {
    /// The message of the error `body` throws, whatever its type; nil when it throws none. An
    /// import that reads /dev/zero never returns, and no time limit stops a thread stuck reading:
    /// after 20 s this answers "still reading" and leaves it behind, so the test fails instead of
    /// never ending.
    static func refusal(_ body: @escaping @Sendable () async throws -> Void) async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let first = FirstAnswer(continuation)
            Task {
                do {
                    try await body()
                    first.answer(nil)
                } catch let error as HealthError {
                    #expect(error.code == .invalidArgument && error.field == "path")
                    first.answer(error.message)
                } catch let error as AppleHealthReadError {
                    first.answer(error.message)
                } catch {
                    first.answer("\(error)")
                }
            }
            Task {
                try? await Task.sleep(for: .seconds(20))
                first.answer("still reading after 20 s")
            }
        }
    }

    /// Resumes its continuation with the first answer given, once.
    final class FirstAnswer: Sendable {
        let continuation: CheckedContinuation<String?, Never>
        let answered = Mutex(false)

        init(_ continuation: CheckedContinuation<String?, Never>) { self.continuation = continuation }

        func answer(_ message: String?) {
            let first = answered.withLock { done in
                defer { done = true }
                return !done
            }
            if first { continuation.resume(returning: message) }
        }
    }

    static func imports(_ test: TestEngine) throws -> Int {
        try test.auditEntries().filter { $0.operation == .import }.count
    }

    @Test func aCSVImportRefusesADeviceAndAFolder() async throws {
        let test = try TestEngine()
        let cases = [
            ("/dev/zero", "/dev/zero is a character device, not a regular file: give the path of a CSV file"),
            (
                test.directory.path,
                "\(test.directory.path) is a folder, not a regular file: give the path of a CSV file"
            ),
        ]
        for (path, expected) in cases {
            let message = await Self.refusal { _ = try await test.engine.importCSV(at: URL(fileURLWithPath: path)) }
            #expect(message == expected, "\(message ?? "no error")")
        }
        #expect(try Self.imports(test) == 0)
    }

    @Test func anAppleHealthImportRefusesADevice() async throws {
        let test = try TestEngine()
        let message = await Self.refusal {
            _ = try await test.engine.importAppleHealth(at: URL(fileURLWithPath: "/dev/zero"))
        }
        #expect(
            message
                == "/dev/zero is a character device, not an export: give the export's zip file, its folder or its export.xml",
            "\(message ?? "no error")"
        )
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
            summary.skipped.keys.contains { $0.hasSuffix("\(gpx.path) is a folder, not a regular file") },
            "\(summary.skipped)"
        )
    }

    @Test func aJSONImportRefusesWhatIsNotAnExportsFolderOrFiles() async throws {
        let test = try TestEngine()
        let file = test.directory.appendingPathComponent("notes.txt")
        try Data("not an export\n".utf8).write(to: file)
        let cases = [
            ("/dev/zero", "/dev/zero is a character device: a HealthVault JSON export is a folder"),
            (file.path, "\(file.path) is a file: a HealthVault JSON export is a folder"),
        ]
        for (path, expected) in cases {
            let message = await Self.refusal {
                _ = try await test.engine.importJSONExport(at: URL(fileURLWithPath: path))
            }
            #expect(message == expected, "\(message ?? "no error")")
        }

        // A real export whose samples are /dev/zero, then whose manifest is too large to be one.
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
        let samples = export.appendingPathComponent(JSONExportWriter.samplesFile)
        try FileManager.default.removeItem(at: samples)
        try FileManager.default.createSymbolicLink(atPath: samples.path, withDestinationPath: "/dev/zero")
        let message = await Self.refusal { _ = try await fresh.engine.importJSONExport(at: export) }
        #expect(message == "\(samples.path) is a character device, not a regular file", "\(message ?? "no error")")
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
