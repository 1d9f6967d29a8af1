/// A `<WorkoutEvent>` as written: a pause, resume, lap, segment or marker.
public struct AppleHealthWorkoutEvent: Hashable, Sendable {
    /// `HKWorkoutEventTypePause`, ...
    public var type: String?
    public var date: String?
    public var duration: String?
    public var durationUnit: String?
    public var metadata: [AppleHealthMetadataEntry]
    public var otherAttributes: [AppleHealthAttribute]

    public init(
        type: String?,
        date: String?,
        duration: String? = nil,
        durationUnit: String? = nil,
        metadata: [AppleHealthMetadataEntry] = [],
        otherAttributes: [AppleHealthAttribute] = []
    ) {
        self.type = type
        self.date = date
        self.duration = duration
        self.durationUnit = durationUnit
        self.metadata = metadata
        self.otherAttributes = otherAttributes
    }
}
