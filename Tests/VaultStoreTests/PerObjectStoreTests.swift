import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing
import VaultCrypto

@testable import VaultStore

/// Vision prescriptions and CDA documents in the real encrypted store (schema 16), and a scope
/// that reads them object by object.
@Suite(.serialized)
struct PerObjectStoreTests {
    let test: TestVault
    let store: SampleStore

    init() throws {
        test = try TestVault()
        store = try test.store
    }

    static func app(_ id: String) -> SourceRevision {
        SourceRevision(source: Source(bundleIdentifier: id, name: id))
    }

    @Test func bothKindsRoundTripAndADocumentKeepsItsBytes() async throws {
        await propertyCheck(count: 60, input: Generator(run: { rng in RandomModel.perObjectSample(&rng) })) {
            sample throws in
            try store.save([sample])
            // A sample query answers a document without it, as HealthKit's does.
            #expect(try store.sample(uuid: sample.uuid, scope: .owner) == sample.withoutSeriesData)
            // The export reads it whole, bytes included.
            let stored = try store.database.read { db -> StoredSample? in
                let id = try #require(
                    try db.scalarInt("SELECT id FROM samples WHERE uuid = ?", [DatabaseValue.blob(sample.uuid.bytes)])
                )
                return try store.withSeries(
                    StoredSample(id: id, sample: sample.withoutSeriesData, routeLocations: nil, workouts: []),
                    in: db
                )
            }
            #expect(stored?.sample == sample)
        }
    }

    @Test func aDocumentWithoutItsBytesIsRefusedAndNothingIsSaved() throws {
        let good = Sample.visionPrescription(try Fixtures.glassesPrescription())
        let bare = Sample.cdaDocument(try Fixtures.cdaDocument().withoutDocumentData)
        let error = #expect(throws: HealthError.self) { try store.save([good, bare]) }
        #expect(error?.field == "objects[1].document.documentData")
        #expect(try store.sample(uuid: good.uuid, scope: .owner) == nil)
    }

    @Test func deletingRemovesTheDetailsAndLeavesTombstones() throws {
        let samples: [Sample] = [
            .visionPrescription(try Fixtures.glassesPrescription()), .cdaDocument(try Fixtures.cdaDocument()),
        ]
        try store.save(samples)
        func rows() throws -> [Int64] {
            try store.database.read { db in
                try ["vision_prescriptions", "documents"].map { try db.scalarInt("SELECT count(*) FROM \($0)") ?? -1 }
            }
        }
        #expect(try rows() == [1, 1])
        #expect(try store.delete(uuids: samples.map(\.uuid), scope: .owner) == 2)
        #expect(try rows() == [0, 0])
    }

    @Test func aScopeReadsItsOwnObjectsAndTheChosenOnesOnly() throws {
        let mine = Self.app("org.example.mine")
        let theirs = Self.app("org.example.theirs")
        let own = try Fixtures.glassesPrescription(source: mine)
        let chosen = try Fixtures.contactsPrescription(source: theirs)
        let hidden = try Fixtures.glassesPrescription(source: theirs)
        let document = try Fixtures.cdaDocument(source: theirs)
        try store.save([
            .visionPrescription(own), .visionPrescription(chosen), .visionPrescription(hidden), .cdaDocument(document),
        ])
        let query = SampleQueryDescriptor(
            predicates: [SampleTypePredicate(.visionPrescription)],
            sortDescriptors: [SampleSortDescriptor(.startDate)]
        )
        func uuids(_ scope: ReadScope) throws -> Set<UUID> {
            Set(try store.samples(matching: query, scope: scope).map(\.uuid))
        }
        // A type-level grant shows nothing more: prescriptions are read object by object.
        let typeLevel = ReadScope.app("org.example.mine", readableTypes: [.visionPrescription])
        #expect(try uuids(typeLevel) == [own.uuid])
        let chosenScope = ReadScope.app("org.example.mine", readableTypes: []).reading(objects: [
            .visionPrescription: [chosen.uuid]
        ])
        #expect(try uuids(chosenScope) == [own.uuid, chosen.uuid])
        // A UUID chosen as another type, or one of a hidden object, is not shown.
        let wrongType = ReadScope.app("org.example.mine", readableTypes: []).reading(objects: [
            .document(.cda): [hidden.uuid]
        ])
        #expect(try uuids(wrongType) == [own.uuid])
        #expect(try store.sample(uuid: hidden.uuid, scope: wrongType) == nil)
        #expect(try store.sample(uuid: chosen.uuid, scope: chosenScope) == .visionPrescription(chosen))
        #expect(try store.sample(uuid: hidden.uuid, scope: chosenScope) == nil)
        // An app that saved none sees only the chosen.
        let newcomer = ReadScope.app("org.example.new", readableTypes: []).reading(objects: [
            .visionPrescription: [chosen.uuid]
        ])
        #expect(try uuids(newcomer) == [chosen.uuid])
        #expect(try uuids(ReadScope.app("org.example.new", readableTypes: [])).isEmpty)
        let sources = try store.database.read {
            try store.sources(matching: SourceQueryDescriptor(sampleType: .visionPrescription), scope: newcomer, in: $0)
        }
        #expect(sources.map(\.bundleIdentifier) == ["org.example.theirs"])
        // The owner reads everything.
        #expect(try uuids(.owner) == [own.uuid, chosen.uuid, hidden.uuid])
    }

    @Test func theDocumentQueryReadsInBatchesWithOrWithoutTheBytes() throws {
        let source = Self.app("org.example.clinic")
        var documents: [CDADocumentSample] = []
        for index in 0..<120 {
            documents.append(
                try CDADocumentSample(
                    data: Fixtures.cda(title: "Visit \(index)"),
                    start: Fixtures.start.addingTimeInterval(Double(index) * 60),
                    end: Fixtures.start.addingTimeInterval(Double(index) * 60 + 30),
                    sourceRevision: source
                )
            )
        }
        try store.save(documents.map(Sample.cdaDocument))
        func all(_ query: DocumentQueryDescriptor) throws -> [CDADocumentSample] {
            var found: [CDADocumentSample] = []
            var offset: Int? = 0
            while let from = offset {
                let batch = try store.database.read {
                    try store.documents(matching: query, offset: from, scope: .owner, in: $0)
                }
                #expect(batch.documents.count <= DocumentQueryBatch.maximumDocuments)
                found += batch.documents
                offset = batch.next
            }
            return found
        }
        let newestFirst = DocumentQueryDescriptor(sortDescriptors: [
            SampleSortDescriptor(.startDate, order: .descending)
        ])
        #expect(try all(newestFirst) == documents.reversed())
        let titles = DocumentQueryDescriptor(
            predicate: .samples(withStart: Fixtures.start, end: Fixtures.start.addingTimeInterval(600)),
            sortDescriptors: [SampleSortDescriptor(.startDate)],
            limit: 3,
            includeDocumentData: false
        )
        let found = try all(titles)
        #expect(found.map { $0.document?.title } == ["Visit 0", "Visit 1", "Visit 2"])
        #expect(found.allSatisfy { $0.document?.documentData == nil })
        let refused = #expect(throws: HealthError.self) {
            _ = try store.database.read {
                try store.documents(
                    matching: DocumentQueryDescriptor(sortDescriptors: [SampleSortDescriptor(.value)]),
                    offset: 0,
                    scope: .owner,
                    in: $0
                )
            }
        }
        #expect(refused?.field == "sortDescriptors")
    }

    /// The plans read the app's own rows and the chosen ones by index, and never scan a table.
    @Test func perObjectReadsGoThroughIndexesOnly() throws {
        try store.save([.visionPrescription(try Fixtures.glassesPrescription(source: Self.app("org.example.mine")))])
        let scope = ReadScope.app("org.example.mine", readableTypes: []).reading(objects: [
            .visionPrescription: [UUID(), UUID()]
        ])
        let plans = try store.database.read { db -> [[String]] in
            var fragments = [
                try #require(
                    try store.branch(
                        for: SampleTypePredicate(
                            .visionPrescription,
                            predicate: .samples(withStart: Fixtures.start, end: nil)
                        ),
                        scope: scope,
                        columns: SQLFragment("s.id"),
                        db
                    )
                )
            ]
            fragments += try store.objectChanges(of: .visionPrescription, nil, after: 0, app: "org.example.mine", db)
            return try fragments.map { fragment in
                try db.rows("EXPLAIN QUERY PLAN " + fragment.sql, fragment.arguments).map { $0[3].string ?? "" }
            }
        }
        #expect(plans.count == 6)
        let all = plans.flatMap { $0 }
        #expect(all.contains { $0.contains("samples_by_type_source_start") }, "\(plans)")
        #expect(all.contains { $0.contains("samples_by_uuid_visibility") }, "\(plans)")
        #expect(all.contains { $0.contains("object_grants_by_app_type") }, "\(plans)")
        #expect(all.contains { $0.contains("tombstones_by_uuid") }, "\(plans)")
        // A scan is only ever of a list the query built, never of a table.
        for line in all where line.hasPrefix("SCAN") {
            #expect(
                !line.contains("samples") && !line.contains("tombstones") && !line.contains("object_grants"),
                "\(plans)"
            )
        }
    }
}
