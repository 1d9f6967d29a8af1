public import Foundation
public import HealthModel

/// A CSV file (RFC 4180) read record by record, streamed from the file in chunks, each record
/// with the line it starts on, so that every problem can be named by line and column.
///
/// Fields are separated by commas; a field may be quoted with `"`, inside which a comma, a line
/// break and a doubled `""` (one quote) are text. Records end with CRLF, LF or a lone CR; the
/// last may end without one. A UTF-8 byte order mark at the start is skipped; blank lines are
/// skipped. A malformed record (a quote inside an unquoted field, text after a closing quote, a
/// field that is not UTF-8 or is longer than ``maximumFieldBytes``) is returned as a
/// ``CSVProblem`` and the reader goes on at the next line, so that one pass finds every bad
/// record. A quote left open at the end of the file ends the reading with a problem at the
/// quote.
///
/// Neither yaslab/CSV.swift nor SwiftCSV says where a record stands in the file, and both accept
/// a stray quote silently, so HealthVault reads CSV itself (docs/CSV_IMPORT.md).
public final class CSVReader {
    /// One record: its fields' text, and the line (from 1) it starts on.
    public struct Record: Hashable, Sendable {
        public let line: Int
        public let fields: [String]
    }

    /// The longest field read, in bytes: a file that is not CSV stops early instead of filling
    /// memory.
    public static let maximumFieldBytes = 65_536
    /// The most fields one record may hold.
    public static let maximumFields = 256

    private let handle: FileHandle?
    private var buffer: [UInt8]
    private var index = 0
    /// The bytes of the file before `buffer`.
    private var bufferStart = 0
    /// The size of the file when it was opened (of the bytes, for bytes in memory).
    public let totalBytes: Int?
    /// How far into the file the reader is, in bytes (for a progress report).
    public var bytesRead: Int { bufferStart + index }
    private var atEnd: Bool
    /// The line the reader is on, from 1.
    private var line = 1
    private var finished = false

    /// Opens a file; `invalidArgument` (field `path`) when it cannot be read, or when it is not a
    /// regular file (a folder, a named pipe, a device: ``InputFile``), which is never opened.
    public init(contentsOf url: URL) throws(HealthError) {
        if let why = InputFile.notRegular(url.path) {
            throw .invalidArgument("\(why): give the path of a CSV file", field: "path")
        }
        switch InputFile.open(url.path) {
        case .success(let opened):
            handle = opened.handle
            totalBytes = opened.size
        case .failure(.notRegular(let kind)):
            throw .invalidArgument(
                "\(kind.notRegular(named: url.path) ?? url.path): give the path of a CSV file",
                field: "path"
            )
        case .failure(.cannotOpen):
            throw .invalidArgument("cannot open \(url.lastPathComponent) for reading", field: "path")
        }
        buffer = []
        atEnd = false
        skipByteOrderMark()
    }

    /// Reads bytes already in memory.
    public init(bytes: [UInt8]) {
        handle = nil
        buffer = bytes
        totalBytes = bytes.count
        atEnd = true
        skipByteOrderMark()
    }

    deinit { try? handle?.close() }

    private func skipByteOrderMark() {
        if peek() == 0xEF, buffer.count >= index + 3, buffer[index + 1] == 0xBB, buffer[index + 2] == 0xBF {
            index += 3
        }
    }

    /// The next byte, reading the next chunk when the buffer is spent; nil at the end.
    private func peek() -> UInt8? {
        if index < buffer.count { return buffer[index] }
        guard !atEnd, let handle else { return nil }
        let data = (try? handle.read(upToCount: 1 << 16)) ?? nil
        guard let data, !data.isEmpty else {
            atEnd = true
            return nil
        }
        bufferStart += buffer.count
        buffer = Array(data)
        index = 0
        return buffer[0]
    }

    private func advance() { index += 1 }

