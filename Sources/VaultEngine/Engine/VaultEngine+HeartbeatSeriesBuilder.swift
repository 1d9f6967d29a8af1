import AuditLog
public import Foundation
public import HealthModel
import VaultStore

/// HealthKit's `HKHeartbeatSeriesBuilder`: an app adds beats in pieces and metadata, then
/// finishes the series into one saved sample, or discards it. The beats are held in memory, for
/// the app and the connection that began the builder, until then; nothing reaches the vault
/// before the finish, which is a save like any other (the share grant, the audit entry `save`,
/// the observers). A builder not finished when its connection closes is dropped, as HealthKit's
/// is when its app goes away.
extension VaultEngine {
    /// Begins a heartbeat series starting at `start`, measured by `device`; returns the builder's
    /// id. The app needs its share grant for the heartbeat series type (else
    /// `authorizationDenied`, recorded as a denied `save`); a connection holds at most 16 open
    /// builders (`dataSizeExceeded`).
    ///
    /// - Parameter connection: the connection the builder belongs to; only calls naming it use the
    ///   builder, and ``discardHeartbeatSeriesBuilders(connection:)`` drops it.
    public func beginHeartbeatSeries(
        start: Date,
        device: Device? = nil,
        as caller: Caller,
        connection: UUID? = nil,
        requestID: String = ""
    ) async throws -> UUID {
        let appID = try Self.builderApp(caller)
        guard RFC3339.representableRange.contains(start) else {
            throw HealthError.invalidArgument(
                "the start date is not between the years 0000 and 9999",
                field: "startDate"
            )
        }
        try await requireShareGrant(for: .heartbeatSeries, appID: appID, caller: caller, requestID: requestID)
        return try heartbeatSeriesBuilders.begin(
            HeartbeatSeriesBuilder(appID: appID, connection: connection, start: start, device: device)
        )
    }

    /// Adds beats to a builder, all or none: each later than the one before (and than the last
    /// beat already added), at least 0 seconds since the start, at most 1,000 in the series
    /// (HealthKit's `maximumCount`). Returns how many beats the builder holds.
    @discardableResult
    public func addHeartbeats(
        _ beats: [HeartbeatSeriesSample.Heartbeat],
        to builder: UUID,
        as caller: Caller,
        connection: UUID? = nil
    ) throws -> Int {
        let appID = try Self.builderApp(caller)
        return try heartbeatSeriesBuilders.update(builder, appID: appID, connection: connection) {
            (state) throws(HealthError) -> Int in
            try HeartbeatSeriesSample.validate(
                beats,
                after: state.heartbeats.last?.timeSinceSeriesStart,
                span: nil,
                total: state.heartbeats.count + beats.count
            )
            state.heartbeats += beats
            return state.heartbeats.count
        }
    }

    /// Adds metadata to a builder, as `NSMutableDictionary.addEntries(from:)` does: a key given
    /// again takes the new value. Refused whole, naming the key, when the result is not valid
    /// metadata (docs/MODEL_JSON.md, "Metadata keys"), or larger than
    /// ``HeartbeatSeriesSample/maximumBuilderMetadataBytes`` as JSON (`dataSizeExceeded`): the
    /// builder holds it in memory until its finish, and each call may add more.
    public func addMetadata(_ metadata: Metadata, to builder: UUID, as caller: Caller, connection: UUID? = nil) throws {
        let appID = try Self.builderApp(caller)
        try heartbeatSeriesBuilders.update(builder, appID: appID, connection: connection) {
            (state) throws(HealthError) in
            let merged = state.metadata.merging(metadata) { _, new in new }
            try HeartbeatSeriesSample.validate(metadata: merged)
            let limit = HeartbeatSeriesSample.maximumBuilderMetadataBytes
            guard ((try? HealthJSON.encode(merged))?.count ?? 0) <= limit else {
                throw HealthError(
                    .dataSizeExceeded,
                    "a heartbeat series builder's metadata holds at most \(limit) bytes of JSON",
                    field: "metadata"
                )
            }
            state.metadata = merged
        }
    }

    /// Finishes a builder (HealthKit's `finishSeries`): saves its beats as one heartbeat series,
    /// from the builder's start to its last beat, under a new UUID (`UUID.forNewObject()`), through ``save(_:as:requestID:)``
    /// (the share grant checked again, recorded as `save`), and returns the saved sample as a
    /// query answers it (without its beats). The builder is gone afterwards, whatever the
    /// outcome, as HealthKit's is; a builder without beats saves nothing (`invalidArgument`).
    public func finishHeartbeatSeries(
        _ builder: UUID,
        as caller: Caller,
        connection: UUID? = nil,
        requestID: String = ""
    ) async throws -> HeartbeatSeriesSample {
        let appID = try Self.builderApp(caller)
        let state = try heartbeatSeriesBuilders.take(builder, appID: appID, connection: connection)
        guard let last = state.heartbeats.last else {
            throw HealthError.invalidArgument(
                "no heartbeat was added to this builder; nothing was saved",
                field: "builder"
            )
        }
        let series = try HeartbeatSeriesSample(
            start: state.start,
            end: state.start.addingTimeInterval(last.timeSinceSeriesStart),
            heartbeats: state.heartbeats,
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: appID, name: appID)),
            device: state.device,
            metadata: state.metadata
        )
        try await Self.namingMetadata { try await save([.heartbeatSeries(series)], as: caller, requestID: requestID) }
        let app = try await perform { [self] in try database.read { try requireApp(appID, $0) } }
        return series.attributed(to: SourceRevision(source: app.source)).withoutHeartbeats
    }

    /// Discards a builder and its beats (HealthKit's `discard`); nothing was saved.
    public func discardHeartbeatSeries(_ builder: UUID, as caller: Caller, connection: UUID? = nil) throws {
        let appID = try Self.builderApp(caller)
        _ = try heartbeatSeriesBuilders.take(builder, appID: appID, connection: connection)
    }

    /// Drops every builder of a connection that closed.
    public func discardHeartbeatSeriesBuilders(connection: UUID) {
        heartbeatSeriesBuilders.discardAll(connection: connection)
    }

    /// The app building a series: the owner saves nothing through the engine.
    static func builderApp(_ caller: Caller) throws(HealthError) -> String {
        guard case .app(let appID) = caller else {
            throw HealthError(.invalidArgument, "the owner does not save samples through the engine; an app does")
        }
        return appID
    }

    /// The app's share grant for `type`, or `authorizationDenied`, recorded as a denied `save` of
    /// the type (an app not enrolled: as `save` refused).
    func requireShareGrant(
        for type: SampleType,
        appID: String,
        caller: Caller,
        requestID: String
    ) async throws {
        try await perform { [self] in
            try audited(caller, .save, types: [type.identifier], requestID: requestID) {
                let refusal = try database.read { db -> HealthError? in
                    _ = try requireApp(appID, db)
                    let granted = try GrantStore.grantedTypes(appID, .share, at: now(), db)
                    return Self.refusal(toShare: [type], granted: granted, nothing: "begun")
                }
                if let refusal {
                    try record(entry(caller, .save, types: [type.identifier], outcome: .denied, requestID: requestID))
                    throw Refusal(error: refusal)
                }
            }
        }
    }
}
