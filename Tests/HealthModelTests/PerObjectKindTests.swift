import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

/// Vision prescriptions and CDA documents: HealthKit's shapes and checks, the names read out of a
/// CDA document, malformed documents refused, and their JSON forms (docs/MODEL_JSON.md).
struct PerObjectKindTests {
    static let source = SourceRevision(source: Source(bundleIdentifier: "org.example.optician", name: "Optician"))

    // MARK: CDA documents

    @Test func aContinuityOfCareDocumentGivesHealthKitsFourNamesAndKeepsItsBytes() throws {
        let sample = try Fixtures.cdaDocument()
        let document = try #require(sample.document)
        #expect(document.documentData == Fixtures.continuityOfCare)
        #expect(document.title == "Continuity of Care Document \u{2013} Riverside Family Clinic")
        #expect(document.patientName == "Ms. Isabella Isa Jones")
        #expect(document.authorName == "Henry Seven MD")
        #expect(document.custodianName == "Riverside Family Clinic")
        #expect(sample.sampleType == .document(.cda))
        #expect(sample.sampleType.identifier == "HKDocumentTypeIdentifierCDA")
        #expect(sample.sampleType.isReadPerObject)
    }

    @Test func aPrefixedNamespaceAndABOMReadAsTheDefaultOne() throws {
        let prefixed = String(decoding: Fixtures.cda(title: "A &amp; B", patient: "Zoë"), as: UTF8.self)
            .replacingOccurrences(
                of: "<ClinicalDocument xmlns=\"urn:hl7-org:v3\">",
                with: "<v3:ClinicalDocument xmlns:v3=\"urn:hl7-org:v3\">"
            )
            .replacingOccurrences(of: "</ClinicalDocument>", with: "</v3:ClinicalDocument>")
            .replacingOccurrences(of: "<title>", with: "<v3:title>").replacingOccurrences(
                of: "</title>",
                with: "</v3:title>"
            )
        // Only the root and the title are prefixed: the others stay in no namespace, so the
        // document lacks the elements the standard requires in its namespace.
        let error = healthError { _ = try CDADocument(reading: Data(prefixed.utf8)) }
        #expect(error?.message.contains("has no typeId") == true, "\(String(describing: error))")
        // Declared for every element, with a byte order mark.
        let whole =
            Data([0xEF, 0xBB, 0xBF])
            + Data(
                String(decoding: Fixtures.cda(title: "A &amp; B &#x263A;", patient: "Zo&#235;"), as: UTF8.self)
                    .replacingOccurrences(
                        of: "xmlns=\"urn:hl7-org:v3\"",
                        with: "xmlns=\"urn:hl7-org:v3\" xmlns:x=\"urn:other\""
                    )
                    .utf8
            )
        let document = try CDADocument(reading: whole)
        #expect(document.title == "A & B \u{263A}")
        #expect(document.patientName == "Zoë")
        #expect(document.authorName == "Grace Hopper")
        #expect(document.custodianName == "General Hospital")
        #expect(document.documentData == whole)
    }

    /// Bytes that are not a CDA document, each with what the refusal says.
    static let malformed: [(String, String)] = [
        ("", "the document is empty"),
        ("just text", "there is no root element"),
        ("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>x</ClinicalDocument>", "does not close <title>"),
        ("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>x</title>", "ends inside <ClinicalDocument>"),
        ("<!DOCTYPE x [<!ENTITY a \"b\">]><ClinicalDocument/>", "a DOCTYPE is not allowed"),
        (
            "<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>&nbsp;</title></ClinicalDocument>",
            "is not a reference XML defines"
        ),
        ("<ClinicalDocument xmlns=\"urn:hl7-org:v3\" a=\"1\" a=\"2\"/>", "given twice"),
        ("<ClinicalDocument xmlns=\"urn:hl7-org:v3\" a=1/>", "is not quoted"),
        ("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"/><more/>", "content after the root element"),
        ("<x:ClinicalDocument/>", "the prefix x is not bound"),
        ("<ClinicalDocument/>", "not a CDA ClinicalDocument in the urn:hl7-org:v3 namespace"),
        ("<html xmlns=\"urn:hl7-org:v3\"/>", "the root element is {urn:hl7-org:v3}html"),
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><ClinicalDocument/>", "only UTF-8 is read"),
        ("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><!-- a -- b --></ClinicalDocument>", "a comment holds"),
        ("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><typeId/></ClinicalDocument>", "has no id,"),
    ]

    @Test(arguments: 0..<PerObjectKindTests.malformed.count)
    func aDocumentThatIsNotCDAIsRefusedSayingWhy(index: Int) {
        let (text, reason) = Self.malformed[index]
        let error = healthError {
            _ = try CDADocumentSample(
                data: Data(text.utf8),
                start: Fixtures.start,
                end: Fixtures.start,
                sourceRevision: Self.source
            )
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "document.documentData")
        #expect(error?.message.contains(reason) == true, "\(String(describing: error)) should say \(reason)")
    }

    @Test func bytesThatAreNotUTF8AndDeepNestingAreRefused() {
        let latin1 = Data([0x3C, 0x61, 0x3E, 0xE9, 0x3C, 0x2F, 0x61, 0x3E])
        #expect(healthError { _ = try CDADocument(reading: latin1) }?.message.contains("not UTF-8") == true)
        let deep = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        #expect(
            healthError { _ = try CDADocument(reading: Data(deep.utf8)) }?.message.contains("nested more than") == true
        )
        let huge = Data(count: CDADocumentSample.maximumDocumentSize + 1)
        #expect(healthError { _ = try CDADocument(reading: huge) }?.message.contains("at most") == true)
    }

