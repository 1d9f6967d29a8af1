public import Foundation

/// HealthVault's local socket protocol (docs/PROTOCOL.md): frames of a 4-byte big-endian length
/// and a UTF-8 JSON message shaped as JSON-RPC 2.0, over a Unix domain socket in the vault
/// directory.
public enum WireProtocol {
    /// The protocol's name, in the hello and in the signed handshake message.
    public static let name = "healthvault"
    /// The version this build speaks. A client names it in `authenticate`; the daemon refuses
    /// another.
    public static let version: UInt32 = 1
    /// The socket's file name inside the vault directory.
    public static let socketFileName = "healthvaultd.sock"
    /// The default largest frame, payload bytes (the 4-byte length not counted).
    public static let defaultMaximumFrameBytes = 16 * 1024 * 1024
    /// The nonce in the hello, bytes.
    public static let nonceCount = 32

    /// The bytes a client signs to authenticate (DESIGN.md decision 9):
    ///
    ///     "healthvault" (11 ASCII bytes)
    ///     version       (4 bytes, big-endian)
    ///     nonce         (32 bytes, from the hello)
    ///     identity      (2-byte big-endian length, then UTF-8: the app id; empty for the owner)
    ///     connection    (16 bytes: the connection id from the hello, a UUID, as raw bytes)
    public static func signedMessage(
        version: UInt32 = WireProtocol.version,
        nonce: [UInt8],
        identity: String,
        connectionID: UUID
    ) -> [UInt8] {
        var message = Array(name.utf8)
        withUnsafeBytes(of: version.bigEndian) { message.append(contentsOf: $0) }
        message.append(contentsOf: nonce)
        let identityBytes = Array(identity.utf8)
        withUnsafeBytes(of: UInt16(truncatingIfNeeded: identityBytes.count).bigEndian) {
            message.append(contentsOf: $0)
        }
        message.append(contentsOf: identityBytes)
        withUnsafeBytes(of: connectionID.uuid) { message.append(contentsOf: $0) }
        return message
    }
}
