public import Foundation
public import HealthModel

/// The live-workout methods (docs/PROTOCOL.md, "Live workouts"; docs/WORKOUTS.md).
extension Method {
    public static let workoutSessionStart = "workoutSession.start"
    public static let workoutSessionRecover = "workoutSession.recover"
    public static let workoutSessionMirror = "workoutSession.mirror"
    public static let workoutSessionChange = "workoutSession.change"
    public static let workoutSessionState = "workoutSession.state"
    public static let workoutSessionSendData = "workoutSession.sendData"
    public static let workoutSessionUnfollow = "workoutSession.unfollow"
    public static let workoutSessionEvent = "workoutSession.event"  // a notification, daemon to client
    public static let workoutBuilderBeginCollection = "workoutBuilder.beginCollection"
    public static let workoutBuilderEndCollection = "workoutBuilder.endCollection"
    public static let workoutBuilderCollect = "workoutBuilder.collect"
    public static let workoutBuilderAdd = "workoutBuilder.add"
    public static let workoutBuilderAddEvents = "workoutBuilder.addEvents"
    public static let workoutBuilderAddMetadata = "workoutBuilder.addMetadata"
    public static let workoutBuilderBeginActivity = "workoutBuilder.beginActivity"
    public static let workoutBuilderEndActivity = "workoutBuilder.endActivity"
    public static let workoutBuilderStatistics = "workoutBuilder.statistics"
    public static let workoutBuilderFinish = "workoutBuilder.finish"
    public static let workoutBuilderDiscard = "workoutBuilder.discard"
}

public struct WorkoutSessionStartParams: Sendable, Codable {
    public var configuration: WorkoutConfiguration

    public init(configuration: WorkoutConfiguration) {
        self.configuration = configuration
    }
}

/// A session as it is now, with the builder's elapsed time; `session` absent when there is none
/// (`workoutSession.recover`).
public struct WorkoutSessionResult: Sendable, Codable {
    public var session: WorkoutSessionSnapshot?
    public var elapsedTime: TimeInterval?

    public init(session: WorkoutSessionSnapshot?, elapsedTime: TimeInterval?) {
        self.session = session
        self.elapsedTime = elapsedTime
    }
}

/// Names a session the connection follows.
public struct WorkoutSessionParams: Sendable, Codable {
    public var session: UUID

    public init(session: UUID) {
        self.session = session
    }
}

public struct WorkoutSessionChangeParams: Sendable, Codable {
    public var session: UUID
    public var action: WorkoutSessionAction
    /// When the action happens; now when absent.
    public var date: Date?

    public init(session: UUID, action: WorkoutSessionAction, date: Date? = nil) {
        self.session = session
        self.action = action
        self.date = date
    }
}

public struct WorkoutSessionChangeResult: Sendable, Codable {
    public var changes: [WorkoutSessionStateChange]

    public init(changes: [WorkoutSessionStateChange]) {
        self.changes = changes
    }
}

/// A session and a date: collection begun or ended, an activity ended, the elapsed time asked.
public struct WorkoutDateParams: Sendable, Codable {
    public var session: UUID
    public var date: Date?

    public init(session: UUID, date: Date?) {
        self.session = session
        self.date = date
    }
}

public struct WorkoutCollectParams: Sendable, Codable {
    public var session: UUID
    public var types: [SampleType]

    public init(session: UUID, types: [SampleType]) {
        self.session = session
        self.types = types
    }
}

public struct WorkoutAddParams: Sendable, Codable {
    public var session: UUID
    public var objects: [Sample]

    public init(session: UUID, objects: [Sample]) {
        self.session = session
        self.objects = objects
    }
}

public struct WorkoutEventsParams: Sendable, Codable {
    public var session: UUID
    public var events: [WorkoutEvent]

    public init(session: UUID, events: [WorkoutEvent]) {
        self.session = session
        self.events = events
    }
}

public struct WorkoutMetadataParams: Sendable, Codable {
    public var session: UUID
    public var metadata: Metadata

    public init(session: UUID, metadata: Metadata) {
        self.session = session
        self.metadata = metadata
    }
}

public struct WorkoutActivityParams: Sendable, Codable {
    public var session: UUID
    public var configuration: WorkoutConfiguration
    public var date: Date
    public var metadata: Metadata?

    public init(session: UUID, configuration: WorkoutConfiguration, date: Date, metadata: Metadata? = nil) {
        self.session = session
        self.configuration = configuration
        self.date = date
        self.metadata = metadata
    }
}

public struct WorkoutStatisticsParams: Sendable, Codable {
    public var session: UUID
    public var type: QuantityTypeIdentifier

    public init(session: UUID, type: QuantityTypeIdentifier) {
        self.session = session
        self.type = type
    }
}

