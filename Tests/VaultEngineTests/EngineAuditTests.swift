import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// Every engine operation writes exactly one entry, with the fields an auditor needs and no
/// health value; the exported log verifies; an access whose entry cannot be written does not
/// happen.
@Suite struct EngineAuditTests {
    static let app = "org.example.stepcounter"
    static let steps = SampleType.quantity(.stepCount)
    static let stepsID = "HKQuantityTypeIdentifierStepCount"
    static let heartID = "HKQuantityTypeIdentifierHeartRate"

    /// The fields of an entry that an operation decides (not its sequence number or time).
    struct Recorded: Equatable, CustomStringConvertible {
        var actor: AuditEntry.Actor
        var operation: String
        var types: [String]
        var count: UInt64
        var outcome: AuditEntry.Outcome
        var request: String

        init(
            _ actor: AuditEntry.Actor,
            _ operation: String,
            _ types: [String],
            _ count: UInt64,
            _ outcome: AuditEntry.Outcome,
            _ request: String
        ) {
            (self.actor, self.operation, self.types, self.count, self.outcome, self.request) =
                (actor, operation, types, count, outcome, request)
        }

        init(_ entry: AuditEntry) {
            self.init(
                entry.actor,
                entry.operation.rawValue,
                entry.types,
                entry.objectCount,
                entry.outcome,
                entry.requestID
            )
        }

        var description: String { "\(actor) \(operation) \(types) \(count) \(outcome) \(request)" }
    }

