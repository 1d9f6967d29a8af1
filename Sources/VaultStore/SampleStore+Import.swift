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
    /// The types stored, each with the bundle identifiers of the sources stored under it.
    public var changes: [SampleType: Set<String>] = [:]

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
        // Each sample's UUID read once (reading one through `Sample` copies the sample).
        let uuids = samples.map(\.uuid)
        var own: Set<UUID> = []  // top-level samples of the batch
        var members: Set<UUID> = []  // members of the batch's correlations
        var correlations: [Int: [UUID]] = [:]  // by position: the correlation's members
        var fresh: [Int] = []  // positions of the samples not repeated in the batch
        own.reserveCapacity(samples.count)
        fresh.reserveCapacity(samples.count)
        for index in samples.indices {
            let uuid = uuids[index]
            var memberUUIDs: [UUID] = []
            if case .correlation(let correlation) = samples[index] {
                memberUUIDs = correlation.objects.map(\.uuid)
                correlations[index] = memberUUIDs
            }
            // A top-level copy after its correlation in the batch is the member already taken.
            if own.contains(uuid) || members.contains(uuid)
                || memberUUIDs.contains(where: { members.contains($0) || $0 == uuid })
            {
                sorting.repeated.append(uuid)
                continue
            }
            own.insert(uuid)
            members.formUnion(memberUUIDs)
            fresh.append(index)
        }
        guard !fresh.isEmpty || !routes.isEmpty else { return sorting }
        // The vault's samples among the correlations, their members, the routes and the routes'
        // workouts, and whether each is a sample of its own (no correlation's). Whether the vault
        // holds any other sample is found as it is inserted (`passesOverPresentUUIDs`).
        var lookedUp = Set(routes.map(\.route.uuid)).union(routes.map(\.workout)).union(members)
        for index in correlations.keys { lookedUp.insert(uuids[index]) }
        var present: [UUID: Bool] = [:]
        if !lookedUp.isEmpty {
            for row in try db.rows(
                "SELECT uuid, parent_id IS NULL FROM samples WHERE uuid IN (SELECT unhex(value) FROM json_each(?))",
                [DatabaseValue.jsonArray(uuids: lookedUp)]
            ) {
                if let uuid = row[0].bytes.flatMap(UUID.init(bytes:)) { present[uuid] = row[1].int64 == 1 }
            }
        }
        // The deleted ones among them all: none to look for in a vault without tombstones.
        var deleted: Set<UUID> = []
        if try db.scalarInt("SELECT EXISTS (SELECT 1 FROM tombstones)") == 1 {
            let all = own.union(lookedUp)
            deleted = Set(
                try db.rows(
                    "SELECT uuid FROM tombstones WHERE uuid IN (SELECT unhex(value) FROM json_each(?))",
                    [DatabaseValue.jsonArray(uuids: all)]
                )
                .compactMap { $0[0].bytes.flatMap(UUID.init(bytes:)) }
            )
        }
        var stored: [Int] = []  // positions of the samples to store
        var storing: Set<UUID> = []
        var adopted: Set<UUID> = []
        stored.reserveCapacity(fresh.count)
        for index in fresh {
            let uuid = uuids[index]
            if deleted.contains(uuid) {
                sorting.deletedBefore.append(uuid)
                continue
            }
            if present[uuid] != nil {
                sorting.alreadyPresent.append(uuid)
                continue
            }
            if let memberUUIDs = correlations[index] {
                if memberUUIDs.contains(where: deleted.contains) {
                    sorting.deletedBefore.append(uuid)
                    continue
                }
                // A member another correlation holds: this correlation was stored before.
                if memberUUIDs.contains(where: { present[$0] == false }) {
                    sorting.alreadyPresent.append(uuid)
                    continue
                }
                adopted.formUnion(memberUUIDs.filter { present[$0] == true || storing.contains($0) })
            }
            stored.append(index)
            storing.insert(uuid)
        }
        if !stored.isEmpty {
            adoptedMembers = adopted
            passesOverPresentUUIDs = true
            passedOverUUIDs.removeAll(keepingCapacity: true)
            defer {
                adoptedMembers = []
                passesOverPresentUUIDs = false
            }
            try save(samples, at: stored, in: db)
            // What the vault held already was passed over as it was inserted.
            let passedOver = Set(passedOverUUIDs)
            var last: (type: SampleType, source: String)?
            for index in stored {
                let uuid = uuids[index]
                if !passedOver.isEmpty, passedOver.contains(uuid) {
                    sorting.alreadyPresent.append(uuid)
                    storing.remove(uuid)
                    continue
                }
                sorting.stored.append(uuid)
                let type = samples[index].sampleType
                let source = samples[index].sourceRevision.source.bundleIdentifier
                // A batch is mostly long runs of one type from one source.
                if let last, last.type == type, ExactString.equal(last.source, source) { continue }
                sorting.changes[type, default: []].insert(source)
                last = (type, source)
            }
        }
        for imported in routes {
            let uuid = imported.route.uuid
            if storing.contains(uuid) || sorting.repeated.contains(uuid) {
                sorting.repeated.append(uuid)
            } else if deleted.contains(uuid) || deleted.contains(imported.workout) {
                sorting.deletedBefore.append(uuid)
            } else if present[uuid] != nil {
                sorting.alreadyPresent.append(uuid)
            } else if present[imported.workout] != nil || storing.contains(imported.workout) {
                try saveRoute(imported.route, locations: imported.locations, workout: imported.workout, in: db)
                sorting.stored.append(uuid)
                sorting.changes[.workoutRoute, default: []].insert(
                    imported.route.sourceRevision.source.bundleIdentifier
                )
                storing.insert(uuid)
            } else {
                // Its workout was passed over (repeated in the batch, or not stored): so is the route.
                sorting.repeated.append(uuid)
            }
        }
        return sorting
    }
}
