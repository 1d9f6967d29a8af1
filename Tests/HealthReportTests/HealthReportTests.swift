import Foundation
import HealthModel
import Testing

@testable import HealthReport

/// The page HealthReport writes, from values made here: escaping, the policy, empty sections,
/// the numbers' rules and the axes' ticks.
@Suite struct HealthReportTests {
    static let zone = "Europe/Paris"

    static func data(
        sources: [HealthReportData.TypeSources] = [],
        daily: [StatisticsCollection] = [],
        access: [HealthReportData.AccessDay] = []
    ) -> HealthReportData {
        let start = Date(timeIntervalSince1970: 1_793_487_600)  // 2026-11-01T00:00:00+01:00
        return HealthReportData(
            generatedAt: start.addingTimeInterval(7 * 86_400),
            firstDay: "2026-11-01",
            lastDay: "2026-11-07",
            start: start,
            end: start.addingTimeInterval(7 * 86_400),
            timeZone: zone,
            units: [:],
            activity: [],
            daily: daily,
            sleep: CategoryStatisticsCollection(
                categoryType: .sleepAnalysis,
                anchorDate: start,
                intervalComponents: IntervalComponents(day: 1),
                timeZone: zone,
                statistics: []
            ),
            measurements: [],
            bloodPressure: [],
            workouts: [],
            workoutWeeks: [],
            sources: sources,
            overlaps: [],
            totals: [:],
            access: access,
            grantChanges: [],
            auditLog: .init(entries: 9, reportEntry: 8, checkpoints: 3, verified: true, summary: "verified")
        )
    }

    @Test func anEmptyVaultsPageSaysSoInEverySection() {
        let page = HealthReport.html(Self.data())
        #expect(page.contains("data-empty=\"all\""))
        for section in ["activity", "heart", "sleep", "body", "workouts", "sources", "access"] {
            #expect(page.contains("<section id=\"\(section)\" class=\"no-data\">"))
            #expect(page.contains("data-empty=\"\(section)\""))
        }
        #expect(!page.contains("<figure"))
    }

    @Test func thePageFetchesNothingAndCanRunNothing() {
        let page = HealthReport.html(Self.data())
        #expect(
            page.contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data:\">"
            )
        )
        for forbidden in ["<script", "<link", "<img", "http://", "https://", "@import", "url("] {
            #expect(!page.contains(forbidden), "\(forbidden)")
        }
    }

    @Test func namesFromTheVaultAreEscaped() {
        let hostile = "<script>alert(1)</script>\"'&"
        let page = HealthReport.html(
            Self.data(
                sources: [
                    .init(
                        type: .quantity(.stepCount),
                        sources: [
                            .init(
                                bundleIdentifier: "org.example.x",
                                name: hostile,
                                count: 3,
                                firstStart: Date(timeIntervalSince1970: 1_793_500_000),
                                lastStart: Date(timeIntervalSince1970: 1_793_500_000)
                            )
                        ]
                    )
                ],
                access: [.init(actor: hostile, day: "2026-11-02", reads: 1, operations: [hostile: 1])]
            )
        )
        #expect(!page.contains("<script"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"))
    }

    @Test func numbersAreRoundedAndGrouped() {
        #expect(Format.number(12345.678, decimals: 1) == "12,345.7")
        #expect(Format.number(999, decimals: 0) == "999")
        #expect(Format.number(1_000_000, decimals: 0) == "1,000,000")
        #expect(Format.number(-0.04, decimals: 1) == "0.0")
        #expect(Format.number(-1234.5, decimals: 2) == "-1,234.50")
        #expect(Format.hoursMinutes(7 * 3600 + 5 * 60 + 20) == "7:05")
        #expect(Format.words("heartRateVariabilitySDNN") == "heart rate variability SDNN")
    }

    @Test func axesHaveRoundTicksThatHoldEveryValue() {
        #expect(Chart.niceStep(23) == 25)
        #expect(Chart.niceStep(0.3) == 0.5)
        #expect(Chart.niceStep(1700) == 2000)
        let chart = Chart(
            id: "t",
            title: "T",
            kind: .bars,
            unit: "steps",
            noun: "steps",
            decimals: 0,
            series: ["Steps"],
            format: nil,
            slots: ["2026-11-01", "2026-11-02"],
            slotName: "Day",
            points: [.init(slot: 0, values: [8123]), .init(slot: 1, values: [12_950])],
            caption: ""
        )
        let scale = chart.scale
        #expect(scale.low == 0)
        #expect(scale.high >= 12_950)
        #expect(scale.ticks.first == 0 && scale.ticks.last == scale.high)
    }

    @Test func aChartHasItsTableAndCaption() {
        let start = Date(timeIntervalSince1970: 1_793_487_600)
        var statistics: [Statistics] = []
        for day in 0..<3 {
            let from: Date = start.addingTimeInterval(Double(day) * 86_400)
            let steps = Quantity(Double(1000 * (day + 1)), .count)
            statistics.append(
                Statistics(
                    quantityType: .stepCount,
                    startDate: from,
                    endDate: from.addingTimeInterval(86_400),
                    values: StatisticsValues(sum: steps)
                )
            )
        }
        let collection = StatisticsCollection(
            quantityType: .stepCount,
            anchorDate: start,
            intervalComponents: IntervalComponents(day: 1),
            timeZone: Self.zone,
            statistics: statistics
        )
        let page = HealthReport.html(Self.data(daily: [collection]))
        #expect(page.contains("id=\"chart-steps\""))
        #expect(page.contains("<tr data-slot=\"2026-11-03\"><th scope=\"row\">2026-11-03</th><td>3,000</td></tr>"))
        #expect(page.contains("Average 2,000 steps a day over 3 days with data"))
        #expect(page.contains("Trend: rising by about 7,000 steps a week."))
        #expect(page.contains("<title>2026-11-02: 2,000 steps</title>"))
    }
}
