/// A source query: the apps that wrote samples of a type meeting a predicate (HealthKit's
/// `HKSourceQueryDescriptor`).
public struct SourceQueryDescriptor: Hashable, Sendable, Codable {
    public let predicate: SampleTypePredicate

    public init(predicate: SampleTypePredicate) {
        self.predicate = predicate
    }

    public init(sampleType: SampleType, predicate: SamplePredicate? = nil) {
        self.predicate = SampleTypePredicate(sampleType, predicate: predicate)
    }

    public func validate() throws(HealthError) {
        do {
            try predicate.validate()
        } catch {
            throw error.nested(in: "predicate")
        }
    }
}
