import Foundation
import HealthModel
import VaultEngine
import VaultProtocol

extension Session {
    /// The series methods (docs/PROTOCOL.md, "Series: electrocardiograms and heartbeat series"):
    /// the batch reads for both roles, the heartbeat series builder for apps; nil for any other
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
        default:
            return nil
        }
    }

    /// Drops the heartbeat series this connection was building: unfinished, they are lost, as in
    /// HealthKit when the app goes away.
    func endHeartbeatSeriesBuilders() {
        (try? daemon.engine())?.discardHeartbeatSeriesBuilders(connection: id)
    }
}
