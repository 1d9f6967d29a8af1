public import Foundation

/// A sample whose value is one case of an enumeration (a sleep stage, a symptom's severity),
/// as HealthKit's `HKCategorySample`.
public struct CategorySample: HealthSample {
    public private(set) var uuid: UUID
    public let categoryType: CategoryTypeIdentifier
    /// The raw value of a case of the type's ``CategoryTypeIdentifier/valueSet``.
    public let value: Int
    public let startDate: Date
    public let endDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// Creates a sample, or throws `invalidArgument`: an end before the start, a value that is not
    /// one of the type's values, or bad metadata.
    public init(
        uuid: UUID = .forNewObject(),
        type: CategoryTypeIdentifier,
        value: Int,
        start: Date,
        end: Date,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: start, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        try type.validate(value: value, field: "value")
        self.uuid = uuid
        self.categoryType = type
        self.value = value
        self.startDate = start
        self.endDate = end
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    /// Creates a sample from a typed value (`CategoryValueSleepAnalysis.asleepREM`).
    public init<Value: HealthKitEnumeration>(
        uuid: UUID = .forNewObject(),
        type: CategoryTypeIdentifier,
        value: Value,
        start: Date,
        end: Date,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        guard Value.healthKitName == type.valueSet.rawValue else {
            throw .invalidArgument(
                "\(type.rawValue) takes values of \(type.valueSet.rawValue), not \(Value.healthKitName)",
                field: "value"
            )
        }
        try self.init(
            uuid: uuid,
            type: type,
            value: value.rawValue,
            start: start,
            end: end,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }

    public var sampleType: SampleType { .category(categoryType) }

    /// This sample under another UUID and source revision, checking only the revision: the rest
    /// was checked when it was made (an importer names a converted record this way).
    public func renamed(uuid: UUID, attributedTo sourceRevision: SourceRevision) throws(HealthError) -> CategorySample {
        try sourceRevision.validate()
        var copy = self
        copy.uuid = uuid
        copy.sourceRevision = sourceRevision
        return copy
    }

    public func attributed(to sourceRevision: SourceRevision) -> CategorySample {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SampleCodingKeys.self)
        let (uuid, start, end, source, device, metadata) = try container.decodeCommon()
        let type = try container.decode(CategoryTypeIdentifier.self, forKey: .type)
        let value = try container.decode(Int.self, forKey: .value)
        self = try validating(decoder) { () throws(HealthError) in
            try CategorySample(
                uuid: uuid,
                type: type,
                value: value,
                start: start,
                end: end,
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SampleCodingKeys.self)
        try container.encodeCommon(self)
        try container.encode(value, forKey: .value)
    }
}

extension CategoryTypeIdentifier {
    /// Checks that a raw value is one of this type's values.
    public func validate(value: Int, field: String) throws(HealthError) {
        guard valueSet.allowedValues.contains(value) else {
            throw .invalidArgument(
                "not a value of \(valueSet.rawValue), which \(rawValue) takes (allowed: "
                    + valueSet.allowedValues.map(String.init).joined(separator: ", ") + ")",
                field: field
            )
        }
    }
}
