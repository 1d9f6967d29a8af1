import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultEngine
import VaultStore

/// Issue 23, windows and expiries beyond the queries: observers, background delivery and live
/// workouts hear only of what the window shows; an expiry is a revocation at its instant, live
/// subscriptions included, written in the audit log; every decision's entry carries the new
/// state; the app is never told of either.
@Suite struct GrantTermsTests {
    static let reader = "org.example.reader"
    static let other = "org.example.other"
    static let steps = SampleType.quantity(.stepCount)
    static let t0 = RFC3339.date(from: "2026-03-01T00:00:00.000Z")!

    static func at(_ hours: Double) -> Date { t0.addingTimeInterval(hours * 3_600) }

    static func steps(at hours: Double, minutes: Double = 10) throws -> Sample {
        .quantity(
            try QuantitySample(
                type: .stepCount,
                quantity: Quantity(10, .count),
                start: at(hours),
                end: at(hours).addingTimeInterval(minutes * 60),
                sourceRevision: SourceRevision(source: Source(bundleIdentifier: "ignored", name: "ignored"))
            )
        )
    }

    /// A vault where the reader and another app share steps, the clock at day 5.
    static func vault() async throws -> (TestEngine, TestClock) {
        let clock = TestClock(at(120))
        let test = try TestEngine(clock: clock)
        for app in [reader, other] {
            try await test.enroll(app)
            try await test.grant(.share, steps, .quantity(.heartRate), to: app)
        }
        return (test, clock)
    }

    /// An observation's updates as they arrive, handed out with a time limit (a cancelled wait on
    /// the stream itself would end it).
    final class Updates: @unchecked Sendable {
        private var received: [ObserverUpdate] = []
        private let lock = NSLock()
        private var pump: Task<Void, Never>?

        init(_ updates: AsyncStream<ObserverUpdate>) {
            pump = Task { [weak self] in
                for await update in updates {
                    guard let self else { return }
                    self.lock.withLock { self.received.append(update) }
                }
            }
        }

        deinit { pump?.cancel() }

        /// The next update within `seconds`, or nil.
        func next(within seconds: Double = 1) async -> ObserverUpdate? {
            for _ in 0..<Int(seconds * 50) {
                if let update = lock.withLock({ received.isEmpty ? nil : received.removeFirst() }) { return update }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }
    }

    static func next(_ updates: Updates) async -> ObserverUpdate? { await updates.next() }

    @Test func observersAndBackgroundDeliveryHearOnlyOfChangesInsideTheWindow() async throws {
        let (test, _) = try await Self.vault()
        let engine = test.engine
        // Steps of hours 48 to 96 only.
        try await engine.decide(
            .grant,
            .read,
            of: [ObjectType(Self.steps)],
            for: Self.reader,
            terms: GrantTerms(window: .fixed(start: Self.at(48), end: Self.at(96)))
        )
        let observation = try await engine.observe([Self.steps], as: .app(Self.reader))
        let updates = Updates(observation.updates)
        try await engine.enableBackgroundDelivery(for: Self.steps, frequency: .immediate, as: .app(Self.reader))
        func counted() async throws -> Int64 {
            try await engine.backgroundDeliveries(of: [Self.steps], as: .app(Self.reader))[Self.steps]?.changes ?? -1
        }

        let inside = try Self.steps(at: 50)
        let outside = try Self.steps(at: 20)
        let straddling = try Self.steps(at: 95.9, minutes: 30)
        try await engine.save([outside], as: .app(Self.other))
        try await engine.save([straddling], as: .app(Self.other))
        #expect(await Self.next(updates) == nil)
        #expect(try await counted() == 0)
        try await engine.save([inside], as: .app(Self.other))
        #expect(await Self.next(updates) == ObserverUpdate(types: [Self.steps]))
        #expect(try await counted() == 1)
        // Deletions: of the sample outside, nothing; of the one inside, an update.
        _ = try await engine.delete([outside.uuid, straddling.uuid], as: .owner)
        #expect(await Self.next(updates) == nil)
        #expect(try await counted() == 1)
        _ = try await engine.delete([inside.uuid], as: .owner)
        #expect(await Self.next(updates) == ObserverUpdate(types: [Self.steps]))
        #expect(try await counted() == 2)
        // A batch with one sample inside is announced once; the reader's own, wherever it lies.
        try await engine.save([try Self.steps(at: 10), try Self.steps(at: 60)], as: .app(Self.other))
        #expect(await Self.next(updates) == ObserverUpdate(types: [Self.steps]))
        try await engine.save([try Self.steps(at: 5)], as: .app(Self.reader))
        #expect(await Self.next(updates) == ObserverUpdate(types: [Self.steps]))
        #expect(try await counted() == 4)
        try await engine.stopObserving(observation, as: .app(Self.reader))
    }

