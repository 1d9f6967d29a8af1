import AuditLog
import Foundation
import HealthModel
import Logging
import Synchronization
import VaultCrypto
import VaultEngine
import VaultProtocol

extension Session {
    /// `session.open`: a token for the owner's later connections from this uid, recorded
    /// (`session.open`) before it leaves the daemon. Only a connection that proved the
    /// passphrase (the owner key) may open one: a session cannot extend itself.
    func openOwnerSession(data: Data, requestID: String) async throws -> SessionOpenResult {
        let p = try params(SessionOpenParams.self, from: data)
        guard state.withLock({ $0.ownerToken == nil }) else {
            throw RPCError.from(
                HealthError(
                    .authorizationDenied,
                    "a session cannot open another; prove the passphrase (the owner key) to open one"
                )
            )
        }
        guard (1...SessionOpenParams.maximumSeconds).contains(p.seconds) else {
            throw RPCError.from(
                HealthError.invalidArgument(
                    "a session lasts 1 to \(SessionOpenParams.maximumSeconds) seconds, not \(p.seconds)",
                    field: "seconds"
                )
            )
        }
        guard let uid = state.withLock({ $0.peerUID }) else {
            throw RPCError.from(HealthError(.authorizationDenied, "the peer's uid is unknown"))
        }
        try await daemon.engine().recordOwnerSession(.sessionOpen, requestID: requestID)
        let token = daemon.ownerTokens.issue(to: uid, for: .seconds(p.seconds))
        let hex = token.hexEncoded()
        defer { hex.wipe() }
        let text = hex.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        daemon.logger.info("owner session opened", metadata: ["connection": "\(id)", "seconds": "\(p.seconds)"])
        return SessionOpenResult(token: text, expires: Date().addingTimeInterval(Double(p.seconds)), seconds: p.seconds)
    }

    /// `session.close`: forgets the token this connection authenticated with (recorded as
    /// `session.close`); on a connection authenticated otherwise, or when the token is already
    /// gone, closes nothing. Answers whether a session was closed.
    func closeOwnerSession(requestID: String) async throws -> SessionCloseResult {
        guard let token = state.withLock({ $0.ownerToken }) else { return SessionCloseResult(closed: false) }
        guard daemon.ownerTokens.forget(token) else { return SessionCloseResult(closed: false) }
        state.withLock { $0.ownerToken = nil }
        daemon.logger.info("owner session closed", metadata: ["connection": "\(id)"])
        try await daemon.engine().recordOwnerSession(.sessionClose, requestID: requestID)
        return SessionCloseResult(closed: true)
    }
}
