public import Foundation
public import HealthModel

/// Workout routes in the store (schema version 9, docs/VAULT_FORMAT.md): the builders under way
/// and each route's locations, packed as ten little-endian doubles per location
/// (``WorkoutRouteLocation/packed``), in chunks of at most ``maximumRouteChunk`` locations.
extension SampleStore {
    /// The most locations one chunk (one insert) holds.
    public static let maximumRouteChunk = 10_000
    /// The most locations one route holds.
    public static let maximumRouteLocations = 1_000_000

    /// A new route builder of `appID`, inside the write transaction `db`.
    public func beginRoute(_ id: UUID, appID: String, in db: Connection) throws {
        try db.execute(
            "INSERT INTO route_builders (id, app_id, created_at) VALUES (?, ?, ?)",
            [
                DatabaseValue.blob(id.bytes), DatabaseValue.text(appID),
                DatabaseValue.real(Date().timeIntervalSinceReferenceDate),
            ]
        )
    }

    /// The app's route builders under way, oldest first: each one's id and when it began.
    public func routeBuilders(of appID: String, in db: Connection) throws -> [(id: UUID, createdAt: Date)] {
        try db.rows("SELECT id, created_at FROM route_builders WHERE app_id = ? ORDER BY created_at, id", [appID])
            .compactMap { row in
                guard let id = row[0].bytes.flatMap(UUID.init(bytes:)), let created = row[1].double else { return nil }
                return (id, Date(timeIntervalSinceReferenceDate: created))
            }
    }

    /// The app whose route builder `id` is, or nil when there is none.
    public func routeBuilderApp(_ id: UUID, in db: Connection) throws -> String? {
        try db.rows("SELECT app_id FROM route_builders WHERE id = ?", [DatabaseValue.blob(id.bytes)]).first?[0].string
    }

    /// How many locations the builder holds, and the last one's timestamp.
    public func routeBuilderProgress(_ id: UUID, in db: Connection) throws -> (count: Int, last: Date?) {
        let count = Int(
            try db.scalarInt(
                "SELECT coalesce(sum(count), 0) FROM route_builder_locations WHERE builder = ?",
                [DatabaseValue.blob(id.bytes)]
            ) ?? 0
        )
        guard
            let row = try db.rows(
                "SELECT data, count FROM route_builder_locations WHERE builder = ? ORDER BY chunk DESC LIMIT 1",
                [DatabaseValue.blob(id.bytes)]
            ).first,
            let data = row[0].bytes, let chunkCount = row[1].int64, chunkCount > 0
        else { return (count, nil) }
        let last = try Self.unpack(data, count: Int(chunkCount)).last
        return (count, last?.timestamp)
    }

    /// Appends locations to a builder, as one chunk, inside `db`.
    public func insertRouteLocations(_ locations: [WorkoutRouteLocation], builder id: UUID, in db: Connection) throws {
        guard !locations.isEmpty else { return }
        let next =
            try db.scalarInt(
                "SELECT coalesce(max(chunk) + 1, 0) FROM route_builder_locations WHERE builder = ?",
                [DatabaseValue.blob(id.bytes)]
            ) ?? 0
        try db.execute(
            "INSERT INTO route_builder_locations (builder, chunk, count, data) VALUES (?, ?, ?, ?)",
            [
                DatabaseValue.blob(id.bytes), DatabaseValue.integer(next),
                DatabaseValue.integer(Int64(locations.count)),
                DatabaseValue.blob(Self.pack(locations)),
            ]
        )
    }

    /// The builder's span: its first and last locations' timestamps (reading its first and last
    /// chunks only).
    public func routeBuilderSpan(_ id: UUID, in db: Connection) throws -> (start: Date, end: Date)? {
        func chunk(_ order: String) throws -> [WorkoutRouteLocation] {
            guard
                let row = try db.rows(
                    "SELECT data, count FROM route_builder_locations WHERE builder = ? ORDER BY chunk \(order) LIMIT 1",
                    [DatabaseValue.blob(id.bytes)]
                ).first
            else { return [] }
            return try Self.unpack(row[0].bytes ?? [], count: Int(row[1].int64 ?? 0))
        }
        guard let start = try chunk("ASC").first?.timestamp, let end = try chunk("DESC").last?.timestamp else {
            return nil
        }
        return (start, end)
    }

    /// Saves `route` (its row, as any sample) with the builder's locations, associated with the
    /// workout `workout`, and removes the builder; inside `db`.
    public func finishRoute(_ route: WorkoutRoute, builder id: UUID, workout: UUID, in db: Connection) throws {
        let sequence = try changeSequence(in: db)
        try save([.workoutRoute(route)], in: db)
        guard
            let sampleID = try db.scalarInt(
                "SELECT id FROM samples WHERE uuid = ? AND parent_id IS NULL",
                [DatabaseValue.blob(route.uuid.bytes)]
            )
        else { throw StoreError.damagedDatabase("a route just saved is missing") }
        try db.execute(
            """
            INSERT INTO route_locations (sample_id, chunk, count, data)
            SELECT ?, chunk, count, data FROM route_builder_locations WHERE builder = ?
            """,
            [DatabaseValue.integer(sampleID), DatabaseValue.blob(id.bytes)]
        )
        try associate(
            [(route.uuid, .workoutRoute)],
            ofSource: route.sourceRevision.source.bundleIdentifier,
            withWorkout: workout,
            storedAfter: sequence,
            in: db
        )
        try discardRoute(id, in: db)
    }

