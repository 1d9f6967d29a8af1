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
    /// batches of `batchSize`, each its own transaction, one stored while the next is read (a
    /// crash between two leaves the earlier batches stored, and importing the file again stores
    /// the rest).
    ///
    /// `progress` gets how far the current reading of the file is (bytes, and the file's size)
    /// and the rows done so far (stored, or passed over as already there, deleted before or
    /// repeated): every 10,000 rows of the check and at its end when no row is bad (none done
    /// yet), then after each batch stored. `stopRequested` is asked every 10,000 rows of the
    /// check and before each batch is stored: when it says so, the import stops (`userCanceled`),
    /// with nothing stored during the check or before the first batch, else with the batches
    /// stored so far kept.
    public func importCSV(
        at url: URL,
        defaultSource: String? = nil,
        batchSize: Int = 10_000,
        requestID: String = "",
        stopRequested: @escaping @Sendable () -> Bool = { false },
        progress: @escaping @Sendable (CSVImportProgress) -> Void = { _ in }
    ) async throws -> CSVImportSummary {
        try await importCSV(
            at: url,
            defaultSource: defaultSource,
            batchSize: batchSize,
            wholeFileLimit: Self.maximumBatchSize,
            requestID: requestID,
            stopRequested: stopRequested,
            progress: progress
        )
    }

    /// How far a CSV import is (``importCSV(at:defaultSource:batchSize:requestID:stopRequested:progress:)``).
    public struct CSVImportProgress: Hashable, Sendable {
        /// How far the current reading of the file is, in bytes: the check, then (for a file
        /// stored in batches) the reading that stores it, from 0 again.
        public var bytesRead: Int
        /// The file's size when it was opened.
        public var totalBytes: Int?
        /// The rows done so far: stored, or passed over as already there, deleted before or
        /// repeated (0 while the rows are checked).
        public var rowsDone: Int
    }

    /// How many rows of the check pass between two progress reports and stop checks.
    static let csvCheckReportRows = 10_000

    /// ``importCSV(at:defaultSource:batchSize:requestID:stopRequested:progress:)`` storing a file
    /// of at most `wholeFileLimit` rows in one transaction (tests make it small).
    func importCSV(
        at url: URL,
        defaultSource: String?,
        batchSize: Int,
        wholeFileLimit: Int,
        requestID: String,
        stopRequested: @escaping @Sendable () -> Bool = { false },
        progress: @escaping @Sendable (CSVImportProgress) -> Void = { _ in }
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
        var records = 0
        var reported: Int?
        while let next = reader.next() {
            records += 1
            if records % Self.csvCheckReportRows == 0 {
                if stopRequested() {
                    throw HealthError(
                        .userCanceled,
                        "the import stopped while it checked the rows; nothing was imported"
                    )
                }
                reported = reader.bytesRead
                progress(CSVImportProgress(bytesRead: reader.bytesRead, totalBytes: reader.totalBytes, rowsDone: 0))
            }
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
        // The check's end, for a file without bad rows (unless the last report was already there).
        if reported != reader.bytesRead {
            progress(CSVImportProgress(bytesRead: reader.bytesRead, totalBytes: reader.totalBytes, rowsDone: 0))
        }

        var summary = CSVImportSummary()
        summary.rows = count
        var stored = 0
        // The size of the file as the reading under way opened it.
        var readingTotal = reader.totalBytes
        // One batch is stored while the next is read and converted; batches commit in order, one
        // at a time.
        var inFlight: (task: Task<ImportSorting, any Error>, rows: [UUID: CSVSampleReader.Row], bytes: Int, count: Int)?
        func settle() async throws {
            guard let (task, byUUID, bytes, rowCount) = inFlight else { return }
            inFlight = nil
            let sorting = try await task.value
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
            stored += rowCount
            progress(CSVImportProgress(bytesRead: bytes, totalBytes: readingTotal, rowsDone: stored))
        }
        func store(_ batch: [CSVSampleReader.Row], bytes: Int) async throws {
            var samples: [Sample] = []
            var byUUID: [UUID: CSVSampleReader.Row] = [:]
            samples.reserveCapacity(batch.count)
            for row in batch {
                let sample = try csvSample(row)
                byUUID[sample.uuid] = byUUID[sample.uuid] ?? row
                samples.append(sample)
            }
            try await settle()
            guard !samples.isEmpty else { return }
            if stopRequested() {
                guard summary.batches > 0 else {
                    throw HealthError(.userCanceled, "the import stopped before it stored a row; nothing was imported")
                }
                throw HealthError(
                    .userCanceled,
                    "the import stopped after \(summary.batches) whole batch\(summary.batches == 1 ? "" : "es"); "
                        + "import the file again to add the rest"
                )
            }
            inFlight = (
                Task { [self] in try await importSamples(samples, requestID: requestID) }, byUUID, bytes, batch.count
            )
        }
        do {
            if let kept {
                try await store(kept, bytes: reader.bytesRead)
                try await settle()
                return summary
            }
            // Too long for one transaction: read again, and store batch by batch.
            let again = try rows()
            readingTotal = again.totalBytes
            var batch: [CSVSampleReader.Row] = []
            while let next = again.next() {
                guard case .success(let row) = next else {
                    try await settle()
                    throw HealthError.invalidArgument(
                        "\(url.lastPathComponent) changed while it was imported; \(summary.batches) "
                            + (summary.batches == 1 ? "batch was" : "batches were") + " stored, import it again",
                        field: "path"
                    )
                }
                batch.append(row)
                if batch.count == batchSize {
                    try await store(batch, bytes: again.bytesRead)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try await store(batch, bytes: again.bytesRead)
            try await settle()
            return summary
        } catch {
            // The batch under way commits or fails before the error is told: what was stored
            // is what the error says.
            if let (task, _, _, _) = inFlight { _ = try? await task.value }
            throw error
        }
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