    @Test func anExpiryIsARevocationAtItsInstantWrittenWhenItTakesEffect() async throws {
        let (test, clock) = try await Self.vault()
        let engine = test.engine
        let expiry = Self.at(121)
        try await engine.decide(
            .grant,
            .read,
            of: [ObjectType(Self.steps), ObjectType(.quantity(.heartRate))],
            for: Self.reader,
            terms: GrantTerms(window: .last(seconds: 7 * 86_400), expiresAt: expiry)
        )
        let observation = try await engine.observe([Self.steps], as: .app(Self.reader))
        let updates = Updates(observation.updates)
        try await engine.enableBackgroundDelivery(for: Self.steps, frequency: .immediate, as: .app(Self.reader))
        func counted() async throws -> Int64? {
            try await engine.backgroundDeliveries(of: [Self.steps], as: .app(Self.reader))[Self.steps]?.changes
        }
        try await engine.save([try Self.steps(at: 119)], as: .app(Self.other))
        #expect(await Self.next(updates) == ObserverUpdate(types: [Self.steps]))
        #expect(try await counted() == 1)
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(Self.steps)])
        #expect(try await engine.samples(matching: query, as: .app(Self.reader)).count == 1)

        // The instant comes: at once, nothing more of other apps, before the entry is written.
        clock.set(expiry)
        try await engine.save([try Self.steps(at: 119.5)], as: .app(Self.other))
        #expect(await Self.next(updates) == nil)
        #expect(try await counted() == 1, "background delivery stops counting other apps' changes too")
        #expect(try await engine.samples(matching: query, as: .app(Self.reader)).isEmpty)
        let grants = try await engine.grants(of: Self.reader).grants
        let steps = try #require(grants.first { $0.type == ObjectType(Self.steps) })
        #expect(steps.read == .denied(at: expiry, by: "expiry"))
        #expect(steps.readTerms.expiresAt == expiry)

