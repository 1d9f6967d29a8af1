public import Foundation

/// An electrocardiogram, as HealthKit's `HKElectrocardiogram`: its classification, whether the
/// person felt symptoms, the average heart rate and the sampling frequency, and its voltage
/// measurements (lead I), each at a time since the sample's start.
///
/// The measurements are many (a 30-second ECG at 512 Hz has 15,360): a query answers an
/// electrocardiogram without them, with only ``numberOfVoltageMeasurements``, and they are read
/// in batches by an electrocardiogram query (``ElectrocardiogramQueryDescriptor``), as in
/// HealthKit. A save carries them.
public struct Electrocardiogram: HealthSample {
    public let uuid: UUID
    public let classification: Classification
    public let symptomsStatus: SymptomsStatus
    /// The average heart rate while it was recorded, in a unit compatible with `count/min`.
    public let averageHeartRate: Quantity?
    /// The frequency the voltage was sampled at, in a unit compatible with `Hz`.
    public let samplingFrequency: Quantity?
    /// How many voltage measurements the electrocardiogram holds.
    public let numberOfVoltageMeasurements: Int
    /// The measurements in time order, when this value carries them: a sample to save does; one
    /// a query answered does not (nil).
    public let voltageMeasurements: [VoltageMeasurement]?
    public let startDate: Date
    public let endDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// The most measurements one electrocardiogram holds: over three minutes at 512 Hz, and a
    /// save of that many still fits the daemon's default frame.
    public static let maximumVoltageMeasurements = 100_000
    /// The average heart rate's range, in `count/min`.
    public static let averageHeartRateRange: ClosedRange<Double> = 0...1000
    /// The highest sampling frequency, in `Hz` (it must be more than 0).
    public static let maximumSamplingFrequency = 100_000.0
    /// The range of a measured voltage, in `V`: a thousand times what a heart produces on the skin.
    public static let voltageRange: ClosedRange<Double> = -1...1

