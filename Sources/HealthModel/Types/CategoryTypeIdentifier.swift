// This file lists facts from HealthKit's public headers (see docs/HEALTHKIT_MAPPING.md).
/// The identifier of a category type: a kind of sample whose value is one case of an enumeration.
///
/// The raw value is HealthKit's own string. Note HealthKit's one quirk: the constant
/// `HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent` has the string value
/// `HKCategoryTypeIdentifierAudioExposureEvent`.
public enum CategoryTypeIdentifier: String, HealthKitIdentifier {

    // MARK: Fitness

    case appleStandHour = "HKCategoryTypeIdentifierAppleStandHour"

    // MARK: Hearing Health

    case environmentalAudioExposureEvent = "HKCategoryTypeIdentifierAudioExposureEvent"
    case headphoneAudioExposureEvent = "HKCategoryTypeIdentifierHeadphoneAudioExposureEvent"

    // MARK: Heart

    case highHeartRateEvent = "HKCategoryTypeIdentifierHighHeartRateEvent"
    case irregularHeartRhythmEvent = "HKCategoryTypeIdentifierIrregularHeartRhythmEvent"
    case lowCardioFitnessEvent = "HKCategoryTypeIdentifierLowCardioFitnessEvent"
    case lowHeartRateEvent = "HKCategoryTypeIdentifierLowHeartRateEvent"

    // MARK: Mindfulness

    case mindfulSession = "HKCategoryTypeIdentifierMindfulSession"

    // MARK: Mobility

    case appleWalkingSteadinessEvent = "HKCategoryTypeIdentifierAppleWalkingSteadinessEvent"

    // MARK: Other

    case handwashingEvent = "HKCategoryTypeIdentifierHandwashingEvent"
    case toothbrushingEvent = "HKCategoryTypeIdentifierToothbrushingEvent"

    // MARK: Reproductive Health

    case bleedingAfterPregnancy = "HKCategoryTypeIdentifierBleedingAfterPregnancy"
    case bleedingDuringPregnancy = "HKCategoryTypeIdentifierBleedingDuringPregnancy"
    case cervicalMucusQuality = "HKCategoryTypeIdentifierCervicalMucusQuality"
    case contraceptive = "HKCategoryTypeIdentifierContraceptive"
    case infrequentMenstrualCycles = "HKCategoryTypeIdentifierInfrequentMenstrualCycles"
    case intermenstrualBleeding = "HKCategoryTypeIdentifierIntermenstrualBleeding"
    case irregularMenstrualCycles = "HKCategoryTypeIdentifierIrregularMenstrualCycles"
    case lactation = "HKCategoryTypeIdentifierLactation"
    case menstrualFlow = "HKCategoryTypeIdentifierMenstrualFlow"
    case ovulationTestResult = "HKCategoryTypeIdentifierOvulationTestResult"
    case persistentIntermenstrualBleeding = "HKCategoryTypeIdentifierPersistentIntermenstrualBleeding"
    case pregnancy = "HKCategoryTypeIdentifierPregnancy"
    case pregnancyTestResult = "HKCategoryTypeIdentifierPregnancyTestResult"
    case progesteroneTestResult = "HKCategoryTypeIdentifierProgesteroneTestResult"
    case prolongedMenstrualPeriods = "HKCategoryTypeIdentifierProlongedMenstrualPeriods"
    case sexualActivity = "HKCategoryTypeIdentifierSexualActivity"

    // MARK: Respiratory

    case sleepApneaEvent = "HKCategoryTypeIdentifierSleepApneaEvent"

    // MARK: Sleep

    case sleepAnalysis = "HKCategoryTypeIdentifierSleepAnalysis"

    // MARK: Symptoms

