import Foundation

/// One chart of the report: marks over a row of slots (days, nights or weeks), drawn as inline
/// SVG with real axes, ticks and a unit, and the same numbers in a table for screen readers.
struct Chart {
    enum Kind {
        /// One bar per slot (``Point/values``[0]), from zero.
        case bars
        /// One line per series through the slots that have a value (a gap breaks it).
        case lines
        /// A bar from ``Point/values``[0] (minimum) to [1] (maximum), a dot at [2] (average).
        case range
        /// The series' values stacked into one bar per slot, from zero.
        case stacked
    }

    /// One slot with data.
    struct Point {
        var slot: Int
        /// Its values, one per series (NaN where a series has none).
        var values: [Double]
        /// The goal of the slot, when the chart has goals.
        var goal: Double?
    }

    /// `steps`: the figure's id is `chart-steps`, its table's `data-chart-table` is `steps`.
    var id: String
    var title: String
    var kind: Kind
    /// The unit every value is in, as labelled (`kcal`, `bpm`; empty for plain counts).
    var unit: String
    /// What one value counts, for labels: `steps`, `kcal`.
    var noun: String
    var decimals: Int
    /// Series names (columns of the table; legend entries when more than one).
    var series: [String]
    /// How values are written: by default numbers with ``decimals``.
    var format: ((Double) -> String)?
    /// The slots: their labels (`2026-11-02`), in order.
    var slots: [String]
    /// What a slot is called in the table's first column: `Day`, `Night of`, `Week of`.
    var slotName: String
    var points: [Point]
    /// The caption, in words.
    var caption: String
    /// More columns for the table, after the series: a name and a value per slot.
    var extras: [(name: String, values: [Int: Double])] = []

    func text(_ value: Double) -> String {
        format?(value) ?? Format.number(value, decimals: decimals)
    }

    func labelled(_ value: Double) -> String {
        let number = text(value)
        return noun.isEmpty ? number : "\(number) \(noun)"
    }

    // MARK: Geometry

    static let width = 560.0
    static let height = 230.0
    static let left = 58.0
    static let right = 12.0
    static let top = 22.0
    static let bottom = 40.0

    var plotWidth: Double { Self.width - Self.left - Self.right }
    var plotHeight: Double { Self.height - Self.top - Self.bottom }

