public import Foundation
import Glibc
public import HealthModel
import NIOCore
import NIOFoundationCompat
import NIOPosix
import Synchronization
public import VaultCrypto
public import VaultProtocol

/// Who a connection authenticates as.
public enum ClientIdentity: Sendable {
    /// An enrolled app: its id and the private key the owner enrolled the public half of.
    case app(id: String, key: Ed25519.SigningKey)
    /// The vault's owner, with the owner key (``VaultStore``'s `Vault.ownerKey(at:passphrase:)`).
    case owner(key: Ed25519.SigningKey)
    /// The vault's owner, with a session token from `session.open` (32 bytes; sent as hex).
    case ownerSession(token: SecureBytes)
    /// Nobody: the connection reads the hello and goes no further.
    case anonymous
}

/// Why a call failed on the client's side of the socket.
public struct ConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure, where a caller may act on it.
    public enum Reason: Hashable, Sendable {
        /// No daemon listens on the socket (there is none, or a killed daemon left its file).
        case notListening
        /// This user may not connect to the socket.
        case permissionDenied
        case other
    }

    public var description: String
    public var reason: Reason

    public init(_ description: String, reason: Reason = .other) {
        self.description = description
        self.reason = reason
    }
}

/// A connection to healthvaultd (docs/PROTOCOL.md): the handshake, then calls answered in
/// order, and notifications routed by subscription.
public final class VaultConnection: Sendable {
    public let hello: Hello
    private let channel: any Channel
    private let writer: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let router: Router
    private let lifetime: Task<Void, Never>

    struct State {
        var nextID: Int64 = 1
        var pending: [Int64: CheckedContinuation<Data, any Error>] = [:]
        var subscriptions: [UUID: AsyncStream<ObserverUpdateParams>.Continuation] = [:]
        /// Updates that arrived before their subscription's stream was asked for (the daemon may
        /// send one before the `observer.start` answer is read): a few per subscription, kept
        /// for when the stream is.
        var early: [UUID: [ObserverUpdateParams]] = [:]
        /// The `workoutSession.event` streams, by session, and the events that came before theirs.
        var workoutStreams: [UUID: AsyncStream<WorkoutSessionEventParams>.Continuation] = [:]
        var earlyWorkoutEvents: [UUID: [WorkoutSessionEventParams]] = [:]
        /// The `activitySummaries.update` streams, by subscription, and the updates that came
        /// before theirs (the first may come before the answer that names the subscription).
        var activityStreams: [UUID: AsyncStream<ActivitySummariesUpdateParams>.Continuation] = [:]
        var earlyActivityUpdates: [UUID: [ActivitySummariesUpdateParams]] = [:]
        /// The `import.progress` notifications of the import under way, when someone listens.
        /// The listener of each kind of progress notification (`import.progress`,
        /// `export.progress`, `backup.progress`): it decodes and yields, or finishes.
        var progressListeners: [String: ProgressListener] = [:]
        var closed: ConnectionError?
    }

