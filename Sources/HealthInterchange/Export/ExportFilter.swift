public import Foundation
public import HealthModel

/// Which samples an export takes (`--type`, `--from`/`--to`, `--source`): every filter given must
/// hold; an absent one takes everything. Applied by the store in SQL.
public struct ExportFilter: Hashable, Sendable, Codable {
    /// The sample types; nil: every type.
    public var types: [SampleType]?
    /// Samples that start at or after this instant.
    public var from: Date?
    /// Samples that start before this instant.
    public var to: Date?
    /// Sources by bundle identifier or by name (as a source revision names it); nil: every source.
    public var sources: [String]?

    public init(types: [SampleType]? = nil, from: Date? = nil, to: Date? = nil, sources: [String]? = nil) {
        self.types = types
        self.from = from
        self.to = to
        self.sources = sources
    }

    /// Whether the export is the whole vault's, dates aside: no type and no source named. Only
    /// such an export carries the characteristics and the owner's settings.
    public var takesEveryTypeAndSource: Bool { types == nil && sources == nil }

    /// Refuses a filter that can match nothing for a reason the owner should hear of: an empty
    /// list, or a `to` not after `from`.
    public func validate() throws(HealthError) {
        if let types, types.isEmpty { throw .invalidArgument("name at least one type, or none", field: "types") }
        if let sources, sources.isEmpty || sources.contains(where: \.isEmpty) {
            throw .invalidArgument("name each source by a bundle identifier or a name", field: "sources")
        }
        if let from, let to, to <= from { throw .invalidArgument("`to` must come after `from`", field: "to") }
    }
}
