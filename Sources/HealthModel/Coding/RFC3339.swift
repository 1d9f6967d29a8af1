public import Foundation

/// Reads and writes dates as RFC 3339 timestamps with fractional seconds, the wire form of every date.
///
/// Written in UTC with the fewest fractional digits (at least three; nine at most, except within
/// about 97 days of 2001-01-01) with which it reads back as exactly the same `Date`. Read with `Z` or a numeric offset, with or without a
/// fraction. Implemented with integer arithmetic, not a formatter, so it is exact and `Sendable`.
public enum RFC3339 {
    /// Seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
    private static let unixToReference: Int64 = 978_307_200

    /// The instants the form can write: years 0000 to 9999.
    public static let representableRange: ClosedRange<Date> =
        Date(
            timeIntervalSinceReferenceDate: -63_145_526_400
        )...Date(timeIntervalSinceReferenceDate: 252_423_993_600.0.nextDown)

    /// `2026-11-22T10:15:30.250Z`. A date outside ``representableRange`` (or not finite) is written
    /// as the nearest end of the range; validation refuses such dates before they are stored.
    public static func string(from date: Date) -> String {
        let date =
            date.timeIntervalSinceReferenceDate.isNaN
            ? representableRange.lowerBound
            : min(max(date, representableRange.lowerBound), representableRange.upperBound)
        let reference = date.timeIntervalSinceReferenceDate
        let whole = reference.rounded(.down)
        // Exact: both numbers are close, so the subtraction loses nothing.
        let fraction = reference - whole
        // A whole second is exact in any number of digits: nothing to check.
        if fraction == 0 {
            return format(whole: whole, fraction: 0, digits: 3)
        }
        // The fewest digits (at least three) that read back as this very date: a date sent with
        // milliseconds comes back as it was sent. Nine reproduce every date after April 2001;
        // nearer Foundation's reference date a Double is finer than a nanosecond, so up to 17.
        // Each candidate is read back as ``date(from:)`` reads it, without making its string: the
        // whole seconds plus the correctly rounded value of the digits (units / 10^digits).
        for digits in 3...17 {
            let scale = pow(10, Double(digits))
            var seconds = whole
            var units = (fraction * scale).rounded()
            if units >= scale {
                units = 0
                seconds += 1
            }
            if digits == 17 || seconds + units / scale == reference {
                return format(whole: whole, fraction: fraction, digits: digits)
            }
        }
        return format(whole: whole, fraction: fraction, digits: 9)
    }

    /// Appends ``string(from:)``'s UTF-8 bytes; a date on a whole second without making a string.
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        let reference = date.timeIntervalSinceReferenceDate
        guard representableRange.contains(date), reference.rounded(.down) == reference else {
            bytes.append(contentsOf: string(from: date).utf8)
            return
        }
        appendDateTime(unix: Int64(reference) + unixToReference, to: &bytes)
        bytes.append(contentsOf: ".000Z".utf8)
    }

    private static func format(whole: Double, fraction: Double, digits: Int) -> String {
        let scale = pow(10, Double(digits))
        var whole = Int64(whole)
        var units = Int64((fraction * scale).rounded())
        if Double(units) >= scale {
            units = 0
            whole += 1
        }
        var fractionText = pad(units, digits)
        while fractionText.count > 3 && fractionText.hasSuffix("0") {
            fractionText.removeLast()
        }
        var bytes: [UInt8] = []
        appendDateTime(unix: whole + unixToReference, to: &bytes)
        return String(decoding: bytes, as: UTF8.self) + "." + fractionText + "Z"
    }

    /// `YYYY-MM-DDTHH:MM:SS` of a whole second since 1970, in UTC.
    private static func appendDateTime(unix: Int64, to bytes: inout [UInt8]) {
        let days = floorDiv(unix, 86_400)
        let second = unix - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        // Written into a buffer of its own and appended at once: each append checks the capacity.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 19) { text in
            func digits(_ value: Int64, at offset: Int, _ width: Int) {
                var value = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            digits(year, at: 0, 4)
            text[4] = UInt8(ascii: "-")
            digits(month, at: 5, 2)
            text[7] = UInt8(ascii: "-")
            digits(day, at: 8, 2)
            text[10] = UInt8(ascii: "T")
            digits(second / 3600, at: 11, 2)
            text[13] = UInt8(ascii: ":")
            digits(second / 60 % 60, at: 14, 2)
            text[16] = UInt8(ascii: ":")
            digits(second % 60, at: 17, 2)
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// Reads an RFC 3339 timestamp; nil when it is not one.
    public static func date(from string: String) -> Date? {
        date(utf8: Array(string.utf8)[...])
    }

    /// Reads an RFC 3339 timestamp from its UTF-8 bytes; nil when it is not one.
    public static func date(utf8 bytes: ArraySlice<UInt8>) -> Date? {
        var index = bytes.startIndex
        func number(_ digits: Int) -> Int64? {
            guard index + digits <= bytes.endIndex else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += digits
            return value
        }
        // One of the bytes given: a separator, or either case of a letter.
        func expect(_ byte: UInt8, or other: UInt8? = nil, or third: UInt8? = nil) -> Bool {
            guard index < bytes.endIndex else { return false }
            let next = bytes[index]
            guard next == byte || next == other || next == third else { return false }
            index += 1
            return true
        }
        let dash = UInt8(ascii: "-")
        let colon = UInt8(ascii: ":")
        guard let year = number(4), expect(dash), let month = number(2), expect(dash), let day = number(2),
            expect(UInt8(ascii: "T"), or: UInt8(ascii: "t"), or: UInt8(ascii: " ")), let hour = number(2),
            expect(colon), let minute = number(2), expect(colon), let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var fraction = 0.0
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            let start = index
            index += 1
            while index < bytes.endIndex, bytes[index] >= 48, bytes[index] <= 57 {
                index += 1
            }
            guard index > start + 1 else { return nil }
            // "0.<digits>" read by the standard library is correctly rounded; zeros are zero.
            if bytes[(start + 1)..<index].contains(where: { $0 != UInt8(ascii: "0") }) {
                guard let value = Double("0" + String(decoding: bytes[start..<index], as: UTF8.self)) else {
                    return nil
                }
                fraction = value
            }
        }
        var offset: Int64 = 0
        if expect(UInt8(ascii: "Z"), or: UInt8(ascii: "z")) {
            offset = 0
        } else if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[index] == UInt8(ascii: "+") ? 1 : -1
            index += 1
            guard let offsetHours = number(2), expect(colon), let offsetMinutes = number(2), offsetHours < 24,
                offsetMinutes < 60
            else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard index == bytes.endIndex else { return nil }
        let unix = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSinceReferenceDate: Double(unix - unixToReference) + fraction)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil and civil-from-days algorithms (proleptic Gregorian).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
