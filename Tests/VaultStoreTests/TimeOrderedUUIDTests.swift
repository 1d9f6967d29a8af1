import Foundation
import HealthModel
import Testing

@testable import VaultStore

/// Time-ordered UUIDs (`UUID.forNewObject()`, version 7) put the entries a save adds to the index
/// keyed by UUID on a few leaves, where random ones put each on a leaf of its own: the saves of an
/// app write far fewer pages into the log (docs/PERFORMANCE.md, "Time-ordered UUIDs").
@Suite(.serialized)
struct TimeOrderedUUIDTests {
    func steps(_ count: Int, from offset: Int, uuid: () -> UUID) throws -> [Sample] {
        let revision = SourceRevision(source: Source(bundleIdentifier: "org.example.steps", name: "Steps"))
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        return try (0..<count).map { index in
            let minute = start.addingTimeInterval(Double(offset + index) * 60)
            return .quantity(
                try QuantitySample(
                    uuid: uuid(),
                    type: .stepCount,
                    quantity: Quantity(Double(index % 100), .count),
                    start: minute,
                    end: minute.addingTimeInterval(60),
                    sourceRevision: revision
                )
            )
        }
    }

    /// The frames the log holds after `batches` saves of 10 samples each, from an empty log.
    func framesWritten(_ test: TestVault, batches: Int, from offset: Int, uuid: () -> UUID) throws -> Int {
        let database = try test.vault!.db()
        _ = try database.withWriter { try $0.rows("PRAGMA wal_checkpoint(TRUNCATE)") }
        #expect(try Data(contentsOf: test.walURL).count == 0)
        for batch in 0..<batches {
            try test.store.save(try steps(10, from: offset + batch * 10, uuid: uuid))
        }
        let length = try Data(contentsOf: test.walURL).count
        return (length - WriteAheadLog.headerSize) / (WriteAheadLog.frameHeaderSize + 4096)
    }

    @Test func savesWithTimeOrderedUUIDsWriteFewerPages() throws {
        let test = try TestVault()
        // Every frame stays in the log while the test counts them.
        try test.vault!.db().withWriter { try $0.execute("PRAGMA wal_autocheckpoint = 0") }
        // A history of random UUIDs, as an Apple Health import's (keyed hashes of the records).
        for chunk in 0..<4 {
            try test.store.save(try steps(5_000, from: chunk * 5_000, uuid: UUID.init))
        }
        let random = try framesWritten(test, batches: 30, from: 20_000, uuid: UUID.init)
        let ordered = try framesWritten(test, batches: 30, from: 20_300, uuid: UUID.forNewObject)
        // About 10 leaves of the UUID index a save with random UUIDs, about 1 with ordered ones,
        // beside the table's and the other indexes' last pages and the statistics hours.
        #expect(ordered * 10 < random * 7, "frames: \(ordered) time-ordered, \(random) random")
        #expect(try test.vault!.db().read { try $0.scalarInt("SELECT count(*) FROM samples") } == 20_600)
    }
}
