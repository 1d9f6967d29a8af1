public import Foundation
public import HealthModel

/// Which top-level samples an owner's export reads: every condition given must hold (in SQL).
public struct SampleSelection: Hashable, Sendable {
    public var types: [SampleType]?
    /// Samples starting at or after.
    public var from: Date?
    /// Samples starting before.
    public var to: Date?
    /// Sources by bundle identifier, or by the name a revision gives them.
    public var sources: [String]?

    public init(types: [SampleType]? = nil, from: Date? = nil, to: Date? = nil, sources: [String]? = nil) {
        self.types = types
        self.from = from
        self.to = to
        self.sources = sources
    }
}

/// A top-level sample read for an export: whole, its series included.
public struct StoredSample: Sendable {
    /// Its row (the keyset an export walks).
    public let id: Int64
    /// The sample, an electrocardiogram with its voltage measurements, a heartbeat series with
    /// its beats, a quantity series with its quantities.
    public let sample: Sample
    /// A route's locations, in time order.
    public let routeLocations: [WorkoutRouteLocation]?
    /// The workouts it is associated with (``associate(_:ofSource:withWorkout:storedAfter:acceptingEarlier:in:)``).
    public let workouts: [UUID]
}

extension SampleStore {
    /// The condition on `s` (a top-level row) of a selection, or nil when it can match nothing (a
    /// type never stored).
    func condition(of selection: SampleSelection, _ db: Connection) throws -> SQLFragment? {
        var fragment = SQLFragment("s.parent_id IS NULL")
        if let types = selection.types {
            let codes = try types.compactMap { try typeCode($0, db) }
            guard !codes.isEmpty else { return nil }
            fragment.sql += " AND s.type IN (" + codes.map(String.init).joined(separator: ", ") + ")"
        }
        if let from = selection.from {
            fragment.sql += " AND s.start_date >= ?"
            fragment.arguments.append(.real(from.timeIntervalSinceReferenceDate))
        }
        if let to = selection.to {
            fragment.sql += " AND s.start_date < ?"
            fragment.arguments.append(.real(to.timeIntervalSinceReferenceDate))
        }
        if let sources = selection.sources {
            let list = DatabaseValue.text(PredicateCompiler.jsonArray(sources))
            let ids = try db.rows(
                """
                SELECT id FROM sources WHERE bundle_id IN (SELECT value FROM json_each(?))
                UNION SELECT source_id FROM revisions WHERE name IN (SELECT value FROM json_each(?))
                """,
                [list, list]
            ).compactMap { $0[0].int64 }
            guard !ids.isEmpty else { return nil }
            fragment.sql += " AND s.source_id IN (" + ids.map(String.init).joined(separator: ", ") + ")"
        }
        return fragment
    }

    /// How many top-level samples of each type (by identifier) the selection takes, inside `db`.
    public func exportCounts(_ selection: SampleSelection, in db: Connection) throws -> [String: Int] {
        guard let condition = try condition(of: selection, db) else { return [:] }
        var counts: [String: Int] = [:]
        for row in try db.rows(
            "SELECT t.identifier, count(*) FROM samples s JOIN types t ON t.code = s.type WHERE \(condition.sql) GROUP BY s.type",
            condition.arguments
        ) {
            if let identifier = row[0].string { counts[identifier] = Int(row[1].int64 ?? 0) }
        }
        return counts
    }

    /// The next at most `limit` top-level samples of the selection after row `id` (keyset order:
    /// by row), inside `db`, with their associations but without their series (``withSeries(_:in:)``
    /// reads those one sample at a time, so memory holds one series, not a batch of them).
    public func exportBatch(
        after id: Int64,
        limit: Int,
        _ selection: SampleSelection,
        in db: Connection
    ) throws -> [StoredSample] {
        guard var condition = try condition(of: selection, db) else { return [] }
        condition.sql += " AND s.id > ?"
        condition.arguments += [.integer(id), .integer(Int64(limit))]
        let rows = try db.statement("SELECT s.id, s.uuid FROM samples s WHERE \(condition.sql) ORDER BY s.id LIMIT ?")
            .rows(condition.arguments)
        guard !rows.isEmpty else { return [] }
        var idByUUID: [UUID: Int64] = [:]
        idByUUID.reserveCapacity(rows.count)
        var ids: [Int64] = []
        ids.reserveCapacity(rows.count)
        for row in rows {
            guard let rowID = row[0].int64, let uuid = row[1].bytes.flatMap(UUID.init(bytes:)) else {
                throw StoreError.damagedDatabase("a stored sample has a malformed UUID")
            }
            ids.append(rowID)
            idByUUID[uuid] = rowID
        }
        var workouts: [Int64: [UUID]] = [:]
        let list = Self.idList(ids)
        for row in try db.rows(
            "SELECT sample_id, workout FROM workout_samples WHERE sample_id IN (SELECT value FROM json_each(?)) ORDER BY sample_id, workout",
            [list]
        ) {
            if let rowID = row[0].int64, let uuid = row[1].bytes.flatMap(UUID.init(bytes:)) {
                workouts[rowID, default: []].append(uuid)
            }
        }
        return try load(ids: ids, scope: .owner, db).map { sample in
            guard let rowID = idByUUID[sample.uuid] else {
                throw StoreError.damagedDatabase("a stored sample changed its UUID while read")
            }
            return StoredSample(id: rowID, sample: sample, routeLocations: nil, workouts: workouts[rowID] ?? [])
        }
    }

