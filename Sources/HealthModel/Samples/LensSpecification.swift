import Foundation

/// The prescription of one glasses lens (HealthKit's `HKGlassesLensSpecification`).
///
/// JSON: `{"sphere": {"unit": "D", "value": -1.25}, "cylinder": ..., "axis": {"unit": "deg",
/// "value": 90}, "addPower": ..., "vertexDistance": {"unit": "mm", "value": 12}, "prism": ...,
/// "farPupillaryDistance": {"unit": "mm", "value": 32}, "nearPupillaryDistance": ...}`, every
/// field but `sphere` absent when not prescribed.
public struct GlassesLensSpecification: Hashable, Sendable, Codable {
    /// The lens power correcting nearsightedness (negative) or farsightedness (positive), in a
    /// unit compatible with diopters (`D`).
    public let sphere: Quantity
    /// The lens power correcting astigmatism, positive or negative, in diopters.
    public let cylinder: Quantity?
    /// The angle along which the cylinder lies, in a unit compatible with degrees (`deg`).
    public let axis: Quantity?
    /// The power added to a multifocal lens to correct presbyopia, in diopters.
    public let addPower: Quantity?
    /// The distance between the back of the lens and the eye, in a length unit (`mm`).
    public let vertexDistance: Quantity?
    /// The prism correcting the eye's alignment.
    public let prism: VisionPrism?
    /// The distance from the pupil to the centre of the nose looking at a far target (`mm`).
    public let farPupillaryDistance: Quantity?
    /// The same looking at a near target (`mm`).
    public let nearPupillaryDistance: Quantity?

    /// A lens; ``VisionPrescription`` checks it (HealthKit's
    /// `initWithSphere:cylinder:axis:addPower:vertexDistance:prism:farPupillaryDistance:nearPupillaryDistance:`).
    public init(
        sphere: Quantity,
        cylinder: Quantity? = nil,
        axis: Quantity? = nil,
        addPower: Quantity? = nil,
        vertexDistance: Quantity? = nil,
        prism: VisionPrism? = nil,
        farPupillaryDistance: Quantity? = nil,
        nearPupillaryDistance: Quantity? = nil
    ) {
        self.sphere = sphere
        self.cylinder = cylinder
        self.axis = axis
        self.addPower = addPower
        self.vertexDistance = vertexDistance
        self.prism = prism
        self.farPupillaryDistance = farPupillaryDistance
        self.nearPupillaryDistance = nearPupillaryDistance
    }

    /// Checks the lens of `eye` (its prism must be for that eye), naming fields inside `field`.
    func validate(eye: VisionEye, field: String) throws(HealthError) {
        do throws(HealthError) {
            try LensChecks.powers(sphere: sphere, cylinder: cylinder, axis: axis, addPower: addPower)
            try LensChecks.distance(vertexDistance, field: "vertexDistance")
            try LensChecks.distance(farPupillaryDistance, field: "farPupillaryDistance")
            try LensChecks.distance(nearPupillaryDistance, field: "nearPupillaryDistance")
            if let prism {
                do {
                    try prism.validate()
                } catch {
                    throw error.nested(in: "prism")
                }
                guard prism.eye == eye else {
                    throw HealthError.invalidArgument(
                        "the prism of the \(eye.word) eye's lens is for the \(eye.word) eye",
                        field: "prism.eye"
                    )
                }
            }
        } catch {
            throw error.nested(in: field)
        }
    }
}

/// The prescription of one contact lens (HealthKit's `HKContactsLensSpecification`).
///
/// JSON: `{"sphere": ..., "cylinder": ..., "axis": ..., "addPower": ..., "baseCurve": {"unit":
/// "mm", "value": 8.6}, "diameter": {"unit": "mm", "value": 14.2}}`, every field but `sphere`
/// absent when not prescribed.
public struct ContactsLensSpecification: Hashable, Sendable, Codable {
    /// As ``GlassesLensSpecification/sphere``.
    public let sphere: Quantity
    public let cylinder: Quantity?
    public let axis: Quantity?
    public let addPower: Quantity?
    /// The curvature of the lens' back surface, in a length unit (`mm`).
    public let baseCurve: Quantity?
    /// The lens' width from edge to edge, in a length unit (`mm`).
    public let diameter: Quantity?

    /// A lens; ``VisionPrescription`` checks it (HealthKit's
    /// `initWithSphere:cylinder:axis:addPower:baseCurve:diameter:`).
    public init(
        sphere: Quantity,
        cylinder: Quantity? = nil,
        axis: Quantity? = nil,
        addPower: Quantity? = nil,
        baseCurve: Quantity? = nil,
        diameter: Quantity? = nil
    ) {
        self.sphere = sphere
        self.cylinder = cylinder
        self.axis = axis
        self.addPower = addPower
        self.baseCurve = baseCurve
        self.diameter = diameter
    }

    func validate(field: String) throws(HealthError) {
        do throws(HealthError) {
            try LensChecks.powers(sphere: sphere, cylinder: cylinder, axis: axis, addPower: addPower)
            try LensChecks.distance(baseCurve, field: "baseCurve")
            try LensChecks.distance(diameter, field: "diameter")
        } catch {
            throw error.nested(in: field)
        }
    }
}

