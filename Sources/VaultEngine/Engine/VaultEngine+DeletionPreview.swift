import AuditLog
public import Foundation
public import HealthModel
public import VaultStore

extension VaultEngine {
    /// The owner's scope: every sample, outcome `ok`.
    static let ownerScope: @Sendable (Connection) throws -> (ReadScope, AuditEntry.Outcome) = { _ in (.owner, .ok) }

    /// What the owner's delete of `uuids` (``delete(_:as:requestID:)``) would take now, without
    /// deleting: counts by type and source, and dates, never a value. Recorded as `query.summary`
    /// by the owner (no types; the count: the samples it would take), as the owner's other
    /// summary of what the vault holds.
    public func deletionPreview(uuids: [UUID], requestID: String = "") async throws -> DeletionPreview {
        guard uuids.count <= Self.maximumBatchSize else {
            throw HealthError(.dataSizeExceeded, "a delete names at most \(Self.maximumBatchSize) objects")
        }
        return try await read(
            .querySummary,
            recording: [],
            as: .owner,
            requestID: requestID,
            scope: Self.ownerScope
        ) { [self] db, _ in
            let preview = try store.deletionPreview(uuids: uuids, scope: .owner, in: db)
            return (preview, preview.count)
        }
    }

    /// What the owner's ``deleteObjects(of:predicate:as:requestID:)`` would take now, as above;
    /// recorded as `query.summary` with the type.
    public func deletionPreview(
        of type: SampleType,
        predicate: SamplePredicate? = nil,
        requestID: String = ""
    ) async throws -> DeletionPreview {
        let query = SampleTypePredicate(type, predicate: predicate)
        return try await read(
            .querySummary,
            recording: [type.identifier],
            as: .owner,
            requestID: requestID,
            scope: Self.ownerScope
        ) { [self] db, _ in
            let preview = try store.deletionPreview(matching: query, scope: .owner, in: db)
            return (preview, preview.count)
        }
    }
}