        // Written: one entry for the two types, by the vault, with the instant it took effect.
        #expect(try await engine.expireDueGrants() == 2)
        #expect(try await engine.expireDueGrants() == 0)
        let entries = try test.auditEntries().filter { $0.operation == .authorizationExpireRead }
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.actor == .system && entry.requestID == Self.reader && entry.outcome == .ok)
        #expect(entry.types == ["HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierStepCount"])
        #expect(entry.attributes == ["expired": "2026-03-06T01:00:00.000Z"])
        // The reader's own samples still are announced and read.
        try await engine.save([try Self.steps(at: 3)], as: .app(Self.reader))
        #expect(await Self.next(updates) == ObserverUpdate(types: [Self.steps]))
        #expect(try await engine.samples(matching: query, as: .app(Self.reader)).count == 1)
        // Granted again, without an expiry: it reads again.
        try await engine.decide(.grant, .read, of: [ObjectType(Self.steps)], for: Self.reader)
        #expect(try await engine.samples(matching: query, as: .app(Self.reader)).count == 3)
    }

    @Test func anExpiredShareGrantRefusesSavesAndSaysSharingDenied() async throws {
        let (test, clock) = try await Self.vault()
        let engine = test.engine
        try await engine.decide(
            .grant,
            .share,
            of: [ObjectType(.quantity(.bodyMass))],
            for: Self.reader,
            terms: GrantTerms(expiresAt: Self.at(130))
        )
        let weight = Sample.quantity(try Fixtures.quantity(.bodyMass, 70, .kilogram))
        try await engine.save([weight], as: .app(Self.reader))
        #expect(
            try await engine.authorizationStatus(for: .quantity(.bodyMass), as: .app(Self.reader)) == .sharingAuthorized
        )
        clock.set(Self.at(130))
        let refused = await healthError {
            try await engine.save([.quantity(try Fixtures.quantity(.bodyMass, 71, .kilogram))], as: .app(Self.reader))
        }
        #expect(refused?.code == .authorizationDenied)
        #expect(
            try await engine.authorizationStatus(for: .quantity(.bodyMass), as: .app(Self.reader)) == .sharingDenied
        )
        // Deleting its own samples of the type needs the grant too.
        #expect(
            await healthError { _ = try await engine.delete([weight.uuid], as: .app(Self.reader)) }?.code
                == .authorizationDenied
        )
        #expect(try await engine.expireDueGrants() == 1)
        let entry = try #require(try test.auditEntries().last { $0.operation == .authorizationExpireShare })
        #expect(entry.attributes["expired"] == "2026-03-06T10:00:00.000Z")
    }

    @Test func theEnginesTimerWritesTheExpiryWhenItsInstantComes() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.reader)
        try await test.enroll(Self.other)
        try await test.grant(.share, Self.steps, to: Self.other)
        // Far enough for the first update to arrive before it on a busy machine (seen: 3 s not
        // enough with three builds running beside the tests).
        let expiry = Date().addingTimeInterval(10)
        try await test.engine.decide(
            .grant,
            .read,
            of: [ObjectType(Self.steps)],
            for: Self.reader,
            terms: GrantTerms(expiresAt: expiry)
        )
        let observation = try await test.engine.observe([Self.steps], as: .app(Self.reader))
        let updates = Updates(observation.updates)
        try await test.engine.save([try quantitySample(start: Date().addingTimeInterval(-60))], as: .app(Self.other))
        #expect(await updates.next(within: 9) == ObserverUpdate(types: [Self.steps]))
        // No call: the engine writes it itself at the instant.
        var written: AuditEntry?
        for _ in 0..<200 where written == nil {
            try await Task.sleep(for: .milliseconds(100))
            written = try test.auditEntries().last { $0.operation == .authorizationExpireRead }
        }
        let entry = try #require(written)
        #expect(entry.attributes["expired"] == AuditEntry.attributeTime(expiry))
        #expect(entry.time >= AuditEntry(time: expiry, actor: .system, operation: .save, outcome: .ok).time)
        try await test.engine.save([try quantitySample(start: Date().addingTimeInterval(-30))], as: .app(Self.other))
        #expect(await Self.next(updates) == nil)
    }

    @Test func anExpiryThatCameWhileTheVaultWasClosedIsWrittenWhenItOpens() async throws {
        let clock = TestClock(Self.at(0))
        let test = try TestEngine(clock: clock)
        try await test.enroll(Self.reader)
        try await test.engine.decide(
            .grant,
            .read,
            of: [ObjectType(Self.steps)],
            for: Self.reader,
            terms: GrantTerms(expiresAt: Self.at(2))
        )
        await test.engine.shutdown()
        clock.set(Self.at(30))
        let reopened = try VaultEngine(vault: test.vault, now: { clock.now })
        defer { Task { await reopened.shutdown() } }
        let entry = try #require(try test.auditEntries().last)
        #expect(entry.operation == .authorizationExpireRead && entry.actor == .system)
        #expect(entry.attributes["expired"] == "2026-03-01T02:00:00.000Z")
        #expect(try await reopened.expireDueGrants() == 0)
    }

    @Test func aLiveWorkoutCollectsOnlyWhatTheWindowShowsAndNothingAfterTheExpiry() async throws {
        let clock = TestClock(Date())
        let test = try TestEngine(clock: clock)
        let runner = "org.example.runner"
        let strap = "org.example.strap"
        try await test.enroll(runner)
        try await test.enroll(strap)
        try await test.grant(.share, .workout, .quantity(.heartRate), to: runner)
        try await test.grant(.share, .quantity(.heartRate), to: strap)
        let start = Date().addingTimeInterval(-3_600)
        func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
        try await test.engine.decide(
            .grant,
            .read,
            of: [.quantity(.heartRate)],
            for: runner,
            terms: GrantTerms(window: .fixed(start: at(100), end: at(200)), expiresAt: Date().addingTimeInterval(600))
        )
        let engine = test.engine
        let app = Caller.app(runner)
        let session = try await engine.startWorkoutSession(try WorkoutConfiguration(activityType: .running), as: app)
        try await engine.workoutSession(.startActivity, at: at(0), follower: session, as: app)
        try await engine.beginWorkoutCollection(at: at(0), follower: session, as: app)
        try await engine.setWorkoutCollectedTypes([.quantity(.heartRate)], follower: session, as: app)
        func heartRate(_ bpm: Double, at seconds: Double) throws -> Sample {
            .quantity(
                try QuantitySample(
                    type: .heartRate,
                    quantity: Quantity(bpm, try HealthUnit(from: "count/min")),
                    start: at(seconds),
                    end: at(seconds),
                    sourceRevision: SourceRevision(source: Source(bundleIdentifier: strap, name: strap))
                )
            )
        }
        func average() async throws -> Double? {
            try await engine.workoutStatistics(.heartRate, follower: session, as: app)?.averageQuantity()?
                .doubleValue(for: try HealthUnit(from: "count/min"))
        }
        try await engine.save([try heartRate(150, at: 50)], as: .app(strap))
        #expect(try await average() == nil)
        try await engine.save([try heartRate(120, at: 150)], as: .app(strap))
        #expect(try await average().map { ($0 * 1e6).rounded() / 1e6 } == 120)
        // After the expiry: nothing more is collected, and what was is no longer seen.
        clock.set(Date().addingTimeInterval(601))
        try await engine.save([try heartRate(100, at: 160)], as: .app(strap))
        #expect(try await average() == nil)
    }

    @Test func everyDecisionIsAnEntryCarryingThePermissionsNewState() async throws {
        let (test, clock) = try await Self.vault()
        let engine = test.engine
        let heart = ObjectType(.quantity(.heartRate))
        let stepsType = ObjectType(Self.steps)
        try await engine.decide(
            .grant,
            .read,
            of: [stepsType],
            for: Self.reader,
            terms: GrantTerms(window: .last(seconds: 30 * 86_400), expiresAt: Self.at(24 * 300))
        )
        clock.advance(by: 0.25)
        try await engine.decide(.grant, .read, of: [heart], for: Self.reader, terms: GrantTerms(window: .sinceGrant))
        try await engine.decide(
            .grant,
            .read,
            of: [heart],
            for: Self.reader,
            terms: GrantTerms(window: .fixed(start: Self.at(1.0005), end: nil))
        )
        try await engine.decide(
            .grant,
            .share,
            of: [heart],
            for: Self.reader,
            terms: GrantTerms(expiresAt: Self.at(200))
        )
        try await engine.decide(.grant, .read, of: [stepsType], for: Self.reader)
        try await engine.decide(.revoke, .read, of: [heart], for: Self.reader)
        let decisions = try test.auditEntries().filter { $0.requestID == Self.reader && $0.actor == .owner }.suffix(6)
        #expect(
            decisions.map(\.operation) == [
                .authorizationGrantRead, .authorizationGrantRead, .authorizationGrantRead, .authorizationGrantShare,
                .authorizationGrantRead, .authorizationRevokeRead,
            ]
        )
        #expect(
            decisions.map(\.attributes) == [
                ["window": "last", "window-seconds": "2592000", "expires": "2026-12-26T00:00:00.000Z"],
                ["window": "since-grant", "window-start": "2026-03-06T00:00:00.250Z"],
                // To the millisecond below, as the engine applies it.
                ["window": "fixed", "window-start": "2026-03-01T01:00:01.800Z"],
                ["expires": "2026-03-09T08:00:00.000Z"],
                [:], [:],
            ]
        )
        // A plain grant's entry is the version 1 entry it always was.
        #expect(try decisions.dropFirst(4).first!.encoded().first == 1)
        #expect(try decisions.first!.encoded().first == 2)
        // The engine holds exactly what the entries say.
        let grants = try await engine.grants(of: Self.reader).grants
        #expect(grants.first { $0.type == stepsType }?.readTerms == GrantTerms.none)
        #expect(grants.first { $0.type == heart }?.shareTerms == GrantTerms(expiresAt: Self.at(200)))
        #expect(grants.first { $0.type == heart }?.read.isGranted == false)
    }

    @Test func termsADecisionCannotTakeAreRefusedAndNothingIsDecided() async throws {
        let (test, _) = try await Self.vault()
        let engine = test.engine
        let heart = ObjectType(.quantity(.heartRate))
        let cases: [(Decision, Access, Set<ObjectType>, GrantTerms, String)] = [
            (.deny, .read, [heart], GrantTerms(expiresAt: Self.at(200)), "goes with a grant"),
            (.grant, .share, [heart], GrantTerms(window: .sinceGrant), "a share grant takes only an expiry"),
            (.grant, .read, [heart], GrantTerms(expiresAt: Self.at(100)), "is not in the future"),
            (
                .grant, .read, [heart, .characteristic(.dateOfBirth)], GrantTerms(window: .last(seconds: 86_400)),
                "is a characteristic"
            ),
            (.grant, .read, [heart], GrantTerms(window: .fixed(start: nil, end: nil)), "needs a start, an end or both"),
            (
                .grant, .read, [heart], GrantTerms(window: .fixed(start: Self.at(5), end: Self.at(5))),
                "not after its start"
            ),
            (.grant, .read, [heart], GrantTerms(window: .last(seconds: 0)), "from 1 second to 100 years"),
            (.grant, .read, [heart], GrantTerms(window: .last(seconds: 1.5)), "whole seconds"),
        ]
        let before = try test.auditEntries().count
        for (decision, access, types, terms, message) in cases {
            let error = await healthError {
                try await engine.decide(decision, access, of: types, for: Self.reader, terms: terms)
            }
            #expect(
                error?.code == .invalidArgument && error?.message.contains(message) == true,
                "\(message): \(String(describing: error))"
            )
        }
        // Refusals are recorded as such (outcome error), and no grant was made.
        let refusals = try test.auditEntries().dropFirst(before)
        #expect(refusals.count == cases.count && refusals.allSatisfy { $0.outcome == .error })
        #expect(try await engine.grants(of: Self.reader).grants.allSatisfy { !$0.read.isDetermined })
    }

    /// What the log alone says each permission is: the last grant, denial, revocation or expiry
    /// of it, a grant with its attributes (docs/AUDIT_LOG.md, "Grants and their history").
    struct Replay {
        struct Permission: Equatable, CustomStringConvertible {
            var granted: Bool
            var attributes: [String: String]

            var description: String { "\(granted ? "granted" : "denied") \(attributes)" }
        }

        var permissions: [String: Permission] = [:]

        static func key(_ app: String, _ access: String, _ type: String) -> String { "\(app) \(access) \(type)" }

        mutating func apply(_ entry: AuditEntry) {
            let name = entry.operation.rawValue
            guard entry.outcome == .ok else { return }
            if entry.operation == .appRemove {
                permissions = permissions.filter { !$0.key.hasPrefix(entry.requestID + " ") }
                return
            }
            for (prefix, granted) in [
                ("authorization.grant-", true), ("authorization.deny-", false), ("authorization.revoke-", false),
                ("authorization.expire-", false),
            ] where name.hasPrefix(prefix) {
                let access = String(name.dropFirst(prefix.count))
                for type in entry.types {
                    permissions[Self.key(entry.requestID, access, type)] = Permission(
                        granted: granted,
                        attributes: granted ? entry.attributes : [:]
                    )
                }
            }
        }

        /// The permission at `now`: a grant whose `expires` has come is denied, written or not
        /// (unless `entriesOnly`: then only an expiry's entry ends it).
        func permission(
            _ app: String,
            _ access: String,
            _ type: String,
            at now: Date,
            entriesOnly: Bool = false
        ) -> Permission? {
            guard var permission = permissions[Self.key(app, access, type)] else { return nil }
            if !entriesOnly, permission.granted,
                let expires = permission.attributes["expires"].flatMap(RFC3339.date(from:)),
                expires <= now
            {
                permission = Permission(granted: false, attributes: [:])
            }
            return permission
        }
    }

    /// The engine's permission, in the replay's terms.
    static func permission(_ determination: Determination, _ terms: GrantTerms) -> Replay.Permission? {
        switch determination {
        case .notDetermined: return nil
        case .denied: return Replay.Permission(granted: false, attributes: [:])
        case .granted(let at, _):
            var attributes: [String: String] = [:]
            switch terms.window {
            case .none: break
            case .fixed(let start, let end):
                attributes["window"] = "fixed"
                attributes["window-start"] = start.map(AuditEntry.attributeTime)
                attributes["window-end"] = end.map(AuditEntry.attributeTime)
            case .last(let seconds):
                attributes["window"] = "last"
                attributes["window-seconds"] = String(Int(seconds))
            case .sinceGrant:
                attributes["window"] = "since-grant"
                attributes["window-start"] = AuditEntry.attributeTime(at)
            }
            attributes["expires"] = terms.expiresAt.map(AuditEntry.attributeTime)
            return Replay.Permission(granted: true, attributes: attributes)
        }
    }

    @Test func theLogAloneReplaysTheGrantsTheEngineHoldsAfterARandomSequence() async throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (23, 5, 7, 11))
        let (test, clock) = try await Self.vault()
        let engine = test.engine
        let apps = [Self.reader, Self.other]
        let types: [ObjectType] = [.quantity(.stepCount), .quantity(.heartRate), .quantity(.bodyMass)]
        for app in apps {
            try await engine.decide(.revoke, .share, of: Set(types), for: app)
        }
        func check(_ step: Int, entriesOnly: Bool = false) async throws {
            var replay = Replay()
            for entry in try test.auditEntries() { replay.apply(entry) }
            // The product's replay (`grants history`), beside this test's own.
            let history = GrantHistory(entries: try test.auditEntries()).states(at: clock.now)
            for app in apps {
                let grants = try await engine.grants(of: app).grants
                for type in types {
                    let grant = try #require(grants.first { $0.type == type })
                    for access in Access.allCases {
                        let held = Self.permission(grant[access], grant.terms(access))
                        let replayed = replay.permission(
                            app,
                            access.description,
                            type.identifier,
                            at: clock.now,
                            entriesOnly: entriesOnly
                        )
                        #expect(held == replayed, "step \(step): \(app) \(access) \(type)")
                        let key = GrantHistory.Key(app: app, access: access.description, type: type.identifier)
                        let fromHistory = history[key].map {
                            Replay.Permission(granted: $0.granted, attributes: $0.attributes)
                        }
                        #expect(held == fromHistory, "step \(step): GrantHistory: \(app) \(access) \(type)")
                    }
                }
            }
        }
        for step in 0..<80 {
            let app = apps[Int(rng.next() % 2)]
            let type = types[Int(rng.next() % 3)]
            let access: Access = rng.next() % 2 == 0 ? .read : .share
            switch rng.next() % 6 {
            case 0, 1:
                var terms = GrantTerms()
                if access == .read {
                    switch rng.next() % 4 {
                    case 0: terms.window = .last(seconds: Double(1 + rng.next() % 30) * 86_400)
                    case 1:
                        terms.window = .fixed(
                            start: clock.now.addingTimeInterval(-Double(rng.next() % 100_000) - 0.0004),
                            end: rng.next() % 2 == 0 ? nil : clock.now.addingTimeInterval(Double(rng.next() % 100_000))
                        )
                    case 2: terms.window = .sinceGrant
                    default: break
                    }
                }
                if rng.next() % 2 == 0 {
                    terms.expiresAt = clock.now.addingTimeInterval(Double(1 + rng.next() % 36_000))
                }
                try await engine.decide(.grant, access, of: [type], for: app, terms: terms)
            case 2:
                try await engine.decide(rng.next() % 2 == 0 ? .deny : .revoke, access, of: [type], for: app)
            case 3, 4:
                clock.advance(by: Double(rng.next() % 20_000) + 0.123)
            default:
                try await engine.expireDueGrants()
            }
            try await check(step)
        }
        // Every expiry written: the entries alone, without the grants' `expires`, agree too.
        try await engine.expireDueGrants()
        try await check(80, entriesOnly: true)
        #expect(try test.auditEntries().contains { $0.operation == .authorizationExpireRead })
        #expect(try test.auditEntries().contains { $0.operation == .authorizationExpireShare })
    }

    @Test func theAppIsNeverToldOfAWindowOrAnExpiry() async throws {
        let (test, _) = try await Self.vault()
        let engine = test.engine
        let caller = Caller.app(Self.reader)
        let heart = ObjectType(.quantity(.heartRate))
        func told() async throws -> Data {
            try wireBytes([
                try wireBytes(try await engine.authorizationStatus(for: heart, as: caller)),
                try wireBytes(
                    try await engine.authorizationRequestStatus(
                        toShare: [.quantity(.heartRate)],
                        read: [heart],
                        as: caller
                    )
                ),
            ])
        }
        try await engine.decide(.grant, .read, of: [heart], for: Self.reader)
        let plain = try await told()
        try await engine.decide(
            .grant,
            .read,
            of: [heart],
            for: Self.reader,
            terms: GrantTerms(window: .last(seconds: 86_400), expiresAt: Self.at(500))
        )
        #expect(try await told() == plain)
    }
}
