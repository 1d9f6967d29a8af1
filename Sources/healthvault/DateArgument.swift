import ArgumentParser
import Foundation
import HealthModel

/// A date as the owner writes it on the command line (docs/COMMAND_LINE.md, "Dates"): a day, a
/// local time, an RFC 3339 instant, or a date relative to now or to today. Days and local times are
/// in the owner's time zone (`healthvault timezone`), the zone every command shows dates in, so a
/// date is read only once the daemon has said which zone that is.
///
/// ```
/// 2026-11-23                    midnight at the start of that day
/// 2026-11-23T08:00, 2026-11-23 08:00:30      that local time
/// 2026-11-23T08:00:00Z, 2026-11-23T09:00:00+01:00   that instant (RFC 3339)
/// now                           this instant
/// today, yesterday, tomorrow    midnight at the start of that day
/// -7d, +1d, -2w                 midnight at the start of the day so many days (weeks) from today
/// -12h, -30min, -90s, +1h       so many hours (minutes, seconds) from now
/// ```
struct DateArgument: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    enum Form: Sendable, Hashable {
        case instant(Date)
        /// A day or a local time: year, month, day, hour, minute, second in the owner's zone.
        case local(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)
        /// Midnight of the day so many days after today (negative: before).
        case dayFromToday(Int)
        /// So many seconds after now (negative: before).
        case fromNow(TimeInterval)
    }

    let text: String
    let form: Form

    /// The forms, as help texts show them.
    static let formats = "2026-11-23, 2026-11-23T08:00, 2026-11-23T08:00:00Z, now, today, yesterday, -7d, -12h"

    var description: String { text }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        guard let form = Self.form(of: text) else { return nil }
        self.text = text
        self.form = form
    }

    static var defaultCompletionKind: CompletionKind { .list(["now", "today", "yesterday", "-7d"]) }

    private static func form(of text: String) -> Form? {
        switch text.lowercased() {
        case "now": return .fromNow(0)
        case "today": return .dayFromToday(0)
        case "yesterday": return .dayFromToday(-1)
        case "tomorrow": return .dayFromToday(1)
        default: break
        }
        if let first = text.first, first == "-" || first == "+" {
            return relative(text.dropFirst(), sign: first == "-" ? -1 : 1)
        }
        if let instant = RFC3339.date(from: text) { return .instant(instant) }
        // A whole RFC 3339 time without its fraction of a second: RFC3339 reads both.
        return local(text)
    }

    /// `7d`, `2w`, `12h`, `30min`, `90s` after the sign.
    private static func relative(_ text: Substring, sign: Int) -> Form? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 7, let count = Int(digits) else { return nil }
        switch text.dropFirst(digits.count).lowercased() {
        case "d", "day", "days": return .dayFromToday(sign * count)
        case "w", "week", "weeks": return .dayFromToday(sign * count * 7)
        case "h", "hr", "hour", "hours": return .fromNow(Double(sign * count) * 3600)
        case "m", "min", "minute", "minutes": return .fromNow(Double(sign * count) * 60)
        case "s", "sec", "second", "seconds": return .fromNow(Double(sign * count))
        default: return nil
        }
    }

    /// `YYYY-MM-DD`, then optionally `T` or a space and `HH:MM` or `HH:MM:SS`.
    private static func local(_ text: String) -> Form? {
        let characters = Array(text)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= characters.count else { return nil }
            let slice = characters[range]
            guard slice.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(String(slice))
        }
        guard characters.count >= 10, characters[4] == "-", characters[7] == "-",
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        if characters.count > 10 {
            guard characters[10] == "T" || characters[10] == " ", characters.count == 16 || characters.count == 19,
                characters[13] == ":", let h = number(11..<13), let m = number(14..<16), h < 24, m < 60
            else { return nil }
            hour = h
            minute = m
            if characters.count == 19 {
                guard characters[16] == ":", let s = number(17..<19), s < 60 else { return nil }
                second = s
            }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        // A day that does not exist (2026-02-30) is not a date.
        guard
            let check = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: check) == day
        else { return nil }
        return .local(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The instant this names, with days and local times in `zone`.
    func date(in zone: TimeZone, now: Date = Date()) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        switch form {
        case .instant(let date):
            return date
        case .fromNow(let seconds):
            return now.addingTimeInterval(seconds)
        case .local(let year, let month, let day, let hour, let minute, let second):
            let components = DateComponents(
                year: year,
                month: month,
                day: day,
                hour: hour,
                minute: minute,
                second: second
            )
            return calendar.date(from: components) ?? now
        case .dayFromToday(let days):
            let today = calendar.startOfDay(for: now)
            // Noon, so a 23- or 25-hour day never shifts the date; then that day's midnight.
            let noon = calendar.date(byAdding: .hour, value: 12, to: today) ?? today
            let then = calendar.date(byAdding: .day, value: days, to: noon) ?? noon
            return calendar.startOfDay(for: then)
        }
    }

    /// Whether this comes after `other` in every time zone, nil when that depends on the zone
    /// (a day against an instant, a day relative to today against a time relative to now).
    func isAfter(_ other: DateArgument) -> Bool? {
        switch (form, other.form) {
        case (.instant(let a), .instant(let b)): return a > b
        case (.fromNow(let a), .fromNow(let b)): return a > b
        case (.dayFromToday(let a), .dayFromToday(let b)): return a > b
        case (.local, .local):
            guard let mine = localFields, let others = other.localFields else { return nil }
            return others.lexicographicallyPrecedes(mine)
        default: return nil
        }
    }

    /// A day or local time's fields, year first; nil for the other forms.
    private var localFields: [Int]? {
        guard case .local(let year, let month, let day, let hour, let minute, let second) = form else { return nil }
        return [year, month, day, hour, minute, second]
    }

    /// The day (`YYYY-MM-DD`) this names or falls in, in `zone`.
    func day(in zone: TimeZone, now: Date = Date()) -> String {
        if case .local(let year, let month, let day, _, _, _) = form {
            return String(format: "%04d-%02d-%02d", year, month, day)
        }
        return CalendarDay.string(of: date(in: zone, now: now), in: zone)
    }
}

extension ArgumentHelp {
    /// The help of a date option: what it selects, then the forms a date takes.
    static func date(_ meaning: String) -> ArgumentHelp {
        ArgumentHelp(
            "\(meaning) A date: \(DateArgument.formats) (days and local times in your time zone).",
            valueName: "date"
        )
    }
}
