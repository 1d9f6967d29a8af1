import AuditLog
import Foundation
import HealthModel
import Logging
import NIOCore
import NIOFoundationCompat
import Synchronization
import VaultCrypto
import VaultEngine
import VaultProtocol

/// One connection: admission, the peer's uid, the challenge-response, then requests in order,
/// each answered (within the request timeout) before the next is read, and notifications of the
/// connection's subscriptions in between.
final class Session: Sendable {
    /// Who is on the other end, once authenticated.
    enum Identity: Sendable {
        case app(String)
        case owner
    }

    struct State {
        var identity: Identity?
        var reader: Task<Void, Never>?
        var stopReading = false
        /// A request is being answered: stopping waits for its answer to be written.
        var busy = false
        /// The connection is over: a subscription that starts now is stopped at once.
        var ended = false
        var subscriptions: [UUID: Subscription] = [:]
        /// The running activity summary queries, by subscription: each forwards its updates.
        var activityQueries: [UUID: Task<Void, Never>] = [:]
        /// The workout sessions this connection follows, by session id.
        var workouts: [UUID: FollowedWorkout] = [:]
        /// Updates to send once the answer under way is written (what a new subscription has
        /// pending), so they follow the answer that names the subscription.
        var afterAnswer: [(subscription: UUID, types: Set<SampleType>)] = []
        /// Background deliveries sent and not yet acknowledged, by token, oldest first.
        var deliveries = DeliveryTokens()
        /// Closes an authenticated connection that stays idle (``armIdleTimer()``).
        var idleTimer: Scheduled<Void>?
        /// The peer's uid, read from the socket on accept.
        var peerUID: UInt32?
        /// The owner's session token this connection authenticated with (`session.close` ends
        /// it); nil for the owner key and for apps.
        var ownerToken: SecureBytes?
    }

    /// Drawn from the kernel's random source by libsodium (`getrandom`, no file descriptor), so
    /// it stays random when the process has no descriptor left.
    let id = Session.newConnectionID()
    let daemon: VaultDaemon
    let channel: any Channel
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    let state = Mutex(State())

    init(daemon: VaultDaemon, channel: any Channel, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.daemon = daemon
        self.channel = channel
        self.outbound = outbound
    }

    var identity: Identity? { state.withLock { $0.identity } }

    var isApp: Bool {
        if case .app = identity { return true }
        return false
    }

    var caller: Caller? {
        switch identity {
        case .app(let id): .app(id)
        case .owner: .owner
        case nil: nil
        }
    }

    /// The audit log's request id for a request on this connection: `c` and the connection's
    /// first 8 hex digits, `/`, and the request's id (at most 64 of its letters, digits, `.`, `-`, `_`).
    func requestID(_ rpcID: RPCID?) -> String {
        let connection = "c" + id.uuidString.prefix(8).lowercased()
        guard let rpcID else { return connection }
        let allowed = rpcID.description.unicodeScalars.filter {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
        }
        return connection + "/" + String(String.UnicodeScalarView(allowed.prefix(64)))
    }

    // MARK: Lifecycle

    func run(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) async {
        let peer = try? await PeerCredentials.of(channel)
        guard let peer, daemon.configuration.allowedUIDs.contains(peer.uid) else {
            daemon.logger.notice("refused a connection from uid \(peer.map { String($0.uid) } ?? "unknown")")
            await refuseAuthentication(claimedApp: nil, id: nil)
            return
        }
        do {
            try daemon.admit(self, peer: peer.pid)
        } catch {
            daemon.logger.notice("refused a connection: \(error.message)", metadata: ["pid": "\(peer.pid)"])
            await send(RPCError(code: RPCError.tooManyConnections, message: error.message), id: nil)
            return
        }
        defer { daemon.remove(self) }
        state.withLock { $0.peerUID = peer.uid }
        guard !daemon.isDraining else {
            await send(RPCError(code: RPCError.shuttingDown, message: "the daemon is shutting down"), id: nil)
            return
        }
        let nonce = randomBytes(count: WireProtocol.nonceCount)
        let timeout = daemon.configuration.authenticationTimeout
        await send(
            notification: Method.hello,
            Hello(
                connection: id,
                nonce: nonce,
                vault: daemon.vaultID,
                locked: daemon.isLocked,
                maxFrameBytes: daemon.configuration.maximumFrameBytes,
                authenticationTimeout: timeout.timeInterval
            )
        )
        let deadline = ContinuousClock.now + timeout
        let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { [self] in
            guard identity == nil else { return }
            Task {
                await refuseAuthentication(claimedApp: nil, id: nil)
                close()
            }
        }
        let reader = Task { [self] in
            await read(inbound, nonce: nonce, deadline: deadline, timer: timer)
        }
        let stopAtOnce = state.withLock { state in
            state.reader = reader
            return state.stopReading
        }
        if stopAtOnce { reader.cancel() }
        await reader.value
        timer.cancel()
        state.withLock { state in
            state.ended = true
            state.idleTimer?.cancel()
            state.idleTimer = nil
        }
        await endSubscriptions()
        await endWorkouts()
        endHeartbeatSeriesBuilders()
    }

