public import Foundation
import Glibc
public import VaultCrypto

/// An app's two key files as text that says what it is (docs/PROTOCOL.md, "Key files"), so a
/// private key is never taken for a public one:
///
///     healthvault-ed25519-public <base64 of the 32-byte public key>[ <comment>]
///
///     -----BEGIN HEALTHVAULT ED25519 PRIVATE KEY-----
///     <base64 of the 32-byte seed>
///     -----END HEALTHVAULT ED25519 PRIVATE KEY-----
///
/// Files of the older, untyped form (one line, the base64 of 32 bytes, for either key) are still
/// read; where a public key is expected such a file must pass the checks of ``readPublicKey``.
public enum KeyFileFormat {
    public static let publicKeyType = "healthvault-ed25519-public"
    public static let privateKeyBegin = "-----BEGIN HEALTHVAULT ED25519 PRIVATE KEY-----"
    public static let privateKeyEnd = "-----END HEALTHVAULT ED25519 PRIVATE KEY-----"

    /// The public key file's one line (without its newline).
    public static func publicKeyLine(_ key: Ed25519.PublicKey) -> String {
        "\(publicKeyType) \(Data(key.rawRepresentation).base64EncodedString())"
    }

    /// The private key file's three lines, each ending in a newline.
    public static func privateKeyText(seed: SecureBytes) -> String {
        let encoded = seed.withUnsafeBytes { Data($0).base64EncodedString() }
        return "\(privateKeyBegin)\n\(encoded)\n\(privateKeyEnd)\n"
    }

    /// The text of the key file at `path`; a file that cannot be read is said as why (no such
    /// file, permission denied).
    public static func readText(_ path: String) throws(KeyFileError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw KeyFileError("cannot read the key file \(path): \(String(cString: strerror(errno)))")
        }
        close(fd)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw KeyFileError("\(path) is not a HealthVault key file: it is not text")
        }
        return text
    }

    /// What a key file's text is, read from its form, not its name.
    public enum Content: Equatable, Sendable {
        /// `healthvault-ed25519-public <base64>`: the decoded bytes (32 when well formed).
        case publicKey([UInt8])
        /// The armoured private key: the decoded seed (32 bytes when well formed).
        case privateKey([UInt8])
        /// The older form: one line of base64, these bytes.
        case untyped([UInt8])
        /// Anything else.
        case unknown
    }

    /// Reads the form of a key file's text; surrounding whitespace is ignored.
    public static func content(of text: String) -> Content {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard let first = lines.first else { return .unknown }
        if first == privateKeyBegin {
            guard lines.count >= 3, lines.last == privateKeyEnd,
                let bytes = Data(base64Encoded: lines[1..<(lines.count - 1)].joined())
            else { return .privateKey([]) }
            return .privateKey(Array(bytes))
        }
        let fields = first.split(separator: " ", omittingEmptySubsequences: true)
        if fields.first == Substring(publicKeyType) {
            guard lines.count == 1, fields.count >= 2, let bytes = Data(base64Encoded: String(fields[1])) else {
                return .publicKey([])
            }
            return .publicKey(Array(bytes))
        }
        if lines.count == 1, fields.count == 1, let bytes = Data(base64Encoded: String(fields[0])) {
            return .untyped(Array(bytes))
        }
        return .unknown
    }

    /// The public key in `text`, the file at `path` (`mode`: its permission bits). A private key,
    /// typed or not, is refused with a message that says so; so is anything else.
    ///
    /// An untyped file is taken as a public key only when its 32 bytes are a point of the curve
    /// (every public key is; a seed is with a chance of 1 in 16) and other users may read it, as
    /// older HealthVaults wrote public keys (0644), never private ones (0600).
    public static func readPublicKey(
        text: String,
        path: String,
        mode: UInt32
    ) throws(KeyFileError)
        -> Ed25519.PublicKey
    {
        let refusePrivate =
            "; give the app's public key file (the one `apps keygen --public-key` wrote), and keep the private key with the app only"
        switch content(of: text) {
        case .publicKey(let bytes):
            guard bytes.count == 32, let key = try? Ed25519.PublicKey(rawRepresentation: bytes), key.isValidPoint else {
                throw KeyFileError(
                    "\(path) is damaged: its \(publicKeyType) line does not hold a 32-byte Ed25519 public key"
                )
            }
            return key
        case .privateKey:
            throw KeyFileError("\(path) is an app's PRIVATE key, not a public one" + refusePrivate)
        case .untyped(var bytes):
            defer { bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            if bytes.count == 64 {
                throw KeyFileError("\(path) holds 64 bytes, an Ed25519 secret key, not a public key" + refusePrivate)
            }
            guard bytes.count == 32, let key = try? Ed25519.PublicKey(rawRepresentation: bytes) else { break }
            guard key.isValidPoint else {
                throw KeyFileError(
                    "\(path) is not an Ed25519 public key (its 32 bytes are no point of the curve): it is likely an app's "
                        + "private key in the older untyped form" + refusePrivate
                )
            }
            guard mode & 0o077 != 0 else {
                throw KeyFileError(
                    "\(path) is an untyped key file only its owner may read, as older HealthVaults wrote private keys: "
                        + "it may be an app's private key. If it is the public key, write it in the typed form, one line "
                        + "`\(publicKeyType) <its base64>`, or make it readable (chmod 644)"
                )
            }
            return key
        case .unknown:
            break
        }
        throw KeyFileError("\(path) is not a HealthVault public key file (one line: `\(publicKeyType) <base64>`)")
    }

    /// The private key's seed in `text`, the file at `path`: the armoured form, or the older
    /// untyped one. A public key is refused with a message that says so.
    public static func readSeed(text: String, path: String) throws(KeyFileError) -> SecureBytes {
        switch content(of: text) {
        case .privateKey(var bytes) where bytes.count == 32, .untyped(var bytes) where bytes.count == 32:
            defer { bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            return SecureBytes(copying: bytes)
        case .privateKey:
            throw KeyFileError("\(path) is damaged: its private key block does not hold a 32-byte seed")
        case .publicKey:
            throw KeyFileError(
                "\(path) is an app's public key; an app signs with its private key file (the one `apps keygen --private-key` wrote)"
            )
        default:
            throw KeyFileError(
                "\(path) is not a HealthVault private key file (`\(privateKeyBegin)`, the base64 of a 32-byte seed, `\(privateKeyEnd)`)"
            )
        }
    }
}
