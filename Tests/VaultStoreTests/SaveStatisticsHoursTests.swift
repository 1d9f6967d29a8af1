import Foundation
import HealthModel
import HealthModelTestSupport
import Testing

@testable import VaultStore

/// A save forgets the statistics hours kept and counts the changes once per type and source of its
/// batch, where schema 18's insert trigger did it row by row (schema 20 dropped it); a deletion
/// still goes through its trigger (docs/VAULT_FORMAT.md, `statistics_changes`).
@Suite struct SaveStatisticsHoursTests {
    static let firstHour = SampleStore.InsertedSpan.hour(Fixtures.start.timeIntervalSinceReferenceDate)

    /// Kept hours of steps for every source (0) and for `source`, `hours` after Fixtures.start's.
    static func keep(_ hours: [Int64], source: Int64, type: Int64, _ db: Connection) throws {
        for hour in hours {
            for key in [0, source] {
                try db.execute(
                    "INSERT INTO statistics_hours (type, source, hour, result) VALUES (?, ?, ?, x'00')",
                    [type, key, firstHour + hour]
                )
            }
        }
    }

    static func kept(_ db: Connection) throws -> [[Int64]] {
        try db.rows("SELECT source, hour FROM statistics_hours ORDER BY source, hour").map {
            [$0[0].int64!, $0[1].int64! - firstHour]
        }
    }

    static func changes(_ db: Connection) throws -> [[Int64]] {
        try db.rows("SELECT source, changes FROM statistics_changes ORDER BY source").map {
            [$0[0].int64!, $0[1].int64!]
        }
    }

    /// The type and source ids of the watch's steps.
    static func ids(_ database: Database) throws -> (type: Int64, source: Int64) {
        try database.read { db in
            (
                try db.scalarInt("SELECT code FROM types WHERE identifier = 'HKQuantityTypeIdentifierStepCount'")!,
                try db.scalarInt("SELECT id FROM sources WHERE bundle_id = 'org.example.watch'")!
            )
        }
    }

    @Test func aSaveForgetsItsBatchsHoursAndCountsItsRowsOnce() throws {
        let test = try TestVault()
        let store = try test.store
        let database = try test.vault!.db()
        let triggers = try database.read {
            try $0.rows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'samples'")
                .compactMap { $0[0].string }
        }
        #expect(triggers == ["statistics_hours_on_delete"])
        // One sample in hour 0 first, so that the type and source have their ids.
        try store.save([try WindowPlanTests.steps(0, by: "org.example.watch")])
        let (type, source) = try Self.ids(database)
        #expect(try database.read { try Self.changes($0) } == [[0, 1], [source, 1]])
        try database.write { try Self.keep([0, 1, 2, 3, 5, 8, 9], source: source, type: type, $0) }

        // Three samples in hours 2, 3 and 5: the hours from the batch's first to its last are
        // forgotten, for every source and for its own; the others stay. Three changes counted.
        try store.save(try [2, 3.5, 5].map { try WindowPlanTests.steps($0, by: "org.example.watch") })
        #expect(
            try database.read { try Self.kept($0) } == [
                [0, 0], [0, 1], [0, 8], [0, 9], [source, 0], [source, 1], [source, 8], [source, 9],
            ]
        )
        #expect(try database.read { try Self.changes($0) } == [[0, 4], [source, 4]])

        // A deletion goes through its trigger: the first sample's hour 0 is forgotten, the change
        // counted.
        try database.write { try $0.execute("DELETE FROM samples WHERE id = (SELECT min(id) FROM samples)") }
        #expect(
            try database.read { try Self.kept($0) } == [
                [0, 1], [0, 8], [0, 9], [source, 1], [source, 8], [source, 9],
            ]
        )
        #expect(try database.read { try Self.changes($0) } == [[0, 5], [source, 5]])
    }

    /// A batch of samples far apart forgets the hours each reaches, not every hour between.
    @Test func samplesFarApartForgetTheirOwnHours() throws {
        let test = try TestVault()
        let store = try test.store
        let database = try test.vault!.db()
        try store.save([try WindowPlanTests.steps(-1, by: "org.example.watch")])
        let (type, source) = try Self.ids(database)
        try database.write { try Self.keep([10, 100, 200, 5000], source: source, type: type, $0) }
        // Out of time order, and two of them next to each other.
        try store.save(try [5000, 10, 11].map { try WindowPlanTests.steps($0, by: "org.example.watch") })
        #expect(try database.read { try Self.kept($0) } == [[0, 100], [0, 200], [source, 100], [source, 200]])

        var span = SampleStore.InsertedSpan(start: 0, end: 60)
        span.add(start: 3600 * 5000, end: 3600 * 5000 + 60)
        span.add(start: 3600 * 1 + 10, end: 3600 * 2)
        #expect(span.mergedHours == [0...2, 5000...5000])
        // Past the bound, the ranges become one.
        for index in 0..<SampleStore.InsertedSpan.maximumRanges {
            span.add(start: Double(10 + index * 10) * 3600, end: Double(10 + index * 10) * 3600)
        }
        #expect(span.mergedHours == [0...5000])
        #expect(span.count == 3 + Int64(SampleStore.InsertedSpan.maximumRanges))
    }

    /// A save that fails, in a transaction that goes on and commits, has forgotten the hours and
    /// counted the changes of the rows it inserted before failing.
    @Test func aFailedSaveAccountsForWhatItInserted() throws {
        let test = try TestVault()
        let store = try test.store
        let database = try test.vault!.db()
        let first = try WindowPlanTests.steps(0, by: "org.example.watch")
        try store.save([first])
        let (type, source) = try Self.ids(database)
        try database.write { try Self.keep([1, 4], source: source, type: type, $0) }
        // A new sample in hour 4, then one whose UUID the vault holds: the batch fails.
        let again = try WindowPlanTests.steps(4, by: "org.example.watch")
        let failed = try database.write { db in (try? store.save([again, first], in: db)) == nil }
        #expect(failed)
        #expect(try database.read { try Self.kept($0) } == [[0, 1], [source, 1]])
        #expect(try database.read { try Self.changes($0) } == [[0, 2], [source, 2]])
    }

    /// The hour of a date as the save computes it, and as the trigger computes it in SQL.
    @Test(arguments: [0, 1, -1, 3600, -3600, -3600.5, 3599.999, -1800, 757_382_400.25, -63_000_000_000.5])
    func anHourIsTheTriggers(date: Double) throws {
        let test = try TestVault()
        let sql = try test.vault!.db().read { db in
            try db.scalarInt(
                "SELECT CAST(?1 / 3600 AS INTEGER) - (?1 < 0 AND CAST(?1 / 3600 AS INTEGER) * 3600 != ?1)",
                [date]
            )
        }
        #expect(SampleStore.InsertedSpan.hour(date) == sql)
    }
}
