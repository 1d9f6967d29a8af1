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
        guard state.withLock({ $0.subscriptions.count }) < Self.maximumSubscriptions else {
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
        let delivery = Task { [self] in
            await deliver(observation, every: frequency.interval)
        }
        let ended = state.withLock { state in
            if !state.ended {
                state.subscriptions[observation.id] = Subscription(observation: observation, delivery: delivery)
            }
            return state.ended
        }
        if ended {
            // The connection closed while this request ran (it timed out, say): stop it again.
            try? await engine.stopObserving(observation, as: caller, requestID: requestID)
        }
        return observation.id
    }

    func unsubscribe(_ id: UUID, requestID: String) async throws {
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
        let subscriptions = state.withLock { state in
            defer { state.subscriptions = [:] }
            return Array(state.subscriptions.values)
        }
        guard let caller else { return }
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

    private func notify(_ subscription: UUID, _ types: Set<SampleType>) async {
        let sorted = types.sortedByIdentifier()
        await send(notification: Method.observerUpdate, ObserverUpdateParams(subscription: subscription, types: sorted))
    }
}

/// Changes waiting for a subscription's next notification.
final class PendingTypes: Sendable {
    let types = Mutex<Set<SampleType>>([])
}
