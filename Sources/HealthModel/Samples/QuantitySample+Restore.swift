public import Foundation

extension QuantitySample {
    /// The same series carrying its quantities, as a restore from an export stores it: the sample's
    /// own values (its sum or average, count and summary) are kept exactly as they are, so what the
    /// vault held is what it holds again. `quantities` must count ``count`` (more than 1), each
    /// inside the sample's span and in a unit of the type (`quantities`, or `quantities[i]…`).
    public func withSeriesQuantities(_ quantities: [SeriesQuantity]) throws(HealthError) -> QuantitySample {
        guard count > 1, quantities.count == count else {
            throw .invalidArgument("a series carries as many quantities as its count", field: "quantities")
        }
        for (index, entry) in quantities.enumerated() {
            let field = "quantities[\(index)]"
            try quantityType.validate(entry.quantity, field: field + ".quantity")
            guard entry.dateInterval.start >= startDate, entry.dateInterval.end <= endDate else {
                throw .invalidArgument("a quantity lies outside its series", field: field + ".startDate")
            }
        }
        return try QuantitySample(
            uuid: uuid,
            type: quantityType,
            quantity: quantity,
            start: startDate,
            end: endDate,
            count: count,
            discreteSummary: discreteSummary,
            seriesQuantities: quantities,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }
}
