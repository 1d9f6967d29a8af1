public import Foundation
public import HealthModel

/// A `<Correlation>`: a blood pressure or a food with its member records, as written; and its
/// conversion to HealthModel.
///
/// Apple also writes every member as a top-level `<Record>`. The reader reports both as they are;
/// a member's ``AppleHealthRecord/identity`` equals its top-level copy's, so the importer can
/// store the correlation with its members and skip the copies.
public struct AppleHealthCorrelation: Sendable {
    /// `HKCorrelationTypeIdentifierBloodPressure` or `HKCorrelationTypeIdentifierFood`.
    public var type: String
    public var sourceName: String
    public var sourceVersion: String?
    public var device: String?
    public var creationDate: String?
    public var startDate: String
    public var endDate: String
    public var metadata: [AppleHealthMetadataEntry]
    /// The member records, in written order.
    public var records: [AppleHealthRecord]
    public var otherAttributes: [AppleHealthAttribute]
    public var byteOffset: Int
    var missingAttributes: [String] = []
    var prepared: PreparedSample?

    public init(
        type: String,
        sourceName: String,
        sourceVersion: String? = nil,
        device: String? = nil,
        creationDate: String? = nil,
        startDate: String,
        endDate: String,
        metadata: [AppleHealthMetadataEntry] = [],
        records: [AppleHealthRecord] = [],
        otherAttributes: [AppleHealthAttribute] = [],
        byteOffset: Int = 0
    ) {
        self.type = type
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.records = records
        self.otherAttributes = otherAttributes
        self.byteOffset = byteOffset
    }

    /// The correlation's identity: type, source name and version, device, start and end, and its
    /// members' identities (in an order of their own, so the written order does not matter).
    public var identity: AppleHealthIdentity {
        AppleHealthIdentity(
            element: "Correlation",
            fields: [
                type, sourceName, sourceVersion, AppleHealthIdentity.device(device),
                AppleHealthIdentity.date(startDate), AppleHealthIdentity.date(endDate),
            ],
            members: records.map(\.identity)
        )
    }

    /// The HealthModel correlation, its members converted as ``AppleHealthRecord/sample(uuid:source:)``
    /// converts a record; `memberUUIDs` gives one UUID per member record, in written order (the
    /// importer derives them from the members' identities, so a member and its top-level copy
    /// share one). Throws `invalidArgument` naming the field HealthModel refuses, `memberUUIDs`
    /// when the count differs, `records[i]...` for a member.
    public func sample(uuid: UUID, memberUUIDs: [UUID], source: Source) throws(HealthError) -> Sample {
        guard memberUUIDs.count == records.count else {
            throw .invalidArgument(
                "one UUID per member record is needed (\(records.count), got \(memberUUIDs.count))",
                field: "memberUUIDs"
            )
        }
        guard case .correlation(let template) = try preparedOrNew().sample else {
            throw .invalidArgument("not a correlation", field: "type")
        }
        var members: [Sample] = []
        for (index, member) in template.objects.enumerated() {
            do {
                members.append(try member.restamped(uuid: memberUUIDs[index], source: source))
            } catch {
                throw error.nested(in: "records[\(index)]")
            }
        }
        return .correlation(
            try Correlation(
                uuid: uuid,
                type: template.correlationType,
                start: template.startDate,
                end: template.endDate,
                objects: members,
                sourceRevision: template.sourceRevision.replacingSource(with: source),
                device: template.device,
                metadata: template.metadata
            )
        )
    }

    /// What ``sample(uuid:memberUUIDs:source:)`` leaves out or changes, and why.
    public func conversionNotes() -> [AppleHealthConversionNote] {
        (try? preparedOrNew())?.notes ?? []
    }

    func preparedOrNew() throws(HealthError) -> PreparedSample {
        if let prepared { return prepared }
        return try prepare()
    }
}
