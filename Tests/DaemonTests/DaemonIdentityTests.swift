import CommandSupport
import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import ProcessTestSupport
import Testing
import VaultClient
import VaultCrypto
import VaultProtocol

extension DaemonEndToEnd {
    /// Who may connect: the peer's uid, then the challenge-response. Every refusal is the same
    /// answer, closes the connection, and is audited.
    @Suite struct DaemonIdentityTests {
        /// Sends `authenticate` for `appID` signed with `key` over `nonce` and `connection` (from
        /// whichever hello the test chooses) and returns the answer and whether the daemon then closed.
        func authenticate(
            _ socket: RawSocket,
            app appID: String?,
            key: Ed25519.SigningKey,
            nonce: [UInt8],
            connection: UUID,
            version: UInt32 = WireProtocol.version
        ) async -> (answer: [String: Any]?, closed: Bool) {
            let message = WireProtocol.signedMessage(
                version: version,
                nonce: nonce,
                identity: appID ?? "",
                connectionID: connection
            )
            let signature = Data(key.signature(for: message)).base64EncodedString()
            var params: [String: Any] = ["version": version, "signature": signature]
            if let appID { params["app"] = appID } else { params["owner"] = true }
            let request: [String: Any] = ["jsonrpc": "2.0", "id": 1, "method": "authenticate", "params": params]
            socket.sendFrame(Array(try! JSONSerialization.data(withJSONObject: request)))
            let answer = await socket.readFrame()
            return (answer, await socket.isClosedByPeer)
        }

        func hello(_ socket: RawSocket) async throws -> (nonce: [UInt8], connection: UUID) {
            let hello = try #require(await socket.readFrame())
            #expect(hello["method"] as? String == "hello")
            let params = try #require(hello["params"] as? [String: Any])
            #expect(params["protocol"] as? String == "healthvault")
            #expect(params["version"] as? Int == 1)
            let nonce = try #require(Data(base64Encoded: params["nonce"] as? String ?? ""))
            #expect(nonce.count == 32)
            let connection = try #require(UUID(uuidString: params["connection"] as? String ?? ""))
            return (Array(nonce), connection)
        }

        @Test func spoofedIdentitiesAreRefusedAlikeClosedAndAudited() async throws {
            let daemon = try TestDaemon(["--authentication-timeout", "3"])
            let keyPath = try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            let key = try KeyFiles.readPrivateKey(keyPath)
            let stranger = Ed25519.SigningKey()

            // The right key on the right challenge is accepted.
            let good = try RawSocket(path: daemon.socketPath)
            let (nonce, connection) = try await hello(good)
            let accepted = await authenticate(
                good,
                app: "org.example.app",
                key: key,
                nonce: nonce,
                connection: connection
            )
            #expect((accepted.answer?["result"] as? [String: Any])?["role"] as? String == "app")

            /// A new connection answering its own hello's challenge, or, with `replaying`, the first
            /// connection's; `delay` before answering.
            func attempt(
                _ name: String,
                app: String?,
                key: Ed25519.SigningKey,
                version: UInt32 = WireProtocol.version,
                replaying: Bool = false,
                delay: Duration = .zero
            ) async throws -> (String, [String: Any]?, Bool) {
                let socket = try RawSocket(path: daemon.socketPath)
                let own = try await hello(socket)
                try await Task.sleep(for: delay)
                let challenge = replaying ? (nonce, connection) : own
                let result = await authenticate(
                    socket,
                    app: app,
                    key: key,
                    nonce: challenge.0,
                    connection: challenge.1,
                    version: version
                )
                return (name, result.answer, result.closed)
            }
            var refusals = [
                try await attempt("wrong key", app: "org.example.app", key: stranger),
                try await attempt("unknown app", app: "org.example.unknown", key: stranger),
                try await attempt("replay", app: "org.example.app", key: key, replaying: true),
                try await attempt("version", app: "org.example.app", key: key, version: 2),
                // An app claiming to be the owner with its own key.
                try await attempt("owner", app: nil, key: key),
            ]
            // A late answer: right key, right challenge, after the authentication timeout. The
            // daemon refused at the deadline (id null) and closed; the late answer got nothing more.
            let late = try await attempt("late", app: "org.example.app", key: key, delay: .milliseconds(3500))
            refusals.append((late.0, late.1, late.2 || late.1 == nil))
            for (name, answer, closed) in refusals {
                #expect(answer?.errorCode == RPCError.authenticationFailed, "\(name)")
                #expect(answer?.errorMessage == "authentication failed", "\(name)")
                #expect(closed, "\(name): the connection stays open")
            }

            // The accepted connection still works; every refusal is in the log.
            good.sendFrame(
                #"{"jsonrpc":"2.0","id":2,"method":"authorization.status","params":{"type":"HKQuantityTypeIdentifierStepCount"}}"#
            )
            #expect((await good.readFrame()?["result"] as? [String: Any])?["status"] as? String == "notDetermined")
            let failures = try await daemon.auditEntries(operation: "authentication.failure")
            #expect(failures.count == refusals.count)
            #expect(failures.filter { $0.actor == "org.example.unknown" }.count == 1)
            #expect(failures.allSatisfy { $0.outcome == "denied" })
        }

