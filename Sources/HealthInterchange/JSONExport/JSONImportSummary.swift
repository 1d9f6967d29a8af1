/// What `healthvault import json` did (docs/EXPORT_JSON.md, "Importing"): per type, how many
/// samples were stored, were in the vault already, had been deleted by the owner, or came twice.
public struct JSONImportSummary: Hashable, Sendable, Codable {
    public struct Counts: Hashable, Sendable, Codable {
        public var imported = 0
        public var alreadyPresent = 0
        public var deletedBefore = 0
        public var repeated = 0

        public init() {}
    }

    /// The samples read (lines of `samples.jsonl`).
    public var samples = 0
    /// By type identifier (a correlation counts once).
    public var byType: [String: Counts] = [:]
    /// Characteristics set (only those the vault did not hold).
    public var characteristics = 0
    /// Settings restored (only those the vault did not hold; a goal history counts once).
    public var settings = 0
    /// Transactions written, each with its `vault.import` audit entry.
    public var batches = 0

    public init() {}

    /// Every type's counts added up.
    public var total: Counts {
        byType.values.reduce(into: Counts()) { total, counts in
            total.imported += counts.imported
            total.alreadyPresent += counts.alreadyPresent
            total.deletedBefore += counts.deletedBefore
            total.repeated += counts.repeated
        }
    }
}
