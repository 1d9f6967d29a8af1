public import Foundation
public import HealthInterchange
public import HealthModel
import VaultStore

extension VaultEngine {
    /// Imports an Apple Health `export.xml` into the vault as the owner (docs/APPLE_HEALTH_IMPORT.md):
    /// read as a stream, stored in batches of `batchSize` (each a transaction with its
    /// `vault.import` entry), every record under its source's import identity and this vault's
    /// content UUID, so importing the same file again adds nothing and a newer export adds only
    /// what is new. A file cut short is refused before anything is stored, saying where it stops,
    /// unless `acceptTruncated` (then what precedes the cut is imported and the summary says
    /// where it stopped). `progress` is called after each batch with the reader's progress.
    public func importAppleHealth(
        at url: URL,
        acceptTruncated: Bool = false,
        batchSize: Int = 10_000,
        requestID: String = "",
        progress: @Sendable (AppleHealthReader.Progress) -> Void = { _ in }
    ) async throws -> AppleHealthImportSummary {
        guard (1...Self.maximumBatchSize).contains(batchSize) else {
            throw HealthError.invalidArgument("a batch holds 1 to \(Self.maximumBatchSize) records", field: "batchSize")
        }
        if !acceptTruncated, let cut = try Self.truncation(of: url) { throw cut }
        var summary = AppleHealthImportSummary()
        let reader = try AppleHealthReader(contentsOf: url)
        var batch: [(sample: Sample, source: String)] = []

        // One batch is stored while the next is read: reading and converting on one core,
        // storing on the other. Batches commit in order, one at a time.
        var inFlight: (task: Task<ImportSorting, any Error>, items: [(sample: Sample, source: String)])?
        func settle() async throws {
            guard let (task, items) = inFlight else { return }
            inFlight = nil
            let sorting = try await task.value
            summary.batches += 1
            let byUUID = Dictionary(items.map { ($0.sample.uuid, $0) }, uniquingKeysWith: { first, _ in first })
            func tally(_ uuids: [UUID], _ field: WritableKeyPath<AppleHealthImportSummary.Counts, Int>) {
                for uuid in uuids {
                    guard let item = byUUID[uuid] else { continue }
                    summary.byType[item.sample.sampleType.identifier, default: .init()][keyPath: field] += 1
                    summary.bySource[item.source, default: .init()][keyPath: field] += 1
                }
            }
            tally(sorting.stored, \.imported)
            tally(sorting.alreadyPresent, \.alreadyPresent)
            tally(sorting.deletedBefore, \.deletedBefore)
            tally(sorting.repeated, \.repeated)
            progress(reader.progress)
        }
        func store(_ items: [(sample: Sample, source: String)]) async throws {
            try await settle()
            guard !items.isEmpty else { return }
            let samples = items.map(\.sample)
            inFlight = (Task { [self] in try await importSamples(samples, requestID: requestID) }, items)
        }
        func add(_ sample: Sample, source: String) async throws {
            batch.append((sample, source))
            if batch.count >= batchSize {
                try await store(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        func skip(_ type: String, _ source: String?, _ reason: String) {
            summary.byType[type, default: .init()].skipped += 1
            if let source { summary.bySource[source, default: .init()].skipped += 1 }
            summary.skipped["\(type): \(reason)", default: 0] += 1
        }
        func source(_ name: String) -> Source { Self.importSource(origin: "apple-health", name: name) }

        do {
            while let item = try reader.next() {
                switch item {
                case .record(let record):
                    do {
                        let uuid = try importUUID(for: record.identity.bytes)
                        let sample = try record.sample(uuid: uuid, source: source(record.sourceName))
                        try await add(sample, source: record.sourceName)
                    } catch let error as HealthError {
                        skip(record.type, record.sourceName, error.message)
                    }
                case .correlation(let correlation):
                    do {
                        let members = try correlation.records.map { try importUUID(for: $0.identity.bytes) }
                        let sample = try correlation.sample(
                            uuid: try importUUID(for: correlation.identity.bytes),
                            memberUUIDs: members,
                            source: source(correlation.sourceName)
                        )
                        try await add(sample, source: correlation.sourceName)
                    } catch let error as HealthError {
                        skip(correlation.type, correlation.sourceName, error.message)
                    }
                case .workout(let workout):
                    do {
                        let sample = try workout.sample(
                            uuid: try importUUID(for: workout.identity.bytes),
                            source: source(workout.sourceName)
                        )
                        try await add(sample, source: workout.sourceName)
                    } catch let error as HealthError {
                        skip(ObjectType.workoutTypeIdentifier, workout.sourceName, error.message)
                    }
                case .activitySummary:
                    summary.activitySummaries += 1
                case .me(let me):
                    // Only what the vault does not hold yet: a re-import never undoes the owner's
                    // own correction of a characteristic.
                    for value in me.characteristics()
                    where try await characteristic(value.type, as: .owner, requestID: requestID) == nil {
                        try await setCharacteristic(value, requestID: requestID)
                        summary.characteristics += 1
                    }
                case .unsupported(let unsupported):
                    summary.unsupported[
                        [unsupported.element, unsupported.type].compactMap { $0 }.joined(separator: " "),
                        default: 0
                    ] +=
                        unsupported.count
                case .skipped(let skipped):
                    skip(skipped.type ?? skipped.element, nil, skipped.reason.message)
                }
            }
        } catch let error as AppleHealthReadError where error.code == .truncated && acceptTruncated {
            summary.truncated = .init(
                byteOffset: error.byteOffset,
                line: error.line,
                completeItems: error.completeItems
            )
        }
        try await store(batch)
        try await settle()
        let diagnostics = reader.diagnostics
        summary.removedCharacters = diagnostics.forbiddenCharactersRemoved
        summary.doctypeIrregularities = diagnostics.doctypeIrregularities
        return summary
    }

    /// The truncation error of a file cut short, found by reading it through without storing
    /// (only when its end lacks `</HealthData>`, so a whole file is read once); nil for a whole
    /// file.
    static func truncation(of url: URL) throws -> AppleHealthReadError? {
        guard !hasEndTag(url) else { return nil }
        let reader = try AppleHealthReader(contentsOf: url, options: .init(validates: false))
        while true {
            let next = Result { () throws(AppleHealthReadError) -> AppleHealthItem? in try reader.next() }
            switch next {
            case .success(nil): return nil
            case .success: continue
            case .failure(let error): return error.code == .truncated ? error : nil
            }
        }
    }

    /// Whether the file's last 64 KiB hold `</HealthData>`.
    private static func hasEndTag(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return true }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > 65_536 ? size - 65_536 : 0)
        let tail = (try? handle.readToEnd()) ?? Data()
        try? handle.close()
        return tail.range(of: Data("</HealthData>".utf8)) != nil
    }
}