    /// Stops reading requests (shutdown). A request being answered is answered first: the reader
    /// stops after writing it; a reader waiting for a frame stops at once.
    func stopReading() {
        let (reader, busy) = state.withLock { state in
            state.stopReading = true
            return (state.reader, state.busy)
        }
        if !busy { reader?.cancel() }
    }

    /// (Re)starts the idle timeout: when it runs out before the next request, the connection is
    /// closed, unless a request is under way or a subscription is live (a connection that waits
    /// for updates is not idle); then it starts again.
    func armIdleTimer() {
        let timeout = daemon.configuration.idleTimeout
        let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { [self] in
            let waiting = state.withLock {
                $0.busy || !$0.subscriptions.isEmpty || !$0.activityQueries.isEmpty || !$0.workouts.isEmpty
                    || $0.ended
            }
            if waiting {
                if !state.withLock({ $0.ended }) { armIdleTimer() }
            } else {
                daemon.logger.debug("closed an idle connection", metadata: ["connection": "\(id)"])
                close()
            }
        }
        state.withLock { state in
            state.idleTimer?.cancel()
            state.idleTimer = timer
        }
    }

    /// Closes the connection now.
    func close() {
        let reader = state.withLock { state in
            state.stopReading = true
            return state.reader
        }
        reader?.cancel()
        channel.close(promise: nil)
    }

    private func read(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        nonce: [UInt8],
        deadline: ContinuousClock.Instant,
        timer: Scheduled<Void>
    ) async {
        var bucket = TokenBucket(perSecond: daemon.configuration.requestsPerSecond)
        do {
            for try await frame in inbound {
                if identity == nil {
                    guard await authenticate(frame, nonce: nonce, deadline: deadline) else {
                        close()
                        return
                    }
                    timer.cancel()
                    armIdleTimer()
                    continue
                }
                guard bucket.take() else {
                    let head = try? HealthJSON.decode(RPCHead.self, from: Data(buffer: frame))
                    await send(
                        RPCError(
                            code: RPCError.rateLimited,
                            message:
                                "more than \(daemon.configuration.requestsPerSecond) requests per second on one connection; this one was not run",
                            data: HealthError(.dataSizeExceeded, "rate limit exceeded")
                        ),
                        id: head?.id
                    )
                    continue
                }
                let stopping = state.withLock { state in
                    if !state.stopReading { state.busy = true }
                    return state.stopReading
                }
                if stopping { return }
                let answer = await answerWithinTimeout(frame)
                if let answer { try await outbound.write(answer) }
                await sendAfterAnswer()
                armIdleTimer()
                if state.withLock({ state in
                    state.busy = false
                    return state.stopReading
                }) {
                    return
                }
            }
        } catch let error as FrameError {
            daemon.logger.debug("connection \(id): \(error)")
            if case .tooLarge = error {
                await send(RPCError(code: RPCError.frameTooLarge, message: error.description), id: nil)
            }
        } catch {
            daemon.logger.debug("connection \(id) ended: \(error)")
        }
    }

    // MARK: Authentication

