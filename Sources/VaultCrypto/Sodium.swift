import CSodium

/// Every libsodium call of HealthVault, in one internal place.
///
/// `sodium_init` runs once, before the first call; it is thread-safe and idempotent.
enum Sodium {
    static let ready: Bool = sodium_init() >= 0

    static func ensureReady() {
        precondition(ready, "libsodium failed to initialize")
    }

    // MARK: Memory

    static func secureAllocate(_ count: Int) -> UnsafeMutableRawPointer {
        ensureReady()
        guard let pointer = sodium_malloc(max(count, 1)) else {
            fatalError("sodium_malloc failed: out of memory or locked-memory limit reached")
        }
        return pointer
    }

    /// Frees a `sodium_malloc` buffer; libsodium wipes it first.
    static func secureFree(_ pointer: UnsafeMutableRawPointer) {
        sodium_free(pointer)
    }

    static func wipe(_ pointer: UnsafeMutableRawPointer, _ count: Int) {
        sodium_memzero(pointer, count)
    }

    static func constantTimeEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        sodium_memcmp(a, b, count) == 0
    }

    static func randomFill(_ pointer: UnsafeMutableRawPointer, _ count: Int) {
        ensureReady()
        randombytes_buf(pointer, count)
    }

    // MARK: Argon2id

    static let argon2SaltBytes = Int(crypto_pwhash_SALTBYTES)
    static let argon2OpsLimitModerate = UInt64(crypto_pwhash_OPSLIMIT_MODERATE)
    static let argon2MemLimitModerate = Int(crypto_pwhash_MEMLIMIT_MODERATE)
    static let argon2OpsLimitMin = UInt64(crypto_pwhash_OPSLIMIT_MIN)
    static let argon2MemLimitMin = Int(crypto_pwhash_MEMLIMIT_MIN)

    static func argon2id(
        output: UnsafeMutableRawPointer,
        outputCount: Int,
        password: UnsafeRawPointer,
        passwordCount: Int,
        salt: UnsafeRawPointer,
        opsLimit: UInt64,
        memLimit: Int
    ) -> Bool {
        ensureReady()
        return crypto_pwhash(
            output.assumingMemoryBound(to: UInt8.self),
            UInt64(outputCount),
            password.assumingMemoryBound(to: CChar.self),
            UInt64(passwordCount),
            salt.assumingMemoryBound(to: UInt8.self),
            opsLimit,
            memLimit,
            crypto_pwhash_ALG_ARGON2ID13
        ) == 0
    }

    // MARK: XChaCha20-Poly1305

    static let aeadKeyBytes = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    static let aeadNonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let aeadTagBytes = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    static func aeadSeal(
        ciphertext: UnsafeMutableRawPointer,
        plaintext: UnsafeRawPointer,
        plaintextCount: Int,
        associatedData: UnsafeRawBufferPointer,
        nonce: UnsafeRawPointer,
        key: UnsafeRawPointer
    ) {
        ensureReady()
        var length: UInt64 = 0
        let result = crypto_aead_xchacha20poly1305_ietf_encrypt(
            ciphertext.assumingMemoryBound(to: UInt8.self),
            &length,
            plaintext.assumingMemoryBound(to: UInt8.self),
            UInt64(plaintextCount),
            associatedData.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt64(associatedData.count),
            nil,
            nonce.assumingMemoryBound(to: UInt8.self),
            key.assumingMemoryBound(to: UInt8.self)
        )
        precondition(result == 0, "XChaCha20-Poly1305 encryption cannot fail")
    }

    static func aeadOpen(
        plaintext: UnsafeMutableRawPointer,
        ciphertext: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        nonce: UnsafeRawPointer,
        key: UnsafeRawPointer
    ) -> Bool {
        ensureReady()
        var length: UInt64 = 0
        return crypto_aead_xchacha20poly1305_ietf_decrypt(
            plaintext.assumingMemoryBound(to: UInt8.self),
            &length,
            nil,
            ciphertext.baseAddress!.assumingMemoryBound(to: UInt8.self),
            UInt64(ciphertext.count),
            associatedData.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt64(associatedData.count),
            nonce.assumingMemoryBound(to: UInt8.self),
            key.assumingMemoryBound(to: UInt8.self)
        ) == 0
    }

    // MARK: BLAKE2b

    static let genericHashKeyBytes = Int(crypto_generichash_KEYBYTES)

    /// Keyed BLAKE2b of `message`, `count` bytes (16 to 64) into `output`.
    static func keyedHash(
        _ output: UnsafeMutableRawPointer,
        count: Int,
        message: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer
    ) {
        ensureReady()
        let result = crypto_generichash(
            output.assumingMemoryBound(to: UInt8.self),
            count,
            message.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt64(message.count),
            key.baseAddress?.assumingMemoryBound(to: UInt8.self),
            key.count
        )
        precondition(result == 0, "BLAKE2b cannot fail for valid lengths")
    }

    // MARK: Ed25519

    static let signPublicKeyBytes = Int(crypto_sign_PUBLICKEYBYTES)
    static let signSecretKeyBytes = Int(crypto_sign_SECRETKEYBYTES)
    static let signSeedBytes = Int(crypto_sign_SEEDBYTES)
    static let signatureBytes = Int(crypto_sign_BYTES)

    static func signKeyPair(publicKey: UnsafeMutableRawPointer, secretKey: UnsafeMutableRawPointer) {
        ensureReady()
        let result = crypto_sign_keypair(
            publicKey.assumingMemoryBound(to: UInt8.self),
            secretKey.assumingMemoryBound(to: UInt8.self)
        )
        precondition(result == 0, "Ed25519 key generation cannot fail")
    }

    static func signSeedKeyPair(
        publicKey: UnsafeMutableRawPointer,
        secretKey: UnsafeMutableRawPointer,
        seed: UnsafeRawPointer
    ) {
        ensureReady()
        let result = crypto_sign_seed_keypair(
            publicKey.assumingMemoryBound(to: UInt8.self),
            secretKey.assumingMemoryBound(to: UInt8.self),
            seed.assumingMemoryBound(to: UInt8.self)
        )
        precondition(result == 0, "Ed25519 key derivation from a seed cannot fail")
    }

    // MARK: Key derivation (BLAKE2b, crypto_kdf)

    static let kdfKeyBytes = Int(crypto_kdf_KEYBYTES)
    static let kdfContextBytes = Int(crypto_kdf_CONTEXTBYTES)

    static func deriveSubkey(
        _ subkey: UnsafeMutableRawPointer,
        count: Int,
        id: UInt64,
        context: [CChar],
        key: UnsafeRawPointer
    ) {
        ensureReady()
        let result = context.withUnsafeBufferPointer { ctx in
            crypto_kdf_derive_from_key(
                subkey.assumingMemoryBound(to: UInt8.self),
                count,
                id,
                ctx.baseAddress!,
                key.assumingMemoryBound(to: UInt8.self)
            )
        }
        precondition(result == 0, "crypto_kdf_derive_from_key failed for a valid length")
    }

    static func signPublicKey(fromSecretKey secretKey: UnsafeRawPointer, into publicKey: UnsafeMutableRawPointer) {
        ensureReady()
        let result = crypto_sign_ed25519_sk_to_pk(
            publicKey.assumingMemoryBound(to: UInt8.self),
            secretKey.assumingMemoryBound(to: UInt8.self)
        )
        precondition(result == 0, "Ed25519 public key extraction cannot fail")
    }

    /// Whether 32 bytes encode a point of Ed25519's prime-order subgroup, as every public key
    /// made from a seed does (and most other 32-byte strings do not).
    static func isValidEd25519Point(_ bytes: UnsafeRawPointer) -> Bool {
        ensureReady()
        return crypto_core_ed25519_is_valid_point(bytes.assumingMemoryBound(to: UInt8.self)) == 1
    }

    static func sign(
        signature: UnsafeMutableRawPointer,
        message: UnsafeRawBufferPointer,
        secretKey: UnsafeRawPointer
    ) {
        ensureReady()
        let result = crypto_sign_detached(
            signature.assumingMemoryBound(to: UInt8.self),
            nil,
            message.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt64(message.count),
            secretKey.assumingMemoryBound(to: UInt8.self)
        )
        precondition(result == 0, "Ed25519 signing cannot fail")
    }

    static func verify(
        signature: UnsafeRawPointer,
        message: UnsafeRawBufferPointer,
        publicKey: UnsafeRawPointer
    ) -> Bool {
        ensureReady()
        return crypto_sign_verify_detached(
            signature.assumingMemoryBound(to: UInt8.self),
            message.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt64(message.count),
            publicKey.assumingMemoryBound(to: UInt8.self)
        ) == 0
    }

    // MARK: SHA-256

    static let sha256Bytes = Int(crypto_hash_sha256_BYTES)

    struct SHA256State {
        var state = crypto_hash_sha256_state()

        init() {
            Sodium.ensureReady()
            crypto_hash_sha256_init(&state)
        }

        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            crypto_hash_sha256_update(
                &state,
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                UInt64(bytes.count)
            )
        }

        mutating func finalize(into output: UnsafeMutableRawPointer) {
            crypto_hash_sha256_final(&state, output.assumingMemoryBound(to: UInt8.self))
        }
    }

    static var version: String { String(cString: sodium_version_string()) }
}
