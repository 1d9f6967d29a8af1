public import Foundation

/// A measured amount over a time span (steps, body mass, heart rate), as HealthKit's `HKQuantitySample`.
public struct QuantitySample: HealthSample {
    public let uuid: UUID
    public let quantityType: QuantityTypeIdentifier
    public let quantity: Quantity
    public let startDate: Date
    public let endDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// Creates a sample, or throws `invalidArgument` naming the field that is wrong: an end before
    /// the start, a unit the type does not accept, a value that is not finite or outside the
    /// type's domain, or bad metadata.
    public init(
        uuid: UUID = UUID(),
        type: QuantityTypeIdentifier,
        quantity: Quantity,
        start: Date,
        end: Date,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(
            startDate: start,
            endDate: end,
            sourceRevision: sourceRevision,
            metadata: metadata,
            sampleUnit: quantity.unit
        )
        try type.validate(quantity, field: "quantity")
        self.uuid = uuid
        self.quantityType = type
        self.quantity = quantity
        self.startDate = start
        self.endDate = end
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    public var sampleType: SampleType { .quantity(quantityType) }

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
        self = try validating(decoder) { () throws(HealthError) in
            try QuantitySample(
                uuid: uuid,
                type: type,
                quantity: quantity,
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
        try container.encode(quantity, forKey: .quantity)
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
        guard isCompatible(with: quantity.unit) else {
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
        let domain = valueDomain
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
