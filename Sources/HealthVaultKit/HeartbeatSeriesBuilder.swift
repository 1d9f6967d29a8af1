public import Foundation
import VaultProtocol

/// Builds a heartbeat series beat by beat and saves it as one sample, as HealthKit's
/// `HKHeartbeatSeriesBuilder`:
///
///     let builder = HeartbeatSeriesBuilder(healthStore: store, device: strap, startDate: start)
///     try await builder.addHeartbeat(at: 0.82, precededByGap: false)
///     try await builder.addMetadata([.heartRateSensorLocation: .number(1)])
///     let series = try await builder.finishSeries()
///
/// The beats go to the vault as they are added and wait there, for this connection, until the
/// series is finished (saved, with the app's share grant for the heartbeat series type) or
/// discarded. A builder not finished when its ``HealthStore`` closes is lost, as HealthKit's is
/// when the app goes away. Beats must come in time order; a series holds at most
/// ``maximumCount``.
public actor HeartbeatSeriesBuilder {
    /// The most beats a series holds (HealthKit's `maximumCount`).
    public static let maximumCount = HeartbeatSeriesSample.maximumCount

    let store: HealthStore
    let device: Device?
    let startDate: Date
    /// The vault's id of this builder, once the first call began it.
    private var builder: UUID?
    private var ended = false

    /// A builder of a series starting at `startDate`, measured by `device`. Nothing reaches the
    /// vault before the first call; that call fails when the app may not share heartbeat series.
    public init(healthStore: HealthStore, device: Device? = nil, startDate: Date) {
        self.store = healthStore
        self.device = device
        self.startDate = startDate
    }

    /// Adds one beat, `timeSinceSeriesStart` seconds after the start, later than the last one.
    public func addHeartbeat(at timeSinceSeriesStart: TimeInterval, precededByGap: Bool) async throws {
        try await addHeartbeats([
            HeartbeatSeriesSample.Heartbeat(timeSinceSeriesStart: timeSinceSeriesStart, precededByGap: precededByGap)
        ])
    }

    /// Adds beats, all or none.
    public func addHeartbeats(_ heartbeats: [HeartbeatSeriesSample.Heartbeat]) async throws {
        let builder = try await begun()
        _ = try await store.call(
            Method.heartbeatSeriesBuilderAdd,
            HeartbeatSeriesAddParams(builder: builder, heartbeats: heartbeats),
            as: HeartbeatSeriesCountResult.self
        )
    }

    /// Adds metadata: a key given again takes the new value.
    public func addMetadata(_ metadata: Metadata) async throws {
        let builder = try await begun()
        _ = try await store.call(
            Method.heartbeatSeriesBuilderAddMetadata,
            HeartbeatSeriesMetadataParams(builder: builder, metadata: metadata),
            as: Empty.self
        )
    }

    /// Saves the series (from the start to its last beat) and returns it, without its beats, as a
    /// query would. The builder is done afterwards, whatever the outcome.
    public func finishSeries() async throws -> HeartbeatSeriesSample {
        let builder = try await begun()
        ended = true
        return try await store.call(
            Method.heartbeatSeriesBuilderFinish,
            HeartbeatSeriesBuilderParams(builder: builder),
            as: HeartbeatSeriesFinishResult.self
        )
        .sample
    }

    /// Drops the beats added so far; nothing is saved.
    public func discard() async {
        ended = true
        guard let builder else { return }
        _ = try? await store.call(
            Method.heartbeatSeriesBuilderDiscard,
            HeartbeatSeriesBuilderParams(builder: builder),
            as: Empty.self
        )
    }

    private func begun() async throws(HealthError) -> UUID {
        guard !ended else {
            throw HealthError.invalidArgument("this builder has finished or been discarded", field: "builder")
        }
        if let builder { return builder }
        let result = try await store.call(
            Method.heartbeatSeriesBuilderBegin,
            HeartbeatSeriesBeginParams(startDate: startDate, device: device),
            as: HeartbeatSeriesBuilderResult.self
        )
        builder = result.builder
        return result.builder
    }
}
