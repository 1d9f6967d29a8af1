import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultCrypto
import VaultEngine
import VaultStore

/// An app asks, the owner decides, the app learns only what HealthKit would tell it.
@Suite struct AuthorizationFlowTests {
    static let app = "org.example.stepcounter"
    static let steps = SampleType.quantity(.stepCount)
    static let heartRate = SampleType.quantity(.heartRate)

    @Test func requestsBecomePendingAndTheOwnerDecidesEachTypeOrAll() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        let engine = test.engine
        let caller = Caller.app(Self.app)
        #expect(
            try await engine.authorizationRequestStatus(
                toShare: [Self.steps],
                read: [.quantity(.heartRate)],
                as: caller
            )
                == .shouldRequest
        )
        try await engine.requestAuthorization(
            toShare: [Self.steps, Self.heartRate],
            read: [.quantity(.stepCount), .quantity(.heartRate)],
            as: caller
        )
        // Asking again while pending adds nothing.
        try await engine.requestAuthorization(toShare: [Self.steps], read: [.quantity(.stepCount)], as: caller)
        var pending = try await engine.pendingRequests()
        #expect(pending.count == 1)
        #expect(pending.first?.share == [.quantity(.heartRate), .quantity(.stepCount)])
        #expect(pending.first?.read == [.quantity(.heartRate), .quantity(.stepCount)])

        // Per type: steps only.
        try await engine.decide(.grant, .share, of: [.quantity(.stepCount)], for: Self.app)
        try await engine.decide(.grant, .read, of: [.quantity(.stepCount)], for: Self.app)
        #expect(try await engine.authorizationStatus(for: .quantity(.stepCount), as: caller) == .sharingAuthorized)
        #expect(try await engine.authorizationStatus(for: .quantity(.heartRate), as: caller) == .notDetermined)
        #expect(
            try await engine.authorizationRequestStatus(
                toShare: [Self.steps],
                read: [.quantity(.stepCount)],
                as: caller
            )
                == .unnecessary
        )
        pending = try await engine.pendingRequests(of: Self.app)
        #expect(pending.first?.share == [.quantity(.heartRate)])

        // The rest at once.
        try await engine.denyRequest(pending[0].id)
        #expect(try await engine.pendingRequests().isEmpty)
        #expect(try await engine.authorizationStatus(for: .quantity(.heartRate), as: caller) == .sharingDenied)
        // Decided either way: nothing more to ask, and the read decision is never revealed.
        #expect(
            try await engine.authorizationRequestStatus(
                toShare: [Self.heartRate],
                read: [.quantity(.heartRate)],
                as: caller
            ) == .unnecessary
        )
        let grants = try await engine.grants(of: Self.app)
        let heart = grants.grants.first { $0.type == .quantity(.heartRate) }
        guard case .denied(_, let who)? = heart?.read else {
            Issue.record("heart rate read should be denied: \(String(describing: heart))")
            return
        }
        #expect(who == "owner")
        #expect(grants.grants.first { $0.type == .quantity(.stepCount) }?.read.isGranted == true)
        #expect(grants.app.readPurpose == "to show your trends")
    }

    @Test func approvingARequestLeavesExplicitDecisionTypesPending() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        let menstrualFlow = SampleType.category(.menstrualFlow)
        #expect(VaultPolicy.standard.explicitDecision.contains(ObjectType(menstrualFlow)))
        try await test.engine.requestAuthorization(
            toShare: [Self.steps, menstrualFlow],
            read: [.quantity(.stepCount), ObjectType(menstrualFlow)],
            as: .app(Self.app)
        )
        let request = try #require(try await test.engine.pendingRequests().first)
        let remaining = try #require(try await test.engine.approveRequest(request.id))
        #expect(remaining.read == [ObjectType(menstrualFlow)])
        #expect(remaining.share == [ObjectType(menstrualFlow)])
        #expect(
            try await test.engine.authorizationStatus(for: .quantity(.stepCount), as: .app(Self.app))
                == .sharingAuthorized
        )
        #expect(
            try await test.engine.authorizationStatus(for: ObjectType(menstrualFlow), as: .app(Self.app))
                == .notDetermined
        )
        // The owner decides it by name.
        try await test.engine.decide(.grant, .share, of: [ObjectType(menstrualFlow)], for: Self.app)
        #expect(
            try await test.engine.authorizationStatus(for: ObjectType(menstrualFlow), as: .app(Self.app))
                == .sharingAuthorized
        )
        // Approving a request with nothing left to decide but explicit types changes nothing.
        #expect(try await test.engine.approveRequest(request.id)?.read == [ObjectType(menstrualFlow)])
    }

    @Test func approvingARequestLeavesMentalHealthTypesPending() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        let mental: Set<SampleType> = [.stateOfMind, .scoredAssessment(.gad7), .scoredAssessment(.phq9)]
        let others: Set<SampleType> = [.electrocardiogram, .audiogram, .heartbeatSeries]
        try await test.engine.requestAuthorization(
            toShare: mental.union(others),
            read: Set(mental.union(others).map(ObjectType.init)),
            as: .app(Self.app)
        )
        let request = try #require(try await test.engine.pendingRequests().first)
        let remaining = try #require(try await test.engine.approveRequest(request.id))
        #expect(Set(remaining.read) == Set(mental.map(ObjectType.init)))
        #expect(Set(remaining.share) == Set(mental.map(ObjectType.init)))
        for type in others {
            #expect(
                try await test.engine.authorizationStatus(for: ObjectType(type), as: .app(Self.app))
                    == .sharingAuthorized
            )
        }
        for type in mental {
            #expect(
                try await test.engine.authorizationStatus(for: ObjectType(type), as: .app(Self.app)) == .notDetermined
            )
        }
    }

    @Test func requestsTheVaultCanNeverGrantAreRefused() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app, read: [.quantity(.stepCount)], share: [Self.steps])
        let caller = Caller.app(Self.app)
        func code(_ share: Set<SampleType>, _ read: Set<ObjectType>) async -> HealthError.Code? {
            await healthError { try await test.engine.requestAuthorization(toShare: share, read: read, as: caller) }?
                .code
        }
        #expect(await code([], []) == .invalidArgument)
        // Not in its manifest.
        #expect(await code([Self.heartRate], []) == .invalidArgument)
        #expect(await code([], [.characteristic(.dateOfBirth)]) == .invalidArgument)
        // Derived, and correlation types.
        #expect(await code([.quantity(.appleExerciseTime)], []) == .invalidArgument)
        #expect(await code([.correlation(.bloodPressure)], []) == .invalidArgument)
        #expect(await code([], [.correlation(.food)]) == .invalidArgument)
        // The status call refuses the same, rather than answer shouldRequest forever.
        for (share, read) in [([], []), ([Self.heartRate], []), ([.correlation(.bloodPressure)], [])]
            as [(Set<SampleType>, Set<ObjectType>)]
        {
            let status = await healthError {
                _ = try await test.engine.authorizationRequestStatus(toShare: share, read: read, as: caller)
            }
            #expect(status?.code == .invalidArgument)
        }
        // The owner cannot grant what the manifest does not declare, nor what the policy reserves.
        let owner = await healthError {
            try await test.engine.decide(.grant, .read, of: [.quantity(.heartRate)], for: Self.app)
        }
        #expect(owner?.code == .invalidArgument)
        #expect(owner?.message.contains("does not declare") == true)
        // An app declaring a reserved type cannot be enrolled.
        let enrol = await healthError {
            try await test.enroll("org.example.derived", read: [], share: [.quantity(.appleStandTime)])
        }
        #expect(enrol?.code == .invalidArgument)
        // Nor can one id be enrolled twice, or a malformed id.
        #expect(await healthError { try await test.enroll(Self.app) }?.code == .invalidArgument)
        #expect(await healthError { try await test.enroll("stepcounter") }?.field == "appID")
        #expect(await healthError { try await test.enroll("org.exam ple.x") }?.field == "appID")
    }

    @Test func aRequestIsDecidedWholeOrNotAtAll() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        try await test.engine.requestAuthorization(
            toShare: [Self.heartRate],
            read: [.quantity(.heartRate)],
            as: .app(Self.app)
        )
        // The owner's policy now reserves heart rate: approving the request fails on the share,
        // and the read is not granted either.
        var policy = VaultPolicy.standard
        policy.neverShared.insert(.quantity(.heartRate))
        try await test.engine.setPolicy(policy)
        let request = try #require(try await test.engine.pendingRequests().first)
        #expect(await healthError { try await test.engine.approveRequest(request.id) }?.code == .invalidArgument)
        #expect(try await test.engine.pendingRequests() == [request])
        // A policy that could not be read back is refused before it is stored.
        policy.explicitDecision.insert(.correlation(.bloodPressure))
        await #expect(throws: PolicyError.self) { try await test.engine.setPolicy(policy) }
        #expect(try await test.engine.policy().explicitDecision == VaultPolicy.standard.explicitDecision)
    }

    @Test func anUnknownOrRemovedAppIsRefusedAndItsSamplesStay() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        try await test.grant(.share, Self.steps, to: Self.app)
        try await test.engine.save([try quantitySample()], as: .app(Self.app))
        try await test.engine.removeApp(Self.app)
        let error = await healthError {
            _ = try await test.engine.samples(
                matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(Self.steps)]),
                as: .app(Self.app)
            )
        }
        #expect(error?.code == .authorizationDenied)
        #expect(try test.sampleCount() == 1)
        #expect(try await test.engine.apps().isEmpty)
        // Enrolled again, it would own those samples: the owner must say so.
        let again = await healthError { try await test.enroll(Self.app) }
        #expect(again?.code == .invalidArgument)
        #expect(again?.message.contains("adopting") == true)
        try await test.engine.enroll(
            AppRegistration(
                appID: Self.app,
                displayName: "Again",
                publicKey: Ed25519.SigningKey().publicKey,
                sharePurpose: "again",
                declaredShare: [Self.steps]
            ),
            adoptingExistingSamples: true
        )
        // It starts with no grants.
        #expect(
            try await test.engine.authorizationStatus(for: ObjectType(Self.steps), as: .app(Self.app)) == .notDetermined
        )
    }

    @Test func savedObjectsAreAttributedToTheCallingApp() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        try await test.grant(
            .share,
            Self.steps,
            .quantity(.bloodPressureSystolic),
            .quantity(.bloodPressureDiastolic),
            to: Self.app
        )
        let claimed = try quantitySample(claimedSource: "com.apple.health")
        let pressure = Sample.correlation(try Fixtures.bloodPressure())
        try await test.engine.save([claimed, pressure], as: .app(Self.app))
        let stored = try await test.engine.samples(
            matching: SampleQueryDescriptor(
                predicates: [SampleTypePredicate(Self.steps), SampleTypePredicate(.correlation(.bloodPressure))]
            ),
            as: .owner
        )
        #expect(stored.count == 2)
        for sample in stored {
            #expect(sample.sourceRevision.source == Source(bundleIdentifier: Self.app, name: "App \(Self.app)"))
            if case .correlation(let correlation) = sample {
                #expect(correlation.objects.allSatisfy { $0.sourceRevision.source.bundleIdentifier == Self.app })
            }
        }
    }

    @Test func aBatchWithOneUnauthorizedTypeSavesNothing() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        try await test.grant(.share, Self.steps, to: Self.app)
        let batch = [try quantitySample(), try quantitySample(.heartRate), try quantitySample()]
        let error = await healthError { try await test.engine.save(batch, as: .app(Self.app)) }
        #expect(error?.code == .authorizationDenied)
        #expect(error?.message.contains(Self.heartRate.identifier) == true)
        #expect(try test.sampleCount() == 0)
        // A correlation needs its members' types.
        let pressure = await healthError {
            try await test.engine.save([.correlation(try Fixtures.bloodPressure())], as: .app(Self.app))
        }
        #expect(pressure?.code == .authorizationDenied)
        #expect(try test.sampleCount() == 0)
    }

    @Test func deletingOwnSamplesNeedsTheShareGrant() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        try await test.grant(.share, Self.steps, to: Self.app)
        let sample = try quantitySample()
        try await test.engine.save([sample], as: .app(Self.app))
        try await test.engine.decide(.revoke, .share, of: [ObjectType(Self.steps)], for: Self.app)
        #expect(
            await healthError { try await test.engine.delete([sample.uuid], as: .app(Self.app)) }?.code
                == .authorizationDenied
        )
        #expect(
            await healthError { try await test.engine.deleteObjects(of: Self.steps, as: .app(Self.app)) }?.code
                == .authorizationDenied
        )
        // A save after revocation is refused at once.
        #expect(
            await healthError { try await test.engine.save([try quantitySample()], as: .app(Self.app)) }?.code
                == .authorizationDenied
        )
        #expect(try test.sampleCount() == 1)
    }

    @Test func characteristicsAreTheOwnersAndReadOnlyWithAGrant() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        try await test.engine.setCharacteristic(.bloodType(.oPositive))
        #expect(try await test.engine.characteristic(.bloodType, as: .app(Self.app)) == nil)
        try await test.engine.decide(.grant, .read, of: [.characteristic(.bloodType)], for: Self.app)
        #expect(try await test.engine.characteristic(.bloodType, as: .app(Self.app)) == .bloodType(.oPositive))
        #expect(try await test.engine.characteristic(.bloodType, as: .owner) == .bloodType(.oPositive))
        // No app shares a characteristic.
        let share = await healthError {
            try await test.engine.decide(.grant, .share, of: [.characteristic(.bloodType)], for: Self.app)
        }
        #expect(share?.code == .invalidArgument)
    }

    @Test func revocationStopsAnObservationSeeingOtherAppsAtOnce() async throws {
        let test = try TestEngine()
        let other = "org.example.other"
        try await test.enroll(Self.app)
        try await test.enroll(other)
        try await test.grant(.share, Self.steps, Self.heartRate, to: Self.app)
        try await test.grant(.share, Self.steps, to: other)
        try await test.grant(.read, Self.steps, to: Self.app)
        let observation = try await test.engine.observe([Self.steps, Self.heartRate], as: .app(Self.app))
        var updates = observation.updates.makeAsyncIterator()

        try await test.engine.save([try quantitySample()], as: .app(other))
        #expect(await updates.next() == ObserverUpdate(types: [Self.steps]))

        try await test.engine.decide(.revoke, .read, of: [ObjectType(Self.steps)], for: Self.app)
        // Another app's steps are no longer announced; the app's own saves still are, as they
        // would be to an app that may read steps and finds nothing else.
        try await test.engine.save([try quantitySample()], as: .app(other))
        try await test.engine.save([try quantitySample(.heartRate)], as: .app(Self.app))
        #expect(await updates.next() == ObserverUpdate(types: [Self.heartRate]))
        try await test.engine.save([try quantitySample()], as: .app(Self.app))
        #expect(await updates.next() == ObserverUpdate(types: [Self.steps]))
        // Deletions of hidden samples are not announced either.
        try await test.engine.deleteObjects(of: Self.steps, as: .owner)
        try await test.engine.save([try quantitySample(.heartRate)], as: .app(Self.app))
        #expect(await updates.next() == ObserverUpdate(types: [Self.steps]), "its own step sample was deleted too")
        #expect(await updates.next() == ObserverUpdate(types: [Self.heartRate]))

        // Another app cannot stop it.
        try await test.engine.stopObserving(observation, as: .app(other))
        try await test.engine.save([try quantitySample(.heartRate)], as: .app(Self.app))
        #expect(await updates.next() == ObserverUpdate(types: [Self.heartRate]))
        try await test.engine.stopObserving(observation, as: .app(Self.app))
        #expect(await updates.next() == nil)
    }

    @Test func aCorrelationIsReadWhollyOnlyWithEveryMemberType() async throws {
        let test = try TestEngine()
        let other = "org.example.other"
        try await test.enroll(Self.app)
        try await test.enroll(other)
        try await test.grant(.share, .quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic), to: other)
        try await test.grant(.read, .quantity(.bloodPressureSystolic), to: Self.app)
        let pressure = SampleType.correlation(.bloodPressure)
        let observation = try await test.engine.observe([pressure, Self.heartRate], as: .app(Self.app))
        var updates = observation.updates.makeAsyncIterator()
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(pressure)])
        // With systolic only, another app's blood pressure is neither shown nor announced.
        try await test.engine.save([.correlation(try Fixtures.bloodPressure())], as: .app(other))
        #expect(try await test.engine.samples(matching: query, as: .app(Self.app)).isEmpty)
        try await test.grant(.share, Self.heartRate, to: Self.app)
        try await test.engine.save([try quantitySample(.heartRate)], as: .app(Self.app))
        #expect(await updates.next() == ObserverUpdate(types: [Self.heartRate]))
        // With both member types, it is.
        try await test.grant(.read, .quantity(.bloodPressureDiastolic), to: Self.app)
        #expect(try await test.engine.samples(matching: query, as: .app(Self.app)).count == 1)
        try await test.engine.save([.correlation(try Fixtures.bloodPressure())], as: .app(other))
        #expect(await updates.next() == ObserverUpdate(types: [pressure]))
    }

    @Test func afterShutdownEveryCallSaysSo() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        let observation = try await test.engine.observe([Self.steps], as: .app(Self.app))
        await test.engine.shutdown()
        var updates = observation.updates.makeAsyncIterator()
        #expect(await updates.next() == nil)
        let error = await healthError { _ = try await test.engine.apps() }
        #expect(error == HealthError(.databaseInaccessible, "the vault engine has shut down"))
    }

    @Test func aSaveThatChangesNothingIsNotAnnounced() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        try await test.grant(.share, Self.steps, Self.heartRate, to: Self.app)
        let observation = try await test.engine.observe([Self.steps, Self.heartRate], as: .app(Self.app))
        var updates = observation.updates.makeAsyncIterator()
        func day(version: Double) throws -> Sample {
            .quantity(
                try Fixtures.quantity(metadata: [.syncIdentifier: .string("day"), .syncVersion: .number(version)])
            )
        }
        #expect(try await test.engine.save([try day(version: 2)], as: .app(Self.app)).saved == 1)
        #expect(await updates.next() == ObserverUpdate(types: [Self.steps]))
        // An older version is ignored: nothing changed, nothing to announce.
        #expect(try await test.engine.save([try day(version: 1)], as: .app(Self.app)).ignored == 1)
        try await test.engine.save([try quantitySample(.heartRate)], as: .app(Self.app))
        #expect(await updates.next() == ObserverUpdate(types: [Self.heartRate]))
    }

    @Test func removingAnAppEndsItsObservations() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.app)
        let observation = try await test.engine.observe([Self.steps], as: .app(Self.app))
        try await test.engine.removeApp(Self.app)
        var updates = observation.updates.makeAsyncIterator()
        #expect(await updates.next() == nil)
    }

    @Test func anObservationNeverOutlivesItsEnrolment() async throws {
        let test = try TestEngine()
        let other = "org.example.other"
        try await test.enroll(other)
        try await test.grant(.share, Self.steps, to: other)
        try await test.enroll(Self.app)
        try await test.grant(.read, Self.steps, to: Self.app)
        let observation = try await test.engine.observe([Self.steps], as: .app(Self.app))
        // Removed and enrolled again with the same grant: the old observation ended with the old
        // enrolment and does not serve the new one.
        try await test.engine.removeApp(Self.app)
        try await test.enroll(Self.app)
        try await test.grant(.read, Self.steps, to: Self.app)
        try await test.engine.save([try quantitySample()], as: .app(other))
        var updates = observation.updates.makeAsyncIterator()
        #expect(await updates.next() == nil)
    }
}
