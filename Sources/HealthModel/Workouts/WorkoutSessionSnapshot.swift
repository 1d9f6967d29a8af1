public import Foundation

/// One state change of a workout session: the delegate's `didChangeTo:from:date:`.
public struct WorkoutSessionStateChange: Hashable, Sendable, Codable {
    public let from: WorkoutSessionState
    public let to: WorkoutSessionState
    public let date: Date

    public init(from: WorkoutSessionState, to: WorkoutSessionState, date: Date) {
        self.from = from
        self.to = to
        self.date = date
    }
}

/// A workout session and its live builder, as the vault keeps them and as `workoutSession.recover`
/// returns them (docs/WORKOUTS.md): everything the app needs to carry on after it reconnected or
/// the daemon restarted. Pure values and rules; the engine persists and enforces them.
public struct WorkoutSessionSnapshot: Hashable, Sendable, Codable {
    /// The session's id; also the id an app names it by on the wire.
    public let id: UUID
    /// The app that started it: the only one that may use it.
    public let app: String
    public let configuration: WorkoutConfiguration
    public private(set) var state: WorkoutSessionState
    /// Every state change, in order.
    public private(set) var stateChanges: [WorkoutSessionStateChange]
    /// When the activity started (`startActivity(with:)`) and stopped (`stopActivity(with:)`, or
    /// the end).
    public private(set) var startDate: Date?
    public private(set) var endDate: Date?
    public var builder: WorkoutBuilderSnapshot

    /// The most state changes a session records.
    public static let maximumStateChanges = 10_000

    public init(
        id: UUID = UUID(),
        app: String,
        configuration: WorkoutConfiguration,
        workoutUUID: UUID = .forNewObject()
    ) {
        self.id = id
        self.app = app
        self.configuration = configuration
        self.state = .notStarted
        self.stateChanges = []
        self.builder = WorkoutBuilderSnapshot(workoutUUID: workoutUUID)
    }

    /// Takes `action` at `date`: the state changes it makes, in order, and the workout events it
    /// generates (a pause or resume event, recorded by the builder once collection has begun), or
    /// `invalidArgument` for a transition HealthKit does not allow. A date before the last
    /// change is refused too: a session's history runs forwards.
    public mutating func take(
        _ action: WorkoutSessionAction,
        at date: Date
    ) throws(HealthError) -> (changes: [WorkoutSessionStateChange], events: [WorkoutEvent]) {
        let path = try state.transitions(for: action)
        if let last = stateChanges.last?.date, date < last {
            throw .invalidArgument("the date is before the session's last change", field: "date")
        }
        guard stateChanges.count + path.count <= Self.maximumStateChanges else {
            throw HealthError(
                .dataSizeExceeded,
                "a session records at most \(Self.maximumStateChanges) state changes",
                field: "state"
            )
        }
        if action == .pause || action == .resume, builder.isCollecting(at: date),
            builder.events.count >= WorkoutBuilderSnapshot.maximumEvents
        {
            throw HealthError(
                .dataSizeExceeded,
                "a workout holds at most \(WorkoutBuilderSnapshot.maximumEvents) events, pauses and resumes included",
                field: "state"
            )
        }
        var changes: [WorkoutSessionStateChange] = []
        for next in path {
            changes.append(WorkoutSessionStateChange(from: state, to: next, date: date))
            state = next
        }
        stateChanges += changes
        switch action {
        case .startActivity: startDate = date
        case .stopActivity, .end: if endDate == nil, startDate != nil { endDate = date }
        default: break
        }
        var events: [WorkoutEvent] = []
        if builder.isCollecting(at: date) {
            switch action {
            case .pause: events.append(WorkoutEvent(type: .pause, start: date))
            case .resume: events.append(WorkoutEvent(type: .resume, start: date))
            default: break
            }
            builder.events += events
        }
        return (changes, events)
    }

