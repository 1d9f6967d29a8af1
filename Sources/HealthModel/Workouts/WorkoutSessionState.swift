/// A workout session's state; raw values are HealthKit's (`HKWorkoutSessionState`).
public enum WorkoutSessionState: Int, HealthKitEnumeration, CustomStringConvertible {
    case notStarted = 1
    case running = 2
    case ended = 3
    case paused = 4
    case prepared = 5
    case stopped = 6

    public static let healthKitName = "HKWorkoutSessionState"

    public var healthKitConstant: String { constantFromCaseName }

    public var description: String {
        switch self {
        case .notStarted: "notStarted"
        case .running: "running"
        case .ended: "ended"
        case .paused: "paused"
        case .prepared: "prepared"
        case .stopped: "stopped"
        }
    }

    /// Whether the session has not ended: the one of its app that it can recover.
    public var isActive: Bool { self != .ended }

    /// The states a session passes through, in order, when `action` is taken in this state
    /// (HealthKit's transitions; docs/WORKOUTS.md draws them as a table), or `invalidArgument`
    /// (field `state`) naming the states the action needs. `end` from running or paused stops
    /// the activity first, so it passes through stopped.
    public func transitions(for action: WorkoutSessionAction) throws(HealthError) -> [WorkoutSessionState] {
        let allowed: [WorkoutSessionState]
        let path: [WorkoutSessionState]
        switch action {
        case .prepare:
            (allowed, path) = ([.notStarted], [.prepared])
        case .startActivity:
            (allowed, path) = ([.notStarted, .prepared], [.running])
        case .pause:
            (allowed, path) = ([.running], [.paused])
        case .resume:
            (allowed, path) = ([.paused], [.running])
        case .stopActivity:
            (allowed, path) = ([.running, .paused], [.stopped])
        case .end:
            allowed = [.notStarted, .prepared, .running, .paused, .stopped]
            path = self == .running || self == .paused ? [.stopped, .ended] : [.ended]
        }
        guard allowed.contains(self) else {
            throw .invalidArgument(
                "cannot \(action) a session that is \(self); \(action) needs a session that is "
                    + allowed.map(\.description).joined(separator: " or "),
                field: "state"
            )
        }
        return path
    }
}

/// What an app asks of its workout session (the methods of HealthKit's `HKWorkoutSession`).
public enum WorkoutSessionAction: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case prepare
    case startActivity
    case pause
    case resume
    case stopActivity
    case end

    public var description: String { rawValue }
}
