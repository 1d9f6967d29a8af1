import Foundation
import HealthModel
import HealthModelTestSupport
import Testing

@testable import VaultStore

/// The write-ahead log: damage to a committed frame is found before SQLite would silently treat it
/// as the end of the log; a torn, never-acknowledged last transaction is not called damage.
@Suite(.serialized)
struct WriteAheadLogTests {
    static let frameSize = WriteAheadLog.frameHeaderSize + 4096

    /// A vault with `batches` batches saved one transaction each. After each batch the test takes
    /// a copy of the live directory (its -wal and -shm included, as a backup of a running vault
    /// or a crash leaves them). Returns the copies, the batches and the log's length after each.
    func liveCopies(
        batches: Int,
        checkpointAtEnd: Bool = false
    ) throws -> (copies: [TestVault], batches: [[Sample]], logLengths: [Int]) {
        let test = try TestVault()
        var copies: [TestVault] = []
        var saved: [[Sample]] = []
        var lengths: [Int] = []
        for index in 0..<batches {
            let batch = try (0..<40).map { _ in
                Sample.quantity(
                    try Fixtures.quantity(
                        .stepCount,
                        Double(index * 100 + 1),
                        metadata: ["note": .string(String(repeating: "x", count: 200))]
                    )
                )
            }
            try test.store.save(batch)
            saved.append(batch)
            if checkpointAtEnd, index == batches - 1 {
                // Every frame copied into the database (as an automatic checkpoint does); the
                // log stays until the next write.
                let busy = try test.vault!.db().withWriter { try $0.rows("PRAGMA wal_checkpoint(PASSIVE)") }
                #expect(busy.first?[0].int64 == 0)
            }
            let copy = try TestVault(create: false)
            try FileManager.default.copyItem(at: test.directory, to: copy.directory)
            copies.append(copy)
            lengths.append(try Data(contentsOf: copy.walURL).count)
        }
        test.close()
        // No checkpoint ran in between: each log is the one before it with one transaction added.
        for index in 1..<batches {
            let earlier = try Data(contentsOf: copies[index - 1].walURL)
            #expect(try Data(contentsOf: copies[index].walURL).prefix(earlier.count) == earlier)
        }
        return (copies, saved, lengths)
    }

    func scan(_ log: Data) -> WALScan {
        log.withUnsafeBytes { WALScan(log: $0) }
    }

    @Test func theScanReadsSQLiteLogsExactlyAsSQLiteDoes() throws {
        let (copies, _, lengths) = try liveCopies(batches: 3)
        for (copy, length) in zip(copies, lengths) {
            let result = scan(try Data(contentsOf: copy.walURL))
            #expect(result.headerValid)
            #expect(result.firstBadFrame == nil)
            #expect(Int(result.committedFrames) == (length - WriteAheadLog.headerSize) / Self.frameSize)
            let index = try #require(WALIndexHeader(shmPath: copy.databaseURL.path + "-shm"))
            #expect(index.mxFrame == result.committedFrames)
            #expect(index.salt == result.salt)
        }
    }

    @Test func aFlippedByteInACommittedFrameIsDamageNotASilentLoss() throws {
        let (copies, batches, lengths) = try liveCopies(batches: 3)
        let copy = copies[2]
        let log = try Data(contentsOf: copy.walURL)
        let shm = try Data(contentsOf: copy.shmURL)
        let firstBatchFrames = (lengths[0] - WriteAheadLog.headerSize) / Self.frameSize
        #expect(firstBatchFrames >= 2)
        // In a page of the first batch, in the second batch's first frame header (its checksum),
        // in the log header (its checkpoint sequence), and in the last batch's commit frame.
        // Then the log header's magic number and page size, which make SQLite ignore the log.
        let offsets = [
            WriteAheadLog.headerSize + Self.frameSize + 3000,
            lengths[0] + 17,
            12,
            lengths[2] - 100,
            1,
            10,
        ]
        for withIndex in [true, false] {
            for offset in offsets {
                // The last batch's damage is provable only from the index: nothing follows it.
                if offset == offsets[3] && !withIndex { continue }
                var damaged = log
                damaged[offset] ^= 0x04
                try damaged.write(to: copy.walURL)
                if withIndex {
                    try shm.write(to: copy.shmURL)
                } else {
                    try? FileManager.default.removeItem(at: copy.shmURL)
                }
                try copy.expectOpenFails(with: "damagedDatabase", containing: "write-ahead log")
            }
        }
        // The log restored (and the index too), every batch is there.
        try log.write(to: copy.walURL)
        try shm.write(to: copy.shmURL)
        try copy.reopen()
        for sample in batches.joined() {
            #expect(try copy.store.sample(uuid: sample.uuid, scope: .owner) == sample)
        }
    }

