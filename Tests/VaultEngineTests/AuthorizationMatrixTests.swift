import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultEngine
import VaultStore

/// Five apps, twenty types, random read and share decisions: every save, query and delete is
/// compared with a reference model of the rules written here, apart from the engine.
@Suite struct AuthorizationMatrixTests {
    /// The rules, as a table: who may do what, and what the vault holds.
    struct Model {
        enum State: CaseIterable { case notDetermined, granted, denied }
        struct Key: Hashable {
            let app: String
            let type: SampleType
        }
        var read: [Key: State] = [:]
        var share: [Key: State] = [:]
        /// UUID to (creator, type).
        var samples: [UUID: Key] = [:]

        func canShare(_ app: String, _ type: SampleType) -> Bool { share[Key(app: app, type: type)] == .granted }

        /// What a query of `type` by `app` returns: everything with a read grant, else its own.
        func visible(to app: String, _ type: SampleType) -> Set<UUID> {
            let all = read[Key(app: app, type: type)] == .granted
            return Set(samples.filter { $0.value.type == type && (all || $0.value.app == app) }.keys)
        }

        enum DeleteResult: Hashable {
            case deleted(Int)
            case denied
        }

        /// Deleting `uuid`: only the creator, and only with its share grant; anyone else is
        /// answered as for an unknown UUID.
        func delete(_ uuid: UUID, by app: String) -> DeleteResult {
            guard let key = samples[uuid], key.app == app else { return .deleted(0) }
            return canShare(app, key.type) ? .deleted(1) : .denied
        }
    }

    @Test func everyOutcomeMatchesTheReferenceModel() async throws {
        let test = try TestEngine()
        var rng = Xoshiro(seed: (5, 0, 5, 5))
        let apps = (1...5).map { "org.example.matrix\($0)" }
        let types = Array(
            QuantityTypeIdentifier.allCases.filter {
                !VaultPolicy.standard.neverShared.contains(.quantity($0))
                    && !VaultPolicy.standard.explicitDecision.contains(.quantity($0))
            }.shuffled(using: &rng).prefix(20)
        ).map(SampleType.quantity)
        #expect(types.count == 20)
        var model = Model()
        for app in apps { try await test.enroll(app) }

        func decide(_ key: Model.Key, _ access: Access, _ state: Model.State) async throws {
            switch state {
            case .notDetermined: return
            case .granted: try await test.engine.decide(.grant, access, of: [ObjectType(key.type)], for: key.app)
            case .denied: try await test.engine.decide(.deny, access, of: [ObjectType(key.type)], for: key.app)
            }
            if access == .read { model.read[key] = state } else { model.share[key] = state }
        }
        for app in apps {
            for type in types {
                let key = Model.Key(app: app, type: type)
                try await decide(key, .read, Model.State.allCases.randomElement(using: &rng)!)
                try await decide(key, .share, Model.State.allCases.randomElement(using: &rng)!)
            }
        }

        // Share: every app tries to save two samples of every type.
        for app in apps {
            for type in types {
                guard case .quantity(let identifier) = type else { continue }
                let batch = [try quantitySample(identifier), try quantitySample(identifier)]
                let error = await healthError { try await test.engine.save(batch, as: .app(app)) }
                if model.canShare(app, type) {
                    #expect(error == nil, "\(app) \(type)")
                    for sample in batch { model.samples[sample.uuid] = Model.Key(app: app, type: type) }
                } else {
                    #expect(error?.code == .authorizationDenied, "\(app) \(type)")
                }
            }
        }
        #expect(!model.samples.isEmpty)
        try await checkReads(test, apps, types, model)

        // The owner changes their mind about a third of the decisions, revocations included.
        for app in apps {
            for type in types where rng.next() % 3 == 0 {
                let key = Model.Key(app: app, type: type)
                try await decide(key, .read, [.granted, .denied].randomElement(using: &rng)!)
                try await decide(key, .share, [.granted, .denied].randomElement(using: &rng)!)
            }
        }
        try await checkReads(test, apps, types, model)

        var seen: Set<Model.DeleteResult> = []
        // Delete: every app tries a random sample of every type (its own or another's) and an
        // unknown UUID.
        for app in apps {
            for type in types {
                let candidates = model.samples.filter { $0.value.type == type }.keys.sorted {
                    $0.uuidString < $1.uuidString
                }
                guard let uuid = candidates.randomElement(using: &rng) else { continue }
                let expected = model.delete(uuid, by: app)
                var actual = Model.DeleteResult.denied
                do {
                    actual = .deleted(try await test.engine.delete([uuid], as: .app(app)))
                } catch let error as HealthError where error.code == .authorizationDenied {
                    actual = .denied
                }
                #expect(actual == expected, "\(app) deleting a \(type) of \(model.samples[uuid]!.app)")
                seen.insert(expected)
                if expected == .deleted(1) { model.samples[uuid] = nil }
            }
            #expect(try await test.engine.delete([UUID()], as: .app(app)) == 0)
        }
        // The draw exercised each rule: a deletion, a refusal, another app's sample.
        #expect(seen == [.deleted(1), .deleted(0), .denied])
        try await checkReads(test, apps, types, model)

        // And the owner sees exactly what the model holds.
        let all = try await test.engine.samples(
            matching: SampleQueryDescriptor(predicates: types.map { SampleTypePredicate($0) }),
            as: .owner
        )
        #expect(Set(all.map(\.uuid)) == Set(model.samples.keys))
        for sample in all {
            #expect(sample.sourceRevision.source.bundleIdentifier == model.samples[sample.uuid]?.app)
        }
    }

    func checkReads(_ test: TestEngine, _ apps: [String], _ types: [SampleType], _ model: Model) async throws {
        for app in apps {
            for type in types {
                let found = try await test.engine.samples(
                    matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(type)]),
                    as: .app(app)
                )
                #expect(Set(found.map(\.uuid)) == model.visible(to: app, type), "\(app) reading \(type)")
            }
            // One query over every type gives the union.
            let found = try await test.engine.samples(
                matching: SampleQueryDescriptor(predicates: types.map { SampleTypePredicate($0) }),
                as: .app(app)
            )
            let expected = types.reduce(into: Set<UUID>()) { $0.formUnion(model.visible(to: app, $1)) }
            #expect(Set(found.map(\.uuid)) == expected, "\(app) reading every type")
        }
    }
}
