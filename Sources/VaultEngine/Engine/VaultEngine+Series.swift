public import AuditLog
public import Foundation
public import HealthModel
import VaultStore

extension VaultEngine {
    /// One batch of an electrocardiogram's voltage measurements, in the caller's scope (HealthKit's
    /// electrocardiogram query): at most `limit` (0: ``ElectrocardiogramQueryDescriptor/maximumBatchSize``)
    /// from position `offset`, and where the next batch starts.
    ///
    /// Nil when the caller sees no electrocardiogram with this UUID: an unknown UUID, another
    /// kind of sample's, and another app's electrocardiogram without the read grant are answered
    /// alike. Recorded as `query.electrocardiogram`, with a count of 1 when measurements were
    /// answered and `denied-served-empty` for an app without the read grant.
    public func voltageMeasurements(
        of uuid: UUID,
        offset: Int = 0,
        limit: Int = 0,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> SeriesBatch<Electrocardiogram.VoltageMeasurement>? {
        let maximum = ElectrocardiogramQueryDescriptor.maximumBatchSize
        return try await read(.queryElectrocardiogram, types: [.electrocardiogram], as: caller, requestID: requestID) {
            [self] db, scope in
            try SeriesBatch<Electrocardiogram.VoltageMeasurement>.validate(
                offset: offset,
                limit: limit,
                maximum: maximum
            )
            let batch = try store.voltageMeasurements(
                of: uuid,
                offset: offset,
                limit: limit == 0 ? maximum : limit,
                scope: scope,
                in: db
            )
            return (batch, batch == nil ? 0 : 1)
        }
    }

    /// One batch of a heartbeat series' beats, in the caller's scope (HealthKit's heartbeat series
    /// query), as ``voltageMeasurements(of:offset:limit:as:requestID:)``; recorded as
    /// `query.heartbeat-series`.
    public func heartbeats(
        of uuid: UUID,
        offset: Int = 0,
        limit: Int = 0,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> SeriesBatch<HeartbeatSeriesSample.Heartbeat>? {
        let maximum = HeartbeatSeriesQueryDescriptor.maximumBatchSize
        return try await read(.queryHeartbeatSeries, types: [.heartbeatSeries], as: caller, requestID: requestID) {
            [self] db, scope in
            try SeriesBatch<HeartbeatSeriesSample.Heartbeat>.validate(offset: offset, limit: limit, maximum: maximum)
            let batch = try store.heartbeats(
                of: uuid,
                offset: offset,
                limit: limit == 0 ? maximum : limit,
                scope: scope,
                in: db
            )
            return (batch, batch == nil ? 0 : 1)
        }
    }
}
