public import Foundation
public import HealthModel

#if canImport(Glibc)
import Glibc
#endif

/// The directory an export is written into, owner-only: made 0700 when absent, every file in it
/// created 0600 (an export is not encrypted: nobody else on the machine may read it).
public struct ExportDirectory: Sendable {
    public let url: URL

    /// Prepares `url`: made (0700) when absent; an empty directory is taken (and made 0700); a
    /// directory holding anything is refused unless `overwrite`, and then the files the export
    /// writes are replaced (others are left alone). Refused naming `path`.
    public init(_ url: URL, overwrite: Bool) throws(HealthError) {
        self.url = url
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .invalidArgument("\(url.path) is a file; an export is written into a directory", field: "path")
            }
            let contents = (try? manager.contentsOfDirectory(atPath: url.path)) ?? []
            if !contents.isEmpty, !overwrite {
                throw .invalidArgument(
                    "\(url.path) is not empty; choose a new directory, or overwrite it (--overwrite)",
                    field: "path"
                )
            }
        } else {
            do {
                try manager.createDirectory(at: url, withIntermediateDirectories: false)
            } catch {
                throw .invalidArgument(
                    "cannot make the directory \(url.path) (does its parent exist, may you write there?)",
                    field: "path"
                )
            }
        }
        guard chmod(url.path, 0o700) == 0 else {
            throw .invalidArgument("cannot make \(url.path) owner-only (0700)", field: "path")
        }
    }

    /// The name every format gives its manifest, written last.
    public static let manifestFile = "manifest.json"

    /// Writes the export's manifest (docs/EXPORT_JSON.md, `manifest.json`) and closes it: every
    /// format ends with it.
    public func writeManifest(_ manifest: ExportManifest) throws {
        let file = try create(Self.manifestFile)
        try file.write(try HealthJSON.encoder().encode(manifest) + Data("\n".utf8))
        try file.close()
    }

    /// A new file `name` in the directory, 0600, empty (an older one of the name is replaced).
    public func create(_ name: String) throws(HealthError) -> ExportFile {
        try ExportFile(url.appendingPathComponent(name))
    }
}

/// One file of an export, written through a buffer (a megabyte at a time), 0600.
public final class ExportFile {
    public let url: URL
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 20
    /// Bytes written so far (buffered included).
    public private(set) var byteCount = 0

    init(_ url: URL) throws(HealthError) {
        self.url = url
        unlink(url.path)
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .invalidArgument(
                "cannot create \(url.lastPathComponent) in \(url.deletingLastPathComponent().path)",
                field: "path"
            )
        }
        // The umask may have taken bits away, never added any; say so exactly.
        fchmod(descriptor, 0o600)
        buffer.reserveCapacity(Self.flushSize + (64 << 10))
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    public func write(_ bytes: some Sequence<UInt8>) throws(HealthError) {
        let before = buffer.count
        buffer.append(contentsOf: bytes)
        byteCount += buffer.count - before
        if buffer.count >= Self.flushSize { try flush() }
    }

    public func flush() throws(HealthError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw HealthError(
                    .unknownError,
                    "cannot write \(url.lastPathComponent): \(String(cString: strerror(errno)))",
                    field: "path"
                )
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered, makes it durable and closes the file.
    public func close() throws(HealthError) {
        try flush()
        guard descriptor >= 0 else { return }
        let synced = fsync(descriptor) == 0
        Glibc.close(descriptor)
        descriptor = -1
        guard synced else {
            throw HealthError(.unknownError, "cannot write \(url.lastPathComponent) to disk", field: "path")
        }
    }
}