/// The prism of a glasses lens (HealthKit's `HKVisionPrism`): its amount and the angle of its
/// base (polar), or equally its vertical and horizontal amounts with their bases (rectangular).
///
/// It holds the polar form, as HealthKit keeps it; the rectangular form is computed from it as
/// HealthKit computes it. A prism made from the rectangular form gets HealthKit's polar form of
/// it: the amount `sqrt(v² + h²)` and the angle `atan2(v, h)` in whole degrees from 0 to 359.
///
/// JSON: `{"amount": {"unit": "pD", "value": 2}, "angle": {"unit": "deg", "value": 90},
/// "eye": 2, "verticalAmount": ..., "verticalBase": 1, "horizontalAmount": ...,
/// "horizontalBase": 3}`. A save may give the polar fields or the rectangular ones; the fields
/// it gives beyond one form are checked to agree with those computed.
public struct VisionPrism: Hashable, Sendable, Codable {
    /// The compensation, in a unit compatible with prism diopters (`pD`).
    public let amount: Quantity
    /// The direction of the base, in an angle unit (`deg`, `rad`).
    public let angle: Quantity
    /// The eye the prism corrects.
    public let eye: VisionEye

    /// A prism from its polar form (HealthKit's `initWithAmount:angle:eye:`).
    public init(amount: Quantity, angle: Quantity, eye: VisionEye) {
        self.amount = amount
        self.angle = angle
        self.eye = eye
    }

    /// A prism from its rectangular form (HealthKit's
    /// `initWithVerticalAmount:verticalBase:horizontalAmount:horizontalBase:eye:`), or
    /// `invalidArgument` for amounts not in prism diopters or not finite, or a base that does
    /// not belong to its axis.
    public init(
        verticalAmount: Quantity,
        verticalBase: PrismBase,
        horizontalAmount: Quantity,
        horizontalBase: PrismBase,
        eye: VisionEye
    ) throws(HealthError) {
        try LensChecks.finite(verticalAmount, compatibleWith: .prismDiopter, field: "verticalAmount")
        try LensChecks.finite(horizontalAmount, compatibleWith: .prismDiopter, field: "horizontalAmount")
        guard [.none, .up, .down].contains(verticalBase) else {
            throw .invalidArgument("a vertical base is up (1), down (2) or none (0)", field: "verticalBase")
        }
        guard [.none, .in, .out].contains(horizontalBase) else {
            throw .invalidArgument("a horizontal base is in (3), out (4) or none (0)", field: "horizontalBase")
        }
        // HealthKit's _setPolarValues.
        var vertical = (try? verticalAmount.doubleValue(for: .prismDiopter)) ?? .nan
        var horizontal = (try? horizontalAmount.doubleValue(for: .prismDiopter)) ?? .nan
        if (eye == .left && horizontalBase == .in) || (eye == .right && horizontalBase == .out) {
            horizontal = -horizontal
        }
        if verticalBase == .down { vertical = -vertical }
        var degrees = (atan2(vertical, horizontal) * 57.2957795).rounded()
        if degrees < 0 { degrees += 360 }
        self.amount = Quantity((vertical * vertical + horizontal * horizontal).squareRoot(), .prismDiopter)
        self.angle = Quantity(degrees, .degreeAngle)
        self.eye = eye
    }

    /// The rectangular form, as HealthKit's `_setRectangularValues` computes it.
    private var rectangular: (vertical: Double, verticalBase: PrismBase, horizontal: Double, horizontalBase: PrismBase)
    {
        let amount = (try? self.amount.doubleValue(for: .prismDiopter)) ?? .nan
        let radians = (try? angle.doubleValue(for: .radianAngle)) ?? .nan
        let horizontal = amount * cos(radians)
        let vertical = amount * sin(radians)
        let horizontalBase: PrismBase =
            horizontal > 0 ? (eye == .right ? .in : .out) : (eye == .right ? .out : .in)
        // The sine and cosine of a right angle are not exactly 0 in doubles (cos 90° is 6e-17):
        // what is below a billionth of a prism diopter is 0.
        func snapped(_ value: Double) -> Double { abs(value) < 1e-9 ? 0 : abs(value) }
        return (snapped(vertical), vertical > 0 ? .up : .down, snapped(horizontal), horizontalBase)
    }

    /// The vertical component, in prism diopters.
    public var verticalAmount: Quantity { Quantity(rectangular.vertical, .prismDiopter) }
    /// Up or down.
    public var verticalBase: PrismBase { rectangular.verticalBase }
    /// The horizontal component, in prism diopters.
    public var horizontalAmount: Quantity { Quantity(rectangular.horizontal, .prismDiopter) }
    /// In (toward the nose) or out.
    public var horizontalBase: PrismBase { rectangular.horizontalBase }

    /// Checks the polar form: a finite, non-negative amount in prism diopters, a finite angle.
    func validate() throws(HealthError) {
        try LensChecks.finite(amount, compatibleWith: .prismDiopter, field: "amount")
        guard amount.value >= 0 else {
            throw .invalidArgument("a prism's amount is at least 0", field: "amount.value")
        }
        try LensChecks.finite(angle, compatibleWith: .radianAngle, field: "angle")
    }

