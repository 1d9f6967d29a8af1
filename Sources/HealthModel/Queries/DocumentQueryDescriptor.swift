/// A query of clinical documents (HealthKit's `HKDocumentQuery`): the document samples of one
/// document type that meet a predicate, sorted and limited, each with its document (the title
/// and names read out of it), and with the document's bytes when `includeDocumentData` asks.
///
/// An app sees its own documents and those the owner chose for it, and no other: to it, the
/// others do not exist (docs/ACCESS_RULES.md, "Per-object reads").
public struct DocumentQueryDescriptor: Hashable, Sendable, Codable {
    public var documentType: DocumentTypeIdentifier
    public var predicate: SamplePredicate?
    /// Applied in order; ties fall to the next descriptor (by start date or end date: documents
    /// have no value). Empty leaves the order to the vault.
    public var sortDescriptors: [SampleSortDescriptor]
    /// The most documents returned; 0 means no limit.
    public var limit: Int
    /// Whether each document carries its bytes (HealthKit's `includeDocumentData`).
    public var includeDocumentData: Bool

    public init(
        documentType: DocumentTypeIdentifier = .cda,
        predicate: SamplePredicate? = nil,
        sortDescriptors: [SampleSortDescriptor] = [],
        limit: Int = 0,
        includeDocumentData: Bool = true
    ) {
        self.documentType = documentType
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.limit = limit
        self.includeDocumentData = includeDocumentData
    }

    /// The sample query that finds the documents, in their order.
    public var sampleQuery: SampleQueryDescriptor {
        SampleQueryDescriptor(
            predicates: [SampleTypePredicate(.document(documentType), predicate: predicate)],
            sortDescriptors: sortDescriptors,
            limit: limit
        )
    }

    /// Checks the predicate against the type, the limit, and that no descriptor sorts by value.
    public func validate() throws(HealthError) {
        if sortDescriptors.contains(where: { $0.key == .value }) {
            throw .invalidArgument(
                "documents have no value to sort by; sort by startDate or endDate",
                field: "sortDescriptors"
            )
        }
        try sampleQuery.validate()
    }
}

/// One batch of a document query's answer: the documents, and the position of the next one when
/// the answer goes on (a batch holds what fits in a frame).
public struct DocumentQueryBatch: Hashable, Sendable {
    public var documents: [CDADocumentSample]
    /// Where the next batch starts (pass it as the offset), or nil at the end.
    public var next: Int?

    public init(documents: [CDADocumentSample], next: Int?) {
        self.documents = documents
        self.next = next
    }

    /// The most documents one batch holds.
    public static let maximumDocuments = 100
    /// The most document bytes one batch holds, beyond its first document (4 MiB: with base64 and
    /// the rest, well inside the daemon's default frame).
    public static let maximumBytes = 4 * 1024 * 1024
}
