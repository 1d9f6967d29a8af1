// This file lists facts from HealthKit's public headers (see docs/HEALTHKIT_MAPPING.md).
/// The identifier of a quantity type: a kind of sample with a numeric value and a unit.
///
/// The raw value is HealthKit's own string (`HKQuantityTypeIdentifierStepCount`), which is what
/// Apple Health exports contain and what the wire protocol carries.
public enum QuantityTypeIdentifier: String, HealthKitIdentifier {

    // MARK: Body Measurements

    case appleSleepingWristTemperature = "HKQuantityTypeIdentifierAppleSleepingWristTemperature"
    case bodyFatPercentage = "HKQuantityTypeIdentifierBodyFatPercentage"
    case bodyMass = "HKQuantityTypeIdentifierBodyMass"
    case bodyMassIndex = "HKQuantityTypeIdentifierBodyMassIndex"
    case electrodermalActivity = "HKQuantityTypeIdentifierElectrodermalActivity"
    case height = "HKQuantityTypeIdentifierHeight"
    case leanBodyMass = "HKQuantityTypeIdentifierLeanBodyMass"
    case waistCircumference = "HKQuantityTypeIdentifierWaistCircumference"

    // MARK: Fitness

    case activeEnergyBurned = "HKQuantityTypeIdentifierActiveEnergyBurned"
    case appleExerciseTime = "HKQuantityTypeIdentifierAppleExerciseTime"
    case appleMoveTime = "HKQuantityTypeIdentifierAppleMoveTime"
    case appleStandTime = "HKQuantityTypeIdentifierAppleStandTime"
    case basalEnergyBurned = "HKQuantityTypeIdentifierBasalEnergyBurned"
    case crossCountrySkiingSpeed = "HKQuantityTypeIdentifierCrossCountrySkiingSpeed"
    case cyclingCadence = "HKQuantityTypeIdentifierCyclingCadence"
    case cyclingFunctionalThresholdPower = "HKQuantityTypeIdentifierCyclingFunctionalThresholdPower"
    case cyclingPower = "HKQuantityTypeIdentifierCyclingPower"
    case cyclingSpeed = "HKQuantityTypeIdentifierCyclingSpeed"
    case distanceCrossCountrySkiing = "HKQuantityTypeIdentifierDistanceCrossCountrySkiing"
    case distanceCycling = "HKQuantityTypeIdentifierDistanceCycling"
    case distanceDownhillSnowSports = "HKQuantityTypeIdentifierDistanceDownhillSnowSports"
    case distancePaddleSports = "HKQuantityTypeIdentifierDistancePaddleSports"
    case distanceRowing = "HKQuantityTypeIdentifierDistanceRowing"
    case distanceSkatingSports = "HKQuantityTypeIdentifierDistanceSkatingSports"
    case distanceSwimming = "HKQuantityTypeIdentifierDistanceSwimming"
    case distanceWalkingRunning = "HKQuantityTypeIdentifierDistanceWalkingRunning"
    case distanceWheelchair = "HKQuantityTypeIdentifierDistanceWheelchair"
    case estimatedWorkoutEffortScore = "HKQuantityTypeIdentifierEstimatedWorkoutEffortScore"
    case flightsClimbed = "HKQuantityTypeIdentifierFlightsClimbed"
    case nikeFuel = "HKQuantityTypeIdentifierNikeFuel"
    case paddleSportsSpeed = "HKQuantityTypeIdentifierPaddleSportsSpeed"
    case physicalEffort = "HKQuantityTypeIdentifierPhysicalEffort"
    case pushCount = "HKQuantityTypeIdentifierPushCount"
    case rowingSpeed = "HKQuantityTypeIdentifierRowingSpeed"
    case runningPower = "HKQuantityTypeIdentifierRunningPower"
    case runningSpeed = "HKQuantityTypeIdentifierRunningSpeed"
    case stepCount = "HKQuantityTypeIdentifierStepCount"
    case swimmingStrokeCount = "HKQuantityTypeIdentifierSwimmingStrokeCount"
    case underwaterDepth = "HKQuantityTypeIdentifierUnderwaterDepth"
    case workoutEffortScore = "HKQuantityTypeIdentifierWorkoutEffortScore"

    // MARK: Hearing Health

    case environmentalAudioExposure = "HKQuantityTypeIdentifierEnvironmentalAudioExposure"
    case environmentalSoundReduction = "HKQuantityTypeIdentifierEnvironmentalSoundReduction"
    case headphoneAudioExposure = "HKQuantityTypeIdentifierHeadphoneAudioExposure"

    // MARK: Heart

