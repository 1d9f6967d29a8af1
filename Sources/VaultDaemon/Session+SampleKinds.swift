import Foundation
import HealthModel
import VaultEngine
import VaultProtocol

extension Session {
    /// The series methods (docs/PROTOCOL.md, "Series: electrocardiograms and heartbeat series",
    /// and "The quantity series builder and query"): the batch reads for both roles, the heartbeat
    /// and quantity series builders for apps; nil for any other
    /// method. A builder belongs to this connection: it is named by the id `begin` answered, and
    /// dropped when the connection ends (``endHeartbeatSeriesBuilders()``).
    func dispatchSampleKinds(
        method: String,
        data: Data,
        caller: Caller,
        requestID: String
    ) async throws -> (any Encodable)? {
        switch method {
        case Method.queryElectrocardiogram:
            let p = try params(SeriesQueryParams.self, from: data)
            let batch = try await daemon.engine().voltageMeasurements(
                of: p.uuid,
                offset: p.offset ?? 0,
                limit: p.limit ?? 0,
                as: caller,
                requestID: requestID
            )
            return VoltageMeasurementsResult(batch, offset: p.offset ?? 0)
        case Method.queryHeartbeatSeries:
            let p = try params(SeriesQueryParams.self, from: data)
            let batch = try await daemon.engine().heartbeats(
                of: p.uuid,
                offset: p.offset ?? 0,
                limit: p.limit ?? 0,
                as: caller,
                requestID: requestID
            )
            return HeartbeatsResult(batch, offset: p.offset ?? 0)
        case Method.queryQuantitySeries:
            let p = try params(QuantitySeriesQueryParams.self, from: data)
            let batch = try await daemon.engine().seriesQuantities(
                of: p.uuid,
                type: p.quantityType,
                offset: p.offset ?? 0,
                limit: p.limit ?? 0,
                as: caller,
                requestID: requestID
            )
            return SeriesQuantitiesResult(batch, offset: p.offset ?? 0)
        default:
            break
        }
        // The builder saves: an app's only, as samples.save is.
        guard case .app = caller else { return nil }
        switch method {
        case Method.heartbeatSeriesBuilderBegin:
            let p = try params(HeartbeatSeriesBeginParams.self, from: data)
            let builder = try await daemon.engine().beginHeartbeatSeries(
                start: p.startDate,
                device: p.device,
                as: caller,
                connection: id,
                requestID: requestID
            )
            return HeartbeatSeriesBuilderResult(builder: builder)
        case Method.heartbeatSeriesBuilderAdd:
            let p = try params(HeartbeatSeriesAddParams.self, from: data)
            let count = try daemon.engine().addHeartbeats(p.heartbeats, to: p.builder, as: caller, connection: id)
            return HeartbeatSeriesCountResult(count: count)
        case Method.heartbeatSeriesBuilderAddMetadata:
            let p = try params(HeartbeatSeriesMetadataParams.self, from: data)
            try daemon.engine().addMetadata(p.metadata, to: p.builder, as: caller, connection: id)
            return Empty()
        case Method.heartbeatSeriesBuilderFinish:
            let p = try params(HeartbeatSeriesBuilderParams.self, from: data)
            let sample = try await daemon.engine().finishHeartbeatSeries(
                p.builder,
                as: caller,
                connection: id,
                requestID: requestID
            )
            return HeartbeatSeriesFinishResult(sample: sample)
        case Method.heartbeatSeriesBuilderDiscard:
            let p = try params(HeartbeatSeriesBuilderParams.self, from: data)
            try daemon.engine().discardHeartbeatSeries(p.builder, as: caller, connection: id)
            return Empty()
        case Method.quantitySeriesBuilderBegin:
            let p = try params(QuantitySeriesBeginParams.self, from: data)
            let builder = try await daemon.engine().beginQuantitySeries(
                type: p.quantityType,
                start: p.startDate,
                device: p.device,
                as: caller,
                connection: id,
                requestID: requestID
            )
            return HeartbeatSeriesBuilderResult(builder: builder)
        case Method.quantitySeriesBuilderInsert:
            let p = try params(QuantitySeriesInsertParams.self, from: data)
            let count = try daemon.engine().insertQuantities(p.quantities, into: p.builder, as: caller, connection: id)
            return HeartbeatSeriesCountResult(count: count)
        case Method.quantitySeriesBuilderFinish:
            let p = try params(QuantitySeriesFinishParams.self, from: data)
            let samples = try await daemon.engine().finishQuantitySeries(
                p.builder,
                metadata: p.metadata ?? [:],
                endDate: p.endDate,
                as: caller,
                connection: id,
                requestID: requestID
            )
            return QuantitySeriesFinishResult(samples: samples)
        case Method.quantitySeriesBuilderDiscard:
            let p = try params(HeartbeatSeriesBuilderParams.self, from: data)
            try daemon.engine().discardQuantitySeries(p.builder, as: caller, connection: id)
            return Empty()
        default:
            return nil
        }
    }

    /// Drops the heartbeat and quantity series this connection was building: unfinished, they are
    /// lost, as in HealthKit when the app goes away.
    func endHeartbeatSeriesBuilders() {
        let engine = try? daemon.engine()
        engine?.discardHeartbeatSeriesBuilders(connection: id)
        engine?.discardQuantitySeriesBuilders(connection: id)
    }
}
