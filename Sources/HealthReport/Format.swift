import Foundation
import HealthModel

/// How the report writes numbers, dates, durations and units. Numbers are rounded to a fixed
/// number of decimals per figure (``decimals(for:)``), with commas between thousands; the tests
/// read them back with the same rule (docs/REPORT.md, "Numbers").
enum Format {
    /// `value` with `decimals` decimals and thousands grouped by commas: `12,345.6`.
    static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        var text = String(format: "%.\(decimals)f", value)
        if text.hasPrefix("-"), Double(text) == 0 { text.removeFirst() }
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var whole = String(parts[0])
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        grouped = whole + grouped
        if parts.count > 1 { grouped += "." + parts[1] }
        return (negative ? "-" : "") + grouped
    }

    /// Decimals for a quantity in `unit`: one for masses, two for distances in km or mi, else
    /// whole numbers (steps, kcal, bpm, ms, mmHg, minutes).
    static func decimals(for unit: HealthUnit) -> Int {
        switch unit.unitString {
        case "kg", "lb", "st", "g", "oz": 1
        case "km", "mi": 2
        default: 0
        }
    }

    /// A unit as the report labels it: `bpm` for count/min, `°C`, `°F`, `h`; else HealthKit's string.
    static func unitLabel(_ unit: HealthUnit) -> String {
        switch unit.unitString {
        case "count/min": "bpm"
        case "degC": "°C"
        case "degF": "°F"
        case "hr": "h"
        case "count": ""
        default: unit.unitString
        }
    }

    /// Seconds as hours and minutes, `7:05`.
    static func hoursMinutes(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return String(format: "%d:%02d", minutes / 60, minutes % 60)
    }

    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `2026-11-02 08:05`, in `zone`.
    static func dateTime(_ date: Date, in zone: TimeZone) -> String {
        let parts = calendar(zone).dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d",
            parts.year ?? 0,
            parts.month ?? 0,
            parts.day ?? 0,
            parts.hour ?? 0,
            parts.minute ?? 0
        )
    }

    /// `2026-11-02`, in `zone`.
    static func day(_ date: Date, in zone: TimeZone) -> String {
        CalendarDay.string(of: date, in: zone)
    }

    /// A day written `YYYY-MM-DD` as an axis labels it: `2 Nov`.
    static func shortDay(_ day: String) -> String {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return day }
        return "\(parts[2]) \(monthNames[parts[1] - 1])"
    }

    /// A day written `YYYY-MM-DD` as a month label: `Nov 2026`.
    static func month(_ day: String) -> String {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return day }
        return "\(monthNames[parts[1] - 1]) \(parts[0])"
    }

    /// A name from a type's identifier as a reader says it: `heartRateVariabilitySDNN` → "heart
    /// rate variability SDNN".
    static func words(_ name: String) -> String {
        var result = ""
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, previous.isLowercase {
                result.append(" ")
            }
            result.append(character)
            previous = character
        }
        // Lower the first letter of each word that is not an acronym.
        return result.split(separator: " ").map { word in
            word.count > 1 && word.dropFirst().allSatisfy(\.isUppercase) ? String(word) : word.lowercased()
        }.joined(separator: " ")
    }
}