    /// The value range the y axis covers, and its ticks.
    var scale: (low: Double, high: Double, ticks: [Double]) {
        var values: [Double] = []
        for point in points {
            switch kind {
            case .stacked: values.append(point.values.filter { !$0.isNaN }.reduce(0, +))
            default: values += point.values.filter { !$0.isNaN }
            }
            if let goal = point.goal { values.append(goal) }
        }
        let fromZero = kind == .bars || kind == .stacked
        var low = fromZero ? 0 : (values.min() ?? 0)
        var high = values.max() ?? 1
        if high <= low {
            high = low + max(abs(low) * 0.1, 1)
            if !fromZero { low -= max(abs(low) * 0.1, 1) }
        }
        let step = Self.niceStep((high - low) / 4)
        let first = (low / step).rounded(.down) * step
        let last = (high / step).rounded(.up) * step
        var ticks: [Double] = []
        var tick = first
        while tick <= last + step / 2 {
            ticks.append(tick)
            tick += step
        }
        return (first, max(last, first + step), ticks)
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at least `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough > 0, rough.isFinite else { return 1 }
        let power = pow(10, (log10(rough)).rounded(.down))
        for factor in [1.0, 2, 2.5, 5, 10] where factor * power >= rough {
            return factor * power
        }
        return 10 * power
    }

    func x(_ slot: Double) -> Double {
        Self.left + plotWidth * (slot + 0.5) / Double(max(slots.count, 1))
    }

    func y(_ value: Double, _ scale: (low: Double, high: Double, ticks: [Double])) -> Double {
        Self.top + plotHeight * (1 - (value - scale.low) / (scale.high - scale.low))
    }

    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// Slots to label on the x axis: at most about eight, at round days (weeks, month starts).
    var labelledSlots: [(slot: Int, label: String)] {
        let count = slots.count
        guard count > 0 else { return [] }
        if count <= 62 {
            let step = [1, 2, 7, 14].first { count / $0 <= 8 } ?? 14
            return stride(from: 0, to: count, by: step).map { ($0, Format.shortDay(slots[$0])) }
        }
        // Month starts, every few months when the range is long.
        let starts = slots.indices.filter { slots[$0].hasSuffix("-01") || ($0 == 0 && !slots[0].hasSuffix("-01")) }
        let months = starts.filter { slots[$0].hasSuffix("-01") }
        let step = [1, 2, 3, 6, 12, 24, 60].first { months.count / $0 <= 8 } ?? 60
        return stride(from: 0, to: months.count, by: step).map { (months[$0], Format.month(slots[months[$0]])) }
    }

    // MARK: SVG

    static let seriesClasses = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]

    func svg(into html: inout HTMLWriter) {
        let scale = scale
        html.open(
            "svg",
            [
                "viewBox": "0 0 \(Int(Self.width)) \(Int(Self.height))",
                "role": "img", "aria-labelledby": "title-\(id)", "class": "plot", "data-chart": id,
            ]
        )
        html.element("title", ["id": "title-\(id)"], text: title)
        // The y axis: ticks, their values, light grid lines, the unit above.
        html.raw("<g class=\"axis y\">")
        // Ticks closer than the values' decimals show (0.5 min apart) get the decimals they need.
        let step = scale.ticks.count > 1 ? scale.ticks[1] - scale.ticks[0] : 1
        var tickDecimals = decimals
        while format == nil, tickDecimals < 6,
            (step * pow(10, Double(tickDecimals))).rounded() != step * pow(10, Double(tickDecimals))
        {
            tickDecimals += 1
        }
        func tickText(_ tick: Double) -> String {
            format == nil ? Format.number(tick, decimals: tickDecimals) : text(tick)
        }
        for tick in scale.ticks {
            let ty = Self.number(y(tick, scale))
            html.raw(
                "<line class=\"grid\" x1=\"\(Self.number(Self.left))\" x2=\"\(Self.number(Self.width - Self.right))\" y1=\"\(ty)\" y2=\"\(ty)\"></line>"
            )
            html.open(
                "text",
                [
                    "x": Self.number(Self.left - 6), "y": Self.number(y(tick, scale) + 4), "text-anchor": "end",
                    "class": "tick", "data-tick": tickText(tick),
                ]
            )
            html.text(tickText(tick))
            html.raw("</text>")
        }
        html.element(
            "text",
            ["x": Self.number(Self.left - 6), "y": "12", "text-anchor": "end", "class": "unit"],
            text: unit
        )
        html.raw(
            "<line class=\"axis-line\" x1=\"\(Self.number(Self.left))\" x2=\"\(Self.number(Self.left))\" y1=\"\(Self.number(Self.top))\" y2=\"\(Self.number(Self.top + plotHeight))\"></line>"
        )
        html.raw("</g>")
        // The x axis: the baseline, ticks at labelled slots.
        html.raw("<g class=\"axis x\">")
        let baseline = Self.number(Self.top + plotHeight)
        html.raw(
            "<line class=\"axis-line\" x1=\"\(Self.number(Self.left))\" x2=\"\(Self.number(Self.width - Self.right))\" y1=\"\(baseline)\" y2=\"\(baseline)\"></line>"
        )
        for (slot, label) in labelledSlots {
            let tx = Self.number(x(Double(slot)))
            html.raw(
                "<line class=\"tick-mark\" x1=\"\(tx)\" x2=\"\(tx)\" y1=\"\(baseline)\" y2=\"\(Self.number(Self.top + plotHeight + 5))\"></line>"
            )
            html.element(
                "text",
                ["x": tx, "y": Self.number(Self.top + plotHeight + 18), "text-anchor": "middle", "class": "tick"],
                text: label
            )
        }
        html.raw("</g>")
        marks(into: &html, scale)
        goals(into: &html, scale)
        if series.count > 1 { legend(into: &html) }
        html.raw("</svg>")
    }

    private func marks(into html: inout HTMLWriter, _ scale: (low: Double, high: Double, ticks: [Double])) {
        let slotWidth = plotWidth / Double(max(slots.count, 1))
        let barWidth = max(slotWidth * 0.7, 0.6)
        html.raw("<g class=\"marks\">")
        switch kind {
        case .bars:
            for point in points {
                let value = point.values[0]
                guard !value.isNaN else { continue }
                let top = y(max(value, 0), scale)
                bar(
                    into: &html,
                    point,
                    x: x(Double(point.slot)) - barWidth / 2,
                    y: top,
                    width: barWidth,
                    height: y(0, scale) - top,
                    seriesIndex: 0,
                    label: "\(slots[point.slot]): \(labelled(value))"
                )
            }
        case .stacked:
            for point in points {
                var base = 0.0
                for (index, value) in point.values.enumerated() where !value.isNaN && value > 0 {
                    let top = y(base + value, scale)
                    bar(
                        into: &html,
                        point,
                        x: x(Double(point.slot)) - barWidth / 2,
                        y: top,
                        width: barWidth,
                        height: y(base, scale) - top,
                        seriesIndex: index,
                        label: "\(slots[point.slot]), \(series[index]): \(labelled(value))"
                    )
                    base += value
                }
            }
        case .range:
            for point in points where point.values.count >= 3 {
                let (low, high, average) = (point.values[0], point.values[1], point.values[2])
                let cx = x(Double(point.slot))
                html.open(
                    "g",
                    [
                        "class": "mark", "data-slot": slots[point.slot], "data-min": text(low), "data-max": text(high),
                        "data-average": text(average),
                    ]
                )
                html.element(
                    "title",
                    text:
                        "\(slots[point.slot]): \(series[0]) \(labelled(low)), \(series[1]) \(labelled(high)), \(series[2]) \(labelled(average))"
                )
                html.raw(
                    "<line class=\"range s0\" x1=\"\(Self.number(cx))\" x2=\"\(Self.number(cx))\" y1=\"\(Self.number(y(low, scale)))\" y2=\"\(Self.number(y(high, scale)))\" stroke-width=\"\(Self.number(max(min(barWidth, 8), 1.5)))\"></line>"
                )
                html.raw(
                    "<circle class=\"dot s1\" cx=\"\(Self.number(cx))\" cy=\"\(Self.number(y(average, scale)))\" r=\"\(Self.number(max(min(barWidth / 2, 3.5), 1)))\"></circle>"
                )
                html.raw("</g>")
            }
        case .lines:
            for index in series.indices {
                // The line through consecutive slots with values; a slot without one breaks it.
                var path = ""
                var previous: Int?
                for point in points where index < point.values.count && !point.values[index].isNaN {
                    let command = previous == point.slot - 1 ? "L" : "M"
                    path +=
                        "\(command)\(Self.number(x(Double(point.slot)))) \(Self.number(y(point.values[index], scale))) "
                    previous = point.slot
                }
                if !path.isEmpty {
                    html.raw("<path class=\"line \(Self.seriesClasses[index % 8])\" d=\"\(path.dropLast())\"></path>")
                }
                let radius = Self.number(max(min(slotWidth / 3, 3.5), 1.2))
                for point in points where index < point.values.count && !point.values[index].isNaN {
                    let value = point.values[index]
                    html.open(
                        "circle",
                        [
                            "class": "mark dot \(Self.seriesClasses[index % 8])",
                            "cx": Self.number(x(Double(point.slot))),
                            "cy": Self.number(y(value, scale)), "r": radius, "data-slot": slots[point.slot],
                            "data-series": series[index], "data-value": text(value),
                        ]
                    )
                    html.element(
                        "title",
                        text: series.count > 1
                            ? "\(slots[point.slot]), \(series[index]): \(labelled(value))"
                            : "\(slots[point.slot]): \(labelled(value))"
                    )
                    html.raw("</circle>")
                }
            }
        }
        html.raw("</g>")
    }

    private func bar(
        into html: inout HTMLWriter,
        _ point: Point,
        x: Double,
        y: Double,
        width: Double,
        height: Double,
        seriesIndex: Int,
        label: String
    ) {
        html.open(
            "rect",
            [
                "class": "mark bar \(Self.seriesClasses[seriesIndex % 8])", "x": Self.number(x), "y": Self.number(y),
                "width": Self.number(width), "height": Self.number(max(height, 0)), "data-slot": slots[point.slot],
                "data-series": series[seriesIndex], "data-value": text(point.values[seriesIndex]),
            ]
        )
        html.element("title", text: label)
        html.raw("</rect>")
    }

    /// The goal of each slot as a dashed step line, labelled once.
    private func goals(into html: inout HTMLWriter, _ scale: (low: Double, high: Double, ticks: [Double])) {
        let slotWidth = plotWidth / Double(max(slots.count, 1))
        var path = ""
        var previous: (slot: Int, goal: Double)?
        var lastGoal: Double?
        for point in points {
            guard let goal = point.goal else { continue }
            let left = x(Double(point.slot)) - slotWidth / 2
            let right = left + slotWidth
            let command = previous.map { $0.slot == point.slot - 1 } == true ? "L" : "M"
            path +=
                "\(command)\(Self.number(left)) \(Self.number(y(goal, scale))) L\(Self.number(right)) \(Self.number(y(goal, scale))) "
            previous = (point.slot, goal)
            lastGoal = goal
        }
        guard !path.isEmpty, let lastGoal else { return }
        html.raw("<g class=\"goal\">")
        html.element("title", text: "Goal: \(labelled(lastGoal)) on the last day with data")
        html.raw("<path class=\"goal-line\" d=\"\(path.dropLast())\"></path>")
        html.element(
            "text",
            [
                "x": Self.number(Self.width - Self.right), "y": Self.number(max(y(lastGoal, scale) - 4, 10)),
                "text-anchor": "end", "class": "goal-label", "data-goal": text(lastGoal),
            ],
            text: "goal \(labelled(lastGoal))"
        )
        html.raw("</g>")
    }

    private func legend(into html: inout HTMLWriter) {
        html.raw("<g class=\"legend\">")
        var offset = Self.left + 8
        // A range chart draws two marks: the bar from minimum to maximum, the average's dot.
        let names = kind == .range ? ["\(series[0]) to \(series[1].lowercased())", series[2]] : series
        for (index, name) in names.enumerated() {
            html.raw(
                "<rect class=\"swatch \(Self.seriesClasses[index % 8])\" x=\"\(Self.number(offset))\" y=\"4\" width=\"9\" height=\"9\"></rect>"
            )
            html.element("text", ["x": Self.number(offset + 12), "y": "12", "class": "legend-label"], text: name)
            offset += 22 + Double(name.count) * 7.2
        }
        html.raw("</g>")
    }

    // MARK: Table

    /// The chart's numbers as a table (screen readers read it; it is hidden from sight).
    func table(into html: inout HTMLWriter) {
        // Hidden in a clipping box: a table is never narrower than its content, whatever its width.
        html.raw("<div class=\"sr-only\">")
        html.open("table", ["data-chart-table": id])
        html.element("caption", text: "\(title)\(unit.isEmpty ? "" : ", \(unit)")")
        html.raw("<thead><tr>")
        html.element("th", ["scope": "col"], text: slotName)
        for name in series { html.element("th", ["scope": "col"], text: name) }
        let hasGoals = points.contains { $0.goal != nil }
        if hasGoals { html.element("th", ["scope": "col"], text: "Goal") }
        for extra in extras { html.element("th", ["scope": "col"], text: extra.name) }
        html.raw("</tr></thead><tbody>")
        for point in points {
            html.open("tr", ["data-slot": slots[point.slot]])
            html.element("th", ["scope": "row"], text: slots[point.slot])
            for value in point.values.prefix(series.count) {
                html.element("td", text: value.isNaN ? "-" : text(value))
            }
            if hasGoals { html.element("td", text: point.goal.map(text) ?? "-") }
            for extra in extras { html.element("td", text: extra.values[point.slot].map(text) ?? "-") }
            html.raw("</tr>")
        }
        html.raw("</tbody></table></div>")
    }

    /// The figure: caption in words, the SVG, the table.
    func figure(into html: inout HTMLWriter) {
        html.open("figure", ["class": "chart", "id": "chart-\(id)"])
        html.open("figcaption")
        html.element("strong", text: title)
        html.text(" " + caption)
        html.raw("</figcaption>")
        svg(into: &html)
        table(into: &html)
        html.raw("</figure>")
    }
}
