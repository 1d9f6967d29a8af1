import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine

/// The correlation query in the engine: member predicates, and another app's correlations only
/// with a read grant for every member type.
@Suite struct CorrelationQueryTests {
    @Test func correlationsFollowMemberPredicatesAndTheReadScope() async throws {
        let test = try TestEngine()
        let pressure: [SampleType] = [.quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic)]
        for app in ["org.example.cuff", "org.example.reader"] {
            try await test.enroll(app)
            try await test.engine.decide(.grant, .share, of: Set(pressure.map(ObjectType.init)), for: app)
        }
        let readings = try [(120.0, 80.0), (140, 90), (135, 70)].map {
            Sample.correlation(try Fixtures.bloodPressure(systolic: $0.0, diastolic: $0.1))
        }
        try await test.engine.save(readings, as: .app("org.example.cuff"))
        let own = Sample.correlation(try Fixtures.bloodPressure(systolic: 150, diastolic: 95))
        try await test.engine.save([own], as: .app("org.example.reader"))

        let high = CorrelationQueryDescriptor(
            type: .bloodPressure,
            samplePredicates: [
                SampleTypePredicate(
                    .quantity(.bloodPressureSystolic),
                    predicate: .quantity(.greaterThanOrEqualTo, Quantity(135, .millimeterOfMercury))
                ),
                SampleTypePredicate(
                    .quantity(.bloodPressureDiastolic),
                    predicate: .quantity(.greaterThan, Quantity(75, .millimeterOfMercury))
                ),
            ]
        )
        // The owner: both conditions, each on a member of its type. (Same start: by UUID.)
        let expected = [readings[1].uuid, own.uuid].sorted { $0.uuidString < $1.uuidString }
        #expect(try await test.engine.correlations(matching: high, as: .owner).map(\.uuid) == expected)
        #expect(
            try await test.engine.correlations(matching: CorrelationQueryDescriptor(type: .bloodPressure), as: .owner)
                .count == 4
        )

        // A reader with systolic alone sees only its own; with both, every one.
        let reader = Caller.app("org.example.reader")
        try await test.grant(.read, .quantity(.bloodPressureSystolic), to: "org.example.reader")
        #expect(try await test.engine.correlations(matching: high, as: reader).map(\.uuid) == [own.uuid])
        try await test.grant(.read, .quantity(.bloodPressureDiastolic), to: "org.example.reader")
        #expect(try await test.engine.correlations(matching: high, as: reader).map(\.uuid) == expected)

        // A member type the correlation cannot hold is bad input, named.
        let wrong = await healthError {
            _ = try await test.engine.correlations(
                matching: CorrelationQueryDescriptor(
                    type: .bloodPressure,
                    samplePredicates: [SampleTypePredicate(.quantity(.heartRate))]
                ),
                as: reader
            )
        }
        #expect(wrong?.code == .invalidArgument && wrong?.field == "samplePredicates[0].sampleType")

        // Audited as a correlation query of the type.
        let last = try #require(try test.auditEntries().last)
        #expect(last.operation == .queryCorrelation && last.types == ["HKCorrelationTypeIdentifierBloodPressure"])
    }

    /// An app's save keeps each member's own version, product type and system version (the
    /// source is the app's identity everywhere), read back by every query that returns members.
    @Test func membersKeepTheirOwnRevision() async throws {
        let test = try TestEngine()
        let app = "org.example.cuff"
        let types: [SampleType] = [.quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic)]
        try await test.enroll(app)
        try await test.engine.decide(.grant, .share, of: Set(types.map(ObjectType.init)), for: app)
        try await test.engine.decide(.grant, .read, of: Set(types.map(ObjectType.init)), for: app)
        let claimed = Source(bundleIdentifier: "com.example.claimed", name: "Claimed")
        let given = [
            SourceRevision(source: claimed, version: "9.9", productType: "Cuff1,1", operatingSystemVersion: "4.2"),
            SourceRevision(source: claimed, version: "2.0"),
            SourceRevision(source: claimed, version: "1.0", productType: "iPhone15,2"),
        ]
        let plain = try Fixtures.bloodPressure()
        let members = zip(plain.objects, given).map { $0.attributed(to: $1) }
        let reading = try Correlation(
            type: .bloodPressure,
            start: plain.startDate,
            end: plain.endDate,
            objects: members,
            sourceRevision: given[2]
        )
        try await test.engine.save([.correlation(reading)], as: .app(app))

        let caller = Caller.app(app)
        let found = try #require(
            try await test.engine.correlations(matching: CorrelationQueryDescriptor(type: .bloodPressure), as: caller)
                .first
        )
        let identity = found.sourceRevision.source
        #expect(identity.bundleIdentifier == app)
        func expected(_ revision: SourceRevision) -> SourceRevision {
            SourceRevision(
                source: identity,
                version: revision.version,
                productType: revision.productType,
                operatingSystemVersion: revision.operatingSystemVersion
            )
        }
        #expect(found.sourceRevision == expected(given[2]))
        let foundMembers = Dictionary(uniqueKeysWithValues: found.objects.map { ($0.uuid, $0.sourceRevision) })
        #expect(
            foundMembers == Dictionary(uniqueKeysWithValues: zip(members.map(\.uuid), given.prefix(2).map(expected)))
        )
        for (member, revision) in zip(members, given) {
            #expect(try await test.engine.sample(uuid: member.uuid, as: caller)?.sourceRevision == expected(revision))
            let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(member.sampleType)])
            #expect(
                try await test.engine.samples(matching: query, as: caller).map(\.sourceRevision) == [expected(revision)]
            )
        }
    }
}
