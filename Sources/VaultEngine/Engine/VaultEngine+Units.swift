import AuditLog
public import Foundation
public import HealthModel
import VaultStore

extension VaultEngine {
    /// The owner's preferred unit of each type (HealthKit's `preferredUnits(for:)`): the unit
    /// the owner chose, else the type's default unit (its canonical unit, but heart rate and
    /// respiratory rate per minute, as the Health app shows them). The same for every caller,
    /// granted or not: it tells nothing of anyone's data, so it is not an access to record.
    public func preferredUnits(
        for types: Set<QuantityTypeIdentifier>
    ) async throws
        -> [QuantityTypeIdentifier: HealthUnit]
    {
        guard types.count <= QuantityTypeIdentifier.allCases.count else {
            throw HealthError(.dataSizeExceeded, "ask for at most every quantity type", field: "types")
        }
        return try await perform { [self] in
            try database.read { try Self.preferredUnits(for: types, $0) }
        }
    }

    /// ``preferredUnits(for:)`` in the read transaction `db`.
    static func preferredUnits(
        for types: some Sequence<QuantityTypeIdentifier>,
        _ db: Connection
    ) throws -> [QuantityTypeIdentifier: HealthUnit] {
        let chosen = try VaultSettings.values(prefixed: Self.preferredUnitPrefix, db)
        var units: [QuantityTypeIdentifier: HealthUnit] = [:]
        for type in types {
            units[type] =
                chosen[type.rawValue].flatMap { try? HealthUnit(from: $0) }.flatMap {
                    $0.isCompatible(with: type.canonicalUnit) ? $0 : nil
                } ?? type.defaultUnit
        }
        return units
    }

    /// Sets the owner's preferred unit of a type; nil goes back to the default unit. A unit of
    /// another dimension is `invalidArgument` on `unit`. Audited as `settings.set` naming the type.
    public func setPreferredUnit(
        _ unit: HealthUnit?,
        for type: QuantityTypeIdentifier,
        requestID: String = ""
    )
        async throws
    {
        try await perform { [self] in
            try audited(.owner, .settingsSet, types: [type.rawValue], requestID: requestID) {
                if let unit, !unit.isCompatible(with: type.canonicalUnit) {
                    throw HealthError.invalidArgument(
                        "\(unit) does not measure \(type.rawValue) (its unit is \(type.canonicalUnit) or one like it)",
                        field: "unit"
                    )
                }
                try database.write { db in
                    try VaultSettings.setValue(unit?.description, for: Self.preferredUnitPrefix + type.rawValue, db)
                    try append(entry(.owner, .settingsSet, types: [type.rawValue], requestID: requestID), in: db)
                }
            }
        }
    }

    static let preferredUnitPrefix = "preferredUnit:"
}
