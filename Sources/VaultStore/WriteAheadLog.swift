import Foundation

/// A check of `vault.db-wal` before SQLite opens it.
///
/// SQLite reads the write-ahead log up to its first frame whose checksum chain breaks and treats
/// that frame as the end of the log: a flipped byte in a committed frame silently drops that
/// transaction and every later one. This check finds such a loss, so that opening reports
/// `damagedDatabase` and changes no file, instead of opening a vault that lacks acknowledged
/// batches. It reads the files only (the checksums cover the encrypted pages; no key is needed).
///
/// A torn last transaction, left by a crash before its commit was synced and never acknowledged,
/// is not damage: SQLite rightly ignores it. Two kinds of evidence tell the two apart:
///
/// 1. The wal-index (`vault.db-shm`), when intact and for the same log generation, records how many
///    frames were committed (`mxFrame`, written only after the log was synced) and how many of them
///    were already copied into the database (`nBackfill`). If fewer frames than that are readable
///    and not yet in the database, committed data is missing.
/// 2. Without a usable wal-index: after the first bad frame, a frame that follows a commit frame,
///    continues that commit frame's stored checksum chain, and leads along the chain to another
///    commit frame, is a later transaction that committed. With `synchronous = FULL` a transaction
///    only starts writing after the one before it was synced, so the bad frame belonged to an
///    acknowledged transaction. (The log header counts as the commit frame before frame 1.)
///
/// Layout and checksum: https://www.sqlite.org/fileformat2.html#walformat and `wal.c`.
enum WriteAheadLog {
    static let headerSize = 32
    static let frameHeaderSize = 24

    /// Throws `damagedDatabase` when the log beside `databasePath` has lost committed frames.
    ///
    /// Skipped while another connection has the database open (in this process, or in another
    /// one, which holds SQLite's shared lock on the wal-index): its files are live, and SQLite
    /// will not rebuild the index from the log.
    static func check(databasePath: String, openElsewhere: Bool) throws(StoreError) {
        guard !openElsewhere, !isOpenInAnotherProcess(shmPath: databasePath + "-shm") else { return }
        // The index first, then the log: the log is never older than the index read before it.
        // Plain reads, not a mapping: a log truncated under a mapping would kill the process.
        let index = WALIndexHeader(shmPath: databasePath + "-shm")
        guard let log = try? Data(contentsOf: URL(fileURLWithPath: databasePath + "-wal")) else { return }
        let scan = log.withUnsafeBytes { WALScan(log: $0) }
        // The index is evidence only for the same generation of the log (its salts). Frames it
        // counts as committed that cannot be read are lost, unless none can be read and all were
        // already copied into the database: SQLite then reads the database alone, which is whole.
        // With some readable, it would lay their older page versions over the database.
        if let index, index.salt == scan.salt, index.mxFrame > scan.committedFrames,
            scan.committedFrames > 0 || index.mxFrame > index.nBackfill
        {
            throw lost(
                "the write-ahead log \(databasePath)-wal is damaged: \(scan.committedFrames) of \(index.mxFrame) committed frames are readable"
            )
        }
        if let frame = scan.committedFrameAfterDamage {
            throw lost(
                "the write-ahead log \(databasePath)-wal is damaged at frame \(scan.firstBadFrame ?? 0); a transaction committed after it (frame \(frame)) would be lost"
            )
        }
    }

    /// Whether a process other than this one holds SQLite's "DMS" lock on the wal-index (byte
    /// 128 of `-shm`, which every connection using the index holds shared).
    static func isOpenInAnotherProcess(shmPath: String) -> Bool {
        let fd = open(shmPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        guard fcntl(fd, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    private static func lost(_ message: String) -> StoreError {
        .damagedDatabase(message + "; acknowledged changes would be lost. Restore the vault from a backup")
    }

    /// SQLite's WAL checksum: 32-bit words, pairs folded into two running sums.
    static func checksum(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool, seed: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (s1, s2) = seed
        var offset = 0
        while offset + 8 <= bytes.count {
            let x0 = word(bytes, offset, bigEndian: bigEndian)
            let x1 = word(bytes, offset + 4, bigEndian: bigEndian)
            s1 = s1 &+ x0 &+ s2
            s2 = s2 &+ x1 &+ s1
            offset += 8
        }
        return (s1, s2)
    }

    static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int, bigEndian: Bool) -> UInt32 {
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value)
    }
}

/// One pass over a write-ahead log file.
struct WALScan {
    var headerValid = false
    /// Salt-1 and salt-2 as stored (the generation of the log).
    var salt: UInt64 = 0
    /// Frames SQLite will read: up to the last commit frame before the first bad frame.
    var committedFrames: UInt32 = 0
    /// The first frame SQLite will not read (1-based), or nil when every frame in the file is good.
    var firstBadFrame: UInt32?
    /// A commit frame after the first bad one, reached along an intact checksum chain from a
    /// commit frame: proof that the bad frame was in an acknowledged transaction.
    var committedFrameAfterDamage: UInt32?

