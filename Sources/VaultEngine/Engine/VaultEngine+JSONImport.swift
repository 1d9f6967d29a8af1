import AuditLog
public import Foundation
public import HealthInterchange
public import HealthModel
public import VaultStore

/// The owner's import of a lossless JSON export (docs/EXPORT_JSON.md, "Importing"): a restore of
/// the owner's own data, so every sample keeps its UUID and its source, apps' bundle identifiers
/// included.
extension VaultEngine {
    /// Stores one batch of exported samples as the owner, keeping their UUIDs and sources, in one
    /// transaction with its `vault.import` entry (the types stored and how many, never a value):
    /// the door of ``importSamples(_:routes:requestID:)`` without its insistence on import
    /// sources, for a restore of the owner's own export. A sample whose UUID the vault holds or
    /// held is passed over (``SampleStore/importSamples(_:routes:in:)``), so importing an export
    /// again adds nothing and a sample the owner deleted stays deleted. Routes are stored with
    /// their locations and their workout (their first listed); every other association with a
    /// workout is kept too.
    public func restoreSamples(_ exported: [ExportedSample], requestID: String = "") async throws -> ImportSorting {
        for (index, item) in exported.enumerated() {
            try checkRestorable(item, field: "objects[\(index)]")
        }
        return try await restore(exported, requestID: requestID)
    }

    /// An exported object a query could return: a route's locations are served in batches, and
    /// anything else must fit one answer (``checkAnswerable(_:field:)``).
    func checkRestorable(_ item: ExportedSample, field: String) throws {
        if item.sample.sampleType != .workoutRoute { try checkAnswerable(item.sample, field: field) }
    }

    /// ``restoreSamples(_:requestID:)`` of objects already checked.
    func restore(_ exported: [ExportedSample], requestID: String) async throws -> ImportSorting {
        guard exported.count <= Self.maximumBatchSize else {
            throw HealthError(
                .dataSizeExceeded,
                "an import batch holds at most \(Self.maximumBatchSize) objects",
                field: "objects"
            )
        }
        var samples: [Sample] = []
        var routes: [ImportedRoute] = []
        for (index, item) in exported.enumerated() {
            if case .workoutRoute(let route) = item.sample {
                guard let locations = item.routeLocations, let workout = item.workouts.first else {
                    throw HealthError.invalidArgument(
                        "a route comes with its locations and its workout",
                        field: "objects[\(index)].workouts"
                    )
                }
                routes.append(ImportedRoute(route: route, locations: locations, workout: workout))
            } else {
                samples.append(item.sample)
            }
        }
        let all = exported.map(\.sample)
        let (ownSamples, ownRoutes) = (samples, routes)
        let associations = exported.compactMap { item -> (Sample, [UUID])? in
            let workouts = item.sample.sampleType == .workoutRoute ? Array(item.workouts.dropFirst()) : item.workouts
            return workouts.isEmpty ? nil : (item.sample, workouts)
        }
        let (sorting, changes) = try await perform { [self] () throws -> (ImportSorting, SampleChanges) in
            let attempted = Self.types(of: all).sortedIdentifiers
            return try audited(.owner, .import, types: attempted, requestID: requestID) {
                try database.write { db in
                    let before = try store.changeSequence(in: db)
                    let sorting = try store.importSamples(ownSamples, routes: ownRoutes, in: db)
                    let stored = Set(sorting.stored)
                    for (sample, workouts) in associations where stored.contains(sample.uuid) {
                        for workout in workouts {
                            try store.associate(
                                [(sample.uuid, sample.sampleType)],
                                ofSource: sample.sourceRevision.source.bundleIdentifier,
                                withWorkout: workout,
                                storedAfter: before,
                                in: db
                            )
                        }
                    }
                    let changes = try recordImport(sorting, after: before, requestID: requestID, in: db)
                    return (sorting, changes)
                }
            }
        }
        await notifyObservers(changes)
        return sorting
    }

