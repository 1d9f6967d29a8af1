public import Foundation
import ZIPFoundation

/// An iPhone's "Export All Health Data" as the owner hands it over: `export.zip`, the unzipped
/// `apple_health_export/` folder, or its XML alone; and the files beside the XML (the workout
/// routes' GPX files, the electrocardiograms' CSV files, the clinical records).
///
/// The XML is found as a person would: `export.xml`, else the largest `.xml` beside where it
/// would be that is not the clinical `export_cda.xml` (phones name the file in their language:
/// `导出.xml`). In a zip it is read inflated as it is read, never unpacked to disk.
public final class AppleHealthExport: @unchecked Sendable {
    public enum Form: String, Sendable, Codable {
        case zip, folder, file
    }

    public let url: URL
    public let form: Form
    /// The XML's name: a file's path, or its path inside the archive.
    public let xmlPath: String
    /// The XML's size in bytes (inflated, for a zip).
    public let xmlSize: Int?
    /// The export's files HealthVault does not read, counted by kind (`electrocardiograms (CSV)`,
    /// `clinical-records (FHIR JSON)`, `export_cda.xml (clinical document)`, any other folder).
    public let unreadFiles: [String: Int]

    /// The folder the export's relative paths start from (a folder, or a file's folder).
    private let root: URL?
    /// A zip's files by path relative to the XML's folder, and the archive to read them from.
    private let entries: [String: Entry]
    private let archive: Archive?
    private let lock = NSLock()