    /// An error from below as a person reads it: a system error's text without the call's name.
    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }

    /// The default socket of a vault directory.
    public static func socketPath(vaultDirectory: String) -> String {
        URL(fileURLWithPath: vaultDirectory).appendingPathComponent(WireProtocol.socketFileName).path
    }

    /// Connects to the socket at `socketPath` and authenticates as `identity`.
    public static func connect(
        socketPath: String,
        identity: ClientIdentity,
        maximumFrameBytes: Int = WireProtocol.defaultMaximumFrameBytes
    ) async throws -> VaultConnection {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        // A full listen queue (EAGAIN: the daemon is busy accepting, or flooded) is waited out
        // for a few seconds, as docs/PROTOCOL.md asks of clients.
        let deadline = ContinuousClock.now + .seconds(5)
        var pause = Duration.milliseconds(1)
        while true {
            do {
                channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connect(unixDomainSocketPath: socketPath) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(
                                FrameHandler(maximumFrameBytes: maximumFrameBytes)
                            )
                            return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                        }
                    }
                break
            } catch let error as IOError where error.errnoCode == EAGAIN {
                guard ContinuousClock.now < deadline else {
                    throw ConnectionError(
                        "healthvaultd at \(socketPath) accepted no connection for 5 s (its queue stayed full); try again"
                    )
                }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(50))
            } catch let error as IOError {
                // Said as what happened, without the system call's name.
                switch error.errnoCode {
                case ECONNREFUSED, ENOENT:
                    throw ConnectionError(
                        "healthvaultd is not running: no daemon listens on \(socketPath)",
                        reason: .notListening
                    )
                case EACCES, EPERM:
                    throw ConnectionError(
                        "permission denied: you (uid \(getuid())) may not connect to \(socketPath)",
                        reason: .permissionDenied
                    )
                default:
                    throw ConnectionError(
                        "cannot connect to healthvaultd at \(socketPath): \(String(cString: strerror(error.errnoCode)))"
                    )
                }
            } catch {
                throw ConnectionError("cannot connect to healthvaultd at \(socketPath): \(error)")
            }
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Startup.self)
        let router = Router()
        let lifetime = Task {
            do {
                try await channel.executeThenClose { inbound, outbound in
                    var iterator = inbound.makeAsyncIterator()
                    guard let first = try await iterator.next() else {
                        continuation.yield(.failed(ConnectionError("the daemon closed the connection at once")))
                        return
                    }
                    continuation.yield(.ready(first: Data(buffer: first), outbound: outbound))
                    while let frame = try await iterator.next() {
                        router.route(Data(buffer: frame))
                    }
                }
            } catch {
                let failure = ConnectionError("the connection to healthvaultd failed: \(Self.describe(error))")
                continuation.yield(.failed(failure))
                router.close(failure)
                return
            }
            continuation.yield(.failed(ConnectionError("the daemon closed the connection")))
            router.close(ConnectionError("the daemon closed the connection"))
        }
        var startup = stream.makeAsyncIterator()
        guard case .ready(let first, let outbound)? = await startup.next() else {
            lifetime.cancel()
            channel.channel.close(promise: nil)
            throw ConnectionError("the daemon closed the connection before its hello")
        }
        let hello: Hello
        do {
            let head = try HealthJSON.decode(RPCHead.self, from: first)
            if let error = head.error { throw error }
            guard head.method == Method.hello else {
                throw ConnectionError("the daemon's first message is not a hello")
            }
            hello = try HealthJSON.decode(RPCParams<Hello>.self, from: first).params
        } catch {
            channel.channel.close(promise: nil)
            throw error
        }
        let connection = VaultConnection(
            hello: hello,
            channel: channel.channel,
            writer: outbound,
            router: router,
            lifetime: lifetime
        )
        guard hello.protocol == WireProtocol.name, hello.version == WireProtocol.version else {
            connection.close()
            throw ConnectionError(
                "the daemon speaks \(hello.protocol) version \(hello.version); this client speaks version \(WireProtocol.version)"
            )
        }
        do {
            try await connection.authenticate(identity)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    enum Startup: Sendable {
        case ready(first: Data, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>)
        case failed(ConnectionError)
    }

    private init(
        hello: Hello,
        channel: any Channel,
        writer: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        router: Router,
        lifetime: Task<Void, Never>
    ) {
        self.hello = hello
        self.channel = channel
        self.writer = writer
        self.router = router
        self.lifetime = lifetime
    }

    private func authenticate(_ identity: ClientIdentity) async throws {
        guard let nonce = Data(base64Encoded: hello.nonce) else {
            throw ConnectionError("the daemon's hello has a malformed nonce")
        }
        let params: AuthenticateParams
        switch identity {
        case .anonymous:
            return
        case .app(let id, let key):
            let message = WireProtocol.signedMessage(nonce: Array(nonce), identity: id, connectionID: hello.connection)
            params = AuthenticateParams(app: id, signature: Data(key.signature(for: message)).base64EncodedString())
        case .owner(let key):
            let message = WireProtocol.signedMessage(nonce: Array(nonce), identity: "", connectionID: hello.connection)
            params = AuthenticateParams(
                app: nil,
                owner: true,
                signature: Data(key.signature(for: message)).base64EncodedString()
            )
        case .ownerSession(let token):
            let hex = token.hexEncoded()
            defer { hex.wipe() }
            params = AuthenticateParams(
                app: nil,
                owner: true,
                signature: nil,
                session: hex.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            )
        }
        _ = try await call(Method.authenticate, params, as: AuthenticateResult.self)
    }

    // MARK: Calls

    /// Calls `method` with `params` and decodes its result as `Result`. An error answer throws
    /// its ``RPCError``.
    public func call<Params: Encodable & Sendable, Result: Decodable>(
        _ method: String,
        _ params: Params,
        as type: Result.Type
    ) async throws -> Result {
        let data = try await rawCall(method, params)
        // A large result (samples, statistics) reads itself by hand: the same value, sooner. What
        // the hand-written reader is not sure of, and every error, is the Codable decoder's.
        if let readable = Result.self as? any JSONReadable.Type,
            let result = Self.readFast(readable, from: data) as? Result
        {
            return result
        }
        return try HealthJSON.decode(RPCResult<Result>.self, from: data).result
    }

    private static func readFast<Readable: JSONReadable>(_ type: Readable.Type, from data: Data) -> Readable? {
        RPCResult<Readable>.readFast(from: data)
    }

    /// Calls `method` and returns the whole answer frame's bytes; an error answer throws its
    /// ``RPCError``.
    public func rawCall<Params: Encodable & Sendable>(_ method: String, _ params: Params) async throws -> Data {
        let id = router.state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        // Params that write themselves (a save's samples) skip the generic encoder: the same bytes.
        let frame = ByteBuffer(
            data: try (params as? any JSONWritable).map {
                try RPCWrittenRequest(id: .number(id), method: method, params: $0).json(capacity: 1 << 12)
            } ?? HealthJSON.encode(RPCRequest(id: .number(id), method: method, params: params))
        )
        let answer = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
            let closed = router.state.withLock { state -> ConnectionError? in
                if let closed = state.closed { return closed }
                state.pending[id] = continuation
                return nil
            }
            if let closed {
                continuation.resume(throwing: closed)
                return
            }
            Task {
                do {
                    try await writer.write(frame)
                } catch {
                    let waiting = router.state.withLock { $0.pending.removeValue(forKey: id) }
                    waiting?.resume(
                        throwing: ConnectionError("cannot send the request to healthvaultd: \(Self.describe(error))")
                    )
                }
            }
        }
        // The router read the answer's head (and failed the call with its error, if any).
        return answer
    }

    /// Sends bytes as one frame, as they are (for tests of the daemon's handling of bad input).
    public func sendRawFrame(_ payload: [UInt8]) async throws {
        try await writer.write(ByteBuffer(bytes: payload))
    }

    // MARK: Notifications

    /// The `observer.update` notifications of one subscription; the stream ends when the
    /// connection closes or ``endUpdates(of:)`` is called.
    public func updates(of subscription: UUID) -> AsyncStream<ObserverUpdateParams> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ObserverUpdateParams.self,
            bufferingPolicy: .bufferingNewest(1024)
        )
        let closed = router.state.withLock { state -> Bool in
            guard state.closed == nil else { return true }
            state.subscriptions[subscription] = continuation
            for update in state.early.removeValue(forKey: subscription) ?? [] { continuation.yield(update) }
            return false
        }
        if closed { continuation.finish() }
        return stream
    }

    public func endUpdates(of subscription: UUID) {
        router.state.withLock { state in
            state.early.removeValue(forKey: subscription)
            return state.subscriptions.removeValue(forKey: subscription)
        }?.finish()
    }

    /// The `workoutSession.event` notifications of one session; the stream ends when the
    /// connection closes or ``endWorkoutEvents(of:)`` is called.
    public func workoutEvents(of session: UUID) -> AsyncStream<WorkoutSessionEventParams> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: WorkoutSessionEventParams.self,
            bufferingPolicy: .bufferingNewest(4096)
        )
        let closed = router.state.withLock { state -> Bool in
            guard state.closed == nil else { return true }
            state.workoutStreams[session]?.finish()
            state.workoutStreams[session] = continuation
            for event in state.earlyWorkoutEvents.removeValue(forKey: session) ?? [] { continuation.yield(event) }
            return false
        }
        if closed { continuation.finish() }
        return stream
    }

    public func endWorkoutEvents(of session: UUID) {
        router.state.withLock { state in
            state.earlyWorkoutEvents.removeValue(forKey: session)
            return state.workoutStreams.removeValue(forKey: session)
        }?.finish()
    }

    /// The `activitySummaries.update` notifications of one running activity summary query; the
    /// stream ends when the connection closes or ``endActivitySummaryUpdates(of:)`` is called.
    public func activitySummaryUpdates(of subscription: UUID) -> AsyncStream<ActivitySummariesUpdateParams> {
        // Each update is a difference from the one before: none may be dropped. The daemon merges
        // them while this connection is slow to read, so few wait here.
        let (stream, continuation) = AsyncStream.makeStream(
            of: ActivitySummariesUpdateParams.self,
            bufferingPolicy: .unbounded
        )
        let closed = router.state.withLock { state -> Bool in
            guard state.closed == nil else { return true }
            state.activityStreams[subscription] = continuation
            for update in state.earlyActivityUpdates.removeValue(forKey: subscription) ?? [] {
                continuation.yield(update)
            }
            return false
        }
        if closed { continuation.finish() }
        return stream
    }

    public func endActivitySummaryUpdates(of subscription: UUID) {
        router.state.withLock { state in
            state.earlyActivityUpdates.removeValue(forKey: subscription)
            return state.activityStreams.removeValue(forKey: subscription)
        }?.finish()
    }

    /// The `import.progress` notifications of an owner's import (the newest only, when they come
    /// faster than they are read); one listener at a time.
    public func importProgress() -> AsyncStream<ImportProgressParams> {
        progress(Method.importProgress, as: ImportProgressParams.self)
    }

    /// The `export.progress` notifications of an owner's export, as ``importProgress()``.
    public func exportProgress() -> AsyncStream<ExportProgressParams> {
        progress(Method.exportProgress, as: ExportProgressParams.self)
    }

    /// The `backup.progress` notifications of an owner's backup, as ``importProgress()``.
    public func backupProgress() -> AsyncStream<BackupProgressParams> {
        progress(Method.backupProgress, as: BackupProgressParams.self)
    }

    /// The progress notifications `method` carries, decoded as `Params` (the newest only); a new
    /// listener of the same method ends the one before.
    func progress<Params: Decodable & Sendable>(_ method: String, as type: Params.Type) -> AsyncStream<Params> {
        let (stream, continuation) = AsyncStream.makeStream(of: Params.self, bufferingPolicy: .bufferingNewest(1))
        let listener = ProgressListener(
            yield: { data in
                if let params = try? HealthJSON.decode(RPCParams<Params>.self, from: data).params {
                    continuation.yield(params)
                }
            },
            finish: { continuation.finish() }
        )
        let closed = router.state.withLock { state -> Bool in
            guard state.closed == nil else { return true }
            state.progressListeners[method]?.finish()
            state.progressListeners[method] = listener
            return false
        }
        if closed { continuation.finish() }
        return stream
    }

    // MARK: Routing

}

