public import Foundation
public import HealthModel

extension SampleStore {
    /// One batch of an electrocardiogram's voltage measurements: at most `limit` from position
    /// `offset`, or nil when the scope sees no electrocardiogram with this UUID (none has it,
    /// another kind of sample has it, or it is another app's of a type the scope reads only of
    /// its own: the same nil). Only the chunks holding the batch are read.
    public func voltageMeasurements(
        of uuid: UUID,
        offset: Int,
        limit: Int,
        scope: ReadScope,
        in db: Connection
    ) throws -> SeriesBatch<Electrocardiogram.VoltageMeasurement>? {
        guard let id = try visibleSample(uuid: uuid, of: .electrocardiogram, scope: scope, db) else { return nil }
        guard
            let row = try db.rows(
                """
                SELECT e.measurement_count, u.unit FROM electrocardiograms e LEFT JOIN units u ON u.id = e.voltage_unit_id
                WHERE e.sample_id = ?
                """,
                [id]
            ).first
        else {
            throw StoreError.damagedDatabase("an electrocardiogram lacks its details")
        }
        let unit = try HealthUnit(from: row[1].string ?? "V")
        return try batch(of: id, total: Int(row[0].int64 ?? 0), offset: offset, limit: limit, db) { time, value in
            Electrocardiogram.VoltageMeasurement(timeSinceSampleStart: time, leadI: Quantity(value, unit))
        }
    }

    /// One batch of a heartbeat series' beats, as ``voltageMeasurements(of:offset:limit:scope:in:)``.
    public func heartbeats(
        of uuid: UUID,
        offset: Int,
        limit: Int,
        scope: ReadScope,
        in db: Connection
    ) throws -> SeriesBatch<HeartbeatSeriesSample.Heartbeat>? {
        guard let id = try visibleSample(uuid: uuid, of: .heartbeatSeries, scope: scope, db) else { return nil }
        guard let total = try db.scalarInt("SELECT beat_count FROM heartbeat_series WHERE sample_id = ?", [id]) else {
            throw StoreError.damagedDatabase("a heartbeat series lacks its details")
        }
        return try batch(of: id, total: Int(total), offset: offset, limit: limit, db) { time, gap in
            HeartbeatSeriesSample.Heartbeat(timeSinceSeriesStart: time, precededByGap: gap != 0)
        }
    }

    /// One batch of the quantities of the `type` sample with this UUID, as
    /// ``voltageMeasurements(of:offset:limit:scope:in:)``: a series' quantities each with its date
    /// interval, or a sample that is not a series as its one quantity over its span.
    public func seriesQuantities(
        of uuid: UUID,
        type: QuantityTypeIdentifier,
        offset: Int,
        limit: Int,
        scope: ReadScope,
        in db: Connection
    ) throws -> SeriesBatch<QuantitySample.SeriesQuantity>? {
        guard let id = try visibleSample(uuid: uuid, of: .quantity(type), scope: scope, db) else { return nil }
        guard
            let row = try db.rows(
                """
                SELECT s.start_date, s.end_date, s.given_value, u.unit, q.quantity_count
                FROM samples s LEFT JOIN units u ON u.id = s.unit_id LEFT JOIN quantity_series q ON q.sample_id = s.id
                WHERE s.id = ?
                """,
                [id]
            ).first, let start = row[0].double, let end = row[1].double, let value = row[2].double
        else {
            throw StoreError.damagedDatabase("a quantity sample lacks its value")
        }
        let unit = try HealthUnit(from: row[3].string ?? "")
        guard let total = row[4].int64.map(Int.init) else {
            let single = QuantitySample.SeriesQuantity(
                quantity: Quantity(value, unit),
                dateInterval: DateInterval(
                    start: Date(timeIntervalSinceReferenceDate: start),
                    end: Date(timeIntervalSinceReferenceDate: end)
                )
            )
            return SeriesBatch(points: offset == 0 ? [single] : [], next: nil)
        }
        let last = min(total, offset + limit)
        guard offset < last else { return SeriesBatch(points: [], next: nil) }
        let firstChunk = offset / Self.pointsPerChunk * Self.pointsPerChunk
        var points: [QuantitySample.SeriesQuantity] = []
        points.reserveCapacity(last - offset)
        for chunk in try db.rows(
            """
            SELECT first, points FROM quantity_series_chunks WHERE sample_id = ? AND first >= ? AND first < ?
            ORDER BY first
            """,
            [id, firstChunk, last]
        ) {
            guard let first = chunk[0].int64.map(Int.init), let bytes = chunk[1].bytes else {
                throw StoreError.damagedDatabase("a quantity series chunk is malformed")
            }
            let numbers = Self.doubles(of: bytes)
            for index in 0..<numbers.count / 3 where (offset..<last).contains(first + index) {
                let (from, to) = (numbers[index * 3], numbers[index * 3 + 1])
                points.append(
                    QuantitySample.SeriesQuantity(
                        quantity: Quantity(numbers[index * 3 + 2], unit),
                        dateInterval: DateInterval(
                            start: Date(timeIntervalSinceReferenceDate: from),
                            end: Date(timeIntervalSinceReferenceDate: max(from, to))
                        )
                    )
                )
            }
        }
        guard points.count == last - offset else {
            throw StoreError.damagedDatabase("a quantity series lacks some of its quantities")
        }
        return SeriesBatch(points: points, next: last < total ? last : nil)
    }

