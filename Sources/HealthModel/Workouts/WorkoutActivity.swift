public import Foundation

/// One activity of a multi-activity workout (HealthKit's `HKWorkoutActivity`): a triathlon's swim,
/// bike and run, each with its configuration, span, events and statistics.
public struct WorkoutActivity: Hashable, Sendable, Codable {
    public let uuid: UUID
    public let workoutConfiguration: WorkoutConfiguration
    public let startDate: Date
    /// Nil while a live builder's current activity has not ended; set in a saved workout.
    public let endDate: Date?
    /// Laps, segments, markers, pauses and resumes within the activity, in time order.
    public let workoutEvents: [WorkoutEvent]
    public let metadata: Metadata
    /// The statistics of each quantity type collected during the activity.
    public let allStatistics: [Statistics]

    /// Creates an activity, or throws `invalidArgument`: an end before the start, an event outside
    /// the activity, invalid metadata, or two statistics of one type.
    public init(
        uuid: UUID = .forNewObject(),
        configuration: WorkoutConfiguration,
        start: Date,
        end: Date? = nil,
        events: [WorkoutEvent] = [],
        metadata: Metadata = [:],
        statistics: [Statistics] = []
    ) throws(HealthError) {
        guard start.timeIntervalSinceReferenceDate.isFinite else {
            throw .invalidArgument("the start date is not a date", field: "startDate")
        }
        if let end, end < start {
            throw .invalidArgument("the activity ends before it starts", field: "endDate")
        }
        let span = start...(end ?? RFC3339.representableRange.upperBound)
        for (index, event) in events.enumerated() {
            do {
                try event.validate(within: span)
            } catch {
                throw error.nested(in: "workoutEvents[\(index)]")
            }
        }
        try metadata.validate()
        guard Set(statistics.map(\.quantityType)).count == statistics.count else {
            throw .invalidArgument("two statistics of one quantity type", field: "allStatistics")
        }
        self.uuid = uuid
        self.workoutConfiguration = configuration
        self.startDate = start
        self.endDate = end
        self.workoutEvents = events.sorted { $0.startDate < $1.startDate }
        self.metadata = metadata
        self.allStatistics = statistics.sorted { $0.quantityType.rawValue < $1.quantityType.rawValue }
    }

    /// The statistics of one quantity type, if it was collected (`statistics(for:)`).
    public func statistics(for type: QuantityTypeIdentifier) -> Statistics? {
        allStatistics.first { $0.quantityType == type }
    }

    /// The same activity, ended at `end`, with these statistics.
    public func ended(at end: Date, statistics: [Statistics]) throws(HealthError) -> WorkoutActivity {
        try WorkoutActivity(
            uuid: uuid,
            configuration: workoutConfiguration,
            start: startDate,
            end: end,
            events: workoutEvents,
            metadata: metadata,
            statistics: statistics
        )
    }

    private enum CodingKeys: String, CodingKey {
        case uuid, workoutConfiguration, startDate, endDate, workoutEvents, metadata, allStatistics
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let uuid = try container.decode(UUID.self, forKey: .uuid)
        let configuration = try container.decode(WorkoutConfiguration.self, forKey: .workoutConfiguration)
        let start = try container.decode(Date.self, forKey: .startDate)
        let end = try container.decodeIfPresent(Date.self, forKey: .endDate)
        let events = try container.decodeIfPresent([WorkoutEvent].self, forKey: .workoutEvents) ?? []
        let metadata = try container.decodeIfPresent(Metadata.self, forKey: .metadata) ?? [:]
        let statistics = try container.decodeIfPresent([Statistics].self, forKey: .allStatistics) ?? []
        self = try validating(decoder) { () throws(HealthError) in
            try WorkoutActivity(
                uuid: uuid,
                configuration: configuration,
                start: start,
                end: end,
                events: events,
                metadata: metadata,
                statistics: statistics
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uuid, forKey: .uuid)
        try container.encode(workoutConfiguration, forKey: .workoutConfiguration)
        try container.encode(startDate, forKey: .startDate)
        try container.encodeIfPresent(endDate, forKey: .endDate)
        if !workoutEvents.isEmpty { try container.encode(workoutEvents, forKey: .workoutEvents) }
        if !metadata.isEmpty { try container.encode(metadata, forKey: .metadata) }
        if !allStatistics.isEmpty { try container.encode(allStatistics, forKey: .allStatistics) }
    }
}
