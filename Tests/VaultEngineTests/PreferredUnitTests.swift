import AuditLog
import Foundation
import HealthModel
import Testing
import VaultEngine

/// The owner's preferred units per type.
@Suite struct PreferredUnitTests {
    @Test func preferredUnitsDefaultToTheCanonicalUnitAndKeepToTheTypesDimension() async throws {
        let test = try TestEngine()
        let types: Set<QuantityTypeIdentifier> = [.bodyMass, .bodyTemperature, .stepCount]
        #expect(
            try await test.engine.preferredUnits(for: types) == [
                .bodyMass: .kilogram, .bodyTemperature: .degreeCelsius, .stepCount: .count,
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
        // Reset: the canonical unit again.
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