    init(log: UnsafeRawBufferPointer) {
        guard log.count >= WriteAheadLog.headerSize else { return }
        let magic = WriteAheadLog.word(log, 0, bigEndian: true)
        let storedPageSize = Int(WriteAheadLog.word(log, 8, bigEndian: true))
        let shapeValid =
            magic & 0xFFFF_FFFE == 0x377F_0682 && storedPageSize >= 512 && storedPageSize <= 65536
            && storedPageSize & (storedPageSize - 1) == 0
        guard shapeValid else {
            // A damaged magic number or page size: SQLite ignores the whole log. Look for
            // committed frames as the vault writes them (4096-byte pages), in either byte order.
            for bigEndian in [false, true] {
                self = WALScan(log: log, pageSize: 4096, bigEndian: bigEndian, headerValid: false)
                if committedFrameAfterDamage != nil { return }
            }
            return
        }
        self = WALScan(log: log, pageSize: storedPageSize, bigEndian: magic & 1 == 1, headerValid: true)
    }

    private init(log: UnsafeRawBufferPointer, pageSize: Int, bigEndian: Bool, headerValid shapeValid: Bool) {
        let header = UnsafeRawBufferPointer(rebasing: log[0..<WriteAheadLog.headerSize])
        let stored = (WriteAheadLog.word(log, 24, bigEndian: true), WriteAheadLog.word(log, 28, bigEndian: true))
        salt = log.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        let headerSum = WriteAheadLog.checksum(
            UnsafeRawBufferPointer(rebasing: header[0..<24]),
            bigEndian: bigEndian,
            seed: (0, 0)
        )
        headerValid = shapeValid && headerSum == stored && WriteAheadLog.word(log, 4, bigEndian: true) == 3_007_000

        let frameSize = WriteAheadLog.frameHeaderSize + pageSize
        let frames = (log.count - WriteAheadLog.headerSize) / frameSize
        func frame(_ number: Int) -> Frame {
            let start = WriteAheadLog.headerSize + (number - 1) * frameSize
            return Frame(bytes: UnsafeRawBufferPointer(rebasing: log[start..<start + frameSize]), bigEndian: bigEndian)
        }
        // Frames SQLite reads.
        var running = stored
        var number = 1
        while headerValid, number <= frames {
            let current = frame(number)
            guard current.salt == salt, current.page != 0, current.verifies(from: running) else { break }
            running = current.storedSum
            if current.isCommit { committedFrames = UInt32(number) }
            number += 1
        }
        guard number <= frames else { return }
        firstBadFrame = UInt32(number)

        // Past the damage: a chain that starts right after a commit frame of this generation (or
        // after the header) and reaches a commit frame is a later transaction that committed.
        var seed: (UInt32, UInt32)? = number == 1 ? stored : nil
        for candidate in number...frames {
            let current = frame(candidate)
            if let chain = seed, current.salt == salt, current.page != 0, current.verifies(from: chain) {
                if current.isCommit {
                    committedFrameAfterDamage = UInt32(candidate)
                    return
                }
                seed = current.storedSum
            } else {
                seed = nil
            }
            // A new chain may start after any commit frame, the damaged one included.
            if current.salt == salt, current.isCommit {
                seed = current.storedSum
            }
        }
    }

    struct Frame {
        let bytes: UnsafeRawBufferPointer
        let bigEndian: Bool

        var page: UInt32 { WriteAheadLog.word(bytes, 0, bigEndian: true) }
        var isCommit: Bool { WriteAheadLog.word(bytes, 4, bigEndian: true) != 0 }
        var salt: UInt64 { bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self) }
        var storedSum: (UInt32, UInt32) {
            (WriteAheadLog.word(bytes, 16, bigEndian: true), WriteAheadLog.word(bytes, 20, bigEndian: true))
        }

        func verifies(from seed: (UInt32, UInt32)) -> Bool {
            let head = WriteAheadLog.checksum(
                UnsafeRawBufferPointer(rebasing: bytes[0..<8]),
                bigEndian: bigEndian,
                seed: seed
            )
            let sum = WriteAheadLog.checksum(
                UnsafeRawBufferPointer(rebasing: bytes[WriteAheadLog.frameHeaderSize...]),
                bigEndian: bigEndian,
                seed: head
            )
            return sum == storedSum
        }
    }
}

/// The header of the wal-index (`-shm`), when it is intact: both copies equal, its checksum right.
/// The wal-index is in the host's byte order.
struct WALIndexHeader {
    let mxFrame: UInt32
    let nBackfill: UInt32
    /// Salt-1 and salt-2 as the log header stores them (copied byte for byte).
    let salt: UInt64

    init?(shmPath: String) {
        guard let handle = FileHandle(forReadingAtPath: shmPath) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 136), data.count >= 136 else { return nil }
        let parsed: (UInt32, UInt32, UInt64)? = data.withUnsafeBytes { bytes in
            func native(_ offset: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
            guard bytes[0..<48].elementsEqual(bytes[48..<96]), native(0) == 3_007_000, bytes[12] == 1 else {
                return nil
            }
            // The checksum over the first 40 bytes, in native order.
            var words = (UInt32(0), UInt32(0))
            for offset in stride(from: 0, to: 40, by: 8) {
                words.0 = words.0 &+ native(offset) &+ words.1
                words.1 = words.1 &+ native(offset + 4) &+ words.0
            }
            guard words.0 == native(40), words.1 == native(44) else { return nil }
            return (native(16), native(96), bytes.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
        }
        guard let parsed else { return nil }
        (mxFrame, nBackfill, salt) = parsed
    }
}
