public import Foundation

/// A sample grouping related samples: a blood-pressure reading (systolic and diastolic) or a food
/// (its nutrients), as HealthKit's `HKCorrelation`.
public struct Correlation: HealthSample {
    public let uuid: UUID
    public let correlationType: CorrelationTypeIdentifier
    /// The member samples: quantity or category samples of types the correlation allows.
    public private(set) var objects: [Sample]
    public let startDate: Date
    public let endDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// Creates a correlation, or throws `invalidArgument`: a member of a type the correlation does
    /// not allow, a blood pressure without exactly one systolic and one diastolic, an empty food,
    /// a repeated member, or the checks every sample has.
    public init(
        uuid: UUID = .forNewObject(),
        type: CorrelationTypeIdentifier,
        start: Date,
        end: Date,
        objects: [Sample],
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: start, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        var seen = Set<UUID>()
        for (index, object) in objects.enumerated() {
            guard type.allows(object.sampleType) else {
                throw .invalidArgument(
                    "\(type.rawValue) cannot hold a \(object.sampleType.identifier) sample",
                    field: "objects[\(index)].type"
                )
            }
            guard seen.insert(object.uuid).inserted else {
                throw .invalidArgument("the same sample appears twice", field: "objects[\(index)].uuid")
            }
        }
        switch type {
        case .bloodPressure:
            let types = objects.map(\.sampleType)
            let systolic = types.filter { $0 == .quantity(.bloodPressureSystolic) }.count
            let diastolic = types.filter { $0 == .quantity(.bloodPressureDiastolic) }.count
            guard systolic == 1, diastolic == 1 else {
                throw .invalidArgument(
                    "a blood pressure needs exactly one systolic and one diastolic sample "
                        + "(got \(systolic) and \(diastolic))",
                    field: "objects"
                )
            }
        case .food:
            guard !objects.isEmpty else {
                throw .invalidArgument("a food needs at least one dietary sample", field: "objects")
            }
        }
        self.uuid = uuid
        self.correlationType = type
        self.objects = objects
        self.startDate = start
        self.endDate = end
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    public var sampleType: SampleType { .correlation(correlationType) }

    /// The members of one type.
    public func objects(for type: SampleType) -> [Sample] {
        objects.filter { $0.sampleType == type }
    }

    /// The correlation and its members attributed to another source.
    public func attributed(to sourceRevision: SourceRevision) -> Correlation {
        attributed(to: sourceRevision, members: { _ in sourceRevision })
    }

    /// The correlation attributed to `sourceRevision`, and each member to the revision `member`
    /// gives for it (an app's save: each member keeps its own version, product type and system
    /// version).
    public func attributed(
        to sourceRevision: SourceRevision,
        members member: (Sample) -> SourceRevision
    )
        -> Correlation
    {
        var copy = self
        copy.sourceRevision = sourceRevision
        copy.objects = objects.map { $0.attributed(to: member($0)) }
        return copy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SampleCodingKeys.self)
        let (uuid, start, end, source, device, metadata) = try container.decodeCommon()
        let type = try container.decode(CorrelationTypeIdentifier.self, forKey: .type)
        let objects = try container.decode([Member].self, forKey: .objects).map(\.sample)
        self = try validating(decoder) { () throws(HealthError) in
            try Correlation(
                uuid: uuid,
                type: type,
                start: start,
                end: end,
                objects: objects,
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
        }
    }

    /// A member as decoded: a correlation inside a correlation is refused before it is read,
    /// so hostile nesting cannot exhaust the stack.
    private struct Member: Decodable {
        let sample: Sample

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: SampleCodingKeys.self)
            if case .correlation = try container.decode(SampleType.self, forKey: .type) {
                throw HealthError.invalidArgument("a correlation cannot hold another correlation")
                    .field(at: decoder.codingPath + [SampleCodingKeys.type])
            }
            sample = try Sample(from: decoder)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SampleCodingKeys.self)
        try container.encodeCommon(self)
        try container.encode(objects, forKey: .objects)
    }
}
