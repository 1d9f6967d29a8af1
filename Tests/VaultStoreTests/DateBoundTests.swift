import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultCrypto

@testable import VaultStore

/// A date predicate bounds the start on both sides (the longest duration per type and source,
/// `sample_durations`, schema 17), and the answers stay exactly those of the predicate.
@Suite(.serialized)
struct DateBoundTests {
    static let sources = ["org.example.a", "org.example.b", "org.example.c"]
    static let origin = Date(timeIntervalSinceReferenceDate: 700_000_000)

    /// One random vault's history and the queries asked of it.
    struct Scenario: Sendable, CustomStringConvertible {
        struct Entry: Sendable {
            let source: Int
            let start: Double
            let duration: Double
            /// 0: saved first; 1: saved after the first queries.
            let batch: Int
            /// Deleted (by the owner) after the first queries.
            let deleted: Bool
        }

        enum Reader: Sendable {
            case owner
            /// App a without a read grant: its own samples.
            case own
            /// App a with a read grant.
            case whole
            /// App a with a read grant within a window.
            case window(ReadWindow)
        }

        let entries: [Entry]
        let queries: [(SamplePredicate, Reader)]

        var description: String {
            "\(entries.count) samples: "
                + entries.map { "(\($0.source) \($0.start)+\($0.duration) b\($0.batch)\($0.deleted ? " del" : ""))" }
                .joined(separator: " ") + "; queries: " + queries.map { "\($0.0) as \($0.1)" }.joined(separator: "; ")
        }
    }

    static func date(_ rng: inout RandomModel.RNG, near entries: [Scenario.Entry]) -> Date {
        // Often exactly a sample's start or end, to test the edges.
        if !entries.isEmpty, Int.random(in: 0..<3, using: &rng) == 0 {
            let entry = entries[Int.random(in: 0..<entries.count, using: &rng)]
            return origin.addingTimeInterval(Bool.random(using: &rng) ? entry.start : entry.start + entry.duration)
        }
        return origin.addingTimeInterval(Double.random(in: -7_200...200_000, using: &rng))
    }

    static func datePredicate(_ rng: inout RandomModel.RNG, near entries: [Scenario.Entry]) -> SamplePredicate {
        var options: QueryOptions = []
        if Bool.random(using: &rng) { options.insert(.strictStartDate) }
        if Bool.random(using: &rng) { options.insert(.strictEndDate) }
        var start = Int.random(in: 0..<5, using: &rng) == 0 ? nil : date(&rng, near: entries)
        var end = Int.random(in: 0..<5, using: &rng) == 0 ? nil : date(&rng, near: entries)
        // Mostly in order; sometimes reversed (matching nothing, or, under NOT, everything).
        if let first = start, let last = end, last < first, Int.random(in: 0..<4, using: &rng) != 0 {
            (start, end) = (last, first)
        }
        return .date(start: start, end: end, options: options)
    }

    static func predicate(_ rng: inout RandomModel.RNG, near entries: [Scenario.Entry]) -> SamplePredicate {
        switch Int.random(in: 0..<20, using: &rng) {
        case 0..<11: return datePredicate(&rng, near: entries)
        case 11..<14: return .not(datePredicate(&rng, near: entries))
        case 14..<17: return .or([datePredicate(&rng, near: entries), datePredicate(&rng, near: entries)])
        default:
            return .and([
                datePredicate(&rng, near: entries),
                .sources([sources[Int.random(in: 0..<sources.count, using: &rng)]]),
            ])
        }
    }

