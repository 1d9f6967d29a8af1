// This file lists facts from HealthKit's public headers (see docs/HEALTHKIT_MAPPING.md).
/// Which enumeration a category type's values come from, and the raw values it allows.
public enum CategoryValueSet: String, Sendable, Hashable, CaseIterable {
    case notApplicable = "HKCategoryValue"
    case appetiteChanges = "HKCategoryValueAppetiteChanges"
    case appleStandHour = "HKCategoryValueAppleStandHour"
    case appleWalkingSteadinessEvent = "HKCategoryValueAppleWalkingSteadinessEvent"
    case cervicalMucusQuality = "HKCategoryValueCervicalMucusQuality"
    case contraceptive = "HKCategoryValueContraceptive"
    case environmentalAudioExposureEvent = "HKCategoryValueEnvironmentalAudioExposureEvent"
    case headphoneAudioExposureEvent = "HKCategoryValueHeadphoneAudioExposureEvent"
    case lowCardioFitnessEvent = "HKCategoryValueLowCardioFitnessEvent"
    case ovulationTestResult = "HKCategoryValueOvulationTestResult"
    case pregnancyTestResult = "HKCategoryValuePregnancyTestResult"
    case presence = "HKCategoryValuePresence"
    case progesteroneTestResult = "HKCategoryValueProgesteroneTestResult"
    case severity = "HKCategoryValueSeverity"
    case sleepAnalysis = "HKCategoryValueSleepAnalysis"
    case vaginalBleeding = "HKCategoryValueVaginalBleeding"
}

extension CategoryValueSet {
    /// The raw values a sample of this set may hold.
    public var allowedValues: [Int] {
        switch self {
        case .notApplicable: CategoryValue.allCases.map(\.rawValue)
        case .appetiteChanges: CategoryValueAppetiteChanges.allCases.map(\.rawValue)
        case .appleStandHour: CategoryValueAppleStandHour.allCases.map(\.rawValue)
        case .appleWalkingSteadinessEvent: CategoryValueAppleWalkingSteadinessEvent.allCases.map(\.rawValue)
        case .cervicalMucusQuality: CategoryValueCervicalMucusQuality.allCases.map(\.rawValue)
        case .contraceptive: CategoryValueContraceptive.allCases.map(\.rawValue)
        case .environmentalAudioExposureEvent: CategoryValueEnvironmentalAudioExposureEvent.allCases.map(\.rawValue)
        case .headphoneAudioExposureEvent: CategoryValueHeadphoneAudioExposureEvent.allCases.map(\.rawValue)
        case .lowCardioFitnessEvent: CategoryValueLowCardioFitnessEvent.allCases.map(\.rawValue)
        case .ovulationTestResult: CategoryValueOvulationTestResult.allCases.map(\.rawValue)
        case .pregnancyTestResult: CategoryValuePregnancyTestResult.allCases.map(\.rawValue)
        case .presence: CategoryValuePresence.allCases.map(\.rawValue)
        case .progesteroneTestResult: CategoryValueProgesteroneTestResult.allCases.map(\.rawValue)
        case .severity: CategoryValueSeverity.allCases.map(\.rawValue)
        case .sleepAnalysis: CategoryValueSleepAnalysis.allCases.map(\.rawValue)
        case .vaginalBleeding: CategoryValueVaginalBleeding.allCases.map(\.rawValue)
        }
    }

    /// The case name of a raw value (`asleepREM`), or nil when the set has no such value.
    public func caseName(of value: Int) -> String? {
        switch self {
        case .notApplicable: CategoryValue(rawValue: value).map { "\($0)" }
        case .appetiteChanges: CategoryValueAppetiteChanges(rawValue: value).map { "\($0)" }
        case .appleStandHour: CategoryValueAppleStandHour(rawValue: value).map { "\($0)" }
        case .appleWalkingSteadinessEvent: CategoryValueAppleWalkingSteadinessEvent(rawValue: value).map { "\($0)" }
        case .cervicalMucusQuality: CategoryValueCervicalMucusQuality(rawValue: value).map { "\($0)" }
        case .contraceptive: CategoryValueContraceptive(rawValue: value).map { "\($0)" }
        case .environmentalAudioExposureEvent:
            CategoryValueEnvironmentalAudioExposureEvent(rawValue: value).map { "\($0)" }
        case .headphoneAudioExposureEvent: CategoryValueHeadphoneAudioExposureEvent(rawValue: value).map { "\($0)" }
        case .lowCardioFitnessEvent: CategoryValueLowCardioFitnessEvent(rawValue: value).map { "\($0)" }
        case .ovulationTestResult: CategoryValueOvulationTestResult(rawValue: value).map { "\($0)" }
        case .pregnancyTestResult: CategoryValuePregnancyTestResult(rawValue: value).map { "\($0)" }
        case .presence: CategoryValuePresence(rawValue: value).map { "\($0)" }
        case .progesteroneTestResult: CategoryValueProgesteroneTestResult(rawValue: value).map { "\($0)" }
        case .severity: CategoryValueSeverity(rawValue: value).map { "\($0)" }
        case .sleepAnalysis: CategoryValueSleepAnalysis(rawValue: value).map { "\($0)" }
        case .vaginalBleeding: CategoryValueVaginalBleeding(rawValue: value).map { "\($0)" }
        }
    }

    /// The Objective-C constant of a raw value, the spelling Apple Health exports use.
    public func healthKitConstant(of value: Int) -> String? {
        switch self {
        case .notApplicable: CategoryValue(rawValue: value)?.healthKitConstant
        case .appetiteChanges: CategoryValueAppetiteChanges(rawValue: value)?.healthKitConstant
        case .appleStandHour: CategoryValueAppleStandHour(rawValue: value)?.healthKitConstant
        case .appleWalkingSteadinessEvent: CategoryValueAppleWalkingSteadinessEvent(rawValue: value)?.healthKitConstant
        case .cervicalMucusQuality: CategoryValueCervicalMucusQuality(rawValue: value)?.healthKitConstant
        case .contraceptive: CategoryValueContraceptive(rawValue: value)?.healthKitConstant
        case .environmentalAudioExposureEvent:
            CategoryValueEnvironmentalAudioExposureEvent(rawValue: value)?.healthKitConstant
        case .headphoneAudioExposureEvent: CategoryValueHeadphoneAudioExposureEvent(rawValue: value)?.healthKitConstant
        case .lowCardioFitnessEvent: CategoryValueLowCardioFitnessEvent(rawValue: value)?.healthKitConstant
        case .ovulationTestResult: CategoryValueOvulationTestResult(rawValue: value)?.healthKitConstant
        case .pregnancyTestResult: CategoryValuePregnancyTestResult(rawValue: value)?.healthKitConstant
        case .presence: CategoryValuePresence(rawValue: value)?.healthKitConstant
        case .progesteroneTestResult: CategoryValueProgesteroneTestResult(rawValue: value)?.healthKitConstant
        case .severity: CategoryValueSeverity(rawValue: value)?.healthKitConstant
        case .sleepAnalysis: CategoryValueSleepAnalysis(rawValue: value)?.healthKitConstant
        case .vaginalBleeding: CategoryValueVaginalBleeding(rawValue: value)?.healthKitConstant
        }
    }
}