    case abdominalCramps = "HKCategoryTypeIdentifierAbdominalCramps"
    case acne = "HKCategoryTypeIdentifierAcne"
    case appetiteChanges = "HKCategoryTypeIdentifierAppetiteChanges"
    case bladderIncontinence = "HKCategoryTypeIdentifierBladderIncontinence"
    case bloating = "HKCategoryTypeIdentifierBloating"
    case breastPain = "HKCategoryTypeIdentifierBreastPain"
    case chestTightnessOrPain = "HKCategoryTypeIdentifierChestTightnessOrPain"
    case chills = "HKCategoryTypeIdentifierChills"
    case constipation = "HKCategoryTypeIdentifierConstipation"
    case coughing = "HKCategoryTypeIdentifierCoughing"
    case diarrhea = "HKCategoryTypeIdentifierDiarrhea"
    case dizziness = "HKCategoryTypeIdentifierDizziness"
    case drySkin = "HKCategoryTypeIdentifierDrySkin"
    case fainting = "HKCategoryTypeIdentifierFainting"
    case fatigue = "HKCategoryTypeIdentifierFatigue"
    case fever = "HKCategoryTypeIdentifierFever"
    case generalizedBodyAche = "HKCategoryTypeIdentifierGeneralizedBodyAche"
    case hairLoss = "HKCategoryTypeIdentifierHairLoss"
    case headache = "HKCategoryTypeIdentifierHeadache"
    case heartburn = "HKCategoryTypeIdentifierHeartburn"
    case hotFlashes = "HKCategoryTypeIdentifierHotFlashes"
    case lossOfSmell = "HKCategoryTypeIdentifierLossOfSmell"
    case lossOfTaste = "HKCategoryTypeIdentifierLossOfTaste"
    case lowerBackPain = "HKCategoryTypeIdentifierLowerBackPain"
    case memoryLapse = "HKCategoryTypeIdentifierMemoryLapse"
    case moodChanges = "HKCategoryTypeIdentifierMoodChanges"
    case nausea = "HKCategoryTypeIdentifierNausea"
    case nightSweats = "HKCategoryTypeIdentifierNightSweats"
    case pelvicPain = "HKCategoryTypeIdentifierPelvicPain"
    case rapidPoundingOrFlutteringHeartbeat = "HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat"
    case runnyNose = "HKCategoryTypeIdentifierRunnyNose"
    case shortnessOfBreath = "HKCategoryTypeIdentifierShortnessOfBreath"
    case sinusCongestion = "HKCategoryTypeIdentifierSinusCongestion"
    case skippedHeartbeat = "HKCategoryTypeIdentifierSkippedHeartbeat"
    case sleepChanges = "HKCategoryTypeIdentifierSleepChanges"
    case soreThroat = "HKCategoryTypeIdentifierSoreThroat"
    case vaginalDryness = "HKCategoryTypeIdentifierVaginalDryness"
    case vomiting = "HKCategoryTypeIdentifierVomiting"
    case wheezing = "HKCategoryTypeIdentifierWheezing"
}

extension CategoryTypeIdentifier {
    /// Deprecated HealthKit name of ``environmentalAudioExposureEvent`` (same string value).
    public static let audioExposureEvent = CategoryTypeIdentifier.environmentalAudioExposureEvent