    /// Checks the `authenticate` request: the version, the signature over the hello's nonce and
    /// this connection's id with the claimed app's enrolled key (or the owner key), in time.
    /// Every failure of identity gets the same answer; every failure is audited while the vault
    /// is unlocked (a locked vault cannot record, and answers `vaultLocked` to apps).
    private func authenticate(_ frame: ByteBuffer, nonce: [UInt8], deadline: ContinuousClock.Instant) async -> Bool {
        let data = Data(buffer: frame)
        let head = try? HealthJSON.decode(RPCHead.self, from: data)
        guard let head, head.method == Method.authenticate, head.id != nil else {
            if let engine = try? daemon.engine() {
                try? await engine.recordAuthenticationFailure(claimedApp: nil, requestID: requestID(head?.id))
            }
            await send(
                RPCError(
                    code: RPCError.notAuthenticated,
                    message: "authenticate first: the connection's first request is `authenticate`"
                ),
                id: head?.id
            )
            return false
        }
        guard let params = try? HealthJSON.decode(RPCParams<AuthenticateParams>.self, from: data).params else {
            await refuseAuthentication(claimedApp: nil, id: head.id)
            return false
        }
        let signature = Data(base64Encoded: params.signature ?? "").map(Array.init) ?? []
        let inTime = ContinuousClock.now < deadline
        if params.owner == true, params.app == nil, let presented = params.session {
            // An owner session's token, from the uid it was issued to, before its expiry.
            let candidate = OwnerTokens.decode(hex: presented)
            defer { candidate?.wipe() }
            let uid = state.withLock { $0.peerUID }
            if inTime, params.version == WireProtocol.version, params.signature?.isEmpty ?? true, let candidate,
                let uid, let token = daemon.ownerTokens.match(candidate, uid: uid)
            {
                state.withLock { $0.ownerToken = token }
                return await accept(as: .owner, id: head.id!)
            }
            await refuseAuthentication(claimedApp: nil, id: head.id)
            return false
        }
        if params.owner == true, params.app == nil {
            let message = WireProtocol.signedMessage(
                version: params.version,
                nonce: nonce,
                identity: "",
                connectionID: id
            )
            if inTime, params.version == WireProtocol.version,
                daemon.ownerPublicKey.isValidSignature(signature, for: message)
            {
                return await accept(as: .owner, id: head.id!)
            }
            await refuseAuthentication(claimedApp: nil, id: head.id)
            return false
        }
        guard let appID = params.app, params.owner != true else {
            await refuseAuthentication(claimedApp: nil, id: head.id)
            return false
        }
        let engine: VaultEngine
        do {
            engine = try daemon.engine()
        } catch {
            await send(error, id: head.id)
            return false
        }
        let message = WireProtocol.signedMessage(
            version: params.version,
            nonce: nonce,
            identity: appID,
            connectionID: id
        )
        // The key lookup runs whatever the other checks say, and reads only the key's bytes; an
        // unknown app's signature is checked against a stand-in key built the same way, so a
        // refusal does the same work, and takes as long, for an enrolled app and an unknown one.
        let enrolledKey = (try? await engine.appPublicKey(appID)) ?? nil
        let key = try? Ed25519.PublicKey(rawRepresentation: enrolledKey ?? Self.standInKey)
        let validSignature = key?.isValidSignature(signature, for: message) ?? false
        let accepted = [inTime, params.version == WireProtocol.version, ContinuousClock.now < deadline, validSignature]
        if accepted.allSatisfy({ $0 }), enrolledKey != nil {
            return await accept(as: .app(appID), id: head.id!)
        }
        await refuseAuthentication(claimedApp: appID, id: head.id)
        return false
    }

    /// Counts the connection under its app or the owner, within their connection limits, and
    /// answers the `authenticate` request; a connection over its limit is answered `-32004`.
    private func accept(as identity: Identity, id rpcID: RPCID) async -> Bool {
        do {
            try daemon.authenticated(self, as: identity)
        } catch {
            daemon.logger.notice(
                "refused an authenticated connection: \(error.message)",
                metadata: ["connection": "\(id)"]
            )
            await send(RPCError(code: RPCError.tooManyConnections, message: error.message), id: rpcID)
            return false
        }
        state.withLock { $0.identity = identity }
        switch identity {
        case .owner:
            daemon.logger.info("owner connected", metadata: ["connection": "\(id)"])
            await send(result: AuthenticateResult(role: "owner", app: nil), id: rpcID)
        case .app(let appID):
            daemon.logger.info("app connected", metadata: ["app": "\(appID)", "connection": "\(id)"])
            await send(result: AuthenticateResult(role: "app", app: appID), id: rpcID)
        }
        return true
    }

    /// The key an unknown app's signature is checked against: valid, and matching nothing.
    static let standInKey = Ed25519.SigningKey().publicKey.rawRepresentation

    static func newConnectionID() -> UUID {
        var bytes = randomBytes(count: 16)
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }

    static let authenticationFailed = RPCError(
        code: RPCError.authenticationFailed,
        message: "authentication failed",
        data: HealthError(.authorizationDenied, "authentication failed")
    )

