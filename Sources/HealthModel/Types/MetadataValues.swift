// This file lists facts from HealthKit's public headers (see docs/HEALTHKIT_MAPPING.md).

/// Values of the metadata enumeration `HKBodyTemperatureSensorLocation`.
public enum BodyTemperatureSensorLocation: Int, HealthKitEnumeration {
    case other = 0
    case armpit = 1
    case body = 2
    case ear = 3
    case finger = 4
    case gastroIntestinal = 5
    case mouth = 6
    case rectum = 7
    case toe = 8
    case earDrum = 9
    case temporalArtery = 10
    case forehead = 11
}

extension BodyTemperatureSensorLocation {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKBodyTemperatureSensorLocation"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .other: "HKBodyTemperatureSensorLocationOther"
        case .armpit: "HKBodyTemperatureSensorLocationArmpit"
        case .body: "HKBodyTemperatureSensorLocationBody"
        case .ear: "HKBodyTemperatureSensorLocationEar"
        case .finger: "HKBodyTemperatureSensorLocationFinger"
        case .gastroIntestinal: "HKBodyTemperatureSensorLocationGastroIntestinal"
        case .mouth: "HKBodyTemperatureSensorLocationMouth"
        case .rectum: "HKBodyTemperatureSensorLocationRectum"
        case .toe: "HKBodyTemperatureSensorLocationToe"
        case .earDrum: "HKBodyTemperatureSensorLocationEarDrum"
        case .temporalArtery: "HKBodyTemperatureSensorLocationTemporalArtery"
        case .forehead: "HKBodyTemperatureSensorLocationForehead"
        }
    }
}

/// Values of the metadata enumeration `HKHeartRateSensorLocation`.
public enum HeartRateSensorLocation: Int, HealthKitEnumeration {
    case other = 0
    case chest = 1
    case wrist = 2
    case finger = 3
    case hand = 4
    case earLobe = 5
    case foot = 6
}

extension HeartRateSensorLocation {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKHeartRateSensorLocation"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .other: "HKHeartRateSensorLocationOther"
        case .chest: "HKHeartRateSensorLocationChest"
        case .wrist: "HKHeartRateSensorLocationWrist"
        case .finger: "HKHeartRateSensorLocationFinger"
        case .hand: "HKHeartRateSensorLocationHand"
        case .earLobe: "HKHeartRateSensorLocationEarLobe"
        case .foot: "HKHeartRateSensorLocationFoot"
        }
    }
}

/// Values of the metadata enumeration `HKHeartRateMotionContext`.
public enum HeartRateMotionContext: Int, HealthKitEnumeration {
    case notSet = 0
    case sedentary = 1
    case active = 2
}

extension HeartRateMotionContext {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKHeartRateMotionContext"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .notSet: "HKHeartRateMotionContextNotSet"
        case .sedentary: "HKHeartRateMotionContextSedentary"
        case .active: "HKHeartRateMotionContextActive"
        }
    }
}

/// Values of the metadata enumeration `HKUserMotionContext`.
public enum UserMotionContext: Int, HealthKitEnumeration {
    case notSet = 0
    case stationary = 1
    case active = 2
}

extension UserMotionContext {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKUserMotionContext"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .notSet: "HKUserMotionContextNotSet"
        case .stationary: "HKUserMotionContextStationary"
        case .active: "HKUserMotionContextActive"
        }
    }
}

/// Values of the metadata enumeration `HKHeartRateRecoveryTestType`.
public enum HeartRateRecoveryTestType: Int, HealthKitEnumeration {
    case maxExercise = 1
    case predictionSubMaxExercise = 2
    case predictionNonExercise = 3
}

extension HeartRateRecoveryTestType {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKHeartRateRecoveryTestType"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .maxExercise: "HKHeartRateRecoveryTestTypeMaxExercise"
        case .predictionSubMaxExercise: "HKHeartRateRecoveryTestTypePredictionSubMaxExercise"
        case .predictionNonExercise: "HKHeartRateRecoveryTestTypePredictionNonExercise"
        }
    }
}

