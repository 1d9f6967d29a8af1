public import Foundation
public import HealthModel

/// Reads a lossless JSON export (docs/EXPORT_JSON.md) back, one sample at a time: its manifest
/// first (an export without one did not end, and is refused), then `samples.jsonl` line by line,
/// each route with its locations from `route-locations.jsonl`, read in step. Every problem is an
/// `invalidArgument` (field `path`) naming the file and the line, and what is wrong there (never
/// a value).
public final class JSONExportReader {
    public let directory: URL
    public let manifest: ExportManifest
    private let samples: LineReader
    private var routeLocations: LineReader?
    private var lines = SampleLineReader()

    public init(directory: URL) throws(HealthError) {
        self.directory = directory
        switch InputFile.at(directory.path) {
        case .directory, nil: break
        case .regular:
            throw .invalidArgument("\(directory.path) is a file: a HealthVault JSON export is a folder", field: "path")
        case .special(let kind):
            throw .invalidArgument("\(directory.path) is \(kind): a HealthVault JSON export is a folder", field: "path")
        }
        let manifestURL = directory.appendingPathComponent(JSONExportWriter.manifestFile)
        guard let data = try Self.contents(of: manifestURL, largest: Self.maximumManifestBytes) else {
            throw .invalidArgument(
                "\(directory.path) holds no \(JSONExportWriter.manifestFile): not a HealthVault JSON export, or one that did not finish",
                field: "path"
            )
        }
        let manifest: ExportManifest
        do {
            manifest = try HealthJSON.decode(ExportManifest.self, from: data)
        } catch {
            throw Self.problem(JSONExportWriter.manifestFile, line: 1, error)
        }
        guard manifest.format == ExportManifest.formatName else {
            throw .invalidArgument("\(JSONExportWriter.manifestFile): not a HealthVault export", field: "path")
        }
        guard manifest.version <= ExportManifest.currentVersion else {
            throw .invalidArgument(
                "\(JSONExportWriter.manifestFile): format version \(manifest.version); this HealthVault reads up to \(ExportManifest.currentVersion)",
                field: "path"
            )
        }
        self.manifest = manifest
        // Every file it will read is a regular file, checked before anything is stored.
        for name in manifest.files + [JSONExportWriter.samplesFile, JSONExportWriter.settingsFile] {
            try Self.checkFile(directory.appendingPathComponent(name))
        }
        samples = try LineReader(directory.appendingPathComponent(JSONExportWriter.samplesFile))
        if manifest.files.contains(JSONExportWriter.routeLocationsFile) {
            routeLocations = try LineReader(directory.appendingPathComponent(JSONExportWriter.routeLocationsFile))
        }
    }

    /// The largest manifest read: one names a few files and counts (about a kilobyte).
    public static let maximumManifestBytes = 1 << 20
    /// The largest `settings.json` read: the owner's units, source orders and goal history (tens
    /// of kilobytes for years of goals).
    public static let maximumSettingsBytes = 16 << 20

    /// Refuses `url` when something other than a regular file is there (never opened:
    /// ``InputFile``), or one larger than `largest` bytes; nothing there passes (the reader's
    /// own error says what is missing).
    static func checkFile(_ url: URL, largest: Int? = nil) throws(HealthError) {
        guard let kind = InputFile.at(url.path) else { return }
        if let why = kind.notRegular(named: url.path) { throw .invalidArgument(why, field: "path") }
        if let largest, let size = kind.regularSize, size > largest {
            throw .invalidArgument(
                "\(url.lastPathComponent) is larger than \(largest) bytes: not a HealthVault export",
                field: "path"
            )
        }
    }