    /// The field's text; nil when its bytes are not UTF-8. ASCII, as most fields are, is taken as
    /// it is, without the generic validation's cost.
    private static func text(_ bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Consumes a line break at the reader's position (CRLF, LF or CR), counting the line.
    private func consumeLineBreak() {
        guard let byte = peek() else { return }
        if byte == UInt8(ascii: "\r") {
            advance()
            if peek() == UInt8(ascii: "\n") { advance() }
            line += 1
        } else if byte == UInt8(ascii: "\n") {
            advance()
            line += 1
        }
    }

    /// Skips to the start of the next line (after a malformed record).
    private func skipLine() {
        while let byte = peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") { advance() }
        consumeLineBreak()
    }

    /// The next record, a problem with the record where one is malformed, or nil at the end.
    public func next() -> Result<Record, CSVProblem>? {
        guard !finished else { return nil }
        // Blank lines are no records.
        while let byte = peek(), byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { consumeLineBreak() }
        guard peek() != nil else {
            finished = true
            return nil
        }
        let start = line
        var fields: [String] = []
        var bytes: [UInt8] = []
        func problem(_ message: String, column: Int, skipping: Bool = true) -> Result<Record, CSVProblem> {
            if skipping { skipLine() }
            return .failure(CSVProblem(line: start, column: column, message: message))
        }
        while true {
            let column = fields.count + 1
            guard column <= Self.maximumFields else {
                return problem("more than \(Self.maximumFields) fields", column: column)
            }
            bytes.removeAll(keepingCapacity: true)
            if peek() == UInt8(ascii: "\"") {
                let quoteLine = line
                advance()
                while true {
                    guard let byte = peek() else {
                        finished = true
                        return .failure(
                            CSVProblem(
                                line: quoteLine,
                                column: column,
                                message: "the quote that opens this field is never closed"
                            )
                        )
                    }
                    advance()
                    if byte == UInt8(ascii: "\"") {
                        if peek() == UInt8(ascii: "\"") {
                            advance()
                            bytes.append(byte)
                        } else {
                            break
                        }
                    } else {
                        if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && peek() != UInt8(ascii: "\n")) {
                            line += 1
                        }
                        bytes.append(byte)
                    }
                    guard bytes.count <= Self.maximumFieldBytes else {
                        return problem("a field longer than \(Self.maximumFieldBytes) bytes", column: column)
                    }
                }
                if let byte = peek(), byte != UInt8(ascii: ","), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r")
                {
                    return problem(
                        "text after the closing quote (a quote inside a field is doubled: \"\")",
                        column: column
                    )
                }
            } else {
                // The field's bytes up to its end, a run of the buffer at a time.
                while peek() != nil {
                    let (end, quote) = buffer.withUnsafeBufferPointer { buffer in
                        var end = index
                        while end < buffer.count {
                            let byte = buffer[end]
                            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                                return (end, false)
                            }
                            if byte == UInt8(ascii: "\"") { return (end, true) }
                            end += 1
                        }
                        return (end, false)
                    }
                    bytes.append(contentsOf: buffer[index..<end])
                    let delimited = end < buffer.count
                    index = end
                    guard bytes.count <= Self.maximumFieldBytes else {
                        return problem("a field longer than \(Self.maximumFieldBytes) bytes", column: column)
                    }
                    if quote {
                        return problem(
                            "a quote inside an unquoted field (quote the whole field, and double the quote)",
                            column: column
                        )
                    }
                    if delimited { break }
                }
            }
            guard let text = Self.text(bytes) else {
                return problem("the field is not UTF-8 text", column: column)
            }
            fields.append(text)
            if peek() == UInt8(ascii: ",") {
                advance()
                continue
            }
            consumeLineBreak()
            return .success(Record(line: start, fields: fields))
        }
    }
}

/// What is wrong with a CSV file, and where: the line (from 1, as an editor counts them; a
/// quoted field's line breaks count) a record starts on, and the column (from 1, as a
/// spreadsheet counts them: the field's position in its record), with the column's name from
/// the header when there is one. The message never repeats the field's text.
public struct CSVProblem: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int?
    public var columnName: String?
    public var message: String

    public init(line: Int, column: Int?, columnName: String? = nil, message: String) {
        self.line = line
        self.column = column
        self.columnName = columnName
        self.message = message
    }

    /// `line 4, column 2 (start): not a date ...`.
    public var description: String {
        var place = "line \(line)"
        if let column { place += ", column \(column)" }
        if let columnName { place += " (\(columnName))" }
        return "\(place): \(message)"
    }
}
