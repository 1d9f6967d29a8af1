public import Foundation

/// A date as Apple Health exports write it, `2020-11-02 08:15:30 -0800`: the local clock time and
/// the UTC offset it was written with.
///
/// Apple writes every date of an export in the phone's time zone at the time of the export, each
/// with the offset of that instant (so offsets change across daylight-saving changes within one
/// file). The instant is exact; the offset is kept because heart-rate-variability readings give
/// only a local clock time, to be read against their record's date and offset.
public struct AppleHealthDate: Hashable, Sendable {
    public let date: Date
    /// The UTC offset the date was written with, in seconds east of UTC (`-0800` is -28,800).
    public let utcOffsetSeconds: Int

    public init(date: Date, utcOffsetSeconds: Int) {
        self.date = date
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Reads `YYYY-MM-DD HH:MM:SS ±HHMM`; also a `T` between date and time, fractional seconds,
    /// `Z`, `±HH:MM`, and no space before the offset. Nil for anything else, a day or time that
    /// does not exist, or an offset beyond ±18:00.
    public init?(parsing text: String) {
        var text = text
        let parsed = text.withUTF8 { AppleHealthDate.parse($0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// The instant as seconds since 1970, from a proleptic Gregorian day count, without a calendar.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> AppleHealthDate? {
        var i = 0
        let count = bytes.count
        func number(_ digits: Int) -> Int? {
            guard i + digits <= count else { return nil }
            var value = 0
            for k in 0..<digits {
                let byte = bytes[i + k]
                guard Byte.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - Byte.zero)
            }
            i += digits
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < count, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2)
        else { return nil }
        guard i < count, bytes[i] == Byte.space || bytes[i] == UInt8(ascii: "T") else { return nil }
        i += 1
        guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
            let second = number(2)
        else { return nil }
        var fraction = 0.0
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            let first = i
            while i < count, Byte.isDigit(bytes[i]) {
                fraction += Double(bytes[i] - Byte.zero) * scale
                scale /= 10
                i += 1
            }
            guard i > first else { return nil }
        }
        if i < count, bytes[i] == Byte.space {
            i += 1
        }
        guard i < count else { return nil }
        var offset = 0
        if bytes[i] == UInt8(ascii: "Z") {
            i += 1
        } else {
            let sign: Int
            switch bytes[i] {
            case UInt8(ascii: "+"): sign = 1
            case UInt8(ascii: "-"): sign = -1
            default: return nil
            }
            i += 1
            guard let offsetHours = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let offsetMinutes = number(2), offsetHours <= 18, offsetMinutes < 60 else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard i == count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        return AppleHealthDate(date: Date(timeIntervalSince1970: local - Double(offset)), utcOffsetSeconds: offset)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The local midnight (as an instant) of the day this date falls on, in its own offset.
    var localMidnight: Date {
        let local = date.timeIntervalSince1970 + Double(utcOffsetSeconds)
        let midnight = (local / 86_400).rounded(.down) * 86_400
        return Date(timeIntervalSince1970: midnight - Double(utcOffsetSeconds))
    }
}

/// A time of day as heart-rate-variability readings write it: `7:35:22.12 PM`, `4:17:18.57 pm`,
/// `19:35:22.12` (also with a comma before the fraction, and `a.m.`/`p.m.`).
struct ClockTime: Hashable, Sendable {
    /// Seconds since midnight.
    let secondsSinceMidnight: Double

    init?(parsing text: String) {
        var text = text
        guard let seconds = text.withUTF8({ Self.parse($0) }) else { return nil }
        secondsSinceMidnight = seconds
    }

    /// Seconds since midnight of `H:MM:SS[.fff]`, with an AM or PM marker (any case, with dots:
    /// `p.m.`) after white space or none, Unicode spaces included (iOS 17 writes a narrow no-break
    /// space before it).
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        func digits(max: Int) -> Int? {
            var value = 0
            var taken = 0
            while i < bytes.count, Byte.isDigit(bytes[i]), taken < max {
                value = value * 10 + Int(bytes[i] - Byte.zero)
                taken += 1
                i += 1
            }
            return taken > 0 ? value : nil
        }
        while i < bytes.count, Byte.isSpace(bytes[i]) {
            i += 1
        }
        guard var hour = digits(max: 2), i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        guard let minute = digits(max: 2), i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        guard let second = digits(max: 2) else { return nil }
        var fraction = 0.0
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 0.1
            while i < bytes.count, Byte.isDigit(bytes[i]) {
                fraction += Double(bytes[i] - Byte.zero) * scale
                scale /= 10
                i += 1
            }
        }
        // The marker: what is left without its dots, white space trimmed from both ends.
        var lower = i
        var upper = bytes.count
        while lower < upper, let width = whiteSpaceWidth(bytes, at: lower) { lower += width }
        while lower < upper, let width = whiteSpaceWidth(bytes, endingAt: upper) { upper -= width }
        var letters: (UInt8, UInt8) = (0, 0)
        var count = 0
        for index in lower..<upper where bytes[index] != UInt8(ascii: ".") {
            count += 1
            guard count <= 2 else { return nil }
            let byte = bytes[index] | 0x20  // ASCII lower case; anything else matches no marker
            if count == 1 { letters.0 = byte } else { letters.1 = byte }
        }
        switch (count, letters.0, letters.1) {
        case (0, _, _):
            break
        case (2, UInt8(ascii: "a"), UInt8(ascii: "m")):
            guard (1...12).contains(hour) else { return nil }
            if hour == 12 { hour = 0 }
        case (2, UInt8(ascii: "p"), UInt8(ascii: "m")):
            guard (1...12).contains(hour) else { return nil }
            if hour != 12 { hour += 12 }
        default:
            return nil
        }
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return Double(hour * 3600 + minute * 60 + second) + fraction
    }

    /// The UTF-8 width of the white space character (Unicode's space separators and the tab)
    /// starting at `index`, or nil.
    private static func whiteSpaceWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        for width in 1...3 where index + width <= bytes.count {
            if isWhiteSpace(UnsafeBufferPointer(rebasing: bytes[index..<(index + width)])) { return width }
        }
        return nil
    }

