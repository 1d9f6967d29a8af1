import Testing

@testable import HealthInterchange

/// HRV beat times as phones in different locales write them.
@Suite struct ClockTimeTests {
    static let times: [(String, Double)] = [
        ("7:35:22.12 PM", 70_522.12),
        ("07:35:22 pm", 70_522),
        ("12:00:00.50 AM", 0.5),
        ("12:00:01 PM", 43_201),
        ("7:35:22,5\u{202F}PM", 70_522.5),  // iOS 17: a narrow no-break space before PM
        ("7:35:22\u{00A0}p.m.", 70_522),
        ("  19:35:22.25  ", 70_522.25),
        ("19:35:22 ", 70_522),
    ]

    @Test(arguments: times)
    func readsClockTimes(text: String, seconds: Double) throws {
        let time = try #require(ClockTime(parsing: text))
        #expect(abs(time.secondsSinceMidnight - seconds) < 1e-9)
    }

    @Test(arguments: [
        "13:00:00 PM", "0:10:00 AM", "7:35 PM", "7:35:22 PMX", "7:35:22 P M", "24:00:00", "7:61:00", "7:35:22 午後", "",
    ])
    func refusesWhatIsNotOne(text: String) {
        #expect(ClockTime(parsing: text) == nil)
    }
}