    /// Saves a route that arrives whole (an import): its row, as any sample, its locations in
    /// chunks of ``maximumRouteChunk``, and its association with the workout `workout`; inside `db`.
    public func saveRoute(
        _ route: WorkoutRoute,
        locations: [WorkoutRouteLocation],
        workout: UUID,
        in db: Connection
    ) throws {
        guard locations.count == route.count, locations.count <= Self.maximumRouteLocations else {
            throw HealthError.invalidArgument(
                "a route holds 1 to \(Self.maximumRouteLocations) locations, as many as its count",
                field: "count"
            )
        }
        let sequence = try changeSequence(in: db)
        try save([.workoutRoute(route)], in: db)
        guard
            let sampleID = try db.scalarInt(
                "SELECT id FROM samples WHERE uuid = ? AND parent_id IS NULL",
                [DatabaseValue.blob(route.uuid.bytes)]
            )
        else { throw StoreError.damagedDatabase("a route just saved is missing") }
        let insert = try db.statement("INSERT INTO route_locations (sample_id, chunk, count, data) VALUES (?, ?, ?, ?)")
        for (chunk, first) in stride(from: 0, to: locations.count, by: Self.maximumRouteChunk).enumerated() {
            let part = Array(locations[first..<min(first + Self.maximumRouteChunk, locations.count)])
            try insert.execute([
                DatabaseValue.integer(sampleID), DatabaseValue.integer(Int64(chunk)),
                DatabaseValue.integer(Int64(part.count)), DatabaseValue.blob(Self.pack(part)),
            ])
        }
        try associate(
            [(route.uuid, .workoutRoute)],
            ofSource: route.sourceRevision.source.bundleIdentifier,
            withWorkout: workout,
            storedAfter: sequence,
            in: db
        )
    }

    /// Removes a builder and its locations, inside `db`.
    public func discardRoute(_ id: UUID, in db: Connection) throws {
        try db.execute("DELETE FROM route_builders WHERE id = ?", [DatabaseValue.blob(id.bytes)])
    }

    /// The locations of the route `uuid` the scope may see, from `offset`, at most `limit`, in
    /// time order, and the offset of the next one when more follow. A route the scope may not
    /// see answers as a UUID that names nothing: no locations.
    public func routeLocations(
        _ uuid: UUID,
        scope: ReadScope,
        offset: Int,
        limit: Int,
        in db: Connection
    ) throws -> (locations: [WorkoutRouteLocation], next: Int?) {
        guard let sample = try sample(uuid: uuid, scope: scope, in: db), case .workoutRoute = sample,
            let sampleID = try db.scalarInt(
                "SELECT id FROM samples WHERE uuid = ? AND parent_id IS NULL",
                [DatabaseValue.blob(uuid.bytes)]
            )
        else { return ([], nil) }
        var skipped = 0
        var locations: [WorkoutRouteLocation] = []
        var total = 0
        // The chunks' counts first; only the chunks the batch needs are read and decoded.
        let chunks = try db.rows(
            "SELECT chunk, count FROM route_locations WHERE sample_id = ? ORDER BY chunk",
            [DatabaseValue.integer(sampleID)]
        ).map { (chunk: $0[0].int64 ?? 0, count: Int($0[1].int64 ?? 0)) }
        let data = try db.statement("SELECT data FROM route_locations WHERE sample_id = ? AND chunk = ?")
        for (chunk, count) in chunks {
            total += count
            if skipped + count <= offset {
                skipped += count
                continue
            }
            guard locations.count < limit else { continue }
            let bytes = try data.rows([sampleID, chunk]).first?[0].bytes ?? []
            let decoded = try Self.unpack(bytes, count: count)
            let from = max(0, offset - skipped)
            skipped += count
            locations += decoded[from...].prefix(limit - locations.count)
        }
        let next = offset + locations.count
        return (locations, next < total ? next : nil)
    }

    /// The bytes the store keeps for these locations (docs/VAULT_FORMAT.md, `route_locations`).
    public static func pack(_ locations: [WorkoutRouteLocation]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(locations.count * 80)
        for location in locations {
            for value in location.packed {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
            }
        }
        return bytes
    }

    static func unpack(_ bytes: [UInt8], count: Int) throws -> [WorkoutRouteLocation] {
        guard bytes.count == count * 80 else {
            throw StoreError.damagedDatabase("a route's packed locations have the wrong length")
        }
        var values: [Double] = []
        values.reserveCapacity(count * 10)
        for start in stride(from: 0, to: bytes.count, by: 8) {
            var bits: UInt64 = 0
            for index in 0..<8 { bits |= UInt64(bytes[start + index]) << (8 * UInt64(index)) }
            values.append(Double(bitPattern: bits))
        }
        return try (0..<count).map { index in
            do {
                return try WorkoutRouteLocation(packed: values[(index * 10)..<(index * 10 + 10)])
            } catch {
                throw StoreError.damagedDatabase("a route's stored location is not valid: \(error)")
            }
        }
    }
}
