import CommandSupport
import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import Testing
import VaultClient
import VaultCrypto
import VaultProtocol

extension DaemonEndToEnd {
    /// Bad input gets an error answer or a closed connection, never a crash, and never holds up
    /// another client.
    @Suite struct DaemonBadInputTests {
        /// An authenticated raw socket for `appID`.
        static func authenticated(_ daemon: TestDaemon, _ appID: String) async throws -> RawSocket {
            let socket = try RawSocket(path: daemon.socketPath)
            let hello = try #require(await socket.readFrame()?["params"] as? [String: Any])
            let nonce = Array(try #require(Data(base64Encoded: hello["nonce"] as? String ?? "")))
            let connection = try #require(UUID(uuidString: hello["connection"] as? String ?? ""))
            let key = try KeyFiles.readPrivateKey(daemon.keyPath(appID))
            let message = WireProtocol.signedMessage(nonce: nonce, identity: appID, connectionID: connection)
            let signature = Data(key.signature(for: message)).base64EncodedString()
            socket.sendFrame(
                #"{"jsonrpc":"2.0","id":0,"method":"authenticate","params":{"version":1,"app":"\#(appID)","signature":"\#(signature)"}}"#
            )
            _ = try #require(await socket.readFrame()?["result"])
            return socket
        }

        static let statusRequest =
            #"{"jsonrpc":"2.0","id":7,"method":"authorization.status","params":{"type":"HKQuantityTypeIdentifierStepCount"}}"#

        @Test func malformedMessagesAreAnsweredAndTheConnectionGoesOn() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            let socket = try await Self.authenticated(daemon, "org.example.app")
            let cases: [(String, [UInt8], Int)] = [
                ("invalid JSON", Array("{not json".utf8), RPCError.parseError),
                ("not UTF-8", [0xFF, 0xFE, 0x7B], RPCError.parseError),
                ("a JSON array", Array("[1,2]".utf8), RPCError.parseError),
                ("no method", Array(#"{"jsonrpc":"2.0","id":1}"#.utf8), RPCError.invalidRequest),
                (
                    "wrong version", Array(#"{"jsonrpc":"1.0","id":1,"method":"samples.save"}"#.utf8),
                    RPCError.invalidRequest
                ),
                (
                    "unknown method", Array(#"{"jsonrpc":"2.0","id":1,"method":"samples.explode","params":{}}"#.utf8),
                    RPCError.methodNotFound
                ),
                (
                    "an owner method", Array(#"{"jsonrpc":"2.0","id":1,"method":"apps.list","params":{}}"#.utf8),
                    RPCError.methodNotFound
                ),
                (
                    "wrong parameter type",
                    Array(#"{"jsonrpc":"2.0","id":1,"method":"samples.delete","params":{"uuids":"x"}}"#.utf8),
                    RPCError.invalidParams
                ),
                (
                    "missing parameter", Array(#"{"jsonrpc":"2.0","id":1,"method":"samples.save","params":{}}"#.utf8),
                    RPCError.invalidParams
                ),
                (
                    "unknown type",
                    Array(#"{"jsonrpc":"2.0","id":1,"method":"authorization.status","params":{"type":"HKNope"}}"#.utf8),
                    RPCError.invalidParams
                ),
                ("empty frame", [], RPCError.parseError),
            ]
            // A notification (no id) is not answered: the next answer is the status request's.
            socket.sendFrame(#"{"jsonrpc":"2.0","method":"samples.save"}"#)
            socket.sendFrame(Self.statusRequest)
            #expect(await socket.readFrame()?["id"] as? Int == 7)
            for (name, payload, code) in cases {
                socket.sendFrame(payload)
                let answer = await socket.readFrame()
                #expect(answer?.errorCode == code, "\(name): \(String(describing: answer))")
                // Still serving this connection.
                socket.sendFrame(Self.statusRequest)
                #expect(
                    (await socket.readFrame()?["result"] as? [String: Any])?["status"] as? String == "notDetermined",
                    "\(name)"
                )
            }
            // A wrong parameter names its field.
            socket.sendFrame(#"{"jsonrpc":"2.0","id":9,"method":"samples.delete","params":{"uuids":["not-a-uuid"]}}"#)
            let data = (await socket.readFrame()?["error"] as? [String: Any])?["data"] as? [String: Any]
            #expect(data?["code"] as? String == "invalidArgument")
            #expect((data?["field"] as? String)?.contains("uuids") == true)
            #expect(daemon.stop() == 0)
        }

        /// Foundation's JSON scanner traps (SIGILL) when the 513th level of nesting opens at a
        /// frame's last byte; the daemon must refuse such frames before any parser sees them.
        @Test func deeplyNestedFramesAreRefusedWithoutStoppingTheDaemon() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            // Before authentication: the first frame is not an authenticate request.
            let first = try RawSocket(path: daemon.socketPath)
            _ = await first.readFrame()
            first.sendFrame(String(repeating: "[", count: 513))
            #expect(await first.readFrame()?.errorCode == RPCError.notAuthenticated)
            #expect(await first.isClosedByPeer)
            let prefix = #"{"jsonrpc":"2.0","id":1,"method":"query.samples","params":"#
            let cases: [(String, String)] = [
                ("513 brackets", String(repeating: "[", count: 513)),
                ("a request prefix and 512 brackets", prefix + String(repeating: "[", count: 512)),
                ("513 braces opening members", String(repeating: #"{"a":"#, count: 513)),
                (
                    "well-formed, one level past the limit",
                    String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
                ),
                ("100,000 brackets", String(repeating: "[", count: 100_000)),
            ]
            let socket = try await Self.authenticated(daemon, "org.example.app")
            for (name, payload) in cases {
                socket.sendFrame(payload)
                let answer = await socket.readFrame()
                #expect(answer?.errorCode == RPCError.parseError, "\(name): \(String(describing: answer))")
                socket.sendFrame(Self.statusRequest)
                #expect(
                    (await socket.readFrame()?["result"] as? [String: Any])?["status"] as? String == "notDetermined",
                    "\(name)"
                )
            }
            // Brackets inside strings do not count, and 128 levels are read.
            socket.sendFrame(
                #"{"jsonrpc":"2.0","id":8,"method":"authorization.status","params":{"type":"HKQuantityTypeIdentifierStepCount","x":""#
                    + String(repeating: "[", count: 600) + #""}}"#
            )
            #expect((await socket.readFrame()?["result"] as? [String: Any])?["status"] as? String == "notDetermined")
            socket.sendFrame(
                #"{"jsonrpc":"2.0","id":9,"method":"authorization.status","params":{"type":"HKQuantityTypeIdentifierStepCount","x":"#
                    + String(repeating: "[", count: 126) + String(repeating: "]", count: 126) + "}}"
            )
            #expect((await socket.readFrame()?["result"] as? [String: Any])?["status"] as? String == "notDetermined")
            #expect(daemon.stop() == 0, "\(daemon.logText.suffix(2000))")
        }

        /// An answer is bounded before it is built: the owner's audit.entries takes at most 10,000.
        @Test func auditEntriesRefusesALimitAboveItsBound() async throws {
            let daemon = try TestDaemon()
            let owner = try await daemon.owner()
            do {
                _ = try await owner.call(
                    Method.auditEntries,
                    AuditEntriesParams(limit: 10_001),
                    as: AuditEntriesResult.self
                )
                Issue.record("a limit of 10,001 entries was served")
            } catch let error as RPCError {
                #expect(error.code == RPCError.healthError)
                #expect(error.data?.field == "limit")
            }
            let served = try await owner.call(
                Method.auditEntries,
                AuditEntriesParams(limit: 10_000),
                as: AuditEntriesResult.self
            )
            #expect(!served.entries.isEmpty)
            owner.close()
            #expect(daemon.stop() == 0)
        }

        @Test func aFirstRequestOtherThanAuthenticateIsRefusedAndClosed() async throws {
            let daemon = try TestDaemon()
            let socket = try RawSocket(path: daemon.socketPath)
            _ = await socket.readFrame()
            socket.sendFrame(Self.statusRequest)
            #expect(await socket.readFrame()?.errorCode == RPCError.notAuthenticated)
            #expect(await socket.isClosedByPeer)
        }

        /// An object whose JSON no answer could carry is refused at its save (an outside test
        /// saved one in a frame of exactly `maxFrameBytes`, which no query could then return and an
        /// anchored query could not page past); one that fits is read back by every query.
        @Test func anObjectNoAnswerCouldCarryIsNotSaved() async throws {
            let daemon = try TestDaemon(["--max-frame-bytes", "262144"])
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.app")
            let store = try await daemon.store("org.example.app")
            defer { Task { await store.close() } }
            func noted(_ length: Int) throws -> Sample {
                let start = Date(timeIntervalSince1970: 1_780_000_000)
                return .quantity(
                    try QuantitySample(
                        type: .stepCount,
                        quantity: Quantity(12, .count),
                        start: start,
                        end: start.addingTimeInterval(60),
                        sourceRevision: SourceRevision(source: Source(bundleIdentifier: "ignored", name: "ignored")),
                        metadata: ["org.example.note": .string(String(repeating: "x", count: length))]
                    )
                )
            }
            // 262,144 less 65,536: at most 196,608 bytes an object.
            do {
                try await store.save([try noted(200_000)])
                Issue.record("an object larger than an answer carries was saved")
            } catch let error as HealthError {
                #expect(error.code == .dataSizeExceeded && error.field == "objects[0]")
                #expect(error.message.contains("196608"))
            }
            let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)])
            #expect(try await store.samples(matching: query).isEmpty)
            let fits = try noted(190_000)
            try await store.save([fits])
            #expect(try await store.samples(matching: query).map(\.uuid) == [fits.uuid])
            let page = try await store.anchoredObjects(
                matching: AnchoredObjectQueryDescriptor(predicates: [SampleTypePredicate(steps)], limit: 1)
            )
            #expect(page.addedSamples.map(\.metadata) == [fits.metadata])
        }

        @Test func limitsAnswerClearly() async throws {
            let daemon = try TestDaemon([
                "--max-frame-bytes", "4096", "--max-unauthenticated-per-peer", "4", "--max-requests-per-second", "20",
                "--frame-timeout", "0.5", "--request-timeout", "0.2",
            ])
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.app")

            // An oversized frame: answered, then closed.
            let big = try await Self.authenticated(daemon, "org.example.app")
            big.send([0, 0, 0x20, 0])  // 8192 bytes announced
            let tooLarge = await big.readFrame()
            #expect(tooLarge?.errorCode == RPCError.frameTooLarge)
            #expect(tooLarge?.errorMessage?.contains("4096") == true)
            #expect(await big.isClosedByPeer)

            // A stalled frame: closed after the frame timeout; meanwhile another client is served.
            let stalled = try await Self.authenticated(daemon, "org.example.app")
            stalled.send([0, 0, 0, 100] + Array(repeating: UInt8(ascii: " "), count: 10))
            let other = try await Self.authenticated(daemon, "org.example.app")
            other.sendFrame(Self.statusRequest)
            #expect(await other.readFrame()?["result"] != nil)
            #expect(await stalled.isClosedByPeer)

            // A frame trickling in a byte at a time: the timeout counts from its first byte.
            let trickle = try await Self.authenticated(daemon, "org.example.app")
            let frame: [UInt8] = [0, 0, 0, UInt8(Self.statusRequest.utf8.count)] + Array(Self.statusRequest.utf8)
            for byte in frame.prefix(12) {
                trickle.send([byte])
                try await Task.sleep(for: .milliseconds(150))
            }
            #expect(await trickle.isClosedByPeer, "a frame trickling in for 1.8 s outlived a 0.5 s frame timeout")

            // An answer larger than a frame carries is refused as such, not sent.
            let writer = try await daemon.store("org.example.app")
            let base = Date(timeIntervalSince1970: 1_780_000_000)
            for batch in 0..<5 {
                try await writer.save(
                    try (0..<8).map {
                        try quantity(.stepCount, 1, .count, at: base.addingTimeInterval(Double(batch * 8 + $0) * 60))
                    }
                )
            }
            do {
                _ = try await writer.samples(matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)]))
                Issue.record("an answer above the frame limit was sent")
            } catch let error as HealthError {
                #expect(error.code == .dataSizeExceeded)
            }
            #expect(
                try await writer.samples(
                    matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)], limit: 3)
                ).count == 3
            )
            await writer.close()

