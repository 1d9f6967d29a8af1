// This file lists facts from HealthKit's public headers (see docs/HEALTHKIT_MAPPING.md).

/// The values of a category sample whose type uses `HKCategoryValue`.
public enum CategoryValue: Int, HealthKitEnumeration {
    case notApplicable = 0
}

extension CategoryValue {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValue"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .notApplicable: "HKCategoryValueNotApplicable"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueAppetiteChanges`.
public enum CategoryValueAppetiteChanges: Int, HealthKitEnumeration {
    case unspecified = 0
    case noChange = 1
    case decreased = 2
    case increased = 3
}

extension CategoryValueAppetiteChanges {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueAppetiteChanges"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .unspecified: "HKCategoryValueAppetiteChangesUnspecified"
        case .noChange: "HKCategoryValueAppetiteChangesNoChange"
        case .decreased: "HKCategoryValueAppetiteChangesDecreased"
        case .increased: "HKCategoryValueAppetiteChangesIncreased"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueAppleStandHour`.
public enum CategoryValueAppleStandHour: Int, HealthKitEnumeration {
    case stood = 0
    case idle = 1
}

extension CategoryValueAppleStandHour {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueAppleStandHour"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .stood: "HKCategoryValueAppleStandHourStood"
        case .idle: "HKCategoryValueAppleStandHourIdle"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueAppleWalkingSteadinessEvent`.
public enum CategoryValueAppleWalkingSteadinessEvent: Int, HealthKitEnumeration {
    case initialLow = 1
    case initialVeryLow = 2
    case repeatLow = 3
    case repeatVeryLow = 4
}

extension CategoryValueAppleWalkingSteadinessEvent {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueAppleWalkingSteadinessEvent"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .initialLow: "HKCategoryValueAppleWalkingSteadinessEventInitialLow"
        case .initialVeryLow: "HKCategoryValueAppleWalkingSteadinessEventInitialVeryLow"
        case .repeatLow: "HKCategoryValueAppleWalkingSteadinessEventRepeatLow"
        case .repeatVeryLow: "HKCategoryValueAppleWalkingSteadinessEventRepeatVeryLow"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueCervicalMucusQuality`.
public enum CategoryValueCervicalMucusQuality: Int, HealthKitEnumeration {
    case dry = 1
    case sticky = 2
    case creamy = 3
    case watery = 4
    case eggWhite = 5
}

extension CategoryValueCervicalMucusQuality {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueCervicalMucusQuality"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .dry: "HKCategoryValueCervicalMucusQualityDry"
        case .sticky: "HKCategoryValueCervicalMucusQualitySticky"
        case .creamy: "HKCategoryValueCervicalMucusQualityCreamy"
        case .watery: "HKCategoryValueCervicalMucusQualityWatery"
        case .eggWhite: "HKCategoryValueCervicalMucusQualityEggWhite"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueContraceptive`.
public enum CategoryValueContraceptive: Int, HealthKitEnumeration {
    case unspecified = 1
    case implant = 2
    case injection = 3
    case intrauterineDevice = 4
    case intravaginalRing = 5
    case oral = 6
    case patch = 7
}

extension CategoryValueContraceptive {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueContraceptive"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .unspecified: "HKCategoryValueContraceptiveUnspecified"
        case .implant: "HKCategoryValueContraceptiveImplant"
        case .injection: "HKCategoryValueContraceptiveInjection"
        case .intrauterineDevice: "HKCategoryValueContraceptiveIntrauterineDevice"
        case .intravaginalRing: "HKCategoryValueContraceptiveIntravaginalRing"
        case .oral: "HKCategoryValueContraceptiveOral"
        case .patch: "HKCategoryValueContraceptivePatch"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueEnvironmentalAudioExposureEvent`.
public enum CategoryValueEnvironmentalAudioExposureEvent: Int, HealthKitEnumeration {
    case momentaryLimit = 1
}

extension CategoryValueEnvironmentalAudioExposureEvent {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueEnvironmentalAudioExposureEvent"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .momentaryLimit: "HKCategoryValueEnvironmentalAudioExposureEventMomentaryLimit"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueHeadphoneAudioExposureEvent`.
public enum CategoryValueHeadphoneAudioExposureEvent: Int, HealthKitEnumeration {
    case sevenDayLimit = 1
}

extension CategoryValueHeadphoneAudioExposureEvent {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueHeadphoneAudioExposureEvent"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .sevenDayLimit: "HKCategoryValueHeadphoneAudioExposureEventSevenDayLimit"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueLowCardioFitnessEvent`.
public enum CategoryValueLowCardioFitnessEvent: Int, HealthKitEnumeration {
    case lowFitness = 1
}

extension CategoryValueLowCardioFitnessEvent {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueLowCardioFitnessEvent"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .lowFitness: "HKCategoryValueLowCardioFitnessEventLowFitness"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueMenstrualFlow`.
public enum CategoryValueMenstrualFlow: Int, HealthKitEnumeration {
    case unspecified = 1
    case light = 2
    case medium = 3
    case heavy = 4
    case none = 5
}

extension CategoryValueMenstrualFlow {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueMenstrualFlow"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .unspecified: "HKCategoryValueMenstrualFlowUnspecified"
        case .light: "HKCategoryValueMenstrualFlowLight"
        case .medium: "HKCategoryValueMenstrualFlowMedium"
        case .heavy: "HKCategoryValueMenstrualFlowHeavy"
        case .none: "HKCategoryValueMenstrualFlowNone"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueOvulationTestResult`.
public enum CategoryValueOvulationTestResult: Int, HealthKitEnumeration {
    case negative = 1
    case luteinizingHormoneSurge = 2
    case indeterminate = 3
    case estrogenSurge = 4
}

extension CategoryValueOvulationTestResult {
    /// Deprecated HealthKit alias of ``luteinizingHormoneSurge``.
    public static let positive = CategoryValueOvulationTestResult.luteinizingHormoneSurge

    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueOvulationTestResult"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .negative: "HKCategoryValueOvulationTestResultNegative"
        case .luteinizingHormoneSurge: "HKCategoryValueOvulationTestResultLuteinizingHormoneSurge"
        case .indeterminate: "HKCategoryValueOvulationTestResultIndeterminate"
        case .estrogenSurge: "HKCategoryValueOvulationTestResultEstrogenSurge"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValuePregnancyTestResult`.
public enum CategoryValuePregnancyTestResult: Int, HealthKitEnumeration {
    case negative = 1
    case positive = 2
    case indeterminate = 3
}

extension CategoryValuePregnancyTestResult {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValuePregnancyTestResult"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .negative: "HKCategoryValuePregnancyTestResultNegative"
        case .positive: "HKCategoryValuePregnancyTestResultPositive"
        case .indeterminate: "HKCategoryValuePregnancyTestResultIndeterminate"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValuePresence`.
public enum CategoryValuePresence: Int, HealthKitEnumeration {
    case present = 0
    case notPresent = 1
}

extension CategoryValuePresence {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValuePresence"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .present: "HKCategoryValuePresencePresent"
        case .notPresent: "HKCategoryValuePresenceNotPresent"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueProgesteroneTestResult`.
public enum CategoryValueProgesteroneTestResult: Int, HealthKitEnumeration {
    case negative = 1
    case positive = 2
    case indeterminate = 3
}

extension CategoryValueProgesteroneTestResult {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueProgesteroneTestResult"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .negative: "HKCategoryValueProgesteroneTestResultNegative"
        case .positive: "HKCategoryValueProgesteroneTestResultPositive"
        case .indeterminate: "HKCategoryValueProgesteroneTestResultIndeterminate"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueSeverity`.
public enum CategoryValueSeverity: Int, HealthKitEnumeration {
    case unspecified = 0
    case notPresent = 1
    case mild = 2
    case moderate = 3
    case severe = 4
}

extension CategoryValueSeverity {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueSeverity"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .unspecified: "HKCategoryValueSeverityUnspecified"
        case .notPresent: "HKCategoryValueSeverityNotPresent"
        case .mild: "HKCategoryValueSeverityMild"
        case .moderate: "HKCategoryValueSeverityModerate"
        case .severe: "HKCategoryValueSeveritySevere"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueSleepAnalysis`.
public enum CategoryValueSleepAnalysis: Int, HealthKitEnumeration {
    case inBed = 0
    case asleepUnspecified = 1
    case awake = 2
    case asleepCore = 3
    case asleepDeep = 4
    case asleepREM = 5
}

extension CategoryValueSleepAnalysis {
    /// Deprecated HealthKit alias of ``asleepUnspecified``.
    public static let asleep = CategoryValueSleepAnalysis.asleepUnspecified

    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueSleepAnalysis"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .inBed: "HKCategoryValueSleepAnalysisInBed"
        case .asleepUnspecified: "HKCategoryValueSleepAnalysisAsleepUnspecified"
        case .awake: "HKCategoryValueSleepAnalysisAwake"
        case .asleepCore: "HKCategoryValueSleepAnalysisAsleepCore"
        case .asleepDeep: "HKCategoryValueSleepAnalysisAsleepDeep"
        case .asleepREM: "HKCategoryValueSleepAnalysisAsleepREM"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueVaginalBleeding`.
public enum CategoryValueVaginalBleeding: Int, HealthKitEnumeration {
    case unspecified = 1
    case light = 2
    case medium = 3
    case heavy = 4
    case none = 5
}

extension CategoryValueVaginalBleeding {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueVaginalBleeding"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .unspecified: "HKCategoryValueVaginalBleedingUnspecified"
        case .light: "HKCategoryValueVaginalBleedingLight"
        case .medium: "HKCategoryValueVaginalBleedingMedium"
        case .heavy: "HKCategoryValueVaginalBleedingHeavy"
        case .none: "HKCategoryValueVaginalBleedingNone"
        }
    }
}

/// The values of a category sample whose type uses `HKCategoryValueAudioExposureEvent`.
public enum CategoryValueAudioExposureEvent: Int, HealthKitEnumeration {
    case loudEnvironment = 1
}

extension CategoryValueAudioExposureEvent {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCategoryValueAudioExposureEvent"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .loudEnvironment: "HKCategoryValueAudioExposureEventLoudEnvironment"
        }
    }
}
