import AuditLog
import Foundation
import HealthModel
import Testing
import VaultEngine

/// The owner's preferred units per type.
@Suite struct PreferredUnitTests {
    @Test func preferredUnitsDefaultToTheDefaultUnitAndKeepToTheTypesDimension() async throws {
        let test = try TestEngine()
        let types: Set<QuantityTypeIdentifier> = [.bodyMass, .bodyTemperature, .stepCount]
        #expect(
            try await test.engine.preferredUnits(for: types) == [
                .bodyMass: .kilogram, .bodyTemperature: .degreeCelsius, .stepCount: .count,
            ]
        )
        // Rates HealthKit stores per second are per minute, as the Health app shows them.
        #expect(
            try await test.engine.preferredUnits(for: [.heartRate, .respiratoryRate, .restingHeartRate]) == [
                .heartRate: .countPerMinute, .respiratoryRate: .countPerMinute, .restingHeartRate: .countPerMinute,
            ]
        )
        try await test.engine.setPreferredUnit(.pound, for: .bodyMass)
        try await test.engine.setPreferredUnit(.degreeFahrenheit, for: .bodyTemperature)
        #expect(
            try await test.engine.preferredUnits(for: types) == [
                .bodyMass: .pound, .bodyTemperature: .degreeFahrenheit, .stepCount: .count,
            ]
        )
        // A unit of another dimension is refused, named, and nothing changes.
        let wrong = await healthError { try await test.engine.setPreferredUnit(.kilocalorie, for: .bodyMass) }
        #expect(wrong?.code == .invalidArgument && wrong?.field == "unit")
        #expect(try await test.engine.preferredUnits(for: [.bodyMass]) == [.bodyMass: .pound])
        // Reset: the default unit again.
        try await test.engine.setPreferredUnit(nil, for: .bodyMass)
        #expect(try await test.engine.preferredUnits(for: [.bodyMass]) == [.bodyMass: .kilogram])
        // Each change is audited as a setting of its type.
        let changes = try test.auditEntries().filter { $0.operation == .settingsSet }
        #expect(
            changes.map(\.types) == [
                ["HKQuantityTypeIdentifierBodyMass"], ["HKQuantityTypeIdentifierBodyTemperature"],
                ["HKQuantityTypeIdentifierBodyMass"], ["HKQuantityTypeIdentifierBodyMass"],
            ]
        )
        #expect(changes.map(\.outcome) == [.ok, .ok, .error, .ok])
    }
}