            // Half-open: a client that stops mid-frame and shuts its side; the daemon carries on.
            let halfOpen = try await Self.authenticated(daemon, "org.example.app")
            halfOpen.send([0, 0, 0, 50, UInt8(ascii: "{")])
            halfOpen.shutdownWrite()
            #expect(await halfOpen.isClosedByPeer)

            // The request rate: a burst beyond the bucket is refused, not run.
            var limited = 0
            for index in 0..<40 {
                other.sendFrame(
                    #"{"jsonrpc":"2.0","id":\#(index),"method":"authorization.status","params":{"type":"HKQuantityTypeIdentifierStepCount"}}"#
                )
            }
            for _ in 0..<40 {
                if await other.readFrame()?.errorCode == RPCError.rateLimited { limited += 1 }
            }
            #expect(limited > 0)
            try await Task.sleep(for: .seconds(1.1))

            let store = try await daemon.store("org.example.app")

            // Too many connections waiting to authenticate from one process: the one over the
            // limit is told so and closed.
            var sockets: [RawSocket] = []
            var refused: [String: Any]?
            for _ in 0..<6 {
                let socket = try RawSocket(path: daemon.socketPath)
                let first = await socket.readFrame()
                if first?.errorCode == RPCError.tooManyConnections {
                    refused = first
                    #expect(await socket.isClosedByPeer)
                    break
                }
                sockets.append(socket)
            }
            #expect(refused != nil)
            await store.close()
            #expect(daemon.stop() == 0)
        }