    /// The UTF-8 width of the white space character ending just before `end`, or nil.
    private static func whiteSpaceWidth(_ bytes: UnsafeBufferPointer<UInt8>, endingAt end: Int) -> Int? {
        for width in 1...3 where end - width >= 0 {
            if isWhiteSpace(UnsafeBufferPointer(rebasing: bytes[(end - width)..<end])) { return width }
        }
        return nil
    }

    /// Whether these bytes are exactly one of: space, tab, U+00A0, U+1680, U+2000-U+200A,
    /// U+202F, U+205F, U+3000 (Foundation's `whitespaces`).
    private static func isWhiteSpace(_ c: UnsafeBufferPointer<UInt8>) -> Bool {
        switch c.count {
        case 1: return c[0] == 0x20 || c[0] == 0x09
        case 2: return c[0] == 0xC2 && c[1] == 0xA0
        case 3:
            switch (c[0], c[1], c[2]) {
            case (0xE1, 0x9A, 0x80), (0xE2, 0x80, 0xAF), (0xE2, 0x81, 0x9F), (0xE3, 0x80, 0x80): return true
            case (0xE2, 0x80, let last): return (0x80...0x8A).contains(last)
            default: return false
            }
        default: return false
        }
    }

    /// The instant this clock time names nearest to `reference`, reading it in the reference's
    /// offset on the reference's local day, the day before or the day after: a reading of
    /// `12:00:05 AM` in a record that began at `23:59:50` is the next day's.
    func resolved(near reference: AppleHealthDate) -> Date {
        let midnight = reference.localMidnight.timeIntervalSince1970
        let target = reference.date.timeIntervalSince1970
        var best = midnight + secondsSinceMidnight
        for dayShift in [-86_400.0, 86_400.0] {
            let candidate = midnight + dayShift + secondsSinceMidnight
            if abs(candidate - target) < abs(best - target) {
                best = candidate
            }
        }
        return Date(timeIntervalSince1970: best)
    }
}
