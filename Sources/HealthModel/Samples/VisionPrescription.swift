public import Foundation

/// A prescription for glasses or contact lenses, as HealthKit's `HKVisionPrescription` and its
/// subclasses `HKGlassesPrescription` and `HKContactsPrescription`: its type, the date it was
/// issued and the date it expires, and for each eye the lens it prescribes.
///
/// As in HealthKit, the sample starts when the prescription was issued (``dateIssued``) and ends
/// when it expires; one that does not expire ends at `Date.distantFuture` (4001-01-01), and its
/// ``expirationDate`` is nil. A prescription without lenses is HealthKit's image-only
/// prescription (`HKVisionPrescription(type:dateIssued:...)`).
///
/// Vision prescriptions are read object by object (HealthKit's
/// `requestPerObjectReadAuthorization(for:predicate:)`): no type-level read grant shows another
/// app's, only the owner's choice of each one (docs/ACCESS_RULES.md).
public struct VisionPrescription: HealthSample {
    public let uuid: UUID
    public let prescriptionType: VisionPrescriptionType
    /// The lenses prescribed; nil for an image-only prescription.
    public let lenses: Lenses?
    public let startDate: Date
    public let endDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// The lenses of a glasses or a contacts prescription.
    public enum Lenses: Hashable, Sendable {
        /// `HKGlassesPrescription`: a lens specification for the right eye, the left, or both.
        case glasses(rightEye: GlassesLensSpecification?, leftEye: GlassesLensSpecification?)
        /// `HKContactsPrescription`: a lens specification per eye, and the brand prescribed after
        /// the fitting.
        case contacts(rightEye: ContactsLensSpecification?, leftEye: ContactsLensSpecification?, brand: String)

        var prescriptionType: VisionPrescriptionType {
            switch self {
            case .glasses: .glasses
            case .contacts: .contacts
            }
        }
    }

    /// The longest brand, in bytes of UTF-8.
    public static let maximumBrandLength = 1024

    /// When the prescription was issued: the sample's start.
    public var dateIssued: Date { startDate }

    /// When the prescription expires: the sample's end, or nil when it does not expire (its end
    /// is then `Date.distantFuture`, as in HealthKit).
    public var expirationDate: Date? { endDate >= Self.noExpiration ? nil : endDate }

    /// The end of a prescription that does not expire (HealthKit's `Date.distantFuture`).
    public static let noExpiration = Date.distantFuture

    /// The right eye's glasses lens, for a glasses prescription.
    public var glassesRightEye: GlassesLensSpecification? {
        if case .glasses(let right, _) = lenses { return right }
        return nil
    }

    /// The left eye's glasses lens, for a glasses prescription.
    public var glassesLeftEye: GlassesLensSpecification? {
        if case .glasses(_, let left) = lenses { return left }
        return nil
    }

    /// The right eye's contact lens, for a contacts prescription.
    public var contactsRightEye: ContactsLensSpecification? {
        if case .contacts(let right, _, _) = lenses { return right }
        return nil
    }

    /// The left eye's contact lens, for a contacts prescription.
    public var contactsLeftEye: ContactsLensSpecification? {
        if case .contacts(_, let left, _) = lenses { return left }
        return nil
    }

    /// The brand of a contacts prescription.
    public var brand: String? {
        if case .contacts(_, _, let brand) = lenses { return brand }
        return nil
    }

