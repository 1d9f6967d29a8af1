import Foundation
import ZIPFoundation

/// One file of a zip archive, inflated as it is read: ZIPFoundation's extraction runs on a thread
/// of its own and hands over one inflated chunk at a time, which ``read(into:count:)`` takes when
/// the reader asks for more. At most one chunk waits: memory stays that of a chunk whatever the
/// file's size, and nothing is written to disk. The checksum the archive gives the file is checked
/// at its end: a damaged archive ends in `unreadable`, never in a silently different file.
final class ZipEntryStream: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: Data?
    private var offset = 0
    private var finished = false
    private var failure: AppleHealthReadError?
    private var cancelled = false

    /// Starts inflating `path` of the archive at `archiveURL` (opened anew: an archive is read by
    /// one thread).
    init(archiveURL: URL, path: String, chunkSize: Int) {
        let thread = Thread { [self] in produce(archiveURL: archiveURL, path: path, chunkSize: chunkSize) }
        thread.name = "zip-inflate"
        thread.start()
    }

    deinit { cancel() }

    private struct Cancelled: Error {}

    private func produce(archiveURL: URL, path: String, chunkSize: Int) {
        var outcome: AppleHealthReadError?
        do {
            let archive = try Archive(url: archiveURL, accessMode: .read)
            guard let entry = archive[path] else {
                throw AppleHealthReadError(.unreadable, "\(path) is not in \(archiveURL.lastPathComponent)")
            }
            let checksum = try archive.extract(entry, bufferSize: chunkSize, skipCRC32: false) { [self] data in
                condition.lock()
                defer { condition.unlock() }
                while pending != nil && !cancelled { condition.wait() }
                if cancelled { throw Cancelled() }
                pending = data
                offset = 0
                condition.broadcast()
            }
            if checksum != entry.checksum {
                outcome = AppleHealthReadError(
                    .unreadable,
                    "\(path) in \(archiveURL.lastPathComponent) is damaged: its contents do not match the archive's checksum"
                )
            }
        } catch is Cancelled {
            return
        } catch let error as AppleHealthReadError {
            outcome = error
        } catch {
            outcome = AppleHealthReadError(
                .unreadable,
                "cannot inflate \(path) from \(archiveURL.lastPathComponent): the archive is damaged (\(error))"
            )
        }
        condition.lock()
        finished = true
        failure = outcome
        condition.broadcast()
        condition.unlock()
    }

    /// Fills up to `count` bytes at `destination`; 0 at the end of the file.
    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(AppleHealthReadError) -> Int {
        guard count > 0 else { return 0 }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let data = pending {
                let taken = min(count, data.count - offset)
                data.withUnsafeBytes { bytes in
                    destination.update(from: bytes.bindMemory(to: UInt8.self).baseAddress! + offset, count: taken)
                }
                offset += taken
                if offset >= data.count {
                    pending = nil
                    condition.broadcast()
                }
                if taken > 0 { return taken }
                continue
            }
            if finished {
                if let failure { throw failure }
                return 0
            }
            condition.wait()
        }
    }

    /// Stops the extraction (the reader is done with the file, or gave up).
    func cancel() {
        condition.lock()
        cancelled = true
        pending = nil
        condition.broadcast()
        condition.unlock()
    }
}
