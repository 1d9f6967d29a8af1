import Foundation
import Glibc
import HealthModel
import Testing

@testable import HealthInterchange

/// What a path names (``InputFile``), and every reader of an import refusing a named pipe or a
/// device before it opens it: opening a pipe waits for a writer, and /dev/zero never ends. Each
/// reader is tried on a thread of its own, given 10 s: a reader that opened the pipe would hold
/// that thread for good, and the test fails instead of never ending.
@Suite final class InputFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hv-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A named pipe no one writes to.
    func pipe(_ name: String, in directory: URL? = nil) throws -> URL {
        let url = (directory ?? folder).appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        guard mkfifo(url.path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return url
    }

    /// The message of what `body` throws on a thread of its own; "returned" when it throws
    /// nothing, "still running after 10 s" when it has not ended by then.
    func refusal(_ body: @escaping @Sendable () throws -> Void) -> String {
        let ended = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Thread {
            do {
                try body()
                outcome.message = "returned"
            } catch let error as HealthError {
                outcome.message = error.message
            } catch let error as AppleHealthReadError {
                outcome.message = error.message
            } catch {
                outcome.message = "\(error)"
            }
            ended.signal()
        }.start()
        guard ended.wait(timeout: .now() + 10) == .success else { return "still running after 10 s" }
        return outcome.message
    }

    final class Outcome: @unchecked Sendable {
        var message = ""
    }

    @Test func whatAPathNames() throws {
        let file = folder.appendingPathComponent("rows.csv")
        try Data("type,start\n".utf8).write(to: file)
        let link = folder.appendingPathComponent("zero")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
        #expect(InputFile.at(file.path) == .regular(size: 11))
        #expect(InputFile.at(folder.path) == .directory)
        #expect(InputFile.at(try pipe("fifo").path) == .special("a named pipe"))
        #expect(InputFile.at("/dev/zero") == .special("a character device"))
        // A symbolic link is followed.
        #expect(InputFile.at(link.path) == .special("a character device"))
        #expect(InputFile.at(folder.appendingPathComponent("missing").path) == nil)
        #expect(InputFile.notRegular(file.path) == nil)
        #expect(InputFile.notRegular("/dev/zero") == "/dev/zero is a character device, not a regular file")
    }

    /// A reader looks at a path, then opens it: `InputFile.open` is what closes the gap between
    /// the two, should a pipe be put there in between. Here it is given the pipe directly.
    @Test func anOpeningNeverWaitsAndOpensOnlyARegularFile() throws {
        let fifo = try pipe("swapped.csv")
        let outcome = Outcome()
        #expect(
            refusal {
                if case .failure(let failure) = InputFile.open(fifo.path) { outcome.message = "\(failure)" }
            } == "returned"
        )
        #expect(outcome.message == "\(InputFile.OpenFailure.notRegular(.special("a named pipe")))")
        #expect(InputFile.open("/dev/zero").failure == .notRegular(.special("a character device")))
        #expect(InputFile.open(folder.path).failure == .notRegular(.directory))
        #expect(
            InputFile.open(folder.appendingPathComponent("missing").path).failure
                == .cannotOpen("No such file or directory")
        )
        let file = folder.appendingPathComponent("rows.csv")
        try Data("type,start\n".utf8).write(to: file)
        let opened = try InputFile.open(file.path).get()
        #expect(opened.size == 11)
        // Blocking again once it is known to be a regular file.
        #expect(fcntl(opened.handle.fileDescriptor, F_GETFL) & O_NONBLOCK == 0)
        #expect(try opened.handle.readToEnd() == Data("type,start\n".utf8))
    }

    @Test func theCSVReaderRefusesAPipeAndADevice() throws {
        let fifo = try pipe("rows.csv")
        #expect(
            refusal { _ = try CSVReader(contentsOf: fifo) }
                == "\(fifo.path) is a named pipe, not a regular file: give the path of a CSV file"
        )
        #expect(
            refusal { _ = try CSVReader(contentsOf: URL(fileURLWithPath: "/dev/zero")).next() }
                == "/dev/zero is a character device, not a regular file: give the path of a CSV file"
        )
    }

    @Test func theAppleHealthReadersRefuseAPipe() throws {
        let folder = self.folder
        let fifo = try pipe("export.zip")
        #expect(
            refusal { _ = try AppleHealthExport(at: fifo) }
                == "\(fifo.path) is a named pipe, not an export: give the export's zip file, its folder or its export.xml"
        )
        #expect(
            refusal { _ = try AppleHealthExport(at: URL(fileURLWithPath: "/dev/zero")) }
                == "/dev/zero is a character device, not an export: give the export's zip file, its folder or its export.xml"
        )
        let xml = try pipe("export.xml")
        #expect(
            refusal { _ = try AppleHealthReader(contentsOf: xml) } == "\(xml.path) is a named pipe, not a regular file"
        )
        // A folder whose export.xml is a pipe.
        #expect(refusal { _ = try AppleHealthExport(at: folder) } == "\(xml.path) is a named pipe, not a regular file")
        // A route's file that is a pipe.
        try FileManager.default.removeItem(at: xml)
        try Data("<HealthData></HealthData>\n".utf8).write(to: xml)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("workout-routes"),
            withIntermediateDirectories: true
        )
        let gpx = try pipe("route_1.gpx", in: folder.appendingPathComponent("workout-routes"))
        let export = try AppleHealthExport(at: folder)
        #expect(
            refusal { _ = try export.contents(of: "/workout-routes/route_1.gpx", maximumSize: 1 << 20) }
                == "workout-routes/\(gpx.lastPathComponent) is a named pipe, not a regular file"
        )
    }

    @Test func theJSONExportReaderRefusesAPipeAndADevice() throws {
        let fifo = try pipe("export")
        #expect(
            refusal { _ = try JSONExportReader(directory: fifo) }
                == "\(fifo.path) is a named pipe: a HealthVault JSON export is a folder"
        )
        #expect(
            refusal { _ = try JSONExportReader(directory: URL(fileURLWithPath: "/dev/zero")) }
                == "/dev/zero is a character device: a HealthVault JSON export is a folder"
        )
        // A real export, whose every file the reader will read is checked when it opens: its
        // settings, characteristics, samples, then manifest pipes.
        let export = folder.appendingPathComponent("export")
        try FileManager.default.removeItem(at: fifo)
        let writer = try JSONExportWriter(directory: try ExportDirectory(export, overwrite: false))
        try writer.finish(
            ExportManifest(
                vault: UUID(),
                createdAt: Date(),
                filters: ExportFilter(),
                samples: [:],
                routeLocations: 0,
                characteristics: 0,
                settings: true,
                files: writer.files + [JSONExportWriter.characteristicsFile, JSONExportWriter.settingsFile]
            )
        )
        #expect(refusal { _ = try JSONExportReader(directory: export) } == "returned")
        for name in [
            JSONExportWriter.settingsFile, JSONExportWriter.characteristicsFile, JSONExportWriter.samplesFile,
            JSONExportWriter.manifestFile,
        ] {
            let part = try pipe(name, in: export)
            #expect(
                refusal { _ = try JSONExportReader(directory: export) }
                    == "\(part.path) is a named pipe, not a regular file"
            )
        }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
