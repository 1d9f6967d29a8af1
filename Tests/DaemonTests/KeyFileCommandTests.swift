import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import Testing
import VaultClient
import VaultCrypto
import VaultProtocol

extension DaemonEndToEnd {
    /// Issue 22: `apps keygen` checks first and writes both key files or neither, making missing
    /// folders owner-only; key files say what they are, and `apps enroll --key` refuses a private
    /// key (typed, or untyped as older versions wrote it) while still taking older public keys.
    @Suite struct KeyFileCommandTests {
        static let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("policies/apps/org.example.stepcounter.json").path

        static func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }

        static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

        @Test func keygenChecksEverythingFirstAndWritesBothFilesOrNeither() throws {
            let root = try #require(mkdtemp(strdup("/tmp/hvk.XXXXXX")).map { String(cString: $0) })
            defer { try? FileManager.default.removeItem(atPath: root) }

            // The public key's file exists: nothing is written, no orphan private key.
            try Data("someone's\n".utf8).write(to: URL(fileURLWithPath: root + "/taken.pub"))
            let taken = try CLITests.healthvault([
                "apps", "keygen", "--private-key", root + "/a.key", "--public-key", root + "/taken.pub",
            ])
            #expect(taken.status == 1 && taken.err.contains("taken.pub already exists"), "\(taken.err)")
            #expect(taken.err.contains("nothing was written"), "\(taken.err)")
            #expect(!Self.exists(root + "/a.key"))
            #expect(try String(contentsOfFile: root + "/taken.pub", encoding: .utf8) == "someone's\n")

            // The public key's folder cannot be made (a file is in the way): nothing, no folders.
            try Data().write(to: URL(fileURLWithPath: root + "/plain"))
            let blocked = try CLITests.healthvault([
                "apps", "keygen", "--private-key", root + "/fresh/a.key", "--public-key", root + "/plain/a.pub",
            ])
            #expect(blocked.status == 1 && blocked.err.contains("is a file"), "\(blocked.err)")
            #expect(!Self.exists(root + "/fresh"))

            // One path for both is refused.
            let same = try CLITests.healthvault([
                "apps", "keygen", "--private-key", root + "/same", "--public-key", root + "/same",
            ])
            #expect(same.status == 1 && !Self.exists(root + "/same"), "\(same.err)")

            // Folders that do not exist are made owner-only, as a fresh account needs.
            let privateKey = root + "/home/.config/stepcounter/app.key"
            let publicKey = root + "/keys/stepcounter.pub"
            let made = try CLITests.healthvault([
                "apps", "keygen", "--private-key", privateKey, "--public-key", publicKey,
            ])
            #expect(made.status == 0, "\(made.err)")
            for folder in ["/home", "/home/.config", "/home/.config/stepcounter", "/keys"] {
                #expect(try Self.mode(root + folder) == 0o700, "\(folder)")
            }
            #expect(try Self.mode(privateKey) == 0o600)
            #expect(try Self.mode(publicKey) == 0o644)
            // Each says what it is.
            let privateText = try String(contentsOfFile: privateKey, encoding: .utf8)
            let lines = privateText.split(separator: "\n")
            #expect(lines.count == 3 && privateText.hasSuffix("\n"))
            #expect(lines.first == "-----BEGIN HEALTHVAULT ED25519 PRIVATE KEY-----")
            #expect(lines.last == "-----END HEALTHVAULT ED25519 PRIVATE KEY-----")
            let key = try PrivateKeyFile.read(privateKey)
            let publicText = try String(contentsOfFile: publicKey, encoding: .utf8)
            #expect(
                publicText
                    == "healthvault-ed25519-public \(Data(key.publicKey.rawRepresentation).base64EncodedString())\n"
            )
            #expect(
                try (FileManager.default.contentsOfDirectory(atPath: root + "/keys")) == ["stepcounter.pub"],
                "no temporary file is left"
            )
        }

        @Test func enrollRefusesAPrivateKeyAndStillTakesOlderPublicKeys() async throws {
            let daemon = try TestDaemon()
            let root = daemon.directory.deletingLastPathComponent().path
            let vault = ["--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile]
            #expect(
                try CLITests.healthvault([
                    "apps", "keygen", "--private-key", root + "/app.key", "--public-key", root + "/app.pub",
                ])
                .status == 0
            )
            func enroll(_ keyFile: String) throws -> (status: Int32, out: String, err: String) {
                try CLITests.healthvault(["apps", "enroll", Self.manifest, "--key", keyFile] + vault)
            }
            func enrolled() throws -> Bool {
                try CLITests.healthvault(["apps", "list", "--json"] + vault).out.contains("org.example.stepcounter")
            }

            // The typed private key: refused, nothing stored.
            let typed = try enroll(root + "/app.key")
            #expect(typed.status == 1 && typed.err.contains("is an app's PRIVATE key"), "\(typed.err)")
            #expect(try !enrolled())

            // Older untyped files, written as older versions wrote them (0600 private, 0644 public).
            func untyped(_ name: String, _ bytes: [UInt8], mode: mode_t) throws -> String {
                let path = root + "/" + name
                try Data((Data(bytes).base64EncodedString() + "\n").utf8).write(to: URL(fileURLWithPath: path))
                chmod(path, mode)
                return path
            }
            // Seeds whose 32 bytes are no point of the curve (most), and one that is (1 in 16).
            var offCurve: Ed25519.SigningKey?
            var onCurve: Ed25519.SigningKey?
            while offCurve == nil || onCurve == nil {
                let candidate = Ed25519.SigningKey()
                let seedBytes = candidate.seed.withUnsafeBytes { Array($0) }
                if try Ed25519.PublicKey(rawRepresentation: seedBytes).isValidPoint {
                    onCurve = onCurve ?? candidate
                } else {
                    offCurve = offCurve ?? candidate
                }
            }
            let seedOff = try #require(offCurve).seed.withUnsafeBytes { Array($0) }
            let seedOn = try #require(onCurve).seed.withUnsafeBytes { Array($0) }
            let refusals: [(String, String)] = [
                (try untyped("old-off.key", seedOff, mode: 0o600), "no point of the curve"),
                (try untyped("old-on.key", seedOn, mode: 0o600), "only its owner may read"),
                (
                    try untyped(
                        "secret64.key",
                        seedOn + (try #require(onCurve)).publicKey.rawRepresentation,
                        mode: 0o600
                    ),
                    "64 bytes"
                ),
            ]
            for (file, reason) in refusals {
                let result = try enroll(file)
                #expect(result.status == 1 && result.err.contains(reason), "\(file): \(result.err)")
                #expect(!result.err.contains(Data(seedOn).base64EncodedString()), "the secret is not repeated")
            }
            #expect(try !enrolled())

            // An older public key file is taken, and the app then signs with its older private key.
            let app = Ed25519.SigningKey()
            let oldPublic = try untyped("old.pub", app.publicKey.rawRepresentation, mode: 0o644)
            let oldPrivate = try untyped("old.key", app.seed.withUnsafeBytes { Array($0) }, mode: 0o600)
            let accepted = try enroll(oldPublic)
            #expect(accepted.status == 0, "\(accepted.err)")
            let shown = try CLITests.healthvault(["apps", "show", "org.example.stepcounter"] + vault)
            #expect(shown.out.contains(Data(app.publicKey.rawRepresentation).base64EncodedString()))
            let store = try await HealthStore(
                appID: "org.example.stepcounter",
                keyFile: oldPrivate,
                vaultDirectory: daemon.directory.path
            )
            await store.close()

            // HealthStore given the public key file says so.
            let typedPublic = root + "/typed.pub"
            try Data(
                ("healthvault-ed25519-public " + Data(app.publicKey.rawRepresentation).base64EncodedString() + "\n")
                    .utf8
            )
            .write(to: URL(fileURLWithPath: typedPublic))
            chmod(typedPublic, 0o600)
            do {
                _ = try await HealthStore(
                    appID: "org.example.stepcounter",
                    keyFile: typedPublic,
                    vaultDirectory: daemon.directory.path
                )
                Issue.record("a public key file opened a HealthStore")
            } catch let error as HealthError {
                #expect(error.message.contains("is an app's public key"), "\(error)")
            }

            // The daemon refuses 32 bytes that are no point of the curve from any client.
            await #expect(throws: RPCError.self) {
                try await daemon.ownerCall(
                    Method.appsEnroll,
                    EnrollParams(
                        manifest: try String(contentsOfFile: Self.manifest, encoding: .utf8)
                            .replacingOccurrences(of: "org.example.stepcounter", with: "org.example.other"),
                        file: "other.json",
                        publicKey: Data(seedOff).base64EncodedString(),
                        adoptExistingSamples: nil
                    ),
                    as: AppInfo.self
                )
            }
        }
    }
}
