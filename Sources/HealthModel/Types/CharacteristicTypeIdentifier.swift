/// The identifier of a characteristic: a fact about the owner that does not change over time.
///
/// Characteristics are set by the owner only; apps may read them with a read grant and never share.
public enum CharacteristicTypeIdentifier: String, HealthKitIdentifier {
    case activityMoveMode = "HKCharacteristicTypeIdentifierActivityMoveMode"
    case biologicalSex = "HKCharacteristicTypeIdentifierBiologicalSex"
    case bloodType = "HKCharacteristicTypeIdentifierBloodType"
    case dateOfBirth = "HKCharacteristicTypeIdentifierDateOfBirth"
    case fitzpatrickSkinType = "HKCharacteristicTypeIdentifierFitzpatrickSkinType"
    case wheelchairUse = "HKCharacteristicTypeIdentifierWheelchairUse"

    public static var kindName: String { "characteristic type" }
}