/// Values of the metadata enumeration `HKWeatherCondition`.
public enum WeatherCondition: Int, HealthKitEnumeration {
    case none = 0
    case clear = 1
    case fair = 2
    case partlyCloudy = 3
    case mostlyCloudy = 4
    case cloudy = 5
    case foggy = 6
    case haze = 7
    case windy = 8
    case blustery = 9
    case smoky = 10
    case dust = 11
    case snow = 12
    case hail = 13
    case sleet = 14
    case freezingDrizzle = 15
    case freezingRain = 16
    case mixedRainAndHail = 17
    case mixedRainAndSnow = 18
    case mixedRainAndSleet = 19
    case mixedSnowAndSleet = 20
    case drizzle = 21
    case scatteredShowers = 22
    case showers = 23
    case thunderstorms = 24
    case tropicalStorm = 25
    case hurricane = 26
    case tornado = 27
}

extension WeatherCondition {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKWeatherCondition"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .none: "HKWeatherConditionNone"
        case .clear: "HKWeatherConditionClear"
        case .fair: "HKWeatherConditionFair"
        case .partlyCloudy: "HKWeatherConditionPartlyCloudy"
        case .mostlyCloudy: "HKWeatherConditionMostlyCloudy"
        case .cloudy: "HKWeatherConditionCloudy"
        case .foggy: "HKWeatherConditionFoggy"
        case .haze: "HKWeatherConditionHaze"
        case .windy: "HKWeatherConditionWindy"
        case .blustery: "HKWeatherConditionBlustery"
        case .smoky: "HKWeatherConditionSmoky"
        case .dust: "HKWeatherConditionDust"
        case .snow: "HKWeatherConditionSnow"
        case .hail: "HKWeatherConditionHail"
        case .sleet: "HKWeatherConditionSleet"
        case .freezingDrizzle: "HKWeatherConditionFreezingDrizzle"
        case .freezingRain: "HKWeatherConditionFreezingRain"
        case .mixedRainAndHail: "HKWeatherConditionMixedRainAndHail"
        case .mixedRainAndSnow: "HKWeatherConditionMixedRainAndSnow"
        case .mixedRainAndSleet: "HKWeatherConditionMixedRainAndSleet"
        case .mixedSnowAndSleet: "HKWeatherConditionMixedSnowAndSleet"
        case .drizzle: "HKWeatherConditionDrizzle"
        case .scatteredShowers: "HKWeatherConditionScatteredShowers"
        case .showers: "HKWeatherConditionShowers"
        case .thunderstorms: "HKWeatherConditionThunderstorms"
        case .tropicalStorm: "HKWeatherConditionTropicalStorm"
        case .hurricane: "HKWeatherConditionHurricane"
        case .tornado: "HKWeatherConditionTornado"
        }
    }
}

/// Values of the metadata enumeration `HKWorkoutSwimmingLocationType`.
public enum WorkoutSwimmingLocationType: Int, HealthKitEnumeration {
    case unknown = 0
    case pool = 1
    case openWater = 2
}

extension WorkoutSwimmingLocationType {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKWorkoutSwimmingLocationType"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .unknown: "HKWorkoutSwimmingLocationTypeUnknown"
        case .pool: "HKWorkoutSwimmingLocationTypePool"
        case .openWater: "HKWorkoutSwimmingLocationTypeOpenWater"
        }
    }
}

/// Values of the metadata enumeration `HKSwimmingStrokeStyle`.
public enum SwimmingStrokeStyle: Int, HealthKitEnumeration {
    case unknown = 0
    case mixed = 1
    case freestyle = 2
    case backstroke = 3
    case breaststroke = 4
    case butterfly = 5
    case kickboard = 6
}

extension SwimmingStrokeStyle {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKSwimmingStrokeStyle"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .unknown: "HKSwimmingStrokeStyleUnknown"
        case .mixed: "HKSwimmingStrokeStyleMixed"
        case .freestyle: "HKSwimmingStrokeStyleFreestyle"
        case .backstroke: "HKSwimmingStrokeStyleBackstroke"
        case .breaststroke: "HKSwimmingStrokeStyleBreaststroke"
        case .butterfly: "HKSwimmingStrokeStyleButterfly"
        case .kickboard: "HKSwimmingStrokeStyleKickboard"
        }
    }
}

