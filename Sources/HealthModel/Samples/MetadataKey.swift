// This file lists facts from HealthKit's public headers (see docs/HEALTHKIT_MAPPING.md).
/// A metadata key: HealthKit's well-known keys, or any string an app chooses.
///
/// The raw value is the string stored and sent (HealthKit's value of the constant, which is not
/// always the constant's name: `HKMetadataKeyWasUserEntered` is `"HKWasUserEntered"`).
public struct MetadataKey: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}

extension MetadataKey {
    /// `HKMetadataKeyDeviceSerialNumber`.
    public static let deviceSerialNumber = MetadataKey(rawValue: "HKDeviceSerialNumber")
    /// `HKMetadataKeyBodyTemperatureSensorLocation`.
    public static let bodyTemperatureSensorLocation = MetadataKey(rawValue: "HKBodyTemperatureSensorLocation")
    /// `HKMetadataKeyHeartRateSensorLocation`.
    public static let heartRateSensorLocation = MetadataKey(rawValue: "HKHeartRateSensorLocation")
    /// `HKMetadataKeyHeartRateMotionContext`.
    public static let heartRateMotionContext = MetadataKey(rawValue: "HKMetadataKeyHeartRateMotionContext")
    /// `HKMetadataKeyUserMotionContext`.
    public static let userMotionContext = MetadataKey(rawValue: "HKMetadataKeyUserMotionContext")
    /// `HKMetadataKeySessionEstimate`.
    public static let sessionEstimate = MetadataKey(rawValue: "HKMetadataKeySessionEstimate")
    /// `HKMetadataKeyHeartRateRecoveryTestType`.
    public static let heartRateRecoveryTestType = MetadataKey(rawValue: "HKMetadataKeyHeartRateRecoveryTestType")
    /// `HKMetadataKeyHeartRateRecoveryActivityType`.
    public static let heartRateRecoveryActivityType = MetadataKey(
        rawValue: "HKMetadataKeyHeartRateRecoveryActivityType"
    )
    /// `HKMetadataKeyHeartRateRecoveryActivityDuration`.
    public static let heartRateRecoveryActivityDuration = MetadataKey(
        rawValue: "HKMetadataKeyHeartRateRecoveryActivityDuration"
    )
    /// `HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate`.
    public static let heartRateRecoveryMaxObservedRecoveryHeartRate = MetadataKey(
        rawValue: "HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate"
    )
    /// `HKMetadataKeyFoodType`.
    public static let foodType = MetadataKey(rawValue: "HKFoodType")
    /// `HKMetadataKeyUDIDeviceIdentifier`.
    public static let udiDeviceIdentifier = MetadataKey(rawValue: "HKUDIDeviceIdentifier")
    /// `HKMetadataKeyUDIProductionIdentifier`.
    public static let udiProductionIdentifier = MetadataKey(rawValue: "HKUDIProductionIdentifier")
    /// `HKMetadataKeyDigitalSignature`.
    public static let digitalSignature = MetadataKey(rawValue: "HKDigitalSignature")
    /// `HKMetadataKeyExternalUUID`.
    public static let externalUUID = MetadataKey(rawValue: "HKExternalUUID")
    /// `HKMetadataKeySyncIdentifier`.
    public static let syncIdentifier = MetadataKey(rawValue: "HKMetadataKeySyncIdentifier")
    /// `HKMetadataKeySyncVersion`.
    public static let syncVersion = MetadataKey(rawValue: "HKMetadataKeySyncVersion")
    /// `HKMetadataKeyTimeZone`.
    public static let timeZone = MetadataKey(rawValue: "HKTimeZone")
    /// `HKMetadataKeyDeviceName`.
    public static let deviceName = MetadataKey(rawValue: "HKDeviceName")
    /// `HKMetadataKeyDeviceManufacturerName`.
    public static let deviceManufacturerName = MetadataKey(rawValue: "HKDeviceManufacturerName")
    /// `HKMetadataKeyWasTakenInLab`.
    public static let wasTakenInLab = MetadataKey(rawValue: "HKWasTakenInLab")
    /// `HKMetadataKeyReferenceRangeLowerLimit`.
    public static let referenceRangeLowerLimit = MetadataKey(rawValue: "HKReferenceRangeLowerLimit")
    /// `HKMetadataKeyReferenceRangeUpperLimit`.
    public static let referenceRangeUpperLimit = MetadataKey(rawValue: "HKReferenceRangeUpperLimit")
    /// `HKMetadataKeyWasUserEntered`.
    public static let wasUserEntered = MetadataKey(rawValue: "HKWasUserEntered")
    /// `HKMetadataKeyWorkoutBrandName`.
    public static let workoutBrandName = MetadataKey(rawValue: "HKWorkoutBrandName")
    /// `HKMetadataKeyGroupFitness`.
    public static let groupFitness = MetadataKey(rawValue: "HKGroupFitness")
    /// `HKMetadataKeyAppleFitnessPlusSession`.
    public static let appleFitnessPlusSession = MetadataKey(rawValue: "HKMetadataKeyAppleFitnessPlusSession")
    /// `HKMetadataKeyIndoorWorkout`.
    public static let indoorWorkout = MetadataKey(rawValue: "HKIndoorWorkout")
    /// `HKMetadataKeyCoachedWorkout`.
    public static let coachedWorkout = MetadataKey(rawValue: "HKCoachedWorkout")
    /// `HKMetadataKeyWeatherCondition`.
    public static let weatherCondition = MetadataKey(rawValue: "HKWeatherCondition")
    /// `HKMetadataKeyWeatherTemperature`.
    public static let weatherTemperature = MetadataKey(rawValue: "HKWeatherTemperature")
    /// `HKMetadataKeyWeatherHumidity`.
    public static let weatherHumidity = MetadataKey(rawValue: "HKWeatherHumidity")
    /// `HKMetadataKeySexualActivityProtectionUsed`.
    public static let sexualActivityProtectionUsed = MetadataKey(rawValue: "HKSexualActivityProtectionUsed")
    /// `HKMetadataKeyMenstrualCycleStart`.
    public static let menstrualCycleStart = MetadataKey(rawValue: "HKMenstrualCycleStart")
    /// `HKMetadataKeyLapLength`.
    public static let lapLength = MetadataKey(rawValue: "HKLapLength")
    /// `HKMetadataKeySwimmingLocationType`.
    public static let swimmingLocationType = MetadataKey(rawValue: "HKSwimmingLocationType")
    /// `HKMetadataKeySwimmingStrokeStyle`.
    public static let swimmingStrokeStyle = MetadataKey(rawValue: "HKSwimmingStrokeStyle")
    /// `HKMetadataKeyInsulinDeliveryReason`.
    public static let insulinDeliveryReason = MetadataKey(rawValue: "HKInsulinDeliveryReason")
    /// `HKMetadataKeyBloodGlucoseMealTime`.
    public static let bloodGlucoseMealTime = MetadataKey(rawValue: "HKBloodGlucoseMealTime")
    /// `HKMetadataKeyVO2MaxTestType`.
    public static let vo2MaxTestType = MetadataKey(rawValue: "HKVO2MaxTestType")
    /// `HKMetadataKeyAverageSpeed`.
    public static let averageSpeed = MetadataKey(rawValue: "HKAverageSpeed")
    /// `HKMetadataKeyMaximumSpeed`.
    public static let maximumSpeed = MetadataKey(rawValue: "HKMaximumSpeed")
    /// `HKMetadataKeyAlpineSlopeGrade`.
    public static let alpineSlopeGrade = MetadataKey(rawValue: "HKAlpineSlopeGrade")
    /// `HKMetadataKeyElevationAscended`.
    public static let elevationAscended = MetadataKey(rawValue: "HKElevationAscended")
    /// `HKMetadataKeyElevationDescended`.
    public static let elevationDescended = MetadataKey(rawValue: "HKElevationDescended")
    /// `HKMetadataKeyFitnessMachineDuration`.
    public static let fitnessMachineDuration = MetadataKey(rawValue: "HKFitnessMachineDuration")
    /// `HKMetadataKeyIndoorBikeDistance`.
    public static let indoorBikeDistance = MetadataKey(rawValue: "HKIndoorBikeDistance")
    /// `HKMetadataKeyCrossTrainerDistance`.
    public static let crossTrainerDistance = MetadataKey(rawValue: "HKCrossTrainerDistance")
    /// `HKMetadataKeyHeartRateEventThreshold`.
    public static let heartRateEventThreshold = MetadataKey(rawValue: "HKHeartRateEventThreshold")
    /// `HKMetadataKeyAverageMETs`.
    public static let averageMETs = MetadataKey(rawValue: "HKAverageMETs")
    /// `HKMetadataKeyAudioExposureLevel`.
    public static let audioExposureLevel = MetadataKey(rawValue: "HKMetadataKeyAudioExposureLevel")
    /// `HKMetadataKeyAudioExposureDuration`.
    public static let audioExposureDuration = MetadataKey(rawValue: "HKMetadataKeyAudioExposureDuration")
    /// `HKMetadataKeyAppleECGAlgorithmVersion`.
    public static let appleECGAlgorithmVersion = MetadataKey(rawValue: "HKMetadataKeyAppleECGAlgorithmVersion")
    /// `HKMetadataKeyDevicePlacementSide`.
    public static let devicePlacementSide = MetadataKey(rawValue: "HKMetadataKeyDevicePlacementSide")
    /// `HKMetadataKeyBarometricPressure`.
    public static let barometricPressure = MetadataKey(rawValue: "HKMetadataKeyBarometricPressure")
    /// `HKMetadataKeyAppleDeviceCalibrated`.
    public static let appleDeviceCalibrated = MetadataKey(rawValue: "HKMetadataKeyAppleDeviceCalibrated")
    /// `HKMetadataKeyVO2MaxValue`.
    public static let vo2MaxValue = MetadataKey(rawValue: "HKVO2MaxValue")
    /// `HKMetadataKeyLowCardioFitnessEventThreshold`.
    public static let lowCardioFitnessEventThreshold = MetadataKey(rawValue: "HKLowCardioFitnessEventThreshold")
    /// `HKMetadataKeyDateOfEarliestDataUsedForEstimate`.
    public static let dateOfEarliestDataUsedForEstimate = MetadataKey(rawValue: "HKDateOfEarliestDataUsedForEstimate")
    /// `HKMetadataKeyAlgorithmVersion`.
    public static let algorithmVersion = MetadataKey(rawValue: "HKAlgorithmVersion")
    /// `HKMetadataKeySWOLFScore`.
    public static let swolfScore = MetadataKey(rawValue: "HKSWOLFScore")
    /// `HKMetadataKeyQuantityClampedToLowerBound`.
    public static let quantityClampedToLowerBound = MetadataKey(rawValue: "HKMetadataKeyQuantityClampedToLowerBound")
    /// `HKMetadataKeyQuantityClampedToUpperBound`.
    public static let quantityClampedToUpperBound = MetadataKey(rawValue: "HKMetadataKeyQuantityClampedToUpperBound")
    /// `HKMetadataKeyGlassesPrescriptionDescription`.
    public static let glassesPrescriptionDescription = MetadataKey(
        rawValue: "HKMetadataKeyGlassesPrescriptionDescription"
    )
    /// `HKMetadataKeyWaterSalinity`.
    public static let waterSalinity = MetadataKey(rawValue: "HKMetadataKeyWaterSalinity")
    /// `HKMetadataKeyHeadphoneGain`.
    public static let headphoneGain = MetadataKey(rawValue: "HKMetadataKeyHeadphoneGain")
    /// `HKMetadataKeyCyclingFunctionalThresholdPowerTestType`.
    public static let cyclingFunctionalThresholdPowerTestType = MetadataKey(
        rawValue: "HKCyclingCyclingFunctionalThresholdPowerTestType"
    )
    /// `HKMetadataKeyActivityType`.
    public static let activityType = MetadataKey(rawValue: "HKActivityType")
    /// `HKMetadataKeyPhysicalEffortEstimationType`.
    public static let physicalEffortEstimationType = MetadataKey(rawValue: "HKPhysicalEffortEstimationType")
    /// `HKMetadataKeyMaximumLightIntensity`.
    public static let maximumLightIntensity = MetadataKey(rawValue: "HKMetadataKeyMaximumLightIntensity")
}