    @Test func afterACheckpointDamageToTheLogIsStillDamage() throws {
        // Every frame is already in the database (nBackfill = mxFrame), but SQLite rebuilds the
        // index on open and would lay the readable frames' older pages over the newer database.
        let (copies, batches, lengths) = try liveCopies(batches: 3, checkpointAtEnd: true)
        let copy = copies[2]
        let index = try #require(WALIndexHeader(shmPath: copy.shmURL.path))
        #expect(index.nBackfill == index.mxFrame)
        let log = try Data(contentsOf: copy.walURL)
        var damaged = log
        damaged[lengths[1] + WriteAheadLog.frameHeaderSize + 500] ^= 0x10
        try damaged.write(to: copy.walURL)
        try copy.expectOpenFails(with: "damagedDatabase", containing: "write-ahead log")
        try log.write(to: copy.walURL)
        try copy.reopen()
        for sample in batches.joined() {
            #expect(try copy.store.sample(uuid: sample.uuid, scope: .owner) == sample)
        }
    }

    @Test func aMissingOrEmptyLogIsNotEvidenceAgainstACheckpointedDatabase() throws {
        // A stale index (never synced) beside a log that is gone or empty, with everything in
        // the database: it opens whole. A missing log is not treated as proof of loss.
        for empty in [false, true] {
            let (copies, batches, _) = try liveCopies(batches: 2, checkpointAtEnd: true)
            let copy = copies[1]
            if empty { try Data().write(to: copy.walURL) } else { try FileManager.default.removeItem(at: copy.walURL) }
            try copy.reopen()
            for sample in batches.joined() {
                #expect(try copy.store.sample(uuid: sample.uuid, scope: .owner) == sample)
            }
        }
    }

    @Test func aTornLastTransactionIsNotDamageAndLosesOnlyItself() throws {
        // A crash while the third batch was being written, before its commit was synced: some of
        // its frames reached the disk and some did not. It was never acknowledged.
        let (copies, batches, lengths) = try liveCopies(batches: 3)
        let before = copies[1]
        let after = try Data(contentsOf: copies[2].walURL)
        let third = after[lengths[1]..<lengths[2]]
        #expect(third.count >= 2 * Self.frameSize)
        let tears: [(String, Data)] = [
            (
                "a frame never written",
                Data(third.prefix(Self.frameSize)) + Data(count: Self.frameSize) + third.dropFirst(2 * Self.frameSize)
            ),
            ("the first frame never written", Data(count: Self.frameSize) + third.dropFirst(Self.frameSize)),
            ("cut inside a frame", Data(third.prefix(third.count - 1000))),
            ("the commit frame half written", Data(third.prefix(third.count - 2000)) + Data(count: 2000)),
        ]
        let log = try Data(contentsOf: before.walURL)
        let shm = try Data(contentsOf: before.shmURL)
        for (name, tail) in tears {
            for withIndex in [true, false] {
                before.close()
                try (log + tail).write(to: before.walURL)
                if withIndex {
                    try shm.write(to: before.shmURL)
                } else {
                    try? FileManager.default.removeItem(at: before.shmURL)
                }
                do {
                    try before.reopen()
                } catch {
                    Issue.record("\(name), index \(withIndex): \(error)")
                    continue
                }
                for sample in batches[0] + batches[1] {
                    #expect(try before.store.sample(uuid: sample.uuid, scope: .owner) == sample, "\(name)")
                }
                for sample in batches[2] {
                    #expect(try before.store.sample(uuid: sample.uuid, scope: .owner) == nil, "\(name)")
                }
                before.close()
            }
        }
    }

    // MARK: The scan on logs built here, for the cases a live vault does not produce on demand.