    private func refuseAuthentication(claimedApp: String?, id rpcID: RPCID?) async {
        if let engine = try? daemon.engine() {
            do {
                try await engine.recordAuthenticationFailure(claimedApp: claimedApp, requestID: requestID(rpcID))
            } catch {
                daemon.logger.error("could not record a failed authentication: \(error)")
            }
        }
        daemon.logger.notice("authentication refused", metadata: ["connection": "\(id)"])
        await send(Self.authenticationFailed, id: rpcID)
    }

    // MARK: Requests

    /// The answer to one request frame, or the `timedOut` answer when it takes longer than the
    /// request timeout. The request itself is never abandoned half-way: a timed-out request still
    /// completes in the engine, and its answer is dropped.
    private func answerWithinTimeout(_ frame: ByteBuffer) async -> ByteBuffer? {
        let data = Data(buffer: frame)
        let head: RPCHead
        do {
            head = try HealthJSON.decode(RPCHead.self, from: data)
        } catch {
            return encode(
                RPCErrorResponse(
                    id: nil,
                    error: RPCError(
                        code: RPCError.parseError,
                        message: JSONNesting.isWithin(data)
                            ? "the frame is not a JSON object (UTF-8 JSON-RPC 2.0 message)"
                            : "the frame nests arrays and objects deeper than \(JSONNesting.maximumDepth) levels"
                    )
                )
            )
        }
        // A notification (no id) is never answered (JSON-RPC 2.0); the daemon accepts none.
        if head.id == nil, head.method != nil, head.jsonrpc == jsonRPCVersion {
            daemon.logger.debug("ignored a notification", metadata: ["connection": "\(id)"])
            return nil
        }
        guard head.jsonrpc == jsonRPCVersion, let method = head.method, let rpcID = head.id else {
            return encode(
                RPCErrorResponse(
                    id: head.id,
                    error: RPCError(
                        code: RPCError.invalidRequest,
                        message: "a request has \"jsonrpc\": \"2.0\", an \"id\" (number or string) and a \"method\""
                    )
                )
            )
        }
        // An import or an export takes as long as its data does; it shows its progress meanwhile.
        let timeout =
            method == Method.importAppleHealth || method == Method.importCSV || method == Method.exportWrite
                || method == Method.importJSON || method == Method.backup
            ? .seconds(7 * 86_400) : daemon.configuration.requestTimeout
        let first = await withCheckedContinuation { (continuation: CheckedContinuation<ByteBuffer?, Never>) in
            let resumed = Mutex(false)
            let resumeOnce = { @Sendable (value: ByteBuffer?) in
                if resumed.withLock({ done in
                    defer { done = true }
                    return !done
                }) {
                    continuation.resume(returning: value)
                }
            }
            // An event-loop timer, not a sleeping task: cancelling it frees it at once, where a
            // cancelled `Task.sleep` stays scheduled, holding its task, until its deadline.
            let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { resumeOnce(nil) }
            Task { [self] in
                let value = await answer(method: method, id: rpcID, data: data)
                timer.cancel()
                resumeOnce(value)
            }
        }
        if let first { return first }
        daemon.logger.warning("request timed out", metadata: ["method": "\(method)", "connection": "\(id)"])
        return encode(
            RPCErrorResponse(
                id: rpcID,
                error: RPCError(
                    code: RPCError.timedOut,
                    message: "the request took longer than \(timeout); it may still complete",
                    data: HealthError(.unknownError, "request timed out")
                )
            )
        )
    }

    private func answer(method: String, id rpcID: RPCID, data: Data) async -> ByteBuffer {
        do {
            var result = try await dispatch(method: method, data: data, requestID: requestID(rpcID))
            // A large result (samples, statistics) writes its JSON by hand: the same bytes, sooner.
            func encoded(_ result: any Encodable) -> ByteBuffer {
                (result as? any JSONWritable).map {
                    encode(RPCWrittenResponse(id: rpcID, result: $0), answering: rpcID)
                }
                    ?? encode(RPCResponse(id: rpcID, result: AnyEncodable(result)), answering: rpcID)
            }
            var answer = encoded(result)
            let maximum = daemon.configuration.maximumFrameBytes
            // A batch of a series is sent with fewer points rather than refused: `next` says where
            // the rest starts.
            while answer.readableBytes > maximum, let smaller = (result as? any BatchedResult)?.halved() {
                result = smaller
                answer = encoded(result)
            }
            guard answer.readableBytes <= maximum else {
                throw RPCError.from(
                    HealthError(
                        .dataSizeExceeded,
                        "the answer is \(answer.readableBytes) bytes, more than a frame carries (\(maximum)); ask for less (a limit, a shorter date range)"
                    )
                )
            }
            return answer
        } catch {
            return encode(RPCErrorResponse(id: rpcID, error: Self.rpcError(error)), answering: rpcID)
        }
    }

