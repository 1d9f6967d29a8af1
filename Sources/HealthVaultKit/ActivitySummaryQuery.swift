public import Foundation
public import HealthModel
import VaultClient
public import VaultProtocol

/// A running activity summary query (HealthKit's `HKActivitySummaryQuery` with an
/// `updateHandler`): its first answer, then ``updates`` each time the answer changes, until
/// ``stop()`` or the connection closes. When a new answer cannot be computed, the updates end by
/// throwing the vault's error (HealthKit's update handler gets an error), and the query is over.
public final class ActivitySummaryQuery: Sendable {
    public let subscription: UUID
    /// The first answer (HealthKit's results handler): one summary per day with data, oldest first.
    public let summaries: [ActivitySummary]
    let store: HealthStore
    public let updates: Updates

    init(store: HealthStore, subscription: UUID, summaries: [ActivitySummary]) {
        self.store = store
        self.subscription = subscription
        self.summaries = summaries
        self.updates = Updates(stream: store.connection.activitySummaryUpdates(of: subscription))
    }

    /// Stops the query (HealthKit's `stop(_:)`); ``updates`` ends.
    public func stop() async throws {
        _ = try await store.call(Method.observerStop, SubscriptionParams(subscription: subscription), as: Empty.self)
        store.connection.endActivitySummaryUpdates(of: subscription)
    }

    /// One change of the answer (HealthKit's update handler): the new or modified summaries,
    /// and the days whose summary went.
    public struct Update: Hashable, Sendable {
        public var summaries: [ActivitySummary]
        public var removedDays: [String]
    }

    /// The changes, as an `AsyncSequence`.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = Update
        let stream: AsyncStream<ActivitySummariesUpdateParams>

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<ActivitySummariesUpdateParams>.AsyncIterator

            var ended = false

            public mutating func next() async throws -> Update? {
                guard !ended, let update = await base.next() else { return nil }
                if let error = update.error {
                    ended = true
                    throw error
                }
                return Update(summaries: update.summaries, removedDays: update.removedDays)
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator())
        }
    }
}
