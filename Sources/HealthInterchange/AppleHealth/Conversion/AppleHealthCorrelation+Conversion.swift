import Foundation
import HealthModel

extension AppleHealthCorrelation {
    /// Converts the correlation and its members with placeholder UUIDs (distinct, as HealthModel
    /// requires) and source; HealthModel validates it.
    func prepare() throws(HealthError) -> PreparedSample {
        if let missing = missingAttributes.first {
            throw .invalidArgument("the Correlation has no \(missing) attribute", field: missing)
        }
        let correlationType = try CorrelationTypeIdentifier(healthKitString: type)
        let start = try AppleHealthRecord.date(startDate, field: "startDate")
        let end = try AppleHealthRecord.date(endDate, field: "endDate")
        let device = device.flatMap(ExportDevice.device)
        var notes: [AppleHealthConversionNote] = []
        var members: [Sample] = []
        for (index, record) in records.enumerated() {
            do {
                let prepared = try record.preparedOrNew()
                var uuid = PreparedSample.placeholderUUID.uuid
                uuid.15 = UInt8(truncatingIfNeeded: index)
                uuid.14 = UInt8(truncatingIfNeeded: index >> 8)
                members.append(try prepared.sample.restamped(uuid: UUID(uuid: uuid), source: Self.placeholderSource))
                notes += prepared.notes.map {
                    AppleHealthConversionNote(field: "records[\(index)].\($0.field)", reason: $0.reason)
                }
            } catch {
                throw error.nested(in: "records[\(index)]")
            }
        }
        let metadata = ExportMetadata.convert(metadata, notes: &notes)
        let revision = PreparedSample.placeholderRevision(
            sourceName: sourceName,
            version: sourceVersion,
            device: device
        )
        let correlation = try buildDroppingRefusedMetadata(metadata, notes: &notes) { metadata in
            try Correlation(
                uuid: PreparedSample.placeholderUUID,
                type: correlationType,
                start: start.date,
                end: end.date,
                objects: members,
                sourceRevision: revision,
                device: device,
                metadata: metadata
            )
        }
        return PreparedSample(sample: .correlation(correlation), notes: notes)
    }

    private static let placeholderSource = Source(
        bundleIdentifier: PreparedSample.placeholderBundleIdentifier,
        name: "placeholder"
    )
}
