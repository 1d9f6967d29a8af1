import AuditLog
public import Foundation
public import HealthModel
import Synchronization
import VaultCrypto
public import VaultStore

/// The owner's imports (docs/APPLE_HEALTH_IMPORT.md): samples that arrive without an app, from a
/// file the owner brings in. They keep the source the file names (an Apple Watch, an iPhone), in
/// the vault under a bundle identifier no app can have (``importSource(origin:name:)``), so apps
/// may read them under their read grants and no app may delete them; the owner may.
extension VaultEngine {
    /// The prefix of every imported sample's bundle identifier: app ids are reverse-DNS names
    /// without a colon, so no app can be enrolled as an import's source.
    public static let importSourcePrefix = "import:"

    /// The source of imported samples from `origin` (`apple-health`) that the file says came from
    /// `name`: bundle identifier `import:<origin>:<name>`, named `name`.
    public static func importSource(origin: String, name: String) -> Source {
        // An import asks for one source a record, mostly the same one again: the last answer is
        // kept (compared by bytes, as the store tells sources apart), so its strings are shared
        // by the batch's samples rather than made again for each.
        if let last = lastImportSource.withLock({ $0 }), last.origin.utf8.elementsEqual(origin.utf8),
            last.source.name.utf8.elementsEqual(name.utf8)
        {
            return last.source
        }
        let source = Source(bundleIdentifier: importSourcePrefix + origin + ":" + name, name: name)
        lastImportSource.withLock { $0 = (origin, source) }
        return source
    }

    private static let lastImportSource = Mutex<(origin: String, source: Source)?>(nil)

    /// The UUID this vault gives a record that arrived without one, from its content's bytes
    /// (keyed by the vault's own key: docs/VAULT_FORMAT.md, "Keys").
    public func importUUID(for content: some Collection<UInt8>) throws -> UUID {
        try vault.importIdentifier().uuid(for: content)
    }

    /// Stores one batch of an import in one transaction with its audit entry (`vault.import`: the
    /// types stored and how many, never a value), passing over the samples the vault holds or
    /// held (``SampleStore/importSamples(_:in:)``). Every sample, and every correlation member,
    /// must carry an import source (`invalidArgument`, field `objects[i].sourceRevision`).
    /// Observers and background delivery hear of it as of any save. `routes` are stored with their
    /// locations and associated with their workouts (``SampleStore/importSamples(_:routes:in:)``),
    /// in the same transaction: never a workout without the route the file gives it.
    public func importSamples(
        _ samples: [Sample],
        routes: [ImportedRoute] = [],
        requestID: String = ""
    ) async throws -> ImportSorting {
        guard samples.count + routes.count <= Self.maximumBatchSize else {
            throw HealthError(
                .dataSizeExceeded,
                "an import batch holds at most \(Self.maximumBatchSize) objects",
                field: "objects"
            )
        }
        func isImported(_ sample: Sample) -> Bool {
            sample.sourceRevision.source.bundleIdentifier.hasPrefix(Self.importSourcePrefix)
        }
        // Routes are checked after the samples, numbered after them.
        for (offset, route) in routes.enumerated() where !isImported(.workoutRoute(route.route)) {
            throw HealthError.invalidArgument(
                "an imported sample's source is an import's (\(Self.importSourcePrefix)…), never an app's",
                field: "objects[\(samples.count + offset)].sourceRevision"
            )
        }
        for index in samples.indices {
            var imported = isImported(samples[index])
            if imported, case .correlation(let correlation) = samples[index] {
                imported = correlation.objects.allSatisfy(isImported)
            }
            guard imported else {
                throw HealthError.invalidArgument(
                    "an imported sample's source is an import's (\(Self.importSourcePrefix)…), never an app's",
                    field: "objects[\(index)].sourceRevision"
                )
            }
        }
        let (sorting, changes) = try await perform { [self] () throws -> (ImportSorting, SampleChanges) in
            var attemptedTypes = Self.types(of: samples)
            if !routes.isEmpty { attemptedTypes.insert(.workoutRoute) }
            let attempted = attemptedTypes.sortedIdentifiers
            return try audited(.owner, .import, types: attempted, requestID: requestID) {
                try database.write { db in
                    let before = try store.changeSequence(in: db)
                    let sorting = try store.importSamples(samples, routes: routes, in: db)
                    let changes = try recordImport(sorting, after: before, requestID: requestID, in: db)
                    return (sorting, changes)
                }
            }
        }
        await notifyObservers(changes)
        return sorting
    }

    /// What an import's batch leaves beside its samples, in its transaction `db` (its changes
    /// numbered after `sequence`): background delivery's counts of the types it changed, and its
    /// `vault.import` entry (the types stored and how many, never a value). Returns the changes,
    /// for the observers.
    @discardableResult
    func recordImport(
        _ sorting: ImportSorting,
        after sequence: Int64,
        requestID: String,
        in db: Connection
    ) throws -> SampleChanges {
        let changes = SampleChanges(sorting.changes, after: sequence, through: try store.changeSequence(in: db))
        try countBackgroundChanges(changes, db)
        try append(
            entry(
                .owner,
                .import,
                types: Set(sorting.changes.keys).sortedIdentifiers,
                count: sorting.stored.count,
                requestID: requestID
            ),
            in: db
        )
        return changes
    }
}
