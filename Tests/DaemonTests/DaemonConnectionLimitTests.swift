import CommandSupport
import Foundation
import Glibc
import HealthModel
import ProcessTestSupport
import Testing
import VaultClient
import VaultCrypto
import VaultProtocol

extension DaemonEndToEnd {
    /// Nobody who can open the socket locks the owner out, and no app learns of others'
    /// connections from the limits it meets (docs/PROTOCOL.md, "Connections").
    @Suite struct DaemonConnectionLimitTests {
        /// A process of four threads that keep reopening connections and never authenticate: each
        /// holds up to 64, and opens another as soon as the daemon closes one.
        static let flood = """
            import socket, sys, threading, time
            path, seconds = sys.argv[1], float(sys.argv[2])
            end = time.time() + seconds
            opened = [0]
            def hammer():
                held = []
                while time.time() < end:
                    if len(held) >= 64:
                        for s in list(held):
                            try:
                                if s.recv(65536, socket.MSG_DONTWAIT) == b"":
                                    held.remove(s); s.close()
                            except BlockingIOError:
                                pass
                            except OSError:
                                held.remove(s); s.close()
                        if len(held) >= 64: time.sleep(0.005)
                        continue
                    try:
                        s = socket.socket(socket.AF_UNIX)
                        s.connect(path)
                        held.append(s)
                        opened[0] += 1
                    except OSError:
                        time.sleep(0.001)
            threads = [threading.Thread(target=hammer) for _ in range(4)]
            for t in threads: t.start()
            for t in threads: t.join()
            print(opened[0])
            """

        @Test func aFloodOfUnauthenticatedConnectionsDoesNotLockOutTheOwner() async throws {
            let daemon = try TestDaemon()
            let script = daemon.directory.deletingLastPathComponent().appendingPathComponent("flood.py")
            try Data(Self.flood.utf8).write(to: script)
            let flood = ChildProcess()
            flood.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            flood.arguments = ["python3", script.path, daemon.socketPath, "12"]
            let out = Pipe()
            flood.standardOutput = out
            try flood.run()
            try await Task.sleep(for: .seconds(1))
            // The CLI and the flood are waited for off the cooperative pool, which other tests share.
            let served = await offPool {
                (0..<10).count { _ in
                    let list = try? CLITests.healthvault(["apps", "list", "--json"], daemon: daemon)
                    if list?.status != 0 { print("owner refused: \(list?.err ?? "")") }
                    return list?.status == 0
                }
            }
            await offPool { flood.waitUntilExit() }
            let opened =
                Int(
                    String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(
                        in: .whitespacesAndNewlines
                    )
                ) ?? 0
            #expect(opened > 500, "the flood opened only \(opened) connections")
            #expect(served == 10, "the owner got in \(served) times of 10 during a flood of \(opened) connections")
            let stopped = daemon.stop()
            let log = daemon.logText
            let crash = log.range(of: "*** Program crashed").map { String(log[$0.lowerBound...].prefix(6000)) }
            try? Data(log.utf8).write(to: URL(fileURLWithPath: "/tmp/hv-flood-daemon.log"))
            #expect(stopped == 0, "\(crash ?? String(log.suffix(2000)))")
        }

        @Test func anAppHoldingItsLimitCannotLockOutTheOwnerWhoRemovesIt() async throws {
            let daemon = try TestDaemon(["--max-connections-per-app", "4"])
            try await daemon.enroll("org.example.greedy", read: [], share: [steps])
            var held: [RawSocket] = []
            for _ in 0..<4 { held.append(try await DaemonBadInputTests.authenticated(daemon, "org.example.greedy")) }
            // The fifth is refused, with the app's own limit as the reason.
            let fifth = try RawSocket(path: daemon.socketPath)
            let hello = try #require(await fifth.readFrame()?["params"] as? [String: Any])
            let nonce = Array(try #require(Data(base64Encoded: hello["nonce"] as? String ?? "")))
            let connection = try #require(UUID(uuidString: hello["connection"] as? String ?? ""))
            let key = try KeyFiles.readPrivateKey(daemon.keyPath("org.example.greedy"))
            let signature = Data(
                key.signature(
                    for: WireProtocol.signedMessage(
                        nonce: nonce,
                        identity: "org.example.greedy",
                        connectionID: connection
                    )
                )
            ).base64EncodedString()
            fifth.sendFrame(
                #"{"jsonrpc":"2.0","id":0,"method":"authenticate","params":{"version":1,"app":"org.example.greedy","signature":"\#(signature)"}}"#
            )
            let refused = await fifth.readFrame()
            #expect(refused?.errorCode == RPCError.tooManyConnections)
            #expect(refused?.errorMessage == "org.example.greedy already has 4 connections open")
            #expect(refused?["id"] as? Int == 0)
            #expect(await fifth.isClosedByPeer)
            // The owner still gets in, and removes the app: its connections close.
            #expect(await offPool { try? CLITests.healthvault(["status"], daemon: daemon) }?.status == 0)
            #expect(
                await offPool {
                    try? CLITests.healthvault(["apps", "remove", "org.example.greedy", "--yes"], daemon: daemon)
                }?
                .status == 0
            )
            for socket in held { #expect(await socket.isClosedByPeer) }
            #expect(daemon.stop() == 0)
        }

        @Test func anIdleConnectionIsClosedUnlessItWaitsForUpdates() async throws {
            let daemon = try TestDaemon(["--idle-timeout", "0.5"])
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["read"], [ObjectType(steps)], for: "org.example.app")
            let idle = try await DaemonBadInputTests.authenticated(daemon, "org.example.app")
            let observing = try await DaemonBadInputTests.authenticated(daemon, "org.example.app")
            observing.sendFrame(
                #"{"jsonrpc":"2.0","id":1,"method":"observer.start","params":{"types":["HKQuantityTypeIdentifierStepCount"]}}"#
            )
            #expect(await observing.readFrame()?["result"] != nil)
            try await Task.sleep(for: .seconds(1.5))
            #expect(await idle.isClosedByPeer)
            observing.sendFrame(DaemonBadInputTests.statusRequest)
            #expect(await observing.readFrame()?["id"] as? Int == 7)
            #expect(daemon.stop() == 0)
        }

        @Test func limitsBeyondTheOpenFileLimitAreRefusedAtStart() throws {
            let daemon = try TestDaemon(start: false)
            let (status, message) = try daemon.runAnotherDaemon(
                launcher: ["/usr/bin/prlimit", "--nofile=256:256", TestDaemon.binary("healthvaultd")],
                extra: ["--max-connections", "5000"]
            )
            #expect(status == 1)
            #expect(message.contains("ulimit -n"), "\(message)")
            #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        }
    }
}
