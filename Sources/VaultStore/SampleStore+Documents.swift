public import Foundation
public import HealthModel

extension SampleStore {
    /// A batch of a document query's answer under a scope (HealthKit's `HKDocumentQuery`): the
    /// documents its predicate matches, in its order, from position `offset` of the answer, each
    /// with its document, and with the bytes when the query asks for them. A batch ends at
    /// ``DocumentQueryBatch/maximumDocuments`` documents, or once its documents' bytes pass
    /// ``DocumentQueryBatch/maximumBytes`` (never before its first); `next` says where the
    /// answer goes on. The rows are found as a sample query finds them (an app's own and the
    /// objects chosen for it, by index), so no hidden document is read.
    public func documents(
        matching query: DocumentQueryDescriptor,
        offset: Int,
        scope: ReadScope,
        in db: Connection
    ) throws -> DocumentQueryBatch {
        try query.validate()
        guard offset >= 0 else {
            throw HealthError.invalidArgument("the offset is a position in the answer, at least 0", field: "offset")
        }
        let limit = query.limit > 0 ? query.limit : Self.maximumAnswerObjects
        guard offset < limit else { return DocumentQueryBatch(documents: [], next: nil) }
        let wanted = min(DocumentQueryBatch.maximumDocuments, limit - offset)
        let page = SampleQueryDescriptor(
            predicates: query.sampleQuery.predicates,
            sortDescriptors: query.sortDescriptors,
            limit: wanted + 1
        )
        // One past the batch, to know whether the answer goes on.
        var rows = try sampleRows(matching: page, scope: scope, offset: offset, db)
        let more = rows.count > wanted
        rows = Array(rows.prefix(wanted))
        var documents: [CDADocumentSample] = []
        var bytes = 0
        for (row, sample) in zip(rows, try build(rows, scope: scope, db)) {
            guard case .cdaDocument(let bare) = sample else {
                throw StoreError.damagedDatabase("a document query found a sample of another type")
            }
            let document = try document(ofRow: row.id, withData: query.includeDocumentData, db)
            let size = document.documentData?.count ?? 0
            if !documents.isEmpty, bytes + size > DocumentQueryBatch.maximumBytes { break }
            bytes += size
            documents.append(
                try CDADocumentSample(
                    uuid: bare.uuid,
                    document: document,
                    start: bare.startDate,
                    end: bare.endDate,
                    sourceRevision: bare.sourceRevision,
                    device: bare.device,
                    metadata: bare.metadata
                )
            )
        }
        let next = offset + documents.count
        let goesOn = documents.count < rows.count || more
        return DocumentQueryBatch(documents: documents, next: goesOn && next < limit ? next : nil)
    }
}
