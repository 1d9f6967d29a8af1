public import Foundation
public import HealthModel

/// A `<Record>`: one quantity or category sample as the export writes it, every attribute as
/// written (after entity references are decoded and characters XML forbids are removed), with
/// its metadata entries and heart-rate-variability readings; and its conversion to HealthModel.
public struct AppleHealthRecord: Sendable {
    /// `HKQuantityTypeIdentifierHeartRate`, `HKCategoryTypeIdentifierSleepAnalysis`, ...
    public var type: String
    /// The app or device that wrote it (`Jane’s Apple Watch`); exports carry no bundle identifier.
    public var sourceName: String
    public var sourceVersion: String?
    /// HealthKit's description of the `HKDevice` (`<<HKDevice: 0x…>, name:Apple Watch, …>`).
    public var device: String?
    /// The unit of a quantity record (`count/min`, `mg/dL`); absent for a category record.
    public var unit: String?
    public var creationDate: String?
    public var startDate: String
    public var endDate: String
    /// A quantity's number, or a category's value constant (`HKCategoryValueSleepAnalysisAsleepCore`).
    public var value: String?
    public var metadata: [AppleHealthMetadataEntry]
    /// A heart-rate-variability record's `<InstantaneousBeatsPerMinute bpm= time=>` readings.
    public var instantaneousBeatsPerMinute: [AppleHealthBeatsPerMinute]
    /// Attributes the reader does not know, as written (also counted in the diagnostics).
    public var otherAttributes: [AppleHealthAttribute]
    /// Where the element begins in the file.
    public var byteOffset: Int
    /// Required attributes the element lacks (the reader skips such a record).
    var missingAttributes: [String] = []
    /// The conversion, made once while reading when the reader validates.
    var prepared: PreparedSample?

    public init(
        type: String,
        sourceName: String,
        sourceVersion: String? = nil,
        device: String? = nil,
        unit: String? = nil,
        creationDate: String? = nil,
        startDate: String,
        endDate: String,
        value: String? = nil,
        metadata: [AppleHealthMetadataEntry] = [],
        instantaneousBeatsPerMinute: [AppleHealthBeatsPerMinute] = [],
        otherAttributes: [AppleHealthAttribute] = [],
        byteOffset: Int = 0
    ) {
        self.type = type
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.unit = unit
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.value = value
        self.metadata = metadata
        self.instantaneousBeatsPerMinute = instantaneousBeatsPerMinute
        self.otherAttributes = otherAttributes
        self.byteOffset = byteOffset
    }

    /// The record's identity: type, source name and version, device (without its address), unit,
    /// value (as a number when it is one), start and end (as instants). A member of a correlation
    /// has the identity of its copy at the top level.
    public var identity: AppleHealthIdentity {
        AppleHealthIdentity(
            element: "Record",
            fields: [
                type, sourceName, sourceVersion, AppleHealthIdentity.device(device), unit,
                AppleHealthIdentity.number(value), AppleHealthIdentity.date(startDate),
                AppleHealthIdentity.date(endDate),
            ]
        )
    }

    /// The HealthModel sample: a `QuantitySample` (the value in the record's unit) or a
    /// `CategorySample`, with the device read from the device string, the source revision made
    /// from `source` and the record's source version, and the metadata as HealthKit keys and
    /// kinds. Exports carry neither UUIDs nor bundle identifiers: the importer gives both.
    ///
    /// Throws `invalidArgument` naming the field HealthModel refuses (an unknown type, an
    /// incompatible unit, a value out of range, an end before the start). A metadata entry
    /// HealthModel refuses is left out rather than refusing the record (``conversionNotes()``).
    public func sample(uuid: UUID, source: Source) throws(HealthError) -> Sample {
        try preparedOrNew().sample.restamped(uuid: uuid, source: source)
    }

    /// What ``sample(uuid:source:)`` leaves out or changes, and why; empty when nothing.
    public func conversionNotes() -> [AppleHealthConversionNote] {
        (try? preparedOrNew())?.notes ?? []
    }

    func preparedOrNew() throws(HealthError) -> PreparedSample {
        if let prepared { return prepared }
        return try prepare()
    }

    /// The heart-rate-variability readings with their instants: each `time` is a local clock time
    /// (`7:35:22.12 PM`, `19:35:22.12`) read in the record's UTC offset on the day of its start,
    /// or the day before or after, whichever is nearest the start (a record that crosses
    /// midnight). Readings whose time or number cannot be read are left out.
    public func resolvedBeatsPerMinute() -> [AppleHealthResolvedBeatsPerMinute] {
        guard let start = AppleHealthDate(parsing: startDate) else { return [] }
        return instantaneousBeatsPerMinute.compactMap { reading in
            guard let bpm = ExportValues.number(reading.bpm), let time = ClockTime(parsing: reading.time) else {
                return nil
            }
            return AppleHealthResolvedBeatsPerMinute(date: time.resolved(near: start), beatsPerMinute: bpm)
        }
    }
}
