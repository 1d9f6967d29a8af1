import Foundation
import HealthModel

extension AppleHealthRecord {
    /// Converts the record with a placeholder UUID and source; HealthModel validates it.
    func prepare() throws(HealthError) -> PreparedSample {
        if let missing = missingAttributes.first {
            throw .invalidArgument("the Record has no \(missing) attribute", field: missing)
        }
        let objectType = try ObjectType(identifier: type)
        let start = try Self.date(startDate, field: "startDate")
        let end = try Self.date(endDate, field: "endDate")
        let device = device.flatMap(ExportDevice.device)
        var notes: [AppleHealthConversionNote] = []
        let metadata = ExportMetadata.convert(metadata, notes: &notes)
        let revision = PreparedSample.placeholderRevision(
            sourceName: sourceName,
            version: sourceVersion,
            device: device
        )
        switch objectType {
        case .quantity(let quantityType):
            guard let unit else {
                throw .invalidArgument("a Record of a quantity type needs a unit", field: "unit")
            }
            let parsedUnit = try UnitCache.unit(unit)
            guard let value, let number = ExportValues.number(value) else {
                throw .invalidArgument("the value is not a number", field: "value")
            }
            let sample = try buildDroppingRefusedMetadata(metadata, notes: &notes) { metadata in
                try QuantitySample(
                    uuid: PreparedSample.placeholderUUID,
                    type: quantityType,
                    quantity: Quantity(number, parsedUnit),
                    start: start.date,
                    end: end.date,
                    sourceRevision: revision,
                    device: device,
                    metadata: metadata
                )
            }
            return PreparedSample(sample: .quantity(sample), notes: notes)
        case .category(let categoryType):
            guard let value, let raw = ExportConstants.categoryValue(value, of: categoryType) else {
                throw .invalidArgument(
                    "the value is not a value of \(categoryType.valueSet.rawValue), which \(type) takes",
                    field: "value"
                )
            }
            let sample = try buildDroppingRefusedMetadata(metadata, notes: &notes) { metadata in
                try CategorySample(
                    uuid: PreparedSample.placeholderUUID,
                    type: categoryType,
                    value: raw,
                    start: start.date,
                    end: end.date,
                    sourceRevision: revision,
                    device: device,
                    metadata: metadata
                )
            }
            return PreparedSample(sample: .category(sample), notes: notes)
        default:
            throw .invalidArgument(
                "\(type) is not a quantity or category type: HealthVault reads no Record of it yet",
                field: "type"
            )
        }
    }

    /// A date attribute, or `invalidArgument` naming it.
    static func date(_ text: String, field: String) throws(HealthError) -> AppleHealthDate {
        guard let date = AppleHealthDate(parsing: text) else {
            throw .invalidArgument("not a date as exports write them (YYYY-MM-DD HH:MM:SS ±HHMM)", field: field)
        }
        return date
    }
}
