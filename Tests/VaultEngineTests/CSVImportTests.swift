import AuditLog
import Foundation
import HealthInterchange
import HealthModel
import Synchronization
import Testing
import VaultStore

@testable import VaultEngine

/// The engine's CSV import (docs/CSV_IMPORT.md): a file too long for one transaction is checked
/// whole, then stored batch by batch; a rerun after a stop adds only what is missing.
@Suite struct CSVImportTests {
    static func file(rows: Int, in test: TestEngine) throws -> URL {
        var text = "type,start,value,unit,source\n"
        for minute in 0..<rows {
            let start = RFC3339.string(from: Date(timeIntervalSince1970: 1_772_400_000 + Double(minute) * 60))
            text += "heartRate,\(start),\(60 + minute % 40),count/min,Strap\n"
        }
        let url = test.directory.appendingPathComponent("beats.csv")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aFileLongerThanOneTransactionIsStoredInBatchesAndAgainAddsNothing() async throws {
        let test = try TestEngine()
        let url = try Self.file(rows: 25, in: test)
        let first = try await Self.importInTens(url, test)
        #expect(first.rows == 25 && first.batches == 3 && first.total.imported == 25)
        #expect(first.bySource["Strap"]?.imported == 25)
        let imports = try test.auditEntries().filter { $0.operation == .import }
        #expect(imports.map(\.objectCount) == [10, 10, 5])
        #expect(imports.allSatisfy { $0.types == ["HKQuantityTypeIdentifierHeartRate"] })
        // One transaction when the file fits: the same file again, nothing new.
        let again = try await test.engine.importCSV(at: url)
        #expect(again.batches == 1 && again.total.alreadyPresent == 25 && again.total.imported == 0)
        #expect(try test.sampleCount() == 25)
    }

    @Test func aRowTheOwnerDeletedIsNotBroughtBack() async throws {
        let test = try TestEngine()
        let url = try Self.file(rows: 3, in: test)
        _ = try await test.engine.importCSV(at: url)
        let samples = try await test.engine.samples(
            matching: SampleQueryDescriptor(predicates: [.quantitySample(type: .heartRate)]),
            as: .owner
        )
        #expect(samples.allSatisfy { $0.sourceRevision.source.bundleIdentifier == "import:csv:Strap" })
        _ = try await test.engine.delete([try #require(samples.first).uuid], as: .owner)
        let again = try await test.engine.importCSV(at: url)
        #expect(again.total.deletedBefore == 1 && again.total.alreadyPresent == 2)
    }

    /// Imports `url` as a file too long for one transaction, in batches of 10.
    static func importInTens(
        _ url: URL,
        _ test: TestEngine,
        stopRequested: @escaping @Sendable () -> Bool = { false },
        progress: @escaping @Sendable (VaultEngine.CSVImportProgress) -> Void = { _ in }
    ) async throws -> CSVImportSummary {
        try await test.engine.importCSV(
            at: url,
            defaultSource: nil,
            batchSize: 10,
            wholeFileLimit: 10,
            requestID: "",
            stopRequested: stopRequested,
            progress: progress
        )
    }

    @Test func progressIsReportedForTheCheckThenForEachBatchStored() async throws {
        let test = try TestEngine()
        let url = try Self.file(rows: 25, in: test)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let reports = Mutex<[VaultEngine.CSVImportProgress]>([])
        _ = try await Self.importInTens(url, test, progress: { report in reports.withLock { $0.append(report) } })
        let seen = reports.withLock { $0 }
        // The check's end (nothing stored yet), then each batch stored, its reading's bytes rising
        // to the file's size.
        #expect(seen.map(\.rowsDone) == [0, 10, 20, 25], "\(seen)")
        #expect(seen.allSatisfy { $0.totalBytes == size })
        #expect(seen.first?.bytesRead == size && seen.last?.bytesRead == size)
        #expect(seen[1].bytesRead < seen[2].bytesRead && seen[2].bytesRead <= size)
    }

    @Test func theCheckReportsItsEndOnceWhenItsLastRowEndsATenThousand() async throws {
        let test = try TestEngine()
        let url = try Self.file(rows: VaultEngine.csvCheckReportRows, in: test)
        let reports = Mutex<[VaultEngine.CSVImportProgress]>([])
        _ = try await test.engine.importCSV(at: url, progress: { report in reports.withLock { $0.append(report) } })
        #expect(reports.withLock { $0.map(\.rowsDone) } == [0, VaultEngine.csvCheckReportRows])
    }

    @Test func aStopAfterABatchKeepsItAndAgainAddsTheRest() async throws {
        let test = try TestEngine()
        let url = try Self.file(rows: 25, in: test)
        let stored = Mutex(0)
        let stop = await healthError {
            _ = try await Self.importInTens(
                url,
                test,
                stopRequested: { stored.withLock { $0 } > 0 },
                progress: { report in stored.withLock { $0 = report.rowsDone } }
            )
        }
        #expect(stop?.code == .userCanceled)
        #expect(stop?.message == "the import stopped after 1 whole batch; import the file again to add the rest")
        #expect(try test.auditEntries().filter { $0.operation == .import }.map(\.objectCount) == [10])
        let again = try await test.engine.importCSV(at: url)
        #expect(again.total.imported == 15 && again.total.alreadyPresent == 10)
    }

    @Test func aStopWhileTheRowsAreCheckedStoresNothing() async throws {
        let test = try TestEngine()
        let url = try Self.file(rows: VaultEngine.csvCheckReportRows + 1, in: test)
        let stop = await healthError {
            _ = try await test.engine.importCSV(at: url, stopRequested: { true })
        }
        #expect(stop?.code == .userCanceled)
        #expect(stop?.message == "the import stopped while it checked the rows; nothing was imported")
        #expect(try test.auditEntries().filter { $0.operation == .import }.isEmpty)
    }

    @Test func aStopBeforeTheFirstBatchStoresNothing() async throws {
        let test = try TestEngine()
        let url = try Self.file(rows: 25, in: test)
        let stop = await healthError { _ = try await test.engine.importCSV(at: url, stopRequested: { true }) }
        #expect(stop?.code == .userCanceled)
        #expect(stop?.message == "the import stopped before it stored a row; nothing was imported")
        #expect(try test.auditEntries().filter { $0.operation == .import }.isEmpty)
    }
}
