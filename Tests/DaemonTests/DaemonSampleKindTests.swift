import Foundation
import HealthModel
import HealthModelTestSupport
import HealthVaultKit
import Testing
import VaultClient
import VaultProtocol

extension DaemonEndToEnd {
    /// States of mind, assessments, electrocardiograms, audiograms and heartbeat series through the
    /// real daemon and HealthVaultKit: saved, queried, their series read in batches within the
    /// frame limit, the heartbeat series builder, and bad input refused with its field.
    @Suite struct DaemonSampleKindTests {
        static let app = "org.example.cardio"
        static let kinds = Fixtures.sampleKindTypes

        /// A daemon with `app` enrolled and granted reading and sharing every kind.
        func daemon(_ arguments: [String] = []) async throws -> TestDaemon {
            let daemon = try TestDaemon(arguments)
            try await daemon.enroll(Self.app, read: Self.kinds.map(ObjectType.init), share: Self.kinds)
            try await daemon.decide("grant", ["read", "share"], Self.kinds.map(ObjectType.init), for: Self.app)
            return daemon
        }

        @Test func everyKindIsSavedQueriedAndItsSeriesRead() async throws {
            let daemon = try await daemon()
            let store = try await daemon.store(Self.app)
            let samples = try Fixtures.sampleKinds()
            try await store.save(samples)
            for (sample, type) in zip(samples, Self.kinds) {
                let found = try await SampleQueryDescriptor(predicates: [SampleTypePredicate(type)]).result(for: store)
                #expect(found.map(\.uuid) == [sample.uuid], "\(type)")
                // Stamped with the app's identity; an electrocardiogram and a series without their points.
                #expect(found.first?.attributed(to: Fixtures.app) == sample.withoutSeriesData, "\(type)")
                #expect(try await store.object(uuid: sample.uuid) == found.first)
            }
            guard case .electrocardiogram(let ecg) = samples[3], case .heartbeatSeries(let series) = samples[5] else {
                Issue.record("the fixtures changed order")
                return
            }
            // The measurements, streamed batch by batch (15,360: two batches).
            var streamed: [Electrocardiogram.VoltageMeasurement] = []
            for try await measurement in ElectrocardiogramQueryDescriptor(ecg).results(for: store) {
                streamed.append(measurement)
            }
            #expect(streamed == ecg.voltageMeasurements)
            let first = try await store.voltageMeasurements(of: ecg.uuid)
            #expect(first?.points.count == 10_000)
            #expect(first?.next == 10_000)
            #expect(try await HeartbeatSeriesQueryDescriptor(series).result(for: store) == series.heartbeats)
            // Deleted: its measurements are gone with it, answered as an unknown UUID.
            #expect(try await store.delete(samples[3]) == 1)
            #expect(try await ElectrocardiogramQueryDescriptor(ecg).result(for: store) == nil)
            let entries = try await daemon.auditEntries(operation: "query.electrocardiogram")
            #expect(entries.map(\.count) == [1, 1, 1, 0])
            #expect(entries.allSatisfy { $0.types == ["HKDataTypeIdentifierElectrocardiogram"] && $0.outcome == "ok" })
            await store.close()
        }

