import AuditLog
public import Foundation
public import HealthInterchange
public import HealthModel
import VaultStore

/// The owner's export (docs/EXPORT_JSON.md): the whole view of the vault, or the samples a filter
/// takes, read in one snapshot and handed to a format's writer one sample at a time.
extension VaultEngine {
    /// How many top-level samples one read of an export takes (by row, keyset order).
    public static let exportBatchSize = 1_000

    /// Exports what `filter` takes to `writer` as the owner, in one read snapshot: the samples in
    /// batches of ``exportBatchSize`` (by row id), each whole with its series, one at a time to
    /// the writer, so memory holds one batch whatever the vault's size; then, for an export of
    /// every type and source, the characteristics and the owner's settings; then the manifest.
    ///
    /// Audited as `vault.export` before any sample leaves the vault: the types exported and how
    /// many objects (samples and characteristics), never a value. `progress` is called after each
    /// batch with the samples written and the total; when `stopRequested` says so (the owner's
    /// connection ended), the export stops with `userCanceled` and the directory is left without
    /// its manifest.
    public func export(
        _ filter: ExportFilter,
        to writer: any ExportWriter,
        requestID: String = "",
        stopRequested: @escaping @Sendable () -> Bool = { false },
        progress: @escaping @Sendable (_ written: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> ExportManifest {
        try filter.validate()
        let box = UncheckedBox(writer)
        let named = (filter.types ?? []).sortedIdentifiers
        return try await perform { [self] in
            try audited(.owner, .export, types: named, requestID: requestID) {
                try database.read { db in
                    try export(
                        filter,
                        to: box.value,
                        in: db,
                        requestID: requestID,
                        stop: stopRequested,
                        progress: progress
                    )
                }
            }
        }
    }

    private func export(
        _ filter: ExportFilter,
        to writer: any ExportWriter,
        in db: Connection,
        requestID: String,
        stop: () -> Bool,
        progress: (Int, Int) -> Void
    ) throws -> ExportManifest {
        let selection = SampleSelection(types: filter.types, from: filter.from, to: filter.to, sources: filter.sources)
        let counts = try store.exportCounts(selection, in: db)
        let total = counts.values.reduce(0, +)
        var characteristics: [CharacteristicValue] = []
        var settings: ExportedSettings?
        if filter.takesEveryTypeAndSource {
            characteristics = try CharacteristicTypeIdentifier.allCases.compactMap {
                try store.characteristic($0, in: db)
            }
            settings = try Self.exportedSettings(store, db)
        }
        // Durable before anything leaves the vault.
        try record(
            entry(
                .owner,
                .export,
                types: (Array(counts.keys) + characteristics.map(\.type.rawValue)).sortedIdentifiers,
                count: total + characteristics.count,
                requestID: requestID
            )
        )
        var last: Int64 = 0
        var written = 0
        var locations = 0
        // The writer formats and writes a batch on a thread of its own while the next is read
        // (reading is about half an export's time, formatting the other half); at most two
        // batches wait for it, so memory stays that of a few batches.
        let pipeline = ExportPipeline(writer)
        defer { pipeline.finish() }
        while true {
            if stop() {
                throw HealthError(.userCanceled, "the export stopped after \(written) samples; it has no manifest")
            }
            try pipeline.check()
            let batch = try store.exportBatch(after: last, limit: Self.exportBatchSize, selection, in: db)
            guard let end = batch.last?.id else { break }
            var samples: [ExportedSample] = []
            samples.reserveCapacity(batch.count)
            for stored in batch {
                let whole = try store.withSeries(stored, in: db)
                locations += whole.routeLocations?.count ?? 0
                samples.append(
                    ExportedSample(sample: whole.sample, routeLocations: whole.routeLocations, workouts: whole.workouts)
                )
            }
            pipeline.write(samples)
            last = end
            written += batch.count
            progress(written, total)
        }
        pipeline.finish()
        try pipeline.check()
        guard written == total else {
            throw StoreError.damagedDatabase("the export read \(written) samples of the \(total) it counted")
        }
        if let settings { try writer.write(characteristics: characteristics, settings: settings) }
        let manifest = ExportManifest(
            vault: vault.vaultID,
            createdAt: Date(),
            filters: filter,
            samples: counts,
            routeLocations: locations,
            characteristics: characteristics.count,
            settings: settings != nil,
            files: writer.files
        )
        try writer.finish(manifest)
        return manifest
    }

    /// What a spreadsheet export shows values in: the owner's time zone and the units the owner
    /// chose (a type without a chosen unit is left to the writer's default).
    public func exportContext() async throws -> ExportContext {
        try await perform { [self] in
            try database.read { db in
                var units: [QuantityTypeIdentifier: HealthUnit] = [:]
                for (identifier, unit) in try VaultSettings.values(prefixed: Self.preferredUnitPrefix, db) {
                    if let type = QuantityTypeIdentifier(rawValue: identifier), let parsed = try? HealthUnit(from: unit)
                    {
                        units[type] = parsed
                    }
                }
                return ExportContext(timeZone: try VaultSettings.timeZone(db), preferredUnits: units)
            }
        }
    }

    /// The owner's settings as the store keeps them: only what the owner set (a time zone never
    /// set is absent, not the machine's).
    static func exportedSettings(_ store: SampleStore, _ db: Connection) throws -> ExportedSettings {
        ExportedSettings(
            timeZone: try VaultSettings.value("timeZone", db),
            preferredUnits: try VaultSettings.values(prefixed: preferredUnitPrefix, db),
            sourcePriorities: Dictionary(
                uniqueKeysWithValues: try store.sourcePriorities(in: db).map { ($0.key.rawValue, $0.value) }
            ),
            activityGoals: try goalHistory(db).map {
                ExportedSettings.GoalChange(
                    since: Date(timeIntervalSinceReferenceDate: $0.since),
                    goals: $0.goals,
                    imported: $0.imported
                )
            }
        )
    }
}

/// A value handed to the engine's threads that only one of them touches at a time.
/// An export's writer on a serial queue of its own: batches handed over in order, at most two
/// waiting (the reader waits when more would), the first error kept and told by ``check()``.
final class ExportPipeline: @unchecked Sendable {
    private let writer: any ExportWriter
    private let queue = DispatchQueue(label: "healthvault.export.writer")
    private let slots = DispatchSemaphore(value: 2)
    private let lock = NSLock()
    private var failure: (any Error)?
    private var finished = false

    init(_ writer: any ExportWriter) {
        self.writer = writer
    }

    func write(_ samples: [ExportedSample]) {
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard lock.withLock({ failure == nil }) else { return }
            do {
                for sample in samples { try writer.write(sample) }
            } catch {
                lock.withLock { failure = failure ?? error }
            }
        }
    }

    /// Throws the writer's first error, if any.
    func check() throws {
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    /// Waits until every batch handed over is written (or passed over after an error).
    func finish() {
        guard !finished else { return }
        finished = true
        queue.sync {}
    }
}

final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
