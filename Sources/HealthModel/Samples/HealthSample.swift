public import Foundation

/// What every sample has: an identity, a time span, where it came from, and metadata.
///
/// Concrete samples validate themselves on creation and on decoding, so a sample value that
/// exists is a valid one.
public protocol HealthSample: Hashable, Sendable, Codable {
    /// A random identifier, unique in the vault.
    var uuid: UUID { get }
    var sampleType: SampleType { get }
    var startDate: Date { get }
    var endDate: Date { get }
    var sourceRevision: SourceRevision { get }
    var device: Device? { get }
    var metadata: Metadata { get }

    /// The same sample attributed to another source: the vault stamps the authenticated app here.
    func attributed(to sourceRevision: SourceRevision) -> Self
}

extension HealthSample {
    /// The sample's duration in seconds.
    public var duration: TimeInterval { endDate.timeIntervalSince(startDate) }
}

/// The checks every sample shares: dates, source and metadata.
func validateCommon(
    startDate: Date,
    endDate: Date,
    sourceRevision: SourceRevision,
    metadata: Metadata,
    sampleUnit: HealthUnit? = nil
) throws(HealthError) {
    guard RFC3339.representableRange.contains(startDate) else {
        throw .invalidArgument("the start date is not between the years 0000 and 9999", field: "startDate")
    }
    guard RFC3339.representableRange.contains(endDate) else {
        throw .invalidArgument("the end date is not between the years 0000 and 9999", field: "endDate")
    }
    guard endDate >= startDate else {
        throw .invalidArgument("the end date is before the start date", field: "endDate")
    }
    try sourceRevision.validate()
    try metadata.validate(sampleUnit: sampleUnit)
}

/// The field names of every sample's JSON form.
enum SampleCodingKeys: String, CodingKey {
    case uuid, type, startDate, endDate, sourceRevision, device, metadata
    case quantity, value, objects, count
    case workoutActivityType, duration, totalEnergyBurned, totalDistance, workoutEvents, workoutActivities
    case allStatistics
}

extension KeyedDecodingContainer where K == SampleCodingKeys {
    /// Decodes the fields every sample has.
    func decodeCommon() throws -> (UUID, Date, Date, SourceRevision, Device?, Metadata) {
        (
            try decode(UUID.self, forKey: .uuid),
            try decode(Date.self, forKey: .startDate),
            try decode(Date.self, forKey: .endDate),
            try decode(SourceRevision.self, forKey: .sourceRevision),
            try decodeIfPresent(Device.self, forKey: .device),
            try decodeIfPresent(Metadata.self, forKey: .metadata) ?? [:]
        )
    }
}

extension KeyedEncodingContainer where K == SampleCodingKeys {
    /// Encodes the fields every sample has.
    mutating func encodeCommon(_ sample: some HealthSample) throws {
        try encode(sample.uuid, forKey: .uuid)
        try encode(sample.sampleType, forKey: .type)
        try encode(sample.startDate, forKey: .startDate)
        try encode(sample.endDate, forKey: .endDate)
        try encode(sample.sourceRevision, forKey: .sourceRevision)
        try encodeIfPresent(sample.device, forKey: .device)
        if !sample.metadata.isEmpty {
            try encode(sample.metadata, forKey: .metadata)
        }
    }
}
