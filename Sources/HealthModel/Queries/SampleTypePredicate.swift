/// A sample type with an optional predicate: one input of a query (HealthKit's `HKSamplePredicate`).
public struct SampleTypePredicate: Hashable, Sendable, Codable {
    public let sampleType: SampleType
    /// Nil matches every sample of the type.
    public let predicate: SamplePredicate?

    public init(_ sampleType: SampleType, predicate: SamplePredicate? = nil) {
        self.sampleType = sampleType
        self.predicate = predicate
    }

    /// `HKSamplePredicate.quantitySample(type:predicate:)`.
    public static func quantitySample(
        type: QuantityTypeIdentifier,
        predicate: SamplePredicate? = nil
    ) -> SampleTypePredicate {
        SampleTypePredicate(.quantity(type), predicate: predicate)
    }

    /// `HKSamplePredicate.categorySample(type:predicate:)`.
    public static func categorySample(
        type: CategoryTypeIdentifier,
        predicate: SamplePredicate? = nil
    ) -> SampleTypePredicate {
        SampleTypePredicate(.category(type), predicate: predicate)
    }

    /// `HKSamplePredicate.correlation(type:predicate:)`.
    public static func correlation(
        type: CorrelationTypeIdentifier,
        predicate: SamplePredicate? = nil
    ) -> SampleTypePredicate {
        SampleTypePredicate(.correlation(type), predicate: predicate)
    }

    /// `HKSamplePredicate.workout(_:)`.
    public static func workout(_ predicate: SamplePredicate? = nil) -> SampleTypePredicate {
        SampleTypePredicate(.workout, predicate: predicate)
    }

    /// `HKSamplePredicate.stateOfMind(_:)`.
    public static func stateOfMind(_ predicate: SamplePredicate? = nil) -> SampleTypePredicate {
        SampleTypePredicate(.stateOfMind, predicate: predicate)
    }

    /// `HKSamplePredicate.electrocardiogram(_:)`.
    public static func electrocardiogram(_ predicate: SamplePredicate? = nil) -> SampleTypePredicate {
        SampleTypePredicate(.electrocardiogram, predicate: predicate)
    }

    /// Whether a sample is of the type and meets the predicate.
    public func matches(_ sample: Sample) -> Bool {
        sample.sampleType == sampleType && (predicate?.matches(sample) ?? true)
    }

    public func validate() throws(HealthError) {
        try predicate?.validate(for: sampleType)
    }
}

/// Validates a query's list of typed predicates: at least one, at most a few hundred, each valid.
func validate(_ predicates: [SampleTypePredicate], field: String = "predicates") throws(HealthError) {
    guard !predicates.isEmpty else {
        throw .invalidArgument("a query needs at least one sample type", field: field)
    }
    guard predicates.count <= SampleType.allTypes.count * 4 else {
        throw HealthError(
            .dataSizeExceeded,
            "a query may list at most \(SampleType.allTypes.count * 4) types",
            field: field
        )
    }
    for (index, predicate) in predicates.enumerated() {
        do {
            try predicate.validate()
        } catch {
            throw error.nested(in: "\(field)[\(index)]")
        }
    }
}

/// Validates a result limit: 0 means no limit (HealthKit's `HKObjectQueryNoLimit`).
func validate(limit: Int) throws(HealthError) {
    guard limit >= 0 else {
        throw .invalidArgument("the limit must be 0 (no limit) or more, not \(limit)", field: "limit")
    }
}
