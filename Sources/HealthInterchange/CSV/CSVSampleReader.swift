import Foundation
import HealthModel

/// The rows of a CSV file of samples (docs/CSV_IMPORT.md) read as ``SampleEntry`` values, each
/// with the line it starts on and the source it names, or as the problems that keep it out.
///
/// The header row names the columns, in any order, case and surrounding spaces aside: `type`,
/// `start` and `value` are required; `end`, `unit` and `source` may be left out. A name that is
/// not one of these, or one named twice, is a problem of the header, and then no row is read.
public final class CSVSampleReader {
    /// One good row.
    public struct Row: Hashable, Sendable {
        public let line: Int
        public let entry: SampleEntry
        /// The row's source, or the reader's default when the row names none.
        public let source: String
    }

    public enum Column: String, CaseIterable, Sendable {
        case type, start, end, value, unit, source
    }

    private let reader: CSVReader
    private let defaultSource: String
    private var columns: [Column: Int] = [:]
    private var names: [String] = []
    private var headerRead = false
    private var done = false

    /// How far into the file the reader is, in bytes, and the file's size (for a progress report).
    public var bytesRead: Int { reader.bytesRead }
    public var totalBytes: Int? { reader.totalBytes }

    /// Reads `reader`'s records; a row without a source is `defaultSource`'s.
    public init(_ reader: CSVReader, defaultSource: String) {
        self.reader = reader
        self.defaultSource = defaultSource
    }

    /// The next row, a problem of the next record, or nil at the end. The header's problems come
    /// first, and after them nothing more.
    public func next() -> Result<Row, CSVProblem>? {
        guard !done else { return nil }
        if !headerRead {
            headerRead = true
            if let problem = readHeader() {
                done = true
                return .failure(problem)
            }
        }
        guard let record = reader.next() else {
            done = true
            return nil
        }
        switch record {
        case .failure(var problem):
            if let column = problem.column, names.indices.contains(column - 1) {
                problem.columnName = names[column - 1]
            }
            return .failure(problem)
        case .success(let record):
            return row(record)
        }
    }

    /// Reads the header row; the first problem with it, or nil.
    private func readHeader() -> CSVProblem? {
        guard let record = reader.next() else {
            return CSVProblem(
                line: 1,
                column: nil,
                message: "the file is empty: it needs a header row (type,start,end,value,unit,source)"
            )
        }
        let header: CSVReader.Record
        switch record {
        case .failure(let problem): return problem
        case .success(let read): header = read
        }
        names = header.fields.map { $0.trimmingWhitespace() }
        for (index, name) in names.enumerated() {
            guard let column = Column(rawValue: name.lowercased()) else {
                return CSVProblem(
                    line: header.line,
                    column: index + 1,
                    message:
                        "the header names a column HealthVault does not read (type, start, end, value, unit, source)"
                )
            }
            guard columns[column] == nil else {
                return CSVProblem(line: header.line, column: index + 1, message: "the header names \(column) twice")
            }
            columns[column] = index
        }
        for required in [Column.type, .start, .value] where columns[required] == nil {
            return CSVProblem(line: header.line, column: nil, message: "the header has no \(required) column")
        }
        return nil
    }

    private func row(_ record: CSVReader.Record) -> Result<Row, CSVProblem> {
        func problem(_ column: Column?, _ message: String) -> CSVProblem {
            let index = column.flatMap { columns[$0] }
            return CSVProblem(
                line: record.line,
                column: index.map { $0 + 1 },
                columnName: index.map { names[$0] },
                message: message
            )
        }
        guard record.fields.count == names.count else {
            let column = min(record.fields.count, names.count) + 1
            return .failure(
                CSVProblem(
                    line: record.line,
                    column: column,
                    message: "\(record.fields.count) fields where the header has \(names.count)"
                )
            )
        }
        func field(_ column: Column) -> String {
            columns[column].map { record.fields[$0].trimmingWhitespace() } ?? ""
        }
        let type = field(.type)
        let startText = field(.start)
        let endText = field(.end)
        guard !type.isEmpty else { return .failure(problem(.type, "no type")) }
        guard !startText.isEmpty else { return .failure(problem(.start, "no start date")) }
        guard let start = Self.date(startText) else { return .failure(problem(.start, Self.dateHelp)) }
        var end = start
        if !endText.isEmpty {
            guard let date = Self.date(endText) else { return .failure(problem(.end, Self.dateHelp)) }
            end = date
        }
        do {
            let entry = try SampleEntry(
                type: type,
                value: field(.value),
                unit: field(.unit),
                start: start,
                end: end
            )
            // HealthModel's checks (a value outside its type's domain), with placeholder UUIDs.
            _ = try entry.sample(
                uuids: (0..<entry.uuidCount).map {
                    UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8($0)))
                },
                source: Source(bundleIdentifier: "import:csv:check", name: "check")
            )
            let source = field(.source)
            return .success(Row(line: record.line, entry: entry, source: source.isEmpty ? defaultSource : source))
        } catch {
            let column: Column? =
                switch error.field {
                case "type": .type
                case "unit": columns[.unit] == nil ? .value : .unit
                case "end": columns[.end] == nil ? .start : .end
                default: .value
                }
            return .failure(problem(column, error.message))
        }
    }

    static let dateHelp = "not a date (2026-11-23T08:00:00Z, 2026-11-23 08:00:00 +0100, or a day: 2026-11-23)"

    /// RFC 3339 (`2026-11-23T08:00:00Z`, `2026-11-23T09:00:00.5+01:00`), Apple's export form
    /// (`2026-11-23 08:00:00 +0100`), or a day (`2026-11-23`, midnight UTC).
    static func date(_ text: String) -> Date? {
        if let date = RFC3339.date(from: text) { return date }
        if let date = AppleHealthDate(parsing: text) { return date.date }
        if text.utf8.count == 10, let date = RFC3339.date(from: text + "T00:00:00Z") { return date }
        return nil
    }
}