public struct WorkoutFinishResult: Sendable, Codable {
    public var workout: Workout

    public init(workout: Workout) {
        self.workout = workout
    }
}

public struct WorkoutSendDataParams: Sendable, Codable {
    public var session: UUID
    /// The bytes, base64.
    public var data: String

    public init(session: UUID, data: Data) {
        self.session = session
        self.data = data.base64EncodedString()
    }
}

/// The params of a `workoutSession.event` notification: `kind` says which fields are present.
public struct WorkoutSessionEventParams: Sendable, Codable, Hashable {
    public enum Kind: String, Sendable, Codable {
        case stateChanged, generated, collected, collectedEvents, remoteData, finished, failed
    }

    public var session: UUID
    public var kind: Kind
    /// stateChanged.
    public var change: WorkoutSessionStateChange?
    /// generated.
    public var event: WorkoutEvent?
    /// collected.
    public var types: [SampleType]?
    public var statistics: [Statistics]?
    public var elapsedTime: TimeInterval?
    /// collectedEvents.
    public var events: [WorkoutEvent]?
    /// remoteData: base64.
    public var data: String?
    /// finished.
    public var workout: Workout?
    /// failed.
    public var error: HealthError?

    public init(session: UUID, kind: Kind) {
        self.session = session
        self.kind = kind
    }
}

// MARK: Routes

extension Method {
    public static let workoutRouteBegin = "workoutRoute.begin"
    public static let workoutRouteInsert = "workoutRoute.insert"
    public static let workoutRouteFinish = "workoutRoute.finish"
    public static let workoutRouteDiscard = "workoutRoute.discard"
    public static let workoutRouteList = "workoutRoute.list"
    public static let queryRoute = "query.route"  // owner too
}

/// Names a route builder.
public struct RouteBuilderParams: Sendable, Codable {
    public var builder: UUID

    public init(builder: UUID) {
        self.builder = builder
    }
}

/// One route builder under way, as `workoutRoute.list` gives it.
public struct RouteBuilderInfo: Hashable, Sendable, Codable {
    public var builder: UUID
    /// When it began.
    public var createdAt: Date
    /// How many locations it holds.
    public var count: Int
    /// The last location's timestamp; absent when it holds none.
    public var lastTimestamp: Date?

    public init(builder: UUID, createdAt: Date, count: Int, lastTimestamp: Date?) {
        self.builder = builder
        self.createdAt = createdAt
        self.count = count
        self.lastTimestamp = lastTimestamp
    }
}

public struct RouteBuildersResult: Hashable, Sendable, Codable {
    /// Oldest first.
    public var builders: [RouteBuilderInfo]

    public init(builders: [RouteBuilderInfo]) {
        self.builders = builders
    }
}

public struct RouteInsertParams: Sendable, Codable {
    public var builder: UUID
    public var locations: [WorkoutRouteLocation]

    public init(builder: UUID, locations: [WorkoutRouteLocation]) {
        self.builder = builder
        self.locations = locations
    }
}

public struct RouteInsertResult: Sendable, Codable {
    /// How many locations the builder now holds.
    public var count: Int

    public init(count: Int) {
        self.count = count
    }
}

public struct RouteFinishParams: Sendable, Codable {
    public var builder: UUID
    /// The app's own workout the route belongs to.
    public var workout: UUID
    public var metadata: Metadata?

    public init(builder: UUID, workout: UUID, metadata: Metadata? = nil) {
        self.builder = builder
        self.workout = workout
        self.metadata = metadata
    }
}

public struct RouteFinishResult: Sendable, Codable {
    public var route: WorkoutRoute

    public init(route: WorkoutRoute) {
        self.route = route
    }
}

public struct RouteQueryParams: Sendable, Codable {
    public var route: UUID
    public var offset: Int?
    public var limit: Int?

    public init(route: UUID, offset: Int? = nil, limit: Int? = nil) {
        self.route = route
        self.offset = offset
        self.limit = limit
    }
}

public struct RouteQueryResult: BatchedResult, Codable {
    public var locations: [WorkoutRouteLocation]
    /// The offset to ask from next; absent when these were the last.
    public var next: Int?
    /// The position of the first location, not sent.
    public var offset: Int

    public init(locations: [WorkoutRouteLocation], next: Int?, offset: Int = 0) {
        self.locations = locations
        self.next = next
        self.offset = offset
    }

    /// The locations, for halving an answer too large for a frame (sent so rather than refused).
    public var batch: [WorkoutRouteLocation]? {
        get { locations }
        set { locations = newValue ?? [] }
    }

    private enum CodingKeys: String, CodingKey {
        case locations, next
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        locations = try container.decode([WorkoutRouteLocation].self, forKey: .locations)
        next = try container.decodeIfPresent(Int.self, forKey: .next)
        offset = 0
    }
}
