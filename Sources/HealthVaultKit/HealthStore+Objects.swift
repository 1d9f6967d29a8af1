public import Foundation
public import HealthModel
import VaultProtocol

extension HealthStore {
    /// Asks the owner to choose which objects of `type` this app may read (HealthKit's
    /// `requestPerObjectReadAuthorization(for:predicate:)`): vision prescriptions or CDA
    /// documents, those matching `predicate` (every one when nil). It returns once the request is
    /// recorded; the owner chooses later (`healthvault objects`), and the app learns what it may
    /// read by reading: the objects not chosen do not exist for it.
    public func requestPerObjectReadAuthorization(for type: SampleType, predicate: SamplePredicate? = nil) async throws
    {
        _ = try await call(
            Method.requestObjectAuthorization,
            ObjectAuthorizationParams(type: type, predicate: predicate),
            as: Empty.self
        )
    }

    /// One batch of a document query (HealthKit's `HKDocumentQuery`), from position `offset` of
    /// its answer; continue from `next`.
    public func documents(matching query: DocumentQueryDescriptor, offset: Int = 0) async throws -> DocumentQueryBatch {
        let result = try await call(
            Method.queryDocuments,
            DocumentQueryParams(query: query, offset: offset),
            as: DocumentsResult.self
        )
        return DocumentQueryBatch(documents: result.documents, next: result.next)
    }
}

extension DocumentQueryDescriptor {
    /// The documents, batch after batch, as HealthKit's `HKDocumentQuery` hands them to its
    /// results handler; the stream ends after the last.
    public func results(for store: HealthStore) -> AsyncThrowingStream<CDADocumentSample, any Error> {
        let query = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var offset: Int? = 0
                    while let from = offset, !Task.isCancelled {
                        let batch = try await store.documents(matching: query, offset: from)
                        for document in batch.documents { continuation.yield(document) }
                        offset = batch.next
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Every document at once.
    public func result(for store: HealthStore) async throws -> [CDADocumentSample] {
        var documents: [CDADocumentSample] = []
        var offset: Int? = 0
        while let from = offset {
            let batch = try await store.documents(matching: self, offset: from)
            documents += batch.documents
            offset = batch.next
        }
        return documents
    }
}