    /// Creates an electrocardiogram, or throws `invalidArgument` naming the field: an end before
    /// the start, a heart rate or frequency in the wrong unit or out of range, measurements that
    /// are not in time order, outside the sample's span, not all in one voltage unit, out of
    /// range or more than ``maximumVoltageMeasurements``, or a `numberOfVoltageMeasurements` that
    /// does not count them.
    ///
    /// - Parameters:
    ///   - voltageMeasurements: the measurements (required to save); nil for an electrocardiogram
    ///     read back without them, which then needs `numberOfVoltageMeasurements`.
    ///   - numberOfVoltageMeasurements: how many there are; nil to count `voltageMeasurements`.
    public init(
        uuid: UUID = .forNewObject(),
        start: Date,
        end: Date,
        classification: Classification = .notSet,
        symptomsStatus: SymptomsStatus = .notSet,
        averageHeartRate: Quantity? = nil,
        samplingFrequency: Quantity? = nil,
        voltageMeasurements: [VoltageMeasurement]?,
        numberOfVoltageMeasurements: Int? = nil,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: start, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        if let averageHeartRate {
            try HealthError.check(
                averageHeartRate,
                compatibleWith: .countPerMinute,
                in: Self.averageHeartRateRange,
                field: "averageHeartRate"
            )
        }
        if let samplingFrequency {
            try HealthError.check(
                samplingFrequency,
                compatibleWith: .hertz,
                in: 0...Self.maximumSamplingFrequency,
                field: "samplingFrequency"
            )
            guard samplingFrequency.value != 0 else {
                throw .invalidArgument(
                    "the sampling frequency must be more than 0 Hz",
                    field: "samplingFrequency.value"
                )
            }
        }
        let count: Int
        if let voltageMeasurements {
            try Self.validate(voltageMeasurements, span: end.timeIntervalSince(start))
            if let numberOfVoltageMeasurements, numberOfVoltageMeasurements != voltageMeasurements.count {
                throw .invalidArgument(
                    "numberOfVoltageMeasurements must count the voltage measurements given",
                    field: "numberOfVoltageMeasurements"
                )
            }
            count = voltageMeasurements.count
        } else {
            guard let numberOfVoltageMeasurements else {
                throw .invalidArgument(
                    "an electrocardiogram needs its voltageMeasurements, or their number",
                    field: "voltageMeasurements"
                )
            }
            guard (0...Self.maximumVoltageMeasurements).contains(numberOfVoltageMeasurements) else {
                throw .invalidArgument(
                    "an electrocardiogram holds 0 to \(Self.maximumVoltageMeasurements) voltage measurements",
                    field: "numberOfVoltageMeasurements"
                )
            }
            count = numberOfVoltageMeasurements
        }
        self.uuid = uuid
        self.classification = classification
        self.symptomsStatus = symptomsStatus
        self.averageHeartRate = averageHeartRate
        self.samplingFrequency = samplingFrequency
        self.numberOfVoltageMeasurements = count
        self.voltageMeasurements = voltageMeasurements
        self.startDate = start
        self.endDate = end
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    /// Checks measurements: 1 to ``maximumVoltageMeasurements`` of them, each time a finite
    /// number of seconds from 0 to the sample's span (a millisecond of slack for rounding by
    /// other systems) and later than the one before, and every voltage in one unit compatible
    /// with `V`, finite, inside ``voltageRange``.
    static func validate(_ measurements: [VoltageMeasurement], span: TimeInterval) throws(HealthError) {
        guard !measurements.isEmpty else {
            throw .invalidArgument(
                "an electrocardiogram needs at least one voltage measurement",
                field: "voltageMeasurements"
            )
        }
        guard measurements.count <= maximumVoltageMeasurements else {
            throw .invalidArgument(
                "an electrocardiogram holds at most \(maximumVoltageMeasurements) voltage measurements",
                field: "voltageMeasurements"
            )
        }
        let unit = measurements[0].leadI.unit
        guard unit.isCompatible(with: .volt) else {
            throw .invalidArgument(
                "unit \(unit) is not compatible with V",
                field: "voltageMeasurements[0].leadI.unit"
            )
        }
        // The range in the measurements' own unit, so each is checked without a conversion.
        let low = try Quantity(voltageRange.lowerBound, .volt).doubleValue(for: unit)
        let high = try Quantity(voltageRange.upperBound, .volt).doubleValue(for: unit)
        var previous = -Double.infinity
        for (index, measurement) in measurements.enumerated() {
            let time = measurement.timeSinceSampleStart
            guard time.isFinite, time >= 0, time <= span + 0.001 else {
                throw .invalidArgument(
                    "a measurement's timeSinceSampleStart must be from 0 to the sample's duration, in seconds",
                    field: "voltageMeasurements[\(index)].timeSinceSampleStart"
                )
            }
            guard time > previous else {
                throw .invalidArgument(
                    "measurements must be in time order, each later than the one before",
                    field: "voltageMeasurements[\(index)].timeSinceSampleStart"
                )
            }
            previous = time
            let voltage = measurement.leadI
            guard voltage.unit == unit else {
                throw .invalidArgument(
                    "every measurement of one electrocardiogram is in the same unit (the first is \(unit))",
                    field: "voltageMeasurements[\(index)].leadI.unit"
                )
            }
            guard voltage.value.isFinite, voltage.value >= min(low, high), voltage.value <= max(low, high) else {
                throw .invalidArgument(
                    "a voltage must be a finite number from -1 to 1 V",
                    field: "voltageMeasurements[\(index)].leadI.value"
                )
            }
        }
    }

    public var sampleType: SampleType { .electrocardiogram }

    /// The electrocardiogram as a query answers it: without its voltage measurements.
    public var withoutVoltageMeasurements: Electrocardiogram { Electrocardiogram(copying: self) }

    private init(copying other: Electrocardiogram) {
        uuid = other.uuid
        classification = other.classification
        symptomsStatus = other.symptomsStatus
        averageHeartRate = other.averageHeartRate
        samplingFrequency = other.samplingFrequency
        numberOfVoltageMeasurements = other.numberOfVoltageMeasurements
        voltageMeasurements = nil
        startDate = other.startDate
        endDate = other.endDate
        sourceRevision = other.sourceRevision
        device = other.device
        metadata = other.metadata
    }

    public func attributed(to sourceRevision: SourceRevision) -> Electrocardiogram {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    private enum CodingKeys: String, CodingKey {
        case classification, symptomsStatus, averageHeartRate, samplingFrequency
        case numberOfVoltageMeasurements, voltageMeasurements
    }

    public init(from decoder: any Decoder) throws {
        let common = try decoder.container(keyedBy: SampleCodingKeys.self)
        guard try common.decode(SampleType.self, forKey: .type) == .electrocardiogram else {
            throw HealthError.invalidArgument("expected \(ObjectType.electrocardiogramTypeIdentifier)")
                .field(at: decoder.codingPath + [SampleCodingKeys.type])
        }
        let (uuid, start, end, source, device, metadata) = try common.decodeCommon()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let classification = try container.decodeIfPresent(Classification.self, forKey: .classification) ?? .notSet
        let symptoms = try container.decodeIfPresent(SymptomsStatus.self, forKey: .symptomsStatus) ?? .notSet
        let heartRate = try container.decodeIfPresent(Quantity.self, forKey: .averageHeartRate)
        let frequency = try container.decodeIfPresent(Quantity.self, forKey: .samplingFrequency)
        let count = try container.decodeIfPresent(Int.self, forKey: .numberOfVoltageMeasurements)
        let measurements = try container.decodeIfPresent([VoltageMeasurement].self, forKey: .voltageMeasurements)
        self = try validating(decoder) { () throws(HealthError) in
            try Electrocardiogram(
                uuid: uuid,
                start: start,
                end: end,
                classification: classification,
                symptomsStatus: symptoms,
                averageHeartRate: heartRate,
                samplingFrequency: frequency,
                voltageMeasurements: measurements,
                numberOfVoltageMeasurements: count,
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var common = encoder.container(keyedBy: SampleCodingKeys.self)
        try common.encodeCommon(self)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(classification, forKey: .classification)
        try container.encode(symptomsStatus, forKey: .symptomsStatus)
        try container.encodeIfPresent(averageHeartRate, forKey: .averageHeartRate)
        try container.encodeIfPresent(samplingFrequency, forKey: .samplingFrequency)
        try container.encode(numberOfVoltageMeasurements, forKey: .numberOfVoltageMeasurements)
        try container.encodeIfPresent(voltageMeasurements, forKey: .voltageMeasurements)
    }
}

extension Electrocardiogram {
    /// The voltage of every lead at one moment (`HKElectrocardiogram.VoltageMeasurement`).
    ///
    /// JSON: `{"timeSinceSampleStart": 0.001953125, "leadI": {"unit": "mcV", "value": 112.5}}`.
    public struct VoltageMeasurement: Hashable, Sendable, Codable {
        /// Seconds since the electrocardiogram's start.
        public let timeSinceSampleStart: TimeInterval
        /// The voltage of lead I (HealthKit's `appleWatchSimilarToLeadI`), in a unit compatible
        /// with `V`.
        public let leadI: Quantity

        public init(timeSinceSampleStart: TimeInterval, leadI: Quantity) {
            self.timeSinceSampleStart = timeSinceSampleStart
            self.leadI = leadI
        }

        /// The voltage of a lead (HealthKit's `quantity(for:)`): lead I is the only one.
        public func quantity(for lead: Lead) -> Quantity? {
            switch lead {
            case .appleWatchSimilarToLeadI: leadI
            }
        }
    }

    /// The lead a voltage was measured on (`HKElectrocardiogram.Lead`).
    public enum Lead: Int, HealthKitEnumeration {
        /// Lead I, as a watch's electrical heart sensor records a signal similar to it.
        case appleWatchSimilarToLeadI = 1

        public static let healthKitName = "HKElectrocardiogramLead"
        public var healthKitConstant: String { constantFromCaseName }
    }

    /// The classification the recording device gave (`HKElectrocardiogram.Classification`).
    public enum Classification: Int, HealthKitEnumeration {
        case notSet = 0
        case sinusRhythm = 1
        case atrialFibrillation = 2
        case inconclusiveLowHeartRate = 3
        case inconclusiveHighHeartRate = 4
        case inconclusivePoorReading = 5
        case inconclusiveOther = 6
        case unrecognized = 100

        public static let healthKitName = "HKElectrocardiogramClassification"
        public var healthKitConstant: String { constantFromCaseName }
    }

    /// Whether the person felt symptoms while it was recorded (`HKElectrocardiogram.SymptomsStatus`).
    public enum SymptomsStatus: Int, HealthKitEnumeration {
        case notSet = 0
        case none = 1
        case present = 2

        public static let healthKitName = "HKElectrocardiogramSymptomsStatus"
        public var healthKitConstant: String { constantFromCaseName }
    }
}