        @Test func statesOfMindAndElectrocardiogramsAreFoundByTheirPredicates() async throws {
            let daemon = try await daemon()
            let store = try await daemon.store(Self.app)
            // A daily mood (0.25: content, grateful; family, fitness) and a stressed moment at work.
            let mood = try Fixtures.stateOfMind(valence: 0.25)
            let stressed = try StateOfMind(
                date: Fixtures.start.addingTimeInterval(60),
                kind: .momentaryEmotion,
                valence: -0.5,
                labels: [.anxious, .stressed],
                associations: [.work],
                sourceRevision: Fixtures.app
            )
            // Sinus rhythm without symptoms, and atrial fibrillation with them.
            let sinus = try Fixtures.electrocardiogram(count: 64)
            let fibrillation = try Electrocardiogram(
                start: Fixtures.start,
                end: Fixtures.start.addingTimeInterval(1),
                classification: .atrialFibrillation,
                symptomsStatus: .present,
                voltageMeasurements: (0..<64).map {
                    .init(timeSinceSampleStart: Double($0) / 64, leadI: Quantity(Double($0), Fixtures.microvolt))
                },
                sourceRevision: Fixtures.app
            )
            try await store.save([.stateOfMind(mood), .stateOfMind(stressed)])
            try await store.save([.electrocardiogram(sinus), .electrocardiogram(fibrillation)])
            func found(_ predicate: SampleTypePredicate) async throws -> Set<UUID> {
                Set(try await SampleQueryDescriptor(predicates: [predicate]).result(for: store).map(\.uuid))
            }
            #expect(try await found(.stateOfMind(.statesOfMind(with: StateOfMind.Kind.dailyMood))) == [mood.uuid])
            #expect(
                try await found(.stateOfMind(.statesOfMind(withValence: 0, operatorType: .lessThan))) == [stressed.uuid]
            )
            #expect(
                try await found(.stateOfMind(.statesOfMind(withValence: -0.5, operatorType: .greaterThanOrEqualTo)))
                    == [mood.uuid, stressed.uuid]
            )
            #expect(try await found(.stateOfMind(.statesOfMind(with: StateOfMind.Label.stressed))) == [stressed.uuid])
            #expect(try await found(.stateOfMind(.not(.stateOfMindLabel(.stressed)))) == [mood.uuid])
            #expect(try await found(.stateOfMind(.statesOfMind(with: StateOfMind.Association.family))) == [mood.uuid])
            #expect(try await found(.stateOfMind(.stateOfMindAssociation(.money))).isEmpty)
            #expect(
                try await found(.electrocardiogram(.electrocardiograms(classification: .atrialFibrillation)))
                    == [fibrillation.uuid]
            )
            #expect(try await found(.electrocardiogram(.electrocardiograms(symptomsStatus: .none))) == [sinus.uuid])
            // A condition that does not fit the queried type is refused, naming the predicate.
            do {
                _ = try await found(.stateOfMind(.electrocardiogramClassification(.sinusRhythm)))
                Issue.record("an electrocardiogram condition on states of mind was accepted")
            } catch let error as HealthError {
                #expect(error.code == .invalidArgument)
                #expect(error.field == "predicates[0].predicate", "\(error)")
            }
            // A deletion by predicate deletes what matches, only that.
            #expect(
                try await store.deleteObjects(of: .stateOfMind, predicate: .stateOfMindKind(.momentaryEmotion)) == 1
            )
            #expect(try await found(.stateOfMind()) == [mood.uuid])
            await store.close()
        }

        @Test func theHeartbeatSeriesBuilderBuildsOverTheSocket() async throws {
            let daemon = try await daemon()
            let store = try await daemon.store(Self.app)
            let strap = Device(name: "Chest strap", manufacturer: "Example")
            let builder = HeartbeatSeriesBuilder(healthStore: store, device: strap, startDate: Fixtures.start)
            try await builder.addHeartbeat(at: 0, precededByGap: false)
            try await builder.addHeartbeats(Array(Fixtures.heartbeats(300).dropFirst()))
            try await builder.addMetadata([.heartRateSensorLocation: .number(1)])
            // Out of order: refused with its field; what was added stays.
            do {
                try await builder.addHeartbeat(at: 1, precededByGap: false)
                Issue.record("a beat before the last one was added")
            } catch let error as HealthError {
                #expect(error.code == .invalidArgument)
                #expect(error.field == "heartbeats[0].timeSinceSeriesStart")
            }
            try await builder.addHeartbeats(Fixtures.heartbeats(200, from: 300))
            let saved = try await builder.finishSeries()
            #expect(saved.count == 500)
            #expect(saved.device == strap)
            #expect(saved.endDate == Fixtures.start.addingTimeInterval(499 * 0.8))
            #expect(saved.sourceRevision.source.bundleIdentifier == Self.app)
            #expect(try await HeartbeatSeriesQueryDescriptor(saved).result(for: store) == Fixtures.heartbeats(500))
            await #expect(throws: HealthError.self) { try await builder.addHeartbeat(at: 1000, precededByGap: false) }
            // One builder is lost with its connection; a discarded one saves nothing.
            let lost = HeartbeatSeriesBuilder(healthStore: store, startDate: Fixtures.start)
            try await lost.addHeartbeats(Fixtures.heartbeats(10))
            let dropped = HeartbeatSeriesBuilder(healthStore: store, startDate: Fixtures.start)
            try await dropped.addHeartbeats(Fixtures.heartbeats(10))
            await dropped.discard()
            await store.close()
            let again = try await daemon.store(Self.app)
            let all = try await SampleQueryDescriptor(predicates: [SampleTypePredicate(.heartbeatSeries)]).result(
                for: again
            )
            #expect(all.map(\.uuid) == [saved.uuid])
            // The finish was recorded as a save; nothing else of the builders was.
            let saves = try await daemon.auditEntries(operation: "save")
            #expect(saves.map(\.types) == [["HKDataTypeIdentifierHeartbeatSeries"]])
            await again.close()
        }

        /// The owner names the new types in the CLI as HealthKit does, or by a short name.
        @Test func theOwnerGrantsTheNewTypesByName() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.mind", read: Self.kinds.map(ObjectType.init), share: Self.kinds)
            let names = ["stateOfMind", "gad7", "PHQ9", "electrocardiogram", "audiogram", "heartbeatSeries"]
            let granted = try CLITests.healthvault(
                ["grant", "org.example.mind"] + names + ["--read", "--share"],
                daemon: daemon
            )
            #expect(granted.status == 0, "\(granted.err)")
            let shown = try CLITests.healthvault(["apps", "show", "org.example.mind"], daemon: daemon)
            for type in Self.kinds {
                let row = shown.out.split(separator: "\n").first { $0.hasPrefix(type.identifier + " ") }
                #expect(row?.split(separator: " ").filter { $0 == "granted" }.count == 2, "\(shown.out)")
            }
            let misspelt = try CLITests.healthvault(
                ["grant", "org.example.mind", "HKDataTypeIdentifierStateOfMind", "--read"],
                daemon: daemon
            )
            #expect(misspelt.status != 0)
            #expect(misspelt.err.contains("HKDataTypeStateOfMind"), "\(misspelt.err)")
        }

        /// A batch too large for the daemon's frame is sent with fewer points, and `next` says where
        /// to go on: never a single unbounded answer, never a refusal.
        @Test func batchesShrinkToFitTheFrame() async throws {
            let daemon = try await daemon()
            let ecg = try Fixtures.electrocardiogram()
            let store = try await daemon.store(Self.app)
            try await store.save(.electrocardiogram(ecg))
            await store.close()
            #expect(daemon.stop() == 0)
            try daemon.start(extra: ["--max-frame-bytes", "65536"])
            let connection = try await daemon.connection(Self.app)
            let raw = try await connection.rawCall(
                Method.queryElectrocardiogram,
                SeriesQueryParams(uuid: ecg.uuid, offset: 0, limit: 10_000)
            )
            #expect(raw.count <= 65_536)
            let first = try HealthJSON.decode(RPCResult<VoltageMeasurementsResult>.self, from: raw).result
            let count = try #require(first.voltageMeasurements?.count)
            #expect(count < 10_000 && count > 0)
            #expect(first.next == count)
            connection.close()
            let small = try await daemon.store(Self.app)
            #expect(try await ElectrocardiogramQueryDescriptor(ecg).result(for: small) == ecg.voltageMeasurements)
            await small.close()
        }

        @Test func badInputIsRefusedNamingTheField() async throws {
            let daemon = try await daemon()
            let connection = try await daemon.connection(Self.app)
            defer { connection.close() }
            func refusal<P: Encodable & Sendable>(_ method: String, _ params: P) async -> RPCError? {
                do {
                    _ = try await connection.rawCall(method, params)
                    return nil
                } catch let error as RPCError {
                    return error
                } catch {
                    return nil
                }
            }
            // Invalid JSON forms are -32602, naming the field inside params.
            let socket = try await DaemonBadInputTests.authenticated(daemon, Self.app)
            let state = String(
                decoding: try HealthJSON.encode(Sample.stateOfMind(try Fixtures.stateOfMind())),
                as: UTF8.self
            )
            for (object, field) in [
                (state.replacingOccurrences(of: #""valence":0.25"#, with: #""valence":-3"#), "valence"),
                (state.replacingOccurrences(of: #""labels":[8,15]"#, with: #""labels":[8,8]"#), "labels[1]"),
            ] {
                socket.sendFrame(
                    #"{"jsonrpc":"2.0","id":41,"method":"samples.save","params":{"objects":["# + object + "]}}"
                )
                let answer = await socket.readFrame()
                #expect(answer?.errorCode == RPCError.invalidParams, "\(String(describing: answer))")
                let data = (answer?["error"] as? [String: Any])?["data"] as? [String: Any]
                #expect(data?["field"] as? String == "params.objects[0].\(field)", "\(String(describing: data))")
            }
            // A series without its points is refused by the vault.
            let bare = try Sample.electrocardiogram(try Fixtures.electrocardiogram(count: 10)).withoutSeriesData
            let missing = await refusal(Method.save, SaveParams(objects: [bare]))
            #expect(missing?.code == RPCError.healthError)
            #expect(missing?.data?.field == "objects[0].voltageMeasurements")
            // Batches and builders.
            let offset = await refusal(Method.queryElectrocardiogram, SeriesQueryParams(uuid: UUID(), offset: -1))
            #expect(offset?.data?.field == "offset")
            let limit = await refusal(Method.queryHeartbeatSeries, SeriesQueryParams(uuid: UUID(), limit: 1001))
            #expect(limit?.data?.field == "limit")
            let unknown = await refusal(
                Method.heartbeatSeriesBuilderAdd,
                HeartbeatSeriesAddParams(builder: UUID(), heartbeats: Fixtures.heartbeats(1))
            )
            #expect(unknown?.data?.field == "builder")
            // The owner builds nothing: the builder's methods are not the owner's.
            let owner = try await daemon.owner()
            defer { owner.close() }
            do {
                _ = try await owner.rawCall(
                    Method.heartbeatSeriesBuilderBegin,
                    HeartbeatSeriesBeginParams(startDate: Fixtures.start, device: nil)
                )
                Issue.record("the owner began a heartbeat series")
            } catch let error as RPCError {
                #expect(error.code == RPCError.methodNotFound)
            }
        }
    }
}
