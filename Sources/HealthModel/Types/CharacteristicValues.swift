// This file lists facts from HealthKit's public headers (see docs/HEALTHKIT_MAPPING.md).

/// How the owner's move ring is measured.
public enum ActivityMoveMode: Int, HealthKitEnumeration {
    case activeEnergy = 1
    case appleMoveTime = 2
}

extension ActivityMoveMode {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKActivityMoveMode"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .activeEnergy: "HKActivityMoveModeActiveEnergy"
        case .appleMoveTime: "HKActivityMoveModeAppleMoveTime"
        }
    }
}

/// The owner's biological sex, a characteristic.
public enum BiologicalSex: Int, HealthKitEnumeration {
    case notSet = 0
    case female = 1
    case male = 2
    case other = 3
}

extension BiologicalSex {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKBiologicalSex"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .notSet: "HKBiologicalSexNotSet"
        case .female: "HKBiologicalSexFemale"
        case .male: "HKBiologicalSexMale"
        case .other: "HKBiologicalSexOther"
        }
    }
}

/// The owner's blood type, a characteristic.
public enum BloodType: Int, HealthKitEnumeration {
    case notSet = 0
    case aPositive = 1
    case aNegative = 2
    case bPositive = 3
    case bNegative = 4
    case abPositive = 5
    case abNegative = 6
    case oPositive = 7
    case oNegative = 8
}

extension BloodType {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKBloodType"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .notSet: "HKBloodTypeNotSet"
        case .aPositive: "HKBloodTypeAPositive"
        case .aNegative: "HKBloodTypeANegative"
        case .bPositive: "HKBloodTypeBPositive"
        case .bNegative: "HKBloodTypeBNegative"
        case .abPositive: "HKBloodTypeABPositive"
        case .abNegative: "HKBloodTypeABNegative"
        case .oPositive: "HKBloodTypeOPositive"
        case .oNegative: "HKBloodTypeONegative"
        }
    }
}

/// The owner's skin type on the Fitzpatrick scale, a characteristic.
public enum FitzpatrickSkinType: Int, HealthKitEnumeration {
    case notSet = 0
    case I = 1
    case II = 2
    case III = 3
    case IV = 4
    case V = 5
    case VI = 6
}

extension FitzpatrickSkinType {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKFitzpatrickSkinType"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .notSet: "HKFitzpatrickSkinTypeNotSet"
        case .I: "HKFitzpatrickSkinTypeI"
        case .II: "HKFitzpatrickSkinTypeII"
        case .III: "HKFitzpatrickSkinTypeIII"
        case .IV: "HKFitzpatrickSkinTypeIV"
        case .V: "HKFitzpatrickSkinTypeV"
        case .VI: "HKFitzpatrickSkinTypeVI"
        }
    }
}

/// Whether the owner uses a wheelchair, a characteristic.
public enum WheelchairUse: Int, HealthKitEnumeration {
    case notSet = 0
    case no = 1
    case yes = 2
}

extension WheelchairUse {
    /// HealthKit's name of this enumeration.
    public static let healthKitName = "HKWheelchairUse"

    /// The Objective-C constant of each case, the spelling Apple Health exports use.
    public var healthKitConstant: String {
        switch self {
        case .notSet: "HKWheelchairUseNotSet"
        case .no: "HKWheelchairUseNo"
        case .yes: "HKWheelchairUseYes"
        }
    }
}
