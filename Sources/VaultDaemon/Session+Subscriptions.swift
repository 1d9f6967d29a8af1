import Foundation
import HealthModel
import Synchronization
import VaultEngine
import VaultProtocol

/// One observer subscription of a connection: the engine's observation and the task that turns
/// its updates into `observer.update` notifications at the subscription's frequency.
struct Subscription: Sendable {
    let observation: Observation
    let delivery: Task<Void, Never>
}

extension Session {
    /// The most subscriptions one connection may hold.
    static let maximumSubscriptions = 64

    /// Starts an observation; its updates are pushed as `observer.update` notifications, at most
    /// one per `frequency` interval (changes in between are merged into the next one).
    func subscribe(_ types: Set<SampleType>, frequency: UpdateFrequency, requestID: String) async throws -> UUID {
        guard let caller else { throw RPCError(code: RPCError.notAuthenticated, message: "authenticate first") }
        guard state.withLock({ $0.subscriptions.count + $0.activityQueries.count }) < Self.maximumSubscriptions else {
            throw RPCError.from(
                HealthError(
                    .dataSizeExceeded,
                    "a connection holds at most \(Self.maximumSubscriptions) subscriptions; stop one first",
                    field: "types"
                )
            )
        }
        let engine = try daemon.engine()
        let observation = try await engine.observe(types, as: caller, requestID: requestID)
        // Types with background delivery go at its frequency; with several, the shortest applies.
        let background = (try? await engine.backgroundDeliveries(of: types, as: caller)) ?? [:]
        let interval = types.map { background[$0]?.frequency.interval ?? frequency.interval }.min() ?? 0
        let pending = Set(background.values.filter(\.isPending).map(\.type))
        let delivery = Task { [self] in
            await deliver(observation, every: interval)
        }
        let ended = state.withLock { state in
            if !state.ended {
                state.subscriptions[observation.id] = Subscription(observation: observation, delivery: delivery)
                // What changed while the app was away is told right after this answer.
                if !pending.isEmpty { state.afterAnswer.append((observation.id, pending)) }
            }
            return state.ended
        }
        if ended {
            // The connection closed while this request ran (it timed out, say): stop it again.
            try? await engine.stopObserving(observation, as: caller, requestID: requestID)
        }
        return observation.id
    }

    /// Starts a running activity summary query: its first answer with its subscription; its
    /// changes follow as `activitySummaries.update` notifications until `observer.stop`.
    func observeActivitySummaries(
        _ query: ActivitySummaryQueryDescriptor,
        requestID: String
    ) async throws -> ActivitySummariesResult {
        guard let caller else { throw RPCError(code: RPCError.notAuthenticated, message: "authenticate first") }
        // Stopped with observer.stop, an app's method: the owner asks again instead.
        guard case .app = caller else {
            throw RPCError.from(
                HealthError.invalidArgument(
                    "a running activity summary query is an app's; the owner asks again",
                    field: "updates"
                )
            )
        }
        guard state.withLock({ $0.subscriptions.count + $0.activityQueries.count }) < Self.maximumSubscriptions else {
            throw RPCError.from(
                HealthError(
                    .dataSizeExceeded,
                    "a connection holds at most \(Self.maximumSubscriptions) subscriptions; stop one first",
                    field: "updates"
                )
            )
        }
        let engine = try daemon.engine()
        let observation = try await engine.observeActivitySummaries(matching: query, as: caller, requestID: requestID)
        // Each update is taken when the last one is written: a client that reads slowly gets
        // fewer, merged updates, and misses no change.
        let forward = Task { [self] in
            do {
                for try await update in observation.updates {
                    await send(
                        notification: Method.activitySummariesUpdate,
                        ActivitySummariesUpdateParams(
                            subscription: observation.id,
                            summaries: update.summaries,
                            removedDays: update.removedDays
                        )
                    )
                }
            } catch {
                // The query stopped: its last update says why, and the subscription is over.
                _ = state.withLock { $0.activityQueries.removeValue(forKey: observation.id) }
                await send(
                    notification: Method.activitySummariesUpdate,
                    ActivitySummariesUpdateParams(
                        subscription: observation.id,
                        summaries: [],
                        removedDays: [],
                        error: (error as? HealthError)
                            ?? HealthError(.unknownError, "the activity summaries could not be computed")
                    )
                )
            }
        }
        let ended = state.withLock { state in
            if !state.ended { state.activityQueries[observation.id] = forward }
            return state.ended
        }
        if ended {
            // The connection closed while this request ran: stop it again.
            engine.stopObservingActivitySummaries(observation.id, as: caller)
        }
        return ActivitySummariesResult(summaries: observation.summaries, subscription: observation.id)
    }

