public import Foundation
public import HealthModel

/// A live workout's statistics of one type, carried from one reading to the next
/// (docs/WORKOUTS.md, "Cost"): each source's pieces (count, sums, extremes, most recent) over
/// the workout's rows seen so far, and what those rows were read under. Opaque outside the store.
public struct LiveStatisticsCarry: Sendable {
    fileprivate struct Seen: Sendable {
        let source: Source
        let pieces: Pieces
    }

    fileprivate let workout: UUID
    fileprivate let type: QuantityTypeIdentifier
    fileprivate let scope: ReadScope
    /// The latest deletion of the rows the scope sees of the type, and the workout's
    /// late-associations counter: after such a deletion, or a sample stored earlier and
    /// associated since, the pieces are no longer those of the rows.
    fileprivate let tombstone: Int64
    fileprivate let late: Int64
    /// The vault's change sequence when the pieces were read: rows associated since are stored
    /// since, above it.
    fileprivate let sequence: Int64
    fileprivate let sources: [Int64: Seen]
    /// The earliest start and the latest end of the rows seen; nil when none was visible.
    fileprivate let span: Span?

    fileprivate struct Span: Sendable {
        let start: Double
        let end: Double
    }
}

extension SampleStore {
    /// HealthKit's live statistics of `type` (`StatisticsOptions.workout(for:)`) over the
    /// samples associated with `workout` that `scope` may see, as ``statistics(matching:scope:in:)``
    /// computes them with the predicate `.workout(workout)`, and a carry for the next call.
    ///
    /// Given the carry of an earlier call, only the rows of the type stored since are read, and
    /// those associated with the workout added to each source's pieces, so that a reading costs what arrived since the last, not the whole
    /// workout. The carry is dropped, and every row read again, when anything that shaped it
    /// changed: the scope, a deletion of a row of the type the scope sees, or an older sample
    /// associated late with the workout.
    /// The owner's order of sources shapes the answer, never the pieces. A sum over two or more
    /// sources is merged by time over every row (docs/STATISTICS.md), so it is then computed
    /// whole.
    public func liveWorkoutStatistics(
        _ type: QuantityTypeIdentifier,
        workout: UUID,
        scope: ReadScope,
        carrying carry: LiveStatisticsCarry?,
        in db: Connection
    ) throws -> (statistics: Statistics?, carry: LiveStatisticsCarry) {
        let options = StatisticsOptions.workout(for: type)
        let key = DatabaseValue.blob(workout.bytes)
        // Deletions that could have shaped the pieces: of the type, and of the app's own samples
        // when it sees only those (another app's deletion costs this reading nothing).
        let code = try typeCode(.quantity(type), db) ?? -1
        let tombstone: Int64
        if let own = scope.ownSource(of: .quantity(type)) {
            tombstone =
                try db.scalarInt(
                    "SELECT max(seq) FROM tombstones INDEXED BY tombstones_by_type_source_seq WHERE type = ? AND source_id = ?",
                    [code, try sourceID(own, db) ?? -1]
                ) ?? 0
        } else if scope.windows[.quantity(type)] != nil {
            // Within a window: the deletions it shows (others' inside it, and the app's own).
            let visible = try visibleTombstones(
                of: .quantity(type),
                scope: scope,
                columns: SQLFragment("seq"),
                condition: SQLFragment("1"),
                db
            )
            tombstone = try visible.flatMap { try db.scalarInt("SELECT max(seq) FROM (\($0.sql))", $0.arguments) } ?? 0
        } else {
            tombstone =
                try db.scalarInt(
                    "SELECT max(seq) FROM tombstones INDEXED BY tombstones_by_type_seq WHERE type = ?",
                    [code]
                )
                ?? 0
        }
        let late =
            try db.scalarInt("SELECT value FROM counters WHERE name = ?", [Self.lateAssociationsCounter(workout)]) ?? 0
        let sequence = try changeSequence(in: db)
        let kept = carry.flatMap { carry in
            carry.workout == workout && carry.type == type && carry.scope == scope
                && carry.tombstone == tombstone && carry.late == late && carry.sequence <= sequence
                ? carry : nil
        }
        var sources = kept?.sources ?? [:]
        var span = kept?.span
        if kept?.sequence != sequence {
            // Carried on: the type's rows stored since, in change order, each looked up among the
            // workout's; otherwise every row of the workout, by row id.
            let (since, path): (SQLFragment, RowPath) =
                if let kept {
                    (
                        SQLFragment(
                            "s.seq > ? AND EXISTS (SELECT 1 FROM workout_samples WHERE workout = ? AND sample_id = s.id)",
                            [.integer(kept.sequence), key]
                        ), .byChange
                    )
                } else {
                    (SQLFragment("s.id IN (SELECT sample_id FROM workout_samples WHERE workout = ?)", [key]), .byRow)
                }
            // Pieces alone (each source's share of a sum too): a sum over several sources is
            // merged below, over every row.
            if let plan = try StatisticsPlan(
                type: type,
                predicate: nil,
                options: options.subtracting(.cumulativeSum),
                scope: scope,
                store: self,
                restrictedTo: since,
                path: path,
                db
            ) {
                let computed = try plan.compute(boundaries: [plan.start, .greatestFiniteMagnitude], db)
                for result in computed.results {
                    for (rank, pieces) in result.perSource.enumerated() {
                        guard let pieces else { continue }
                        let (id, source) = plan.sources[rank]
                        let sum = sources[id].map { $0.pieces.adding(pieces) } ?? pieces
                        sources[id] = LiveStatisticsCarry.Seen(source: source, pieces: sum)
                    }
                }
                let start = min(span?.start ?? plan.start, plan.start)
                span = LiveStatisticsCarry.Span(start: start, end: max(span?.end ?? start, computed.end))
            }
        }
        let next = LiveStatisticsCarry(
            workout: workout,
            type: type,
            scope: scope,
            tombstone: tombstone,
            late: late,
            sequence: sequence,
            sources: sources,
            span: span
        )
        guard let span, !sources.isEmpty else { return (nil, next) }
        let known = sources.sorted { $0.key < $1.key }.map { (id: $0.key, source: $0.value.source) }
        guard known.count <= Self.maximumStatisticsSources else {
            throw HealthError.invalidArgument(
                "statistics over \(known.count) sources of one type are not supported; at most \(Self.maximumStatisticsSources): narrow the predicate to fewer sources",
                field: "predicate"
            )
        }
        if type.aggregationStyle == .cumulative, known.count > 1 {
            return (try wholeWorkoutStatistics(type, workout, scope, db), next)
        }
        let plan = StatisticsPlan(
            type: type,
            options: options,
            sources: known,
            priority: try sourcePriority(for: type, in: db)
        )
        let interval = IntervalResult(index: 0, perSource: plan.sources.map { sources[$0.id]?.pieces })
        let statistics = interval.statistics(
            plan,
            start: Date(timeIntervalSinceReferenceDate: span.start),
            end: Date(timeIntervalSinceReferenceDate: max(span.start, span.end))
        )
        return (statistics, next)
    }

    private func wholeWorkoutStatistics(
        _ type: QuantityTypeIdentifier,
        _ workout: UUID,
        _ scope: ReadScope,
        _ db: Connection
    ) throws -> Statistics? {
        try statistics(
            matching: StatisticsQueryDescriptor(
                quantityType: type,
                predicate: .workout(workout),
                options: .workout(for: type)
            ),
            scope: scope,
            in: db
        )
    }
}
