import Foundation
import HealthModel

/// Turns `<MetadataEntry key= value=>` pairs into HealthModel metadata, as HealthKit wrote them.
///
/// An export writes every value as text: numbers (`1`), quantities with their unit (`24.5 degC`,
/// `0 count/min`, `4.52156 kcal/hr·kg`), dates (`2023-01-01 08:00:00 -0800`) and strings. A key
/// HealthKit defines is read as the kind it takes (`HKTimeZone` a string, `HKWeatherTemperature` a
/// quantity, `HKWasUserEntered` a number); another key as a number when the text is a decimal of
/// at most 15 significant digits (a longer one is an identifier and stays a string), else as a
/// quantity when it is a number and a unit, else as a date when it is one, else as a string.
enum ExportMetadata {
    /// The metadata of entries, with a note for each entry left out: a value that is not of its
    /// key's kind, or a key written twice (the last one is kept, as a dictionary would).
    static func convert(
        _ entries: [AppleHealthMetadataEntry],
        fieldPrefix: String = "",
        notes: inout [AppleHealthConversionNote]
    ) -> Metadata {
        var metadata: Metadata = [:]
        for entry in entries {
            let key = MetadataKey(rawValue: entry.key)
            let field = fieldPrefix + "metadata." + entry.key
            guard !entry.key.isEmpty else {
                notes.append(AppleHealthConversionNote(field: fieldPrefix + "metadata", reason: "left out: empty key"))
                continue
            }
            guard let value = value(entry.value, for: key) else {
                let kind = MetadataKey.wellKnownValueKinds[key].map(describe) ?? "a value"
                notes.append(AppleHealthConversionNote(field: field, reason: "left out: not \(kind)"))
                continue
            }
            if metadata.updateValue(value, forKey: key) != nil {
                notes.append(AppleHealthConversionNote(field: field, reason: "written twice: the last value kept"))
            }
        }
        return metadata
    }

    /// The value `text` stands for under `key`, or nil when it is not of the key's kind.
    static func value(_ text: String, for key: MetadataKey) -> MetadataValue? {
        guard let kind = MetadataKey.wellKnownValueKinds[key] else { return guess(text) }
        switch kind {
        case .any:
            return guess(text)
        case .string, .timeZoneName:
            return .string(text)
        case .number, .integer, .boolean, .enumeration:
            return ExportValues.number(text).map(MetadataValue.number)
        case .date:
            return AppleHealthDate(parsing: text).map { .date($0.date) }
        case .quantity, .quantityCompatibleWithSample:
            return ExportValues.quantity(text).map(MetadataValue.quantity)
        }
    }

    private static func guess(_ text: String) -> MetadataValue {
        if let number = ExportValues.exactNumber(text) {
            return .number(number)
        }
        if let quantity = ExportValues.quantity(text) {
            return .quantity(quantity)
        }
        if let date = AppleHealthDate(parsing: text) {
            return .date(date.date)
        }
        return .string(text)
    }

    private static func describe(_ kind: MetadataValueKind) -> String {
        switch kind {
        case .any, .string, .timeZoneName: "a string"
        case .number, .integer, .boolean, .enumeration: "a number"
        case .date: "a date"
        case .quantity, .quantityCompatibleWithSample: "a number with a unit"
        }
    }

    /// The entries of `metadata` HealthModel accepts on their own (checked on a throwaway sample,
    /// since the check itself is HealthModel's), with a note for each left out. For metadata that
    /// belongs to no quantity sample: a workout's, its events' and its activities'.
    static func accepted(
        _ metadata: Metadata,
        fieldPrefix: String,
        notes: inout [AppleHealthConversionNote]
    ) -> Metadata {
        guard !metadata.isEmpty else { return metadata }
        let probeDate = Date(timeIntervalSince1970: 0)
        let revision = PreparedSample.placeholderRevision(sourceName: "probe", version: nil, device: nil)
        do {
            return try buildDroppingRefusedMetadata(metadata, notes: &notes, fieldPrefix: fieldPrefix) { metadata in
                _ = try CategorySample(
                    type: .mindfulSession,
                    value: CategoryValue.notApplicable.rawValue,
                    start: probeDate,
                    end: probeDate,
                    sourceRevision: revision,
                    metadata: metadata
                )
                return metadata
            }
        } catch {
            // A refusal no single entry answers for (a sync identifier without a sync version).
            notes.append(
                AppleHealthConversionNote(field: fieldPrefix + "metadata", reason: "left out: " + error.message)
            )
            return [:]
        }
    }
}
