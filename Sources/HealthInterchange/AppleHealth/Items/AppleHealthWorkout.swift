public import Foundation
public import HealthModel

/// A `<Workout>` as written, with its metadata, events, statistics, activities and routes; and
/// its conversion to HealthModel.
public struct AppleHealthWorkout: Sendable {
    /// `HKWorkoutActivityTypeRunning`, ...
    public var workoutActivityType: String
    /// The active time, in ``durationUnit`` (`min` in exports).
    public var duration: String?
    public var durationUnit: String?
    /// Totals older exports write as attributes (newer ones write `WorkoutStatistics` instead).
    public var totalDistance: String?
    public var totalDistanceUnit: String?
    public var totalEnergyBurned: String?
    public var totalEnergyBurnedUnit: String?
    public var sourceName: String
    public var sourceVersion: String?
    public var device: String?
    public var creationDate: String?
    public var startDate: String
    public var endDate: String
    public var metadata: [AppleHealthMetadataEntry]
    public var events: [AppleHealthWorkoutEvent]
    public var statistics: [AppleHealthWorkoutStatistics]
    public var activities: [AppleHealthWorkoutActivity]
    public var routes: [AppleHealthWorkoutRoute]
    public var otherAttributes: [AppleHealthAttribute]
    public var byteOffset: Int
    var missingAttributes: [String] = []
    var prepared: PreparedSample?

    public init(
        workoutActivityType: String,
        duration: String? = nil,
        durationUnit: String? = nil,
        totalDistance: String? = nil,
        totalDistanceUnit: String? = nil,
        totalEnergyBurned: String? = nil,
        totalEnergyBurnedUnit: String? = nil,
        sourceName: String,
        sourceVersion: String? = nil,
        device: String? = nil,
        creationDate: String? = nil,
        startDate: String,
        endDate: String,
        metadata: [AppleHealthMetadataEntry] = [],
        events: [AppleHealthWorkoutEvent] = [],
        statistics: [AppleHealthWorkoutStatistics] = [],
        activities: [AppleHealthWorkoutActivity] = [],
        routes: [AppleHealthWorkoutRoute] = [],
        otherAttributes: [AppleHealthAttribute] = [],
        byteOffset: Int = 0
    ) {
        self.workoutActivityType = workoutActivityType
        self.duration = duration
        self.durationUnit = durationUnit
        self.totalDistance = totalDistance
        self.totalDistanceUnit = totalDistanceUnit
        self.totalEnergyBurned = totalEnergyBurned
        self.totalEnergyBurnedUnit = totalEnergyBurnedUnit
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
        self.activities = activities
        self.routes = routes
        self.otherAttributes = otherAttributes
        self.byteOffset = byteOffset
    }

    /// The workout's identity: activity type, source name and version, device, start and end, and
    /// its duration and totals (numbers read back, with their units).
    public var identity: AppleHealthIdentity {
        AppleHealthIdentity(
            element: "Workout",
            fields: [
                workoutActivityType, sourceName, sourceVersion, AppleHealthIdentity.device(device),
                AppleHealthIdentity.date(startDate), AppleHealthIdentity.date(endDate),
                AppleHealthIdentity.number(duration), durationUnit,
                AppleHealthIdentity.number(totalDistance), totalDistanceUnit,
                AppleHealthIdentity.number(totalEnergyBurned), totalEnergyBurnedUnit,
            ]
        )
    }

    /// The HealthModel workout: activity type, span, duration (in seconds), totals (the attributes,
    /// else the sums of the matching `WorkoutStatistics`), events, activities (each with the UUID
    /// the export gives it) and statistics, the device, the source revision and the metadata.
    /// Routes are not part of it: their locations are in the export's GPX files
    /// (``AppleHealthWorkoutRoute/fileReferences``).
    ///
    /// Throws `invalidArgument` naming the field HealthModel refuses. Parts HealthModel refuses on
    /// their own (an event outside the workout, a statistic of an unknown type, a metadata entry
    /// of the wrong kind) are left out instead, and a duration or event a second too long for
    /// the span (exports write dates to the second) is shortened: ``conversionNotes()`` says which.
    public func sample(uuid: UUID, source: Source) throws(HealthError) -> Sample {
        try preparedOrNew().sample.restamped(uuid: uuid, source: source)
    }

    /// What ``sample(uuid:source:)`` leaves out or changes, and why.
    public func conversionNotes() -> [AppleHealthConversionNote] {
        (try? preparedOrNew())?.notes ?? []
    }

    func preparedOrNew() throws(HealthError) -> PreparedSample {
        if let prepared { return prepared }
        return try prepare()
    }
}
