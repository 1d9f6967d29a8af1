extension Sample {
    /// The sample as a query answers it: an electrocardiogram without its voltage measurements,
    /// a heartbeat series without its beats, a quantity series without its quantities (each read
    /// by its own query), a CDA document sample without its document (read by a document query);
    /// any other sample as it is.
    public var withoutSeriesData: Sample {
        switch self {
        case .electrocardiogram(let ecg) where ecg.voltageMeasurements != nil:
            .electrocardiogram(ecg.withoutVoltageMeasurements)
        case .heartbeatSeries(let series) where series.heartbeats != nil:
            .heartbeatSeries(series.withoutHeartbeats)
        case .quantity(let sample) where sample.seriesQuantities != nil:
            .quantity(sample.withoutSeriesQuantities)
        case .cdaDocument(let sample) where sample.document != nil:
            .cdaDocument(sample.withoutDocument)
        default:
            self
        }
    }
}
