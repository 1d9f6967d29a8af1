import Foundation
import HealthModel

/// The quantity series being built (HealthKit's `HKQuantitySeriesSampleBuilder`), each held for
/// the app and the connection that began it until it is finished or discarded; in memory only, as
/// the heartbeat series builders are: a series not finished is lost with its connection.
final class QuantitySeriesBuilders: @unchecked Sendable {
    struct Builder {
        let appID: String
        /// The connection that began it (nil for a caller without one): no other may use it.
        let connection: UUID?
        let type: QuantityTypeIdentifier
        let start: Date
        let device: Device?
        /// The unit of the first quantity inserted: the series' values are kept in it.
        var unit: HealthUnit?
        /// The quantities by start date (seconds since the reference date): a quantity inserted
        /// with the start of one already there replaces it, as in HealthKit.
        var quantities: [Double: QuantitySample.SeriesQuantity] = [:]
    }

    /// The most builders an app holds open at once, over all its connections.
    static let maximumPerApp = 8
    /// The most quantities one insert carries.
    static let maximumPerInsert = 10_000

    // Guarded by `lock`.
    private var builders: [UUID: Builder] = [:]
    private let lock = NSLock()

    /// Keeps a new builder and returns its id, or `dataSizeExceeded` when its app already holds
    /// ``maximumPerApp``.
    func begin(_ builder: Builder) throws(HealthError) -> UUID {
        let id = UUID()
        let open = lock.withLock { () -> Bool in
            guard builders.values.count(where: { $0.appID == builder.appID }) < Self.maximumPerApp else {
                return false
            }
            builders[id] = builder
            return true
        }
        guard open else {
            throw HealthError(
                .dataSizeExceeded,
                "an app has at most \(Self.maximumPerApp) quantity series builders open; finish or discard one",
                field: "builder"
            )
        }
        return id
    }

    /// Changes builder `id` of this app and connection with `body`, whose error leaves it as it
    /// was; `invalidArgument` (field `builder`) when there is no such builder.
    func update<T>(
        _ id: UUID,
        appID: String,
        connection: UUID?,
        _ body: (inout Builder) throws(HealthError) -> T
    ) throws(HealthError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard var builder = builders[id], builder.appID == appID, builder.connection == connection else {
            throw Self.unknown
        }
        let result = try body(&builder)
        builders[id] = builder
        return result
    }

    /// Removes and returns builder `id` of this app and connection; `invalidArgument` when there
    /// is none.
    func take(_ id: UUID, appID: String, connection: UUID?) throws(HealthError) -> Builder {
        lock.lock()
        defer { lock.unlock() }
        guard let builder = builders[id], builder.appID == appID, builder.connection == connection else {
            throw Self.unknown
        }
        builders[id] = nil
        return builder
    }

    /// Drops every builder of a connection (it closed).
    func discardAll(connection: UUID) {
        lock.withLock { builders = builders.filter { $0.value.connection != connection } }
    }

    /// Drops every builder of an app (it was removed).
    func discardAll(appID: String) {
        lock.withLock { builders = builders.filter { $0.value.appID != appID } }
    }

    /// The same answer for an id never made, one finished or discarded, and another app's or
    /// connection's.
    static let unknown = HealthError.invalidArgument(
        "no quantity series builder with this id is open on this connection (finished, discarded, or never begun)",
        field: "builder"
    )
}
