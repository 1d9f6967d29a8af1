import Foundation
public import HealthModel

/// The locations of a workout route's GPX file as Apple's export writes it: `<trkpt lat= lon=>`
/// with `<ele>`, `<time>` and, in `<extensions>`, `<speed>`, `<course>`, `<hAcc>` and `<vAcc>`.
///
/// Read byte by byte, without a document tree or a string per value (a year of runs is close to
/// a million points); a point without a readable latitude, longitude or time, or one HealthModel
/// refuses (coordinates out of range), is left out and counted. Numbers are decimal as GPX writes
/// them (no `nan`, `inf` or hexadecimal). A missing accuracy, speed or course is -1 (HealthKit's
/// "not known"), but for the horizontal accuracy, which HealthKit requires: 0 is not claimed, the
/// point is kept with -1 replaced by the vertical accuracy when there is one, else left out.
/// Points are sorted by time.
public struct GPXTrack: Sendable {
    public var locations: [WorkoutRouteLocation] = []
    /// Points left out (unreadable, or refused by HealthModel).
    public var skipped = 0

    public init(_ bytes: [UInt8]) {
        (locations, skipped) = bytes.withUnsafeBufferPointer { Self.read($0) }
    }

    /// The values a point's body gives, by the element they come from.
    private enum Field: Int, CaseIterable {
        case elevation, time, speed, course, horizontalAccuracy, verticalAccuracy

        static let names: [[UInt8]] = ["ele", "time", "speed", "course", "hAcc", "vAcc"].map { Array($0.utf8) }
    }

    private static let pointOpen = Array("<trkpt".utf8)
    private static let pointClose = Array("</trkpt>".utf8)

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> ([WorkoutRouteLocation], Int) {
        var locations: [WorkoutRouteLocation] = []
        var skipped = 0
        var position = 0
        while let start = find(pointOpen, in: bytes, from: position) {
            // `<trkpt` and not `<trkptx`: the name ends at a space, `>` or `/`.
            let afterName = start + pointOpen.count
            guard afterName < bytes.count, isNameEnd(bytes[afterName]) else {
                position = afterName
                continue
            }
            guard let tagEnd = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: afterName) else {
                skipped += 1
                break
            }
            let selfClosing = bytes[tagEnd - 1] == UInt8(ascii: "/")
            let end = selfClosing ? tagEnd : (find(pointClose, in: bytes, from: tagEnd) ?? bytes.count)
            position = selfClosing ? tagEnd + 1 : min(end + pointClose.count, bytes.count)
            let body = selfClosing ? tagEnd..<tagEnd : (tagEnd + 1)..<end
            var fields = [Range<Int>?](repeating: nil, count: Field.allCases.count)
            readFields(bytes, body, into: &fields)
            func number(_ field: Field) -> Double? { fields[field.rawValue].flatMap { ExportValues.number(bytes, $0) } }
            guard
                let latitude = attribute("lat", in: bytes, afterName..<tagEnd).flatMap({
                    ExportValues.number(bytes, $0)
                }),
                let longitude = attribute("lon", in: bytes, afterName..<tagEnd).flatMap({
                    ExportValues.number(bytes, $0)
                }),
                let timeRange = fields[Field.time.rawValue],
                let time = AppleHealthDate.parse(
                    UnsafeBufferPointer(rebasing: bytes[ExportValues.trimmed(bytes, timeRange)])
                )
            else {
                skipped += 1
                continue
            }
            let vertical = number(.verticalAccuracy) ?? -1
            guard let horizontal = number(.horizontalAccuracy) ?? (vertical >= 0 ? vertical : nil),
                let location = try? WorkoutRouteLocation(
                    timestamp: time.date,
                    latitude: latitude,
                    longitude: longitude,
                    altitude: number(.elevation) ?? 0,
                    horizontalAccuracy: horizontal,
                    verticalAccuracy: vertical,
                    speed: number(.speed) ?? -1,
                    course: number(.course).map { $0 >= 360 ? $0.truncatingRemainder(dividingBy: 360) : $0 } ?? -1
                )
            else {
                skipped += 1
                continue
            }
            locations.append(location)
        }
        locations.sort { $0.timestamp < $1.timestamp }
        return (locations, skipped)
    }

    /// The text of each `<name>text</name>` in a point's body whose name is a field's (the first
    /// of each), at any depth (`<extensions>` holds four of them).
    private static func readFields(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ body: Range<Int>,
        into fields: inout [Range<Int>?]
    ) {
        var index = body.lowerBound
        while let open = firstIndex(of: UInt8(ascii: "<"), in: bytes, from: index, before: body.upperBound) {
            index = open + 1
            // A start tag without attributes: `<name>`.
            guard let close = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: index, before: body.upperBound)
            else { return }
            let name = index..<close
            index = close + 1
            guard let field = Field.allCases.first(where: { equal(bytes, name, Field.names[$0.rawValue]) }),
                fields[field.rawValue] == nil,
                let textEnd = firstIndex(of: UInt8(ascii: "<"), in: bytes, from: index, before: body.upperBound),
                textEnd + 2 + name.count < body.upperBound,
                bytes[textEnd + 1] == UInt8(ascii: "/"),
                bytes[textEnd + 2 + name.count] == UInt8(ascii: ">"),
                equal(bytes, (textEnd + 2)..<(textEnd + 2 + name.count), Field.names[field.rawValue])
            else { continue }
            fields[field.rawValue] = index..<textEnd
            index = textEnd
        }
    }

    /// An attribute's value in a start tag (after its name), in either quote.
    private static func attribute(
        _ name: StaticString,
        in bytes: UnsafeBufferPointer<UInt8>,
        _ tag: Range<Int>
    ) -> Range<Int>? {
        let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        var index = tag.lowerBound
        while index + key.count < tag.upperBound {
            // The name follows white space and is followed by `=` (spaces around it allowed).
            if Byte.isSpace(bytes[index]), equal(bytes, (index + 1)..<(index + 1 + key.count), key) {
                var at = index + 1 + key.count
                while at < tag.upperBound, Byte.isSpace(bytes[at]) { at += 1 }
                if at < tag.upperBound, bytes[at] == UInt8(ascii: "=") {
                    at += 1
                    while at < tag.upperBound, Byte.isSpace(bytes[at]) { at += 1 }
                    guard at < tag.upperBound else { return nil }
                    let quote = bytes[at]
                    guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
                        let close = firstIndex(of: quote, in: bytes, from: at + 1, before: tag.upperBound)
                    else { return nil }
                    return (at + 1)..<close
                }
            }
            index += 1
        }
        return nil
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        Byte.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }

    private static func equal<C: Collection<UInt8>>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        _ other: C
    ) -> Bool {
        range.count == other.count && bytes[range].elementsEqual(other)
    }

    private static func firstIndex(
        of byte: UInt8,
        in bytes: UnsafeBufferPointer<UInt8>,
        from: Int,
        before end: Int? = nil
    ) -> Int? {
        let end = end ?? bytes.count
        guard from < end, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + from, Int32(byte), end - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let first = needle.first else { return nil }
        var index = from
        while let candidate = firstIndex(of: first, in: bytes, from: index) {
            guard candidate + needle.count <= bytes.count else { return nil }
            if equal(bytes, candidate..<(candidate + needle.count), needle) { return candidate }
            index = candidate + 1
        }
        return nil
    }
}
