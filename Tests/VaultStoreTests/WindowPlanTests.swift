import Foundation
import HealthModel
import HealthModelTestSupport
import Testing

@testable import VaultStore

/// A read within a window walks other apps' rows through the (type, start) index from the
/// window's start (to its end, when it has one), for every path a read takes: so a row before
/// the window (or after it) is never read, and the read costs what a vault without them costs
/// (docs/ACCESS_RULES.md, "Windows and expiries", "Cost"; `make bench`, "Window ..."). The plans
/// are pinned here, for the sample query's path, the anchored query's and its deletions'.
@Suite struct WindowPlanTests {
    static func source(_ id: String) -> SourceRevision {
        SourceRevision(source: Source(bundleIdentifier: id, name: id), version: "1")
    }

    static func steps(_ hours: Double, by id: String) throws -> Sample {
        .quantity(
            try QuantitySample(
                type: .stepCount,
                quantity: Quantity(10, .count),
                start: Fixtures.start.addingTimeInterval(hours * 3600),
                end: Fixtures.start.addingTimeInterval(hours * 3600 + 600),
                sourceRevision: source(id)
            )
        )
    }

    /// A fixed window (both bounds) and a rolling one (a start only).
    static let windows = [
        ReadWindow(start: Fixtures.start, end: Fixtures.start.addingTimeInterval(86_400)),
        ReadWindow(start: Fixtures.start, end: nil),
    ]

    /// The plan lines of every statement a windowed read of steps builds: the sample query's
    /// branch (with a date predicate and without), the anchored query's, and its deletions'.
    static func plans(_ window: ReadWindow) throws -> [String] {
        let test = try TestVault()
        let store = try test.store
        try store.save([try steps(-30, by: "org.example.theirs"), try steps(1, by: "org.example.theirs")])
        try store.save([try steps(2, by: "org.example.mine")])
        let scope = ReadScope.app(
            "org.example.mine",
            readableTypes: [.quantity(.stepCount)],
            windows: [.quantity(.stepCount): window]
        )
        return try store.database.read { db in
            var fragments: [SQLFragment] = []
            for predicate in [
                nil, SamplePredicate.samples(withStart: Fixtures.start.addingTimeInterval(-86_400), end: nil),
            ] {
                for path in [SampleStore.RowPath.byStart, .byChange] {
                    fragments.append(
                        try #require(
                            try store.branch(
                                for: SampleTypePredicate(.quantity(.stepCount), predicate: predicate),
                                scope: scope,
                                columns: SQLFragment("s.id"),
                                path: path,
                                condition: path == .byChange ? SQLFragment("s.seq > ?", [.integer(0)]) : nil,
                                db
                            )
                        )
                    )
                }
            }
            fragments.append(
                try #require(
                    try store.visibleTombstones(
                        of: .quantity(.stepCount),
                        scope: scope,
                        columns: SQLFragment("seq"),
                        condition: SQLFragment("seq > ?", [.integer(0)]),
                        db
                    )
                )
            )
            return try fragments.flatMap { fragment in
                try db.rows("EXPLAIN QUERY PLAN " + fragment.sql, fragment.arguments).map { $0[3].string ?? "" }
            }
        }
    }

    @Test(arguments: windows)
    func otherAppsRowsAreWalkedOnlyInsideTheWindow(_ window: ReadWindow) throws {
        let plans = try Self.plans(window)
        // Other apps' rows and deletions: a range of the (type, start) index, bounded by the
        // window's start, and by its end when it has one.
        let range = window.end == nil ? "(type=? AND start_date>?)" : "(type=? AND start_date>? AND start_date<?)"
        let others = plans.filter { $0.contains("_by_type_start ") }
        #expect(others.count == 5, "\(plans)")
        #expect(others.allSatisfy { $0.hasSuffix(range) }, "\(plans)")
        // The app's own rows through its (type, source, ...) indexes; never a scan of a table.
        #expect(plans.filter { $0.contains("_by_type_source_") }.count == 5, "\(plans)")
        #expect(!plans.contains { $0.hasPrefix("SCAN") && !$0.contains("SUBQUERY") }, "\(plans)")
    }

    /// A lookup by UUID decides what the reader may see from schema 19's index alone, for every
    /// kind of scope: no table row is read to compare its source, type or dates, so another app's
    /// hidden UUID costs what an unknown one costs (docs/ACCESS_RULES.md, "What is measured").
    @Test func aLookupByUUIDReadsOnlyTheIndex() throws {
        let test = try TestVault()
        let store = try test.store
        let theirs = try Self.steps(1, by: "org.example.theirs")
        try store.save([theirs])
        try store.save([try Self.steps(2, by: "org.example.mine")])
        let scopes: [ReadScope] = [
            .owner,
            .app("org.example.mine", readableTypes: []),
            .app("org.example.mine", readableTypes: [.quantity(.stepCount)]),
            .app(
                "org.example.mine",
                readableTypes: [.quantity(.stepCount)],
                windows: [.quantity(.stepCount): Self.windows[0]]
            ),
            .app("org.example.mine", readableTypes: [.quantity(.heartRate)])
                .reading(objects: [.visionPrescription: [theirs.uuid]]),
        ]
        for scope in scopes {
            for uuid in [theirs.uuid, UUID()] {
                let plan = try store.database.read { db in
                    let probe = try #require(try store.uuidProbe(uuid, scope: scope, db))
                    return try db.rows("EXPLAIN QUERY PLAN " + probe.sql, probe.arguments).map { $0[3].string ?? "" }
                }
                #expect(plan.count == 1, "\(scope): \(plan)")
                #expect(
                    plan.allSatisfy {
                        $0.hasPrefix("SEARCH s USING COVERING INDEX samples_by_uuid_visibility (uuid=?")
                    },
                    "\(scope): \(plan)"
                )
            }
        }
    }

    /// Since schema 21 one index is keyed by UUID: a save's insert keeps a UUID to one object by
    /// probing it (`SampleStore.insertSampleSQL`), a search of that index alone, never a scan;
    /// the unique index it replaces is gone.
    @Test func theInsertsUUIDProbeSearchesTheOneIndexKeyedByUUID() throws {
        let test = try TestVault()
        let store = try test.store
        try store.save([try Self.steps(1, by: "org.example.mine")])
        let plan = try store.database.write { db in
            // Reset once read: an explained write is left in progress at its end, unlike a read.
            let explain = try db.statement("EXPLAIN QUERY PLAN " + SampleStore.insertSampleSQL)
            defer { explain.reset() }
            return try explain.rows().map { $0[3].string ?? "" }
        }
        let keyedByUUID = try store.database.read { db in
            let indexes = try db.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'samples'")
                .compactMap { $0[0].string }
            let keyedByUUID = try indexes.filter { name in
                try db.rows("SELECT name FROM pragma_index_info(?) WHERE seqno = 0", [name]).first?[0].string == "uuid"
            }
            return keyedByUUID
        }
        #expect(keyedByUUID == ["samples_by_uuid_visibility"], "\(keyedByUUID)")
        #expect(
            plan.contains { $0.hasPrefix("SEARCH samples USING COVERING INDEX samples_by_uuid_visibility (uuid=?") },
            "\(plan)"
        )
        // The one row of values is the only thing scanned.
        #expect(!plan.contains { $0.hasPrefix("SCAN") && $0 != "SCAN CONSTANT ROW" }, "\(plan)")
    }
}
