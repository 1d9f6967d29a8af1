import Foundation
import HealthModel
import VaultCrypto

/// The vault's key file: the database key and the audit signing key, each wrapped with
/// XChaCha20-Poly1305 under a key derived from the owner's passphrase by Argon2id.
///
/// Written as JSON (`keyring.json`, 0600); binary fields in base64. The associated data of each
/// wrapped key binds it to this format, this vault and its purpose, so keys cannot be swapped
/// between vaults or roles unnoticed. A SHA-256 checksum over every field tells a damaged file
/// (checksum mismatch) from a wrong passphrase (intact file, authentication fails). See
/// docs/VAULT_FORMAT.md.
struct Keyring: Codable {
    static let fileName = "keyring.json"
    static let currentFormat = 1

    struct KDF: Codable {
        var algorithm: String
        var opsLimit: UInt64
        var memLimit: Int
        var salt: String
    }

    struct Wrapped: Codable {
        var nonce: String
        var ciphertext: String

        init(_ key: WrappedKey) {
            nonce = Data(key.nonce).base64EncodedString()
            ciphertext = Data(key.ciphertext).base64EncodedString()
        }

        func wrappedKey() throws(StoreError) -> WrappedKey {
            guard let nonce = Data(base64Encoded: nonce), let ciphertext = Data(base64Encoded: ciphertext) else {
                throw .damagedKeyFile("the key file holds a wrapped key that is not base64")
            }
            return WrappedKey(nonce: Array(nonce), ciphertext: Array(ciphertext))
        }
    }

    var format: Int
    var vaultID: UUID
    var kdf: KDF
    var databaseKey: Wrapped
    var auditSigningKey: Wrapped
    /// Ed25519 public key, base64 (also written in the clear to `audit-key.pub`).
    var auditPublicKey: String
    /// Lowercase hex of ``computedChecksum()``.
    var checksum: String

