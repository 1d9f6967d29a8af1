import Foundation

/// Where a reader's bytes come from: a file read chunk by chunk, or bytes already in memory.
///
/// A file is never read whole: the scanner asks for the next chunk when its window runs out.
final class ByteSource {
    private enum Backing {
        case file(FileHandle)
        case memory([UInt8], position: Int)
        case zipEntry(ZipEntryStream)
    }

    private var backing: Backing
    /// The size of the whole input, when known (a regular file's size, or the bytes' count).
    let totalBytes: Int?

    /// Opens a file for reading, or throws `unreadable` naming it; a path that is not a regular
    /// file (``InputFile``) is refused without being opened.
    init(contentsOf url: URL) throws(AppleHealthReadError) {
        if let why = InputFile.notRegular(url.path) { throw AppleHealthReadError(.unreadable, why) }
        switch InputFile.open(url.path) {
        case .success(let opened):
            backing = .file(opened.handle)
            totalBytes = opened.size
        case .failure(.notRegular(let kind)):
            throw AppleHealthReadError(.unreadable, kind.notRegular(named: url.path) ?? url.path)
        case .failure(.cannotOpen(let reason)):
            throw AppleHealthReadError(.unreadable, "cannot open \(url.path) for reading: \(reason)")
        }
    }

    /// Reads from bytes in memory (tests, and exports already unpacked into memory).
    init(bytes: [UInt8]) {
        backing = .memory(bytes, position: 0)
        totalBytes = bytes.count
    }

    /// Reads one file of a zip archive, inflated as it is read (its uncompressed size is
    /// `totalBytes`).
    init(zipEntry stream: ZipEntryStream, totalBytes: Int?) {
        backing = .zipEntry(stream)
        self.totalBytes = totalBytes
    }

    /// Fills up to `count` bytes at `destination`; returns how many were read, 0 at the end.
    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(AppleHealthReadError) -> Int {
        switch backing {
        case .file(let handle):
            let data: Data?
            do {
                data = try handle.read(upToCount: count)
            } catch {
                throw AppleHealthReadError(.unreadable, "reading the export failed: \(error.localizedDescription)")
            }
            guard let data, !data.isEmpty else { return 0 }
            data.copyBytes(to: destination, count: data.count)
            return data.count
        case .memory(let bytes, let position):
            let taken = min(count, bytes.count - position)
            guard taken > 0 else { return 0 }
            bytes.withUnsafeBufferPointer { source in
                destination.update(from: source.baseAddress! + position, count: taken)
            }
            backing = .memory(bytes, position: position + taken)
            return taken
        case .zipEntry(let stream):
            return try stream.read(into: destination, count: count)
        }
    }

    func close() {
        switch backing {
        case .file(let handle): try? handle.close()
        case .zipEntry(let stream): stream.cancel()
        case .memory: break
        }
    }
}
