public import Foundation
import VaultProtocol

/// Builds one quantity sample out of many quantities, each with its date interval, as HealthKit's
/// `HKQuantitySeriesSampleBuilder`:
///
///     let builder = QuantitySeriesSampleBuilder(
///         healthStore: store, quantityType: .heartRate, startDate: start, device: strap)
///     try await builder.insert(Quantity(72, .countPerMinute), at: start)
///     try await builder.insert(Quantity(75, .countPerMinute), for: DateInterval(start: later, duration: 5))
///     let samples = try await builder.finishSeries(metadata: [:], endDate: nil)
///
/// The quantities go to the vault as they are inserted and wait there, for this connection, until
/// the series is finished (saved, with the app's share grant for the type) or discarded. A builder
/// not finished when its ``HealthStore`` closes is lost. A quantity with the start date of one
/// already inserted replaces it; none may start before ``startDate``. A series holds at most
/// ``maximumCount``.
public actor QuantitySeriesSampleBuilder {
    /// The most quantities a series holds.
    public static let maximumCount = QuantitySample.maximumCount

    let store: HealthStore
    /// The type of the series' quantities.
    public nonisolated let quantityType: QuantityTypeIdentifier
    /// The start of the sample the builder saves.
    public nonisolated let startDate: Date
    /// The device that measured the quantities.
    public nonisolated let device: Device?
    /// The vault's id of this builder, once the first call began it.
    private var builder: UUID?
    private var ended = false

    /// A builder of a `quantityType` series starting at `startDate`, measured by `device`. Nothing
    /// reaches the vault before the first call; that call fails when the app may not share the type.
    public init(healthStore: HealthStore, quantityType: QuantityTypeIdentifier, startDate: Date, device: Device?) {
        self.store = healthStore
        self.quantityType = quantityType
        self.startDate = startDate
        self.device = device
    }

    /// Inserts a quantity at an instant (HealthKit's `insert(_:at:)`: an interval of no duration).
    public func insert(_ quantity: Quantity, at date: Date) async throws {
        try await insert(contentsOf: [QuantitySample.SeriesQuantity(quantity: quantity, at: date)])
    }

    /// Inserts a quantity over an interval (HealthKit's `insert(_:for:)`).
    public func insert(_ quantity: Quantity, for dateInterval: DateInterval) async throws {
        try await insert(contentsOf: [QuantitySample.SeriesQuantity(quantity: quantity, dateInterval: dateInterval)])
    }

    /// Inserts quantities at once, all or none (at most 10,000 a call); returns how many the
    /// series holds.
    @discardableResult
    public func insert(contentsOf quantities: [QuantitySample.SeriesQuantity]) async throws -> Int {
        let builder = try await begun()
        return try await store.call(
            Method.quantitySeriesBuilderInsert,
            QuantitySeriesInsertParams(builder: builder, quantities: quantities),
            as: HeartbeatSeriesCountResult.self
        )
        .count
    }

    /// Saves the series with `metadata`, ending at `endDate` (nil: the end of its latest quantity),
    /// and returns the saved samples as a query would (HealthKit's `finishSeries(metadata:endDate:)`).
    /// The builder is done afterwards, whatever the outcome.
    public func finishSeries(metadata: Metadata?, endDate: Date? = nil) async throws -> [QuantitySample] {
        let builder = try await begun()
        ended = true
        return try await store.call(
            Method.quantitySeriesBuilderFinish,
            QuantitySeriesFinishParams(builder: builder, metadata: metadata, endDate: endDate),
            as: QuantitySeriesFinishResult.self
        )
        .samples
    }

    /// Drops the quantities inserted so far; nothing is saved.
    public func discard() async {
        ended = true
        guard let builder else { return }
        _ = try? await store.call(
            Method.quantitySeriesBuilderDiscard,
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
            Method.quantitySeriesBuilderBegin,
            QuantitySeriesBeginParams(quantityType: quantityType, startDate: startDate, device: device),
            as: HeartbeatSeriesBuilderResult.self
        )
        builder = result.builder
        return result.builder
    }
}
