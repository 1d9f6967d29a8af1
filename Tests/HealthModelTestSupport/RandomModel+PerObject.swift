public import Foundation
public import HealthModel

/// Random vision prescriptions and CDA documents (the kinds read object by object).
extension RandomModel {
    static func power(_ rng: inout RNG, _ range: ClosedRange<Double>) -> Quantity {
        // Quarter diopters, as prescribed, now and then in another spelling of the unit.
        Quantity((Double.random(in: range, using: &rng) * 4).rounded() / 4, .diopter)
    }

    static func length(_ rng: inout RNG, _ range: ClosedRange<Double>) -> Quantity {
        Bool.random(using: &rng)
            ? Quantity((Double.random(in: range, using: &rng) * 10).rounded() / 10, .millimeter)
            : Quantity((Double.random(in: range, using: &rng) * 10).rounded() / 100, .centimeter)
    }

    static func maybe<T>(_ rng: inout RNG, _ make: (inout RNG) -> T) -> T? {
        Bool.random(using: &rng) ? make(&rng) : nil
    }

    public static func prism(_ rng: inout RNG, eye: VisionEye) -> VisionPrism {
        if Bool.random(using: &rng) {
            return VisionPrism(
                amount: Quantity((Double.random(in: 0...5, using: &rng) * 2).rounded() / 2, .prismDiopter),
                angle: Bool.random(using: &rng)
                    ? Quantity(Double(Int.random(in: 0...359, using: &rng)), .degreeAngle)
                    : Quantity(Double.random(in: 0...6.28, using: &rng), .radianAngle),
                eye: eye
            )
        }
        return try! VisionPrism(
            verticalAmount: Quantity(Double(Int.random(in: 0...8, using: &rng)) / 2, .prismDiopter),
            verticalBase: Bool.random(using: &rng) ? .up : .down,
            horizontalAmount: Quantity(Double(Int.random(in: 0...8, using: &rng)) / 2, .prismDiopter),
            horizontalBase: Bool.random(using: &rng) ? .in : .out,
            eye: eye
        )
    }

    public static func glassesLens(_ rng: inout RNG, eye: VisionEye) -> GlassesLensSpecification {
        GlassesLensSpecification(
            sphere: power(&rng, -12...8),
            cylinder: maybe(&rng) { power(&$0, -4...4) },
            axis: maybe(&rng) { Quantity(Double(Int.random(in: 1...180, using: &$0)), .degreeAngle) },
            addPower: maybe(&rng) { power(&$0, 0.75...3.5) },
            vertexDistance: maybe(&rng) { length(&$0, 10...14) },
            prism: maybe(&rng) { prism(&$0, eye: eye) },
            farPupillaryDistance: maybe(&rng) { length(&$0, 28...36) },
            nearPupillaryDistance: maybe(&rng) { length(&$0, 26...34) }
        )
    }

    public static func contactsLens(_ rng: inout RNG) -> ContactsLensSpecification {
        ContactsLensSpecification(
            sphere: power(&rng, -12...8),
            cylinder: maybe(&rng) { power(&$0, -2.5...0) },
            axis: maybe(&rng) { Quantity(Double(Int.random(in: 1...18, using: &$0) * 10), .degreeAngle) },
            addPower: maybe(&rng) { power(&$0, 0.75...2.5) },
            baseCurve: maybe(&rng) { length(&$0, 8.3...9) },
            diameter: maybe(&rng) { length(&$0, 13.8...14.5) }
        )
    }

    public static func visionPrescription(_ rng: inout RNG) -> VisionPrescription {
        let issued = date(&rng)
        let expires: Date? =
            Bool.random(using: &rng)
            ? issued.addingTimeInterval(Double(365 * 86_400 * Int.random(in: 1...3, using: &rng))) : nil
        let lenses: VisionPrescription.Lenses?
        switch Int.random(in: 0...2, using: &rng) {
        case 0:
            lenses = .glasses(
                rightEye: maybe(&rng) { glassesLens(&$0, eye: .right) },
                leftEye: glassesLens(&rng, eye: .left)
            )
        case 1:
            lenses = .contacts(
                rightEye: contactsLens(&rng),
                leftEye: maybe(&rng) { contactsLens(&$0) },
                brand: string(&rng)
            )
        default:
            lenses = nil
        }
        return try! VisionPrescription(
            uuid: UUID(using: &rng),
            type: lenses.map { if case .contacts = $0 { .contacts } else { .glasses } }
                ?? (Bool.random(using: &rng) ? .glasses : .contacts),
            lenses: lenses,
            dateIssued: issued,
            expirationDate: expires,
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    public static func cdaDocument(_ rng: inout RNG) -> CDADocumentSample {
        let start = date(&rng)
        let data =
            Int.random(in: 0...3, using: &rng) == 0
            ? Fixtures.continuityOfCare : Fixtures.cda(title: "Note \(string(&rng))", patient: string(&rng))
        return try! CDADocumentSample(
            uuid: UUID(using: &rng),
            data: data,
            start: start,
            end: start.addingTimeInterval(Double.random(in: 0...86_400, using: &rng)),
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    /// A vision prescription or a CDA document.
    public static func perObjectSample(_ rng: inout RNG) -> Sample {
        Bool.random(using: &rng) ? .visionPrescription(visionPrescription(&rng)) : .cdaDocument(cdaDocument(&rng))
    }
}