    case atrialFibrillationBurden = "HKQuantityTypeIdentifierAtrialFibrillationBurden"
    case heartRate = "HKQuantityTypeIdentifierHeartRate"
    case heartRateRecoveryOneMinute = "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute"
    case heartRateVariabilitySDNN = "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
    case peripheralPerfusionIndex = "HKQuantityTypeIdentifierPeripheralPerfusionIndex"
    case restingHeartRate = "HKQuantityTypeIdentifierRestingHeartRate"
    case vo2Max = "HKQuantityTypeIdentifierVO2Max"
    case walkingHeartRateAverage = "HKQuantityTypeIdentifierWalkingHeartRateAverage"

    // MARK: Mobility

    case appleWalkingSteadiness = "HKQuantityTypeIdentifierAppleWalkingSteadiness"
    case runningGroundContactTime = "HKQuantityTypeIdentifierRunningGroundContactTime"
    case runningStrideLength = "HKQuantityTypeIdentifierRunningStrideLength"
    case runningVerticalOscillation = "HKQuantityTypeIdentifierRunningVerticalOscillation"
    case sixMinuteWalkTestDistance = "HKQuantityTypeIdentifierSixMinuteWalkTestDistance"
    case stairAscentSpeed = "HKQuantityTypeIdentifierStairAscentSpeed"
    case stairDescentSpeed = "HKQuantityTypeIdentifierStairDescentSpeed"
    case walkingAsymmetryPercentage = "HKQuantityTypeIdentifierWalkingAsymmetryPercentage"
    case walkingDoubleSupportPercentage = "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage"
    case walkingSpeed = "HKQuantityTypeIdentifierWalkingSpeed"
    case walkingStepLength = "HKQuantityTypeIdentifierWalkingStepLength"

    // MARK: Nutrition

    case dietaryBiotin = "HKQuantityTypeIdentifierDietaryBiotin"
    case dietaryCaffeine = "HKQuantityTypeIdentifierDietaryCaffeine"
    case dietaryCalcium = "HKQuantityTypeIdentifierDietaryCalcium"
    case dietaryCarbohydrates = "HKQuantityTypeIdentifierDietaryCarbohydrates"
    case dietaryChloride = "HKQuantityTypeIdentifierDietaryChloride"
    case dietaryCholesterol = "HKQuantityTypeIdentifierDietaryCholesterol"
    case dietaryChromium = "HKQuantityTypeIdentifierDietaryChromium"
    case dietaryCopper = "HKQuantityTypeIdentifierDietaryCopper"
    case dietaryEnergyConsumed = "HKQuantityTypeIdentifierDietaryEnergyConsumed"
    case dietaryFatMonounsaturated = "HKQuantityTypeIdentifierDietaryFatMonounsaturated"
    case dietaryFatPolyunsaturated = "HKQuantityTypeIdentifierDietaryFatPolyunsaturated"
    case dietaryFatSaturated = "HKQuantityTypeIdentifierDietaryFatSaturated"
    case dietaryFatTotal = "HKQuantityTypeIdentifierDietaryFatTotal"
    case dietaryFiber = "HKQuantityTypeIdentifierDietaryFiber"
    case dietaryFolate = "HKQuantityTypeIdentifierDietaryFolate"
    case dietaryIodine = "HKQuantityTypeIdentifierDietaryIodine"
    case dietaryIron = "HKQuantityTypeIdentifierDietaryIron"
    case dietaryMagnesium = "HKQuantityTypeIdentifierDietaryMagnesium"
    case dietaryManganese = "HKQuantityTypeIdentifierDietaryManganese"
    case dietaryMolybdenum = "HKQuantityTypeIdentifierDietaryMolybdenum"
    case dietaryNiacin = "HKQuantityTypeIdentifierDietaryNiacin"
    case dietaryPantothenicAcid = "HKQuantityTypeIdentifierDietaryPantothenicAcid"
    case dietaryPhosphorus = "HKQuantityTypeIdentifierDietaryPhosphorus"
    case dietaryPotassium = "HKQuantityTypeIdentifierDietaryPotassium"
    case dietaryProtein = "HKQuantityTypeIdentifierDietaryProtein"
    case dietaryRiboflavin = "HKQuantityTypeIdentifierDietaryRiboflavin"
    case dietarySelenium = "HKQuantityTypeIdentifierDietarySelenium"
    case dietarySodium = "HKQuantityTypeIdentifierDietarySodium"
    case dietarySugar = "HKQuantityTypeIdentifierDietarySugar"
    case dietaryThiamin = "HKQuantityTypeIdentifierDietaryThiamin"
    case dietaryVitaminA = "HKQuantityTypeIdentifierDietaryVitaminA"
    case dietaryVitaminB12 = "HKQuantityTypeIdentifierDietaryVitaminB12"
    case dietaryVitaminB6 = "HKQuantityTypeIdentifierDietaryVitaminB6"
    case dietaryVitaminC = "HKQuantityTypeIdentifierDietaryVitaminC"
    case dietaryVitaminD = "HKQuantityTypeIdentifierDietaryVitaminD"
    case dietaryVitaminE = "HKQuantityTypeIdentifierDietaryVitaminE"
    case dietaryVitaminK = "HKQuantityTypeIdentifierDietaryVitaminK"
    case dietaryWater = "HKQuantityTypeIdentifierDietaryWater"
    case dietaryZinc = "HKQuantityTypeIdentifierDietaryZinc"