    @Test func everyOperationWritesExactlyItsEntry() async throws {
        let test = try TestEngine()
        let engine = test.engine
        let app = Caller.app(Self.app)
        var expected: [Recorded] = []
        func check(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let entries = try test.auditEntries().map(Recorded.init)
            #expect(entries == expected, "after \(what)", sourceLocation: sourceLocation)
        }
        let sampleA = try quantitySample()
        let sampleB = try quantitySample()

        try await test.enroll(Self.app, read: [.quantity(.stepCount), .quantity(.heartRate)], share: [Self.steps])
        expected.append(Recorded(.owner, "app.enroll", [Self.heartID, Self.stepsID], 0, .ok, Self.app))
        try check("enrolment")

        try await engine.requestAuthorization(
            toShare: [Self.steps],
            read: [.quantity(.heartRate)],
            as: app,
            requestID: "r1"
        )
        expected.append(Recorded(.app(Self.app), "authorization.request", [Self.heartID, Self.stepsID], 0, .ok, "r1"))
        _ = try await engine.authorizationStatus(for: .quantity(.stepCount), as: app, requestID: "r2")
        expected.append(Recorded(.app(Self.app), "authorization.status", [Self.stepsID], 0, .ok, "r2"))
        try check("the app's authorization calls")

        _ = await healthError { try await engine.save([sampleA], as: app, requestID: "r3") }
        expected.append(Recorded(.app(Self.app), "save", [Self.stepsID], 0, .denied, "r3"))
        try check("a refused save")

        try await engine.decide(.grant, .share, of: [ObjectType(Self.steps)], for: Self.app)
        expected.append(Recorded(.owner, "authorization.grant-share", [Self.stepsID], 0, .ok, Self.app))
        try await engine.decide(.deny, .read, of: [.quantity(.heartRate)], for: Self.app)
        expected.append(Recorded(.owner, "authorization.deny-read", [Self.heartID], 0, .ok, Self.app))
        try check("the owner's decisions")

        try await engine.save([sampleA, sampleB], as: app, requestID: "r4")
        expected.append(Recorded(.app(Self.app), "save", [Self.stepsID], 2, .ok, "r4"))
        _ = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(Self.steps)]),
            as: app,
            requestID: "r5"
        )
        expected.append(Recorded(.app(Self.app), "query.sample", [Self.stepsID], 2, .deniedServedEmpty, "r5"))
        try await engine.decide(.grant, .read, of: [.quantity(.stepCount)], for: Self.app)
        expected.append(Recorded(.owner, "authorization.grant-read", [Self.stepsID], 0, .ok, Self.app))
        _ = try await engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(Self.steps)]),
            as: app,
            requestID: "r6"
        )
        expected.append(Recorded(.app(Self.app), "query.sample", [Self.stepsID], 2, .ok, "r6"))
        _ = try await engine.sample(uuid: sampleA.uuid, as: app, requestID: "r7")
        expected.append(Recorded(.app(Self.app), "query.sample", [], 1, .ok, "r7"))
        try check("saves and reads")

        try await engine.delete([sampleA.uuid], as: app, requestID: "r8")
        expected.append(Recorded(.app(Self.app), "delete", [Self.stepsID], 1, .ok, "r8"))
        try await engine.delete([UUID()], as: app, requestID: "r9")
        expected.append(Recorded(.app(Self.app), "delete", [], 0, .ok, "r9"))
        try await engine.deleteObjects(of: Self.steps, as: .owner, requestID: "o1")
        expected.append(Recorded(.owner, "delete", [Self.stepsID], 1, .ok, "o1"))
        try check("deletes")

        try await engine.setCharacteristic(.biologicalSex(.male), requestID: "o2")
        expected.append(
            Recorded(.owner, "characteristic.set", ["HKCharacteristicTypeIdentifierBiologicalSex"], 1, .ok, "o2")
        )
        _ = try await engine.characteristic(.biologicalSex, as: app, requestID: "r10")
        expected.append(
            Recorded(
                .app(Self.app),
                "query.characteristic",
                ["HKCharacteristicTypeIdentifierBiologicalSex"],
                0,
                .deniedServedEmpty,
                "r10"
            )
        )
        let observation = try await engine.observe([Self.steps], as: app, requestID: "r11")
        expected.append(Recorded(.app(Self.app), "subscribe", [Self.stepsID], 0, .ok, "r11"))
        try await engine.stopObserving(observation, as: app, requestID: "r12")
        expected.append(Recorded(.app(Self.app), "unsubscribe", [Self.stepsID], 0, .ok, "r12"))
        try await engine.decide(.revoke, .share, of: [ObjectType(Self.steps)], for: Self.app)
        expected.append(Recorded(.owner, "authorization.revoke-share", [Self.stepsID], 0, .ok, Self.app))
        try await engine.setPolicy(.standard)
        expected.append(Recorded(.owner, "policy.set", [], 0, .ok, ""))
        try check("characteristics, observations, revocation and policy")

        // Bad input is an error entry; the request is named.
        _ = await healthError { try await engine.save([], as: app, requestID: "r13") }
        expected.append(Recorded(.app(Self.app), "save", [], 0, .error, "r13"))
        _ = await healthError { try await engine.approveRequest(999) }
        expected.append(Recorded(.owner, "authorization.grant", [], 0, .error, "request 999"))
        try await engine.removeApp(Self.app)
        expected.append(Recorded(.owner, "app.remove", [], 0, .ok, Self.app))
        // A removed app's request is refused, and recorded.
        _ = await healthError { _ = try await engine.sample(uuid: UUID(), as: app, requestID: "r14") }
        expected.append(Recorded(.app(Self.app), "query.sample", [], 0, .denied, "r14"))
        try check("failures and removal")

        // No entry holds a health value: nothing but identifiers, counts and names.
        for entry in try test.auditEntries() {
            #expect(entry.types.allSatisfy { $0.hasPrefix("HK") })
        }

        // The owner exports the log; the auditor's verifier accepts it.
        let export = test.directory.deletingLastPathComponent().appendingPathComponent("export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: export) }
        try test.vault.exportAuditLog(to: export)
        let report = AuditVerifier.verify(directory: export, trustedKey: test.vault.verifierKey)
        #expect(report.verdict == .verified, "\(report.summary)")
        #expect(report.entryCount == expected.count + 1)
    }

    @Test func anAccessWhoseEntryCannotBeWrittenDoesNotHappen() async throws {
        let test = try TestEngine()
        let engine = test.engine
        let app = Caller.app(Self.app)
        try await test.enroll(Self.app)
        try await test.grant(.share, Self.steps, to: Self.app)
        try await test.grant(.read, Self.steps, to: Self.app)
        let kept = try quantitySample()
        try await engine.save([kept], as: app)
        let entriesBefore = try test.auditEntries().count

        try test.breakAuditLog()
        func refused(_ what: String, _ body: () async throws -> Void) async {
            let error = await healthError(body)
            #expect(error?.code == .databaseInaccessible, "\(what): \(String(describing: error))")
        }
        await refused("save") { try await engine.save([try quantitySample()], as: app) }
        await refused("delete") { try await engine.delete([kept.uuid], as: app) }
        await refused("delete by predicate") { try await engine.deleteObjects(of: Self.steps, as: .owner) }
        await refused("query") {
            _ = try await engine.samples(
                matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(Self.steps)]),
                as: app
            )
        }
        await refused("grant") { try await engine.decide(.grant, .read, of: [.quantity(.heartRate)], for: Self.app) }
        await refused("revoke") { try await engine.decide(.revoke, .read, of: [.quantity(.stepCount)], for: Self.app) }
        await refused("request") {
            try await engine.requestAuthorization(toShare: [], read: [.quantity(.heartRate)], as: app)
        }
        await refused("characteristic") { try await engine.setCharacteristic(.bloodType(.aNegative)) }
        await refused("enrolment") { try await test.enroll("org.example.late") }
        await refused("observation") { _ = try await engine.observe([Self.steps], as: app) }
        try test.restoreAuditLog()

        // Nothing changed, nothing was recorded.
        #expect(try test.auditEntries().count == entriesBefore)
        #expect(try test.sampleCount() == 1)
        #expect(try await engine.characteristic(.bloodType, as: .owner) == nil)
        #expect(try await engine.apps().map(\.appID) == [Self.app])
        let grants = try await engine.grants(of: Self.app)
        #expect(grants.grants.first { $0.type == .quantity(.heartRate) }?.read == .notDetermined)
        #expect(grants.grants.first { $0.type == .quantity(.stepCount) }?.read.isGranted == true)
        #expect(grants.pendingRequests.isEmpty)
    }
}