    /// `stored` with its series read: an electrocardiogram's voltages, a heartbeat series' beats, a
    /// quantity series' quantities, a route's locations, a document's bytes.
    public func withSeries(_ stored: StoredSample, in db: Connection) throws -> StoredSample {
        let id = stored.id
        func chunks(_ table: String) throws -> [[UInt8]] {
            try db.statement("SELECT points FROM \(table) WHERE sample_id = ? ORDER BY first").rows([id]).map {
                guard let bytes = $0[0].bytes else { throw StoreError.damagedDatabase("a series chunk is malformed") }
                return bytes
            }
        }
        func complete<T>(_ points: [T], _ count: Int) throws -> [T] {
            guard points.count == count else { throw StoreError.damagedDatabase("a series lacks some of its points") }
            return points
        }
        var sample = stored.sample
        var locations: [WorkoutRouteLocation]?
        switch stored.sample {
        case .electrocardiogram(let ecg):
            let unit = try HealthUnit(
                from: try db.scalarText(
                    "SELECT u.unit FROM electrocardiograms e JOIN units u ON u.id = e.voltage_unit_id WHERE e.sample_id = ?",
                    [id]
                ) ?? "V"
            )
            let measurements = try complete(
                try chunks("series_chunks").flatMap(Self.points).map {
                    Electrocardiogram.VoltageMeasurement(timeSinceSampleStart: $0.0, leadI: Quantity($0.1, unit))
                },
                ecg.numberOfVoltageMeasurements
            )
            sample = .electrocardiogram(
                try Electrocardiogram(
                    uuid: ecg.uuid,
                    start: ecg.startDate,
                    end: ecg.endDate,
                    classification: ecg.classification,
                    symptomsStatus: ecg.symptomsStatus,
                    averageHeartRate: ecg.averageHeartRate,
                    samplingFrequency: ecg.samplingFrequency,
                    voltageMeasurements: measurements,
                    sourceRevision: ecg.sourceRevision,
                    device: ecg.device,
                    metadata: ecg.metadata
                )
            )
        case .heartbeatSeries(let series):
            let beats = try complete(
                try chunks("series_chunks").flatMap(Self.points).map {
                    HeartbeatSeriesSample.Heartbeat(timeSinceSeriesStart: $0.0, precededByGap: $0.1 != 0)
                },
                series.count
            )
            sample = .heartbeatSeries(
                try HeartbeatSeriesSample(
                    uuid: series.uuid,
                    start: series.startDate,
                    end: series.endDate,
                    heartbeats: beats,
                    sourceRevision: series.sourceRevision,
                    device: series.device,
                    metadata: series.metadata
                )
            )
        case .quantity(let quantity) where quantity.count > 1:
            let unit = quantity.quantity.unit
            var quantities: [QuantitySample.SeriesQuantity] = []
            quantities.reserveCapacity(quantity.count)
            for bytes in try chunks("quantity_series_chunks") {
                for offset in stride(from: 0, to: bytes.count - bytes.count % 24, by: 24) {
                    let (from, to, value) = (
                        Self.double(bytes, at: offset), Self.double(bytes, at: offset + 8),
                        Self.double(bytes, at: offset + 16)
                    )
                    quantities.append(
                        QuantitySample.SeriesQuantity(
                            quantity: Quantity(value, unit),
                            dateInterval: DateInterval(
                                start: Date(timeIntervalSinceReferenceDate: from),
                                end: Date(timeIntervalSinceReferenceDate: max(from, to))
                            )
                        )
                    )
                }
            }
            sample = .quantity(try quantity.withSeriesQuantities(try complete(quantities, quantity.count)))
        case .workoutRoute(let route):
            var all: [WorkoutRouteLocation] = []
            all.reserveCapacity(route.count)
            for row in try db.statement("SELECT count, data FROM route_locations WHERE sample_id = ? ORDER BY chunk")
                .rows([id])
            {
                all += try Self.unpack(row[1].bytes ?? [], count: Int(row[0].int64 ?? 0))
            }
            locations = try complete(all, route.count)
        case .cdaDocument(let document):
            sample = .cdaDocument(
                try CDADocumentSample(
                    uuid: document.uuid,
                    document: try self.document(ofRow: id, withData: true, db),
                    start: document.startDate,
                    end: document.endDate,
                    sourceRevision: document.sourceRevision,
                    device: document.device,
                    metadata: document.metadata
                )
            )
        default:
            break
        }
        return StoredSample(id: id, sample: sample, routeLocations: locations, workouts: stored.workouts)
    }

    /// The little-endian double at `offset` of `bytes`.
    private static func double(_ bytes: [UInt8], at offset: Int) -> Double {
        var bits: UInt64 = 0
        for index in (offset..<offset + 8).reversed() { bits = bits << 8 | UInt64(bytes[index]) }
        return Double(bitPattern: bits)
    }
}
