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

    /// One notification: samples of these types changed. It carries no data; query to see what.
    public struct Update: Hashable, Sendable {
        public var types: Set<SampleType>
    }

    /// The notifications, as an `AsyncSequence`.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = Update
        let stream: AsyncStream<ObserverUpdateParams>

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<ObserverUpdateParams>.AsyncIterator

            public mutating func next() async -> Update? {
                guard let update = await base.next() else { return nil }
                return Update(types: Set(update.types))
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator())
        }
    }
}
