public import Foundation

/// An anchored object query: what was added and deleted since an anchor, and a new anchor
/// (HealthKit's `HKAnchoredObjectQueryDescriptor`).
public struct AnchoredObjectQueryDescriptor: Hashable, Sendable, Codable {
    public let predicates: [SampleTypePredicate]
    /// Nil starts from the beginning.
    public let anchor: QueryAnchor?
    /// The most samples and deletions returned; 0 means no limit.
    public let limit: Int

    public init(predicates: [SampleTypePredicate], anchor: QueryAnchor? = nil, limit: Int = 0) {
        self.predicates = predicates
        self.anchor = anchor
        self.limit = limit
    }

    public func validate() throws(HealthError) {
        try HealthModel.validate(predicates)
        try HealthModel.validate(limit: limit)
        try anchor?.validate()
    }
}

/// A position in the vault's history, opaque to apps (HealthKit's `HKQueryAnchor`).
///
/// JSON: a string. The vault makes and reads it; an app only stores it and hands it back.
public struct QueryAnchor: Hashable, Sendable, Codable, CustomStringConvertible {
    public let token: String

    /// The longest token the vault accepts back.
    public static let maximumLength = 1024

    public init(token: String) {
        self.token = token
    }

    public init(from decoder: any Decoder) throws {
        self.token = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(token)
    }

    public var description: String { token }

    func validate() throws(HealthError) {
        guard !token.isEmpty, token.utf8.count <= Self.maximumLength else {
            throw .invalidArgument("the anchor is not one the vault made", field: "anchor")
        }
    }
}

/// A sample deleted from the vault (HealthKit's `HKDeletedObject`): its UUID and its type.
///
/// JSON: `{"uuid": UUID, "type": identifier}`.
public struct DeletedObject: Hashable, Sendable, Codable {
    public let uuid: UUID
    public let sampleType: SampleType

    public init(uuid: UUID, sampleType: SampleType) {
        self.uuid = uuid
        self.sampleType = sampleType
    }

    enum CodingKeys: String, CodingKey {
        case uuid
        case sampleType = "type"
    }
}

/// What an anchored object query found (HealthKit's `HKAnchoredObjectQueryDescriptor.Result`):
/// the samples added and the objects deleted since the anchor, oldest first, and the anchor to
/// ask from next time.
///
/// JSON: `{"addedSamples": [Sample], "deletedObjects": [DeletedObject], "newAnchor": string}`.
public struct AnchoredObjectQueryResult: Sendable, Codable {
    public var addedSamples: [Sample]
    public var deletedObjects: [DeletedObject]
    public var newAnchor: QueryAnchor

    public init(addedSamples: [Sample], deletedObjects: [DeletedObject], newAnchor: QueryAnchor) {
        self.addedSamples = addedSamples
        self.deletedObjects = deletedObjects
        self.newAnchor = newAnchor
    }
}