    @Test func theRefusalNeverQuotesTheDocument() {
        let secret = "<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>HIV positive</title>"
        let error = healthError { _ = try CDADocument(reading: Data(secret.utf8)) }
        #expect(error != nil)
        #expect(error?.message.contains("HIV") == false)
    }

    @Test func aDocumentsJSONCarriesItsBytesAsBase64AndNamesThatMustAgree() throws {
        let sample = try Fixtures.cdaDocument(uuid: UUID(uuidString: "5B1C0D7E-1F2A-4B3C-8D4E-5F6A7B8C9D0E")!)
        let json = String(decoding: try HealthJSON.encode(Sample.cdaDocument(sample)), as: UTF8.self)
        #expect(json.contains("\"documentData\":\"\(Fixtures.continuityOfCare.base64EncodedString())\""))
        #expect(try HealthJSON.decode(Sample.self, from: Data(json.utf8)) == .cdaDocument(sample))
        // A save may send the bytes alone.
        let bytesOnly = json.replacingOccurrences(
            of: #","title":"Continuity of Care Document – Riverside Family Clinic""#,
            with: ""
        )
        #expect(bytesOnly != json)
        #expect(try HealthJSON.decode(Sample.self, from: Data(bytesOnly.utf8)) == .cdaDocument(sample))
        // A name that is not the one read is refused, naming it.
        let wrong = json.replacingOccurrences(
            of: #""patientName":"Ms. Isabella Isa Jones""#,
            with: #""patientName":"X""#
        )
        let error = healthError { _ = try HealthJSON.decode(Sample.self, from: Data(wrong.utf8)) }
        #expect(error?.field == "document.patientName")
        // Not base64.
        let garbled = json.replacingOccurrences(of: Fixtures.continuityOfCare.base64EncodedString(), with: "%%%")
        #expect(
            healthError { _ = try HealthJSON.decode(Sample.self, from: Data(garbled.utf8)) }?.field
                == "document.documentData"
        )
        // Answers without the document, and without its bytes, read back as themselves.
        for answered in [sample.withoutDocument, sample.withoutDocumentData] {
            let data = try HealthJSON.encode(Sample.cdaDocument(answered))
            #expect(try HealthJSON.decode(Sample.self, from: data) == .cdaDocument(answered))
        }
        #expect(Sample.cdaDocument(sample).withoutSeriesData == .cdaDocument(sample.withoutDocument))
    }

    // MARK: Vision prescriptions

    @Test func aPrescriptionStartsWhenIssuedAndEndsWhenItExpiresOrInTheDistantFuture() throws {
        let glasses = try Fixtures.glassesPrescription()
        #expect(glasses.dateIssued == Fixtures.start)
        #expect(glasses.expirationDate == Fixtures.start.addingTimeInterval(2 * 365 * 86_400))
        #expect(glasses.prescriptionType == .glasses)
        #expect(glasses.glassesRightEye?.prism?.eye == .right)
        let contacts = try Fixtures.contactsPrescription()
        #expect(contacts.expirationDate == nil)
        #expect(contacts.endDate == Date.distantFuture)
        #expect(contacts.brand == "Acuvue Oasys")
        #expect(contacts.sampleType.identifier == "HKVisionPrescriptionTypeIdentifier")
        // An image-only prescription, and a glasses one without lenses, which is one.
        let image = try VisionPrescription(
            type: .contacts,
            dateIssued: Fixtures.start,
            expirationDate: nil,
            sourceRevision: Self.source
        )
        #expect(image.lenses == nil)
        let empty = try VisionPrescription.glasses(
            rightEye: nil,
            leftEye: nil,
            dateIssued: Fixtures.start,
            expirationDate: nil,
            sourceRevision: Self.source
        )
        #expect(empty.lenses == nil)
    }

    @Test func badLensesAreRefusedNamingTheFieldNeverTheValue() throws {
        func glasses(_ right: GlassesLensSpecification) -> HealthError? {
            healthError {
                _ = try VisionPrescription.glasses(
                    rightEye: right,
                    leftEye: nil,
                    dateIssued: Fixtures.start,
                    expirationDate: nil,
                    sourceRevision: Self.source
                )
            }
        }
        #expect(glasses(GlassesLensSpecification(sphere: Quantity(-2.25, .meter)))?.field == "rightEye.sphere.unit")
        #expect(glasses(GlassesLensSpecification(sphere: Quantity(.nan, .diopter)))?.field == "rightEye.sphere.value")
        #expect(
            glasses(GlassesLensSpecification(sphere: Quantity(1, .diopter), axis: Quantity(90, .diopter)))?.field
                == "rightEye.axis.unit"
        )
        #expect(
            glasses(
                GlassesLensSpecification(sphere: Quantity(1, .diopter), vertexDistance: Quantity(-12, .millimeter))
            )?
            .field == "rightEye.vertexDistance.value"
        )
        let wrongEye = GlassesLensSpecification(
            sphere: Quantity(1, .diopter),
            prism: VisionPrism(amount: Quantity(1, .prismDiopter), angle: Quantity(0, .degreeAngle), eye: .left)
        )
        #expect(glasses(wrongEye)?.field == "rightEye.prism.eye")
        let inDiopters = GlassesLensSpecification(
            sphere: Quantity(1, .diopter),
            prism: VisionPrism(amount: Quantity(1, .diopter), angle: Quantity(0, .degreeAngle), eye: .right)
        )
        #expect(glasses(inDiopters)?.field == "rightEye.prism.amount.unit")
        let error = glasses(GlassesLensSpecification(sphere: Quantity(-7.125, .meter)))
        #expect(error?.message.contains("7.125") == false)
        // Lenses of the other type, and a brand too long.
        let mismatch = healthError {
            _ = try VisionPrescription(
                type: .contacts,
                lenses: .glasses(rightEye: GlassesLensSpecification(sphere: Quantity(1, .diopter)), leftEye: nil),
                dateIssued: Fixtures.start,
                expirationDate: nil,
                sourceRevision: Self.source
            )
        }
        #expect(mismatch?.field == "prescriptionType")
        let brand = healthError {
            _ = try VisionPrescription.contacts(
                rightEye: nil,
                leftEye: nil,
                brand: String(repeating: "x", count: 1025),
                dateIssued: Fixtures.start,
                expirationDate: nil,
                sourceRevision: Self.source
            )
        }
        #expect(brand?.field == "brand")
        let expired = healthError {
            _ = try VisionPrescription(
                type: .glasses,
                dateIssued: Fixtures.start,
                expirationDate: Fixtures.start.addingTimeInterval(-1),
                sourceRevision: Self.source
            )
        }
        #expect(expired?.field == "endDate")
    }

    @Test func aPrismsRectangularFormIsHealthKits() throws {
        // Polar to rectangular: HealthKit's _setRectangularValues.
        let right = VisionPrism(amount: Quantity(2, .prismDiopter), angle: Quantity(0, .degreeAngle), eye: .right)
        #expect(right.horizontalBase == .in)
        #expect(abs(right.horizontalAmount.value - 2) < 1e-12)
        #expect(right.verticalBase == .down)
        let left = VisionPrism(amount: Quantity(2, .prismDiopter), angle: Quantity(0, .degreeAngle), eye: .left)
        #expect(left.horizontalBase == .out)
        let up = VisionPrism(amount: Quantity(3, .prismDiopter), angle: Quantity(90, .degreeAngle), eye: .right)
        #expect(up.verticalBase == .up)
        #expect(abs(up.verticalAmount.value - 3) < 1e-12)
        // Rectangular to polar: HealthKit's _setPolarValues, the angle in whole degrees.
        let made = try VisionPrism(
            verticalAmount: Quantity(3, .prismDiopter),
            verticalBase: .up,
            horizontalAmount: Quantity(4, .prismDiopter),
            horizontalBase: .out,
            eye: .right
        )
        #expect(made.amount == Quantity(5, .prismDiopter))
        #expect(made.angle == Quantity(143, .degreeAngle))
        let down = try VisionPrism(
            verticalAmount: Quantity(1, .prismDiopter),
            verticalBase: .down,
            horizontalAmount: Quantity(0, .prismDiopter),
            horizontalBase: .none,
            eye: .left
        )
        #expect(down.angle == Quantity(270, .degreeAngle))
        #expect(
            healthError {
                _ = try VisionPrism(
                    verticalAmount: Quantity(1, .prismDiopter),
                    verticalBase: .in,
                    horizontalAmount: Quantity(1, .prismDiopter),
                    horizontalBase: .out,
                    eye: .left
                )
            }?.field == "verticalBase"
        )
    }

    @Test func aPrismMayBeSentInEitherFormAndBothMustAgree() throws {
        let polar = #"{"amount":{"unit":"pD","value":5},"angle":{"unit":"deg","value":143},"eye":2}"#
        let rectangular =
            #"{"eye":2,"horizontalAmount":{"unit":"pD","value":4},"horizontalBase":4,"verticalAmount":{"unit":"pD","value":3},"verticalBase":1}"#
        let fromPolar = try HealthJSON.decode(VisionPrism.self, from: Data(polar.utf8))
        let fromRectangular = try HealthJSON.decode(VisionPrism.self, from: Data(rectangular.utf8))
        #expect(fromPolar == fromRectangular)
        #expect(try HealthJSON.decode(VisionPrism.self, from: try HealthJSON.encode(fromPolar)) == fromPolar)
        let disagreeing =
            #"{"amount":{"unit":"pD","value":5},"angle":{"unit":"deg","value":143},"eye":2,"verticalAmount":{"unit":"pD","value":1}}"#
        #expect(
            healthError { _ = try HealthJSON.decode(VisionPrism.self, from: Data(disagreeing.utf8)) }?.field
                == "verticalAmount"
        )
        let neither = #"{"eye":2}"#
        #expect(
            healthError { _ = try HealthJSON.decode(VisionPrism.self, from: Data(neither.utf8)) }?.field == "amount"
        )
    }

    @Test func aPrescriptionThatDoesNotExpireEndsInTheDistantFutureOnTheWireToo() throws {
        let contacts = try Fixtures.contactsPrescription()
        let json = String(decoding: try HealthJSON.encode(Sample.visionPrescription(contacts)), as: UTF8.self)
        #expect(json.contains(#""endDate":"4001-01-01T00:00:00.000Z""#), "\(json)")
        #expect(json.contains(#""brand":"Acuvue Oasys""#))
        #expect(try HealthJSON.decode(Sample.self, from: Data(json.utf8)) == .visionPrescription(contacts))
        let brandOnGlasses = String(
            decoding: try HealthJSON.encode(Sample.visionPrescription(try Fixtures.glassesPrescription())),
            as: UTF8.self
        )
        .replacingOccurrences(of: #""prescriptionType":1"#, with: #""brand":"x","prescriptionType":1"#)
        #expect(
            healthError { _ = try HealthJSON.decode(Sample.self, from: Data(brandOnGlasses.utf8)) }?.field == "brand"
        )
    }

    @Test func bothKindsRoundTripThroughJSON() async {
        await propertyCheck(count: 300, input: Generator(run: { rng in RandomModel.perObjectSample(&rng) })) {
            sample throws in
            #expect(try HealthJSON.decode(Sample.self, from: try HealthJSON.encode(sample)) == sample)
            let answered = sample.withoutSeriesData
            #expect(try HealthJSON.decode(Sample.self, from: try HealthJSON.encode(answered)) == answered)
        }
    }

    @Test func theTypesAreNamedAsHealthKitNamesThem() throws {
        #expect(try ObjectType(identifier: "HKVisionPrescriptionTypeIdentifier") == .visionPrescription)
        #expect(try ObjectType(identifier: "HKDocumentTypeIdentifierCDA") == .document(.cda))
        #expect(ObjectType.named("visionPrescription") == .visionPrescription)
        #expect(ObjectType.named("cda") == .document(.cda))
        #expect(ObjectType.visionPrescription.kind == "visionPrescription")
        #expect(ObjectType.document(.cda).kind == "document")
        #expect(SampleType.allTypes.filter(\.isReadPerObject) == [.visionPrescription, .document(.cda)])
        #expect(ObjectType.unsupportedIdentifiers.isEmpty)
    }

    /// Every example of these kinds in docs/MODEL_JSON.md is what the vault writes for it, byte
    /// for byte once the document's line breaks are taken out.
    @Test func theDocumentedExamplesAreTheVaultsOwnForms() throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/MODEL_JSON.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let blocks = text.components(separatedBy: "```json\n").dropFirst()
            .map { $0.components(separatedBy: "\n```").first! }
            .filter {
                $0.contains(#""type":"HKVisionPrescriptionTypeIdentifier""#)
                    || $0.contains(#""type":"HKDocumentTypeIdentifierCDA""#)
            }
        #expect(blocks.count == 3)
        for block in blocks {
            let compact = block.replacingOccurrences(of: "\n *", with: "", options: .regularExpression)
            let sample = try HealthJSON.decode(Sample.self, from: Data(compact.utf8))
            #expect(String(decoding: try HealthJSON.encode(sample), as: UTF8.self) == compact)
        }
    }
}
