/// One thing read from an Apple Health export, in the order of the file: what
/// ``AppleHealthReader/next()`` returns.
public enum AppleHealthItem: Sendable {
    /// The owner's characteristics (`<Me>`).
    case me(AppleHealthMe)
    /// A quantity or category sample (`<Record>`).
    case record(AppleHealthRecord)
    /// A blood pressure or a food with its member records (`<Correlation>`). Apple also writes
    /// every member as a top-level record; both come as they are.
    case correlation(AppleHealthCorrelation)
    /// A workout with its events, statistics, activities and routes (`<Workout>`).
    case workout(AppleHealthWorkout)
    /// One day's activity rings (`<ActivitySummary>`).
    case activitySummary(AppleHealthActivitySummary)
    /// Elements HealthVault cannot store yet (clinical records, audiograms, vision prescriptions,
    /// anything unknown), counted: a run of consecutive elements of one name and type.
    case unsupported(AppleHealthUnsupported)
    /// An element read whole whose values HealthModel refuses (an unknown type, an incompatible
    /// unit, a value out of range, an end before the start), with the reason.
    case skipped(AppleHealthSkipped)
}
