public import Foundation
public import HealthModel

/// The methods of per-object reads (docs/PROTOCOL.md, "Per-object reads and documents"): an
/// app's request to read a type object by object, the document query, and the owner's choices.
extension Method {
    public static let requestObjectAuthorization = "authorization.requestObjects"
    public static let queryDocuments = "query.documents"  // owner too
    public static let objectsList = "objects.list"  // owner
    public static let objectsDecide = "objects.decide"  // owner
}

/// `authorization.requestObjects`: HealthKit's `requestPerObjectReadAuthorization(for:predicate:)`.
public struct ObjectAuthorizationParams: Hashable, Sendable, Codable {
    /// A type read object by object: `HKVisionPrescriptionTypeIdentifier` or
    /// `HKDocumentTypeIdentifierCDA`.
    public var type: SampleType
    /// The objects the app asks about; absent: every object of the type.
    public var predicate: SamplePredicate?

    public init(type: SampleType, predicate: SamplePredicate? = nil) {
        self.type = type
        self.predicate = predicate
    }
}

/// `query.documents`: one batch of a document query, from `offset` (0 when absent).
public struct DocumentQueryParams: Hashable, Sendable, Codable {
    public var query: DocumentQueryDescriptor
    public var offset: Int?

    public init(query: DocumentQueryDescriptor, offset: Int? = nil) {
        self.query = query
        self.offset = offset
    }
}

/// One batch of a document query: the documents, and where the next batch starts (absent at the
/// end). The daemon sends fewer documents than the engine gave when they do not fit its frame.
public struct DocumentsResult: BatchedResult, Decodable, Hashable {
    public var documents: [CDADocumentSample]
    public var next: Int?
    /// The position of the first document, not sent: where a halved batch's `next` counts from.
    public var offset: Int

    public init(_ batch: DocumentQueryBatch, offset: Int) {
        self.documents = batch.documents
        self.next = batch.next
        self.offset = offset
    }

    public var batch: [CDADocumentSample]? {
        get { documents }
        set { documents = newValue ?? [] }
    }

    private enum CodingKeys: String, CodingKey {
        case documents, next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        documents = try container.decode([CDADocumentSample].self, forKey: .documents)
        next = try container.decodeIfPresent(Int.self, forKey: .next)
        offset = 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(documents, forKey: .documents)
        try container.encodeIfPresent(next, forKey: .next)
    }
}

/// `objects.list`: the objects of the types read object by object, as the owner chooses them for
/// `app` (of `type` alone when given).
public struct ObjectsListParams: Hashable, Sendable, Codable {
    public var app: String
    public var type: SampleType?

    public init(app: String, type: SampleType? = nil) {
        self.app = app
        self.type = type
    }
}

/// One object in `objects.list`: what it is and whose, and whether the app may read it now
/// (`readable`) and whether one of the app's waiting requests asks about it (`asked`).
public struct ObjectInfo: Hashable, Sendable, Codable {
    public var uuid: UUID
    public var type: SampleType
    public var startDate: Date
    public var endDate: Date
    public var source: Source
    /// A document's title; a prescription's type (`glasses`, `contacts`).
    public var summary: String
    public var readable: Bool
    public var asked: Bool

    public init(
        uuid: UUID,
        type: SampleType,
        startDate: Date,
        endDate: Date,
        source: Source,
        summary: String,
        readable: Bool,
        asked: Bool
    ) {
        self.uuid = uuid
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.source = source
        self.summary = summary
        self.readable = readable
        self.asked = asked
    }
}

public struct ObjectsResult: Hashable, Sendable, Codable {
    public var objects: [ObjectInfo]

    public init(objects: [ObjectInfo]) {
        self.objects = objects
    }
}

/// `objects.decide`: let `app` read `objects` (`grant`), or take them back (`revoke`).
public struct ObjectsDecideParams: Hashable, Sendable, Codable {
    public var app: String
    /// `grant` or `revoke`.
    public var decision: String
    public var objects: [UUID]

    public init(app: String, decision: String, objects: [UUID]) {
        self.app = app
        self.decision = decision
        self.objects = objects
    }
}

/// A waiting request to read a type object by object, in `requests.list`'s `objectRequests`.
public struct ObjectRequestInfo: Hashable, Sendable, Codable {
    public var id: Int64
    public var app: String
    public var requestedAt: Date
    public var type: SampleType
    public var predicate: SamplePredicate?

    public init(id: Int64, app: String, requestedAt: Date, type: SampleType, predicate: SamplePredicate?) {
        self.id = id
        self.app = app
        self.requestedAt = requestedAt
        self.type = type
        self.predicate = predicate
    }
}
