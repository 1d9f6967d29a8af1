public import Foundation

/// A workout's route (HealthKit's `HKWorkoutRoute`, a series sample of
/// `HKWorkoutRouteTypeIdentifier`): the span of its locations and how many there are. The
/// locations themselves are read with a route query, in batches (docs/WORKOUTS.md, "Routes"); a
/// route is made by a route builder, never saved whole.
public struct WorkoutRoute: HealthSample {
    public let uuid: UUID
    public let startDate: Date
    public let endDate: Date
    /// How many locations the route holds.
    public let count: Int
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    public init(
        uuid: UUID = .forNewObject(),
        start: Date,
        end: Date,
        count: Int,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: start, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        guard count >= 1 else { throw .invalidArgument("a route holds at least one location", field: "count") }
        self.uuid = uuid
        self.startDate = start
        self.endDate = end
        self.count = count
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    public var sampleType: SampleType { .workoutRoute }

    public func attributed(to sourceRevision: SourceRevision) -> WorkoutRoute {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SampleCodingKeys.self)
        let type = try container.decode(SampleType.self, forKey: .type)
        guard type == .workoutRoute else {
            throw HealthError.invalidArgument("expected \(SampleType.workoutRouteTypeIdentifier)")
                .field(at: decoder.codingPath + [SampleCodingKeys.type])
        }
        let (uuid, start, end, source, device, metadata) = try container.decodeCommon()
        let count = try container.decode(Int.self, forKey: .count)
        self = try validating(decoder) { () throws(HealthError) in
            try WorkoutRoute(
                uuid: uuid,
                start: start,
                end: end,
                count: count,
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SampleCodingKeys.self)
        try container.encodeCommon(self)
        try container.encode(count, forKey: .count)
    }
}

/// One location of a route, as CoreLocation's `CLLocation` gives it: where, when, how precisely,
/// and how fast in which direction. Distances in metres, speed in metres per second, course in
/// degrees clockwise from true north. A negative accuracy, speed or course means "not known", as
/// in CoreLocation (a negative horizontal accuracy: the coordinates are not valid, and the vault
/// refuses such a location).
public struct WorkoutRouteLocation: Hashable, Sendable, Codable {
    public let timestamp: Date
    public let latitude: Double
    public let longitude: Double
    public let altitude: Double
    public let horizontalAccuracy: Double
    public let verticalAccuracy: Double
    public let speed: Double
    public let course: Double
    public let speedAccuracy: Double
    public let courseAccuracy: Double

    /// Creates a location, or throws `invalidArgument` naming the field: a coordinate outside
    /// its range, a negative horizontal accuracy, a number that is not finite, a course of 360°
    /// or more, a date outside the years 0000-9999.
    public init(
        timestamp: Date,
        latitude: Double,
        longitude: Double,
        altitude: Double = 0,
        horizontalAccuracy: Double,
        verticalAccuracy: Double = -1,
        speed: Double = -1,
        course: Double = -1,
        speedAccuracy: Double = -1,
        courseAccuracy: Double = -1
    ) throws(HealthError) {
        guard RFC3339.representableRange.contains(timestamp) else {
            throw .invalidArgument("the timestamp is not between the years 0000 and 9999", field: "timestamp")
        }
        let numbers: [(String, Double)] = [
            ("latitude", latitude), ("longitude", longitude), ("altitude", altitude),
            ("horizontalAccuracy", horizontalAccuracy), ("verticalAccuracy", verticalAccuracy), ("speed", speed),
            ("course", course), ("speedAccuracy", speedAccuracy), ("courseAccuracy", courseAccuracy),
        ]
        for (field, value) in numbers where !value.isFinite {
            throw .invalidArgument("the \(field) must be a finite number", field: field)
        }
        guard (-90...90).contains(latitude) else {
            throw .invalidArgument("the latitude must be between -90 and 90 degrees", field: "latitude")
        }
        guard (-180...180).contains(longitude) else {
            throw .invalidArgument("the longitude must be between -180 and 180 degrees", field: "longitude")
        }
        guard horizontalAccuracy >= 0 else {
            throw .invalidArgument(
                "a negative horizontal accuracy marks coordinates that are not valid; leave such a location out",
                field: "horizontalAccuracy"
            )
        }
        guard course < 360 else {
            throw .invalidArgument("the course must be below 360 degrees (negative when not known)", field: "course")
        }
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.speedAccuracy = speedAccuracy
        self.courseAccuracy = courseAccuracy
    }

    private enum CodingKeys: String, CodingKey {
        case timestamp, latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy, speed, course
        case speedAccuracy, courseAccuracy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func optional(_ key: CodingKeys) throws -> Double {
            try container.decodeIfPresent(Double.self, forKey: key) ?? -1
        }
        let timestamp = try container.decode(Date.self, forKey: .timestamp)
        let latitude = try container.decode(Double.self, forKey: .latitude)
        let longitude = try container.decode(Double.self, forKey: .longitude)
        let altitude = try container.decodeIfPresent(Double.self, forKey: .altitude) ?? 0
        let horizontal = try container.decode(Double.self, forKey: .horizontalAccuracy)
        let (vertical, speed, course) = (try optional(.verticalAccuracy), try optional(.speed), try optional(.course))
        let (speedAccuracy, courseAccuracy) = (try optional(.speedAccuracy), try optional(.courseAccuracy))
        self = try validating(decoder) { () throws(HealthError) in
            try WorkoutRouteLocation(
                timestamp: timestamp,
                latitude: latitude,
                longitude: longitude,
                altitude: altitude,
                horizontalAccuracy: horizontal,
                verticalAccuracy: vertical,
                speed: speed,
                course: course,
                speedAccuracy: speedAccuracy,
                courseAccuracy: courseAccuracy
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(altitude, forKey: .altitude)
        try container.encode(horizontalAccuracy, forKey: .horizontalAccuracy)
        // Unknown values (negative) are written as absent.
        for (key, value) in [
            (CodingKeys.verticalAccuracy, verticalAccuracy), (.speed, speed), (.course, course),
            (.speedAccuracy, speedAccuracy), (.courseAccuracy, courseAccuracy),
        ] where value >= 0 {
            try container.encode(value, forKey: key)
        }
    }

    /// The ten numbers of the location, in the order the store packs them (docs/VAULT_FORMAT.md).
    public var packed: [Double] {
        [
            timestamp.timeIntervalSinceReferenceDate, latitude, longitude, altitude, horizontalAccuracy,
            verticalAccuracy, speed, course, speedAccuracy, courseAccuracy,
        ]
    }

    /// A location from its ten packed numbers.
    public init(packed: ArraySlice<Double>) throws(HealthError) {
        let values = Array(packed)
        guard values.count == 10 else { throw .invalidArgument("a packed location has ten numbers") }
        try self.init(
            timestamp: Date(timeIntervalSinceReferenceDate: values[0]),
            latitude: values[1],
            longitude: values[2],
            altitude: values[3],
            horizontalAccuracy: values[4],
            verticalAccuracy: values[5],
            speed: values[6],
            course: values[7],
            speedAccuracy: values[8],
            courseAccuracy: values[9]
        )
    }
}
