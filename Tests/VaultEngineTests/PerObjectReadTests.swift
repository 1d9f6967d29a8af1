import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// Reading object by object (docs/ACCESS_RULES.md, "Per-object reads"): to an app, the vision
/// prescriptions and documents the owner did not choose for it do not exist. Every read of
/// these types gives the bytes a vault holding only its own objects and the chosen ones gives,
/// through grants, revocations, deletions and later choices; type-level grants show nothing
/// more; every choice is on the record.
@Suite struct PerObjectReadTests {
    static let reader = "org.example.reader"
    static let clinic = "org.example.clinic"
    static let start = Fixtures.start
    static let prescriptions = SampleType.visionPrescription
    static let documents = SampleType.document(.cda)
    static let types = [prescriptions, documents]

    static func uuid(_ n: Int) -> UUID { UUID(uuidString: "00000000-0000-4000-8000-\(String(format: "%012d", n))")! }

    /// The reader's own prescription and document.
    static func own() throws -> [Sample] {
        [
            .visionPrescription(try Fixtures.glassesPrescription(uuid: uuid(1))),
            .cdaDocument(try Fixtures.cdaDocument(uuid: uuid(2), data: Fixtures.cda(title: "My own note"))),
        ]
    }

    /// The clinic's objects the owner will choose for the reader: two prescriptions, two
    /// documents, the same in every vault.
    static func chosen() throws -> [Sample] {
        [
            .visionPrescription(try Fixtures.contactsPrescription(uuid: uuid(11))),
            .cdaDocument(try Fixtures.cdaDocument(uuid: uuid(12))),
            .visionPrescription(try Fixtures.glassesPrescription(uuid: uuid(13))),
            .cdaDocument(
                try Fixtures.cdaDocument(uuid: uuid(14), data: Fixtures.cda(title: "Eye exam", patient: "Ada"))
            ),
        ]
    }

    /// The clinic's objects no one chooses for the reader.
    static func hidden(_ count: Int) throws -> [Sample] {
        try (0..<count).map { index in
            let date = start.addingTimeInterval(Double(index % 50) * 3600 - 90_000)
            return index % 2 == 0
                ? .visionPrescription(
                    try VisionPrescription(
                        type: .glasses,
                        lenses: .glasses(
                            rightEye: GlassesLensSpecification(sphere: Quantity(-1, .diopter)),
                            leftEye: nil
                        ),
                        dateIssued: date,
                        expirationDate: nil,
                        sourceRevision: Fixtures.app
                    )
                )
                : .cdaDocument(
                    try CDADocumentSample(
                        data: Fixtures.cda(title: "Hidden \(index)"),
                        start: date,
                        end: date,
                        sourceRevision: Fixtures.app
                    )
                )
        }
    }

    /// A vault where the reader saved its own objects, and the clinic `chosen` (the first
    /// `chosenCount` of them, in order) among `hidden` others; the owner chose the first
    /// `granted` for the reader.
    static func vault(hidden: Int, chosenCount: Int = 4, granted: Int = 2) async throws -> TestEngine {
        let test = try TestEngine()
        try await test.enroll(reader)
        try await test.enroll(clinic)
        try await test.engine.decide(.grant, .share, of: Set(types.map(ObjectType.init)), for: reader)
        try await test.engine.decide(.grant, .share, of: Set(types.map(ObjectType.init)), for: clinic)
        try await test.engine.save(try own(), as: .app(reader))
        let others = try Self.hidden(hidden)
        let half = others.count / 2
        if half > 0 { try await test.engine.save(Array(others[..<half]), as: .app(clinic)) }
        try await test.engine.save(Array(try chosen().prefix(chosenCount)), as: .app(clinic))
        if others.count > half { try await test.engine.save(Array(others[half...]), as: .app(clinic)) }
        if granted > 0 {
            try await test.engine.decideObjects(.grant, try chosen().prefix(granted).map(\.uuid), for: reader)
        }
        return test
    }

