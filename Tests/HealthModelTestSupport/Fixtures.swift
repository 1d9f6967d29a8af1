public import Foundation
public import HealthModel

/// Small builders for valid samples, so each test changes only what it is about.
public enum Fixtures {
    public static let app = SourceRevision(
        source: Source(bundleIdentifier: "org.example.stepcounter", name: "Step Counter"),
        version: "1.2"
    )
    public static let start = RFC3339.date(from: "2026-03-03T08:00:00.000Z")!
    public static let end = RFC3339.date(from: "2026-03-03T08:30:00.000Z")!

    public static func quantity(
        _ type: QuantityTypeIdentifier = .stepCount,
        _ value: Double = 1200,
        _ unit: HealthUnit = .count,
        start: Date = start,
        end: Date = end,
        metadata: Metadata = [:]
    ) throws(HealthError) -> QuantitySample {
        try QuantitySample(
            type: type,
            quantity: Quantity(value, unit),
            start: start,
            end: end,
            sourceRevision: app,
            metadata: metadata
        )
    }

    public static func category(
        _ type: CategoryTypeIdentifier = .sleepAnalysis,
        _ value: Int = CategoryValueSleepAnalysis.asleepREM.rawValue
    ) throws(HealthError) -> CategorySample {
        try CategorySample(type: type, value: value, start: start, end: end, sourceRevision: app)
    }

    public static func bloodPressure(systolic: Double = 120, diastolic: Double = 80) throws(HealthError) -> Correlation
    {
        try Correlation(
            type: .bloodPressure,
            start: start,
            end: start,
            objects: [
                .quantity(try quantity(.bloodPressureSystolic, systolic, .millimeterOfMercury, end: start)),
                .quantity(try quantity(.bloodPressureDiastolic, diastolic, .millimeterOfMercury, end: start)),
            ],
            sourceRevision: app
        )
    }
}

/// Runs `body` and returns the HealthError it throws, or nil.
public func healthError(_ body: () throws -> Void) -> HealthError? {
    do {
        try body()
        return nil
    } catch let error as HealthError {
        return error
    } catch {
        return HealthError(.unknownError, "not a HealthError: \(error)")
    }
}