    /// A log of 512-byte pages: each transaction a list of page numbers, the last its commit frame.
    func makeLog(_ transactions: [[UInt32]], salt: UInt64 = 0x1122_3344_5566_7788) -> (Data, [Int]) {
        var log = Data(count: WriteAheadLog.headerSize)
        func put(_ value: UInt32, at offset: Int, in data: inout Data) {
            withUnsafeBytes(of: value.bigEndian) { data.replaceSubrange(offset..<offset + 4, with: $0) }
        }
        put(0x377F_0682, at: 0, in: &log)
        put(3_007_000, at: 4, in: &log)
        put(512, at: 8, in: &log)
        withUnsafeBytes(of: salt) { log.replaceSubrange(16..<24, with: $0) }
        var sum = log.withUnsafeBytes {
            WriteAheadLog.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<24]), bigEndian: false, seed: (0, 0))
        }
        put(sum.0, at: 24, in: &log)
        put(sum.1, at: 28, in: &log)
        var starts: [Int] = []
        for transaction in transactions {
            for (position, page) in transaction.enumerated() {
                var frame = Data(count: WriteAheadLog.frameHeaderSize + 512)
                put(page, at: 0, in: &frame)
                put(position == transaction.count - 1 ? 100 : 0, at: 4, in: &frame)
                withUnsafeBytes(of: salt) { frame.replaceSubrange(8..<16, with: $0) }
                for byte in 24..<frame.count { frame[byte] = UInt8(truncatingIfNeeded: Int(page) &* 31 &+ byte) }
                sum = frame.withUnsafeBytes {
                    let head = WriteAheadLog.checksum(
                        UnsafeRawBufferPointer(rebasing: $0[0..<8]),
                        bigEndian: false,
                        seed: sum
                    )
                    return WriteAheadLog.checksum(
                        UnsafeRawBufferPointer(rebasing: $0[24...]),
                        bigEndian: false,
                        seed: head
                    )
                }
                put(sum.0, at: 16, in: &frame)
                put(sum.1, at: 20, in: &frame)
                starts.append(log.count)
                log += frame
            }
        }
        return (log, starts)
    }

    @Test func theScanTellsDamageFromATornTailOnBuiltLogs() {
        let (log, frames) = makeLog([[1, 2], [3, 4], [5, 6]])
        let clean = scan(log)
        #expect(clean.headerValid && clean.committedFrames == 6 && clean.firstBadFrame == nil)

        func flipped(_ offset: Int) -> WALScan {
            var copy = log
            copy[offset] ^= 1
            return scan(copy)
        }
        // Damage in the first or second transaction: a later commit proves it was acknowledged.
        for (frame, committed) in [(0, 0), (1, 0), (2, 2), (3, 2)] {
            let result = flipped(frames[frame] + 100)
            #expect(result.committedFrames == UInt32(committed))
            #expect(result.firstBadFrame == UInt32(frame + 1))
            #expect(result.committedFrameAfterDamage != nil, "frame \(frame + 1)")
        }
        // The header: SQLite would ignore the whole log.
        #expect(flipped(13).committedFrameAfterDamage == UInt32(2))
        // Damage in the last transaction looks like a torn write: not provable from the log alone.
        for frame in [4, 5] {
            #expect(flipped(frames[frame] + 100).committedFrameAfterDamage == nil)
        }
        // A transaction that spilled frames 3 to 6 into the log and rolled back, then one that
        // committed frames 3 and 4: frames 5 and 6 are left over, chained from the rolled-back
        // frame 4. They are not a later transaction.
        let (rolledBack, spilledFrames) = makeLog([[1, 2], [3, 9, 7, 8, 5]])
        let leftover = log.prefix(frames[4]) + rolledBack[spilledFrames[4]..<spilledFrames[6]]
        let result = scan(Data(leftover))
        #expect(result.committedFrames == 4 && result.firstBadFrame == 5)
        #expect(result.committedFrameAfterDamage == nil)
    }
}

extension TestVault {
    var walURL: URL { URL(fileURLWithPath: databaseURL.path + "-wal") }
    var shmURL: URL { URL(fileURLWithPath: databaseURL.path + "-shm") }
}
