public import Foundation

/// Something that happened during a workout (a pause, a lap), as HealthKit's `HKWorkoutEvent`.
public struct WorkoutEvent: Hashable, Sendable, Codable {
    public let type: WorkoutEventType
    public let startDate: Date
    /// Equal to `startDate` for instantaneous events (pause, resume, marker).
    public let endDate: Date
    public let metadata: Metadata

    public init(type: WorkoutEventType, start: Date, end: Date? = nil, metadata: Metadata = [:]) {
        self.type = type
        self.startDate = start
        self.endDate = end ?? start
        self.metadata = metadata
    }

    public var duration: TimeInterval { endDate.timeIntervalSince(startDate) }

    func validate(within span: ClosedRange<Date>) throws(HealthError) {
        guard endDate >= startDate else {
            throw .invalidArgument("the event ends before it starts", field: "endDate")
        }
        guard span.contains(startDate), span.contains(endDate) else {
            throw .invalidArgument("the event lies outside the workout", field: "startDate")
        }
        try metadata.validate()
    }

    private enum CodingKeys: String, CodingKey {
        case type, startDate, endDate, metadata
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try container.decode(WorkoutEventType.self, forKey: .type),
            start: try container.decode(Date.self, forKey: .startDate),
            end: try container.decodeIfPresent(Date.self, forKey: .endDate),
            metadata: try container.decodeIfPresent(Metadata.self, forKey: .metadata) ?? [:]
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        if !metadata.isEmpty {
            try container.encode(metadata, forKey: .metadata)
        }
    }
}

/// The kind of a workout event; raw values are HealthKit's (`HKWorkoutEventType`).
public enum WorkoutEventType: Int, HealthKitEnumeration {
    case pause = 1
    case resume = 2
    case lap = 3
    case marker = 4
    case motionPaused = 5
    case motionResumed = 6
    case segment = 7
    case pauseOrResumeRequest = 8

    public static let healthKitName = "HKWorkoutEventType"

    public var healthKitConstant: String { constantFromCaseName }
}
