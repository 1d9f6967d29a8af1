// This file lists facts from HealthKit (see docs/HEALTHKIT_MAPPING.md).

extension ObjectType {
    /// `HKSampleType.stateOfMindType().identifier`: the string value of HealthKit's constant
    /// `HKDataTypeIdentifierStateOfMind`, which differs from the constant's name.
    public static let stateOfMindTypeIdentifier = "HKDataTypeStateOfMind"
    /// `HKObjectType.electrocardiogramType().identifier`.
    public static let electrocardiogramTypeIdentifier = "HKDataTypeIdentifierElectrocardiogram"
    /// `HKObjectType.audiogramSampleType().identifier`.
    public static let audiogramTypeIdentifier = "HKDataTypeIdentifierAudiogram"
    /// `HKSeriesType.heartbeat().identifier` (`HKDataTypeIdentifierHeartbeatSeries`).
    public static let heartbeatSeriesTypeIdentifier = "HKDataTypeIdentifierHeartbeatSeries"
    /// `HKObjectType.visionPrescriptionType().identifier`.
    public static let visionPrescriptionTypeIdentifier = "HKVisionPrescriptionTypeIdentifier"

    /// The state of mind, scored assessment, electrocardiogram, audiogram or heartbeat series
    /// type with this identifier, if it is one.
    static func sampleKind(identifier: String) -> ObjectType? {
        switch identifier {
        case stateOfMindTypeIdentifier: .stateOfMind
        case electrocardiogramTypeIdentifier: .electrocardiogram
        case audiogramTypeIdentifier: .audiogram
        case heartbeatSeriesTypeIdentifier: .heartbeatSeries
        case visionPrescriptionTypeIdentifier: .visionPrescription
        default:
            ScoredAssessmentTypeIdentifier(rawValue: identifier).map(ObjectType.scoredAssessment)
                ?? DocumentTypeIdentifier(rawValue: identifier).map(ObjectType.document)
        }
    }

    /// Constant names people send in place of HealthKit's string values, with the string to send.
    static let misspelledIdentifiers = [
        "HKDataTypeIdentifierStateOfMind": stateOfMindTypeIdentifier,
        "HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent": CategoryTypeIdentifier
            .environmentalAudioExposureEvent.rawValue,
    ]

    /// "; HealthKit spells it ..." when `identifier` is a constant's name rather than its value.
    static func spellingHint(_ identifier: String) -> String {
        guard let spelling = misspelledIdentifiers[identifier] else { return "" }
        return " (that is the name of HealthKit's constant; its value, the identifier, is \"\(spelling)\")"
    }
}