    /// Opens what `url` names; throws `unreadable` (no such file, no export XML inside, a zip that
    /// cannot be read: cut short before its table of contents, or damaged; a named pipe, a device
    /// or a socket, at `url` or as a folder's XML, never opened: ``InputFile``).
    public init(at url: URL) throws(AppleHealthReadError) {
        let url = url.standardizedFileURL
        self.url = url
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw AppleHealthReadError(.unreadable, "\(url.path): no such file or folder")
        }
        // A named pipe or a device is never opened (``InputFile``).
        if case .special(let kind) = InputFile.at(url.path) {
            throw AppleHealthReadError(
                .unreadable,
                "\(url.path) is \(kind), not an export: give the export's zip file, its folder or its export.xml"
            )
        }
        if isDirectory.boolValue {
            form = .folder
            let xml = try Self.exportXML(in: url)
            xmlPath = xml.path
            xmlSize = Self.size(of: xml)
            root = url
            unreadFiles = Self.unreadFiles(in: url, besides: xml.lastPathComponent)
            entries = [:]
            archive = nil
        } else if Self.isZip(url) {
            form = .zip
            let archive: Archive
            do {
                archive = try Archive(url: url, accessMode: .read)
            } catch {
                throw AppleHealthReadError(
                    .unreadable,
                    "\(url.lastPathComponent) is not a whole zip archive: it ends before its table of contents "
                        + "(a download or copy cut short) or is damaged; nothing was read from it"
                )
            }
            var files: [String: Entry] = [:]
            for entry in archive where entry.type == .file {
                files[entry.path] = entry
            }
            guard let xml = Self.exportXML(among: files) else {
                throw AppleHealthReadError(.unreadable, "\(url.lastPathComponent) holds no export XML (export.xml)")
            }
            xmlPath = xml.path
            xmlSize = Int(exactly: xml.uncompressedSize)
            let prefix = String(xml.path.dropLast(xml.path.split(separator: "/").last?.count ?? 0))
            var relative: [String: Entry] = [:]
            for (path, entry) in files where path.hasPrefix(prefix) && path != xml.path {
                relative[String(path.dropFirst(prefix.count))] = entry
            }
            entries = relative
            unreadFiles = Self.unreadFiles(relative.keys)
            self.archive = archive
            root = nil
        } else {
            form = .file
            xmlPath = url.path
            xmlSize = Self.size(of: url)
            root = url.deletingLastPathComponent()
            unreadFiles = [:]
            entries = [:]
            archive = nil
        }
    }

    /// A reader of the export's XML.
    public func reader(options: AppleHealthReader.Options = .init()) throws(AppleHealthReadError) -> AppleHealthReader {
        switch form {
        case .zip:
            let stream = ZipEntryStream(archiveURL: url, path: xmlPath, chunkSize: options.chunkSize)
            return AppleHealthReader(source: ByteSource(zipEntry: stream, totalBytes: xmlSize), options: options)
        case .folder, .file:
            return try AppleHealthReader(contentsOf: URL(fileURLWithPath: xmlPath), options: options)
        }
    }

    /// Whether the XML's last 64 KiB hold `</HealthData>`: false for a file cut short. A zip's
    /// XML is inflated through to its end to find out (nothing kept but the last 64 KiB), which
    /// also checks it against the archive's checksum: a damaged archive throws `unreadable`
    /// here, before anything is imported.
    public func endsWithEndTag() throws(AppleHealthReadError) -> Bool {
        let tag = Data("</HealthData>".utf8)
        let window = 65_536
        switch form {
        case .zip:
            let stream = ZipEntryStream(archiveURL: url, path: xmlPath, chunkSize: 1 << 20)
            defer { stream.cancel() }
            var tail = [UInt8](repeating: 0, count: 2 * window)
            var filled = 0
            while true {
                if filled == tail.count {
                    tail.replaceSubrange(0..<window, with: tail[window...])
                    filled = window
                }
                let read = try tail.withUnsafeMutableBufferPointer { buffer throws(AppleHealthReadError) in
                    try stream.read(into: buffer.baseAddress! + filled, count: buffer.count - filled)
                }
                if read == 0 { break }
                filled += read
            }
            return Data(tail[0..<filled]).range(of: tag) != nil
        case .folder, .file:
            guard case .success(let (handle, _)) = InputFile.open(xmlPath) else { return true }
            defer { try? handle.close() }
            let size = (try? handle.seekToEnd()) ?? 0
            try? handle.seek(toOffset: size > UInt64(window) ? size - UInt64(window) : 0)
            return ((try? handle.readToEnd()) ?? Data()).range(of: tag) != nil
        }
    }

    /// The bytes of a file the XML names (a route's `/workout-routes/route_….gpx`), relative to
    /// the XML's folder; nil when the export does not hold it. Throws `tooLarge` for a file
    /// larger than `maximumSize`, `unreadable` when it cannot be read.
    public func contents(of reference: String, maximumSize: Int) throws(AppleHealthReadError) -> [UInt8]? {
        let relative = reference.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        guard !relative.isEmpty, !relative.split(separator: "/").contains("..") else { return nil }
        if let archive {
            guard let entry = entries[relative] else { return nil }
            guard entry.uncompressedSize <= UInt64(maximumSize) else {
                throw AppleHealthReadError(.tooLarge, "\(relative) is larger than \(maximumSize) bytes")
            }
            lock.lock()
            defer { lock.unlock() }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Int(entry.uncompressedSize))
            do {
                let checksum = try archive.extract(entry, skipCRC32: false) { bytes.append(contentsOf: $0) }
                guard checksum == entry.checksum else {
                    throw AppleHealthReadError(.unreadable, "\(relative) in \(url.lastPathComponent) is damaged")
                }
            } catch let error as AppleHealthReadError {
                throw error
            } catch {
                throw AppleHealthReadError(.unreadable, "cannot inflate \(relative): \(error)")
            }
            return bytes
        }
        guard let root else { return nil }
        let file = root.appendingPathComponent(relative)
        // Never opened unless a regular file: a named pipe there would wait for a writer.
        if let why = InputFile.at(file.path)?.notRegular(named: relative) {
            throw AppleHealthReadError(.unreadable, why)
        }
        guard let size = Self.size(of: file) else { return nil }
        guard size <= maximumSize else {
            throw AppleHealthReadError(.tooLarge, "\(relative) is larger than \(maximumSize) bytes")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw AppleHealthReadError(.unreadable, "cannot read \(file.path)")
        }
        return [UInt8](data)
    }

    // MARK: Finding the parts

    private static func isZip(_ url: URL) -> Bool {
        guard case .success(let (handle, _)) = InputFile.open(url.path) else { return false }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        return magic == Data([0x50, 0x4B, 0x03, 0x04]) || magic == Data([0x50, 0x4B, 0x05, 0x06])
    }

    private static func size(of url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size].flatMap { ($0 as? NSNumber)?.intValue }
    }

    private static func isExportXML(_ name: Substring) -> Bool {
        name.lowercased().hasSuffix(".xml") && name != "export_cda.xml"
    }

    private static func exportXML(in folder: URL) throws(AppleHealthReadError) -> URL {
        let named = folder.appendingPathComponent("export.xml")
        if FileManager.default.fileExists(atPath: named.path) {
            if let why = InputFile.notRegular(named.path) { throw AppleHealthReadError(.unreadable, why) }
            return named
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let candidates = names.filter { isExportXML(Substring($0)) }.map { folder.appendingPathComponent($0) }
            .filter { InputFile.notRegular($0.path) == nil }
        guard let largest = candidates.max(by: { (size(of: $0) ?? 0) < (size(of: $1) ?? 0) }) else {
            throw AppleHealthReadError(.unreadable, "\(folder.path) holds no export XML (export.xml)")
        }
        return largest
    }

    /// In an archive: `export.xml` at the top or one folder down (`apple_health_export/`), else
    /// the largest other `.xml` there.
    private static func exportXML(among files: [String: Entry]) -> Entry? {
        let shallow = files.values.filter { $0.path.split(separator: "/").count <= 2 }
        if let named = shallow.first(where: { $0.path.split(separator: "/").last == "export.xml" }) { return named }
        return shallow.filter { isExportXML($0.path.split(separator: "/").last ?? "") }
            .max { $0.uncompressedSize < $1.uncompressedSize }
    }

    /// What kind of unread file a relative path is; nil for the XML's own parts (routes).
    private static func kind(of relative: String) -> String? {
        let parts = relative.split(separator: "/")
        // Hidden files (a Finder's .DS_Store, a zip's __MACOSX) are no part of the export.
        guard let first = parts.first, !parts.contains(where: { $0.hasPrefix(".") }), first != "__MACOSX" else {
            return nil
        }
        if parts.count == 1 {
            if first == "export_cda.xml" { return "export_cda.xml (clinical document)" }
            return "file " + first
        }
        switch first {
        case "workout-routes": return relative.lowercased().hasSuffix(".gpx") ? nil : "workout-routes (not GPX)"
        case "electrocardiograms": return "electrocardiograms (CSV)"
        case "clinical-records": return "clinical-records (FHIR JSON)"
        default: return "folder \(first)"
        }
    }

    private static func unreadFiles(_ relativePaths: some Sequence<String>) -> [String: Int] {
        var counts: [String: Int] = [:]
        for path in relativePaths {
            if let kind = kind(of: path) { counts[kind, default: 0] += 1 }
        }
        return counts
    }

    /// The files of a folder export besides its XML (and only a folder's: a lone XML's neighbours
    /// are not the export's).
    private static func unreadFiles(in folder: URL, besides xml: String) -> [String: Int] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [:] }
        var paths: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard path != xml,
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(path).path,
                    isDirectory: &isDirectory
                ),
                !isDirectory.boolValue
            else { continue }
            paths.append(path)
        }
        return unreadFiles(paths)
    }
}