    /// The little-endian IEEE 754 doubles packed in `bytes`.
    private static func doubles(of bytes: [UInt8]) -> [Double] {
        stride(from: 0, to: bytes.count - bytes.count % 8, by: 8).map { offset in
            var bits: UInt64 = 0
            for byte in bytes[offset..<offset + 8].reversed() { bits = bits << 8 | UInt64(byte) }
            return Double(bitPattern: bits)
        }
    }

    /// The row of the sample of `type` with this UUID that `scope` sees, or nil. Whether the scope
    /// sees it is decided in the UUID probe, as ``sample(uuid:scope:in:)`` decides it, on the
    /// index alone (schema 19): of a type the scope reads only of its own, only the app's own row.
    private func visibleSample(uuid: UUID, of type: SampleType, scope: ReadScope, _ db: Connection) throws -> Int64? {
        guard let code = try typeCode(type, db) else { return nil }
        var sql = "SELECT s.id FROM samples s INDEXED BY samples_by_uuid_visibility WHERE s.uuid = ? AND s.type = ?"
        var arguments: [DatabaseValue] = [.blob(uuid.bytes), .integer(code)]
        switch scope.access(to: type) {
        case .all:
            break
        case .ownSamples(let own):
            guard let sourceID = try sourceID(own, db) else { return nil }
            sql += " AND s.source_id = ?"
            arguments.append(.integer(sourceID))
        case .window(let window, let own):
            // Another app's inside the window, or the app's own.
            let inside = window.condition("s")
            sql += " AND (\(inside.sql) OR s.source_id = ?)"
            arguments += inside.arguments + [.integer(try sourceID(own, db) ?? -1)]
        case .objects(let objects, let own):
            // A series type is never read object by object; were one, its chosen objects or the app's own.
            guard objects.contains(uuid) == false else { break }
            sql += " AND s.source_id = ?"
            arguments.append(.integer(try sourceID(own, db) ?? -1))
        }
        return try db.rows(sql, arguments).first?[0].int64
    }

    /// Points `offset..<offset + limit` (`limit` at least 1) of the
    /// series stored under row `id`, read from the chunks that hold them.
    private func batch<Point>(
        of id: Int64,
        total: Int,
        offset: Int,
        limit: Int,
        _ db: Connection,
        point: (Double, Double) -> Point
    ) throws -> SeriesBatch<Point> {
        let end = min(total, offset + limit)
        guard offset < end else { return SeriesBatch(points: [], next: nil) }
        let firstChunk = offset / Self.pointsPerChunk * Self.pointsPerChunk
        var points: [Point] = []
        points.reserveCapacity(end - offset)
        for row in try db.rows(
            "SELECT first, points FROM series_chunks WHERE sample_id = ? AND first >= ? AND first < ? ORDER BY first",
            [id, firstChunk, end]
        ) {
            guard let first = row[0].int64.map(Int.init), let bytes = row[1].bytes else {
                throw StoreError.damagedDatabase("a series chunk is malformed")
            }
            for (index, (time, value)) in Self.points(of: bytes).enumerated()
            where (offset..<end).contains(first + index) {
                points.append(point(time, value))
            }
        }
        guard points.count == end - offset else {
            throw StoreError.damagedDatabase("a series lacks some of its points")
        }
        return SeriesBatch(points: points, next: end < total ? end : nil)
    }
}