extension MetadataKey {
    /// HealthKit's constant name of each well-known key (`HKMetadataKeyWasUserEntered`).
    public static let healthKitConstants: [MetadataKey: String] = [
        .deviceSerialNumber: "HKMetadataKeyDeviceSerialNumber",
        .bodyTemperatureSensorLocation: "HKMetadataKeyBodyTemperatureSensorLocation",
        .heartRateSensorLocation: "HKMetadataKeyHeartRateSensorLocation",
        .heartRateMotionContext: "HKMetadataKeyHeartRateMotionContext",
        .userMotionContext: "HKMetadataKeyUserMotionContext",
        .sessionEstimate: "HKMetadataKeySessionEstimate",
        .heartRateRecoveryTestType: "HKMetadataKeyHeartRateRecoveryTestType",
        .heartRateRecoveryActivityType: "HKMetadataKeyHeartRateRecoveryActivityType",
        .heartRateRecoveryActivityDuration: "HKMetadataKeyHeartRateRecoveryActivityDuration",
        .heartRateRecoveryMaxObservedRecoveryHeartRate: "HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate",
        .foodType: "HKMetadataKeyFoodType",
        .udiDeviceIdentifier: "HKMetadataKeyUDIDeviceIdentifier",
        .udiProductionIdentifier: "HKMetadataKeyUDIProductionIdentifier",
        .digitalSignature: "HKMetadataKeyDigitalSignature",
        .externalUUID: "HKMetadataKeyExternalUUID",
        .syncIdentifier: "HKMetadataKeySyncIdentifier",
        .syncVersion: "HKMetadataKeySyncVersion",
        .timeZone: "HKMetadataKeyTimeZone",
        .deviceName: "HKMetadataKeyDeviceName",
        .deviceManufacturerName: "HKMetadataKeyDeviceManufacturerName",
        .wasTakenInLab: "HKMetadataKeyWasTakenInLab",
        .referenceRangeLowerLimit: "HKMetadataKeyReferenceRangeLowerLimit",
        .referenceRangeUpperLimit: "HKMetadataKeyReferenceRangeUpperLimit",
        .wasUserEntered: "HKMetadataKeyWasUserEntered",
        .workoutBrandName: "HKMetadataKeyWorkoutBrandName",
        .groupFitness: "HKMetadataKeyGroupFitness",
        .appleFitnessPlusSession: "HKMetadataKeyAppleFitnessPlusSession",
        .indoorWorkout: "HKMetadataKeyIndoorWorkout",
        .coachedWorkout: "HKMetadataKeyCoachedWorkout",
        .weatherCondition: "HKMetadataKeyWeatherCondition",
        .weatherTemperature: "HKMetadataKeyWeatherTemperature",
        .weatherHumidity: "HKMetadataKeyWeatherHumidity",
        .sexualActivityProtectionUsed: "HKMetadataKeySexualActivityProtectionUsed",
        .menstrualCycleStart: "HKMetadataKeyMenstrualCycleStart",
        .lapLength: "HKMetadataKeyLapLength",
        .swimmingLocationType: "HKMetadataKeySwimmingLocationType",
        .swimmingStrokeStyle: "HKMetadataKeySwimmingStrokeStyle",
        .insulinDeliveryReason: "HKMetadataKeyInsulinDeliveryReason",
        .bloodGlucoseMealTime: "HKMetadataKeyBloodGlucoseMealTime",
        .vo2MaxTestType: "HKMetadataKeyVO2MaxTestType",
        .averageSpeed: "HKMetadataKeyAverageSpeed",
        .maximumSpeed: "HKMetadataKeyMaximumSpeed",
        .alpineSlopeGrade: "HKMetadataKeyAlpineSlopeGrade",
        .elevationAscended: "HKMetadataKeyElevationAscended",
        .elevationDescended: "HKMetadataKeyElevationDescended",
        .fitnessMachineDuration: "HKMetadataKeyFitnessMachineDuration",
        .indoorBikeDistance: "HKMetadataKeyIndoorBikeDistance",
        .crossTrainerDistance: "HKMetadataKeyCrossTrainerDistance",
        .heartRateEventThreshold: "HKMetadataKeyHeartRateEventThreshold",
        .averageMETs: "HKMetadataKeyAverageMETs",
        .audioExposureLevel: "HKMetadataKeyAudioExposureLevel",
        .audioExposureDuration: "HKMetadataKeyAudioExposureDuration",
        .appleECGAlgorithmVersion: "HKMetadataKeyAppleECGAlgorithmVersion",
        .devicePlacementSide: "HKMetadataKeyDevicePlacementSide",
        .barometricPressure: "HKMetadataKeyBarometricPressure",
        .appleDeviceCalibrated: "HKMetadataKeyAppleDeviceCalibrated",
        .vo2MaxValue: "HKMetadataKeyVO2MaxValue",
        .lowCardioFitnessEventThreshold: "HKMetadataKeyLowCardioFitnessEventThreshold",
        .dateOfEarliestDataUsedForEstimate: "HKMetadataKeyDateOfEarliestDataUsedForEstimate",
        .algorithmVersion: "HKMetadataKeyAlgorithmVersion",
        .swolfScore: "HKMetadataKeySWOLFScore",
        .quantityClampedToLowerBound: "HKMetadataKeyQuantityClampedToLowerBound",
        .quantityClampedToUpperBound: "HKMetadataKeyQuantityClampedToUpperBound",
        .glassesPrescriptionDescription: "HKMetadataKeyGlassesPrescriptionDescription",
        .waterSalinity: "HKMetadataKeyWaterSalinity",
        .headphoneGain: "HKMetadataKeyHeadphoneGain",
        .cyclingFunctionalThresholdPowerTestType: "HKMetadataKeyCyclingFunctionalThresholdPowerTestType",
        .activityType: "HKMetadataKeyActivityType",
        .physicalEffortEstimationType: "HKMetadataKeyPhysicalEffortEstimationType",
        .maximumLightIntensity: "HKMetadataKeyMaximumLightIntensity",
    ]