    /// The enumeration whose raw values this type's samples hold.
    public var valueSet: CategoryValueSet {
        switch self {
        case .appleStandHour: .appleStandHour
        case .environmentalAudioExposureEvent: .environmentalAudioExposureEvent
        case .headphoneAudioExposureEvent: .headphoneAudioExposureEvent
        case .highHeartRateEvent: .notApplicable
        case .irregularHeartRhythmEvent: .notApplicable
        case .lowCardioFitnessEvent: .lowCardioFitnessEvent
        case .lowHeartRateEvent: .notApplicable
        case .mindfulSession: .notApplicable
        case .appleWalkingSteadinessEvent: .appleWalkingSteadinessEvent
        case .handwashingEvent: .notApplicable
        case .toothbrushingEvent: .notApplicable
        case .bleedingAfterPregnancy: .vaginalBleeding
        case .bleedingDuringPregnancy: .vaginalBleeding
        case .cervicalMucusQuality: .cervicalMucusQuality
        case .contraceptive: .contraceptive
        case .infrequentMenstrualCycles: .notApplicable
        case .intermenstrualBleeding: .notApplicable
        case .irregularMenstrualCycles: .notApplicable
        case .lactation: .notApplicable
        case .menstrualFlow: .vaginalBleeding
        case .ovulationTestResult: .ovulationTestResult
        case .persistentIntermenstrualBleeding: .notApplicable
        case .pregnancy: .notApplicable
        case .pregnancyTestResult: .pregnancyTestResult
        case .progesteroneTestResult: .progesteroneTestResult
        case .prolongedMenstrualPeriods: .notApplicable
        case .sexualActivity: .notApplicable
        case .sleepApneaEvent: .notApplicable
        case .sleepAnalysis: .sleepAnalysis
        case .abdominalCramps: .severity
        case .acne: .severity
        case .appetiteChanges: .appetiteChanges
        case .bladderIncontinence: .severity
        case .bloating: .severity
        case .breastPain: .severity
        case .chestTightnessOrPain: .severity
        case .chills: .severity
        case .constipation: .severity
        case .coughing: .severity
        case .diarrhea: .severity
        case .dizziness: .severity
        case .drySkin: .severity
        case .fainting: .severity
        case .fatigue: .severity
        case .fever: .severity
        case .generalizedBodyAche: .severity
        case .hairLoss: .severity
        case .headache: .severity
        case .heartburn: .severity
        case .hotFlashes: .severity
        case .lossOfSmell: .severity
        case .lossOfTaste: .severity
        case .lowerBackPain: .severity
        case .memoryLapse: .severity
        case .moodChanges: .presence
        case .nausea: .severity
        case .nightSweats: .severity
        case .pelvicPain: .severity
        case .rapidPoundingOrFlutteringHeartbeat: .severity
        case .runnyNose: .severity
        case .shortnessOfBreath: .severity
        case .sinusCongestion: .severity
        case .skippedHeartbeat: .severity
        case .sleepChanges: .presence
        case .soreThroat: .severity
        case .vaginalDryness: .severity
        case .vomiting: .severity
        case .wheezing: .severity
        }
    }

    /// HealthKit's section of the identifier list.
    public var group: String {
        switch self {
        case .appleStandHour: "Fitness"
        case .environmentalAudioExposureEvent, .headphoneAudioExposureEvent: "Hearing Health"
        case .highHeartRateEvent, .irregularHeartRhythmEvent, .lowCardioFitnessEvent, .lowHeartRateEvent: "Heart"
        case .mindfulSession: "Mindfulness"
        case .appleWalkingSteadinessEvent: "Mobility"
        case .handwashingEvent, .toothbrushingEvent: "Other"
        case .bleedingAfterPregnancy, .bleedingDuringPregnancy, .cervicalMucusQuality, .contraceptive,
            .infrequentMenstrualCycles, .intermenstrualBleeding, .irregularMenstrualCycles, .lactation, .menstrualFlow,
            .ovulationTestResult, .persistentIntermenstrualBleeding, .pregnancy, .pregnancyTestResult,
            .progesteroneTestResult, .prolongedMenstrualPeriods, .sexualActivity:
            "Reproductive Health"
        case .sleepApneaEvent: "Respiratory"
        case .sleepAnalysis: "Sleep"
        case .abdominalCramps, .acne, .appetiteChanges, .bladderIncontinence, .bloating, .breastPain,
            .chestTightnessOrPain, .chills, .constipation, .coughing, .diarrhea, .dizziness, .drySkin, .fainting,
            .fatigue, .fever, .generalizedBodyAche, .hairLoss, .headache, .heartburn, .hotFlashes, .lossOfSmell,
            .lossOfTaste, .lowerBackPain, .memoryLapse, .moodChanges, .nausea, .nightSweats, .pelvicPain,
            .rapidPoundingOrFlutteringHeartbeat, .runnyNose, .shortnessOfBreath, .sinusCongestion, .skippedHeartbeat,
            .sleepChanges, .soreThroat, .vaginalDryness, .vomiting, .wheezing:
            "Symptoms"
        }
    }
}
