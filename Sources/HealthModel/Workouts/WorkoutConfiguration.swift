public import Foundation

/// What a workout session or a workout activity is (HealthKit's `HKWorkoutConfiguration`): the
/// activity, where it happens, and for swimming, where and the pool's lap length.
public struct WorkoutConfiguration: Hashable, Sendable, Codable {
    public let activityType: WorkoutActivityType
    public let locationType: WorkoutSessionLocationType
    /// Swimming workouts only.
    public let swimmingLocationType: WorkoutSwimmingLocationType
    /// The pool's length, a length quantity; pool swimming only.
    public let lapLength: Quantity?

    /// Creates a configuration, or throws `invalidArgument`: a swimming location for an activity
    /// other than swimming, or a lap length that is not a positive length, or given for anything
    /// but pool swimming.
    public init(
        activityType: WorkoutActivityType,
        locationType: WorkoutSessionLocationType = .unknown,
        swimmingLocationType: WorkoutSwimmingLocationType = .unknown,
        lapLength: Quantity? = nil
    ) throws(HealthError) {
        if swimmingLocationType != .unknown, activityType != .swimming {
            throw .invalidArgument("a swimming location is for swimming workouts only", field: "swimmingLocationType")
        }
        if let lapLength {
            guard swimmingLocationType == .pool else {
                throw .invalidArgument("a lap length is for pool swimming only", field: "lapLength")
            }
            guard lapLength.unit.isCompatible(with: .meter) else {
                throw .invalidArgument("unit \(lapLength.unit) is not a length", field: "lapLength.unit")
            }
            guard lapLength.value.isFinite, lapLength.value > 0 else {
                throw .invalidArgument("the lap length must be a positive number", field: "lapLength.value")
            }
        }
        self.activityType = activityType
        self.locationType = locationType
        self.swimmingLocationType = swimmingLocationType
        self.lapLength = lapLength
    }

    private enum CodingKeys: String, CodingKey {
        case activityType, locationType, swimmingLocationType, lapLength
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let activityType = try container.decode(WorkoutActivityType.self, forKey: .activityType)
        let location = try container.decodeIfPresent(WorkoutSessionLocationType.self, forKey: .locationType)
        let swimming = try container.decodeIfPresent(WorkoutSwimmingLocationType.self, forKey: .swimmingLocationType)
        let lapLength = try container.decodeIfPresent(Quantity.self, forKey: .lapLength)
        self = try validating(decoder) { () throws(HealthError) in
            try WorkoutConfiguration(
                activityType: activityType,
                locationType: location ?? .unknown,
                swimmingLocationType: swimming ?? .unknown,
                lapLength: lapLength
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activityType, forKey: .activityType)
        try container.encode(locationType, forKey: .locationType)
        if swimmingLocationType != .unknown {
            try container.encode(swimmingLocationType, forKey: .swimmingLocationType)
        }
        try container.encodeIfPresent(lapLength, forKey: .lapLength)
    }
}

/// Where a workout happens; raw values are HealthKit's (`HKWorkoutSessionLocationType`).
public enum WorkoutSessionLocationType: Int, HealthKitEnumeration {
    case unknown = 1
    case indoor = 2
    case outdoor = 3

    public static let healthKitName = "HKWorkoutSessionLocationType"

    public var healthKitConstant: String { constantFromCaseName }
}

extension WorkoutActivityType {
    /// The distance type a workout of this activity totals and a live data source collects
    /// (docs/WORKOUTS.md, `finishWorkout()`), as HealthKit pairs them; nil for an activity without
    /// one.
    public var distanceType: QuantityTypeIdentifier? {
        switch self {
        case .running, .walking, .hiking, .trackAndField, .stairs, .stairClimbing: .distanceWalkingRunning
        case .cycling, .handCycling: .distanceCycling
        case .swimming, .swimBikeRun: .distanceSwimming
        case .wheelchairWalkPace, .wheelchairRunPace: .distanceWheelchair
        case .downhillSkiing, .snowboarding, .snowSports: .distanceDownhillSnowSports
        case .crossCountrySkiing: .distanceCrossCountrySkiing
        case .paddleSports: .distancePaddleSports
        case .rowing: .distanceRowing
        case .skatingSports: .distanceSkatingSports
        default: nil
        }
    }
}