/// Values of the metadata enumeration `HKInsulinDeliveryReason`.
public enum InsulinDeliveryReason: Int, HealthKitEnumeration {
    case basal = 1
    case bolus = 2
}

extension InsulinDeliveryReason {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKInsulinDeliveryReason"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .basal: "HKInsulinDeliveryReasonBasal"
        case .bolus: "HKInsulinDeliveryReasonBolus"
        }
    }
}

/// Values of the metadata enumeration `HKBloodGlucoseMealTime`.
public enum BloodGlucoseMealTime: Int, HealthKitEnumeration {
    case preprandial = 1
    case postprandial = 2
}

extension BloodGlucoseMealTime {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKBloodGlucoseMealTime"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .preprandial: "HKBloodGlucoseMealTimePreprandial"
        case .postprandial: "HKBloodGlucoseMealTimePostprandial"
        }
    }
}

/// Values of the metadata enumeration `HKVO2MaxTestType`.
public enum VO2MaxTestType: Int, HealthKitEnumeration {
    case maxExercise = 1
    case predictionSubMaxExercise = 2
    case predictionNonExercise = 3
}

extension VO2MaxTestType {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKVO2MaxTestType"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .maxExercise: "HKVO2MaxTestTypeMaxExercise"
        case .predictionSubMaxExercise: "HKVO2MaxTestTypePredictionSubMaxExercise"
        case .predictionNonExercise: "HKVO2MaxTestTypePredictionNonExercise"
        }
    }
}

/// Values of the metadata enumeration `HKAppleECGAlgorithmVersion`.
public enum AppleECGAlgorithmVersion: Int, HealthKitEnumeration {
    case version1 = 1
    case version2 = 2
}

extension AppleECGAlgorithmVersion {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKAppleECGAlgorithmVersion"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .version1: "HKAppleECGAlgorithmVersion1"
        case .version2: "HKAppleECGAlgorithmVersion2"
        }
    }
}

/// Values of the metadata enumeration `HKDevicePlacementSide`.
public enum DevicePlacementSide: Int, HealthKitEnumeration {
    case unknown = 0
    case left = 1
    case right = 2
    case central = 3
}

extension DevicePlacementSide {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKDevicePlacementSide"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .unknown: "HKDevicePlacementSideUnknown"
        case .left: "HKDevicePlacementSideLeft"
        case .right: "HKDevicePlacementSideRight"
        case .central: "HKDevicePlacementSideCentral"
        }
    }
}

/// Values of the metadata enumeration `HKWaterSalinity`.
public enum WaterSalinity: Int, HealthKitEnumeration {
    case freshWater = 1
    case saltWater = 2
}

extension WaterSalinity {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKWaterSalinity"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .freshWater: "HKWaterSalinityFreshWater"
        case .saltWater: "HKWaterSalinitySaltWater"
        }
    }
}

/// Values of the metadata enumeration `HKCyclingFunctionalThresholdPowerTestType`.
public enum CyclingFunctionalThresholdPowerTestType: Int, HealthKitEnumeration {
    case maxExercise60Minute = 1
    case maxExercise20Minute = 2
    case rampTest = 3
    case predictionExercise = 4
}

extension CyclingFunctionalThresholdPowerTestType {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKCyclingFunctionalThresholdPowerTestType"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .maxExercise60Minute: "HKCyclingFunctionalThresholdPowerTestTypeMaxExercise60Minute"
        case .maxExercise20Minute: "HKCyclingFunctionalThresholdPowerTestTypeMaxExercise20Minute"
        case .rampTest: "HKCyclingFunctionalThresholdPowerTestTypeRampTest"
        case .predictionExercise: "HKCyclingFunctionalThresholdPowerTestTypePredictionExercise"
        }
    }
}

/// Values of the metadata enumeration `HKPhysicalEffortEstimationType`.
public enum PhysicalEffortEstimationType: Int, HealthKitEnumeration {
    case activityLookup = 1
    case deviceSensed = 2
}

extension PhysicalEffortEstimationType {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKPhysicalEffortEstimationType"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .activityLookup: "HKPhysicalEffortEstimationTypeActivityLookup"
        case .deviceSensed: "HKPhysicalEffortEstimationTypeDeviceSensed"
        }
    }
}