    // MARK: Other

    case bloodAlcoholContent = "HKQuantityTypeIdentifierBloodAlcoholContent"
    case bloodPressureDiastolic = "HKQuantityTypeIdentifierBloodPressureDiastolic"
    case bloodPressureSystolic = "HKQuantityTypeIdentifierBloodPressureSystolic"
    case insulinDelivery = "HKQuantityTypeIdentifierInsulinDelivery"
    case numberOfAlcoholicBeverages = "HKQuantityTypeIdentifierNumberOfAlcoholicBeverages"
    case numberOfTimesFallen = "HKQuantityTypeIdentifierNumberOfTimesFallen"
    case timeInDaylight = "HKQuantityTypeIdentifierTimeInDaylight"
    case uvExposure = "HKQuantityTypeIdentifierUVExposure"
    case waterTemperature = "HKQuantityTypeIdentifierWaterTemperature"

    // MARK: Reproductive Health

    case basalBodyTemperature = "HKQuantityTypeIdentifierBasalBodyTemperature"

    // MARK: Respiratory

    case appleSleepingBreathingDisturbances = "HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances"
    case forcedExpiratoryVolume1 = "HKQuantityTypeIdentifierForcedExpiratoryVolume1"
    case forcedVitalCapacity = "HKQuantityTypeIdentifierForcedVitalCapacity"
    case inhalerUsage = "HKQuantityTypeIdentifierInhalerUsage"
    case oxygenSaturation = "HKQuantityTypeIdentifierOxygenSaturation"
    case peakExpiratoryFlowRate = "HKQuantityTypeIdentifierPeakExpiratoryFlowRate"
    case respiratoryRate = "HKQuantityTypeIdentifierRespiratoryRate"

    // MARK: Vital Signs

    case bloodGlucose = "HKQuantityTypeIdentifierBloodGlucose"
    case bodyTemperature = "HKQuantityTypeIdentifierBodyTemperature"
}

extension QuantityTypeIdentifier {
    /// The unit HealthKit stores this type in; every compatible unit is accepted on input.
    public var canonicalUnit: HealthUnit { QuantityTypeIdentifier.catalog[self]!.unit }

    /// The unit people read this type in when they have chosen none (docs/UNITS.md, "Default
    /// units"): the canonical unit, except rates per second, which are shown per minute (heart rate
    /// and respiratory rate in `count/min`), as HealthKit's Health app shows them. HealthVault's
    /// preferred unit of a type until the owner sets one.
    public var defaultUnit: HealthUnit {
        canonicalUnit == .countPerSecond ? .countPerMinute : canonicalUnit
    }

    /// How values of this type combine over time (sum, average, time-weighted average, energy average).
    public var aggregationStyle: AggregationStyle { QuantityTypeIdentifier.catalog[self]!.aggregation }

    /// The values a sample may hold, in the canonical unit (percentages are fractions 0...1, as in HealthKit),
    /// never beyond ``valueLimit`` (``soundLevelLimit`` for sound levels).
    public var valueDomain: ClosedRange<Double> { QuantityTypeIdentifier.catalog[self]!.domain }

    /// The largest magnitude of a value in its canonical unit (10^15 steps, kg, kcal, count/s): far above
    /// anything measured, and small enough that no statistic over any number of samples (sums, values
    /// weighted by their seconds, averages) can overflow a double, so one app's values can never make
    /// another reader's statistics fail.
    public static let valueLimit = 1e15

    /// The loudest sound level a sample may hold, in dBASPL. Sound levels are averaged as energy,
    /// 10^(L/10), which overflows a double past about 3,080 dB; the loudest sound air carries is about
    /// 194 dB.
    public static let soundLevelLimit = 1000.0

