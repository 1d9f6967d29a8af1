extension Sample {
    /// The sample as a query answers it: an electrocardiogram without its voltage measurements,
    /// a heartbeat series without its beats, a quantity series without its quantities (each read
    /// by its own query); any other sample as it is.
    public var withoutSeriesData: Sample {
        switch self {
        case .electrocardiogram(let ecg) where ecg.voltageMeasurements != nil:
            .electrocardiogram(ecg.withoutVoltageMeasurements)
        case .heartbeatSeries(let series) where series.heartbeats != nil:
            .heartbeatSeries(series.withoutHeartbeats)
        case .quantity(let sample) where sample.seriesQuantities != nil:
            .quantity(sample.withoutSeriesQuantities)
        default:
            self
        }
    }
}
