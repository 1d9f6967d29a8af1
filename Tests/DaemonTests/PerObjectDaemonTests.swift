import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import HealthVaultKit
import Testing
import VaultClient
import VaultProtocol

extension DaemonEndToEnd {
    /// Reading vision prescriptions and documents object by object, through the real daemon and
    /// the real `healthvault`: byte-identical answers to a vault holding only the chosen objects
    /// for every query kind, observers, HealthVaultKit's document query, and the owner's choices
    /// on the command line.
    @Suite struct PerObjectDaemonTests {
        static let reader = "org.example.reader"
        static let clinic = "org.example.clinic"
        static let types: [SampleType] = [.visionPrescription, .document(.cda)]

        static func uuid(_ n: Int) -> UUID {
            UUID(uuidString: "00000000-0000-4000-8000-\(String(format: "%012d", n))")!
        }

        /// The clinic's objects that are chosen for the reader, the same in every vault.
        static func chosen() throws -> [Sample] {
            [
                .visionPrescription(try Fixtures.contactsPrescription(uuid: uuid(11))),
                .cdaDocument(try Fixtures.cdaDocument(uuid: uuid(12))),
            ]
        }

        /// A daemon where the reader saved one prescription, the clinic `chosen()` among `hidden`
        /// others, and the owner chose `chosen()` for the reader.
        static func daemon(hidden: Int) async throws -> TestDaemon {
            let daemon = try TestDaemon()
            let declared = types.map(ObjectType.init)
            try await daemon.enroll(reader, read: declared, share: types)
            try await daemon.enroll(clinic, read: [], share: types)
            try await daemon.decide("grant", ["share"], declared, for: reader)
            try await daemon.decide("grant", ["share"], declared, for: clinic)
            let readerStore = try await daemon.store(reader)
            try await readerStore.save(.visionPrescription(try Fixtures.glassesPrescription(uuid: uuid(1))))
            await readerStore.close()
            let clinicStore = try await daemon.store(clinic)
            var others: [Sample] = []
            for index in 0..<hidden {
                others.append(
                    index % 2 == 0
                        ? .visionPrescription(try Fixtures.glassesPrescription())
                        : .cdaDocument(try Fixtures.cdaDocument(data: Fixtures.cda(title: "Hidden \(index)")))
                )
            }
            if !others.isEmpty { try await clinicStore.save(Array(others.prefix(hidden / 2))) }
            try await clinicStore.save(try chosen())
            if others.count > hidden / 2 { try await clinicStore.save(Array(others.dropFirst(hidden / 2))) }
            await clinicStore.close()
            try await daemon.ownerCall(
                Method.objectsDecide,
                ObjectsDecideParams(app: reader, decision: "grant", objects: try chosen().map(\.uuid)),
                as: Empty.self
            )
            return daemon
        }

        /// An answer's bytes with its anchor replaced (anchors are sealed with each vault's key).
        static func withoutAnchor(_ data: Data) throws -> Data {
            guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return data }
            if var result = object["result"] as? [String: Any], result["newAnchor"] != nil {
                result["newAnchor"] = "anchor"
                object["result"] = result
            }
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        }

