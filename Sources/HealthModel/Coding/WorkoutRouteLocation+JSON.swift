public import Foundation

// Route locations write and read their wire JSON by hand (JSONWriter, JSONReader): a route
// answer holds up to 10,000 of them, and the generic coders spent most of its time on them. The
// form is exactly the Codable one (docs/MODEL_JSON.md): members in the order of their names,
// unknown values (negative) absent; Tests/HealthModelTests/JSONWriterTests.swift compares both.

extension WorkoutRouteLocation: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"altitude\":")
        try writer.number(altitude)
        if course >= 0 {
            writer.raw(",\"course\":")
            try writer.number(course)
        }
        if courseAccuracy >= 0 {
            writer.raw(",\"courseAccuracy\":")
            try writer.number(courseAccuracy)
        }
        writer.raw(",\"horizontalAccuracy\":")
        try writer.number(horizontalAccuracy)
        writer.raw(",\"latitude\":")
        try writer.number(latitude)
        writer.raw(",\"longitude\":")
        try writer.number(longitude)
        if speed >= 0 {
            writer.raw(",\"speed\":")
            try writer.number(speed)
        }
        if speedAccuracy >= 0 {
            writer.raw(",\"speedAccuracy\":")
            try writer.number(speedAccuracy)
        }
        writer.raw(",\"timestamp\":")
        try writer.date(timestamp)
        if verticalAccuracy >= 0 {
            writer.raw(",\"verticalAccuracy\":")
            try writer.number(verticalAccuracy)
        }
        writer.raw("}")
    }

    /// Reads a location as the Codable form does: `timestamp`, `latitude`, `longitude` and
    /// `horizontalAccuracy` required, `altitude` 0 and the others -1 when absent, and the same
    /// validation.
    public init(reading reader: inout JSONReader) throws(HealthError) {
        var timestamp: Date?
        var latitude: Double?
        var longitude: Double?
        var horizontal: Double?
        var altitude = 0.0
        var vertical = -1.0
        var speed = -1.0
        var course = -1.0
        var speedAccuracy = -1.0
        var courseAccuracy = -1.0
        func optional(_ reader: inout JSONReader, _ fallback: Double) throws(HealthError) -> Double {
            try reader.null() ? fallback : try reader.double()
        }
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "timestamp": timestamp = try reader.date(field: "timestamp")
            case "latitude": latitude = try reader.double()
            case "longitude": longitude = try reader.double()
            case "horizontalAccuracy": horizontal = try reader.double()
            case "altitude": altitude = try optional(&reader, 0)
            case "verticalAccuracy": vertical = try optional(&reader, -1)
            case "speed": speed = try optional(&reader, -1)
            case "course": course = try optional(&reader, -1)
            case "speedAccuracy": speedAccuracy = try optional(&reader, -1)
            case "courseAccuracy": courseAccuracy = try optional(&reader, -1)
            default: try reader.skip()
            }
        }
        guard let timestamp, let latitude, let longitude, let horizontal else {
            throw missingField([
                ("timestamp", timestamp == nil), ("latitude", latitude == nil), ("longitude", longitude == nil),
                ("horizontalAccuracy", horizontal == nil),
            ])
        }
        try self.init(
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
