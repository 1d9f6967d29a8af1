public import Foundation

/// An amount in a unit (72.5 kg, 98 count/min), as HealthKit's `HKQuantity`; the value of a quantity sample.
///
/// Equality and hashing are exact (same value, equal unit): 1 kg and 1000 g are different values that
/// ``compare(_:)`` orders the same. Finiteness is not checked here; sample validation does that.
///
/// JSON form: `{"unit":"kg","value":72.5}`.
public struct Quantity: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The amount in ``unit`` (HealthKit's `doubleValue(for: unit)` in the quantity's own unit).
    public let value: Double
    public let unit: HealthUnit

    /// A quantity in HealthKit's argument order, as `HKQuantity(unit:doubleValue:)`.
    public init(unit: HealthUnit, doubleValue: Double) {
        self.value = doubleValue
        self.unit = unit
    }

    /// A quantity, value first: `Quantity(72.5, .kilogram)`.
    public init(_ value: Double, _ unit: HealthUnit) {
        self.value = value
        self.unit = unit
    }

    /// The amount expressed in `unit`, or `invalidArgument` when the units are incompatible.
    public func doubleValue(for unit: HealthUnit) throws(HealthError) -> Double {
        try self.unit.convert(value, to: unit)
    }

    /// The same amount in another unit, or `invalidArgument` when the units are incompatible.
    public func converted(to unit: HealthUnit) throws(HealthError) -> Quantity {
        Quantity(try doubleValue(for: unit), unit)
    }

    /// Whether this quantity converts to `unit`.
    public func isCompatible(with unit: HealthUnit) -> Bool {
        self.unit.isCompatible(with: unit)
    }

    /// Orders two quantities across compatible units, as HealthKit's `HKQuantity.compare(_:)`; throws
    /// `invalidArgument` for incompatible units.
    ///
    /// Both are compared in base units, which never fails for compatible units (unlike converting 0 Pa to
    /// dBASPL). Values within 1e-12 of each other (relative) are `orderedSame`, so that rounding in the unit
    /// factors does not make 12 in and 1 ft differ.
    public func compare(_ other: Quantity) throws(HealthError) -> ComparisonResult {
        guard unit.isCompatible(with: other.unit) else {
            throw .invalidArgument("cannot compare \(unit) with \(other.unit): incompatible units", field: "unit")
        }
        let lhs = unit.baseValue(value)
        let rhs = other.unit.baseValue(other.value)
        if lhs == rhs || abs(lhs - rhs) <= 1e-12 * max(abs(lhs), abs(rhs)) {
            return .orderedSame
        }
        return lhs < rhs ? .orderedAscending : .orderedDescending
    }

    public var description: String { "\(value) \(unit)" }

    private enum CodingKeys: String, CodingKey {
        case unit
        case value
    }

    /// Decodes `{"unit":"kg","value":72.5}`; a missing or invalid unit or a missing value throws a
    /// `HealthError` naming the field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let unitString: String?
        do {
            unitString = try container.decodeIfPresent(String.self, forKey: .unit)
        } catch {
            throw HealthError.invalidArgument("the unit must be a unit string, as \"kg\"", field: "unit")
                .located(at: decoder.codingPath)
        }
        guard let unitString else {
            throw HealthError.invalidArgument("a quantity needs a unit", field: "unit").located(at: decoder.codingPath)
        }
        guard let value = try container.decodeIfPresent(Double.self, forKey: .value) else {
            throw HealthError.invalidArgument("a quantity needs a value", field: "value").located(
                at: decoder.codingPath
            )
        }
        self.unit = try validating(decoder) { () throws(HealthError) in try HealthUnit(from: unitString) }
        self.value = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(unit, forKey: .unit)
        try container.encode(value, forKey: .value)
    }
}
