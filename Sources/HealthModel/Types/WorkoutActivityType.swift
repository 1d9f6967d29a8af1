// This file lists facts from HealthKit's public headers (see docs/HEALTHKIT_MAPPING.md).

/// The kind of activity a workout records.
///
/// Raw values are HealthKit's; ``healthKitConstant`` is the spelling Apple Health exports use.
public enum WorkoutActivityType: Int, HealthKitEnumeration {
    case americanFootball = 1
    case archery = 2
    case australianFootball = 3
    case badminton = 4
    case baseball = 5
    case basketball = 6
    case bowling = 7
    case boxing = 8
    case climbing = 9
    case cricket = 10
    case crossTraining = 11
    case curling = 12
    case cycling = 13
    case dance = 14
    case danceInspiredTraining = 15
    case elliptical = 16
    case equestrianSports = 17
    case fencing = 18
    case fishing = 19
    case functionalStrengthTraining = 20
    case golf = 21
    case gymnastics = 22
    case handball = 23
    case hiking = 24
    case hockey = 25
    case hunting = 26
    case lacrosse = 27
    case martialArts = 28
    case mindAndBody = 29
    case mixedMetabolicCardioTraining = 30
    case paddleSports = 31
    case play = 32
    case preparationAndRecovery = 33
    case racquetball = 34
    case rowing = 35
    case rugby = 36
    case running = 37
    case sailing = 38
    case skatingSports = 39
    case snowSports = 40
    case soccer = 41
    case softball = 42
    case squash = 43
    case stairClimbing = 44
    case surfingSports = 45
    case swimming = 46
    case tableTennis = 47
    case tennis = 48
    case trackAndField = 49
    case traditionalStrengthTraining = 50
    case volleyball = 51
    case walking = 52
    case waterFitness = 53
    case waterPolo = 54
    case waterSports = 55
    case wrestling = 56
    case yoga = 57
    case barre = 58
    case coreTraining = 59
    case crossCountrySkiing = 60
    case downhillSkiing = 61
    case flexibility = 62
    case highIntensityIntervalTraining = 63
    case jumpRope = 64
    case kickboxing = 65
    case pilates = 66
    case snowboarding = 67
    case stairs = 68
    case stepTraining = 69
    case wheelchairWalkPace = 70
    case wheelchairRunPace = 71
    case taiChi = 72
    case mixedCardio = 73
    case handCycling = 74
    case discSports = 75
    case fitnessGaming = 76
    case cardioDance = 77
    case socialDance = 78
    case pickleball = 79
    case cooldown = 80
    case swimBikeRun = 82
    case transition = 83
    case underwaterDiving = 84
    case other = 3000
}

extension WorkoutActivityType {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKWorkoutActivityType"

