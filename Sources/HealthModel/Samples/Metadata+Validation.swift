import Foundation

extension Dictionary where Key == MetadataKey, Value == MetadataValue {
    /// Checks every value: finite numbers, the kind each well-known key takes, and HealthKit's rule
    /// that a sync identifier comes with a whole-number sync version.
    ///
    /// - Parameter sampleUnit: the unit of the quantity sample carrying the metadata, if any.
    func validate(sampleUnit: HealthUnit? = nil) throws(HealthError) {
        // Nearly every sample has none; nothing below can refuse an empty dictionary.
        guard !isEmpty else { return }
        for (key, value) in self {
            let field = "metadata.\(key.rawValue)"
            if key.rawValue.isEmpty {
                throw .invalidArgument("a metadata key is empty", field: "metadata")
            }
            if case .number(let number) = value, !number.isFinite {
                throw .invalidArgument("a metadata number must be finite", field: field)
            }
            if case .quantity(let quantity) = value, !quantity.value.isFinite {
                throw .invalidArgument("a metadata quantity must be finite", field: field)
            }
            if let kind = MetadataKey.wellKnownValueKinds[key] {
                try Self.check(value, is: kind, sampleUnit: sampleUnit, field: field)
            }
        }
        let syncVersionField = "metadata.\(MetadataKey.syncVersion.rawValue)"
        if case .number(let version) = self[.syncVersion], abs(version) > Self.largestSyncVersion {
            throw .invalidArgument(
                "a sync version must be a whole number of at most 2^53 - 1 in magnitude",
                field: syncVersionField
            )
        }
        if self[.syncIdentifier] != nil {
            guard self[.syncVersion] != nil else {
                throw .invalidArgument(
                    "a sync identifier needs a sync version (\(MetadataKey.syncVersion.rawValue))",
                    field: syncVersionField
                )
            }
        }
    }

    /// The largest whole number a JSON number (a double) carries exactly, and so the largest sync
    /// version: every one compares exactly once stored.
    static var largestSyncVersion: Double { 9_007_199_254_740_991 }

    private static func check(
        _ value: MetadataValue,
        is kind: MetadataValueKind,
        sampleUnit: HealthUnit?,
        field: String
    ) throws(HealthError) {
        switch (kind, value) {
        case (.any, _), (.string, .string), (.number, .number), (.date, .date):
            return
        case (.timeZoneName, .string(let name)):
            guard TimeZone(identifier: name) != nil else {
                throw .invalidArgument("expected a time zone name (as Europe/Paris)", field: field)
            }
        case (.integer, .number(let number)):
            guard number.rounded() == number else { throw .invalidArgument("expected a whole number", field: field) }
        case (.boolean, .number(let number)):
            guard number == 0 || number == 1 else {
                throw .invalidArgument("expected a boolean (0 or 1)", field: field)
            }
        case (.enumeration(let allowed, let name), .number(let number)):
            guard let raw = Int(exactly: number), allowed.contains(raw) else {
                throw .invalidArgument("expected a value of \(name)", field: field)
            }
        case (.quantity(let unitString), .quantity(let quantity)):
            // The unit strings in the key table are constants; the catalog test parses every one.
            guard let unit = try? HealthUnit(from: unitString), quantity.unit.isCompatible(with: unit) else {
                throw .invalidArgument("expected a quantity compatible with \(unitString)", field: field)
            }
        case (.quantityCompatibleWithSample, .quantity(let quantity)):
            if let sampleUnit, !quantity.unit.isCompatible(with: sampleUnit) {
                throw .invalidArgument("expected a quantity compatible with the sample's unit", field: field)
            }
        default:
            throw .invalidArgument("expected \(kind.noun)", field: field)
        }
    }
}

extension MetadataValueKind {
    /// The kind in words, for messages.
    var noun: String {
        switch self {
        case .any: "any value"
        case .string: "a string"
        case .timeZoneName: "a time zone name"
        case .number: "a number"
        case .integer: "a whole number"
        case .boolean: "a boolean (0 or 1)"
        case .enumeration(_, let name): "a value of \(name)"
        case .date: "a date"
        case .quantity(let unit): "a quantity compatible with \(unit)"
        case .quantityCompatibleWithSample: "a quantity"
        }
    }
}
