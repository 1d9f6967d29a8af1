/// The identifier of a scored assessment type: a questionnaire whose answers give a score and a
/// risk (HealthKit's `HKScoredAssessmentTypeIdentifier`).
public enum ScoredAssessmentTypeIdentifier: String, HealthKitIdentifier {
    /// The GAD-7 anxiety questionnaire: seven answers (``GAD7Assessment``).
    case gad7 = "HKScoredAssessmentTypeIdentifierGAD7"
    /// The PHQ-9 depression questionnaire: nine answers (``PHQ9Assessment``).
    case phq9 = "HKScoredAssessmentTypeIdentifierPHQ9"

    public static var kindName: String { "scored assessment type" }
}