        /// A request that runs longer than the request timeout is answered `timedOut`; the
        /// connection goes on serving, and the request itself completes in the vault.
        @Test func aSlowRequestIsAnsweredTimedOutAndStillCompletes() async throws {
            let daemon = try TestDaemon(["--request-timeout", "0.3"])
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.app")
            let connection = try await daemon.connection("org.example.app")
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let batch = try (0..<20_000).map {
                try quantity(.stepCount, 1, .count, at: start.addingTimeInterval(Double($0) * 60))
            }
            do {
                _ = try await connection.call(Method.save, SaveParams(objects: batch), as: SaveResult.self)
                Issue.record("a 20,000-sample save finished within 0.3 s")
            } catch let error as RPCError {
                #expect(error.code == RPCError.timedOut)
            }
            // The save completes in the vault all the same: its audit entry says so.
            var saved: [AuditEntryInfo] = []
            for _ in 0..<100 where saved.isEmpty {
                saved = try await daemon.auditEntries(operation: "save").filter {
                    $0.count == 20_000 && $0.outcome == "ok"
                }
                if saved.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(saved.count == 1)
            // And the connection that timed out goes on serving.
            let status = try await connection.call(
                Method.authorizationStatus,
                TypeParams(type: ObjectType(steps)),
                as: AuthorizationStatusResult.self
            )
            #expect(status.status == "sharingAuthorized")
            connection.close()
        }

        /// Random and mutated frames: the daemon neither crashes nor grows without bound, and still
        /// serves a well-behaved client afterwards. `HEALTHVAULT_FUZZ_FRAMES` sets the count
        /// (`make fuzz` runs a long one).
        @Test func fuzzedFramesNeitherCrashNorLeak() async throws {
            let count = Int(ProcessInfo.processInfo.environment["HEALTHVAULT_FUZZ_FRAMES"] ?? "") ?? 1500
            let daemon = try TestDaemon(["--max-frame-bytes", "65536", "--max-requests-per-second", "100000"])
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.app")
            var random = SystemRandomNumberGenerator()
            let seeds: [String] = [
                Self.statusRequest,
                #"{"jsonrpc":"2.0","id":1,"method":"samples.save","params":{"objects":[{"kind":"quantity","uuid":"6B1A1D5E-2D4B-4E1A-9A57-1F3C2B7E4D10","type":"HKQuantityTypeIdentifierStepCount","quantity":{"value":12,"unit":"count"},"startDate":"2026-11-20T10:00:00.000Z","endDate":"2026-11-20T10:01:00.000Z","sourceRevision":{"source":{"bundleIdentifier":"x","name":"x"}}}]}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"query.samples","params":{"query":{"predicates":[{"type":"HKQuantityTypeIdentifierStepCount"}],"sortDescriptors":[],"limit":5}}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"samples.delete","params":{"uuids":["6B1A1D5E-2D4B-4E1A-9A57-1F3C2B7E4D10"]}}"#,
                #"{"jsonrpc":"2.0","id":4,"method":"observer.start","params":{"types":["HKQuantityTypeIdentifierStepCount"],"frequency":"hourly"}}"#,
                #"{"jsonrpc":"2.0","id":5,"method":"authenticate","params":{"version":1,"app":"org.example.app","signature":"AAAA"}}"#,
            ]
            var socket = try await Self.authenticated(daemon, "org.example.app")
            // Warm up, then measure.
            for seed in seeds {
                socket.sendFrame(seed)
                _ = await socket.readFrame()
            }
            let before = try await Self.memory(daemon)
            var reconnects = 0
            for index in 0..<count {
                var payload: [UInt8]
                if index % 4 == 0 {
                    payload = (0..<Int.random(in: 0...512, using: &random)).map { _ in
                        UInt8.random(in: 0...255, using: &random)
                    }
                } else if index % 8 == 1 {
                    // Deep nesting, around Foundation's 512 levels, after a seed's prefix.
                    let seed = Array(seeds.randomElement(using: &random)!.utf8)
                    let depth =
                        [511, 512, 513, 514].randomElement(using: &random)! + Int.random(in: -200...200, using: &random)
                        * (index % 3)
                    payload =
                        Array(seed.prefix(Int.random(in: 0...seed.count, using: &random)))
                        + Array(repeating: UInt8(ascii: Bool.random(using: &random) ? "[" : "{"), count: max(depth, 0))
                } else {
                    payload = Array(seeds.randomElement(using: &random)!.utf8)
                    for _ in 0..<Int.random(in: 1...8, using: &random) where !payload.isEmpty {
                        let position = Int.random(in: 0..<payload.count, using: &random)
                        switch Int.random(in: 0..<4, using: &random) {
                        case 0: payload[position] = UInt8.random(in: 0...255, using: &random)
                        case 1: payload.remove(at: position)
                        case 2: payload.insert(UInt8.random(in: 0x20...0x7E, using: &random), at: position)
                        default: payload.insert(contentsOf: payload[position...].prefix(16), at: position)
                        }
                    }
                }
                if index % 97 == 0 {
                    // Now and then a lying length prefix: more announced than sent, then a new connection.
                    socket.send([0, 0, 1, 0] + payload.prefix(10))
                    socket = try await Self.authenticated(daemon, "org.example.app")
                    reconnects += 1
                    continue
                }
                socket.sendFrame(payload)
                // Answers come in order; a marker request after each frame bounds the wait (a
                // frame that reads as a notification gets no answer of its own).
                socket.sendFrame(Self.statusRequest)
                var answers = 0
                var sawMarker = false
                while answers < 2, let answer = await socket.readFrame() {
                    answers += 1
                    #expect(answer["jsonrpc"] as? String == "2.0")
                    if answer["id"] as? Int == 7, answer["result"] != nil {
                        sawMarker = true
                        break
                    }
                }
                if !sawMarker {
                    // Only framing closes a connection; start another.
                    socket = try await Self.authenticated(daemon, "org.example.app")
                    reconnects += 1
                }
            }
            // Still alive and serving.
            let check = try await Self.authenticated(daemon, "org.example.app")
            check.sendFrame(Self.statusRequest)
            #expect((await check.readFrame()?["result"] as? [String: Any])?["status"] as? String == "sharingAuthorized")
            let busy = try await Self.memory(daemon)
            // Memory comes back once the connections close: nothing a request used is held after
            // its answer. The store's page caches fill as the vault (and its audit log) grows, up to
            // their bound (docs/PROTOCOL.md, "Memory"); everything else must stay where it was.
            socket.shutdownWrite()
            check.shutdownWrite()
            try await Task.sleep(for: .seconds(2))
            let after = try await Self.memory(daemon)
            let growth = (after.resident - before.resident) - (after.store - before.store)
            print(
                "fuzz: \(count) frames, \(reconnects) reconnects; resident \(before.resident >> 10) KiB, \(busy.resident >> 10) KiB after the frames, \(after.resident >> 10) KiB idle; of which the store's caches \(before.store >> 10), \(busy.store >> 10), \(after.store >> 10) KiB; other growth \(growth >> 10) KiB"
            )
            #expect(
                growth < 24 << 20,
                "the daemon held \(growth >> 10) KiB more outside the store's caches after \(count) frames"
            )
            #expect(daemon.stop() == 0, "\(daemon.logText.suffix(2000))")
        }