    static func reader(_ rng: inout RandomModel.RNG, near entries: [Scenario.Entry]) -> Scenario.Reader {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .owner
        case 1: return .own
        case 2: return .whole
        default:
            var start = Int.random(in: 0..<4, using: &rng) == 0 ? nil : date(&rng, near: entries)
            var end = Int.random(in: 0..<4, using: &rng) == 0 ? nil : date(&rng, near: entries)
            if start == nil, end == nil { start = origin }
            if let first = start, let last = end, last < first { (start, end) = (last, first) }
            return .window(ReadWindow(start: start, end: end))
        }
    }

    static let scenarios = Generator(run: { rng -> Scenario in
        let count = Int.random(in: 1...60, using: &rng)
        let entries = (0..<count).map { _ in
            let duration: Double =
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<3: 0
                case 3..<7: Double.random(in: 0.001...600, using: &rng)
                case 7: 3_600
                default: Double.random(in: 600...(3 * 86_400), using: &rng)
                }
            return Scenario.Entry(
                source: Int.random(in: 0..<sources.count, using: &rng),
                // Minutes with a fraction of a second, so that dates and durations round.
                start: Double(Int.random(in: 0..<3_000, using: &rng)) * 60 + Double.random(in: 0..<1, using: &rng),
                duration: duration,
                batch: Int.random(in: 0..<4, using: &rng) == 0 ? 1 : 0,
                deleted: Int.random(in: 0..<5, using: &rng) == 0
            )
        }
        let queries = (0..<8).map { _ in (predicate(&rng, near: entries), reader(&rng, near: entries)) }
        return Scenario(entries: entries, queries: queries)
    })

    static func scope(_ reader: Scenario.Reader) -> ReadScope {
        switch reader {
        case .owner: .owner
        case .own: .app(sources[0], readableTypes: [])
        case .whole: .app(sources[0], readableTypes: [.quantity(.stepCount)])
        case .window(let window):
            .app(sources[0], readableTypes: [.quantity(.stepCount)], windows: [.quantity(.stepCount): window])
        }
    }

    static func sees(_ reader: Scenario.Reader, _ sample: Sample) -> Bool {
        let own = sample.sourceRevision.source.bundleIdentifier == sources[0]
        switch reader {
        case .owner, .whole: return true
        case .own: return own
        case .window(let window): return own || window.contains(start: sample.startDate, end: sample.endDate)
        }
    }

    static func sample(_ entry: Scenario.Entry) throws -> Sample {
        let source = sources[entry.source]
        return .quantity(
            try QuantitySample(
                type: .stepCount,
                quantity: Quantity(1, .count),
                start: origin.addingTimeInterval(entry.start),
                end: origin.addingTimeInterval(entry.start + entry.duration),
                sourceRevision: SourceRevision(source: Source(bundleIdentifier: source, name: source))
            )
        )
    }

    /// The store's answer to each query is the brute-force filter of the samples it holds, before
    /// and after more samples are saved and some deleted (their durations stay in the table).
    @Test func theBoundedSQLAnswersExactlyWhatTheFilterAnswers() async {
        await propertyCheck(count: 40, input: Self.scenarios) { scenario in
            let test = try TestVault()
            let store = try test.store
            let samples = try scenario.entries.map(Self.sample)
            var held: [Sample] = []
            func check(_ round: String) throws {
                for (predicate, reader) in scenario.queries {
                    let answer = try store.samples(
                        matching: SampleQueryDescriptor(
                            predicates: [.quantitySample(type: .stepCount, predicate: predicate)],
                            sortDescriptors: [SampleSortDescriptor(.startDate, order: .ascending)]
                        ),
                        scope: Self.scope(reader)
                    )
                    let expected = held.filter { Self.sees(reader, $0) && predicate.matches($0) }
                    #expect(answer.count == Set(answer.map(\.uuid)).count, "\(round): duplicates")
                    #expect(
                        Set(answer.map(\.uuid)) == Set(expected.map(\.uuid)),
                        "\(round): \(predicate) as \(reader): \(answer.count) samples, \(expected.count) expected"
                    )
                    #expect(answer.map(\.startDate) == answer.map(\.startDate).sorted())
                }
            }
            let first = zip(scenario.entries, samples).filter { $0.0.batch == 0 }.map(\.1)
            if !first.isEmpty { try store.save(first) }
            held = first
            try check("first")
            let later = zip(scenario.entries, samples).filter { $0.0.batch == 1 }.map(\.1)
            if !later.isEmpty { try store.save(later) }
            let doomed = Set(zip(scenario.entries, samples).filter { $0.0.deleted }.map(\.1.uuid))
            if !doomed.isEmpty { try store.delete(uuids: Array(doomed), scope: .owner) }
            held = (first + later).filter { !doomed.contains($0.uuid) }
            try check("after")
            // The table holds, for each type and source, at least its longest sample still held.
            let longest = try store.database.read { db in
                try db.rows(
                    "SELECT src.bundle_id, d.longest FROM sample_durations d JOIN sources src ON src.id = d.source_id"
                )
            }
            for row in longest {
                let durations = held.filter { $0.sourceRevision.source.bundleIdentifier == row[0].string }
                    .map { $0.startDate.distance(to: $0.endDate) }
                #expect((durations.max() ?? 0) <= row[1].double!)
            }
        }
    }

    /// A sample saved later, longer than every other, is still found by an overlap query whose
    /// window lies inside it: every save raises the longest duration.
    @Test func aLongerSampleSavedLaterIsFoundByOverlapQueries() throws {
        let test = try TestVault()
        let store = try test.store
        try store.save(
            (0..<50).map {
                try Self.sample(.init(source: 1, start: Double($0) * 60, duration: 60, batch: 0, deleted: false))
            }
        )
        let long = try Self.sample(.init(source: 1, start: -86_400, duration: 4 * 86_400, batch: 1, deleted: false))
        let middle = SamplePredicate.samples(
            withStart: Self.origin.addingTimeInterval(86_400),
            end: Self.origin.addingTimeInterval(86_460)
        )
        func answer(_ scope: ReadScope) throws -> [UUID] {
            try store.samples(
                matching: SampleQueryDescriptor(predicates: [.quantitySample(type: .stepCount, predicate: middle)]),
                scope: scope
            ).map(\.uuid)
        }
        let readers: [ReadScope] = [
            .owner, .app(Self.sources[1], readableTypes: []),
            .app(Self.sources[0], readableTypes: [.quantity(.stepCount)]),
        ]
        for scope in readers { #expect(try answer(scope).isEmpty) }
        try store.save([long])
        for scope in readers { #expect(try answer(scope) == [long.uuid]) }
        // Deleting it leaves the longest duration as it was (it only grows).
        try store.delete(uuids: [long.uuid], scope: .owner)
        let kept = try store.database.read {
            try $0.scalarInt("SELECT count(*) FROM sample_durations WHERE longest = ?", [4.0 * 86_400])
        }
        #expect(kept == 1)
    }

    /// The (type, start) and (type, source, start) indexes are searched between two bounds of the
    /// start for every form of date predicate with both dates, under every kind of scope.
    @Test func datePredicatesSearchTheStartIndexBetweenTwoBounds() throws {
        let test = try TestVault()
        let store = try test.store
        try store.save(
            (0..<20).flatMap { index in
                try (0..<2).map { source in
                    try Self.sample(
                        .init(source: source, start: Double(index) * 60, duration: 30, batch: 0, deleted: false)
                    )
                }
            }
        )
        let start = Self.origin.addingTimeInterval(300)
        let end = Self.origin.addingTimeInterval(600)
        let forms: [QueryOptions] = [[], [.strictStartDate], [.strictEndDate], [.strictStartDate, .strictEndDate]]
        let readers: [(ReadScope, String)] = [
            (.owner, "samples_by_type_start"),
            (.app(Self.sources[0], readableTypes: [.quantity(.stepCount)]), "samples_by_type_start"),
            (.app(Self.sources[0], readableTypes: []), "samples_by_type_source_start"),
            (
                .app(
                    Self.sources[0],
                    readableTypes: [.quantity(.stepCount)],
                    windows: [
                        .quantity(.stepCount): ReadWindow(
                            start: Self.origin,
                            end: Self.origin.addingTimeInterval(7_200)
                        )
                    ]
                ),
                "samples_by_type_start"
            ),
        ]
        for options in forms {
            for (scope, index) in readers {
                let plan = try store.database.read { db in
                    let branch = try #require(
                        try store.branch(
                            for: SampleTypePredicate(
                                .quantity(.stepCount),
                                predicate: .date(start: start, end: end, options: options)
                            ),
                            scope: scope,
                            columns: SQLFragment("s.id"),
                            db
                        )
                    )
                    return try db.rows("EXPLAIN QUERY PLAN " + branch.sql, branch.arguments).map { $0[3].string ?? "" }
                }
                let searches = plan.filter { $0.contains("samples_by_type") }
                #expect(!searches.isEmpty, "\(options) \(scope): \(plan)")
                #expect(searches.contains { $0.contains(index) }, "\(options): \(plan)")
                // A window's other apps and its own samples, each between two bounds of the start.
                for line in searches {
                    #expect(line.hasPrefix("SEARCH"), "\(options): \(plan)")
                    #expect(
                        line.contains("start_date>") && line.contains("start_date<"),
                        "\(options) \(scope): \(plan)"
                    )
                }
            }
        }
    }
}

