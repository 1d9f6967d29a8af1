public import HealthModel

/// The `<Me>` element: the owner's characteristics as written (`HKCharacteristicTypeIdentifier…`
/// attributes with `HKBiologicalSexFemale`-like values); and their conversion to HealthModel.
public struct AppleHealthMe: Hashable, Sendable {
    /// Every attribute, as written, in written order.
    public var attributes: [AppleHealthAttribute]
    public var byteOffset: Int

    public init(attributes: [AppleHealthAttribute], byteOffset: Int = 0) {
        self.attributes = attributes
        self.byteOffset = byteOffset
    }

    /// The characteristics to store: each attribute HealthModel has a characteristic for, with a
    /// value that says something. `…NotSet` values and an empty date of birth mean nothing to
    /// store and are left out, as are the attributes ``unconverted()`` lists.
    public func characteristics() -> [CharacteristicValue] {
        convert().values
    }

    /// The attributes that carry a value but do not become a characteristic, and why: a
    /// characteristic HealthModel does not have (`HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse`),
    /// or a value it does not know.
    public func unconverted() -> [AppleHealthConversionNote] {
        convert().notes
    }

    private func convert() -> (values: [CharacteristicValue], notes: [AppleHealthConversionNote]) {
        var values: [CharacteristicValue] = []
        var notes: [AppleHealthConversionNote] = []
        for attribute in attributes {
            let text = attribute.value
            guard !text.isEmpty, !text.hasSuffix("NotSet") else { continue }
            guard let identifier = CharacteristicTypeIdentifier(rawValue: attribute.name) else {
                notes.append(
                    AppleHealthConversionNote(
                        field: attribute.name,
                        reason: "HealthVault has no such characteristic"
                    )
                )
                continue
            }
            let value: CharacteristicValue?
            switch identifier {
            case .biologicalSex: value = ExportConstants.biologicalSexes[text].map(CharacteristicValue.biologicalSex)
            case .bloodType: value = ExportConstants.bloodTypes[text].map(CharacteristicValue.bloodType)
            case .fitzpatrickSkinType:
                value = ExportConstants.skinTypes[text].map(CharacteristicValue.fitzpatrickSkinType)
            case .wheelchairUse: value = ExportConstants.wheelchairUses[text].map(CharacteristicValue.wheelchairUse)
            case .activityMoveMode: value = ExportConstants.moveModes[text].map(CharacteristicValue.activityMoveMode)
            case .dateOfBirth: value = Self.dateOfBirth(text).map(CharacteristicValue.dateOfBirth)
            }
            if let value {
                values.append(value)
            } else {
                notes.append(
                    AppleHealthConversionNote(
                        field: attribute.name,
                        reason: "not a value of \(identifier.rawValue) HealthVault knows"
                    )
                )
            }
        }
        return (values, notes)
    }

    /// `1984-02-29` (the day only; a time after it is ignored).
    private static func dateOfBirth(_ text: String) -> DateOfBirth? {
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            return nil
        }
        return try? DateOfBirth(year: year, month: month, day: day)
    }
}