    func unsubscribe(_ id: UUID, requestID: String) async throws {
        if let caller, let forward = state.withLock({ $0.activityQueries.removeValue(forKey: id) }) {
            try daemon.engine().stopObservingActivitySummaries(id, as: caller)
            await forward.value
            return
        }
        guard let caller, let subscription = state.withLock({ $0.subscriptions[id] }) else {
            throw RPCError.from(
                HealthError.invalidArgument("no such subscription on this connection", field: "subscription")
            )
        }
        try await daemon.engine().stopObserving(subscription.observation, as: caller, requestID: requestID)
        state.withLock { _ = $0.subscriptions.removeValue(forKey: id) }
        await subscription.delivery.value
    }

    /// Ends every subscription of the connection (it closed), each recorded as an unsubscribe.
    func endSubscriptions() async {
        let (subscriptions, activityQueries) = state.withLock { state in
            defer {
                state.subscriptions = [:]
                state.activityQueries = [:]
            }
            return (Array(state.subscriptions.values), state.activityQueries)
        }
        guard let caller else { return }
        for (id, forward) in activityQueries {
            try? daemon.engine().stopObservingActivitySummaries(id, as: caller)
            forward.cancel()
        }
        for subscription in subscriptions {
            if let engine = try? daemon.engine() {
                try? await engine.stopObserving(subscription.observation, as: caller, requestID: requestID(nil))
            }
            subscription.delivery.cancel()
        }
    }

    /// Sends each update, or, within `interval` of the last one sent, merges it into one sent
    /// when the interval has passed.
    private func deliver(_ observation: Observation, every interval: TimeInterval) async {
        let pending = PendingTypes()
        var lastSent: ContinuousClock.Instant?
        var flush: Task<Void, Never>?
        for await update in observation.updates {
            let now = ContinuousClock.now
            if interval == 0 || lastSent.map({ now - $0 >= .seconds(interval) }) ?? true {
                lastSent = now
                await notify(observation.id, update.types)
                continue
            }
            let first = pending.types.withLock { types in
                defer { types.formUnion(update.types) }
                return types.isEmpty
            }
            if first, let sent = lastSent {
                flush = Task { [self] in
                    do {
                        try await Task.sleep(until: sent + .seconds(interval))
                    } catch {
                        return  // stopped: nothing more is sent
                    }
                    let types = pending.types.withLock { types in
                        defer { types = [] }
                        return types
                    }
                    if !types.isEmpty { await notify(observation.id, types) }
                }
                lastSent = sent + .seconds(interval)
            }
        }
        flush?.cancel()
        await flush?.value
    }

    /// Sends one `observer.update`. When some of its types have background delivery, it carries
    /// a delivery token standing for their change counts at this moment; acknowledging it marks
    /// them handled.
    private func notify(_ subscription: UUID, _ types: Set<SampleType>) async {
        var delivery: String?
        if let caller, let engine = try? daemon.engine(),
            let background = try? await engine.backgroundDeliveries(of: types, as: caller), !background.isEmpty
        {
            let token = UUID().uuidString
            state.withLock { $0.deliveries.insert(token, counts: background.mapValues(\.changes)) }
            delivery = token
        }
        await send(
            notification: Method.observerUpdate,
            ObserverUpdateParams(subscription: subscription, types: types.sortedByIdentifier(), delivery: delivery)
        )
    }

    /// Sends what subscriptions started by the last request had pending.
    func sendAfterAnswer() async {
        let queued = state.withLock { state in
            defer { state.afterAnswer = [] }
            return state.afterAnswer
        }
        for (subscription, types) in queued where state.withLock({ $0.subscriptions[subscription] != nil }) {
            await notify(subscription, types)
        }
    }

    /// Marks a delivery sent on this connection as handled: its changes are no longer pending.
    func acknowledge(_ token: String) async throws {
        guard let caller, let counts = state.withLock({ $0.deliveries.counts(of: token) }) else {
            throw RPCError.from(
                HealthError.invalidArgument("no such delivery on this connection", field: "delivery")
            )
        }
        try await daemon.engine().acknowledgeBackgroundDelivery(counts, as: caller)
        state.withLock { $0.deliveries.remove(token) }
    }
}

/// The background deliveries a connection has sent and not yet had acknowledged: each token
/// with the change counts it stands for. It keeps the latest ``capacity``; acknowledging a later
/// one covers what an older one stood for, since counts only grow.
struct DeliveryTokens {
    static let capacity = 1024
    private var counts: [String: [SampleType: Int64]] = [:]
    private var order: [String] = []

    mutating func insert(_ token: String, counts: [SampleType: Int64]) {
        self.counts[token] = counts
        order.append(token)
        if order.count > Self.capacity {
            self.counts.removeValue(forKey: order.removeFirst())
        }
    }

    func counts(of token: String) -> [SampleType: Int64]? { counts[token] }

    mutating func remove(_ token: String) {
        guard counts.removeValue(forKey: token) != nil else { return }
        order.removeAll { $0 == token }
    }
}

/// Changes waiting for a subscription's next notification.
final class PendingTypes: Sendable {
    let types = Mutex<Set<SampleType>>([])
}
