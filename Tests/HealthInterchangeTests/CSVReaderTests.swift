import Foundation
import HealthInterchange
import HealthModel
import Testing

/// The CSV reader (RFC 4180) and the rows of samples read from it (docs/CSV_IMPORT.md).
@Suite struct CSVReaderTests {
    static func records(_ text: String) -> [Result<CSVReader.Record, CSVProblem>] {
        let reader = CSVReader(bytes: Array(text.utf8))
        var all: [Result<CSVReader.Record, CSVProblem>] = []
        while let next = reader.next() { all.append(next) }
        return all
    }

    static func rows(_ text: String) -> [Result<CSVSampleReader.Row, CSVProblem>] {
        let reader = CSVSampleReader(CSVReader(bytes: Array(text.utf8)), defaultSource: "file.csv")
        var all: [Result<CSVSampleReader.Row, CSVProblem>] = []
        while let next = reader.next() { all.append(next) }
        return all
    }

    @Test func quotedFieldsHoldCommasQuotesAndLineBreaksAndLinesAreCountedAcrossThem() throws {
        let read = Self.records("\u{FEFF}a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",z\n\nlast,\"\"")
        let records = try read.map { try $0.get() }
        #expect(records.map(\.fields) == [["a", "b"], ["x, y", "say \"hi\""], ["two\nlines", "z"], ["last", ""]])
        #expect(records.map(\.line) == [1, 2, 3, 6])
    }

    @Test func aStrayQuoteIsAProblemAtItsRecordAndReadingGoesOn() {
        let read = Self.records("a,b\nx,y\"z\n\"q\"r,s\nok,fine\n\"open,never closed\n")
        #expect((try? read[0].get())?.fields == ["a", "b"])
        guard case .failure(let stray) = read[1], case .failure(let after) = read[2],
            case .success(let good) = read[3], case .failure(let open) = read[4]
        else {
            Issue.record("\(read)")
            return
        }
        #expect(stray.line == 2 && stray.column == 2)
        #expect(after.line == 3 && after.column == 1)
        #expect(good.fields == ["ok", "fine"] && good.line == 4)
        #expect(open.line == 5 && open.column == 1 && open.message.contains("never closed"))
        #expect(read.count == 5)
    }

    @Test func rowsBecomeEntriesAndEachBadRowIsNamedByLineAndColumnWithoutItsText() throws {
        let text = """
            Type,start,END,value,unit,source
            bodyMass,2026-03-02T08:00:00Z,,72.5,kg,"Withings, Inc."
            bloodPressure,2026-03-02 07:00:00 +0100,,120/80,mmHg,
            sleepAnalysis,2026-03-01T23:00:00Z,2026-03-02T06:30:00Z,HKCategoryValueSleepAnalysisAsleepCore,,
            bodyMass,yesterday,,72.5,kg,
            bodyMass,2026-03-02,,72.5,mmHg,
            heartbeat,2026-03-02,,1,,
            bodyMass,2026-03-02,,seventy,kg,
            bodyMass,2026-03-02,,72
            """
        let rows = Self.rows(text)
        #expect(rows.count == 8)
        let good = rows.prefix(3).compactMap { try? $0.get() }
        #expect(good.count == 3, "\(rows)")
        #expect(good[0].source == "Withings, Inc." && good[0].entry.value == .quantity(Quantity(72.5, .kilogram)))
        #expect(good[1].source == "file.csv" && good[1].entry.start == RFC3339.date(from: "2026-03-02T06:00:00Z"))
        #expect(good[2].entry.value == .category(CategoryValueSleepAnalysis.asleepCore.rawValue))
        let problems = rows.dropFirst(3).compactMap { result -> CSVProblem? in
            if case .failure(let problem) = result { return problem }
            return nil
        }
        #expect(problems.map(\.line) == [5, 6, 7, 8, 9])
        #expect(problems.map(\.column) == [2, 5, 1, 4, 5])
        #expect(problems.map(\.columnName) == ["start", "unit", "Type", "value", nil])
        #expect(problems[1].description.hasPrefix("line 6, column 5 (unit): mmHg does not measure"))
        #expect(!problems.contains { $0.message.contains("yesterday") || $0.message.contains("seventy") })
    }

    @Test func aClockTimeWithoutItsOffsetIsNoDate() {
        for date in ["2026-03-02T08:00:00", "2026-03-02 08:00:00", "03/02/2026"] {
            let rows = Self.rows("type,start,value,unit\nbodyMass,\(date),72.5,kg\n")
            guard case .failure(let problem) = rows.first else {
                Issue.record("\(date) was read as a date")
                continue
            }
            #expect(problem.column == 2 && problem.message.hasPrefix("not a date"))
        }
    }

    @Test func aHeaderWithoutARequiredColumnOrWithAnUnknownOneStopsTheReading() {
        let missing = Self.rows("type,value\nbodyMass,72\n")
        #expect(missing.count == 1)
        if case .failure(let problem) = missing.first { #expect(problem.message == "the header has no start column") }
        let unknown = Self.rows("type,start,value,colour\nbodyMass,2026-03-02,72,red\n")
        if case .failure(let problem) = unknown.first { #expect(problem.line == 1 && problem.column == 4) }
        #expect(unknown.count == 1)
    }

    @Test func theSameRowHasTheSameIdentityAndAnotherSourceAnother() throws {
        let text = "type,start,value,unit,source\nbodyMass,2026-03-02T08:00:00Z,72.5,kg,a\n"
        let first = try #require(try Self.rows(text).first?.get())
        let again = try #require(try Self.rows(text.replacingOccurrences(of: "72.5", with: "72.50")).first?.get())
        #expect(first.entry.identity(source: first.source) == again.entry.identity(source: again.source))
        #expect(first.entry.identity(source: "a") != first.entry.identity(source: "b"))
        #expect(Array(first.entry.identity(source: "a").prefix(4)) == Array("HVE1".utf8))
    }
}
