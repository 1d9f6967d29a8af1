import Foundation
import Testing
import VaultCrypto

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

func bytes(hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        result.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return result
}

extension SecureBytes {
    var array: [UInt8] { withUnsafeBytes { Array($0) } }
}

struct SecureBytesTests {
    @Test func randomBuffersDifferAndWipeZeroes() {
        let a = SecureBytes.random(count: 32)
        let b = SecureBytes.random(count: 32)
        #expect(!a.constantTimeEquals(b))
        #expect(a.array != [UInt8](repeating: 0, count: 32))
        a.wipe()
        #expect(a.array == [UInt8](repeating: 0, count: 32))
    }

    @Test func hexEncodingIsLowercaseAndTwiceAsLong() {
        let key = SecureBytes(copying: [0x00, 0xAB, 0x7F, 0xFF])
        #expect(key.hexEncoded().array == Array("00ab7fff".utf8))
    }
}

struct KeyDerivationTests {
    @Test func moderateIsLibsodiumsThreePassesAnd256MiB() {
        #expect(KeyDerivationParameters.moderate.opsLimit == 3)
        #expect(KeyDerivationParameters.moderate.memLimit == 256 << 20)
        #expect(KeyDerivationParameters.moderate.isAtLeastModerate)
        #expect(!KeyDerivationParameters.minimumForTesting.isAtLeastModerate)
    }

    @Test func sameInputsGiveTheSameKeyAndAnyChangeAnother() throws {
        let salt = KeyDerivation.randomSalt()
        let params = KeyDerivationParameters.minimumForTesting
        let a = try KeyDerivation.deriveKey(
            passphrase: SecureBytes(utf8: "correct horse"),
            salt: salt,
            parameters: params
        )
        let b = try KeyDerivation.deriveKey(
            passphrase: SecureBytes(utf8: "correct horse"),
            salt: salt,
            parameters: params
        )
        let c = try KeyDerivation.deriveKey(
            passphrase: SecureBytes(utf8: "correct horsf"),
            salt: salt,
            parameters: params
        )
        let d = try KeyDerivation.deriveKey(
            passphrase: SecureBytes(utf8: "correct horse"),
            salt: KeyDerivation.randomSalt(),
            parameters: params
        )
        #expect(a.count == 32)
        #expect(a.constantTimeEquals(b))
        #expect(!a.constantTimeEquals(c))
        #expect(!a.constantTimeEquals(d))
    }

    @Test func badSaltOrParametersAreRefused() {
        #expect(throws: CryptoError.self) {
            _ = try KeyDerivation.deriveKey(
                passphrase: SecureBytes(utf8: "x"),
                salt: [1, 2, 3],
                parameters: .minimumForTesting
            )
        }
        #expect(throws: CryptoError.self) {
            _ = try KeyDerivation.deriveKey(
                passphrase: SecureBytes(utf8: "x"),
                salt: KeyDerivation.randomSalt(),
                parameters: KeyDerivationParameters(opsLimit: 0, memLimit: 0)
            )
        }
    }
}

struct KeyWrappingTests {
    let kek = SecureBytes.random(count: 32)
    let key = SecureBytes.random(count: 32)
    let ad = Array("healthvault keyring v1 database".utf8)

    @Test func wrappedKeyUnwrapsWithTheSameKeyAndAssociatedData() throws {
        let wrapped = try WrappedKey.wrap(key, with: kek, associatedData: ad)
        #expect(wrapped.nonce.count == 24)
        #expect(wrapped.ciphertext.count == 48)
        #expect(try wrapped.unwrap(with: kek, associatedData: ad).constantTimeEquals(key))
    }