        /// Every read the reader can make of these types, raw, each the nth call of a fresh
        /// connection so request ids match; `probes` looked up and deleted.
        static func answers(_ daemon: TestDaemon, probes: [UUID]) async throws -> [Data] {
            let connection = try await daemon.connection(reader)
            defer { connection.close() }
            var answers: [Data] = []
            for type in types {
                answers.append(
                    try await connection.rawCall(
                        Method.querySamples,
                        SampleQueryParams(query: SampleQueryDescriptor(predicates: [SampleTypePredicate(type)]))
                    )
                )
                answers.append(
                    try await connection.rawCall(
                        Method.querySources,
                        SourceQueryParams(query: SourceQueryDescriptor(sampleType: type))
                    )
                )
                answers.append(
                    try withoutAnchor(
                        try await connection.rawCall(
                            Method.queryAnchored,
                            AnchoredQueryParams(
                                query: AnchoredObjectQueryDescriptor(predicates: [SampleTypePredicate(type)])
                            )
                        )
                    )
                )
            }
            for query in [
                DocumentQueryDescriptor(),
                DocumentQueryDescriptor(includeDocumentData: false),
                DocumentQueryDescriptor(
                    sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)],
                    limit: 1
                ),
            ] {
                answers.append(try await connection.rawCall(Method.queryDocuments, DocumentQueryParams(query: query)))
            }
            for probe in try chosen().map(\.uuid) + probes {
                answers.append(try await connection.rawCall(Method.queryObject, ObjectParams(uuid: probe)))
            }
            answers.append(try await connection.rawCall(Method.delete, DeleteParams(uuids: probes)))
            return answers
        }

        @Test func everyReadThroughTheDaemonIsThatOfAVaultOfTheChosenObjectsOnly() async throws {
            let reference = try await Self.daemon(hidden: 0)
            let daemon = try await Self.daemon(hidden: 40)
            let hidden = try await daemon.ownerCall(
                Method.querySamples,
                SampleQueryParams(query: SampleQueryDescriptor(predicates: Self.types.map { SampleTypePredicate($0) })),
                as: SamplesResult.self
            ).samples.map(\.uuid).filter { ![Self.uuid(1), Self.uuid(11), Self.uuid(12)].contains($0) }
            #expect(hidden.count == 40)
            let expected = try await Self.answers(reference, probes: [UUID(), UUID()])
            let actual = try await Self.answers(daemon, probes: Array(hidden.prefix(2)))
            #expect(actual.count == expected.count)
            for (index, (a, e)) in zip(actual, expected).enumerated() where a != e {
                Issue.record(
                    "answer \(index): \(String(decoding: a, as: UTF8.self).prefix(400)) expected \(String(decoding: e, as: UTF8.self).prefix(400))"
                )
            }
            // HealthVaultKit's document query reads what the raw one does, batch after batch.
            let store = try await daemon.store(Self.reader)
            let documents = try await DocumentQueryDescriptor().result(for: store)
            #expect(documents.map(\.uuid) == [Self.uuid(12)])
            #expect(documents.first?.document?.documentData == Fixtures.continuityOfCare)
            var streamed: [UUID] = []
            for try await document in DocumentQueryDescriptor(includeDocumentData: false).results(for: store) {
                streamed.append(document.uuid)
                #expect(document.document?.title.isEmpty == false && document.document?.documentData == nil)
            }
            #expect(streamed == [Self.uuid(12)])
            await store.close()
        }

        @Test func theAppAsksTheOwnerChoosesAndAnObserverHearsOfTheChoiceOnly() async throws {
            let daemon = try TestDaemon()
            let declared = Self.types.map(ObjectType.init)
            try await daemon.enroll(Self.reader, read: declared, share: [])
            try await daemon.enroll(Self.clinic, read: [], share: Self.types)
            try await daemon.decide("grant", ["share"], declared, for: Self.clinic)
            let clinic = try await daemon.store(Self.clinic)
            try await clinic.save(try Self.chosen())
            let reader = try await daemon.store(Self.reader)
            // Asking by type is refused with the way to ask; asking object by object is recorded.
            do {
                try await reader.requestAuthorization(toShare: [], read: [.visionPrescription])
                Issue.record("a type-level request of prescriptions was accepted")
            } catch {
                #expect("\(error)".contains("requestPerObjectReadAuthorization"), "\(error)")
            }
            try await reader.requestPerObjectReadAuthorization(for: .visionPrescription)
            let requests = try await daemon.ownerCall(
                Method.requestsList,
                RequestsListParams(app: nil),
                as: RequestsResult.self
            )
            #expect(requests.objectRequests?.map(\.type) == [.visionPrescription])
            let observer = try await reader.observe(Set(Self.types))
            let updates = Updates(observer.updates)
            // Another app's new prescription: not announced, not readable.
            try await clinic.save(.visionPrescription(try Fixtures.glassesPrescription()))
            #expect(try await updates.next(within: 1) == nil)
            #expect(
                try await reader.samples(
                    matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.visionPrescription)])
                ).isEmpty
            )
            // Chosen: announced and readable.
            try await daemon.ownerCall(
                Method.objectsDecide,
                ObjectsDecideParams(app: Self.reader, decision: "grant", objects: [Self.uuid(11)]),
                as: Empty.self
            )
            #expect(try await updates.next(within: 5)?.types == [.visionPrescription])
            let read = try await reader.samples(
                matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.visionPrescription)])
            )
            #expect(read.map(\.uuid) == [Self.uuid(11)])
            let after = try await daemon.ownerCall(
                Method.requestsList,
                RequestsListParams(app: nil),
                as: RequestsResult.self
            )
            #expect(after.objectRequests?.isEmpty == true)
            try await observer.stop()
            await reader.close()
            await clinic.close()
        }

        @Test func theOwnerChoosesOnTheCommandLine() async throws {
            let daemon = try TestDaemon()
            let declared = Self.types.map(ObjectType.init)
            try await daemon.enroll(Self.reader, read: declared, share: [.visionPrescription])
            try await daemon.enroll(Self.clinic, read: [], share: Self.types)
            try await daemon.decide("grant", ["share"], declared, for: Self.clinic)
            try await daemon.decide("grant", ["share"], [.visionPrescription], for: Self.reader)
            let clinic = try await daemon.store(Self.clinic)
            try await clinic.save(try Self.chosen())
            await clinic.close()
            let reader = try await daemon.store(Self.reader)
            let own = Sample.visionPrescription(try Fixtures.glassesPrescription(uuid: Self.uuid(1)))
            try await reader.save(own)
            try await reader.requestPerObjectReadAuthorization(for: .visionPrescription)
            try await reader.requestPerObjectReadAuthorization(for: .document(.cda))
            let cli = CLITests.healthvault
            let prescription = Self.uuid(11).uuidString
            let document = Self.uuid(12).uuidString

            let requests = try cli(["requests"], daemon)
            #expect(requests.status == 0, "\(requests.err)")
            #expect(
                requests.out.contains("HKVisionPrescriptionTypeIdentifier objects: healthvault objects \(Self.reader)"),
                "\(requests.out)"
            )
            let requestLines = try cli(["requests", "--json"], daemon).out.split(separator: "\n")
            #expect(requestLines.count == 2 && requestLines.allSatisfy { $0.contains("\"type\":") })
            // The review names them, and where to choose their objects.
            let review = try cli(["requests", "review"], daemon)
            #expect(review.status == 0, "\(review.err)")
            #expect(review.out.hasPrefix("No request waits for a decision by type.\n"), "\(review.out)")
            #expect(
                review.out.contains(
                    "Asked to read object by object (choose each with `healthvault objects`, or answer with requests deny):"
                )
                    && review.out.contains(
                        ", visionPrescription, "
                    )
                    && review.out.contains(
                        ": healthvault objects \(Self.reader) --type visionPrescription\n"
                    ),
                "\(review.out)"
            )

            let shownApp = try cli(["apps", "show", Self.reader], daemon)
            #expect(
                shownApp.out.contains(
                    "HKVisionPrescriptionTypeIdentifier  object by object (healthvault objects \(Self.reader))"
                ),
                "\(shownApp.out)"
            )
            let listed = try cli(["objects", Self.reader], daemon)
            #expect(listed.status == 0, "\(listed.err)")
            let lines = listed.out.split(separator: "\n")
            #expect(lines.first?.hasPrefix("UUID") == true && lines.count == 3, "\(listed.out)")
            #expect(
                lines.contains { $0.contains(prescription) && $0.contains("contacts") && $0.hasSuffix("no    yes") },
                "\(listed.out)"
            )
            #expect(lines.contains { $0.contains(document) && $0.contains("Continuity of Care") }, "\(listed.out)")
            #expect(!listed.out.contains(Self.uuid(1).uuidString), "the app's own object is not offered")

            let granted = try cli(["objects", "grant", Self.reader, prescription + "," + document], daemon)
            #expect(
                granted.status == 0 && granted.out == "\(Self.reader) may read 2 objects more.\n",
                "\(granted.out)\(granted.err)"
            )
            let json = try cli(["objects", Self.reader, "--type", "visionPrescription", "--json"], daemon)
            #expect(json.out.contains("\"readable\":true") && json.out.split(separator: "\n").count == 1, "\(json.out)")
            #expect(try cli(["requests"], daemon).out == "No requests are waiting.\n")
            let read = try await reader.samples(
                matching: SampleQueryDescriptor(predicates: Self.types.map { SampleTypePredicate($0) })
            )
            #expect(Set(read.map(\.uuid)) == [Self.uuid(1), Self.uuid(11), Self.uuid(12)])

            let revoked = try cli(["objects", "revoke", Self.reader, document, "--json"], daemon)
            #expect(
                revoked.status == 0 && revoked.out.contains("\"decision\":\"revoke\""),
                "\(revoked.out)\(revoked.err)"
            )
            let left = try await reader.samples(
                matching: SampleQueryDescriptor(predicates: Self.types.map { SampleTypePredicate($0) })
            )
            #expect(Set(left.map(\.uuid)) == [Self.uuid(1), Self.uuid(11)])

            // One-line errors, nothing changed.
            for (arguments, says) in [
                (["objects", "grant", Self.reader, "not-a-uuid"], "\"not-a-uuid\" is not a UUID"),
                (["objects", "grant", Self.reader, Self.uuid(1).uuidString], "always reads the objects it saved"),
                (["objects", "grant", Self.reader, UUID().uuidString], "holds no object"),
                (["objects", "revoke", Self.reader, document], "may not read"),
                (["objects", Self.reader, "--type", "steps"], "granted by type"),
                (["objects", "org.example.nobody"], "no app org.example.nobody"),
                (["grant", Self.reader, "visionPrescription", "--read"], "object by object"),
            ] {
                let result = try cli(arguments, daemon)
                #expect(result.status != 0, "\(arguments)")
                #expect(
                    result.err.hasPrefix("healthvault: ") && result.err.contains(says),
                    "\(arguments): \(result.err)"
                )
                #expect(result.err.split(separator: "\n").count == 1, "\(arguments): \(result.err)")
            }
            #expect(
                Set(
                    try await reader.samples(
                        matching: SampleQueryDescriptor(predicates: Self.types.map { SampleTypePredicate($0) })
                    ).map(\.uuid)
                ) == [Self.uuid(1), Self.uuid(11)]
            )

            // The log names the app, the type and the objects, never their content.
            let shown = try cli(["audit", "show", "--operation", "authorization.grant-objects"], daemon)
            #expect(shown.status == 0, "\(shown.err)")
            #expect(shown.out.contains("DETAILS") && shown.out.contains("objects=\(prescription)"), "\(shown.out)")
            #expect(!shown.out.contains("Acuvue") && !shown.out.contains("Jones"))
            // The revocation, and the refused one (outcome error, no objects named).
            let entries = try await daemon.auditEntries(operation: "authorization.revoke-objects")
            #expect(entries.map(\.outcome) == ["ok", "error"], "\(entries)")
            #expect(
                entries[0].types == ["HKDocumentTypeIdentifierCDA"] && entries[0].attributes?["objects"] == document
            )
            #expect(entries[1].attributes == nil)
            // Both verifiers read the log with these entries (version 2, with attributes).
            let root = daemon.directory.deletingLastPathComponent().path
            #expect(try cli(["audit", "export", root + "/objects-audit"], daemon).status == 0)
            let key = daemon.directory.appendingPathComponent("audit-key.pub").path
            let verified = try CLITests.healthvault(["audit", "verify", root + "/objects-audit", "--key", key])
            #expect(verified.status == 0 && verified.out.hasPrefix("verified:"), "\(verified.out)\(verified.err)")
            // Which objects the app could read, replayed from the log: the prescription only now.
            let now = AuditEntry.attributeTime(Date().addingTimeInterval(1))
            let history = try CLITests.healthvault([
                "grants", "history", Self.reader, "--export", root + "/objects-audit", "--key", key, "--at", now,
                "--json",
            ])
            #expect(history.status == 0, "\(history)")
            let objectLines = history.out.split(separator: "\n").filter { $0.contains("\"read-objects\"") }
            #expect(
                objectLines.count == 1 && objectLines[0].contains("\"objects\":[\"\(prescription)\"]"),
                "\(history.out)"
            )
            let timeline = try CLITests.healthvault(["grants", "history", Self.reader], daemon: daemon)
            #expect(timeline.out.contains("read    these objects too: "), "\(timeline.out)")
            #expect(timeline.out.contains("read    not these objects: \(document)"), "\(timeline.out)")
            if let python = AuditVerifyAgreementTests.python {
                let result = try runProcess([
                    python, AuditVerifyAgreementTests.checkout.appendingPathComponent("scripts/audit-verify.py").path,
                    root + "/objects-audit", "--key", key, "--grants-at", now, "--app", Self.reader,
                ])
                #expect(result.status == 0, "audit-verify.py refused the log: \(result.err)")
                // The same permissions and objects as grants history, from the document alone.
                func parsed(_ text: String) throws -> [NSDictionary] {
                    try text.split(separator: "\n").map {
                        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary)
                    }
                }
                #expect(try parsed(result.out) == parsed(history.out), "\(result.out)\n\(history.out)")
            }
            await reader.close()
            // With healthvaultd stopped the owner still reads the list; choosing stays with it.
            daemon.stop()
            let offline = try cli(["objects", Self.reader], daemon)
            #expect(offline.status == 0 && offline.out.contains(prescription), "\(offline.out)\(offline.err)")
            let choose = try cli(["objects", "grant", Self.reader, document], daemon)
            #expect(choose.status != 0 && choose.err.contains("healthvaultd is not running"), "\(choose.err)")
        }
    }
}
