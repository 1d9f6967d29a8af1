public import Foundation
public import HealthModel

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
    /// passing over each one whose UUID, or one of whose members' UUIDs, the vault holds or
    /// held, or the batch named before: an import of the same records again adds nothing, and a
    /// record the owner deleted stays deleted. The rest is saved as ``save(_:in:)`` saves.
    public func importSamples(_ samples: [Sample], in db: Connection) throws -> ImportSorting {
        var sorting = ImportSorting()
        var seen: Set<UUID> = []
        var fresh: [(sample: Sample, uuids: [UUID])] = []
        for sample in samples {
            var uuids = [sample.uuid]
            if case .correlation(let correlation) = sample { uuids += correlation.objects.map(\.uuid) }
            if uuids.contains(where: seen.contains) {
                sorting.repeated.append(sample.uuid)
                continue
            }
            seen.formUnion(uuids)
            fresh.append((sample, uuids))
        }
        guard !fresh.isEmpty else { return sorting }
        let list = DatabaseValue.jsonArray(uuids: seen)
        func held(_ sql: String) throws -> Set<UUID> {
            Set(try db.rows(sql, [list]).compactMap { $0[0].bytes.flatMap(UUID.init(bytes:)) })
        }
        let present = try held("SELECT uuid FROM samples WHERE uuid IN (SELECT unhex(value) FROM json_each(?))")
        let deleted = try held("SELECT uuid FROM tombstones WHERE uuid IN (SELECT unhex(value) FROM json_each(?))")
        var stored: [Sample] = []
        for (sample, uuids) in fresh {
            if uuids.contains(where: deleted.contains) {
                sorting.deletedBefore.append(sample.uuid)
            } else if uuids.contains(where: present.contains) {
                sorting.alreadyPresent.append(sample.uuid)
            } else {
                stored.append(sample)
                sorting.stored.append(sample.uuid)
            }
        }
        if !stored.isEmpty { try save(stored, in: db) }
        return sorting
    }
}
