public import Foundation
public import HealthModel

/// Vision prescriptions and CDA documents, the kinds read object by object.
extension Fixtures {
    /// The folder of this target's fixture files.
    public static let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// A made-up Continuity of Care Document (C-CDA R2.1): `Fixtures/continuity-of-care.xml`.
    public static let continuityOfCare: Data = {
        try! Data(contentsOf: fixtureFolder.appendingPathComponent("continuity-of-care.xml"))
    }()

    /// A minimal CDA document with this title and patient (the structure the standard requires).
    public static func cda(title: String = "Discharge Summary", patient: String = "Ada Lovelace") -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <ClinicalDocument xmlns="urn:hl7-org:v3">
              <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
              <id root="2.16.840.1.113883.19.5" extension="\(abs(title.hashValue % 100_000))"/>
              <code code="18842-5" codeSystem="2.16.840.1.113883.6.1"/>
              <title>\(title)</title>
              <effectiveTime value="20260301"/>
              <confidentialityCode code="N" codeSystem="2.16.840.1.113883.5.25"/>
              <recordTarget><patientRole><id root="1.2.3"/><patient><name>\(patient)</name></patient></patientRole></recordTarget>
              <author><time value="20260301"/><assignedAuthor><id root="1.2.4"/>
                <assignedPerson><name><given>Grace</given><family>Hopper</family></name></assignedPerson>
              </assignedAuthor></author>
              <custodian><assignedCustodian><representedCustodianOrganization><id root="1.2.5"/>
                <name>General Hospital</name></representedCustodianOrganization></assignedCustodian></custodian>
              <component><nonXMLBody><text>Discharged in good health.</text></nonXMLBody></component>
            </ClinicalDocument>

            """.utf8
        )
    }

    public static func cdaDocument(
        uuid: UUID = UUID(),
        data: Data = continuityOfCare,
        source: SourceRevision = app
    ) throws(HealthError) -> CDADocumentSample {
        try CDADocumentSample(
            uuid: uuid,
            data: data,
            start: start,
            end: start.addingTimeInterval(3600),
            sourceRevision: source
        )
    }

    public static func glassesPrescription(
        uuid: UUID = UUID(),
        source: SourceRevision = app
    ) throws(HealthError) -> VisionPrescription {
        try .glasses(
            uuid: uuid,
            rightEye: GlassesLensSpecification(
                sphere: Quantity(-2.25, .diopter),
                cylinder: Quantity(-0.5, .diopter),
                axis: Quantity(180, .degreeAngle),
                addPower: Quantity(1.5, .diopter),
                vertexDistance: Quantity(12, .millimeter),
                prism: VisionPrism(amount: Quantity(1, .prismDiopter), angle: Quantity(90, .degreeAngle), eye: .right),
                farPupillaryDistance: Quantity(32, .millimeter),
                nearPupillaryDistance: Quantity(30, .millimeter)
            ),
            leftEye: GlassesLensSpecification(sphere: Quantity(-2, .diopter)),
            dateIssued: start,
            expirationDate: start.addingTimeInterval(2 * 365 * 86_400),
            sourceRevision: source
        )
    }

    public static func contactsPrescription(
        uuid: UUID = UUID(),
        source: SourceRevision = app
    ) throws(HealthError) -> VisionPrescription {
        try .contacts(
            uuid: uuid,
            rightEye: ContactsLensSpecification(
                sphere: Quantity(-2.5, .diopter),
                baseCurve: Quantity(8.6, .millimeter),
                diameter: Quantity(14.2, .millimeter)
            ),
            leftEye: ContactsLensSpecification(
                sphere: Quantity(-2.25, .diopter),
                cylinder: Quantity(-0.75, .diopter),
                axis: Quantity(170, .degreeAngle),
                baseCurve: Quantity(8.6, .millimeter),
                diameter: Quantity(14.5, .millimeter)
            ),
            brand: "Acuvue Oasys",
            dateIssued: start,
            expirationDate: nil,
            sourceRevision: source
        )
    }
}
