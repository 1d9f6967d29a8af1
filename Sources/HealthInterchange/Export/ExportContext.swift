public import Foundation
public import HealthModel

/// What the CSV export needs to know of the owner besides the samples: the time zone and units.
public struct ExportContext: Sendable {
    /// The owner's time zone: days and local times in the CSV files.
    public var timeZone: TimeZone
    /// The owner's units, by quantity type (types without one: the type's canonical unit).
    public var preferredUnits: [QuantityTypeIdentifier: HealthUnit]
    public init(
        timeZone: TimeZone = .gmt,
        preferredUnits: [QuantityTypeIdentifier: HealthUnit] = [:]
    ) {
        self.timeZone = timeZone
        self.preferredUnits = preferredUnits
    }
}
