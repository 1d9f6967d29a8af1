public import Foundation
public import HealthModel

/// A workout's route that arrives whole with its locations (an import of an export's GPX file).
public struct ImportedRoute: Sendable {
    public let route: WorkoutRoute
    public let locations: [WorkoutRouteLocation]
    /// The workout it belongs to: in the same batch, or in the vault already.
    public let workout: UUID

    public init(route: WorkoutRoute, locations: [WorkoutRouteLocation], workout: UUID) {
        self.route = route
        self.locations = locations
        self.workout = workout
    }
}

/// How an import sorted a batch of samples: each sample (by its UUID) stored, already in the
/// vault, deleted from it before, or repeated within the batch.
public struct ImportSorting: Hashable, Sendable {
    public var stored: [UUID] = []
    /// Its UUID (or a member's) names a sample the vault holds: imported before.
    public var alreadyPresent: [UUID] = []
    /// Its UUID (or a member's) names a sample the vault deleted: the owner deleted it, and an
    /// import does not bring it back.
    public var deletedBefore: [UUID] = []
    /// The same UUID came earlier in the batch (the same record twice in a file).
    public var repeated: [UUID] = []

    public init() {}
}

extension SampleStore {
    /// Stores samples that arrived without an app (an import), inside the write transaction `db`,
    /// passing over each one whose UUID the vault holds or held or the batch named before, and
    /// each correlation with a member the vault deleted or another correlation holds: an import
    /// of the same records again adds nothing, and a record the owner deleted stays deleted.
    ///
    /// A correlation's member that is already stored as a sample of its own (Apple writes each
    /// member again as a top-level record, usually before the correlation), in the vault or
    /// earlier in the batch, becomes the correlation's member as it is stored: it is stored once,
    /// and its row and sequence do not change. The rest is saved as ``save(_:in:)`` saves.
    ///
    /// Each of `routes` is stored with its locations and associated with its workout when the
    /// workout is in the vault once the samples are stored (sorted as a sample is: a route the
    /// vault holds or held, or whose workout the owner deleted, is passed over).
    public func importSamples(
        _ samples: [Sample],
        routes: [ImportedRoute] = [],
        in db: Connection
    ) throws -> ImportSorting {
        var sorting = ImportSorting()
        var own: Set<UUID> = []  // top-level samples of the batch, in order
        var members: Set<UUID> = []  // members of the batch's correlations
        var fresh: [Sample] = []
        for sample in samples {
            let memberUUIDs: [UUID]
            if case .correlation(let correlation) = sample {
                memberUUIDs = correlation.objects.map(\.uuid)
            } else {
                memberUUIDs = []
            }
            // A top-level copy after its correlation in the batch is the member already taken.
            if own.contains(sample.uuid) || members.contains(sample.uuid)
                || memberUUIDs.contains(where: { members.contains($0) || $0 == sample.uuid })
            {
                sorting.repeated.append(sample.uuid)
                continue
            }
            own.insert(sample.uuid)
            members.formUnion(memberUUIDs)
            fresh.append(sample)
        }
        guard !fresh.isEmpty || !routes.isEmpty else { return sorting }
        let all = own.union(members).union(routes.map(\.route.uuid)).union(routes.map(\.workout))
        let list = DatabaseValue.jsonArray(uuids: all)
        // The vault's samples among them, and whether each is a sample of its own (no correlation's).
        var present: [UUID: Bool] = [:]
        for row in try db.rows(
            "SELECT uuid, parent_id IS NULL FROM samples WHERE uuid IN (SELECT unhex(value) FROM json_each(?))",
            [list]
        ) {
            if let uuid = row[0].bytes.flatMap(UUID.init(bytes:)) { present[uuid] = row[1].int64 == 1 }
        }
        let deleted = Set(
            try db.rows("SELECT uuid FROM tombstones WHERE uuid IN (SELECT unhex(value) FROM json_each(?))", [list])
                .compactMap { $0[0].bytes.flatMap(UUID.init(bytes:)) }
        )
        var stored: [Sample] = []
        var storing: Set<UUID> = []
        var adopted: Set<UUID> = []
        for sample in fresh {
            if deleted.contains(sample.uuid) {
                sorting.deletedBefore.append(sample.uuid)
                continue
            }
            if present[sample.uuid] != nil {
                sorting.alreadyPresent.append(sample.uuid)
                continue
            }
            if case .correlation(let correlation) = sample {
                let memberUUIDs = correlation.objects.map(\.uuid)
                if memberUUIDs.contains(where: deleted.contains) {
                    sorting.deletedBefore.append(sample.uuid)
                    continue
                }
                // A member another correlation holds: this correlation was stored before.
                if memberUUIDs.contains(where: { present[$0] == false }) {
                    sorting.alreadyPresent.append(sample.uuid)
                    continue
                }
                adopted.formUnion(memberUUIDs.filter { present[$0] == true || storing.contains($0) })
            }
            stored.append(sample)
            storing.insert(sample.uuid)
            sorting.stored.append(sample.uuid)
        }
        if !stored.isEmpty {
            adoptedMembers = adopted
            defer { adoptedMembers = [] }
            try save(stored, in: db)
        }
        for imported in routes {
            let uuid = imported.route.uuid
            if sorting.stored.contains(uuid) || sorting.repeated.contains(uuid) {
                sorting.repeated.append(uuid)
            } else if deleted.contains(uuid) || deleted.contains(imported.workout) {
                sorting.deletedBefore.append(uuid)
            } else if present[uuid] != nil {
                sorting.alreadyPresent.append(uuid)
            } else if present[imported.workout] != nil || storing.contains(imported.workout) {
                try saveRoute(imported.route, locations: imported.locations, workout: imported.workout, in: db)
                sorting.stored.append(uuid)
            } else {
                // Its workout was passed over (repeated in the batch, or not stored): so is the route.
                sorting.repeated.append(uuid)
            }
        }
        return sorting
    }
}
