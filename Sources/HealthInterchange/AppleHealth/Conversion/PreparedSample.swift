import Foundation
import HealthModel

/// A conversion made before the importer chose the UUID and the source: the sample, validated by
/// HealthModel with a placeholder UUID and source, and what the conversion left out.
struct PreparedSample: Sendable {
    let sample: Sample
    let notes: [AppleHealthConversionNote]

    /// The bundle identifier of the placeholder source the conversion validates with.
    static let placeholderBundleIdentifier = "org.healthvault.import.placeholder"
    static let placeholderUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    static func placeholderRevision(sourceName: String, version: String?, device: Device?) -> SourceRevision {
        let source = Source(bundleIdentifier: placeholderBundleIdentifier, name: sourceName)
        return revision(source: source, version: version, device: device)
    }

    /// The source revision of an exported object: the importer's source, the export's source
    /// version and, for an Apple device, its product type (`Watch6,1`) and software version.
    static func revision(source: Source, version: String?, device: Device?) -> SourceRevision {
        let apple = device?.manufacturer == "Apple Inc."
        return SourceRevision(
            source: source,
            version: version,
            productType: apple ? device?.hardwareVersion : nil,
            operatingSystemVersion: apple ? device?.softwareVersion : nil
        )
    }
}

extension SourceRevision {
    func replacingSource(with source: Source) -> SourceRevision {
        SourceRevision(
            source: source,
            version: version,
            productType: productType,
            operatingSystemVersion: operatingSystemVersion
        )
    }
}

extension Sample {
    /// The same sample with another UUID and source: a quantity or category sample, or a
    /// correlation whose members keep theirs (``Correlation`` re-stamps members separately).
    func restamped(uuid: UUID, source: Source) throws(HealthError) -> Sample {
        let revision = sourceRevision.replacingSource(with: source)
        // Checked when it was made; only the new revision is checked again.
        switch self {
        case .quantity(let sample):
            return .quantity(try sample.renamed(uuid: uuid, attributedTo: revision))
        case .category(let sample):
            return .category(try sample.renamed(uuid: uuid, attributedTo: revision))
        case .workout(let workout):
            return .workout(try workout.renamed(uuid: uuid, attributedTo: revision))
        default:
            throw .invalidArgument("this kind of sample is not made from an Apple Health export", field: "type")
        }
    }
}

/// Builds a HealthModel value from metadata, leaving out the entries HealthModel refuses: each
/// refusal names `metadata.<key>`; that entry is dropped, noted, and the value built again.
func buildDroppingRefusedMetadata<Value>(
    _ metadata: Metadata,
    notes: inout [AppleHealthConversionNote],
    fieldPrefix: String = "",
    _ build: (Metadata) throws -> Value
) throws(HealthError) -> Value {
    var metadata = metadata
    while true {
        do {
            return try build(metadata)
        } catch let error as HealthError {
            guard let field = error.field, field.hasPrefix("metadata.") else { throw error }
            let key = MetadataKey(rawValue: String(field.dropFirst("metadata.".count)))
            guard metadata.removeValue(forKey: key) != nil else { throw error }
            notes.append(
                AppleHealthConversionNote(field: fieldPrefix + field, reason: "left out: " + error.message)
            )
        } catch {
            throw HealthError(.unknownError, "\(error)")
        }
    }
}