        /// An answer larger than the frame writer copies behind its length goes out as the length,
        /// then the payload from its own buffer: a raw client reads two such answers, asked for
        /// together, each whole and in turn, with a small answer between them.
        @Test func largeAnswersAreFramedWholeInTurn() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.app")
            let store = try await daemon.store("org.example.app")
            let start = RFC3339.date(from: "2026-11-02T08:00:00.000Z")!
            let saved = try (0..<300).map {
                try quantity(.stepCount, Double($0), .count, at: start.addingTimeInterval(Double($0) * 60))
            }
            try await store.save(saved)
            await store.close()
            let socket = try await Self.authenticated(daemon, "org.example.app")
            let query =
                #"{"jsonrpc":"2.0","id":ID,"method":"query.samples","params":{"query":{"predicates":[{"sampleType":"HKQuantityTypeIdentifierStepCount"}],"sortDescriptors":[],"limit":0}}}"#
            socket.sendFrame(query.replacingOccurrences(of: "ID", with: "1"))
            socket.sendFrame(Self.statusRequest)
            socket.sendFrame(query.replacingOccurrences(of: "ID", with: "2"))
            for id in [1, 7, 2] {
                let header = try #require(socket.read(4))
                let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
                let payload = try #require(socket.read(length))
                let answer = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
                #expect(answer["id"] as? Int == id)
                if id == 7 {
                    #expect(length < FrameHandler.copiedPayloadBytes)
                } else {
                    #expect(length > FrameHandler.copiedPayloadBytes)
                    let samples = (answer["result"] as? [String: Any])?["samples"] as? [[String: Any]]
                    #expect(samples?.count == 300)
                    // The JSON ends where the length says: the last byte is the object's close.
                    #expect(payload.last == UInt8(ascii: "}"))
                }
            }
            #expect(daemon.stop() == 0, "\(daemon.logText.suffix(2000))")
        }

        /// The daemon's resident memory and the store's part of it, from `vault.status`.
        static func memory(_ daemon: TestDaemon) async throws -> (resident: Int, store: Int) {
            let status = try await daemon.ownerCall(Method.status, Empty(), as: StatusResult.self)
            return (try #require(status.residentBytes), try #require(status.storeBytes))
        }
    }
}
