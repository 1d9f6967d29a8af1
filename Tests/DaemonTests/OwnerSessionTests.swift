import CommandSupport
import Foundation
import Glibc
import ProcessTestSupport
import Testing
import VaultClient
import VaultCrypto
import VaultProtocol

extension DaemonEndToEnd {
    /// `healthvault login` and `logout` through the real binaries: one passphrase, then owner
    /// commands with none (no terminal, no passphrase option) until the session ends.
    @Suite struct OwnerSessionTests {
        /// A daemon and a runtime folder (0700) for the owner's session.
        struct Setup {
            let daemon: TestDaemon
            let runtime: String

            init(_ arguments: [String] = []) throws {
                daemon = try TestDaemon(arguments)
                runtime = daemon.directory.deletingLastPathComponent().path + "/run"
                #expect(mkdir(runtime, 0o700) == 0)
            }

            var sessionFolder: String { runtime + "/healthvault" }

            var sessionFile: String? {
                (try? FileManager.default.contentsOfDirectory(atPath: sessionFolder))?
                    .first { $0.hasPrefix("session-") && !$0.hasSuffix(".new") }
                    .map { sessionFolder + "/" + $0 }
            }

            /// Runs healthvault on the vault without a controlling terminal (setsid) and with
            /// stdin closed; `passphrase` adds --passphrase-file.
            @discardableResult
            func healthvault(
                _ arguments: [String],
                passphrase: Bool = false,
                launcher: [String] = []
            ) throws -> (status: Int32, out: String, err: String) {
                let command =
                    launcher + ["/usr/bin/setsid", "--wait", TestDaemon.binary("healthvault")] + arguments
                    + ["--vault", daemon.directory.path]
                    + (passphrase ? ["--passphrase-file", daemon.passphraseFile] : [])
                return try runProcess(
                    command,
                    environment: ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
                )
            }

            func mode(_ path: String) -> Int? {
                (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int
            }
        }

        @Test func oneLoginThenCommandsNeedNoPassphraseUntilLogout() async throws {
            let setup = try Setup()
            // Without a session, a script's owner command cannot prove anything.
            let before = try setup.healthvault(["apps", "list"])
            #expect(before.status != 0 && before.err.contains("passphrase"), "\(before)")

            let login = try setup.healthvault(["login", "--for", "10m"], passphrase: true)
            #expect(login.status == 0, "\(login)")
            #expect(login.out.contains("Logged in to"))
            let file = try #require(setup.sessionFile)
            #expect(setup.mode(setup.sessionFolder) == 0o700)
            #expect(setup.mode(file) == 0o600)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!text.contains(TestDaemon.passphrase))
            #expect(text.range(of: "token [0-9a-f]{64}\n", options: .regularExpression) != nil, "\(text)")

            for arguments in [["apps", "list"], ["status", "--detail"], ["requests", "list"], ["apps", "list"]] {
                let run = try setup.healthvault(arguments)
                #expect(run.status == 0, "\(arguments): \(run)")
            }
            let detail = try setup.healthvault(["status", "--detail"])
            #expect(detail.out.contains("locked       no"))

            let logout = try setup.healthvault(["logout"])
            #expect(logout.status == 0 && logout.out.contains("Logged out of"), "\(logout)")
            #expect(setup.sessionFile == nil)
            let after = try setup.healthvault(["apps", "list"])
            #expect(after.status != 0 && after.err.contains("passphrase"), "\(after)")
            #expect(try setup.healthvault(["logout"]).out.contains("No session"))

            // The log holds the login and the logout as the owner's, never the token.
            let entries = try await setup.daemon.auditEntries()
            let opened = entries.filter { $0.operation == "session.open" }
            let closed = entries.filter { $0.operation == "session.close" }
            #expect(opened.count == 1 && opened.first?.actor == "owner" && opened.first?.outcome == "ok")
            #expect(closed.count == 1 && closed.first?.actor == "owner")
            let token = String(text.split(separator: "\n").first { $0.hasPrefix("token ") }?.dropFirst(6) ?? "")
            #expect(!token.isEmpty && !entries.contains { $0.request.contains(token) || $0.types.contains(token) })
            #expect(!setup.daemon.logText.contains(token))
        }