/// Schema 17 fills `sample_durations` from the samples an older vault holds.
@Suite(.serialized)
struct SampleDurationsMigrationTests {
    @Test func theMigrationFillsTheLongestDurationOfEachTypeAndSource() throws {
        let older = try OlderSchemaDatabase(version: 16)
        let database = older.database
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (17, 17, 17, 17))
        let samples = (0..<300).map { _ in RandomModel.sample(&rng) }
        try SampleStore(database: database).saveAsBeforeSchema17(samples)
        try Schema.migrate(database)
        let table = try database.read { db in
            try db.rows(
                """
                SELECT t.identifier, src.bundle_id, d.longest FROM sample_durations d
                JOIN types t ON t.code = d.type JOIN sources src ON src.id = d.source_id
                """
            )
        }
        // Every stored row counts, correlations' objects included.
        var expected: [String: Double] = [:]
        func add(_ sample: Sample) {
            let key = sample.sampleType.identifier + " " + sample.sourceRevision.source.bundleIdentifier
            let duration =
                sample.endDate.timeIntervalSinceReferenceDate - sample.startDate.timeIntervalSinceReferenceDate
            expected[key] = max(expected[key] ?? 0, duration)
            if case .correlation(let correlation) = sample { correlation.objects.forEach(add) }
        }
        samples.forEach(add)
        #expect(table.count == expected.count)
        for row in table {
            #expect(expected[row[0].string! + " " + row[1].string!] == row[2].double, "\(row)")
        }
        // Saves after the migration raise it.
        let store = SampleStore(database: database)
        let source = SourceRevision(source: Source(bundleIdentifier: "org.example.new", name: "New"))
        for duration in [60.0, 30, 7_200] {
            try store.save([
                .quantity(
                    try QuantitySample(
                        type: .stepCount,
                        quantity: Quantity(1, .count),
                        start: Fixtures.start,
                        end: Fixtures.start.addingTimeInterval(duration),
                        sourceRevision: source
                    )
                )
            ])
        }
        let longest = try database.read { db in
            try db.rows(
                """
                SELECT d.longest FROM sample_durations d JOIN sources src ON src.id = d.source_id
                WHERE src.bundle_id = 'org.example.new'
                """
            ).first?[0].double
        }
        #expect(longest == 7_200)
    }
}

extension SampleStore {
    /// Saves as a store before schema 17 did, into a database at an earlier version: the rows
    /// without `sample_durations` and the statistics hours and changes (written into temporary
    /// tables of those names, then dropped).
    func saveAsBeforeSchema17(_ samples: [Sample]) throws {
        try database.write { db in
            // Stand-ins for the tables later schemas add and a save writes (17's durations, 18's
            // hours and changes), dropped once it is done.
            let standIns = [
                "sample_durations (type INTEGER, source_id INTEGER, longest REAL, PRIMARY KEY (type, source_id))",
                "statistics_hours (type INTEGER, source INTEGER, hour INTEGER, result BLOB, PRIMARY KEY (type, source, hour))",
                "statistics_changes (type INTEGER, source INTEGER, changes INTEGER, PRIMARY KEY (type, source))",
            ]
            for table in standIns { try db.execute("CREATE TEMP TABLE " + table) }
            try save(samples, in: db)
            for table in standIns { try db.execute("DROP TABLE temp." + table.prefix { $0 != " " }) }
        }
    }
}