    /// Every read the reader can make of these types, as the bytes the daemon would send, with
    /// `probes` (UUIDs of hidden objects; random ones in a vault without) looked up and deleted.
    static func answers(_ engine: VaultEngine, probes: [UUID], anchors: inout [QueryAnchor]) async throws -> [Data] {
        let caller = Caller.app(reader)
        var answers: [Data] = []
        for type in types {
            for query in [
                SampleQueryDescriptor(predicates: [SampleTypePredicate(type)]),
                SampleQueryDescriptor(
                    predicates: [SampleTypePredicate(type)],
                    sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)],
                    limit: 2
                ),
                SampleQueryDescriptor(
                    predicates: [
                        SampleTypePredicate(
                            type,
                            predicate: .samples(withStart: start.addingTimeInterval(-10), end: nil)
                        )
                    ]
                ),
            ] {
                answers.append(try wireBytes(try await engine.samples(matching: query, as: caller)))
            }
            answers.append(
                try wireBytes(try await engine.sources(matching: SourceQueryDescriptor(sampleType: type), as: caller))
            )
        }
        for query in [
            DocumentQueryDescriptor(),
            DocumentQueryDescriptor(includeDocumentData: false),
            DocumentQueryDescriptor(sortDescriptors: [SampleSortDescriptor(.endDate, order: .descending)], limit: 1),
            DocumentQueryDescriptor(predicate: .samples(withStart: start, end: start.addingTimeInterval(60))),
        ] {
            let batch = try await engine.documents(matching: query, as: caller)
            answers.append(try wireBytes(batch.documents))
            answers.append(try wireBytes(batch.next))
        }
        for uuid in try (own() + chosen()).map(\.uuid) + probes {
            answers.append(try wireBytes(try await engine.sample(uuid: uuid, as: caller)))
        }
        // Deleting another app's object is answered as deleting an unknown one.
        answers.append(try wireBytes(try await engine.delete(probes, as: caller)))
        // Anchored: from the start, page by page, and from each anchor it gave before.
        var results: [AnchoredObjectQueryResult] = []
        let all = AnchoredObjectQueryDescriptor(predicates: types.map { SampleTypePredicate($0) })
        results.append(try await engine.anchoredObjects(matching: all, as: caller))
        var page = AnchoredObjectQueryDescriptor(predicates: types.map { SampleTypePredicate($0) }, limit: 1)
        for _ in 0..<3 {
            let result = try await engine.anchoredObjects(matching: page, as: caller)
            results.append(result)
            page = AnchoredObjectQueryDescriptor(predicates: page.predicates, anchor: result.newAnchor, limit: 1)
        }
        for anchor in anchors {
            let query = AnchoredObjectQueryDescriptor(predicates: all.predicates, anchor: anchor)
            results.append(try await engine.anchoredObjects(matching: query, as: caller))
        }
        anchors.append(results[0].newAnchor)
        // Anchors are sealed with each vault's key: compared by which answers share one.
        var numbers: [QueryAnchor: Int] = [:]
        for result in results {
            var canonical = result
            let number = numbers[result.newAnchor] ?? numbers.count
            numbers[result.newAnchor] = number
            canonical.newAnchor = QueryAnchor(token: "anchor-\(number)")
            answers.append(try wireBytes(canonical))
        }
        return answers
    }

    @Test(arguments: [0, 2000])
    func theObjectsNotChosenDoNotExistForTheApp(hidden: Int) async throws {
        // The reference: the clinic saved only what is chosen, and nothing else.
        let reference = try await Self.vault(hidden: 0, chosenCount: 2)
        let test = try await Self.vault(hidden: hidden)
        // Probes: UUIDs of hidden objects (random ones in a vault without), and one nothing has.
        let someHidden = try await test.engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(Self.prescriptions)]),
            as: .owner
        ).map(\.uuid).filter { !(try Self.own() + Self.chosen()).map(\.uuid).contains($0) }
        let hiddenUUIDs = Array(someHidden.prefix(1)) + (hidden > 0 ? [] : [UUID()])
        var referenceAnchors: [QueryAnchor] = []
        var testAnchors: [QueryAnchor] = []
        func compare(_ step: String) async throws {
            let expected = try await Self.answers(
                reference.engine,
                probes: [UUID(), UUID()],
                anchors: &referenceAnchors
            )
            let actual = try await Self.answers(test.engine, probes: hiddenUUIDs + [UUID()], anchors: &testAnchors)
            #expect(actual.count == expected.count, "\(step)")
            for (index, (a, e)) in zip(actual, expected).enumerated() where a != e {
                Issue.record(
                    "\(step): answer \(index) differs:\n\(String(decoding: a, as: UTF8.self).prefix(600))\nexpected\n\(String(decoding: e, as: UTF8.self).prefix(600))"
                )
            }
        }
        try await compare("the first choice")
        let own = try await test.engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(Self.prescriptions)]),
            as: .app(Self.reader)
        )
        #expect(Set(own.map(\.uuid)) == [Self.uuid(1), Self.uuid(11)])

        // A type-level read grant cannot be made, and shows nothing more.
        let refused = await healthError {
            try await test.engine.decide(.grant, .read, of: [.visionPrescription], for: Self.reader)
        }
        #expect(refused?.code == .invalidArgument && refused?.message.contains("object by object") == true)

        // A later choice: an addition at the reader's next anchored query. In the reference the
        // clinic saves it only now.
        let third = try Self.chosen()[2]
        try await reference.engine.save([third], as: .app(Self.clinic))
        try await reference.engine.decideObjects(.grant, [third.uuid], for: Self.reader)
        try await test.engine.decideObjects(.grant, [third.uuid], for: Self.reader)
        try await compare("a later choice")

        // Taken back: a deletion to the reader, as if the object were deleted.
        let first = try Self.chosen()[0]
        try await reference.engine.delete([first.uuid], as: .app(Self.clinic))
        try await test.engine.decideObjects(.revoke, [first.uuid], for: Self.reader)
        try await compare("taken back")

        // Hidden objects saved and deleted: nothing moves.
        try await test.engine.save(try Self.hidden(3), as: .app(Self.clinic))
        if hidden > 0 { try await test.engine.delete(Array(hiddenUUIDs.prefix(1)), as: .app(Self.clinic)) }
        // An object taken back and then deleted is not deleted twice.
        try await test.engine.delete([first.uuid], as: .app(Self.clinic))
        try await compare("hidden changes")

        // A chosen object deleted by its app: a deletion to the reader too.
        let document = try Self.chosen()[1]
        try await reference.engine.delete([document.uuid], as: .app(Self.clinic))
        try await test.engine.delete([document.uuid], as: .app(Self.clinic))
        try await compare("a chosen object deleted")
    }

    @Test func choicesAreCheckedAndAnsweredRequestsLeaveTheList() async throws {
        let test = try await Self.vault(hidden: 4, granted: 0)
        let chosen = try Self.chosen()
        // The app asks; a waiting request of the type takes its new predicate.
        try await test.engine.requestPerObjectReadAuthorization(
            for: Self.prescriptions,
            predicate: nil,
            as: .app(Self.reader)
        )
        try await test.engine.requestPerObjectReadAuthorization(
            for: Self.prescriptions,
            predicate: .samples(withStart: Self.start, end: nil),
            as: .app(Self.reader)
        )
        try await test.engine.requestPerObjectReadAuthorization(
            for: Self.documents,
            predicate: nil,
            as: .app(Self.reader)
        )
        var waiting = try await test.engine.pendingObjectRequests(of: Self.reader)
        #expect(waiting.map(\.type) == [Self.prescriptions, Self.documents])
        #expect(waiting[0].predicate == .samples(withStart: Self.start, end: nil))
        // Neither asks by type, nor a type that is not read object by object.
        let byType = await healthError {
            try await test.engine.requestAuthorization(toShare: [], read: [.visionPrescription], as: .app(Self.reader))
        }
        #expect(byType?.field == "read")
        let steps = await healthError {
            try await test.engine.requestPerObjectReadAuthorization(
                for: .quantity(.stepCount),
                predicate: nil,
                as: .app(Self.reader)
            )
        }
        #expect(steps?.field == "type")
        // What the owner sees: the clinic's objects, whether each is chosen and asked about.
        let choices = try await test.engine.objectChoices(for: Self.reader, type: Self.prescriptions)
        #expect(choices.count == 2 + 2)
        #expect(choices.allSatisfy { !$0.readable && $0.source.bundleIdentifier == Self.clinic })
        #expect(Set(choices.filter(\.asked).map(\.uuid)).isSuperset(of: [chosen[0].uuid, chosen[2].uuid]))
        // Refused, nothing changed: unknown, the app's own, another kind, a type the manifest lacks.
        for (uuids, field) in [([UUID()], "objects"), ([Self.uuid(1)], "objects")] {
            let error = await healthError { try await test.engine.decideObjects(.grant, uuids, for: Self.reader) }
            #expect(error?.field == field)
        }
        let revokeUnchosen = await healthError {
            try await test.engine.decideObjects(.revoke, [chosen[0].uuid], for: Self.reader)
        }
        #expect(revokeUnchosen?.message.contains("may not read") == true)
        try await test.enroll("org.example.narrow", read: [.quantity(.stepCount)])
        let narrow = await healthError {
            try await test.engine.decideObjects(.grant, [chosen[0].uuid], for: "org.example.narrow")
        }
        #expect(narrow?.message.contains("does not declare") == true)
        // Choosing prescriptions answers the prescription request; the document one waits,
        // until denied.
        try await test.engine.decideObjects(.grant, [chosen[0].uuid], for: Self.reader)
        waiting = try await test.engine.pendingObjectRequests(of: Self.reader)
        #expect(waiting.map(\.type) == [Self.documents])
        let approve = await healthError { try await test.engine.approveRequest(waiting[0].id) }
        #expect(approve?.message.contains("one by one") == true)
        try await test.engine.denyRequest(waiting[0].id)
        #expect(try await test.engine.pendingObjectRequests(of: Self.reader).isEmpty)
        #expect(
            try await test.engine.objectChoices(for: Self.reader).filter(\.readable).map(\.uuid) == [chosen[0].uuid]
        )
    }

    @Test func observersAndBackgroundDeliveryHearOnlyOfWhatTheAppMaySee() async throws {
        let test = try await Self.vault(hidden: 2, granted: 0)
        let chosen = try Self.chosen()
        try await test.engine.enableBackgroundDelivery(
            for: Self.prescriptions,
            frequency: .immediate,
            as: .app(Self.reader)
        )
        let observation = try await test.engine.observe(Set(Self.types), as: .app(Self.reader))
        var updates = observation.updates.makeAsyncIterator()
        func pending() async throws -> Int64 {
            try await test.engine.backgroundDeliveries(of: [Self.prescriptions], as: .app(Self.reader))[
                Self.prescriptions
            ]?
            .changes ?? -1
        }
        // Another app's new prescription, and its deletion: not announced.
        let hiddenOne = try Self.hidden(1)
        try await test.engine.save(hiddenOne, as: .app(Self.clinic))
        try await test.engine.delete(hiddenOne.map(\.uuid), as: .app(Self.clinic))
        #expect(try await pending() == 0)
        // Chosen: announced, and counted for background delivery.
        try await test.engine.decideObjects(.grant, [chosen[0].uuid, chosen[1].uuid], for: Self.reader)
        #expect(await updates.next() == ObserverUpdate(types: Set(Self.types)))
        #expect(try await pending() == 1)
        // The chosen one deleted by its app: announced.
        try await test.engine.delete([chosen[0].uuid], as: .app(Self.clinic))
        #expect(await updates.next() == ObserverUpdate(types: [Self.prescriptions]))
        #expect(try await pending() == 2)
        // Taken back: announced.
        try await test.engine.decideObjects(.revoke, [chosen[1].uuid], for: Self.reader)
        #expect(await updates.next() == ObserverUpdate(types: [Self.documents]))
        // A hidden one again, then the reader's own: only its own.
        try await test.engine.save(try Self.hidden(1), as: .app(Self.clinic))
        try await test.engine.save([.visionPrescription(try Fixtures.contactsPrescription())], as: .app(Self.reader))
        #expect(await updates.next() == ObserverUpdate(types: [Self.prescriptions]))
        #expect(try await pending() == 3)
    }

    @Test func everyChoiceIsAnEntryNamingItsObjectsAndTheLogReplaysThem() async throws {
        let test = try await Self.vault(hidden: 0, granted: 0)
        let chosen = try Self.chosen().map(\.uuid)
        // Enough objects that one decision takes two entries.
        var many: [Sample] = []
        for index in 0..<30 {
            many.append(.visionPrescription(try Fixtures.glassesPrescription(uuid: Self.uuid(100 + index))))
        }
        try await test.engine.save(many, as: .app(Self.clinic))
        try await test.engine.requestPerObjectReadAuthorization(
            for: Self.documents,
            predicate: nil,
            as: .app(Self.reader)
        )
        let steps: [(ObjectDecision, [UUID])] = [
            (.grant, [chosen[0], chosen[1]]), (.grant, many.map(\.uuid)), (.revoke, [chosen[0]]),
            (.revoke, Array(many.map(\.uuid).prefix(5))), (.grant, [chosen[0], chosen[2]]),
        ]
        var held: [[SampleType: Set<UUID>]] = []
        for (decision, uuids) in steps {
            try await test.engine.decideObjects(decision, uuids, for: Self.reader)
            held.append(try await Self.readable(test))
        }
        let entries = try test.auditEntries()
        let requests = entries.filter { $0.operation == .authorizationRequestObjects }
        #expect(requests.count == 1 && requests[0].types == [Self.documents.identifier])
        let decisions = entries.filter {
            [.authorizationGrantObjects, .authorizationRevokeObjects].contains($0.operation)
        }
        // The 30 prescriptions: two entries (27 and 3).
        #expect(decisions.count == 7)
        for entry in decisions {
            #expect(entry.actor == .owner && entry.requestID == Self.reader && entry.types.count == 1)
            let objects = try #require(entry.attributes["objects"]).split(separator: ",")
            #expect(UInt64(objects.count) == entry.objectCount && objects.count <= 27)
            #expect(objects == objects.sorted())
            // Nothing but the objects' UUIDs.
            #expect(Array(entry.attributes.keys) == ["objects"])
        }
        // Replayed from the entries alone, what the reader could read after each decision.
        var replay: [SampleType: Set<UUID>] = [:]
        var replayed: [[SampleType: Set<UUID>]] = []
        for entry in decisions {
            let type = try SampleType(identifier: entry.types[0])
            let objects = Set(
                try #require(entry.attributes["objects"]).split(separator: ",").compactMap {
                    UUID(uuidString: String($0))
                }
            )
            if entry.operation == .authorizationGrantObjects {
                replay[type, default: []].formUnion(objects)
            } else {
                replay[type, default: []].subtract(objects)
            }
            replayed.append(replay.filter { !$0.value.isEmpty })
        }
        // One state per decision: after the last entry of each (a decision of two types, or on 30
        // objects, is two).
        let perDecision = [replayed[1], replayed[3], replayed[4], replayed[5], replayed[6]]
        #expect(perDecision == held)
    }

    /// What the reader may read now, by type, from the engine's own view (its objects' UUIDs, not
    /// its own samples').
    static func readable(_ test: TestEngine) async throws -> [SampleType: Set<UUID>] {
        var held: [SampleType: Set<UUID>] = [:]
        for choice in try await test.engine.objectChoices(for: reader) where choice.readable {
            held[choice.type, default: []].insert(choice.uuid)
        }
        return held
    }
}