    /// Applies a state change the vault reported, as ``take(_:at:)`` made it: a client's copy of
    /// the session follows the vault's.
    public mutating func record(_ change: WorkoutSessionStateChange) {
        stateChanges.append(change)
        state = change.to
        if change.to == .running, startDate == nil { startDate = change.date }
        if change.to == .stopped || change.to == .ended, endDate == nil, startDate != nil { endDate = change.date }
    }

    /// The spans during which the session was running, up to `date` (the last one open while it
    /// runs).
    public func runningIntervals(until date: Date) -> [DateInterval] {
        var intervals: [DateInterval] = []
        var runningSince: Date?
        for change in stateChanges {
            if change.to == .running, runningSince == nil {
                runningSince = change.date
            } else if change.to != .running, let since = runningSince {
                intervals.append(DateInterval(start: since, end: max(since, change.date)))
                runningSince = nil
            }
        }
        if let since = runningSince, date > since { intervals.append(DateInterval(start: since, end: date)) }
        return intervals
    }

    /// The builder's elapsed time at `date` (HealthKit's `elapsedTime`): the time the session
    /// ran between the start of collection and its end (or `date`), pauses excluded.
    public func elapsedTime(at date: Date) -> TimeInterval {
        guard let begin = builder.startDate else { return 0 }
        let end = min(builder.endDate ?? date, date)
        guard end > begin else { return 0 }
        return runningIntervals(until: end).reduce(0) { total, interval in
            let start = max(interval.start, begin)
            let stop = min(interval.end, end)
            return total + max(0, stop.timeIntervalSince(start))
        }
    }

    /// Whether the builder collects a sample of `type` that starts at `start`, saved now: it is
    /// one of the data source's types, collection has begun and not ended, the session runs, and
    /// the sample starts at or after the collection's start, in a span when the session ran.
    public func collects(_ type: SampleType, startingAt start: Date) -> Bool {
        guard builder.collectedTypes.contains(type), builder.startDate != nil, builder.endDate == nil,
            state == .running, start >= builder.startDate!
        else { return false }
        return runningIntervals(until: RFC3339.representableRange.upperBound).contains {
            $0.start <= start && start < $0.end
        }
    }
}

/// A live workout builder's state (`HKLiveWorkoutBuilder`): when it collects, what its data
/// source collects, and what the workout it saves will carry.
public struct WorkoutBuilderSnapshot: Hashable, Sendable, Codable {
    /// The UUID the finished workout will have; the builder's samples are associated with it.
    public let workoutUUID: UUID
    /// `beginCollection(at:)` and `endCollection(at:)`.
    public var startDate: Date?
    public var endDate: Date?
    /// The types its data source collects (`enableCollection(for:predicate:)`), in identifier order.
    public var collectedTypes: [SampleType]
    /// Laps, segments, markers, and the session's pauses and resumes, in time order.
    public var events: [WorkoutEvent]
    public var metadata: Metadata
    /// The activities begun (`beginNewActivity`), in order; the current one has no end yet.
    public var activities: [WorkoutActivity]

    public init(workoutUUID: UUID) {
        self.workoutUUID = workoutUUID
        self.collectedTypes = []
        self.events = []
        self.metadata = [:]
        self.activities = []
    }

    /// Whether collection has begun and not ended at `date`.
    public func isCollecting(at date: Date) -> Bool {
        guard let startDate, date >= startDate else { return false }
        return endDate.map { date <= $0 } ?? true
    }

    /// The activity begun and not yet ended, if any.
    public var currentActivity: WorkoutActivity? {
        activities.last.flatMap { $0.endDate == nil ? $0 : nil }
    }

    /// The most events a builder holds, and types its data source collects.
    public static let maximumEvents = 10_000
    public static let maximumCollectedTypes = 64
    /// The most bytes the builder's metadata takes in its JSON form.
    public static let maximumMetadataBytes = 65_536

    /// `beginCollection(at:)`: once, before anything else the builder does.
    public mutating func beginCollection(at date: Date) throws(HealthError) {
        guard startDate == nil else {
            throw .invalidArgument("the builder has already begun collecting", field: "date")
        }
        guard date.timeIntervalSinceReferenceDate.isFinite else { throw .invalidArgument("not a date", field: "date") }
        startDate = date
    }