/// Where answers and notifications go: the calls waiting by id, the subscriptions' streams.
final class Router: Sendable {
    let state = Mutex(VaultConnection.State())

    func route(_ data: Data) {
        // A success answer, nearly every message, is known by its first bytes.
        if let id = RPCHead.successID(data) {
            let continuation = state.withLock { $0.pending.removeValue(forKey: id) }
            continuation?.resume(returning: data)
            return
        }
        guard let head = try? RPCHead.scan(data) else { return }
        if let method = head.method, head.id == nil, method == Method.workoutSessionEvent {
            guard let event = try? HealthJSON.decode(RPCParams<WorkoutSessionEventParams>.self, from: data).params
            else { return }
            state.withLock { state in
                if let continuation = state.workoutStreams[event.session] {
                    continuation.yield(event)
                } else if state.earlyWorkoutEvents[event.session, default: []].count < 64,
                    state.earlyWorkoutEvents.count < 16
                {
                    state.earlyWorkoutEvents[event.session, default: []].append(event)
                }
            }
            return
        }
        if let method = head.method, head.id == nil,
            method == Method.importProgress || method == Method.exportProgress || method == Method.backupProgress
        {
            state.withLock { $0.progressListeners[method] }?.yield(data)
            return
        }
        if let method = head.method, head.id == nil, method == Method.activitySummariesUpdate {
            guard let update = try? HealthJSON.decode(RPCParams<ActivitySummariesUpdateParams>.self, from: data).params
            else { return }
            state.withLock { state in
                if let continuation = state.activityStreams[update.subscription] {
                    continuation.yield(update)
                } else if state.earlyActivityUpdates[update.subscription, default: []].count < 1024,
                    state.earlyActivityUpdates.count < 256
                {
                    state.earlyActivityUpdates[update.subscription, default: []].append(update)
                }
            }
            return
        }
        if let method = head.method, head.id == nil {
            guard method == Method.observerUpdate,
                let update = try? HealthJSON.decode(RPCParams<ObserverUpdateParams>.self, from: data).params
            else { return }
            state.withLock { state in
                if let continuation = state.subscriptions[update.subscription] {
                    continuation.yield(update)
                } else if state.early[update.subscription, default: []].count < 16, state.early.count < 256 {
                    state.early[update.subscription, default: []].append(update)
                }
            }
            return
        }
        guard case .number(let id)? = head.id else {
            // An error about the connection itself (id null): fail every call waiting.
            if let error = head.error {
                let waiting = state.withLock { state in
                    defer { state.pending = [:] }
                    return Array(state.pending.values)
                }
                for continuation in waiting { continuation.resume(throwing: error) }
            }
            return
        }
        let continuation = state.withLock { $0.pending.removeValue(forKey: id) }
        // Read once, here: the call returns the answer as it is, or throws its error.
        if let error = head.error {
            continuation?.resume(throwing: error)
        } else {
            continuation?.resume(returning: data)
        }
    }