    /// The bytes of a small file (the manifest, the settings), `checkFile`'s refusals first; nil
    /// when it is missing or cannot be read. Read through ``InputFile/open(_:)`` and never more
    /// than `largest` bytes, so a file replaced or grown since it was examined is refused alike.
    static func contents(of url: URL, largest: Int) throws(HealthError) -> Data? {
        try checkFile(url, largest: largest)
        let opened: (handle: FileHandle, size: Int)
        switch InputFile.open(url.path) {
        case .success(let file): opened = file
        case .failure(.notRegular(let kind)):
            throw .invalidArgument(kind.notRegular(named: url.path) ?? url.path, field: "path")
        case .failure(.cannotOpen): return nil
        }
        defer { try? opened.handle.close() }
        guard let data = try? opened.handle.read(upToCount: largest + 1) else { return Data() }
        if data.count > largest {
            throw .invalidArgument(
                "\(url.lastPathComponent) is larger than \(largest) bytes: not a HealthVault export",
                field: "path"
            )
        }
        return data
    }

    /// `file`, line `line`: what is wrong there.
    public static func problem(_ file: String, line: Int, _ error: HealthError) -> HealthError {
        .invalidArgument(
            "\(file), line \(line)\(error.field.map { " (\($0))" } ?? ""): \(error.message)",
            field: "path"
        )
    }

    /// The line of `samples.jsonl` the last sample came from.
    public var line: Int { samples.lineNumber }

    /// The next sample with its series, or nil after the last.
    public func next() throws(HealthError) -> ExportedSample? {
        guard let bytes = try samples.next() else {
            if let extra = try routeLocations?.next() {
                _ = extra
                throw .invalidArgument(
                    "\(JSONExportWriter.routeLocationsFile), line \(routeLocations?.lineNumber ?? 0): locations of no route of \(JSONExportWriter.samplesFile)",
                    field: "path"
                )
            }
            return nil
        }
        if let sample = lines.sample(bytes) { return ExportedSample(sample: sample) }
        let file = JSONExportWriter.samplesFile
        let data = Data(bytes)
        var sample: Sample
        let extras: Extras
        do {
            sample = try HealthJSON.decode(Sample.self, from: data)
            extras = try HealthJSON.decode(Extras.self, from: data)
        } catch {
            throw Self.problem(file, line: samples.lineNumber, error)
        }
        if case .quantity(let quantity) = sample, quantity.count > 1 {
            guard let quantities = extras.quantities else {
                throw Self.problem(
                    file,
                    line: samples.lineNumber,
                    .invalidArgument("a quantity series carries its quantities", field: "quantities")
                )
            }
            do {
                sample = .quantity(try quantity.withSeriesQuantities(quantities))
            } catch {
                throw Self.problem(file, line: samples.lineNumber, error)
            }
        }
        var locations: [WorkoutRouteLocation]?
        if case .workoutRoute(let route) = sample {
            guard extras.workouts?.isEmpty == false else {
                throw Self.problem(
                    file,
                    line: samples.lineNumber,
                    .invalidArgument("a route names its workout", field: "workouts")
                )
            }
            locations = try self.locations(of: route)
        }
        return ExportedSample(sample: sample, routeLocations: locations, workouts: extras.workouts ?? [])
    }

    /// A route's locations: the next lines of `route-locations.jsonl`, which must be its own.
    private func locations(of route: WorkoutRoute) throws(HealthError) -> [WorkoutRouteLocation] {
        let file = JSONExportWriter.routeLocationsFile
        guard let reader = routeLocations else {
            throw Self.problem(
                JSONExportWriter.samplesFile,
                line: samples.lineNumber,
                .invalidArgument("a route whose locations are missing (no \(file))", field: "count")
            )
        }
        var locations: [WorkoutRouteLocation] = []
        while locations.count < route.count {
            guard let bytes = try reader.next() else {
                throw Self.problem(
                    JSONExportWriter.samplesFile,
                    line: samples.lineNumber,
                    .invalidArgument("\(file) ends before this route's locations", field: "count")
                )
            }
            let line: RouteLine
            do {
                line = try HealthJSON.decode(RouteLine.self, from: Data(bytes))
            } catch {
                throw Self.problem(file, line: reader.lineNumber, error)
            }
            guard line.route == route.uuid, line.first == locations.count else {
                throw Self.problem(
                    file,
                    line: reader.lineNumber,
                    .invalidArgument(
                        "not the locations that follow in \(JSONExportWriter.samplesFile) (line \(samples.lineNumber))",
                        field: "route"
                    )
                )
            }
            locations += line.locations
        }
        guard locations.count == route.count else {
            throw Self.problem(
                file,
                line: reader.lineNumber,
                .invalidArgument("more locations than the route's count", field: "locations")
            )
        }
        return locations
    }