    /// `endCollection(at:)`: once, after the collection began, at or after its start and every
    /// event's and activity's start.
    public mutating func endCollection(at date: Date) throws(HealthError) {
        guard let startDate else { throw .invalidArgument("the builder has not begun collecting", field: "date") }
        guard endDate == nil else { throw .invalidArgument("the builder has already ended collecting", field: "date") }
        guard date >= startDate, events.allSatisfy({ $0.endDate <= date }),
            activities.allSatisfy({ ($0.endDate ?? $0.startDate) <= date })
        else {
            throw .invalidArgument("the end of collection is before its start, an event or an activity", field: "date")
        }
        endDate = date
    }

    /// The data source's types (`enableCollection(for:predicate:)`, `disableCollection(for:)`).
    public mutating func collect(_ types: Set<SampleType>) throws(HealthError) {
        guard types.count <= Self.maximumCollectedTypes else {
            throw HealthError(
                .dataSizeExceeded,
                "a data source collects at most \(Self.maximumCollectedTypes) types",
                field: "types"
            )
        }
        collectedTypes = types.sorted { $0.identifier < $1.identifier }
    }

    /// `addWorkoutEvents`: laps, segments, markers and the like, each within the collection (pause
    /// and resume events come from the session).
    public mutating func add(_ added: [WorkoutEvent]) throws(HealthError) {
        guard let startDate else { throw .invalidArgument("the builder has not begun collecting", field: "events") }
        guard events.count + added.count <= Self.maximumEvents else {
            throw HealthError(
                .dataSizeExceeded,
                "a workout holds at most \(Self.maximumEvents) events",
                field: "events"
            )
        }
        for (index, event) in added.enumerated() {
            if event.type == .pause || event.type == .resume {
                throw .invalidArgument(
                    "pause and resume events come from the session's pause and resume",
                    field: "events[\(index)].type"
                )
            }
            do {
                try event.validate(within: startDate...(endDate ?? RFC3339.representableRange.upperBound))
            } catch {
                throw error.nested(in: "events[\(index)]")
            }
        }
        events = (events + added).sorted { $0.startDate < $1.startDate }
    }

    /// `addMetadata`: merged into the workout's (a key given again replaces its value).
    public mutating func add(_ added: Metadata) throws(HealthError) {
        var merged = metadata
        for (key, value) in added { merged[key] = value }
        // Its fields already say `metadata.<key>`.
        try merged.validate()
        guard ((try? HealthJSON.encode(merged))?.count ?? 0) <= Self.maximumMetadataBytes else {
            throw HealthError(
                .dataSizeExceeded,
                "a workout's metadata holds at most \(Self.maximumMetadataBytes) bytes of JSON",
                field: "metadata"
            )
        }
        metadata = merged
    }

    /// `beginNewActivity(configuration:date:metadata:)`: while the builder collects, after the
    /// current activity ended.
    public mutating func beginActivity(
        _ configuration: WorkoutConfiguration,
        at date: Date,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        guard isCollecting(at: date) else {
            throw .invalidArgument("an activity begins while the builder collects", field: "date")
        }
        guard currentActivity == nil else { throw .invalidArgument("end the current activity first", field: "date") }
        if let last = activities.last?.endDate, date < last {
            throw .invalidArgument("the activity begins before the previous one ended", field: "date")
        }
        activities.append(try WorkoutActivity(configuration: configuration, start: date, metadata: metadata))
    }

    /// `endCurrentActivity(on:)`.
    public mutating func endActivity(at date: Date) throws(HealthError) {
        guard let current = currentActivity else { throw .invalidArgument("no activity is under way", field: "date") }
        guard date >= current.startDate else {
            throw .invalidArgument("the activity ends before it began", field: "date")
        }
        activities[activities.count - 1] = try current.ended(at: date, statistics: [])
    }
}
