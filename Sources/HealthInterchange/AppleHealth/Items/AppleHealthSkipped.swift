public import HealthModel

/// A top-level element that was read whole but cannot become a HealthModel value.
public struct AppleHealthSkipped: Hashable, Sendable {
    /// `Record`, `Correlation`, `Workout`, `ActivitySummary`.
    public let element: String
    /// The element's type (`type`, or a workout's `workoutActivityType`), when it has one.
    public let type: String?
    /// Why: HealthModel's refusal (or the reader's, for a missing attribute), naming the field
    /// and never a health value.
    public let reason: HealthError
    /// Where the element begins in the file.
    public let byteOffset: Int
    /// The 1-based line it begins on.
    public let line: Int
}