        @Test func anExpiredSessionIsForgottenByTheDaemonAndTheCommand() async throws {
            let setup = try Setup()
            #expect(try setup.healthvault(["login", "--for", "2s"], passphrase: true).status == 0)
            #expect(try setup.healthvault(["apps", "list"]).status == 0)
            // The file claims a later expiry: only the daemon's own clock can refuse it now.
            let file = try #require(setup.sessionFile)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let later =
                text.split(separator: "\n").map {
                    $0.hasPrefix("expires ") ? "expires \(Int(Date().timeIntervalSince1970) + 3600)" : String($0)
                }.joined(separator: "\n") + "\n"
            try later.write(toFile: file, atomically: false, encoding: .utf8)
            sleep(3)
            let expired = try setup.healthvault(["apps", "list"])
            #expect(expired.status != 0, "\(expired)")
            #expect(expired.err.contains("no longer knows the session"), "\(expired.err)")
            #expect(expired.err.contains("--passphrase-file"), "says how to give it in a script: \(expired.err)")
            #expect(setup.sessionFile == nil, "the dead session's file is removed")

            // The command's own clock: an expired file is not even presented.
            #expect(try setup.healthvault(["login", "--for", "2s"], passphrase: true).status == 0)
            sleep(3)
            let again = try setup.healthvault(["apps", "list"])
            #expect(again.status != 0 && again.err.contains("the session of `healthvault login` has ended"), "\(again)")
            #expect(again.err.contains("--passphrase-file"), "\(again.err)")
            #expect(setup.sessionFile == nil)
            // With the passphrase given, the command works as before.
            #expect(try setup.healthvault(["apps", "list"], passphrase: true).status == 0)
        }

        @Test func aSessionFileOrFolderOthersCouldUseIsRefused() throws {
            let setup = try Setup()
            #expect(try setup.healthvault(["login"], passphrase: true).status == 0)
            let file = try #require(setup.sessionFile)

            chmod(file, 0o644)
            let readable = try setup.healthvault(["apps", "list"])
            #expect(readable.status != 0, "\(readable)")
            #expect(
                readable.err.contains("refusing the session file") && readable.err.contains("644"),
                "\(readable.err)"
            )
            chmod(file, 0o600)
            #expect(try setup.healthvault(["apps", "list"]).status == 0)

            chmod(setup.sessionFolder, 0o755)
            let folder = try setup.healthvault(["apps", "list"])
            #expect(folder.status != 0 && folder.err.contains("refusing the session folder"), "\(folder.err)")
            // login checks the folder before it asks anything.
            let login = try setup.healthvault(["login"], passphrase: true)
            #expect(login.status != 0 && login.err.contains("refusing the session folder"), "\(login.err)")
            chmod(setup.sessionFolder, 0o700)

            if getuid() == 0 {
                chown(file, 65534, 65534)
                let owned = try setup.healthvault(["apps", "list"])
                #expect(owned.status != 0 && owned.err.contains("belongs to uid 65534"), "\(owned.err)")
                chown(file, 0, 0)
            }
            symlink(file, file + "-link")
            rename(file, file + "-real")
            symlink(file + "-real", file)
            let link = try setup.healthvault(["apps", "list"])
            #expect(
                link.status != 0 && link.err.contains("session file"),
                "a symbolic link is not followed: \(link.err)"
            )
        }

        /// At a terminal: no prompt while the session lasts; after logout the passphrase is asked again.
        @Test func atATerminalTheSessionSkipsThePromptAndLogoutBringsItBack() throws {
            let setup = try Setup()
            #expect(try setup.healthvault(["login"], passphrase: true).status == 0)
            let environment = ["XDG_RUNTIME_DIR": setup.runtime]
            let arguments = ["apps", "list", "--vault", setup.daemon.directory.path]
            let during = try TerminalProcess(TestDaemon.binary("healthvault"), arguments, environment: environment)
            let status = try #require(during.wait())
            #expect(TerminalProcess.exitCode(status) == 0, "\(during.output)")
            #expect(!during.output.contains("Passphrase"), "\(during.output)")
            #expect(during.output.contains("No apps are enrolled"), "\(during.output)")

            #expect(try setup.healthvault(["logout"]).status == 0)
            let after = try TerminalProcess(TestDaemon.binary("healthvault"), arguments, environment: environment)
            #expect(after.waitFor("Passphrase for \(setup.daemon.directory.path)"), "\(after.output)")
            after.type(TestDaemon.passphrase + "\n")
            let asked = try #require(after.wait())
            #expect(TerminalProcess.exitCode(asked) == 0, "\(after.output)")
        }

