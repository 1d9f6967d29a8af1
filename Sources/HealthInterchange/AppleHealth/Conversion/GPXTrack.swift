import Foundation
public import HealthModel

/// The locations of a workout route's GPX file as Apple's export writes it: `<trkpt lat= lon=>`
/// with `<ele>`, `<time>` and, in `<extensions>`, `<speed>`, `<course>`, `<hAcc>` and `<vAcc>`.
///
/// Read byte by byte, without a document tree; a point without a readable latitude, longitude or
/// time, or one HealthModel refuses (coordinates out of range), is left out and counted. A
/// missing accuracy, speed or course is -1 (HealthKit's "not known"), but for the horizontal
/// accuracy, which HealthKit requires: 0 is not claimed, the point is kept with -1 replaced by the
/// vertical accuracy when there is one, else left out. Points are sorted by time.
public struct GPXTrack: Sendable {
    public var locations: [WorkoutRouteLocation] = []
    /// Points left out (unreadable, or refused by HealthModel).
    public var skipped = 0

    public init(_ bytes: [UInt8]) {
        var position = 0
        let open = Array("<trkpt".utf8)
        let close = Array("</trkpt>".utf8)
        while let start = Self.find(open, in: bytes, from: position) {
            guard let tagEnd = Self.find([UInt8(ascii: ">")], in: bytes, from: start) else { break }
            let selfClosing = tagEnd > start && bytes[tagEnd - 1] == UInt8(ascii: "/")
            let end = selfClosing ? tagEnd : (Self.find(close, in: bytes, from: tagEnd) ?? bytes.count)
            let tag = bytes[start..<tagEnd]
            let body = selfClosing ? bytes[tagEnd..<tagEnd] : bytes[(tagEnd + 1)..<end]
            position = end + (selfClosing ? 1 : close.count)
            guard let latitude = Self.attribute("lat", in: tag).flatMap(Double.init),
                let longitude = Self.attribute("lon", in: tag).flatMap(Double.init),
                let timeText = Self.element("time", in: body),
                let time = AppleHealthDate(parsing: timeText)
            else {
                skipped += 1
                continue
            }
            func number(_ name: String) -> Double? { Self.element(name, in: body).flatMap(Double.init) }
            let vertical = number("vAcc") ?? -1
            guard let horizontal = number("hAcc") ?? (vertical >= 0 ? vertical : nil),
                let location = try? WorkoutRouteLocation(
                    timestamp: time.date,
                    latitude: latitude,
                    longitude: longitude,
                    altitude: number("ele") ?? 0,
                    horizontalAccuracy: horizontal,
                    verticalAccuracy: vertical,
                    speed: number("speed") ?? -1,
                    course: number("course").map { $0 >= 360 ? $0.truncatingRemainder(dividingBy: 360) : $0 } ?? -1
                )
            else {
                skipped += 1
                continue
            }
            locations.append(location)
        }
        locations.sort { $0.timestamp < $1.timestamp }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, from < bytes.count else { return nil }
        var index = from
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// An attribute's value in a start tag, in either quote.
    private static func attribute(_ name: String, in tag: ArraySlice<UInt8>) -> String? {
        let key = Array((" " + name + "=").utf8)
        guard let at = find(key, in: Array(tag), from: 0) else { return nil }
        let bytes = Array(tag)
        let quoteIndex = at + key.count
        guard quoteIndex < bytes.count else { return nil }
        let quote = bytes[quoteIndex]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
            let close = bytes[(quoteIndex + 1)...].firstIndex(of: quote)
        else { return nil }
        return String(decoding: bytes[(quoteIndex + 1)..<close], as: UTF8.self)
    }

    /// The text of the first `<name>…</name>` in a point's body, trimmed.
    private static func element(_ name: String, in body: ArraySlice<UInt8>) -> String? {
        let bytes = Array(body)
        guard let open = find(Array("<\(name)>".utf8), in: bytes, from: 0),
            let close = find(Array("</\(name)>".utf8), in: bytes, from: open)
        else { return nil }
        let text = String(decoding: bytes[(open + name.count + 2)..<close], as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
