/// The formats an owner's export writes (`healthvault export --format`). Each is a writer that
/// takes the samples the engine reads (``ExportWriter``); a format is added as a case here and a
/// writer beside ``JSONExportWriter``.
public enum ExportFormat: String, Hashable, Sendable, Codable, CaseIterable {
    /// The lossless JSON lines of docs/EXPORT_JSON.md, which `healthvault import json` reads back.
    case json
    /// FHIR R4 resources, newline-delimited JSON per resource type (docs/FHIR_EXPORT.md).
    case fhir
    /// A CSV file per type, for spreadsheets (docs/EXPORT_CSV.md).
    case csv
}
