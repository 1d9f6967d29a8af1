public import Foundation
public import HealthModel

/// The owner's health report as one self-contained HTML page (docs/REPORT.md): charts as inline
/// SVG with axes, ticks and units in the owner's units and time zone, a caption in words and a
/// table behind each chart, the access history from the audit log, and a print stylesheet. The
/// page fetches nothing: no script, font, image or style from anywhere, and a Content Security
/// Policy that forbids them (`default-src 'none'; style-src 'unsafe-inline'; img-src data:`).
///
/// It draws what the vault computed (``HealthReportData``) and computes nothing of its own beyond
/// the captions' averages, ranges and trends over the figures it shows.
public enum HealthReport {
    /// The page's Content Security Policy: nothing may be fetched, no script may run.
    public static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

    /// The whole page.
    public static func html(_ data: HealthReportData) -> String {
        var page = Page(data)
        return page.render()
    }
}

/// One report being written: the data, the zone, the days of the range as chart slots.
struct Page {
    let data: HealthReportData
    let zone: TimeZone
    /// The days of the range, `YYYY-MM-DD`.
    let days: [String]
    let dayIndex: [String: Int]
    var html = HTMLWriter()

    init(_ data: HealthReportData) {
        self.data = data
        zone = TimeZone(identifier: data.timeZone) ?? .gmt
        var days: [String] = []
        let calendar = Format.calendar(zone)
        var noon = calendar.date(byAdding: .hour, value: 12, to: data.start) ?? data.start
        while noon < data.end, days.count <= 3700 {
            days.append(CalendarDay.string(of: noon, in: zone))
            noon = calendar.date(byAdding: .day, value: 1, to: noon) ?? noon.addingTimeInterval(86_400)
        }
        self.days = days
        dayIndex = Dictionary(days.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func day(_ date: Date) -> String { CalendarDay.string(of: date, in: zone) }

    /// A quantity in the owner's unit of `type`.
    func value(_ quantity: Quantity?, _ type: QuantityTypeIdentifier) -> Double? {
        guard let quantity else { return nil }
        return try? quantity.doubleValue(for: data.unit(of: type))
    }

    func unitLabel(_ type: QuantityTypeIdentifier) -> String {
        Format.unitLabel(data.unit(of: type))
    }

    static func typeName(_ identifier: String) -> String {
        if let type = try? SampleType(identifier: identifier) { return ObjectType(type).shortName }
        if let type = try? ObjectType(identifier: identifier) { return type.shortName }
        return identifier
    }

    // MARK: The page

    mutating func render() -> String {
        let title = "Health report, \(data.firstDay) to \(data.lastDay)"
        html.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        html.open(
            "meta",
            ["http-equiv": "Content-Security-Policy", "content": HealthReport.contentSecurityPolicy]
        )
        html.raw("\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        html.raw("<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"color-scheme\" content=\"light\">\n")
        html.raw("<meta name=\"generator\" content=\"HealthVault\">\n")
        html.element("title", text: title)
        html.raw("\n<style>\(Style.css)</style>\n</head>\n<body>\n")
        header()
        html.raw("<main>\n")
        activity()
        heart()
        sleep()
        body()
        workouts()
        sources()
        access()
        html.raw("</main>\n")
        html.open("footer")
        html.text(
            "Made by HealthVault from the vault's own statistics, \(Format.dateTime(data.generatedAt, in: zone)) (\(data.timeZone)). "
                + "Recorded in the vault's audit log as entry \(data.auditLog.reportEntry) (vault.report)."
        )
        html.raw("</footer>\n</body>\n</html>\n")
        return html.text
    }

    var hasHealthData: Bool {
        !data.activity.isEmpty || data.daily.contains { !$0.statistics.isEmpty } || !data.sleep.statistics.isEmpty
            || !data.measurements.isEmpty || !data.bloodPressure.isEmpty || !data.workouts.isEmpty
            || !data.sources.isEmpty
    }

    mutating func header() {
        html.raw("<header>\n")
        html.element("h1", text: "Health report")
        html.open("p", ["class": "period"])
        html.text(
            "\(data.firstDay) to \(data.lastDay) (\(days.count) day\(days.count == 1 ? "" : "s")), in the time zone \(data.timeZone). "
                + "Made \(Format.dateTime(data.generatedAt, in: zone))."
        )
        html.raw("</p>\n")
        html.element(
            "p",
            ["class": "privacy"],
            text:
                "This file is not encrypted: it holds your health data in plain text. Keep it as you would a paper record, "
                + "and delete it when you no longer need it. Its making is recorded in your vault's audit log."
        )
        if !hasHealthData {
            html.element(
                "p",
                ["class": "empty", "data-empty": "all"],
                text: "Your vault holds no health data from \(data.firstDay) to \(data.lastDay)."
            )
        }
        html.raw("<nav aria-label=\"Sections\"><ul>")
        for (id, name) in [
            ("activity", "Activity"), ("heart", "Heart"), ("sleep", "Sleep"), ("body", "Body"),
            ("workouts", "Workouts"), ("sources", "Sources"), ("access", "Access history"),
        ] {
            html.raw("<li>")
            html.element("a", ["href": "#\(id)"], text: name)
            html.raw("</li>")
        }
        html.raw("</ul></nav>\n")
        auditStatus()
        html.raw("</header>\n")
    }

    mutating func auditStatus() {
        let status = data.auditLog
        html.open("p", ["class": status.verified ? "audit verified" : "audit unverified", "id": "audit-status"])
        if status.verified {
            html.text(
                "Audit log verified when this report was made: \(status.entries) entries, this report's own (entry \(status.reportEntry)) "
                    + "included, consistent with \(status.checkpoints) signed checkpoint\(status.checkpoints == 1 ? "" : "s")."
            )
        } else {
            html.text("The audit log did NOT verify when this report was made: \(status.summary)")
        }
        html.raw("</p>\n")
    }

    /// A section: its heading, then either `content` (when `hasData`) or a sentence saying there
    /// is nothing to show.
    mutating func section(
        _ id: String,
        _ title: String,
        hasData: Bool,
        empty: String,
        _ content: (inout Page) -> Void
    ) {
        html.open("section", ["id": id, "class": hasData ? "has-data" : "no-data"])
        html.element("h2", text: title)
        if hasData {
            content(&self)
        } else {
            html.element("p", ["class": "empty", "data-empty": id], text: empty)
        }
        html.raw("</section>\n")
    }

    /// A chart, or when it has no points the sentence that says so.
    mutating func chart(_ chart: Chart, empty: String) {
        if chart.points.isEmpty {
            html.element("p", ["class": "empty", "data-empty": chart.id], text: empty)
        } else {
            chart.figure(into: &html)
        }
    }

    var range: String { "from \(data.firstDay) to \(data.lastDay)" }

    // MARK: Daily charts

    /// A chart of one value per day.
    func dailyChart(
        id: String,
        title: String,
        kind: Chart.Kind,
        unit: String,
        noun: String,
        decimals: Int,
        series: [String],
        points: [Chart.Point],
        format: ((Double) -> String)? = nil
    ) -> Chart {
        var chart = Chart(
            id: id,
            title: title,
            kind: kind,
            unit: unit,
            noun: noun,
            decimals: decimals,
            series: series,
            format: format,
            slots: days,
            slotName: "Day",
            points: points.sorted { $0.slot < $1.slot },
            caption: ""
        )
        let main = kind == .range ? 2 : 0
        chart.caption = Caption.describe(
            chart.points.compactMap { $0.values[main].isNaN ? nil : ($0.slot, $0.values[main]) },
            slots: days,
            slotNoun: "day",
            perWeek: 7,
            text: chart.labelled
        )
        return chart
    }

    func statisticsPoints(
        _ type: QuantityTypeIdentifier,
        _ pick: (StatisticsValues) -> [Quantity?]
    ) -> [Chart.Point] {
        data.daily(type).compactMap { statistics in
            guard let slot = dayIndex[day(statistics.startDate)] else { return nil }
            let values = pick(statistics.values).map { value($0, type) ?? .nan }
            guard values.contains(where: { !$0.isNaN }) else { return nil }
            return Chart.Point(slot: slot, values: values)
        }
    }

    func goalsMet(_ chart: Chart) -> String {
        let withGoal = chart.points.filter { $0.goal != nil }
        guard !withGoal.isEmpty else { return "" }
        let met = withGoal.filter { $0.values[0] >= $0.goal! }.count
        return " Goal met on \(met) of \(withGoal.count) day\(withGoal.count == 1 ? "" : "s")."
    }

    // MARK: Activity

    mutating func activity() {
        let steps = dailyChart(
            id: "steps",
            title: "Steps per day",
            kind: .bars,
            unit: "steps",
            noun: "steps",
            decimals: 0,
            series: ["Steps"],
            points: statisticsPoints(.stepCount) { [$0.sum] }
        )
        let energyUnit = data.unit(of: .activeEnergyBurned)
        func energy(_ quantity: Quantity) -> Double { (try? quantity.doubleValue(for: energyUnit)) ?? .nan }
        func ring(
            _ id: String,
            _ title: String,
            unit: String,
            noun: String,
            _ figures: (ActivitySummary) -> (Double, Double)
        )
            -> Chart
        {
            var chart = dailyChart(
                id: id,
                title: title,
                kind: .bars,
                unit: unit,
                noun: noun,
                decimals: 0,
                series: [title.components(separatedBy: " per ").first ?? title],
                points: data.activity.compactMap { summary in
                    guard let slot = dayIndex[summary.day] else { return nil }
                    let (value, goal) = figures(summary)
                    return Chart.Point(slot: slot, values: [value], goal: goal)
                }
            )
            chart.caption += goalsMet(chart)
            return chart
        }
        let move = ring(
            "active-energy",
            "Active energy per day",
            unit: Format.unitLabel(energyUnit),
            noun: Format.unitLabel(energyUnit)
        ) {
            (energy($0.activeEnergyBurned), energy($0.activeEnergyBurnedGoal))
        }
        let exercise = ring("exercise", "Exercise minutes per day", unit: "min", noun: "min") {
            (($0.appleExerciseTime.value), $0.appleExerciseTimeGoal.value)
        }
        let stand = ring("stand", "Stand hours per day", unit: "h", noun: "h") {
            ($0.appleStandHours.value, $0.appleStandHoursGoal.value)
        }
        let charts = [steps, move, exercise, stand]
        section(
            "activity",
            "Activity",
            hasData: charts.contains { !$0.points.isEmpty },
            empty: "No activity recorded \(range): no steps, active energy, exercise or stand hours."
        ) { page in
            page.html.element(
                "p",
                ["class": "intro"],
                text:
                    "Steps are the vault's daily sums, sources merged by your priority. Move, exercise and stand are the activity rings, "
                    + "each beside the goal in force that day (dashed)."
            )
            page.html.raw("<div class=\"charts\">")
            page.chart(steps, empty: "No steps recorded \(page.range).")
            page.chart(move, empty: "No active energy recorded \(page.range).")
            page.chart(exercise, empty: "No exercise recorded \(page.range).")
            page.chart(stand, empty: "No stand hours recorded \(page.range).")
            page.html.raw("</div>")
        }
    }

    // MARK: Heart

    mutating func heart() {
        let resting = dailyChart(
            id: "resting-heart-rate",
            title: "Resting heart rate",
            kind: .lines,
            unit: unitLabel(.restingHeartRate),
            noun: unitLabel(.restingHeartRate),
            decimals: Format.decimals(for: data.unit(of: .restingHeartRate)),
            series: ["Average"],
            points: statisticsPoints(.restingHeartRate) { [$0.average] }
        )
        let range = dailyChart(
            id: "heart-rate",
            title: "Heart rate per day",
            kind: .range,
            unit: unitLabel(.heartRate),
            noun: unitLabel(.heartRate),
            decimals: Format.decimals(for: data.unit(of: .heartRate)),
            series: ["Minimum", "Maximum", "Average"],
            points: statisticsPoints(.heartRate) { [$0.minimum, $0.maximum, $0.average] }
        )
        let variability = dailyChart(
            id: "hrv",
            title: "Heart rate variability (SDNN)",
            kind: .lines,
            unit: unitLabel(.heartRateVariabilitySDNN),
            noun: unitLabel(.heartRateVariabilitySDNN),
            decimals: Format.decimals(for: data.unit(of: .heartRateVariabilitySDNN)),
            series: ["Average"],
            points: statisticsPoints(.heartRateVariabilitySDNN) { [$0.average] }
        )
        section(
            "heart",
            "Heart",
            hasData: !(resting.points.isEmpty && range.points.isEmpty && variability.points.isEmpty),
            empty: "No heart measurements \(self.range)."
        ) { page in
            page.html.element(
                "p",
                ["class": "intro"],
                text:
                    "Daily averages of resting heart rate and heart rate variability; heart rate as each day's range "
                    + "(lowest to highest, the dot its time-weighted average)."
            )
            page.html.raw("<div class=\"charts\">")
            page.chart(resting, empty: "No resting heart rate recorded \(page.range).")
            page.chart(range, empty: "No heart rate recorded \(page.range).")
            page.chart(variability, empty: "No heart rate variability recorded \(page.range).")
            page.html.raw("</div>")
        }
    }

    // MARK: Sleep

    mutating func sleep() {
        let stages: [(CategoryValueSleepAnalysis, String)] = [
            (.asleepDeep, "Deep"), (.asleepCore, "Core"), (.asleepREM, "REM"), (.asleepUnspecified, "Asleep"),
            (.awake, "Awake"),
        ]
        let present = stages.filter { stage in
            data.sleep.statistics.contains { $0.statistics(of: stage.0.rawValue) != nil }
        }
        var points: [Chart.Point] = []
        var inBed: [Int: Double] = [:]
        var asleep: [Int: Double] = [:]
        for night in data.sleep.statistics {
            guard let slot = dayIndex[day(night.startDate)] else { continue }
            points.append(
                Chart.Point(
                    slot: slot,
                    values: present.map { (night.statistics(of: $0.0.rawValue)?.duration ?? 0) / 3600 }
                )
            )
            inBed[slot] = (night.statistics(of: CategoryValueSleepAnalysis.inBed.rawValue)?.duration ?? 0) / 3600
            asleep[slot] = (night.asleepDuration ?? 0) / 3600
        }
        var chart = Chart(
            id: "sleep",
            title: "Sleep per night, by stage",
            kind: .stacked,
            unit: "h",
            noun: "",
            decimals: 2,
            series: present.map(\.1),
            format: { Format.hoursMinutes($0 * 3600) },
            slots: days,
            slotName: "Night of",
            points: points,
            caption: ""
        )
        chart.extras = [("In bed", inBed), ("Asleep in all", asleep)]
        let asleepValues = points.compactMap { point in asleep[point.slot].map { (point.slot, $0) } }.filter {
            $0.1 > 0
        }
        chart.caption =
            asleepValues.isEmpty
            ? "No time asleep recorded; the bars show time awake."
            : "Asleep: "
                + Caption.describe(asleepValues, slots: days, slotNoun: "night", perWeek: 7) {
                    Format.hoursMinutes($0 * 3600)
                }
        if !inBed.values.filter({ $0 > 0 }).isEmpty {
            let beds = inBed.values.filter { $0 > 0 }
            chart.caption +=
                " In bed on average \(Format.hoursMinutes(beds.reduce(0, +) / Double(beds.count) * 3600)) a night."
        }
        section(
            "sleep",
            "Sleep",
            hasData: !points.isEmpty,
            empty: "No sleep recorded for the nights \(range)."
        ) { page in
            page.html.element(
                "p",
                ["class": "intro"],
                text:
                    "Each night runs from noon to noon and is named by the day it starts on. Hours and minutes in each stage, "
                    + "overlapping samples counted once; time in bed in the table."
            )
            page.html.raw("<div class=\"charts\">")
            page.chart(chart, empty: "")
            page.html.raw("</div>")
        }
    }

    // MARK: Body

    mutating func body() {
        let weightUnit = data.unit(of: .bodyMass)
        let weight = dailyChart(
            id: "weight",
            title: "Weight",
            kind: .lines,
            unit: unitLabel(.bodyMass),
            noun: unitLabel(.bodyMass),
            decimals: Format.decimals(for: weightUnit),
            series: ["Average"],
            points: statisticsPoints(.bodyMass) { [$0.average] }
        )
        let bmi = dailyChart(
            id: "bmi",
            title: "Body mass index",
            kind: .lines,
            unit: "",
            noun: "",
            decimals: 1,
            series: ["Average"],
            points: statisticsPoints(.bodyMassIndex) { [$0.average] }
        )
        var pressurePoints: [Int: [Double]] = [:]
        for (index, type) in [QuantityTypeIdentifier.bloodPressureSystolic, .bloodPressureDiastolic].enumerated() {
            for point in statisticsPoints(type, { [$0.average] }) {
                pressurePoints[point.slot, default: [.nan, .nan]][index] = point.values[0]
            }
        }
        let pressure = dailyChart(
            id: "blood-pressure",
            title: "Blood pressure",
            kind: .lines,
            unit: unitLabel(.bloodPressureSystolic),
            noun: unitLabel(.bloodPressureSystolic),
            decimals: 0,
            series: ["Systolic", "Diastolic"],
            points: pressurePoints.map { Chart.Point(slot: $0.key, values: $0.value) }
        )
        let hasData =
            !(weight.points.isEmpty && bmi.points.isEmpty && pressure.points.isEmpty && data.measurements.isEmpty
            && data.bloodPressure.isEmpty)
        section("body", "Body", hasData: hasData, empty: "No weight, body mass index or blood pressure \(range).") {
            page in
            page.html.element(
                "p",
                ["class": "intro"],
                text: "Daily averages; each measurement is listed below the charts, newest first."
            )
            page.html.raw("<div class=\"charts\">")
            page.chart(weight, empty: "No weight recorded \(page.range).")
            page.chart(bmi, empty: "No body mass index recorded \(page.range).")
            page.chart(pressure, empty: "No blood pressure recorded \(page.range).")
            page.html.raw("</div>")
            page.measurementTable(.bodyMass, "Weight measurements", decimals: Format.decimals(for: weightUnit))
            page.measurementTable(.bodyMassIndex, "Body mass index measurements", decimals: 1)
            page.bloodPressureTable()
        }
    }

    mutating func moreNote(_ key: String, shown: Int) {
        if let total = data.totals[key], total > shown {
            html.element("p", ["class": "note"], text: "The newest \(shown) of \(total) are listed.")
        }
    }

    mutating func measurementTable(_ type: QuantityTypeIdentifier, _ title: String, decimals: Int) {
        let rows = data.measurements.filter { $0.type == type }
        guard !rows.isEmpty else { return }
        let unit = unitLabel(type)
        html.element("h3", text: title)
        html.raw("<div class=\"scroll\">")
        html.open("table", ["class": "list", "data-list": type.shortName])
        html.raw("<thead><tr>")
        for column in ["Time", unit.isEmpty ? "Value" : "Value (\(unit))", "Source"] {
            html.element("th", ["scope": "col"], text: column)
        }
        html.raw("</tr></thead><tbody>")
        for row in rows {
            html.raw("<tr>")
            html.element("td", text: Format.dateTime(row.date, in: zone))
            let shown =
                (try? Quantity(row.value, type.canonicalUnit).doubleValue(for: data.unit(of: type))) ?? row.value
            html.element("td", ["class": "number"], text: Format.number(shown, decimals: decimals))
            html.element("td", text: row.source)
            html.raw("</tr>")
        }
        html.raw("</tbody></table></div>")
        moreNote(type.shortName, shown: rows.count)
    }

    mutating func bloodPressureTable() {
        guard !data.bloodPressure.isEmpty else { return }
        html.element("h3", text: "Blood pressure readings")
        html.raw("<div class=\"scroll\">")
        html.open("table", ["class": "list", "data-list": "bloodPressure"])
        html.raw("<thead><tr>")
        for column in ["Time", "Systolic (mmHg)", "Diastolic (mmHg)", "Source"] {
            html.element("th", ["scope": "col"], text: column)
        }
        html.raw("</tr></thead><tbody>")
        for reading in data.bloodPressure {
            html.raw("<tr>")
            html.element("td", text: Format.dateTime(reading.date, in: zone))
            html.element("td", ["class": "number"], text: Format.number(reading.systolic, decimals: 0))
            html.element("td", ["class": "number"], text: Format.number(reading.diastolic, decimals: 0))
            html.element("td", text: reading.source)
            html.raw("</tr>")
        }
        html.raw("</tbody></table></div>")
        moreNote("bloodPressure", shown: data.bloodPressure.count)
    }
}
