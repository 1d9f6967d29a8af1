import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

/// Quantities: an amount in a unit, converted, compared and coded.
struct QuantityTests {
    private static func encoded(_ quantity: Quantity) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(quantity), as: UTF8.self)
    }

    private static func decodingError(_ json: String) -> HealthError? {
        do {
            _ = try JSONDecoder().decode(Quantity.self, from: Data(json.utf8))
            return nil
        } catch let error as HealthError {
            return error
        } catch {
            Issue.record("expected a HealthError, got \(error)")
            return nil
        }
    }

    @Test func bothInitializersHoldValueAndUnit() {
        let healthKitOrder = Quantity(unit: .kilogram, doubleValue: 72.5)
        let valueFirst = Quantity(72.5, .kilogram)
        #expect(healthKitOrder == valueFirst)
        #expect(valueFirst.value == 72.5)
        #expect(valueFirst.unit == .kilogram)
        #expect(valueFirst.description == "72.5 kg")
    }

    @Test func doubleValueConvertsToCompatibleUnits() throws {
        let mass = Quantity(72.5, .kilogram)
        #expect(try mass.doubleValue(for: .kilogram) == 72.5)
        #expect(abs(try mass.doubleValue(for: .pound) - 72_500 / 453.59237) < 1e-9)
        #expect(try mass.converted(to: .gram) == Quantity(72_500, .gram))
        let glucose = Quantity(5.5, try HealthUnit(from: "mmol<180.15588000005408>/L"))
        #expect(abs(try glucose.doubleValue(for: HealthUnit(from: "mg/dL")) - 99.085734) < 1e-6)
        #expect(abs(try Quantity(37, .degreeCelsius).doubleValue(for: .degreeFahrenheit) - 98.6) < 1e-9)
    }

    @Test func doubleValueThrowsInvalidArgumentForIncompatibleUnits() {
        let heartRate = Quantity(72, .countPerMinute)
        #expect(!heartRate.isCompatible(with: .hertz))
        #expect(heartRate.isCompatible(with: .countPerSecond))
        let error = #expect(throws: HealthError.self) { try heartRate.doubleValue(for: .hertz) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "cannot convert count/min to Hz: incompatible units")
    }

    @Test func compareOrdersAcrossCompatibleUnits() throws {
        #expect(try Quantity(1, .kilogram).compare(Quantity(1000, .gram)) == .orderedSame)
        #expect(try Quantity(12, .inch).compare(Quantity(1, .foot)) == .orderedSame)
        #expect(try Quantity(1, .pound).compare(Quantity(1, .kilogram)) == .orderedAscending)
        #expect(try Quantity(1, .mile).compare(Quantity(1, .kilometer)) == .orderedDescending)
        #expect(try Quantity(0, .degreeCelsius).compare(Quantity(32, .degreeFahrenheit)) == .orderedSame)
        #expect(try Quantity(-1, .degreeCelsius).compare(Quantity(272, .kelvin)) == .orderedDescending)
        // A zero pressure has no decibel level but still compares below any level.
        #expect(try Quantity(0, .pascal).compare(Quantity(0, .decibelAWeightedSoundPressureLevel)) == .orderedAscending)
        #expect(
            try Quantity(94, .decibelAWeightedSoundPressureLevel).compare(Quantity(1, .pascal)) == .orderedDescending
        )
    }

    @Test func compareThrowsForIncompatibleUnits() {
        let error = #expect(throws: HealthError.self) { try Quantity(1, .kilogram).compare(Quantity(1, .meter)) }
        #expect(error?.code == .invalidArgument)
    }

    @Test func equalityIsExactNotByAmount() {
        #expect(Quantity(1, .kilogram) != Quantity(1000, .gram))
        #expect(Quantity(1, try! HealthUnit(from: "m*s")) == Quantity(1, try! HealthUnit(from: "s*m")))
        #expect(Set([Quantity(1, .kilogram), Quantity(1, .kilogram), Quantity(1, .gram)]).count == 2)
    }

    @Test func jsonFormIsUnitAndValue() throws {
        #expect(try Self.encoded(Quantity(72.5, .kilogram)) == #"{"unit":"kg","value":72.5}"#)
        #expect(
            try Self.encoded(Quantity(1.5, HealthUnit(from: "kcal/kg.hr"))) == #"{"unit":"kcal/(kg*hr)","value":1.5}"#
        )
        let decoded = try JSONDecoder().decode(Quantity.self, from: Data(#"{"value":98,"unit":"count/min"}"#.utf8))
        #expect(decoded == Quantity(98, .countPerMinute))
    }

    @Test func decodingRejectsMissingOrInvalidUnitsWithHealthError() {
        let missing = Self.decodingError(#"{"value":72.5}"#)
        #expect(missing?.code == .invalidArgument)
        #expect(missing?.field == "unit")
        let invalid = Self.decodingError(#"{"unit":"kgg","value":72.5}"#)
        #expect(invalid?.field == "unit")
        #expect(invalid?.message == "unknown unit \"kgg\"")
        let notString = Self.decodingError(#"{"unit":5,"value":72.5}"#)
        #expect(notString?.field == "unit")
        let noValue = Self.decodingError(#"{"unit":"kg"}"#)
        #expect(noValue?.field == "value")
    }

    @Test func encodingANonFiniteValueFails() {
        #expect(throws: (any Error).self) { try JSONEncoder().encode(Quantity(.infinity, .kilogram)) }
    }

    @Test func jsonRoundTripKeepsValueAndUnit() async {
        let units = UnitTests.compatibleGroups.flatMap { $0 } + ["dBASPL", "dBHL", "appleEffortScore", "pD"]
        let unit = Gen.element(of: units).map { try! HealthUnit(from: $0!) }
        await propertyCheck(count: 300, input: unit, Gen.double(in: -1e9...1e9)) { unit, value in
            let quantity = Quantity(value, unit)
            let data = try JSONEncoder().encode(quantity)
            let decoded = try JSONDecoder().decode(Quantity.self, from: data)
            #expect(decoded == quantity)
            #expect(decoded.unit.unitString == unit.unitString)
            #expect(decoded.value.bitPattern == value.bitPattern)
        }
    }
}
