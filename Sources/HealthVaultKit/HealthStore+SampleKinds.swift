public import Foundation
import VaultProtocol

extension HealthStore {
    /// One batch of an electrocardiogram's voltage measurements: at most `limit` (0: as many as a
    /// batch holds, 10,000) from position `offset`, or nil when this app sees no electrocardiogram
    /// with this UUID (another app's, without the read grant, is answered as one that does not
    /// exist). The daemon may answer fewer than asked, to fit its frame; continue from `next`.
    public func voltageMeasurements(
        of uuid: UUID,
        offset: Int = 0,
        limit: Int = 0
    ) async throws -> SeriesBatch<Electrocardiogram.VoltageMeasurement>? {
        let result = try await call(
            Method.queryElectrocardiogram,
            SeriesQueryParams(uuid: uuid, offset: offset, limit: limit),
            as: VoltageMeasurementsResult.self
        )
        return result.voltageMeasurements.map { SeriesBatch(points: $0, next: result.next) }
    }

    /// One batch of a heartbeat series' beats, as ``voltageMeasurements(of:offset:limit:)`` (a
    /// batch holds at most 1,000: a whole series).
    public func heartbeats(
        of uuid: UUID,
        offset: Int = 0,
        limit: Int = 0
    ) async throws -> SeriesBatch<HeartbeatSeriesSample.Heartbeat>? {
        let result = try await call(
            Method.queryHeartbeatSeries,
            SeriesQueryParams(uuid: uuid, offset: offset, limit: limit),
            as: HeartbeatsResult.self
        )
        return result.heartbeats.map { SeriesBatch(points: $0, next: result.next) }
    }

    /// Every point of a series, batch after batch, as a stream; it ends empty when the series is
    /// not one this app may see.
    func stream<Point: Sendable>(
        _ batch: @escaping @Sendable (HealthStore, Int) async throws -> SeriesBatch<Point>?
    ) -> AsyncThrowingStream<Point, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var offset: Int? = 0
                    while let from = offset, !Task.isCancelled, let page = try await batch(self, from) {
                        for point in page.points { continuation.yield(point) }
                        offset = page.next
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension ElectrocardiogramQueryDescriptor {
    /// The electrocardiogram's voltage measurements in time order, read batch by batch
    /// (HealthKit's `HKElectrocardiogramQueryDescriptor.results(for:)`). Ends at once, empty,
    /// for an electrocardiogram this app may not see.
    public func results(for store: HealthStore) -> AsyncThrowingStream<Electrocardiogram.VoltageMeasurement, any Error>
    {
        let uuid = uuid
        return store.stream { store, offset in try await store.voltageMeasurements(of: uuid, offset: offset) }
    }

    /// Every voltage measurement at once, or nil when this app sees no such electrocardiogram.
    public func result(for store: HealthStore) async throws -> [Electrocardiogram.VoltageMeasurement]? {
        try await collect { offset in try await store.voltageMeasurements(of: uuid, offset: offset) }
    }
}

extension HeartbeatSeriesQueryDescriptor {
    /// The series' beats in time order (HealthKit's `HKHeartbeatSeriesQueryDescriptor.results(for:)`).
    /// Ends at once, empty, for a series this app may not see.
    public func results(for store: HealthStore) -> AsyncThrowingStream<Heartbeat, any Error> {
        let uuid = uuid
        return store.stream { store, offset in try await store.heartbeats(of: uuid, offset: offset) }
    }

    /// Every beat at once, or nil when this app sees no such series.
    public func result(for store: HealthStore) async throws -> [Heartbeat]? {
        try await collect { offset in try await store.heartbeats(of: uuid, offset: offset) }
    }
}

/// Every point of a series, batch by batch; nil when the first batch finds no series.
private func collect<Point>(_ batch: (Int) async throws -> SeriesBatch<Point>?) async throws -> [Point]? {
    var points: [Point] = []
    var offset: Int? = 0
    while let from = offset {
        guard let page = try await batch(from) else { return from == 0 ? nil : points }
        points += page.points
        offset = page.next
    }
    return points
}
