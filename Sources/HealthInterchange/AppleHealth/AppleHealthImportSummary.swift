public import Foundation

/// What an Apple Health import did (docs/APPLE_HEALTH_IMPORT.md, "Into the vault"): per type and
/// per source how many records were stored, were there already, had been deleted by the owner,
/// came twice in the file, or were skipped; what HealthVault cannot store yet; and where a cut
/// file stopped.
public struct AppleHealthImportSummary: Hashable, Sendable, Codable {
    public struct Counts: Hashable, Sendable, Codable {
        public var imported = 0
        public var alreadyPresent = 0
        public var deletedBefore = 0
        public var repeated = 0
        public var skipped = 0

        public init() {}
    }

    /// Where a truncated file stopped (imported with `acceptTruncated`).
    public struct Truncation: Hashable, Sendable, Codable {
        public var byteOffset: Int?
        public var line: Int?
        /// Top-level elements read whole before the cut.
        public var completeItems: Int?

        public init(byteOffset: Int?, line: Int?, completeItems: Int?) {
            self.byteOffset = byteOffset
            self.line = line
            self.completeItems = completeItems
        }
    }

    /// By type identifier (a correlation counts once, under its own type).
    public var byType: [String: Counts] = [:]
    /// By source name, as the file names it.
    public var bySource: [String: Counts] = [:]
    /// Why records were skipped, by type and reason (never a value), with how many.
    public var skipped: [String: Int] = [:]
    /// What HealthVault cannot store yet, by element and type, with how many.
    public var unsupported: [String: Int] = [:]
    /// Activity summaries read: HealthVault derives them from the samples, so they are not stored;
    /// their goals are (``goalChanges``).
    public var activitySummaries = 0
    /// Characteristics set from `<Me>`.
    public var characteristics = 0
    /// Forbidden characters removed from values, and irregularities of the DTD passed over.
    public var removedCharacters = 0
    public var doctypeIrregularities = 0
    /// The export XML read: its file name, or its path inside the zip.
    public var xml: String?
    /// Changes of daily goals brought in from the activity summaries (the owner's own goals win).
    public var goalChanges = 0
    /// Route locations left out of imported routes (unreadable or invalid GPX points).
    public var routeLocationsSkipped = 0
    /// Audit entries written: one per batch stored (`vault.import`).
    public var batches = 0
    public var truncated: Truncation?

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case byType, bySource, skipped, unsupported, activitySummaries, characteristics, removedCharacters
        case doctypeIrregularities, xml, goalChanges, routeLocationsSkipped, batches, truncated
    }

    /// Reads the summary as the daemon writes it, and as `healthvault import apple-health --json`
    /// prints it, without its empty members (docs/COMMAND_LINE.md, "JSON output"): a member
    /// that is absent is empty, or 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        byType = try container.decodeIfPresent([String: Counts].self, forKey: .byType) ?? [:]
        bySource = try container.decodeIfPresent([String: Counts].self, forKey: .bySource) ?? [:]
        skipped = try container.decodeIfPresent([String: Int].self, forKey: .skipped) ?? [:]
        unsupported = try container.decodeIfPresent([String: Int].self, forKey: .unsupported) ?? [:]
        activitySummaries = try container.decodeIfPresent(Int.self, forKey: .activitySummaries) ?? 0
        characteristics = try container.decodeIfPresent(Int.self, forKey: .characteristics) ?? 0
        removedCharacters = try container.decodeIfPresent(Int.self, forKey: .removedCharacters) ?? 0
        doctypeIrregularities = try container.decodeIfPresent(Int.self, forKey: .doctypeIrregularities) ?? 0
        xml = try container.decodeIfPresent(String.self, forKey: .xml)
        goalChanges = try container.decodeIfPresent(Int.self, forKey: .goalChanges) ?? 0
        routeLocationsSkipped = try container.decodeIfPresent(Int.self, forKey: .routeLocationsSkipped) ?? 0
        batches = try container.decodeIfPresent(Int.self, forKey: .batches) ?? 0
        truncated = try container.decodeIfPresent(Truncation.self, forKey: .truncated)
    }

    /// Every type's counts added up.
    public var total: Counts {
        byType.values.reduce(into: Counts()) { total, counts in
            total.imported += counts.imported
            total.alreadyPresent += counts.alreadyPresent
            total.deletedBefore += counts.deletedBefore
            total.repeated += counts.repeated
            total.skipped += counts.skipped
        }
    }
}
