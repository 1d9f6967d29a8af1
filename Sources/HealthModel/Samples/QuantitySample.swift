public import Foundation

/// A measured amount over a time span (steps, body mass, heart rate), as HealthKit's `HKQuantitySample`.
///
/// A sample built by a quantity series builder holds more than one quantity (``count`` > 1, as
/// HealthKit's): its ``quantity`` is then their sum for a cumulative type and their average for a
/// discrete one, which also keeps their minimum, maximum and most recent (HealthKit's
/// `HKDiscreteQuantitySample`); the quantities themselves are read with a quantity series query.
public struct QuantitySample: HealthSample {
    public private(set) var uuid: UUID
    public let quantityType: QuantityTypeIdentifier
    public let quantity: Quantity
    public let startDate: Date
    public let endDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata
    /// How many quantities the sample holds (HealthKit's `HKQuantitySample.count`): 1, or more for
    /// a series.
    public let count: Int
    /// A discrete series' minimum, maximum and most recent quantity; nil for one quantity and for
    /// a cumulative type.
    public var discreteSummary: DiscreteSummary? { summary?.value }
    /// It, behind one reference (``Shared``): 64 bytes inline, in every sample, most with none.
    private let summary: Shared<DiscreteSummary>?
    /// The series' quantities, when this value carries them: only a series the engine's builder
    /// finishes does, to store them; never in JSON, never in an answer.
    public let seriesQuantities: [SeriesQuantity]?

    /// Creates a sample, or throws `invalidArgument` naming the field that is wrong: an end before
    /// the start, a unit the type does not accept, a value that is not finite or outside the
    /// type's domain, or bad metadata.
    public init(
        uuid: UUID = .forNewObject(),
        type: QuantityTypeIdentifier,
        quantity: Quantity,
        start: Date,
        end: Date,
        count: Int = 1,
        discreteSummary: DiscreteSummary? = nil,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try self.init(
            uuid: uuid,
            type: type,
            quantity: quantity,
            start: start,
            end: end,
            count: count,
            discreteSummary: discreteSummary,
            seriesQuantities: nil,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }

    init(
        uuid: UUID,
        type: QuantityTypeIdentifier,
        quantity: Quantity,
        start: Date,
        end: Date,
        count: Int,
        discreteSummary: DiscreteSummary?,
        seriesQuantities: [SeriesQuantity]?,
        sourceRevision: SourceRevision,
        device: Device?,
        metadata: Metadata
    ) throws(HealthError) {
        try validateCommon(
            startDate: start,
            endDate: end,
            sourceRevision: sourceRevision,
            metadata: metadata,
            sampleUnit: quantity.unit
        )
        try type.validate(quantity, field: "quantity")
        try Self.validate(
            count: count,
            discreteSummary: discreteSummary,
            type: type,
            span: DateInterval(start: start, end: end)
        )
        self.uuid = uuid
        self.quantityType = type
        self.quantity = quantity
        self.startDate = start
        self.endDate = end
        self.count = count
        self.summary = discreteSummary.map(Shared.init)
        self.seriesQuantities = seriesQuantities
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    public var sampleType: SampleType { .quantity(quantityType) }

    /// This sample under another UUID and source revision, checking only the revision: the rest
    /// was checked when it was made (an importer names a converted record this way).
    public func renamed(uuid: UUID, attributedTo sourceRevision: SourceRevision) throws(HealthError) -> QuantitySample {
        try sourceRevision.validate()
        var copy = self
        copy.uuid = uuid
        copy.sourceRevision = sourceRevision
        return copy
    }

    public func attributed(to sourceRevision: SourceRevision) -> QuantitySample {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SampleCodingKeys.self)
        let (uuid, start, end, source, device, metadata) = try container.decodeCommon()
        let type = try container.decode(QuantityTypeIdentifier.self, forKey: .type)
        let quantity = try container.decode(Quantity.self, forKey: .quantity)
        let count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 1
        let summary = try DiscreteSummary.decode(from: decoder)
        self = try validating(decoder) { () throws(HealthError) in
            try QuantitySample(
                uuid: uuid,
                type: type,
                quantity: quantity,
                start: start,
                end: end,
                count: count,
                discreteSummary: summary,
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SampleCodingKeys.self)
        try container.encodeCommon(self)
        try container.encode(quantity, forKey: .quantity)
        if count != 1 {
            try container.encode(count, forKey: .count)
        }
        try discreteSummary?.encode(to: encoder)
    }
}

extension QuantityTypeIdentifier {
    /// Whether a quantity in this unit can be a value of this type.
    public func isCompatible(with unit: HealthUnit) -> Bool {
        unit.isCompatible(with: canonicalUnit)
    }

    /// Checks a quantity against this type: a compatible unit, a finite value, inside the domain.
    public func validate(_ quantity: Quantity, field: String) throws(HealthError) {
        guard quantity.value.isFinite else {
            throw .invalidArgument("the value must be a finite number", field: field + ".value")
        }
        let (canonicalUnit, domain) = canonicalUnitAndDomain
        guard quantity.unit.isCompatible(with: canonicalUnit) else {
            throw .invalidArgument(
                "unit \(quantity.unit) is not compatible with \(rawValue) (canonical unit \(canonicalUnit))",
                field: field + ".unit"
            )
        }
        let canonical: Double
        do {
            canonical = try quantity.doubleValue(for: canonicalUnit)
        } catch {
            throw .invalidArgument("the value cannot be expressed in \(canonicalUnit)", field: field + ".value")
        }
        guard domain.contains(canonical) else {
            throw .invalidArgument(
                "the value is outside the range \(rawValue) allows (\(Self.describe(domain)) \(canonicalUnit))",
                field: field + ".value"
            )
        }
    }

    private static func describe(_ domain: ClosedRange<Double>) -> String {
        switch (
            domain.lowerBound.isFinite && domain.lowerBound > -.greatestFiniteMagnitude,
            domain.upperBound < .greatestFiniteMagnitude
        )
        {
        case (true, true): "\(domain.lowerBound) to \(domain.upperBound)"
        case (true, false): "at least \(domain.lowerBound)"
        case (false, true): "at most \(domain.upperBound)"
        case (false, false): "any finite value"
        }
    }
}