    /// SHA-256 of "HealthVault keyring checksum" ‖ 0x00 ‖ each other field as UTF-8 text, in a fixed
    /// order, each preceded by its byte length (4 bytes, big-endian). Not a secret and not a MAC:
    /// it catches damage, while the wrapping's authentication catches tampering.
    func computedChecksum() -> String {
        let fields = [
            String(format), vaultID.uuidString.lowercased(), kdf.algorithm, String(kdf.opsLimit), String(kdf.memLimit),
            kdf.salt, databaseKey.nonce, databaseKey.ciphertext, auditSigningKey.nonce, auditSigningKey.ciphertext,
            auditPublicKey,
        ]
        var bytes = Array("HealthVault keyring checksum".utf8) + [0]
        for field in fields {
            let utf8 = Array(field.utf8)
            bytes += withUnsafeBytes(of: UInt32(utf8.count).bigEndian) { Array($0) } + utf8
        }
        return SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    enum Purpose: String {
        case databaseKey = "database-key"
        case auditSigningKey = "audit-signing-key"
    }

    /// "HealthVault keyring" ‖ 0x00 ‖ format (1 byte) ‖ vault id (16 bytes) ‖ purpose.
    static func associatedData(format: Int, vaultID: UUID, purpose: Purpose) -> [UInt8] {
        let id = withUnsafeBytes(of: vaultID.uuid) { Array($0) }
        return Array("HealthVault keyring".utf8) + [0, UInt8(format)] + id + Array(purpose.rawValue.utf8)
    }

    /// Wraps both keys under a fresh salt for `passphrase`.
    static func make(
        vaultID: UUID,
        databaseKey: SecureBytes,
        signingKey: Ed25519.SigningKey,
        passphrase: SecureBytes,
        parameters: KeyDerivationParameters
    ) throws(StoreError) -> Keyring {
        let salt = KeyDerivation.randomSalt()
        do {
            let kek = try KeyDerivation.deriveKey(passphrase: passphrase, salt: salt, parameters: parameters)
            defer { kek.wipe() }
            let format = currentFormat
            var keyring = Keyring(
                format: format,
                vaultID: vaultID,
                kdf: KDF(
                    algorithm: "argon2id13",
                    opsLimit: parameters.opsLimit,
                    memLimit: parameters.memLimit,
                    salt: Data(salt).base64EncodedString()
                ),
                databaseKey: Wrapped(
                    try WrappedKey.wrap(
                        databaseKey,
                        with: kek,
                        associatedData: associatedData(format: format, vaultID: vaultID, purpose: .databaseKey)
                    )
                ),
                auditSigningKey: Wrapped(
                    try WrappedKey.wrap(
                        signingKey.secretKey,
                        with: kek,
                        associatedData: associatedData(format: format, vaultID: vaultID, purpose: .auditSigningKey)
                    )
                ),
                auditPublicKey: Data(signingKey.publicKey.rawRepresentation).base64EncodedString(),
                checksum: ""
            )
            keyring.checksum = keyring.computedChecksum()
            return keyring
        } catch {
            throw .io("cannot derive the vault's key: \(error)")
        }
    }

    /// Unwraps both keys; a wrong passphrase is `StoreError.wrongPassphrase`.
    func unwrap(passphrase: SecureBytes) throws(StoreError) -> (SecureBytes, Ed25519.SigningKey) {
        guard format == Self.currentFormat else {
            throw .newerSchema("the key file has format \(format); this HealthVault reads format \(Self.currentFormat)")
        }
        guard kdf.algorithm == "argon2id13", let salt = Data(base64Encoded: kdf.salt) else {
            throw .damagedKeyFile("the key file names an unknown key derivation or a malformed salt")
        }
        let kek: SecureBytes
        do {
            kek = try KeyDerivation.deriveKey(
                passphrase: passphrase,
                salt: Array(salt),
                parameters: KeyDerivationParameters(opsLimit: kdf.opsLimit, memLimit: kdf.memLimit)
            )
        } catch {
            throw .damagedKeyFile("the key file's key-derivation settings are unusable: \(error)")
        }
        defer { kek.wipe() }
        let databaseWrapped = try databaseKey.wrappedKey()
        let signingWrapped = try auditSigningKey.wrappedKey()
        do {
            let database = try databaseWrapped.unwrap(
                with: kek,
                associatedData: Self.associatedData(format: format, vaultID: vaultID, purpose: .databaseKey)
            )
            let signing = try signingWrapped.unwrap(
                with: kek,
                associatedData: Self.associatedData(format: format, vaultID: vaultID, purpose: .auditSigningKey)
            )
            let signingKey = try Ed25519.SigningKey(secretKey: signing)
            guard Data(signingKey.publicKey.rawRepresentation).base64EncodedString() == auditPublicKey else {
                throw StoreError.damagedKeyFile("the key file's audit public key does not match its signing key")
            }
            return (database, signingKey)
        } catch let error as StoreError {
            throw error
        } catch let error as CryptoError where error.code == .authenticationFailed {
            throw .wrongPassphrase
        } catch {
            throw .damagedKeyFile("the key file holds a malformed key: \(error)")
        }
    }

    static func read(from directory: URL) throws(StoreError) -> Keyring {
        let url = directory.appendingPathComponent(fileName)
        var status = stat()
        guard lstat(url.path, &status) == 0 else {
            // A folder this user may not enter hides the file: that is no missing file.
            if errno == EACCES { throw .permission(FileAccess.unreachable(url.path)) }
            throw .missingKeyFile("the vault's key file \(url.path) is missing; without it the vault cannot be opened")
        }
        guard access(url.path, R_OK) == 0 else {
            throw .permission(FileAccess.denied(url.path, status, what: "read the vault's key file"))
        }
        let keyring: Keyring
        do {
            let data = try Data(contentsOf: url)
            // A file nested past Foundation's limit would trap its scanner, not fail.
            guard JSONNesting.isWithin(data) else { throw JSONNesting.tooDeep() }
            keyring = try JSONDecoder().decode(Keyring.self, from: data)
        } catch {
            throw .damagedKeyFile("the vault's key file \(url.path) is damaged: it is not a HealthVault key file")
        }
        guard keyring.checksum == keyring.computedChecksum() else {
            throw .damagedKeyFile(
                "the vault's key file \(url.path) is damaged: its checksum does not match its contents; restore it from a backup"
            )
        }
        return keyring
    }

    /// Replaces the key file atomically: written beside, flushed, renamed over, directory flushed.
    /// A crash leaves either the old file or the new one, never neither.
    func write(to directory: URL) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw .io("cannot encode the key file: \(error)")
        }
        try VaultFiles.writeAtomically(data, to: directory.appendingPathComponent(Self.fileName))
    }
}
