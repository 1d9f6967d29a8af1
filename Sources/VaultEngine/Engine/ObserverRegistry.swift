public import Foundation
public import HealthModel

/// One notification of an observation: some samples of these types changed (saved or deleted)
/// among what the observer may see. It carries no data: the app queries to learn what changed,
/// and that query is audited.
public struct ObserverUpdate: Hashable, Sendable {
    public var types: Set<SampleType>

    public init(types: Set<SampleType>) {
        self.types = types
    }
}

/// A live observation (HealthKit's observer query): its updates, in the order the changes
/// committed. It ends when the engine stops it, the app is removed, or the engine shuts down.
public struct Observation: Sendable {
    public let id: UUID
    public let types: Set<SampleType>
    public let updates: AsyncStream<ObserverUpdate>
}

/// The live observations, each with its caller and types.
final class ObserverRegistry: @unchecked Sendable {
    struct Observer {
        let id: UUID
        let caller: Caller
        /// When the observing app was enrolled (nil for the owner): an observation never outlives
        /// the enrolment it began under.
        let enrolledAt: Date?
        let types: Set<SampleType>
        let continuation: AsyncStream<ObserverUpdate>.Continuation
    }

    // Guarded by `lock`.
    private var observers: [UUID: Observer] = [:]
    private let lock = NSLock()

    func add(_ caller: Caller, enrolledAt: Date?, types: Set<SampleType>) -> Observation {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(
            of: ObserverUpdate.self,
            bufferingPolicy: .bufferingNewest(1024)
        )
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        lock.withLock {
            observers[id] = Observer(
                id: id,
                caller: caller,
                enrolledAt: enrolledAt,
                types: types,
                continuation: continuation
            )
        }
        return Observation(id: id, types: types, updates: stream)
    }

    /// Ends one observation (only its own caller's, when `caller` is given); false when no such
    /// observation was live.
    @discardableResult
    func remove(_ id: UUID, of caller: Caller? = nil) -> Bool {
        let observer = lock.withLock { () -> Observer? in
            guard let observer = observers[id], caller == nil || observer.caller == caller else { return nil }
            return observers.removeValue(forKey: id)
        }
        observer?.continuation.finish()
        return observer != nil
    }

    func isLive(_ id: UUID, of caller: Caller) -> Bool {
        lock.withLock { observers[id]?.caller == caller }
    }

    func finish(appID: String) {
        let ended = lock.withLock {
            let ids = observers.filter { $0.value.caller == .app(appID) }.map(\.key)
            return ids.compactMap { observers.removeValue(forKey: $0) }
        }
        for observer in ended { observer.continuation.finish() }
    }

    func finishAll() {
        let ended = lock.withLock {
            defer { observers = [:] }
            return Array(observers.values)
        }
        for observer in ended { observer.continuation.finish() }
    }

    var snapshot: [Observer] { lock.withLock { Array(observers.values) } }
}