    /// What value each well-known key takes; keys not listed take any value.
    public static let wellKnownValueKinds: [MetadataKey: MetadataValueKind] = [
        .deviceSerialNumber: .string,
        .bodyTemperatureSensorLocation: .enumeration(
            BodyTemperatureSensorLocation.allCases.map(\.rawValue),
            name: "HKBodyTemperatureSensorLocation"
        ),
        .heartRateSensorLocation: .enumeration(
            HeartRateSensorLocation.allCases.map(\.rawValue),
            name: "HKHeartRateSensorLocation"
        ),
        .heartRateMotionContext: .enumeration(
            HeartRateMotionContext.allCases.map(\.rawValue),
            name: "HKHeartRateMotionContext"
        ),
        .userMotionContext: .enumeration(UserMotionContext.allCases.map(\.rawValue), name: "HKUserMotionContext"),
        .sessionEstimate: .quantityCompatibleWithSample,
        .heartRateRecoveryTestType: .enumeration(
            HeartRateRecoveryTestType.allCases.map(\.rawValue),
            name: "HKHeartRateRecoveryTestType"
        ),
        .heartRateRecoveryActivityType: .enumeration(
            WorkoutActivityType.allCases.map(\.rawValue),
            name: "HKWorkoutActivityType"
        ),
        .heartRateRecoveryActivityDuration: .quantity(compatibleWith: "s"),
        .heartRateRecoveryMaxObservedRecoveryHeartRate: .quantity(compatibleWith: "count/min"),
        .foodType: .string,
        .udiDeviceIdentifier: .string,
        .udiProductionIdentifier: .string,
        .digitalSignature: .any,
        .externalUUID: .string,
        .syncIdentifier: .string,
        .syncVersion: .integer,
        .timeZone: .timeZoneName,
        .deviceName: .string,
        .deviceManufacturerName: .string,
        .wasTakenInLab: .boolean,
        .referenceRangeLowerLimit: .number,
        .referenceRangeUpperLimit: .number,
        .wasUserEntered: .boolean,
        .workoutBrandName: .string,
        .groupFitness: .boolean,
        .appleFitnessPlusSession: .boolean,
        .indoorWorkout: .boolean,
        .coachedWorkout: .boolean,
        .weatherCondition: .enumeration(WeatherCondition.allCases.map(\.rawValue), name: "HKWeatherCondition"),
        .weatherTemperature: .quantity(compatibleWith: "K"),
        .weatherHumidity: .quantity(compatibleWith: "%"),
        .sexualActivityProtectionUsed: .boolean,
        .menstrualCycleStart: .boolean,
        .lapLength: .quantity(compatibleWith: "m"),
        .swimmingLocationType: .enumeration(
            WorkoutSwimmingLocationType.allCases.map(\.rawValue),
            name: "HKWorkoutSwimmingLocationType"
        ),
        .swimmingStrokeStyle: .enumeration(SwimmingStrokeStyle.allCases.map(\.rawValue), name: "HKSwimmingStrokeStyle"),
        .insulinDeliveryReason: .enumeration(
            InsulinDeliveryReason.allCases.map(\.rawValue),
            name: "HKInsulinDeliveryReason"
        ),
        .bloodGlucoseMealTime: .enumeration(
            BloodGlucoseMealTime.allCases.map(\.rawValue),
            name: "HKBloodGlucoseMealTime"
        ),
        .vo2MaxTestType: .enumeration(VO2MaxTestType.allCases.map(\.rawValue), name: "HKVO2MaxTestType"),
        .averageSpeed: .quantity(compatibleWith: "m/s"),
        .maximumSpeed: .quantity(compatibleWith: "m/s"),
        .alpineSlopeGrade: .quantity(compatibleWith: "%"),
        .elevationAscended: .quantity(compatibleWith: "m"),
        .elevationDescended: .quantity(compatibleWith: "m"),
        .fitnessMachineDuration: .quantity(compatibleWith: "s"),
        .indoorBikeDistance: .quantity(compatibleWith: "m"),
        .crossTrainerDistance: .quantity(compatibleWith: "m"),
        .heartRateEventThreshold: .quantity(compatibleWith: "count/min"),
        .averageMETs: .quantity(compatibleWith: "kcal/(kg*hr)"),
        .audioExposureLevel: .quantity(compatibleWith: "dBASPL"),
        .audioExposureDuration: .quantity(compatibleWith: "s"),
        .appleECGAlgorithmVersion: .enumeration(
            AppleECGAlgorithmVersion.allCases.map(\.rawValue),
            name: "HKAppleECGAlgorithmVersion"
        ),
        .devicePlacementSide: .enumeration(DevicePlacementSide.allCases.map(\.rawValue), name: "HKDevicePlacementSide"),
        .barometricPressure: .quantity(compatibleWith: "Pa"),
        .appleDeviceCalibrated: .boolean,
        .vo2MaxValue: .quantity(compatibleWith: "ml/(kg*min)"),
        .lowCardioFitnessEventThreshold: .quantity(compatibleWith: "ml/(kg*min)"),
        .dateOfEarliestDataUsedForEstimate: .date,
        .algorithmVersion: .integer,
        .swolfScore: .number,
        .quantityClampedToLowerBound: .boolean,
        .quantityClampedToUpperBound: .boolean,
        .glassesPrescriptionDescription: .string,
        .waterSalinity: .enumeration(WaterSalinity.allCases.map(\.rawValue), name: "HKWaterSalinity"),
        .headphoneGain: .quantity(compatibleWith: "dBASPL"),
        .cyclingFunctionalThresholdPowerTestType: .enumeration(
            CyclingFunctionalThresholdPowerTestType.allCases.map(\.rawValue),
            name: "HKCyclingFunctionalThresholdPowerTestType"
        ),
        .activityType: .enumeration(WorkoutActivityType.allCases.map(\.rawValue), name: "HKWorkoutActivityType"),
        .physicalEffortEstimationType: .enumeration(
            PhysicalEffortEstimationType.allCases.map(\.rawValue),
            name: "HKPhysicalEffortEstimationType"
        ),
        .maximumLightIntensity: .quantity(compatibleWith: "lx"),
    ]
}