        @Test func loginAndLogoutSayWhatTheyDidInJSON() throws {
            let setup = try Setup()
            let login = try setup.healthvault(["login", "--for", "90s", "--json"], passphrase: true)
            #expect(login.status == 0 && login.out.split(separator: "\n").count == 1, "\(login)")
            let object = try JSONSerialization.jsonObject(with: Data(login.out.utf8)) as? [String: Any]
            #expect(object?["seconds"] as? Int == 90)
            #expect(object?["directory"] as? String == setup.daemon.directory.path)
            #expect(
                (object?["expires"] as? String).flatMap { ISO8601DateFormatter.withFractions.date(from: $0) } != nil,
                "\(login.out)"
            )
            let logout = try setup.healthvault(["logout", "--json"])
            let ended = try JSONSerialization.jsonObject(with: Data(logout.out.utf8)) as? [String: Any]
            #expect(ended?["session"] as? Bool == true && ended?["ended"] as? Bool == true, "\(logout.out)")
            let none = try setup.healthvault(["logout", "--json"])
            let nothing = try JSONSerialization.jsonObject(with: Data(none.out.utf8)) as? [String: Any]
            #expect(nothing?["session"] as? Bool == false && nothing?["ended"] == nil, "\(none.out)")
        }

        @Test func aSessionLengthIsCheckedWithItsOptionsName() throws {
            let setup = try Setup()
            for length in ["2h30m", "0s", "25h", "-5m", "1w"] {
                let run = try setup.healthvault(["login", "--for=\(length)"], passphrase: true)
                #expect(run.status != 0 && run.err.contains("--for \(length) is not a session length"), "\(run.err)")
            }
            #expect(setup.sessionFile == nil)
            #expect(try setup.healthvault(["login", "--for", "1d"], passphrase: true).status == 0)
        }

        @Test func aRestartedDaemonKnowsNoSession() async throws {
            let setup = try Setup()
            #expect(try setup.healthvault(["login", "--for", "1h"], passphrase: true).status == 0)
            #expect(try setup.healthvault(["apps", "list"]).status == 0)
            setup.daemon.stop()
            try setup.daemon.start()
            let after = try setup.healthvault(["apps", "list"])
            #expect(after.status != 0 && after.err.contains("no longer knows the session"), "\(after)")
            #expect(setup.sessionFile == nil)
        }

        @Test func lockEndsEverySession() async throws {
            let setup = try Setup()
            #expect(try setup.healthvault(["login"], passphrase: true).status == 0)
            let file = try #require(setup.sessionFile)
            let saved = try Data(contentsOf: URL(fileURLWithPath: file))
            let lock = try setup.healthvault(["lock"])
            #expect(lock.status == 0, "the session locks without a passphrase: \(lock)")
            #expect(setup.sessionFile == nil)
            #expect(try setup.healthvault(["unlock"], passphrase: true).status == 0)
            // The token kept aside is dead in the daemon too.
            try saved.write(to: URL(fileURLWithPath: file))
            chmod(file, 0o600)
            let after = try setup.healthvault(["apps", "list"])
            #expect(after.status != 0 && after.err.contains("no longer knows the session"), "\(after)")
        }

        @Test func aSessionCannotOpenAnotherAndTheDaemonChecksItsLength() async throws {
            let daemon = try TestDaemon()
            let owner = try await daemon.owner()
            await #expect(throws: RPCError.self) {
                _ = try await owner.call(Method.sessionOpen, SessionOpenParams(seconds: 0), as: SessionOpenResult.self)
            }
            await #expect(throws: RPCError.self) {
                _ = try await owner.call(
                    Method.sessionOpen,
                    SessionOpenParams(seconds: 86_401),
                    as: SessionOpenResult.self
                )
            }
            let opened = try await owner.call(
                Method.sessionOpen,
                SessionOpenParams(seconds: 60),
                as: SessionOpenResult.self
            )
            await owner.closeAndWait()
            #expect(opened.token.range(of: "^[0-9a-f]{64}$", options: .regularExpression) != nil)
            let token = try #require(SessionFile.token(hex: opened.token))
            let session = try await VaultConnection.connect(
                socketPath: daemon.socketPath,
                identity: .ownerSession(token: token)
            )
            let error = await #expect(throws: RPCError.self) {
                _ = try await session.call(
                    Method.sessionOpen,
                    SessionOpenParams(seconds: 60),
                    as: SessionOpenResult.self
                )
            }
            #expect(error?.message.contains("a session cannot open another") == true)
            await session.closeAndWait()
            // A token one bit off is refused.
            var other = Array(opened.token)
            other[0] = other[0] == "0" ? "1" : "0"
            let wrong = try #require(SessionFile.token(hex: String(other)))
            await #expect(throws: (any Error).self) {
                _ = try await VaultConnection.connect(
                    socketPath: daemon.socketPath,
                    identity: .ownerSession(token: wrong)
                )
            }
        }

        /// The token is bound to the uid it was issued to: another user allowed by the daemon
        /// cannot use it. Needs root, setpriv and python3 (as the identity tests).
        @Test(
            .enabled(
                if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                    && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
                "needs root, /usr/bin/setpriv and /usr/bin/python3"
            )
        )
        func aTokenIsUselessFromAnotherUID() async throws {
            let daemon = try TestDaemon(["--allowed-uid", "65534"])
            chmod(daemon.directory.deletingLastPathComponent().path, 0o755)
            chmod(daemon.directory.path, 0o755)
            let owner = try await daemon.owner()
            // Once it answers, the daemon has made its socket 0600 (right after binding it); only
            // now can the test open it to the other user without the daemon undoing that (seen
            // in CI on a loaded machine: the socket 0600 again, the connection refused).
            chmod(daemon.socketPath, 0o777)
            let opened = try await owner.call(
                Method.sessionOpen,
                SessionOpenParams(seconds: 60),
                as: SessionOpenResult.self
            )
            await owner.closeAndWait()
            let client = """
                import json, socket, struct, sys
                try:
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    s.connect(sys.argv[1])
                    s.settimeout(5)
                    def exactly(n):
                        data = b""
                        while len(data) < n:
                            chunk = s.recv(n - len(data))
                            if not chunk:
                                raise EOFError("closed after %d of %d bytes" % (len(data), n))
                            data += chunk
                        return data
                    def frame():
                        return json.loads(exactly(struct.unpack(">I", exactly(4))[0]))
                    hello = frame()
                    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "authenticate",
                        "params": {"version": 1, "owner": True, "session": sys.argv[2]}}).encode()
                    s.sendall(struct.pack(">I", len(body)) + body)
                    print(json.dumps(frame()))
                except Exception as error:
                    print(json.dumps({"exception": repr(error)}))
                """
            func authenticate(as launcher: [String]) throws -> [String: Any]? {
                let process = ChildProcess()
                let command = launcher + ["/usr/bin/python3", "-c", client, daemon.socketPath, opened.token]
                process.executableURL = URL(fileURLWithPath: command[0])
                process.arguments = Array(command.dropFirst())
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                try process.run()
                let data = output.fileHandleForReading.readDataToEndOfFile()
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                let answer = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                #expect(answer != nil, "python3 as \(launcher): \(String(decoding: data, as: UTF8.self)) \(message)")
                return answer
            }
            let nobody = try authenticate(as: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
            #expect(nobody?.errorCode == RPCError.authenticationFailed, "\(String(describing: nobody))")
            // The same frame from the uid it was issued to is accepted: the refusal was the uid's.
            let root = try authenticate(as: [])
            #expect((root?["result"] as? [String: Any])?["role"] as? String == "owner", "\(String(describing: root))")
        }
    }
}

extension ISO8601DateFormatter {
    /// RFC 3339 with milliseconds, as the tools' JSON writes dates.
    fileprivate static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
