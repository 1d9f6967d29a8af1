/// A `<WorkoutStatistics>` as written: one quantity type's figures over a workout or activity.
public struct AppleHealthWorkoutStatistics: Hashable, Sendable {
    public var type: String?
    public var startDate: String?
    public var endDate: String?
    public var average: String?
    public var minimum: String?
    public var maximum: String?
    public var sum: String?
    public var unit: String?
    public var otherAttributes: [AppleHealthAttribute]

    public init(
        type: String?,
        startDate: String?,
        endDate: String?,
        average: String? = nil,
        minimum: String? = nil,
        maximum: String? = nil,
        sum: String? = nil,
        unit: String? = nil,
        otherAttributes: [AppleHealthAttribute] = []
    ) {
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.sum = sum
        self.unit = unit
        self.otherAttributes = otherAttributes
    }
}
