public import Foundation
public import HealthModel
import VaultClient
public import VaultProtocol

/// A running observer query: ``updates`` yields one ``Update`` per notification, until
/// ``stop()``, the connection closes, or the owner removes the app. After a revocation it goes
/// quiet for other apps' samples, exactly as if they had stopped writing.
public final class ObserverQuery: Sendable {
    public let subscription: UUID
    public let types: Set<SampleType>
    let store: HealthStore
    public let updates: Updates

    init(store: HealthStore, subscription: UUID, types: Set<SampleType>) {
        self.store = store
        self.subscription = subscription
        self.types = types
        self.updates = Updates(stream: store.connection.updates(of: subscription))
    }

    /// Stops the query (HealthKit's `stop(_:)`); ``updates`` ends.
    public func stop() async throws {
        _ = try await store.call(Method.observerStop, SubscriptionParams(subscription: subscription), as: Empty.self)
        store.connection.endUpdates(of: subscription)
    }

    /// Tells the vault this update has been handled (HealthKit's observer completion handler):
    /// the background-delivery changes it stood for are no longer pending. An update without
    /// background delivery needs none, and this does nothing for it. An update not acknowledged
    /// is delivered again when the app next observes its types, after a reconnection or a
    /// restart of the daemon.
    public func acknowledge(_ update: Update) async throws {
        guard let delivery = update.delivery else { return }
        _ = try await store.call(Method.observerAcknowledge, AcknowledgeParams(delivery: delivery), as: Empty.self)
    }

    /// One notification: samples of these types changed. It carries no data; query to see what.
    public struct Update: Hashable, Sendable {
        public var types: Set<SampleType>
        /// The delivery to acknowledge, when some of the types have background delivery.
        public var delivery: String?
    }

    /// The notifications, as an `AsyncSequence`.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = Update
        let stream: AsyncStream<ObserverUpdateParams>

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<ObserverUpdateParams>.AsyncIterator

            public mutating func next() async -> Update? {
                guard let update = await base.next() else { return nil }
                return Update(types: Set(update.types), delivery: update.delivery)
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator())
        }
    }
}
