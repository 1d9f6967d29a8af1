/// A chart's caption in words: how many slots have data, the average, the range (with the slots
/// it was reached on) and the trend.
enum Caption {
    /// `values`: (slot, value) in slot order. `slotNoun`: `day`, `night`, `week`; `perWeek`: how
    /// many slots make a week (7 for days and nights, 1 for weeks).
    static func describe(
        _ values: [(slot: Int, value: Double)],
        slots: [String],
        slotNoun: String,
        perWeek: Double,
        text: (Double) -> String
    ) -> String {
        guard let first = values.first, let last = values.last else { return "" }
        let count = values.count
        let mean = values.map(\.value).reduce(0, +) / Double(count)
        let low = values.min { $0.value < $1.value }!
        let high = values.max { $0.value < $1.value }!
        var sentence =
            "Average \(text(mean)) a \(slotNoun) over \(count) \(slotNoun)\(count == 1 ? "" : "s") with data"
        if count > 1 {
            sentence += "; from \(text(low.value)) (\(slots[low.slot])) to \(text(high.value)) (\(slots[high.slot]))"
        }
        sentence += ". " + trend(values, first: first.slot, last: last.slot, mean: mean, perWeek: perWeek, text: text)
        return sentence
    }

    /// The least-squares slope over the slots, in words: rising or falling by so much a week, or
    /// steady (a change over the whole span of less than 5% of the average).
    static func trend(
        _ values: [(slot: Int, value: Double)],
        first: Int,
        last: Int,
        mean: Double,
        perWeek: Double,
        text: (Double) -> String
    ) -> String {
        guard values.count >= 3, last > first else { return "Too few points for a trend." }
        let n = Double(values.count)
        let meanX = values.map { Double($0.slot) }.reduce(0, +) / n
        var numerator = 0.0
        var denominator = 0.0
        for (slot, value) in values {
            numerator += (Double(slot) - meanX) * (value - mean)
            denominator += (Double(slot) - meanX) * (Double(slot) - meanX)
        }
        guard denominator > 0 else { return "Too few points for a trend." }
        let slope = numerator / denominator
        let change = slope * Double(last - first)
        if abs(change) < 0.05 * abs(mean) || change == 0 {
            return "Trend: steady."
        }
        let weekly = abs(slope * perWeek)
        return "Trend: \(slope > 0 ? "rising" : "falling") by about \(text(weekly)) a week."
    }
}