    /// Imports the JSON export in `directory` as the owner: its samples in batches of
    /// `batchSize` (each a transaction with its `vault.import` entry; a batch also ends at
    /// ``maximumBatchLocations`` route locations and series points), each keeping its UUID, source, device and
    /// metadata; then the characteristics and settings the vault does not hold yet (your current
    /// ones win). Importing it again adds nothing. A problem in a file is an `invalidArgument`
    /// naming the file and line; the batches before it stay stored. `progress` is called after
    /// each batch with the samples read so far.
    public func importJSONExport(
        at directory: URL,
        batchSize: Int = 10_000,
        requestID: String = "",
        stopRequested: @escaping @Sendable () -> Bool = { false },
        progress: @escaping @Sendable (_ samplesRead: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> JSONImportSummary {
        guard (1...Self.maximumBatchSize).contains(batchSize) else {
            throw HealthError.invalidArgument("a batch holds 1 to \(Self.maximumBatchSize) samples", field: "batchSize")
        }
        let reader = try JSONExportReader(directory: directory)
        let total = reader.manifest.sampleCount
        var summary = JSONImportSummary()
        var batch: [ExportedSample] = []
        var points = 0
        // One batch is stored while the next is read (reading on one core, storing on the
        // other); batches commit in order, one at a time.
        var inFlight: (task: Task<ImportSorting, any Error>, types: [UUID: String], read: Int)?
        func settle() async throws {
            guard let (task, types, read) = inFlight else { return }
            inFlight = nil
            let sorting = try await task.value
            summary.batches += 1
            func tally(_ uuids: [UUID], _ field: WritableKeyPath<JSONImportSummary.Counts, Int>) {
                for uuid in uuids {
                    if let type = types[uuid] { summary.byType[type, default: .init()][keyPath: field] += 1 }
                }
            }
            tally(sorting.stored, \.imported)
            tally(sorting.alreadyPresent, \.alreadyPresent)
            tally(sorting.deletedBefore, \.deletedBefore)
            tally(sorting.repeated, \.repeated)
            progress(read, total)
        }
        func store() async throws {
            try await settle()
            guard !batch.isEmpty else { return }
            if stopRequested() {
                throw HealthError(
                    .userCanceled,
                    "the import stopped after \(summary.batches) whole batches; import the export again to add the rest"
                )
            }
            let items = batch
            let types = Dictionary(items.map { ($0.sample.uuid, $0.sample.sampleType.identifier) }) { first, _ in first
            }
            inFlight = (
                Task { [self] in try await restore(items, requestID: requestID) }, types, summary.samples
            )
            batch.removeAll(keepingCapacity: true)
            points = 0
        }
        do {
            while let item = try reader.next() {
                // Checked here, once, to be named by its line as any other problem in the file is.
                do {
                    try checkRestorable(item, field: "")
                } catch let error as HealthError {
                    throw JSONExportReader.problem(
                        JSONExportWriter.samplesFile,
                        line: reader.line,
                        HealthError(error.code, error.message)
                    )
                }
                summary.samples += 1
                batch.append(item)
                points += Self.seriesPoints(of: item)
                if batch.count >= batchSize || points >= Self.maximumBatchLocations { try await store() }
            }
            try await store()
            try await settle()
        } catch {
            // The batch under way commits or fails before the error is told: nothing goes on after.
            _ = try? await inFlight?.task.value
            throw error
        }
        for value in try reader.characteristics()
        where try await characteristic(value.type, as: .owner, requestID: requestID) == nil {
            try await setCharacteristic(value, requestID: requestID)
            summary.characteristics += 1
        }
        if let settings = try reader.settings() {
            summary.settings = try await restoreSettings(settings, requestID: requestID)
        }
        return summary
    }

    /// The points a sample carries beside itself (route locations, voltages, beats, a series'
    /// quantities, a document's bytes by 64): a batch ends at ``maximumBatchLocations`` of them, so a run of long series
    /// stays within memory.
    static func seriesPoints(of item: ExportedSample) -> Int {
        switch item.sample {
        case .electrocardiogram(let ecg): ecg.voltageMeasurements?.count ?? 0
        case .heartbeatSeries(let series): series.heartbeats?.count ?? 0
        case .quantity(let quantity): quantity.seriesQuantities?.count ?? 0
        // A document counts as the points of as many bytes (a route location is about 64).
        case .cdaDocument(let document): (document.document?.documentData?.count ?? 0) / 64
        default: item.routeLocations?.count ?? 0
        }
    }

    /// Brings in an export's settings that the vault does not hold yet (a time zone, a type's
    /// preferred unit or source order, a goal history: the owner's current choices win), in one
    /// transaction with one `settings.set` entry naming the types concerned (none for a time
    /// zone); returns how many were restored. A setting that is not valid here (an unknown zone,
    /// a unit of another dimension) is refused naming it.
    func restoreSettings(_ settings: ExportedSettings, requestID: String) async throws -> Int {
        if let zone = settings.timeZone, TimeZone(identifier: zone) == nil {
            throw HealthError.invalidArgument("\(JSONExportWriter.settingsFile): not a time zone", field: "timeZone")
        }
        var units: [(QuantityTypeIdentifier, HealthUnit)] = []
        for (identifier, text) in settings.preferredUnits.sorted(by: { $0.key < $1.key }) {
            guard let type = QuantityTypeIdentifier(rawValue: identifier), let unit = try? HealthUnit(from: text),
                unit.isCompatible(with: type.canonicalUnit)
            else {
                throw HealthError.invalidArgument(
                    "\(JSONExportWriter.settingsFile): a preferred unit that does not fit its type",
                    field: "preferredUnits.\(identifier)"
                )
            }
            units.append((type, unit))
        }
        var priorities: [(QuantityTypeIdentifier, [String])] = []
        for (identifier, sources) in settings.sourcePriorities.sorted(by: { $0.key < $1.key }) {
            guard let type = QuantityTypeIdentifier(rawValue: identifier), Set(sources).count == sources.count else {
                throw HealthError.invalidArgument(
                    "\(JSONExportWriter.settingsFile): a source order of an unknown type, or listing a source twice",
                    field: "sourcePriorities.\(identifier)"
                )
            }
            priorities.append((type, sources))
        }
        for (index, change) in settings.activityGoals.enumerated() {
            do {
                try change.goals.validate()
            } catch {
                throw HealthError.invalidArgument(
                    "\(JSONExportWriter.settingsFile): \(error.message)",
                    field: "activityGoals[\(index)]"
                )
            }
        }
        let (newUnits, newPriorities) = (units, priorities)
        let restored = try await perform { [self] () throws -> (Int, Bool) in
            try audited(.owner, .settingsSet, types: [], requestID: requestID) {
                try database.write { db -> (Int, Bool) in
                    var count = 0
                    var types: [String] = []
                    var goals = false
                    if let zone = settings.timeZone, try VaultSettings.value("timeZone", db) == nil {
                        try VaultSettings.setTimeZone(named: zone, db)
                        count += 1
                    }
                    let chosen = try VaultSettings.values(prefixed: Self.preferredUnitPrefix, db)
                    for (type, unit) in newUnits where chosen[type.rawValue] == nil {
                        try VaultSettings.setValue(unit.description, for: Self.preferredUnitPrefix + type.rawValue, db)
                        types.append(SampleType.quantity(type).identifier)
                        count += 1
                    }
                    let ordered = try store.sourcePriorities(in: db)
                    for (type, sources) in newPriorities where ordered[type] == nil && !sources.isEmpty {
                        try store.setSourcePriority(sources, for: type, in: db)
                        types.append(SampleType.quantity(type).identifier)
                        count += 1
                    }
                    if !settings.activityGoals.isEmpty, try VaultSettings.value("activityGoals", db) == nil {
                        let history = settings.activityGoals.map {
                            GoalChange(
                                since: $0.since.timeIntervalSinceReferenceDate,
                                goals: $0.goals,
                                imported: $0.imported
                            )
                        }
                        try VaultSettings.setValue(
                            String(decoding: try JSONEncoder().encode(history), as: UTF8.self),
                            for: "activityGoals",
                            db
                        )
                        types.append(ObjectType.activitySummaryTypeIdentifier)
                        goals = true
                        count += 1
                    }
                    if count > 0 {
                        try append(
                            entry(.owner, .settingsSet, types: Set(types).sortedIdentifiers, requestID: requestID),
                            in: db
                        )
                    }
                    return (count, goals || settings.timeZone != nil)
                }
            }
        }
        // Summaries count days in the zone with the goals: both may have changed.
        if restored.0 > 0 && restored.1 { await refreshActivitySummaries(nil) }
        return restored.0
    }
}
