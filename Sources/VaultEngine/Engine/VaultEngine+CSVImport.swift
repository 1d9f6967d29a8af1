public import Foundation
public import HealthInterchange
import HealthModel
import VaultStore

/// The owner's import of a CSV file of samples (docs/CSV_IMPORT.md).
extension VaultEngine {
    /// The most problems a refused CSV import lists; it counts the rest.
    public static let maximumCSVProblems = 100

    /// Imports a CSV file (docs/CSV_IMPORT.md) as the owner: every row read and checked first;
    /// when any is bad, nothing is stored and the error lists each bad row by line and column
    /// (up to ``maximumCSVProblems``, and how many more). Then the rows are stored through
    /// ``importSamples(_:requestID:)``, each under source `import:csv:<source>` (the row's
    /// `source`, else `defaultSource`, else the file's name) and this vault's content UUID of
    /// the row, so importing the same file again adds nothing: in one transaction for a file of
    /// at most ``maximumBatchSize`` rows; a longer file is read a second time and stored in
    /// batches of `batchSize`, each its own transaction (a crash between two leaves the earlier
    /// batches stored, and importing the file again stores the rest).
    public func importCSV(
        at url: URL,
        defaultSource: String? = nil,
        batchSize: Int = 10_000,
        requestID: String = ""
    ) async throws -> CSVImportSummary {
        try await importCSV(
            at: url,
            defaultSource: defaultSource,
            batchSize: batchSize,
            wholeFileLimit: Self.maximumBatchSize,
            requestID: requestID
        )
    }

    /// ``importCSV(at:defaultSource:batchSize:requestID:)`` storing a file of at most
    /// `wholeFileLimit` rows in one transaction (tests make it small).
    func importCSV(
        at url: URL,
        defaultSource: String?,
        batchSize: Int,
        wholeFileLimit: Int,
        requestID: String
    ) async throws -> CSVImportSummary {
        guard (1...Self.maximumBatchSize).contains(batchSize), (1...Self.maximumBatchSize).contains(wholeFileLimit)
        else {
            throw HealthError.invalidArgument("a batch holds 1 to \(Self.maximumBatchSize) rows", field: "batchSize")
        }
        let source = defaultSource.flatMap { $0.isEmpty ? nil : $0 } ?? url.lastPathComponent
        func rows() throws -> CSVSampleReader {
            CSVSampleReader(try CSVReader(contentsOf: url), defaultSource: source)
        }
        // Every row checked before anything is stored; the rows kept while they fit one batch.
        var problems: [CSVProblem] = []
        var problemCount = 0
        var kept: [CSVSampleReader.Row]? = []
        var count = 0
        let reader = try rows()
        while let next = reader.next() {
            switch next {
            case .success(let row):
                count += 1
                kept?.append(row)
                if count > wholeFileLimit { kept = nil }
            case .failure(let problem):
                problemCount += 1
                if problems.count < Self.maximumCSVProblems { problems.append(problem) }
            }
        }
        guard problemCount == 0 else {
            var lines = [
                "\(url.lastPathComponent): \(problemCount) bad row\(problemCount == 1 ? "" : "s"); nothing was imported"
            ]
            lines += problems.map(\.description)
            if problemCount > problems.count { lines.append("and \(problemCount - problems.count) more") }
            throw HealthError.invalidArgument(lines.joined(separator: "\n"), field: "path")
        }

        var summary = CSVImportSummary()
        summary.rows = count
        func store(_ batch: [CSVSampleReader.Row]) async throws {
            guard !batch.isEmpty else { return }
            var samples: [Sample] = []
            var byUUID: [UUID: CSVSampleReader.Row] = [:]
            samples.reserveCapacity(batch.count)
            for row in batch {
                let sample = try csvSample(row)
                byUUID[sample.uuid] = byUUID[sample.uuid] ?? row
                samples.append(sample)
            }
            let sorting = try await importSamples(samples, requestID: requestID)
            summary.batches += 1
            func tally(_ uuids: [UUID], _ field: WritableKeyPath<CSVImportSummary.Counts, Int>) {
                for uuid in uuids {
                    guard let row = byUUID[uuid] else { continue }
                    summary.byType[row.entry.type.identifier, default: .init()][keyPath: field] += 1
                    summary.bySource[row.source, default: .init()][keyPath: field] += 1
                }
            }
            tally(sorting.stored, \.imported)
            tally(sorting.alreadyPresent, \.alreadyPresent)
            tally(sorting.deletedBefore, \.deletedBefore)
            tally(sorting.repeated, \.repeated)
        }
        if let kept {
            try await store(kept)
            return summary
        }
        // Too long for one transaction: read again, and store batch by batch.
        let again = try rows()
        var batch: [CSVSampleReader.Row] = []
        while let next = again.next() {
            guard case .success(let row) = next else {
                throw HealthError.invalidArgument(
                    "\(url.lastPathComponent) changed while it was imported; \(summary.batches) batches were stored, import it again",
                    field: "path"
                )
            }
            batch.append(row)
            if batch.count == batchSize {
                try await store(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try await store(batch)
        return summary
    }

    /// A row as a sample: under `import:csv:<source>`, named by the vault's content UUID of the
    /// row (a blood pressure's members by theirs).
    func csvSample(_ row: CSVSampleReader.Row) throws -> Sample {
        var uuids = [try importUUID(for: row.entry.identity(source: row.source))]
        if row.entry.uuidCount == 3 {
            uuids.append(try importUUID(for: row.entry.identity(source: row.source, member: "systolic")))
            uuids.append(try importUUID(for: row.entry.identity(source: row.source, member: "diastolic")))
        }
        return try row.entry.sample(uuids: uuids, source: Self.importSource(origin: "csv", name: row.source))
    }
}