    func close(_ reason: ConnectionError) {
        let (pending, subscriptions, workouts, activity) = state.withLock { state in
            if state.closed == nil { state.closed = reason }
            defer {
                state.pending = [:]
                state.subscriptions = [:]
                state.workoutStreams = [:]
                state.activityStreams = [:]
                for listener in state.progressListeners.values { listener.finish() }
                state.progressListeners = [:]
            }
            return (
                Array(state.pending.values), Array(state.subscriptions.values), Array(state.workoutStreams.values),
                Array(state.activityStreams.values)
            )
        }
        for continuation in pending { continuation.resume(throwing: reason) }
        for continuation in subscriptions { continuation.finish() }
        for continuation in workouts { continuation.finish() }
        for continuation in activity { continuation.finish() }
    }

}

extension VaultConnection {
    /// Whether the connection is still open.
    public var isOpen: Bool { router.state.withLock { $0.closed == nil } }

    /// Closes the connection; calls waiting fail, update streams end.
    public func close() {
        router.close(ConnectionError("the connection was closed"))
        channel.close(promise: nil)
    }

    /// Closes and waits until the connection is wholly down.
    public func closeAndWait() async {
        close()
        await lifetime.value
    }
}

/// One listener of a kind of progress notification: decodes a notification's frame and yields
/// it, or ends the stream.
struct ProgressListener: Sendable {
    let yield: @Sendable (Data) -> Void
    let finish: @Sendable () -> Void
}
