/// What a CSV import did (docs/CSV_IMPORT.md): per type and per source, how many rows were
/// stored, were in the vault already, had been deleted by the owner, or came twice in the file.
public struct CSVImportSummary: Hashable, Sendable, Codable {
    public struct Counts: Hashable, Sendable, Codable {
        public var imported = 0
        public var alreadyPresent = 0
        public var deletedBefore = 0
        public var repeated = 0

        public init() {}
    }

    /// The file's data rows (the header not counted).
    public var rows = 0
    /// By type identifier (a blood pressure counts once, under its correlation type).
    public var byType: [String: Counts] = [:]
    /// By source name, as the file names it (or the file's name, for rows without one).
    public var bySource: [String: Counts] = [:]
    /// Transactions written, each with its `vault.import` audit entry: 1 for a file of at most
    /// 100,000 rows.
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
