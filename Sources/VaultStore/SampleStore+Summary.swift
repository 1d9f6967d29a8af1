public import Foundation
public import HealthModel

/// What the vault holds of one type: how many samples, from when to when, and from whom.
public struct TypeSummary: Hashable, Sendable, Codable {
    public struct SourceCount: Hashable, Sendable, Codable {
        public let bundleIdentifier: String
        /// As its latest revision names it.
        public let name: String
        public let count: Int

        public init(bundleIdentifier: String, name: String, count: Int) {
            self.bundleIdentifier = bundleIdentifier
            self.name = name
            self.count = count
        }
    }

    public let type: SampleType
    /// Every sample of the type, correlation members included.
    public let count: Int
    /// The earliest and the latest start date.
    public let firstStart: Date
    public let lastStart: Date
    /// The most samples first, then by bundle identifier.
    public let sources: [SourceCount]

    public init(type: SampleType, count: Int, firstStart: Date, lastStart: Date, sources: [SourceCount]) {
        self.type = type
        self.count = count
        self.firstStart = firstStart
        self.lastStart = lastStart
        self.sources = sources
    }
}

extension SampleStore {
    /// Per type, the samples the vault holds (every source's: the owner's view), in identifier
    /// order: one pass over the (type, source, start) index, never the rows.
    public func typeSummaries(in db: Connection) throws -> [TypeSummary] {
        let rows = try db.rows(
            """
            SELECT t.identifier, src.bundle_id,
                (SELECT r.name FROM revisions r WHERE r.source_id = g.source_id ORDER BY r.id DESC LIMIT 1),
                g.n, g.first, g.last
            FROM (SELECT type, source_id, count(*) AS n, min(start_date) AS first, max(start_date) AS last
                  FROM samples INDEXED BY samples_by_type_source_start GROUP BY type, source_id) g
            JOIN types t ON t.code = g.type JOIN sources src ON src.id = g.source_id
            """
        )
        return Self.groupedByType(rows).map {
            TypeSummary(type: $0.type, count: $0.count, firstStart: $0.first, lastStart: $0.last, sources: $0.sources)
        }
    }

    /// Rows of (type identifier, bundle identifier, source name, count, first date, last date), one
    /// per type and source, grouped by type: the types in identifier order, each one's sources
    /// most samples first. (The owner's summary and a deletion's preview.)
    static func groupedByType(
        _ rows: [Row]
    ) -> [(type: SampleType, count: Int, first: Date, last: Date, sources: [TypeSummary.SourceCount])] {
        var byType: [String: (count: Int, first: Double, last: Double, sources: [TypeSummary.SourceCount])] = [:]
        for row in rows {
            guard let identifier = row[0].string, let bundle = row[1].string, let count = row[3].int64,
                let first = row[4].double, let last = row[5].double
            else { continue }
            var entry = byType[identifier] ?? (0, first, last, [])
            entry.count += Int(count)
            entry.first = min(entry.first, first)
            entry.last = max(entry.last, last)
            entry.sources.append(.init(bundleIdentifier: bundle, name: row[2].string ?? bundle, count: Int(count)))
            byType[identifier] = entry
        }
        return byType.compactMap { identifier, entry in
            guard let type = try? SampleType(identifier: identifier) else { return nil }
            return (
                type,
                entry.count,
                Date(timeIntervalSinceReferenceDate: entry.first),
                Date(timeIntervalSinceReferenceDate: entry.last),
                entry.sources.sorted { ($1.count, $0.bundleIdentifier) < ($0.count, $1.bundleIdentifier) }
            )
        }
        .sorted { $0.type.identifier < $1.type.identifier }
    }
}
