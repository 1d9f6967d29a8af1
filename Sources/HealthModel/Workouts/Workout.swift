public import Foundation

/// A workout: an activity over a time span with its duration, totals and events, as HealthKit's
/// `HKWorkout`.
public struct Workout: HealthSample {
    public private(set) var uuid: UUID
    public let workoutActivityType: WorkoutActivityType
    public let startDate: Date
    public let endDate: Date
    /// The active time in seconds: the span minus pauses. At most `endDate - startDate`.
    public let duration: TimeInterval
    /// The energy burned, in any energy unit.
    public let totalEnergyBurned: Quantity?
    /// The distance covered, in any length unit.
    public let totalDistance: Quantity?
    /// Pauses, resumes, laps, segments and markers, in time order.
    public let workoutEvents: [WorkoutEvent]
    /// The activities of a multi-activity workout (a triathlon's swim, bike and run), in time
    /// order, each within the workout and none overlapping another.
    public let workoutActivities: [WorkoutActivity]
    /// The statistics of each quantity type collected during the workout (HealthKit's
    /// `allStatistics`), one per type.
    public let allStatistics: [Statistics]
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// Creates a workout, or throws `invalidArgument`: an end before the start, a negative
    /// duration or one longer than the span, totals in the wrong unit or negative, an event
    /// outside the workout, an activity without an end, outside the workout or overlapping
    /// another, or two statistics of one type.
    public init(
        uuid: UUID = .forNewObject(),
        activityType: WorkoutActivityType,
        start: Date,
        end: Date,
        duration: TimeInterval? = nil,
        totalEnergyBurned: Quantity? = nil,
        totalDistance: Quantity? = nil,
        events: [WorkoutEvent] = [],
        activities: [WorkoutActivity] = [],
        statistics: [Statistics] = [],
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: start, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        let span = end.timeIntervalSince(start)
        let duration = duration ?? span
        guard duration.isFinite, duration >= 0 else {
            throw .invalidArgument("the duration must be a finite number of seconds, at least 0", field: "duration")
        }
        // A millisecond of slack: durations computed by another system from rounded dates.
        guard duration <= span + 0.001 else {
            throw .invalidArgument("the duration is longer than the workout's span", field: "duration")
        }
        try Self.validateTotal(totalEnergyBurned, compatibleWith: .kilocalorie, field: "totalEnergyBurned")
        try Self.validateTotal(totalDistance, compatibleWith: .meter, field: "totalDistance")
        for (index, event) in events.enumerated() {
            do {
                try event.validate(within: start...end)
            } catch {
                throw error.nested(in: "workoutEvents[\(index)]")
            }
        }
        let activities = activities.sorted { $0.startDate < $1.startDate }
        for (index, activity) in activities.enumerated() {
            let field = "workoutActivities[\(index)]"
            guard let activityEnd = activity.endDate else {
                throw .invalidArgument("an activity of a saved workout must have ended", field: field + ".endDate")
            }
            guard activity.startDate >= start, activityEnd <= end else {
                throw .invalidArgument("the activity lies outside the workout", field: field + ".startDate")
            }
            if index > 0, let previousEnd = activities[index - 1].endDate, activity.startDate < previousEnd {
                throw .invalidArgument("the activity overlaps the one before it", field: field + ".startDate")
            }
        }
        guard Set(statistics.map(\.quantityType)).count == statistics.count else {
            throw .invalidArgument("two statistics of one quantity type", field: "allStatistics")
        }
        self.uuid = uuid
        self.workoutActivityType = activityType
        self.startDate = start
        self.endDate = end
        self.duration = duration
        self.totalEnergyBurned = totalEnergyBurned
        self.totalDistance = totalDistance
        self.workoutEvents = events.sorted { $0.startDate < $1.startDate }
        self.workoutActivities = activities
        self.allStatistics = statistics.sorted { $0.quantityType.rawValue < $1.quantityType.rawValue }
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    private static func validateTotal(
        _ total: Quantity?,
        compatibleWith unit: HealthUnit,
        field: String
    ) throws(HealthError) {
        guard let total else { return }
        guard total.unit.isCompatible(with: unit) else {
            throw .invalidArgument("unit \(total.unit) is not compatible with \(unit)", field: field + ".unit")
        }
        guard total.value.isFinite, total.value >= 0 else {
            throw .invalidArgument("the total must be a finite number, at least 0", field: field + ".value")
        }
    }

    public var sampleType: SampleType { .workout }

    /// The statistics of one quantity type, if it was collected (`statistics(for:)`).
    public func statistics(for type: QuantityTypeIdentifier) -> Statistics? {
        allStatistics.first { $0.quantityType == type }
    }

    /// This sample under another UUID and source revision, checking only the revision: the rest
    /// was checked when it was made (an importer names a converted record this way).
    public func renamed(uuid: UUID, attributedTo sourceRevision: SourceRevision) throws(HealthError) -> Workout {
        try sourceRevision.validate()
        var copy = self
        copy.uuid = uuid
        copy.sourceRevision = sourceRevision
        return copy
    }

    public func attributed(to sourceRevision: SourceRevision) -> Workout {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SampleCodingKeys.self)
        let type = try container.decode(SampleType.self, forKey: .type)
        guard type == .workout else {
            throw HealthError.invalidArgument("expected \(ObjectType.workoutTypeIdentifier)")
                .field(at: decoder.codingPath + [SampleCodingKeys.type])
        }
        let (uuid, start, end, source, device, metadata) = try container.decodeCommon()
        let activityType = try container.decode(WorkoutActivityType.self, forKey: .workoutActivityType)
        let duration = try container.decodeIfPresent(TimeInterval.self, forKey: .duration)
        let energy = try container.decodeIfPresent(Quantity.self, forKey: .totalEnergyBurned)
        let distance = try container.decodeIfPresent(Quantity.self, forKey: .totalDistance)
        let events = try container.decodeIfPresent([WorkoutEvent].self, forKey: .workoutEvents) ?? []
        let activities = try container.decodeIfPresent([WorkoutActivity].self, forKey: .workoutActivities) ?? []
        let statistics = try container.decodeIfPresent([Statistics].self, forKey: .allStatistics) ?? []
        self = try validating(decoder) { () throws(HealthError) in
            try Workout(
                uuid: uuid,
                activityType: activityType,
                start: start,
                end: end,
                duration: duration,
                totalEnergyBurned: energy,
                totalDistance: distance,
                events: events,
                activities: activities,
                statistics: statistics,
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SampleCodingKeys.self)
        try container.encodeCommon(self)
        try container.encode(workoutActivityType, forKey: .workoutActivityType)
        try container.encode(duration, forKey: .duration)
        try container.encodeIfPresent(totalEnergyBurned, forKey: .totalEnergyBurned)
        try container.encodeIfPresent(totalDistance, forKey: .totalDistance)
        if !workoutEvents.isEmpty {
            try container.encode(workoutEvents, forKey: .workoutEvents)
        }
        if !workoutActivities.isEmpty {
            try container.encode(workoutActivities, forKey: .workoutActivities)
        }
        if !allStatistics.isEmpty {
            try container.encode(allStatistics, forKey: .allStatistics)
        }
    }
}