    /// HealthKit's section of the identifier list (`Fitness`, `Nutrition`, ...).
    public var group: String { QuantityTypeIdentifier.catalog[self]!.group }

    /// The canonical unit and the value domain from one look-up of the catalog (each look-up hashes
    /// the identifier's string): for the check every sample made or read goes through.
    var canonicalUnitAndDomain: (unit: HealthUnit, domain: ClosedRange<Double>) {
        let entry = QuantityTypeIdentifier.catalog[self]!
        return (entry.unit, entry.domain)
    }

    private struct Entry: Sendable {
        let unit: HealthUnit
        let aggregation: AggregationStyle
        let domain: ClosedRange<Double>
        let group: String
    }

    // Units are parsed once; a unit string here that does not parse is a programming error caught by the catalog test.
    private static let catalog: [QuantityTypeIdentifier: Entry] = {
        func entry(
            _ unit: String,
            _ aggregation: AggregationStyle,
            _ domain: ClosedRange<Double>,
            _ group: String
        ) -> Entry {
            let limit = aggregation == .discreteEquivalentContinuousLevel ? soundLevelLimit : valueLimit
            // swift-format-ignore: NeverUseForceTry
            return Entry(
                unit: try! HealthUnit(from: unit),
                aggregation: aggregation,
                domain: max(domain.lowerBound, -limit)...min(domain.upperBound, limit),
                group: group
            )
        }
        return [
            .appleSleepingWristTemperature: entry(
                "degC",
                .discreteArithmetic,
                -.greatestFiniteMagnitude...(.greatestFiniteMagnitude),
                "Body Measurements"
            ),
            .bodyFatPercentage: entry("%", .discreteArithmetic, 0...1, "Body Measurements"),
            .bodyMass: entry("kg", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Body Measurements"),
            .bodyMassIndex: entry("count", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Body Measurements"),
            .electrodermalActivity: entry(
                "S",
                .discreteArithmetic,
                0...(.greatestFiniteMagnitude),
                "Body Measurements"
            ),
            .height: entry("m", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Body Measurements"),
            .leanBodyMass: entry("kg", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Body Measurements"),
            .waistCircumference: entry("m", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Body Measurements"),
            .activeEnergyBurned: entry("kcal", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .appleExerciseTime: entry("min", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .appleMoveTime: entry("min", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .appleStandTime: entry("min", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .basalEnergyBurned: entry("kcal", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .crossCountrySkiingSpeed: entry("m/s", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .cyclingCadence: entry("count/min", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .cyclingFunctionalThresholdPower: entry(
                "W",
                .discreteArithmetic,
                0...(.greatestFiniteMagnitude),
                "Fitness"
            ),
            .cyclingPower: entry("W", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .cyclingSpeed: entry("m/s", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .distanceCrossCountrySkiing: entry("m", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .distanceCycling: entry("m", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .distanceDownhillSnowSports: entry("m", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .distancePaddleSports: entry("m", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .distanceRowing: entry("m", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .distanceSkatingSports: entry("m", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .distanceSwimming: entry("m", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .distanceWalkingRunning: entry("m", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .distanceWheelchair: entry("m", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .estimatedWorkoutEffortScore: entry("appleEffortScore", .discreteArithmetic, 0...10, "Fitness"),
            .flightsClimbed: entry("count", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .nikeFuel: entry("count", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .paddleSportsSpeed: entry("m/s", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .physicalEffort: entry("kcal/(kg*hr)", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .pushCount: entry("count", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .rowingSpeed: entry("m/s", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .runningPower: entry("W", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .runningSpeed: entry("m/s", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .stepCount: entry("count", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .swimmingStrokeCount: entry("count", .cumulative, 0...(.greatestFiniteMagnitude), "Fitness"),
            .underwaterDepth: entry("m", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Fitness"),
            .workoutEffortScore: entry("appleEffortScore", .discreteArithmetic, 0...10, "Fitness"),
            .environmentalAudioExposure: entry(
                "dBASPL",
                .discreteEquivalentContinuousLevel,
                0...(.greatestFiniteMagnitude),
                "Hearing Health"
            ),
            .environmentalSoundReduction: entry(
                "dBASPL",
                .discreteEquivalentContinuousLevel,
                0...(.greatestFiniteMagnitude),
                "Hearing Health"
            ),
            .headphoneAudioExposure: entry(
                "dBASPL",
                .discreteEquivalentContinuousLevel,
                0...(.greatestFiniteMagnitude),
                "Hearing Health"
            ),
            .atrialFibrillationBurden: entry("%", .discreteTemporallyWeighted, 0...1, "Heart"),
            .heartRate: entry("count/s", .discreteTemporallyWeighted, 0...(.greatestFiniteMagnitude), "Heart"),
            .heartRateRecoveryOneMinute: entry(
                "count/min",
                .discreteArithmetic,
                0...(.greatestFiniteMagnitude),
                "Heart"
            ),
            .heartRateVariabilitySDNN: entry("ms", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Heart"),
            .peripheralPerfusionIndex: entry("%", .discreteArithmetic, 0...1, "Heart"),
            .restingHeartRate: entry("count/min", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Heart"),
            .vo2Max: entry("ml/(kg*min)", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Heart"),
            .walkingHeartRateAverage: entry("count/min", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Heart"),
            .appleWalkingSteadiness: entry("%", .discreteArithmetic, 0...1, "Mobility"),
            .runningGroundContactTime: entry("ms", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Mobility"),
            .runningStrideLength: entry("m", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Mobility"),
            .runningVerticalOscillation: entry("cm", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Mobility"),
            .sixMinuteWalkTestDistance: entry("m", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Mobility"),
            .stairAscentSpeed: entry("m/s", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Mobility"),
            .stairDescentSpeed: entry("m/s", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Mobility"),
            .walkingAsymmetryPercentage: entry("%", .discreteArithmetic, 0...1, "Mobility"),
            .walkingDoubleSupportPercentage: entry("%", .discreteArithmetic, 0...1, "Mobility"),
            .walkingSpeed: entry("m/s", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Mobility"),
            .walkingStepLength: entry("m", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Mobility"),
            .dietaryBiotin: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryCaffeine: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryCalcium: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryCarbohydrates: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryChloride: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryCholesterol: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryChromium: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryCopper: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryEnergyConsumed: entry("kcal", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryFatMonounsaturated: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryFatPolyunsaturated: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryFatSaturated: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryFatTotal: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryFiber: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryFolate: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryIodine: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryIron: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryMagnesium: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryManganese: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryMolybdenum: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryNiacin: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryPantothenicAcid: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryPhosphorus: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryPotassium: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryProtein: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryRiboflavin: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietarySelenium: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietarySodium: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietarySugar: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryThiamin: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryVitaminA: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryVitaminB12: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryVitaminB6: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryVitaminC: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryVitaminD: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryVitaminE: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryVitaminK: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryWater: entry("mL", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .dietaryZinc: entry("g", .cumulative, 0...(.greatestFiniteMagnitude), "Nutrition"),
            .bloodAlcoholContent: entry("%", .discreteArithmetic, 0...1, "Other"),
            .bloodPressureDiastolic: entry("mmHg", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Other"),
            .bloodPressureSystolic: entry("mmHg", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Other"),
            .insulinDelivery: entry("IU", .cumulative, 0...(.greatestFiniteMagnitude), "Other"),
            .numberOfAlcoholicBeverages: entry("count", .cumulative, 0...(.greatestFiniteMagnitude), "Other"),
            .numberOfTimesFallen: entry("count", .cumulative, 0...(.greatestFiniteMagnitude), "Other"),
            .timeInDaylight: entry("min", .cumulative, 0...(.greatestFiniteMagnitude), "Other"),
            .uvExposure: entry("count", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Other"),
            .waterTemperature: entry("degC", .discreteArithmetic, -273.15...(.greatestFiniteMagnitude), "Other"),
            .basalBodyTemperature: entry(
                "degC",
                .discreteArithmetic,
                -273.15...(.greatestFiniteMagnitude),
                "Reproductive Health"
            ),
            .appleSleepingBreathingDisturbances: entry(
                "count",
                .discreteArithmetic,
                0...(.greatestFiniteMagnitude),
                "Respiratory"
            ),
            .forcedExpiratoryVolume1: entry("L", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Respiratory"),
            .forcedVitalCapacity: entry("L", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Respiratory"),
            .inhalerUsage: entry("count", .cumulative, 0...(.greatestFiniteMagnitude), "Respiratory"),
            .oxygenSaturation: entry("%", .discreteArithmetic, 0...1, "Respiratory"),
            .peakExpiratoryFlowRate: entry("L/min", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Respiratory"),
            .respiratoryRate: entry("count/s", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Respiratory"),
            .bloodGlucose: entry("mg/dL", .discreteArithmetic, 0...(.greatestFiniteMagnitude), "Vital Signs"),
            .bodyTemperature: entry("degC", .discreteArithmetic, -273.15...(.greatestFiniteMagnitude), "Vital Signs"),
        ]
    }()
}
