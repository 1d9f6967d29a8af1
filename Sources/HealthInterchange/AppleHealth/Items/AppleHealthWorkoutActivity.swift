/// A `<WorkoutActivity>` as written: one activity of a workout (iOS 16 and later), with its own
/// events, statistics and metadata.
public struct AppleHealthWorkoutActivity: Hashable, Sendable {
    public var uuid: String?
    public var startDate: String?
    public var endDate: String?
    public var duration: String?
    public var durationUnit: String?
    public var metadata: [AppleHealthMetadataEntry]
    public var events: [AppleHealthWorkoutEvent]
    public var statistics: [AppleHealthWorkoutStatistics]
    public var otherAttributes: [AppleHealthAttribute]

    public init(
        uuid: String?,
        startDate: String?,
        endDate: String?,
        duration: String? = nil,
        durationUnit: String? = nil,
        metadata: [AppleHealthMetadataEntry] = [],
        events: [AppleHealthWorkoutEvent] = [],
        statistics: [AppleHealthWorkoutStatistics] = [],
        otherAttributes: [AppleHealthAttribute] = []
    ) {
        self.uuid = uuid
        self.startDate = startDate
        self.endDate = endDate
        self.duration = duration
        self.durationUnit = durationUnit
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
        self.otherAttributes = otherAttributes
    }
}
