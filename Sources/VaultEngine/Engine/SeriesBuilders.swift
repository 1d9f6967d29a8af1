import Foundation
import HealthModel

/// A builder held for the app and the connection that began it.
protocol HeldBuilder {
    var appID: String { get }
    /// The connection that began it (nil for a caller without one): no other may use it.
    var connection: UUID? { get }
}

/// Series being built (HealthKit's `HKHeartbeatSeriesBuilder`, `HKQuantitySeriesSampleBuilder`),
/// each held for the app and the connection that began it until it is finished or discarded; in
/// memory only, as HealthKit's builders live in the app's process: a series not finished is lost
/// with its connection. One registry per kind of builder.
final class SeriesBuilders<Builder: HeldBuilder>: @unchecked Sendable {
    /// How many builders may be open at once.
    enum Limit {
        /// On one connection of an app (for callers without one: per app).
        case perConnection(Int)
        /// Of an app, over all its connections.
        case perApp(Int)
    }

    /// What the builders build, for messages (`heartbeat series`).
    let kind: String
    let limit: Limit

    // Guarded by `lock`.
    private var builders: [UUID: Builder] = [:]
    private let lock = NSLock()

    init(kind: String, limit: Limit) {
        self.kind = kind
        self.limit = limit
    }

    /// Keeps a new builder and returns its id, or `dataSizeExceeded` (field `builder`) past the
    /// limit.
    func begin(_ builder: Builder) throws(HealthError) -> UUID {
        let id = UUID()
        let open = lock.withLock { () -> Bool in
            let (held, maximum) =
                switch limit {
                case .perConnection(let maximum):
                    (
                        builders.values.count { $0.connection == builder.connection && $0.appID == builder.appID },
                        maximum
                    )
                case .perApp(let maximum): (builders.values.count { $0.appID == builder.appID }, maximum)
                }
            guard held < maximum else { return false }
            builders[id] = builder
            return true
        }
        guard open else {
            let (whose, maximum) =
                switch limit {
                case .perConnection(let maximum): ("a connection", maximum)
                case .perApp(let maximum): ("an app", maximum)
                }
            throw HealthError(
                .dataSizeExceeded,
                "\(whose) has at most \(maximum) \(kind) builders open; finish or discard one",
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
            throw unknown
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
            throw unknown
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
    var unknown: HealthError {
        HealthError.invalidArgument(
            "no \(kind) builder with this id is open on this connection (finished, discarded, or never begun)",
            field: "builder"
        )
    }
}

/// A heartbeat series under way.
struct HeartbeatSeriesBuilder: HeldBuilder {
    let appID: String
    let connection: UUID?
    let start: Date
    let device: Device?
    var metadata: Metadata = [:]
    var heartbeats: [HeartbeatSeriesSample.Heartbeat] = []
}

/// A quantity series under way.
struct QuantitySeriesBuilder: HeldBuilder {
    let appID: String
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