    private static func readFast<Readable: JSONReadable>(_ type: Readable.Type, from data: Data) -> Readable? {
        RPCParams<Readable>.readFast(from: data)
    }

    /// The error an app is answered with.
    static func rpcError(_ error: any Error) -> RPCError {
        switch error {
        case let error as RPCError: return error
        case let error as HealthError: return RPCError.from(error)
        case let error as PolicyError: return RPCError.from(HealthError(.invalidArgument, error.description))
        default: return RPCError.from(HealthError(.unknownError, "\(error)"))
        }
    }

    /// Decodes the request's `params` as `Params`; anything wrong is `invalidParams` naming the field.
    func params<Params: Decodable>(_ type: Params.Type, from data: Data) throws(RPCError) -> Params {
        // Params that read themselves (a save's samples) try the hand-written reader first; what
        // it is not sure of, and every error, is the Codable decoder's below.
        if let readable = Params.self as? any JSONReadable.Type,
            let params = Self.readFast(readable, from: data) as? Params
        {
            return params
        }
        do {
            return try HealthJSON.decode(RPCParams<Params>.self, from: data).params
        } catch {
            throw RPCError(code: RPCError.invalidParams, message: error.message, data: error)
        }
    }

    // MARK: Writing

    /// `message` as a frame's payload; when it cannot be encoded, the `-32603` answer to the
    /// request `id` (when it answers one) instead.
    func encode(_ message: some Encodable, answering id: RPCID? = nil) -> ByteBuffer {
        Self.frame(answering: id) { try HealthJSON.encode(message) }
    }

    /// A result that writes its own JSON (samples, statistics, routes): the same bytes as
    /// ``encode(_:answering:)`` writes.
    func encode(_ response: RPCWrittenResponse, answering id: RPCID) -> ByteBuffer {
        // Written into a buffer sized for the result at first, then copied once into the frame's: a
        // day of minute samples is about 430 KB, which a buffer doubling from a small start copied
        // three times more, and a `Data` between them once more.
        do {
            return ByteBuffer(bytes: try response.bytes())
        } catch {
            return Self.frame(answering: id) {
                // Only a value the wire cannot carry ends here: the generic encoder's own error.
                try HealthJSON.encode(RPCResponse(id: id, result: AnyEncodable(response.result)))
            }
        }
    }

    static func frame(answering rpcID: RPCID?, _ json: () throws -> Data) -> ByteBuffer {
        ByteBuffer(data: payload(answering: rpcID, json))
    }

    /// The JSON `json` writes, or the `-32603` answer to `rpcID` when it throws.
    static func payload(answering rpcID: RPCID?, _ json: () throws -> Data) -> Data {
        do {
            return try json()
        } catch {
            // Only a value the wire cannot carry (a date outside 0000-9999) ends here.
            let fallback = RPCErrorResponse(
                id: rpcID,
                error: RPCError(code: RPCError.internalError, message: "the answer could not be encoded: \(error)")
            )
            return (try? HealthJSON.encode(fallback)) ?? Data()
        }
    }

    func send(_ error: RPCError, id rpcID: RPCID?) async {
        try? await outbound.write(encode(RPCErrorResponse(id: rpcID, error: error), answering: rpcID))
    }

    func send(result: some Encodable, id rpcID: RPCID) async {
        try? await outbound.write(encode(RPCResponse(id: rpcID, result: result), answering: rpcID))
    }

    func send(notification method: String, _ params: some Encodable) async {
        try? await outbound.write(encode(RPCNotification(method: method, params: params)))
    }
}

/// Any encodable result, encoded as itself.
struct AnyEncodable: Encodable {
    let value: any Encodable

    init(_ value: any Encodable) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

/// A connection's request budget: `perSecond` tokens, refilled continuously.
struct TokenBucket {
    let rate: Double
    var tokens: Double
    var last = ContinuousClock.now

    init(perSecond: Int) {
        rate = Double(max(perSecond, 1))
        tokens = rate
    }

    mutating func take() -> Bool {
        let now = ContinuousClock.now
        tokens = min(rate, tokens + (now - last).timeInterval * rate)
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
