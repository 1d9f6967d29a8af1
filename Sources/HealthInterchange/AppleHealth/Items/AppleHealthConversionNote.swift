/// Something a conversion to HealthModel left out or changed, and why: a metadata entry of the
/// wrong kind, a workout statistic of an unknown type, a duration rounded to the span.
public struct AppleHealthConversionNote: Hashable, Sendable, CustomStringConvertible {
    /// The part concerned: `metadata.HKTimeZone`, `WorkoutStatistics[2]`, `duration`.
    public let field: String
    /// What was done and why; never a health value.
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}