    @Test func wrongKeyOtherAssociatedDataOrAFlippedByteFailAuthentication() throws {
        let wrapped = try WrappedKey.wrap(key, with: kek, associatedData: ad)
        func fails(_ body: () throws -> Void) {
            let error = #expect(throws: CryptoError.self) { try body() }
            #expect(error?.code == .authenticationFailed)
        }
        fails { _ = try wrapped.unwrap(with: SecureBytes.random(count: 32), associatedData: ad) }
        fails { _ = try wrapped.unwrap(with: kek, associatedData: ad + [0]) }
        var flipped = wrapped.ciphertext
        flipped[5] ^= 0x01
        fails { _ = try WrappedKey(nonce: wrapped.nonce, ciphertext: flipped).unwrap(with: kek, associatedData: ad) }
        #expect(throws: CryptoError.self) {
            _ = try WrappedKey(nonce: [1], ciphertext: wrapped.ciphertext).unwrap(with: kek, associatedData: ad)
        }
    }
}

struct Ed25519Tests {
    /// RFC 8032, section 7.1, TEST 1.
    @Test func signsRFC8032TestVectorOne() throws {
        let seed = bytes(hex: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
        let publicKey = bytes(hex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let key = try Ed25519.SigningKey(secretKey: SecureBytes(copying: seed + publicKey))
        #expect(key.publicKey.rawRepresentation == publicKey)
        let signature = key.signature(for: [UInt8]())
        #expect(
            hex(signature)
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
                + "d25bf5f0595bbe24655141438e7a100b"
        )
        #expect(key.publicKey.isValidSignature(signature, for: [UInt8]()))
    }

    @Test func signatureFailsForAnotherMessageOrKey() throws {
        let key = Ed25519.SigningKey()
        let message = Array("checkpoint 42".utf8)
        let signature = key.signature(for: message)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: Array("checkpoint 43".utf8)))
        #expect(!Ed25519.SigningKey().publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(Array(signature.dropLast()), for: message))
        #expect(throws: CryptoError.self) { _ = try Ed25519.PublicKey(rawRepresentation: [1, 2]) }
    }
}

struct SHA256Tests {
    @Test func matchesFIPS180Vectors() {
        #expect(hex(SHA256.hash(data: [UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex(SHA256.hash(data: Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        var hasher = SHA256()
        hasher.update(data: Array("ab".utf8))
        hasher.update(data: Array("c".utf8))
        #expect(hex(hasher.finalize()) == hex(SHA256.hash(data: Array("abc".utf8))))
    }
}

struct TokenSealerTests {
    @Test func tokensAreDeterministicAndOpenOnlyForTheirKeyAndData() throws {
        let key = SecureBytes.random(count: 32)
        let sealer = try TokenSealer(masterKey: key, context: "hvanchor")
        let value: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let ad = Array("app:org.example".utf8)
        let token = sealer.seal(value, associatedData: ad)
        // The same value and data: the same token; another value or data: another.
        #expect(sealer.seal(value, associatedData: ad) == token)
        #expect(sealer.seal([1, 2, 3, 4, 5, 6, 7, 9], associatedData: ad) != token)
        #expect(sealer.seal(value, associatedData: Array("app:org.other".utf8)) != token)
        #expect(token.count == 24 + value.count + 16)
        #expect(sealer.open(token, associatedData: ad) == value)
        // A value cannot be read from its token.
        #expect(!token.indices.dropLast(value.count - 1).contains { Array(token[$0..<$0 + value.count]) == value })

        // Other data, another key, another context, any byte changed, or cut short: nothing.
        #expect(sealer.open(token, associatedData: Array("app:org.other".utf8)) == nil)
        #expect(
            try TokenSealer(masterKey: SecureBytes.random(count: 32), context: "hvanchor").open(
                token,
                associatedData: ad
            ) == nil
        )
        #expect(try TokenSealer(masterKey: key, context: "hvother1").open(token, associatedData: ad) == nil)
        for index in token.indices {
            var altered = token
            altered[index] ^= 0x01
            #expect(sealer.open(altered, associatedData: ad) == nil, "byte \(index)")
        }
        #expect(sealer.open(Array(token.dropLast()), associatedData: ad) == nil)
        #expect(sealer.open(Array(token.prefix(40)), associatedData: ad) == nil)
        #expect(sealer.open([], associatedData: ad) == nil)
        #expect(throws: CryptoError.self) {
            _ = try TokenSealer(masterKey: SecureBytes.random(count: 16), context: "hvanchor")
        }
    }
}
