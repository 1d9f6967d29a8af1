public import Foundation
public import HealthModel

/// What the exports' writers need to know of the vault besides its samples.
public struct ExportContext: Sendable {
    /// The owner's time zone: days and local times in the CSV files.
    public var timeZone: TimeZone
    /// The owner's units, by quantity type (types without one: the type's canonical unit).
    public var preferredUnits: [QuantityTypeIdentifier: HealthUnit]
    /// The owner's characteristics (the FHIR Patient).
    public var characteristics: [CharacteristicValue]

    public init(
        timeZone: TimeZone = .gmt,
        preferredUnits: [QuantityTypeIdentifier: HealthUnit] = [:],
        characteristics: [CharacteristicValue] = []
    ) {
        self.timeZone = timeZone
        self.preferredUnits = preferredUnits
        self.characteristics = characteristics
    }
}

/// A file an export writes line by line: created owner-only (0600) and new (an existing file is
/// never overwritten), written through a buffer.
final class ExportFile {
    let url: URL
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private(set) var lines = 0

    private init(_ url: URL) throws {
        self.url = url
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw HealthError.invalidArgument("cannot create \(url.path)", field: "path")
        }
        handle = try FileHandle(forWritingTo: url)
    }

    func write(line: String) throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        lines += 1
        // Small enough for a file per type (the CSV export) to stay small in memory.
        if buffer.count >= 1 << 17 { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        try handle.synchronize()
        try handle.close()
    }

    /// Creates `url` for writing, refusing one that exists.
    static func create(_ url: URL) throws -> ExportFile {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw HealthError.invalidArgument(
                "\(url.lastPathComponent) already exists in the export's folder",
                field: "path"
            )
        }
        return try ExportFile(url)
    }
}
