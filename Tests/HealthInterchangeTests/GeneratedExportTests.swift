import AppleHealthExportGenerator
import Foundation
import HealthInterchange
import HealthModel
import Testing

@Suite struct GeneratedExportTests {
    @Test func countsPerTypeEqualTheCountsWritten() throws {
        let (bytes, written) = ExportGenerator(days: 4).bytes()
        let result = read(bytes: bytes)
        #expect(result.error == nil)
        #expect(result.diagnostics.records == written.records)
        #expect(result.records.count + result.skipped.count == written.recordCount)
        #expect(result.skipped.isEmpty, "\(result.skipped.prefix(3))")
        #expect(result.diagnostics.correlations == written.correlations)
        #expect(result.diagnostics.workouts == written.workouts)
        #expect(result.diagnostics.activitySummaries == written.activitySummaries)
        #expect(result.diagnostics.completeItems == written.topLevelElements)
        #expect(result.diagnostics.correlationMembers == written.correlationMembers)
        #expect(result.diagnostics.conversionNotes.isEmpty, "\(result.diagnostics.conversionNotes)")
        #expect(result.workouts.flatMap { $0.routes.flatMap(\.fileReferences) } == written.routes.map(\.path))
        #expect(result.diagnostics.unresolvedBeatTimes == 0)
        #expect(
            result.me?.characteristics() == [
                .dateOfBirth(try DateOfBirth(year: 1984, month: 2, day: 29)), .biologicalSex(.female),
            ]
        )
    }

    @Test func everyGeneratedItemConvertsToHealthModel() throws {
        let (bytes, _) = ExportGenerator(days: 2).bytes()
        let result = read(bytes: bytes, options: .init(validates: false))
        for record in result.records {
            _ = try record.sample(uuid: UUID(), source: importSource)
        }
        for correlation in result.correlations {
            let sample = try correlation.sample(
                uuid: UUID(),
                memberUUIDs: correlation.records.map { _ in UUID() },
                source: importSource
            )
            #expect(sample.sampleType == .correlation(.bloodPressure))
        }
        for workout in result.workouts {
            guard case .workout(let run) = try workout.sample(uuid: UUID(), source: importSource) else { continue }
            #expect(run.workoutEvents.count == 3)
            #expect(run.allStatistics.count == 3)
            #expect(run.totalDistance != nil)
        }
        for summary in result.summaries {
            _ = try summary.activitySummary()
        }
    }

    @Test func anExportAcrossADaylightSavingChangeReadsBothOffsetsAsInstants() throws {
        // 2022-11-06: Los Angeles goes back from -0700 to -0800 at 02:00, so 01:00-02:00 comes twice.
        let (bytes, written) = ExportGenerator(firstDay: "2022-11-05", days: 2).bytes()
        let result = read(bytes: bytes)
        #expect(result.error == nil)
        #expect(result.skipped.isEmpty)
        #expect(result.records.count == written.recordCount)
        let repeatedHour = result.records.filter {
            $0.type == "HKQuantityTypeIdentifierHeartRate" && $0.startDate.hasPrefix("2022-11-06 01:")
        }
        #expect(repeatedHour.count == 24)
        #expect(Set(repeatedHour.map { String($0.startDate.suffix(5)) }) == ["-0700", "-0800"])
        let instants = try repeatedHour.map { try #require(AppleHealthDate(parsing: $0.startDate)).date }
        #expect(zip(instants, instants.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 300 })
    }

    @Test func readingAHundredThousandRecordsStaysWithinTheReadersWindow() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: url) }
        let written = try ExportGenerator(days: 66, seed: 7).write(to: url)
        #expect(written.recordCount >= 100_000)
        let chunk = 64 * 1024
        let reader = try AppleHealthReader(contentsOf: url, options: .init(chunkSize: chunk))
        var records = 0
        while let item = try reader.next() {
            if case .record = item { records += 1 }
        }
        #expect(records == written.recordCount)
        let diagnostics = reader.diagnostics
        // The window never grew past two chunks, for a file hundreds of times larger.
        #expect(diagnostics.peakBufferBytes == 2 * chunk)
        #expect(written.bytes > 200 * diagnostics.peakBufferBytes)
        #expect(diagnostics.largestItemChildren < 100)
        #expect(reader.progress.bytesRead == written.bytes)
    }

    @Test func tagsAcrossChunkBoundariesReadAsInOneChunk() throws {
        let (bytes, _) = ExportGenerator(days: 1).bytes()
        let whole = read(bytes: bytes)
        for chunk in [64, 100, 4096] {
            let pieces = read(bytes: bytes, options: .init(chunkSize: chunk))
            #expect(pieces.error == nil)
            #expect(pieces.records.map(\.identity) == whole.records.map(\.identity))
            #expect(pieces.records.map(\.metadata) == whole.records.map(\.metadata))
            #expect(pieces.diagnostics.records == whole.diagnostics.records)
        }
    }

    @Test func anExportFileIsReadFromDisk() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: url) }
        let written = try ExportGenerator(days: 2).write(to: url)
        let reader = try AppleHealthReader(contentsOf: url)
        var records = 0
        while let item = try reader.next() {
            if case .record = item { records += 1 }
        }
        #expect(records == written.recordCount)
        #expect(reader.progress.totalBytes == written.bytes)
        #expect(throws: AppleHealthReadError.self) {
            try AppleHealthReader(contentsOf: url.appendingPathExtension("missing"))
        }
    }
}