    /// The constant Apple Health exports use (`HKWorkoutActivityTypeRunning`).
    public var healthKitConstant: String {
        switch self {
        case .americanFootball: "HKWorkoutActivityTypeAmericanFootball"
        case .archery: "HKWorkoutActivityTypeArchery"
        case .australianFootball: "HKWorkoutActivityTypeAustralianFootball"
        case .badminton: "HKWorkoutActivityTypeBadminton"
        case .baseball: "HKWorkoutActivityTypeBaseball"
        case .basketball: "HKWorkoutActivityTypeBasketball"
        case .bowling: "HKWorkoutActivityTypeBowling"
        case .boxing: "HKWorkoutActivityTypeBoxing"
        case .climbing: "HKWorkoutActivityTypeClimbing"
        case .cricket: "HKWorkoutActivityTypeCricket"
        case .crossTraining: "HKWorkoutActivityTypeCrossTraining"
        case .curling: "HKWorkoutActivityTypeCurling"
        case .cycling: "HKWorkoutActivityTypeCycling"
        case .dance: "HKWorkoutActivityTypeDance"
        case .danceInspiredTraining: "HKWorkoutActivityTypeDanceInspiredTraining"
        case .elliptical: "HKWorkoutActivityTypeElliptical"
        case .equestrianSports: "HKWorkoutActivityTypeEquestrianSports"
        case .fencing: "HKWorkoutActivityTypeFencing"
        case .fishing: "HKWorkoutActivityTypeFishing"
        case .functionalStrengthTraining: "HKWorkoutActivityTypeFunctionalStrengthTraining"
        case .golf: "HKWorkoutActivityTypeGolf"
        case .gymnastics: "HKWorkoutActivityTypeGymnastics"
        case .handball: "HKWorkoutActivityTypeHandball"
        case .hiking: "HKWorkoutActivityTypeHiking"
        case .hockey: "HKWorkoutActivityTypeHockey"
        case .hunting: "HKWorkoutActivityTypeHunting"
        case .lacrosse: "HKWorkoutActivityTypeLacrosse"
        case .martialArts: "HKWorkoutActivityTypeMartialArts"
        case .mindAndBody: "HKWorkoutActivityTypeMindAndBody"
        case .mixedMetabolicCardioTraining: "HKWorkoutActivityTypeMixedMetabolicCardioTraining"
        case .paddleSports: "HKWorkoutActivityTypePaddleSports"
        case .play: "HKWorkoutActivityTypePlay"
        case .preparationAndRecovery: "HKWorkoutActivityTypePreparationAndRecovery"
        case .racquetball: "HKWorkoutActivityTypeRacquetball"
        case .rowing: "HKWorkoutActivityTypeRowing"
        case .rugby: "HKWorkoutActivityTypeRugby"
        case .running: "HKWorkoutActivityTypeRunning"
        case .sailing: "HKWorkoutActivityTypeSailing"
        case .skatingSports: "HKWorkoutActivityTypeSkatingSports"
        case .snowSports: "HKWorkoutActivityTypeSnowSports"
        case .soccer: "HKWorkoutActivityTypeSoccer"
        case .softball: "HKWorkoutActivityTypeSoftball"
        case .squash: "HKWorkoutActivityTypeSquash"
        case .stairClimbing: "HKWorkoutActivityTypeStairClimbing"
        case .surfingSports: "HKWorkoutActivityTypeSurfingSports"
        case .swimming: "HKWorkoutActivityTypeSwimming"
        case .tableTennis: "HKWorkoutActivityTypeTableTennis"
        case .tennis: "HKWorkoutActivityTypeTennis"
        case .trackAndField: "HKWorkoutActivityTypeTrackAndField"
        case .traditionalStrengthTraining: "HKWorkoutActivityTypeTraditionalStrengthTraining"
        case .volleyball: "HKWorkoutActivityTypeVolleyball"
        case .walking: "HKWorkoutActivityTypeWalking"
        case .waterFitness: "HKWorkoutActivityTypeWaterFitness"
        case .waterPolo: "HKWorkoutActivityTypeWaterPolo"
        case .waterSports: "HKWorkoutActivityTypeWaterSports"
        case .wrestling: "HKWorkoutActivityTypeWrestling"
        case .yoga: "HKWorkoutActivityTypeYoga"
        case .barre: "HKWorkoutActivityTypeBarre"
        case .coreTraining: "HKWorkoutActivityTypeCoreTraining"
        case .crossCountrySkiing: "HKWorkoutActivityTypeCrossCountrySkiing"
        case .downhillSkiing: "HKWorkoutActivityTypeDownhillSkiing"
        case .flexibility: "HKWorkoutActivityTypeFlexibility"
        case .highIntensityIntervalTraining: "HKWorkoutActivityTypeHighIntensityIntervalTraining"
        case .jumpRope: "HKWorkoutActivityTypeJumpRope"
        case .kickboxing: "HKWorkoutActivityTypeKickboxing"
        case .pilates: "HKWorkoutActivityTypePilates"
        case .snowboarding: "HKWorkoutActivityTypeSnowboarding"
        case .stairs: "HKWorkoutActivityTypeStairs"
        case .stepTraining: "HKWorkoutActivityTypeStepTraining"
        case .wheelchairWalkPace: "HKWorkoutActivityTypeWheelchairWalkPace"
        case .wheelchairRunPace: "HKWorkoutActivityTypeWheelchairRunPace"
        case .taiChi: "HKWorkoutActivityTypeTaiChi"
        case .mixedCardio: "HKWorkoutActivityTypeMixedCardio"
        case .handCycling: "HKWorkoutActivityTypeHandCycling"
        case .discSports: "HKWorkoutActivityTypeDiscSports"
        case .fitnessGaming: "HKWorkoutActivityTypeFitnessGaming"
        case .cardioDance: "HKWorkoutActivityTypeCardioDance"
        case .socialDance: "HKWorkoutActivityTypeSocialDance"
        case .pickleball: "HKWorkoutActivityTypePickleball"
        case .cooldown: "HKWorkoutActivityTypeCooldown"
        case .swimBikeRun: "HKWorkoutActivityTypeSwimBikeRun"
        case .transition: "HKWorkoutActivityTypeTransition"
        case .underwaterDiving: "HKWorkoutActivityTypeUnderwaterDiving"
        case .other: "HKWorkoutActivityTypeOther"
        }
    }
}