    private enum CodingKeys: String, CodingKey {
        case amount, angle, eye, verticalAmount, verticalBase, horizontalAmount, horizontalBase
    }

    /// How far a rectangular amount sent beside the polar form may lie from the one computed, in
    /// prism diopters: other systems round.
    static let agreement = 0.005

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let eye = try container.decode(VisionEye.self, forKey: .eye)
        let vertical = try container.decodeIfPresent(Quantity.self, forKey: .verticalAmount)
        let verticalBase = try container.decodeIfPresent(PrismBase.self, forKey: .verticalBase)
        let horizontal = try container.decodeIfPresent(Quantity.self, forKey: .horizontalAmount)
        let horizontalBase = try container.decodeIfPresent(PrismBase.self, forKey: .horizontalBase)
        let rectangularFields = [vertical != nil, verticalBase != nil, horizontal != nil, horizontalBase != nil]
        if container.contains(.amount) || container.contains(.angle) {
            self.init(
                amount: try container.decode(Quantity.self, forKey: .amount),
                angle: try container.decode(Quantity.self, forKey: .angle),
                eye: eye
            )
            try validating(decoder) { () throws(HealthError) in try validate() }
            guard rectangularFields.contains(true) else { return }
            let computed = rectangular
            func agrees(_ given: Quantity?, _ value: Double) -> Bool {
                guard let given else { return true }
                guard let amount = try? given.doubleValue(for: .prismDiopter) else { return false }
                return abs(amount - value) <= Self.agreement
            }
            let sameVertical =
                computed.vertical <= Self.agreement || verticalBase == nil || verticalBase == computed.verticalBase
            let sameHorizontal =
                computed.horizontal <= Self.agreement || horizontalBase == nil
                || horizontalBase == computed.horizontalBase
            guard agrees(vertical, computed.vertical), agrees(horizontal, computed.horizontal), sameVertical,
                sameHorizontal
            else {
                throw HealthError.invalidArgument(
                    "the rectangular form does not agree with the amount and angle given (send one form, or both as computed)"
                )
                .field(at: decoder.codingPath + [CodingKeys.verticalAmount])
            }
        } else {
            guard let vertical, let verticalBase, let horizontal, let horizontalBase else {
                throw HealthError.invalidArgument(
                    "a prism needs its amount and angle, or its vertical and horizontal amounts and bases"
                )
                .field(at: decoder.codingPath + [CodingKeys.amount])
            }
            self = try validating(decoder) { () throws(HealthError) in
                try VisionPrism(
                    verticalAmount: vertical,
                    verticalBase: verticalBase,
                    horizontalAmount: horizontal,
                    horizontalBase: horizontalBase,
                    eye: eye
                )
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount, forKey: .amount)
        try container.encode(angle, forKey: .angle)
        try container.encode(eye, forKey: .eye)
        let computed = rectangular
        if computed.vertical.isFinite, computed.horizontal.isFinite {
            try container.encode(Quantity(computed.vertical, .prismDiopter), forKey: .verticalAmount)
            try container.encode(computed.verticalBase, forKey: .verticalBase)
            try container.encode(Quantity(computed.horizontal, .prismDiopter), forKey: .horizontalAmount)
            try container.encode(computed.horizontalBase, forKey: .horizontalBase)
        }
    }
}

extension VisionEye {
    var word: String {
        switch self {
        case .left: "left"
        case .right: "right"
        }
    }
}

/// The checks lens specifications share. Messages name units, never the value refused.
enum LensChecks {
    static func finite(_ quantity: Quantity, compatibleWith unit: HealthUnit, field: String) throws(HealthError) {
        guard quantity.value.isFinite else {
            throw .invalidArgument("the value must be a finite number", field: field + ".value")
        }
        guard quantity.unit.isCompatible(with: unit) else {
            throw .invalidArgument("unit \(quantity.unit) is not compatible with \(unit)", field: field + ".unit")
        }
    }

    /// HealthKit's checks of the powers: diopters for sphere, cylinder and add power, an angle
    /// for the axis; and finite values.
    static func powers(sphere: Quantity, cylinder: Quantity?, axis: Quantity?, addPower: Quantity?) throws(HealthError)
    {
        try finite(sphere, compatibleWith: .diopter, field: "sphere")
        if let cylinder { try finite(cylinder, compatibleWith: .diopter, field: "cylinder") }
        if let axis { try finite(axis, compatibleWith: .degreeAngle, field: "axis") }
        if let addPower { try finite(addPower, compatibleWith: .diopter, field: "addPower") }
    }

    /// A length: finite, in a length unit, not negative.
    static func distance(_ quantity: Quantity?, field: String) throws(HealthError) {
        guard let quantity else { return }
        try finite(quantity, compatibleWith: .millimeter, field: field)
        guard quantity.value >= 0 else {
            throw .invalidArgument("a distance is at least 0", field: field + ".value")
        }
    }
}