    /// The characteristics of a whole-vault export (none for another).
    public func characteristics() throws(HealthError) -> [CharacteristicValue] {
        guard manifest.files.contains(JSONExportWriter.characteristicsFile) else { return [] }
        let reader = try LineReader(directory.appendingPathComponent(JSONExportWriter.characteristicsFile))
        var values: [CharacteristicValue] = []
        while let bytes = try reader.next() {
            do {
                values.append(try HealthJSON.decode(CharacteristicValue.self, from: Data(bytes)))
            } catch {
                throw Self.problem(JSONExportWriter.characteristicsFile, line: reader.lineNumber, error)
            }
        }
        return values
    }

    /// The owner's settings of a whole-vault export (nil for another).
    public func settings() throws(HealthError) -> ExportedSettings? {
        guard manifest.settings else { return nil }
        let file = JSONExportWriter.settingsFile
        guard
            let data = try Self.contents(of: directory.appendingPathComponent(file), largest: Self.maximumSettingsBytes)
        else {
            throw .invalidArgument("\(file) is missing, though the manifest lists it", field: "path")
        }
        do {
            return try HealthJSON.decode(ExportedSettings.self, from: data)
        } catch {
            throw Self.problem(file, line: 1, error)
        }
    }

    /// The members of a sample's line that MODEL_JSON keeps outside a sample.
    struct Extras: Decodable {
        var quantities: [QuantitySample.SeriesQuantity]?
        var workouts: [UUID]?
    }

    /// A line of `route-locations.jsonl`.
    struct RouteLine: Decodable {
        var route: UUID
        var first: Int
        var locations: [WorkoutRouteLocation]
    }
}

/// Reads a file line by line (LF; a CR before it is dropped), a megabyte at a time, holding one
/// line; blank lines are skipped. A line longer than 512 MiB is refused.
final class LineReader {
    let url: URL
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private(set) var lineNumber = 0
    private static let chunk = 1 << 20
    private static let maximumLine = 512 << 20

    init(_ url: URL) throws(HealthError) {
        self.url = url
        // Never opened unless a regular file: a named pipe there would wait for a writer.
        try JSONExportReader.checkFile(url)
        switch InputFile.open(url.path) {
        case .success(let opened):
            handle = opened.handle
        case .failure(.notRegular(let kind)):
            throw .invalidArgument(kind.notRegular(named: url.path) ?? url.path, field: "path")
        case .failure(.cannotOpen):
            throw .invalidArgument(
                "cannot read \(url.lastPathComponent) in \(url.deletingLastPathComponent().path)",
                field: "path"
            )
        }
    }

    deinit {
        try? handle.close()
    }

    func next() throws(HealthError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                start = newline + 1
                lineNumber += 1
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                lineNumber += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
                return line
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            guard buffer.count <= Self.maximumLine else {
                throw .invalidArgument(
                    "\(url.lastPathComponent), line \(lineNumber + 1): a line longer than 512 MiB",
                    field: "path"
                )
            }
            let data: Data?
            do {
                data = try handle.read(upToCount: Self.chunk)
            } catch {
                throw .invalidArgument("cannot read \(url.lastPathComponent)", field: "path")
            }
            if let data, !data.isEmpty { buffer.append(contentsOf: data) } else { atEnd = true }
        }
    }
}