        /// Another user's process is refused on its uid before any challenge, and audited. It needs
        /// root (to run a client as another user, with the socket opened up for it), setpriv and the
        /// system's /usr/bin/python3 (installed by make deps).
        @Test(
            .enabled(
                if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                    && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
                "needs root, /usr/bin/setpriv and /usr/bin/python3"
            )
        )
        func aUserNotAllowedIsRefusedBeforeAnyChallenge() async throws {
            let daemon = try TestDaemon()
            // Only the daemon's uid check stands between that user and the vault now.
            chmod(daemon.directory.deletingLastPathComponent().path, 0o755)
            chmod(daemon.directory.path, 0o755)
            chmod(daemon.socketPath, 0o777)
            let client = """
                import socket, struct, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(sys.argv[1])
                s.settimeout(5)
                def exactly(n):
                    data = b""
                    while len(data) < n:
                        chunk = s.recv(n - len(data))
                        if not chunk:
                            return None
                        data += chunk
                    return data
                header = exactly(4)
                print(exactly(struct.unpack(">I", header)[0]).decode() if header else "")
                print("closed" if s.recv(1) == b"" else "open")
                """
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", client, daemon.socketPath,
            ]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(text)")
            let answer = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
            #expect(answer?.errorCode == RPCError.authenticationFailed, "no hello, only the refusal")
            #expect(lines.last == "closed")
            let failures = try await daemon.auditEntries(operation: "authentication.failure")
            #expect(failures.count == 1 && failures.first?.actor == "system")
            #expect(daemon.logText.contains("refused a connection from uid 65534"))
        }

        @Test func aSecondDaemonOnTheSameVaultRefusesToStart() async throws {
            let daemon = try TestDaemon()
            let (status, message) = try daemon.runAnotherDaemon()
            #expect(status != 0)
            #expect(message.contains("another healthvaultd is serving"))
            // The first one is unharmed.
            let owner = try await daemon.owner()
            #expect(try await owner.call(Method.status, Empty(), as: StatusResult.self).locked == false)
            owner.close()
        }

        @Test func aVaultHeldByAnotherProgramIsSaidByThatProgramsName() throws {
            // The lock held by a program that is no daemon (as an owner's restore holds it while it
            // asks): a daemon starting then names that program, not "another healthvaultd".
            let daemon = try TestDaemon()
            daemon.stop()
            let lock = daemon.directory.appendingPathComponent("healthvaultd.lock").path
            let holder = ChildProcess()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            holder.arguments = [lock, "sleep", "30"]
            try holder.run()
            defer {
                kill(holder.processIdentifier, SIGTERM)
                holder.waitUntilExit()
            }
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let probe = open(lock, O_RDONLY)
                let held = flock(probe, LOCK_EX | LOCK_NB) != 0
                close(probe)
                if held { break }
                usleep(20_000)
            }
            try "\(holder.processIdentifier)\n".write(toFile: lock, atomically: false, encoding: .utf8)
            let (status, message) = try daemon.runAnotherDaemon()
            #expect(status != 0)
            #expect(
                message.contains("flock (pid \(holder.processIdentifier)) has \(daemon.directory.path) open"),
                "\(message)"
            )
        }

        @Test func aWrongPassphraseStopsTheDaemonWithOneLine() throws {
            let daemon = try TestDaemon(start: false)
            try TestDaemon.writePassphraseFile("not the passphrase", to: daemon.passphraseFile)
            let (status, message) = try daemon.runAnotherDaemon()
            #expect(status != 0)
            #expect(message.split(separator: "\n").count == 1)
            #expect(message.contains("passphrase"))
        }

        @Test func theOwnerCanLockAndUnlockAndAppsSeeALockedVault() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            let owner = try await daemon.owner()
            _ = try await owner.call(Method.lock, Empty(), as: Empty.self)
            do {
                _ = try await daemon.store("org.example.app")
                Issue.record("an app authenticated against a locked vault")
            } catch let error as HealthError {
                #expect(error.code == .databaseInaccessible)
            }
            let wrong = PassphraseParams(passphrase: Data("nope".utf8).base64EncodedString())
            await #expect(throws: RPCError.self) { try await owner.call(Method.unlock, wrong, as: Empty.self) }
            let right = PassphraseParams(passphrase: Data(TestDaemon.passphrase.utf8).base64EncodedString())
            _ = try await owner.call(Method.unlock, right, as: Empty.self)
            let store = try await daemon.store("org.example.app")
            #expect(try await store.authorizationStatus(for: ObjectType(steps)) == .notDetermined)
            await store.close()
            // The daemon's open at start and the owner's unlock are both in the log; the wrong
            // passphrase opened nothing and wrote nothing.
            let unlocks = try await owner.call(
                Method.auditEntries,
                AuditEntriesParams(operation: "vault.unlock"),
                as: AuditEntriesResult.self
            )
            #expect(unlocks.entries.map(\.actor) == ["system", "owner"], "\(unlocks.entries)")
            // Every time in the answer to the millisecond, as the log keeps it: three digits.
            let raw = String(
                decoding: try await owner.rawCall(Method.auditEntries, AuditEntriesParams()),
                as: UTF8.self
            )
            let times = raw.components(separatedBy: #""time":""#).dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(times.count > 4)
            for time in times {
                #expect(time.count == 24 && Array(time)[19] == "." && time.hasSuffix("Z"), "\(time)")
            }
            owner.close()
        }
    }
}
