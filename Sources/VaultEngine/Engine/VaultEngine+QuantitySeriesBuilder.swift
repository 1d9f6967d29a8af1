import AuditLog
public import Foundation
public import HealthModel
import VaultStore

/// HealthKit's `HKQuantitySeriesSampleBuilder`: an app inserts quantities, each with its date
/// interval, then finishes the series into one saved quantity sample, or discards it. The
/// quantities are held in memory, for the app and the connection that began the builder, until
/// then; nothing reaches the vault before the finish, which is a save like any other (the share
/// grant, the audit entry `save`, the observers). A builder not finished when its connection
/// closes is dropped, as the heartbeat series builders are.
extension VaultEngine {
    /// The most quantities one insert carries.
    static let maximumQuantitiesPerInsert = 10_000

    /// Begins a series of `type` starting at `start`, measured by `device`; returns the builder's
    /// id. The app needs its share grant for the type (else `authorizationDenied`, recorded as a
    /// denied `save`); an app holds at most 8 open builders (`dataSizeExceeded`).
    public func beginQuantitySeries(
        type: QuantityTypeIdentifier,
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
        try await requireShareGrant(for: .quantity(type), appID: appID, caller: caller, requestID: requestID)
        return try quantitySeriesBuilders.begin(
            QuantitySeriesBuilder(
                appID: appID,
                connection: connection,
                type: type,
                start: start,
                device: device
            )
        )
    }

    /// Inserts quantities into a builder, all or none (HealthKit's `insert(_:for:)`): each of a
    /// unit the type accepts and a value in its range, starting no earlier than the series; one
    /// with the start date of a quantity already there replaces it. At most 10,000 at once and
    /// 50,000 in the series (`dataSizeExceeded`). Returns how many quantities the builder holds.
    @discardableResult
    public func insertQuantities(
        _ quantities: [QuantitySample.SeriesQuantity],
        into builder: UUID,
        as caller: Caller,
        connection: UUID? = nil
    ) throws -> Int {
        let appID = try Self.builderApp(caller)
        guard quantities.count <= Self.maximumQuantitiesPerInsert else {
            throw HealthError(
                .dataSizeExceeded,
                "an insert carries at most \(Self.maximumQuantitiesPerInsert) quantities",
                field: "quantities"
            )
        }
        return try quantitySeriesBuilders.update(builder, appID: appID, connection: connection) {
            (state) throws(HealthError) -> Int in
            guard !quantities.isEmpty else {
                throw .invalidArgument("there are no quantities to insert", field: "quantities")
            }
            for (index, entry) in quantities.enumerated() {
                let field = "quantities[\(index)]"
                try state.type.validate(entry.quantity, field: field + ".quantity")
                guard entry.dateInterval.start >= state.start else {
                    throw .invalidArgument(
                        "a quantity starts before its series' start date",
                        field: field + ".startDate"
                    )
                }
                guard RFC3339.representableRange.contains(entry.dateInterval.end) else {
                    throw .invalidArgument(
                        "the end date is not between the years 0000 and 9999",
                        field: field + ".endDate"
                    )
                }
            }
            var merged = state.quantities
            for entry in quantities {
                merged[entry.dateInterval.start.timeIntervalSinceReferenceDate] = entry
            }
            guard merged.count <= QuantitySample.maximumCount else {
                throw HealthError(
                    .dataSizeExceeded,
                    "a series holds at most \(QuantitySample.maximumCount) quantities",
                    field: "quantities"
                )
            }
            state.quantities = merged
            if state.unit == nil { state.unit = quantities.first?.quantity.unit }
            return merged.count
        }
    }

    /// Finishes a builder (HealthKit's `finishSeries(metadata:endDate:)`): saves its quantities
    /// as one quantity sample from the builder's start to `endDate` (nil: the latest end of a
    /// quantity), under a new UUID (`UUID.forNewObject()`), through ``save(_:as:requestID:)`` (the share grant
    /// checked again, recorded as `save`), and returns the saved samples as a query answers them
    /// (one; a series of one quantity is an ordinary sample over the span). The builder is gone
    /// afterwards, whatever the outcome; one without quantities saves nothing (`invalidArgument`).
    public func finishQuantitySeries(
        _ builder: UUID,
        metadata: Metadata = [:],
        endDate: Date? = nil,
        as caller: Caller,
        connection: UUID? = nil,
        requestID: String = ""
    ) async throws -> [QuantitySample] {
        let appID = try Self.builderApp(caller)
        let state = try quantitySeriesBuilders.take(builder, appID: appID, connection: connection)
        guard let unit = state.unit, let latest = state.quantities.values.map(\.dateInterval.end).max() else {
            throw HealthError.invalidArgument(
                "no quantity was inserted into this builder; nothing was saved",
                field: "builder"
            )
        }
        if let endDate, endDate < latest {
            throw HealthError.invalidArgument(
                "the end date is before the end of a quantity of the series; nothing was saved",
                field: "endDate"
            )
        }
        let source = SourceRevision(source: Source(bundleIdentifier: appID, name: appID))
        let sample = try QuantitySample(
            type: state.type,
            series: Array(state.quantities.values),
            unit: unit,
            start: state.start,
            end: endDate ?? latest,
            sourceRevision: source,
            device: state.device,
            metadata: metadata
        )
        try await Self.namingMetadata { try await save([.quantity(sample)], as: caller, requestID: requestID) }
        let app = try await perform { [self] in try database.read { try requireApp(appID, $0) } }
        return [sample.attributed(to: SourceRevision(source: app.source)).withoutSeriesQuantities]
    }

    /// Discards a builder and its quantities (HealthKit's `discard`); nothing was saved.
    public func discardQuantitySeries(_ builder: UUID, as caller: Caller, connection: UUID? = nil) throws {
        let appID = try Self.builderApp(caller)
        _ = try quantitySeriesBuilders.take(builder, appID: appID, connection: connection)
    }

    /// Drops every quantity series builder of a connection that closed.
    public func discardQuantitySeriesBuilders(connection: UUID) {
        quantitySeriesBuilders.discardAll(connection: connection)
    }

    /// One batch of the quantities of the `type` sample with this UUID, in the caller's scope
    /// (HealthKit's quantity series query): a series' quantities in order of their start dates, a
    /// sample that is not a series as its one quantity over its span; at most `limit`
    /// (0: ``QuantitySeriesSampleQueryDescriptor/maximumBatchSize``) from position `offset`, and
    /// where the next batch starts.
    ///
    /// Nil when the caller sees no `type` sample with this UUID: an unknown UUID, another type's
    /// sample, and another app's sample without the read grant are answered alike. Recorded as
    /// `query.quantity-series` naming the type, with a count of 1 when quantities were answered
    /// and `denied-served-empty` for an app without the read grant.
    public func seriesQuantities(
        of uuid: UUID,
        type: QuantityTypeIdentifier,
        offset: Int = 0,
        limit: Int = 0,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> SeriesBatch<QuantitySample.SeriesQuantity>? {
        let maximum = QuantitySeriesSampleQueryDescriptor.maximumBatchSize
        return try await read(.queryQuantitySeries, types: [.quantity(type)], as: caller, requestID: requestID) {
            [self] db, scope in
            try SeriesBatch<QuantitySample.SeriesQuantity>.validate(offset: offset, limit: limit, maximum: maximum)
            let batch = try store.seriesQuantities(
                of: uuid,
                type: type,
                offset: offset,
                limit: limit == 0 ? maximum : limit,
                scope: scope,
                in: db
            )
            return (batch, batch == nil ? 0 : 1)
        }
    }
}
