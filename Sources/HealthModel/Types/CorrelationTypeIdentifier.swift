/// The identifier of a correlation type: a sample that groups related quantity or category samples.
public enum CorrelationTypeIdentifier: String, HealthKitIdentifier {
    /// One systolic and one diastolic blood-pressure sample.
    case bloodPressure = "HKCorrelationTypeIdentifierBloodPressure"
    /// A food: dietary quantity samples (energy, nutrients, water, caffeine).
    case food = "HKCorrelationTypeIdentifierFood"

    public static var kindName: String { "correlation type" }
}

extension CorrelationTypeIdentifier {
    /// Whether a member sample of this type may belong to the correlation.
    public func allows(_ member: SampleType) -> Bool {
        switch (self, member) {
        case (.bloodPressure, .quantity(let type)):
            type == .bloodPressureSystolic || type == .bloodPressureDiastolic
        case (.food, .quantity(let type)):
            type.group == "Nutrition"
        default:
            false
        }
    }

    /// The member types this correlation accepts.
    public var allowedMemberTypes: [SampleType] {
        QuantityTypeIdentifier.allCases.map(SampleType.quantity).filter(allows)
    }
}
