public import AuditLog
public import Foundation
public import HealthModel
import VaultStore

extension VaultEngine {
    /// One batch of a document query in the caller's scope (HealthKit's `HKDocumentQuery`): the
    /// documents from position `offset` of the answer, with their names, and their bytes when the
    /// query includes them; `next` says where the answer goes on. An app sees its own documents
    /// and those the owner chose for it: the answer is the one a vault holding only those would
    /// give.
    public func documents(
        matching query: DocumentQueryDescriptor,
        offset: Int = 0,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> DocumentQueryBatch {
        let type = SampleType.document(query.documentType)
        return try await read(.queryDocument, types: [type], as: caller, requestID: requestID) { [self] db, scope in
            let batch = try store.documents(matching: query, offset: offset, scope: scope, in: db)
            return (batch, batch.documents.count)
        }
    }
}
