public import AuditLog
public import Foundation
public import HealthModel
public import VaultStore

extension VaultEngine {
    // MARK: Statistics

    /// Runs a statistics query in the caller's scope (computed in SQL over the samples it may
    /// see): nil when it sees no matching sample, whether there is none or it may not see them.
    public func statistics(
        matching query: StatisticsQueryDescriptor,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> Statistics? {
        let keeper = StatisticsHoursKeeper(keepsStatisticsHours ? .keep : .off)
        return try await read(
            .queryStatistics,
            types: [.quantity(query.quantityType)],
            as: caller,
            requestID: requestID,
            keeping: keeper
        ) { [self] db, scope in
            let statistics = try store.statistics(matching: query, scope: scope, keeping: keeper, in: db)
            return (statistics, statistics == nil ? 0 : 1)
        }
    }

    /// Runs a statistics collection query in the caller's scope; intervals are counted in the
    /// query's time zone, or the owner's when it names none.
    public func statisticsCollection(
        matching query: StatisticsCollectionQueryDescriptor,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> StatisticsCollection {
        let keeper = StatisticsHoursKeeper(keepsStatisticsHours ? .keep : .off)
        return try await read(
            .queryStatisticsCollection,
            types: [.quantity(query.quantityType)],
            as: caller,
            requestID: requestID,
            keeping: keeper
        ) { [self] db, scope in
            let collection = try store.statisticsCollection(
                matching: query,
                scope: scope,
                timeZone: try VaultSettings.timeZoneName(db),
                keeping: keeper,
                in: db
            )
            return (collection, collection.statistics.count)
        }
    }

    /// Runs a category statistics query in the caller's scope (docs/STATISTICS.md, "Category
    /// statistics"): per interval, the samples that reach into it and the time each value covers.
    /// The daemon offers it to the owner only. Audited as one `query.category-statistics` entry
    /// naming the category type, its count the intervals returned.
    public func categoryStatisticsCollection(
        matching query: CategoryStatisticsQueryDescriptor,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> CategoryStatisticsCollection {
        try await read(
            .queryCategoryStatistics,
            types: [.category(query.categoryType)],
            as: caller,
            requestID: requestID
        ) { [self] db, scope in
            let collection = try store.categoryStatisticsCollection(
                matching: query,
                scope: scope,
                timeZone: try VaultSettings.timeZoneName(db),
                in: db
            )
            return (collection, collection.statistics.count)
        }
    }

    // MARK: Settings (owner)

    /// The owner's order of sources for merging a type's statistics, highest priority first
    /// (bundle identifiers; sources not listed follow in the order they first saved).
    public func sourcePriority(for type: QuantityTypeIdentifier) async throws -> [String] {
        try await perform { [self] in try database.read { try store.sourcePriority(for: type, in: $0) } }
    }

    /// Every type the owner has ordered sources for.
    public func sourcePriorities() async throws -> [QuantityTypeIdentifier: [String]] {
        try await perform { [self] in try database.read { try store.sourcePriorities(in: $0) } }
    }

    /// Sets a type's source order; an empty list restores the default. Audited as `settings.set`.
    public func setSourcePriority(
        _ bundleIdentifiers: [String],
        for type: QuantityTypeIdentifier,
        requestID: String = ""
    ) async throws {
        guard Set(bundleIdentifiers).count == bundleIdentifiers.count else {
            throw HealthError.invalidArgument("a source is listed twice", field: "sources")
        }
        guard bundleIdentifiers.count <= 1000, bundleIdentifiers.allSatisfy({ (1...255).contains($0.utf8.count) })
        else {
            throw HealthError.invalidArgument("at most 1000 bundle identifiers of 1 to 255 bytes", field: "sources")
        }
        let recorded = [SampleType.quantity(type).identifier]
        try await perform { [self] in
            try audited(.owner, .settingsSet, types: recorded, requestID: requestID) {
                try database.write { db in
                    try store.setSourcePriority(bundleIdentifiers, for: type, in: db)
                    try append(entry(.owner, .settingsSet, types: recorded, requestID: requestID), in: db)
                }
            }
        }
        // Activity summaries merge their energy by this order.
        if Self.activityTypes.contains(.quantity(type)) { await refreshActivitySummaries(nil) }
    }

    /// The time zone statistics collections are counted in when a query names none.
    public func timeZone() async throws -> TimeZone {
        try await perform { [self] in try database.read { try VaultSettings.timeZone($0) } }
    }

    /// The name of that time zone, as the owner gave it (`UTC`, not Foundation's `GMT`).
    public func timeZoneName() async throws -> String {
        try await perform { [self] in try database.read { try VaultSettings.timeZoneName($0) } }
    }

    /// Sets the owner's time zone (an IANA name, kept as given). Audited as `settings.set`.
    public func setTimeZone(_ identifier: String, requestID: String = "") async throws {
        guard TimeZone(identifier: identifier) != nil else {
            throw HealthError.invalidArgument("\"\(identifier)\" is not a time zone name", field: "timeZone")
        }
        try await perform { [self] in
            try audited(.owner, .settingsSet, types: [], requestID: requestID) {
                try database.write { db in
                    try VaultSettings.setTimeZone(named: identifier, db)
                    try append(entry(.owner, .settingsSet, requestID: requestID), in: db)
                }
            }
        }
        await refreshActivitySummaries(nil)
    }
}

extension VaultEngine {
    /// The owner's view of what the vault holds (`healthvault data`): per type, how many samples,
    /// the first and last start, and each source's count. Audited as `query.summary` (no types;
    /// count: the types listed).
    public func typeSummaries(requestID: String = "") async throws -> [TypeSummary] {
        let scope: @Sendable (Connection) throws -> (ReadScope, AuditEntry.Outcome) = { _ in (.owner, .ok) }
        return try await read(.querySummary, recording: [], as: .owner, requestID: requestID, scope: scope) {
            [self] db, _ in
            let summaries = try store.typeSummaries(in: db)
            return (summaries, summaries.count)
        }
    }
}
