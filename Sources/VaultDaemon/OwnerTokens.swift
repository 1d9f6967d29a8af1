import Foundation
import Synchronization
import VaultCrypto

/// The owner's session tokens (`session.open`, docs/PROTOCOL.md, "Owner sessions"): random,
/// bound to the uid that asked for them, with an expiry, held only in this process's memory
/// (libsodium buffers, wiped when forgotten). A restart, a lock, a logout or the expiry forgets
/// a token; nothing about them is ever written to disk.
final class OwnerTokens: Sendable {
    struct Token {
        let secret: SecureBytes
        let uid: UInt32
        let expires: ContinuousClock.Instant
    }

    /// The most tokens held at once; opening one more forgets the one that expires first.
    static let limit = 64
    static let byteCount = 32

    private let tokens = Mutex<[Token]>([])

    /// A new token for `uid`, valid for `duration`; the caller sends its hex once and wipes it.
    func issue(to uid: UInt32, for duration: Duration) -> SecureBytes {
        let secret = SecureBytes.random(count: Self.byteCount)
        let expires = ContinuousClock.now + duration
        tokens.withLock { tokens in
            Self.dropExpired(&tokens)
            if tokens.count >= Self.limit,
                let first = tokens.indices.min(by: { tokens[$0].expires < tokens[$1].expires })
            {
                tokens.remove(at: first).secret.wipe()
            }
            tokens.append(Token(secret: secret, uid: uid, expires: expires))
        }
        // Forgotten at its expiry even if nobody presents it again.
        Task { [weak self] in
            try? await Task.sleep(until: expires, clock: .continuous)
            self?.forgetExpired()
        }
        return secret
    }

    /// The token equal to `candidate` (compared in constant time with every live token), if it
    /// was issued to `uid` and has not expired.
    func match(_ candidate: SecureBytes, uid: UInt32) -> SecureBytes? {
        tokens.withLock { tokens in
            Self.dropExpired(&tokens)
            var found: SecureBytes?
            for token in tokens where token.secret.constantTimeEquals(candidate) && token.uid == uid {
                found = token.secret
            }
            return found
        }
    }

    /// Forgets `secret` (a logout); whether it was still live.
    @discardableResult
    func forget(_ secret: SecureBytes) -> Bool {
        tokens.withLock { tokens in
            guard let index = tokens.firstIndex(where: { $0.secret === secret }) else { return false }
            tokens.remove(at: index).secret.wipe()
            return true
        }
    }

    /// Forgets every token (the vault was locked, or the daemon stops).
    func forgetAll() {
        tokens.withLock { tokens in
            for token in tokens { token.secret.wipe() }
            tokens.removeAll()
        }
    }

    func forgetExpired() {
        tokens.withLock { Self.dropExpired(&$0) }
    }

    var count: Int { tokens.withLock { $0.count } }

    private static func dropExpired(_ tokens: inout [Token]) {
        let now = ContinuousClock.now
        tokens.removeAll { token in
            guard token.expires <= now else { return false }
            token.secret.wipe()
            return true
        }
    }

    /// 64 hex digits as the token's 32 bytes; nil for anything else.
    static func decode(hex: String) -> SecureBytes? {
        let digits = Array(hex.utf8)
        guard digits.count == byteCount * 2 else { return nil }
        let bytes = SecureBytes(count: byteCount)
        var valid = true
        bytes.withUnsafeMutableBytes { target in
            for index in 0..<byteCount {
                guard let high = value(of: digits[index * 2]), let low = value(of: digits[index * 2 + 1]) else {
                    valid = false
                    return
                }
                target[index] = high << 4 | low
            }
        }
        guard valid else {
            bytes.wipe()
            return nil
        }
        return bytes
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