    /// Creates a prescription, or throws `invalidArgument` naming the field: an expiration before
    /// the date issued, lenses of the other type than `type`, a lens whose values are in the
    /// wrong unit or not finite (or, for distances, negative), a prism for the other eye, a brand
    /// longer than 1,024 bytes, or bad metadata.
    ///
    /// A glasses prescription with neither eye is an image-only prescription (`lenses` nil).
    public init(
        // Random, never time-ordered: the audit log names the UUIDs of the objects the owner
        // chooses for an app (docs/MODEL_JSON.md, "UUIDs").
        uuid: UUID = UUID(),
        type: VisionPrescriptionType,
        lenses: Lenses? = nil,
        dateIssued: Date,
        expirationDate: Date?,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        let end = expirationDate ?? Self.noExpiration
        try validateCommon(startDate: dateIssued, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        var lenses = lenses
        switch lenses {
        case .glasses(nil, nil):
            lenses = nil
        case .glasses(let right, let left):
            try right?.validate(eye: .right, field: "rightEye")
            try left?.validate(eye: .left, field: "leftEye")
        case .contacts(let right, let left, let brand):
            try right?.validate(field: "rightEye")
            try left?.validate(field: "leftEye")
            guard brand.utf8.count <= Self.maximumBrandLength else {
                throw .invalidArgument("a brand is at most \(Self.maximumBrandLength) bytes of UTF-8", field: "brand")
            }
        case nil:
            break
        }
        if let lenses, lenses.prescriptionType != type {
            throw .invalidArgument(
                "the lenses are those of a \(lenses.prescriptionType.word) prescription, not of a \(type.word) one",
                field: "prescriptionType"
            )
        }
        self.uuid = uuid
        self.prescriptionType = type
        self.lenses = lenses
        self.startDate = dateIssued
        self.endDate = end
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    /// A glasses prescription (HealthKit's `HKGlassesPrescription(rightEyeSpecification:...)`).
    public static func glasses(
        // Random, never time-ordered: the audit log names the UUIDs of the objects the owner
        // chooses for an app (docs/MODEL_JSON.md, "UUIDs").
        uuid: UUID = UUID(),
        rightEye: GlassesLensSpecification?,
        leftEye: GlassesLensSpecification?,
        dateIssued: Date,
        expirationDate: Date?,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) -> VisionPrescription {
        try VisionPrescription(
            uuid: uuid,
            type: .glasses,
            lenses: .glasses(rightEye: rightEye, leftEye: leftEye),
            dateIssued: dateIssued,
            expirationDate: expirationDate,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }

    /// A contacts prescription (HealthKit's `HKContactsPrescription(rightEyeSpecification:...)`).
    public static func contacts(
        // Random, never time-ordered: the audit log names the UUIDs of the objects the owner
        // chooses for an app (docs/MODEL_JSON.md, "UUIDs").
        uuid: UUID = UUID(),
        rightEye: ContactsLensSpecification?,
        leftEye: ContactsLensSpecification?,
        brand: String,
        dateIssued: Date,
        expirationDate: Date?,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) -> VisionPrescription {
        try VisionPrescription(
            uuid: uuid,
            type: .contacts,
            lenses: .contacts(rightEye: rightEye, leftEye: leftEye, brand: brand),
            dateIssued: dateIssued,
            expirationDate: expirationDate,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }

    public var sampleType: SampleType { .visionPrescription }

    public func attributed(to sourceRevision: SourceRevision) -> VisionPrescription {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    private enum CodingKeys: String, CodingKey {
        case prescriptionType, rightEye, leftEye, brand
    }

    public init(from decoder: any Decoder) throws {
        let common = try decoder.container(keyedBy: SampleCodingKeys.self)
        guard try common.decode(SampleType.self, forKey: .type) == .visionPrescription else {
            throw HealthError.invalidArgument("expected \(ObjectType.visionPrescriptionTypeIdentifier)")
                .field(at: decoder.codingPath + [SampleCodingKeys.type])
        }
        let (uuid, start, end, source, device, metadata) = try common.decodeCommon()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(VisionPrescriptionType.self, forKey: .prescriptionType)
        let hasLenses =
            container.contains(.rightEye) || container.contains(.leftEye) || container.contains(.brand)
        var lenses: Lenses?
        if hasLenses {
            switch type {
            case .glasses:
                guard !container.contains(.brand) else {
                    throw HealthError.invalidArgument("only a contacts prescription names a brand")
                        .field(at: decoder.codingPath + [CodingKeys.brand])
                }
                lenses = .glasses(
                    rightEye: try container.decodeIfPresent(GlassesLensSpecification.self, forKey: .rightEye),
                    leftEye: try container.decodeIfPresent(GlassesLensSpecification.self, forKey: .leftEye)
                )
            case .contacts:
                lenses = .contacts(
                    rightEye: try container.decodeIfPresent(ContactsLensSpecification.self, forKey: .rightEye),
                    leftEye: try container.decodeIfPresent(ContactsLensSpecification.self, forKey: .leftEye),
                    brand: try container.decode(String.self, forKey: .brand)
                )
            }
        }
        self = try validating(decoder) { () throws(HealthError) in
            try VisionPrescription(
                uuid: uuid,
                type: type,
                lenses: lenses,
                dateIssued: start,
                expirationDate: end >= Self.noExpiration ? nil : end,
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
        }
        // The end is the expiration or the distant future, nothing in between that means neither.
        guard end == endDate else {
            throw HealthError.invalidArgument(
                "a prescription that does not expire ends at 4001-01-01T00:00:00Z (HealthKit's distant future)"
            )
            .field(at: decoder.codingPath + [SampleCodingKeys.endDate])
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var common = encoder.container(keyedBy: SampleCodingKeys.self)
        try common.encodeCommon(self)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(prescriptionType, forKey: .prescriptionType)
        switch lenses {
        case .glasses(let right, let left):
            try container.encodeIfPresent(right, forKey: .rightEye)
            try container.encodeIfPresent(left, forKey: .leftEye)
        case .contacts(let right, let left, let brand):
            try container.encodeIfPresent(right, forKey: .rightEye)
            try container.encodeIfPresent(left, forKey: .leftEye)
            try container.encode(brand, forKey: .brand)
        case nil:
            break
        }
    }
}

/// A vision prescription's type (HealthKit's `HKVisionPrescriptionType`).
public enum VisionPrescriptionType: Int, HealthKitEnumeration {
    case glasses = 1
    case contacts = 2

    public static let healthKitName = "HKVisionPrescriptionType"
    public var healthKitConstant: String { constantFromCaseName }

    /// `glasses` or `contacts`.
    public var word: String {
        switch self {
        case .glasses: "glasses"
        case .contacts: "contacts"
        }
    }
}

/// An eye (HealthKit's `HKVisionEye`).
public enum VisionEye: Int, HealthKitEnumeration {
    case left = 1
    case right = 2

    public static let healthKitName = "HKVisionEye"
    public var healthKitConstant: String { constantFromCaseName }
}

/// The direction of a prism's base (HealthKit's `HKPrismBase`).
public enum PrismBase: Int, HealthKitEnumeration {
    case none = 0
    case up = 1
    case down = 2
    /// Toward the nose.
    case `in` = 3
    /// Away from the nose.
    case out = 4

    public static let healthKitName = "HKPrismBase"
    public var healthKitConstant: String { constantFromCaseName }
}
