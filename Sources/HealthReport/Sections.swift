import Foundation
import HealthModel

extension Page {
    // MARK: Workouts

    mutating func workouts() {
        let calendar = Format.calendar(zone)
        // Weeks from the Monday on or before the first day.
        var weekCalendar = calendar
        weekCalendar.firstWeekday = 2
        let firstMonday = weekCalendar.dateInterval(of: .weekOfYear, for: data.start)?.start ?? data.start
        var weeks: [String] = []
        var monday = firstMonday
        while monday < data.end, weeks.count < 600 {
            weeks.append(day(calendar.date(byAdding: .hour, value: 12, to: monday) ?? monday))
            monday = weekCalendar.date(byAdding: .day, value: 7 * weeks.count, to: firstMonday) ?? data.end
        }
        let weekIndex = Dictionary(weeks.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let distanceUnit: HealthUnit = {
            let preferred = data.unit(of: .distanceWalkingRunning)
            // Meters, the canonical unit, make long weekly distances unreadable: kilometers then.
            return preferred == .meter ? (try? HealthUnit(from: "km")) ?? preferred : preferred
        }()
        func weekly(
            _ id: String,
            _ title: String,
            unit: String,
            decimals: Int,
            _ value: (HealthReportData.WorkoutWeek) -> Double
        )
            -> Chart
        {
            let points = data.workoutWeeks.compactMap { week -> Chart.Point? in
                guard let slot = weekIndex[week.week] else { return nil }
                return Chart.Point(slot: slot, values: [value(week)])
            }
            var chart = Chart(
                id: id,
                title: title,
                kind: .bars,
                unit: unit,
                noun: unit,
                decimals: decimals,
                series: [title.components(separatedBy: " per ").first ?? title],
                format: nil,
                slots: weeks,
                slotName: "Week of",
                points: points,
                caption: ""
            )
            chart.caption = Caption.describe(
                points.map { ($0.slot, $0.values[0]) },
                slots: weeks,
                slotNoun: "week",
                perWeek: 1,
                text: chart.labelled
            )
            return chart
        }
        let duration = weekly("workout-duration", "Workout time per week", unit: "min", decimals: 0) {
            $0.duration / 60
        }
        var distance = weekly(
            "workout-distance",
            "Workout distance per week",
            unit: Format.unitLabel(distanceUnit),
            decimals: Format.decimals(for: distanceUnit)
        ) { (try? Quantity($0.distance, .meter).doubleValue(for: distanceUnit)) ?? .nan }
        // Weeks whose workouts carry no distance draw nothing; none at all, no chart.
        if !data.workouts.contains(where: { ($0.distance ?? 0) > 0 })
            && !data.workoutWeeks.contains(where: { $0.distance > 0 })
        {
            distance.points = []
        }
        section(
            "workouts",
            "Workouts",
            hasData: !data.workouts.isEmpty || !data.workoutWeeks.isEmpty,
            empty: "No workouts \(range)."
        ) { page in
            page.html.element(
                "p",
                ["class": "intro"],
                text:
                    "Weeks start on Monday; a week's figures are the workouts that started in it, within the report's days."
            )
            page.html.raw("<div class=\"charts\">")
            page.chart(duration, empty: "No workouts \(page.range).")
            page.chart(distance, empty: "No workout distances \(page.range).")
            page.html.raw("</div>")
            page.html.element("h3", text: "Every workout")
            page.html.raw("<div class=\"scroll\">")
            page.html.open("table", ["class": "list", "data-list": "workouts"])
            page.html.raw("<thead><tr>")
            for column in [
                "Start", "Activity", "Duration", "Distance (\(Format.unitLabel(distanceUnit)))",
                "Energy (\(page.unitLabel(.activeEnergyBurned)))", "Source",
            ] {
                page.html.element("th", ["scope": "col"], text: column)
            }
            page.html.raw("</tr></thead><tbody>")
            let energyUnit = page.data.unit(of: .activeEnergyBurned)
            for workout in page.data.workouts {
                page.html.raw("<tr>")
                page.html.element("td", text: Format.dateTime(workout.start, in: page.zone))
                page.html.element("td", text: Format.words(String(describing: workout.activityType)))
                page.html.element("td", ["class": "number"], text: Format.hoursMinutes(workout.duration))
                page.html.element(
                    "td",
                    ["class": "number"],
                    text: workout.distance.flatMap { try? Quantity($0, .meter).doubleValue(for: distanceUnit) }.map {
                        Format.number($0, decimals: Format.decimals(for: distanceUnit))
                    } ?? "-"
                )
                page.html.element(
                    "td",
                    ["class": "number"],
                    text: workout.energy.flatMap { try? Quantity($0, .kilocalorie).doubleValue(for: energyUnit) }.map {
                        Format.number($0, decimals: 0)
                    } ?? "-"
                )
                page.html.element("td", text: workout.source)
                page.html.raw("</tr>")
            }
            page.html.raw("</tbody></table></div>")
            page.moreNote("workouts", shown: page.data.workouts.count)
        }
    }

    // MARK: Sources

    mutating func sources() {
        section(
            "sources",
            "Sources",
            hasData: !data.sources.isEmpty,
            empty: "No app or device recorded anything \(range)."
        ) { page in
            page.html.element(
                "p",
                ["class": "intro"],
                text:
                    "Which app or device gave the samples of each type that start in these days. Where two sources recorded "
                    + "the same type on one day, the table below gives each one's figure and the one the vault counts: for "
                    + "sums, each moment from the source first in your priority (healthvault priority), so nothing is counted twice."
            )
            page.sourcesChart()
            page.html.raw("<div class=\"scroll\">")
            page.html.open("table", ["class": "list", "data-list": "sources"])
            page.html.raw("<thead><tr>")
            for column in ["Type", "Source", "Samples", "Share", "First", "Last"] {
                page.html.element("th", ["scope": "col"], text: column)
            }
            page.html.raw("</tr></thead><tbody>")
            for type in page.data.sources.sorted(by: { ObjectType($0.type).shortName < ObjectType($1.type).shortName })
            {
                let total = type.sources.reduce(0) { $0 + $1.count }
                for source in type.sources {
                    page.html.open("tr", ["data-type": type.type.identifier, "data-source": source.bundleIdentifier])
                    page.html.element("td", text: ObjectType(type.type).shortName)
                    page.html.element(
                        "td",
                        text: source.name == source.bundleIdentifier
                            ? source.name : "\(source.name) (\(source.bundleIdentifier))"
                    )
                    page.html.element("td", ["class": "number"], text: Format.number(Double(source.count), decimals: 0))
                    page.html.element(
                        "td",
                        ["class": "number"],
                        text: Format.number(100 * Double(source.count) / Double(max(total, 1)), decimals: 0) + "%"
                    )
                    page.html.element("td", text: Format.dateTime(source.firstStart, in: page.zone))
                    page.html.element("td", text: Format.dateTime(source.lastStart, in: page.zone))
                    page.html.raw("</tr>")
                }
            }
            page.html.raw("</tbody></table></div>")
            page.overlapTable()
        }
    }

    /// Per type, one horizontal bar split by source, as shares of the type's samples.
    mutating func sourcesChart() {
        let rows = data.sources.sorted { ObjectType($0.type).shortName < ObjectType($1.type).shortName }
        let names = Array(Set(rows.flatMap { $0.sources.map(\.name) })).sorted()
        let colour = Dictionary(names.enumerated().map { ($1, $0 % 8) }, uniquingKeysWith: { first, _ in first })
        let left = 170.0
        let width = 560.0
        let barWidth = width - left - 70
        let rowHeight = 22.0
        let legendRows = (names.count + 2) / 3
        let height = 30 + Double(rows.count) * rowHeight + Double(legendRows) * 16 + 10
        html.open("figure", ["class": "chart wide", "id": "chart-sources"])
        html.open("figcaption")
        html.element("strong", text: "Samples by source")
        html.text(
            " \(rows.count) type\(rows.count == 1 ? "" : "s") from \(names.count) source\(names.count == 1 ? "" : "s"); "
                + "each bar is one type's samples, split by the source that gave them."
        )
        html.raw("</figcaption>")
        html.open(
            "svg",
            [
                "viewBox": "0 0 \(Int(width)) \(Int(height))", "role": "img",
                "aria-labelledby": "title-sources", "class": "plot", "data-chart": "sources",
            ]
        )
        html.element("title", ["id": "title-sources"], text: "Samples by source")
        // The axis: shares of each type's samples, 0 to 100%.
        for tick in stride(from: 0, through: 100, by: 25) {
            let x = Chart.number(left + barWidth * Double(tick) / 100)
            html.raw(
                "<line class=\"grid\" x1=\"\(x)\" x2=\"\(x)\" y1=\"20\" y2=\"\(Chart.number(24 + Double(rows.count) * rowHeight))\"></line>"
            )
            html.element("text", ["x": x, "y": "14", "text-anchor": "middle", "class": "tick"], text: "\(tick)%")
        }
        for (index, type) in rows.enumerated() {
            let y = 24 + Double(index) * rowHeight
            let total = type.sources.reduce(0) { $0 + $1.count }
            html.element(
                "text",
                ["x": Chart.number(left - 6), "y": Chart.number(y + 14), "text-anchor": "end", "class": "tick"],
                text: ObjectType(type.type).shortName
            )
            var offset = 0.0
            for source in type.sources {
                let share = Double(source.count) / Double(max(total, 1))
                html.open(
                    "rect",
                    [
                        "class": "mark bar s\(colour[source.name] ?? 0)", "x": Chart.number(left + barWidth * offset),
                        "y": Chart.number(y + 3), "width": Chart.number(barWidth * share), "height": "15",
                        "data-type": type.type.identifier, "data-source": source.bundleIdentifier,
                        "data-value": String(source.count),
                    ]
                )
                html.element(
                    "title",
                    text:
                        "\(ObjectType(type.type).shortName), \(source.name): \(Format.number(Double(source.count), decimals: 0)) samples"
                )
                html.raw("</rect>")
                offset += share
            }
            html.element(
                "text",
                ["x": Chart.number(left + barWidth + 6), "y": Chart.number(y + 14), "class": "tick"],
                text: Format.number(Double(total), decimals: 0)
            )
        }
        // The legend: one swatch per source.
        let legendTop = 30 + Double(rows.count) * rowHeight
        for (index, name) in names.enumerated() {
            let x = 10 + Double(index % 3) * 183
            let y = legendTop + Double(index / 3) * 16
            html.raw(
                "<rect class=\"swatch s\(colour[name] ?? 0)\" x=\"\(Chart.number(x))\" y=\"\(Chart.number(y))\" width=\"9\" height=\"9\"></rect>"
            )
            let label = name.count > 26 ? String(name.prefix(25)) + "…" : name
            html.element(
                "text",
                ["x": Chart.number(x + 13), "y": Chart.number(y + 8.5), "class": "legend-label"],
                text: label
            )
        }
        html.raw("</svg></figure>")
    }

    mutating func overlapTable() {
        html.element("h3", text: "Where sources overlapped")
        guard !data.overlaps.isEmpty else {
            html.element(
                "p",
                ["class": "empty", "data-empty": "overlaps"],
                text: "No two sources recorded the same quantity type on the same day."
            )
            return
        }
        html.raw("<div class=\"scroll\">")
        html.open("table", ["class": "list", "data-list": "overlaps"])
        html.raw("<thead><tr>")
        for column in ["Type", "Day", "Each source", "Counted"] {
            html.element("th", ["scope": "col"], text: column)
        }
        html.raw("</tr></thead><tbody>")
        for overlap in data.overlaps {
            let unit = data.unit(of: overlap.type)
            let decimals = Format.decimals(for: unit)
            func shown(_ value: Double) -> String {
                let converted = (try? Quantity(value, overlap.type.canonicalUnit).doubleValue(for: unit)) ?? value
                let label = Format.unitLabel(unit)
                return Format.number(converted, decimals: decimals) + (label.isEmpty ? "" : " \(label)")
            }
            html.open("tr", ["data-type": overlap.type.rawValue, "data-day": overlap.day])
            html.element("td", text: overlap.type.shortName)
            html.element("td", text: overlap.day)
            html.element(
                "td",
                text: overlap.sources.map { "\($0.name): \(shown($0.value))" }.joined(separator: "; ")
            )
            html.element(
                "td",
                ["class": "number"],
                text: shown(overlap.merged)
                    + (overlap.type.aggregationStyle == .cumulative ? " (merged)" : " (average of all)")
            )
            html.raw("</tr>")
        }
        html.raw("</tbody></table></div>")
    }

    // MARK: Access history

    mutating func access() {
        let apps = data.access.filter { $0.actor != "owner" && $0.actor != "system" }
        let own = data.access.filter { $0.actor == "owner" }
        let vault = data.access.filter { $0.actor == "system" }
        section(
            "access",
            "Access history",
            hasData: !data.access.isEmpty || !data.grantChanges.isEmpty,
            empty: "Nothing touched the vault \(range)."
        ) { page in
            page.html.element(
                "p",
                ["class": "intro"],
                text:
                    "From the vault's signed audit log: per app and day, what it read and wrote (types and how many objects), "
                    + "what was refused, and your decisions about each app. No value is ever in the log. A read refused "
                    + "(denied-served-empty) was answered as if there were no data."
            )
            let actors = Array(Set(apps.map(\.actor))).sorted()
            if actors.isEmpty {
                page.html.element(
                    "p",
                    ["class": "empty", "data-empty": "apps"],
                    text: "No app touched the vault \(page.range)."
                )
            }
            for actor in actors {
                page.html.element("h3", text: actor)
                page.accessTable(apps.filter { $0.actor == actor }, id: actor)
            }
            page.html.element("h3", text: "Grant changes")
            if page.data.grantChanges.isEmpty {
                page.html.element(
                    "p",
                    ["class": "empty", "data-empty": "grants"],
                    text: "You changed no grant \(page.range)."
                )
            } else {
                page.html.raw("<div class=\"scroll\">")
                page.html.open("table", ["class": "list", "data-list": "grants"])
                page.html.raw("<thead><tr>")
                for column in ["Time", "App", "Decision", "Types"] {
                    page.html.element("th", ["scope": "col"], text: column)
                }
                page.html.raw("</tr></thead><tbody>")
                for change in page.data.grantChanges {
                    page.html.raw("<tr>")
                    page.html.element("td", text: Format.dateTime(change.time, in: page.zone))
                    page.html.element("td", text: change.app.isEmpty ? "every app" : change.app)
                    page.html.element("td", text: change.operation)
                    page.html.element("td", text: change.types.map(Page.typeName).joined(separator: ", "))
                    page.html.raw("</tr>")
                }
                page.html.raw("</tbody></table></div>")
            }
            page.html.element("h3", text: "Your own actions")
            if own.isEmpty {
                page.html.element("p", ["class": "empty", "data-empty": "owner"], text: "None \(page.range).")
            } else {
                page.accessTable(own, id: "owner")
            }
            if !vault.isEmpty {
                page.html.element("h3", text: "The vault itself")
                page.accessTable(vault, id: "system")
            }
        }
    }

    mutating func accessTable(_ days: [HealthReportData.AccessDay], id: String) {
        html.raw("<div class=\"scroll\">")
        html.open("table", ["class": "list access", "data-actor": id])
        html.raw("<thead><tr>")
        for column in ["Day", "Reads", "Types read", "Writes", "Types written", "Refused", "Errors", "Operations"] {
            html.element("th", ["scope": "col"], text: column)
        }
        html.raw("</tr></thead><tbody>")
        for day in days {
            html.open("tr", ["data-day": day.day])
            html.element("td", text: day.day)
            html.element(
                "td",
                ["class": "number"],
                text: day.reads == 0 ? "-" : "\(day.reads) (\(day.objectsRead) objects)"
            )
            html.element("td", text: day.typesRead.map(Page.typeName).joined(separator: ", "))
            html.element(
                "td",
                ["class": "number"],
                text: day.writes == 0 ? "-" : "\(day.writes) (\(day.objectsWritten) objects)"
            )
            html.element("td", text: day.typesWritten.map(Page.typeName).joined(separator: ", "))
            html.element(
                "td",
                ["class": day.refused > 0 ? "number refused" : "number"],
                text: day.refused == 0
                    ? "-" : "\(day.refused): " + day.typesRefused.map(Page.typeName).joined(separator: ", ")
            )
            html.element("td", ["class": "number"], text: day.errors == 0 ? "-" : "\(day.errors)")
            html.element(
                "td",
                text: day.operations.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
            )
            html.raw("</tr>")
        }
        html.raw("</tbody></table></div>")
    }
}
