import ArgumentParser
import CommandSupport
import Foundation
import HealthInterchange
import HealthModel
import VaultClient
import VaultProtocol

extension Import {
    /// `import csv`: a CSV file of samples (docs/CSV_IMPORT.md), read and stored by the daemon.
    struct CSV: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv",
            abstract: "Import a CSV file of samples: type,start,end,value,unit,source (docs/CSV_IMPORT.md).",
            discussion: """
                The daemon reads the file (give a path it can read) and checks every row before it \
                stores any: a file with bad rows is refused, each bad row named by line and column, \
                and nothing is imported. A terminal shows the check's progress, then the rows \
                stored; Ctrl-C stops the import (during the check nothing is stored; after it, \
                the batches stored stay). Importing the same file again adds nothing. Rows without \
                a source are stored under the file's name (or --source). Types by short name or \
                identifier; units as HealthKit writes them or bpm, °F, lbs. --json prints the \
                import's summary as one object.

                Example: healthvault import csv weights.csv --source "Bathroom scale"
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The CSV file.")
        var file: String

        @Option(help: "The source of rows that name none (default: the file's name).")
        var source: String?

        func run() async throws {
            let url = URL(fileURLWithPath: file).standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.path) else { throw ToolError("\(file): no such file") }
            let started = Date()
            let terminal = isatty(2) == 1 && !output.json
            let summary = try await vault.withOwner { connection in
                let reports = connection.importProgress()
                let watcher = Task {
                    var line = ProgressLine(started: started)
                    for await progress in reports where terminal {
                        FileHandle.standardError.write(Data(line.text(progress).utf8))
                    }
                }
                // The progress line is gone before the answer or the error is printed.
                func endProgress() async {
                    watcher.cancel()
                    await watcher.value
                    if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                }
                do {
                    let summary = try await connection.call(
                        Method.importCSV,
                        ImportCSVParams(path: url.path, source: source),
                        as: CSVImportSummary.self
                    )
                    await endProgress()
                    return summary
                } catch let error as RPCError {
                    await endProgress()
                    // A refused file: its problems, a line each, as the daemon listed them.
                    let refusal = error.healthError
                    guard refusal.code == .invalidArgument, refusal.field == "path" else { throw error }
                    throw ToolError(refusal.message)
                } catch {
                    await endProgress()
                    throw error
                }
            }
            if output.json { return try printJSON(summary) }
            print(Self.report(summary, file: url, seconds: Date().timeIntervalSince(started)))
        }

        /// The line a terminal shows while the daemon imports: how far the check of the rows is,
        /// then the rows done, their rate and the time left, from `import.progress` (each reading
        /// of the file from 0 bytes; no rows done while the rows are checked).
        struct ProgressLine {
            let started: Date
            /// When the storing began: the last report of the check.
            var storing: Date?

            init(started: Date) { self.started = started }

            mutating func text(_ progress: ImportProgressParams, now: Date = Date()) -> String {
                var fraction: Double?
                if let total = progress.totalBytes, total > 0 {
                    fraction = min(Double(progress.bytesRead) / Double(total), 1)
                }
                let percent = fraction.map { String(format: "%.0f%%", $0 * 100) } ?? ""
                guard progress.records > 0 else {
                    storing = now
                    if fraction == 1 { return "\r\u{1B}[Kthe rows are checked; storing them" }
                    return "\r\u{1B}[Kchecking the rows" + (percent.isEmpty ? "" : ": " + percent)
                }
                let since = storing ?? started
                let elapsed = max(now.timeIntervalSince(since), 0.001)
                var line =
                    "\r\u{1B}[K\(progress.records) rows done, \(Int(Double(progress.records) / elapsed)) rows/s"
                if let fraction {
                    line += ", " + percent
                    if fraction > 0.01, fraction < 1 { line += ", about \(Int(elapsed / fraction - elapsed)) s left" }
                }
                return line
            }
        }

        static func report(_ summary: CSVImportSummary, file: URL, seconds: Double) -> String {
            let total = summary.total
            var lines = [
                "Imported \(total.imported) of \(summary.rows) rows of \(file.lastPathComponent) in "
                    + "\(String(format: "%.1f", seconds)) s: \(total.alreadyPresent) already there, "
                    + "\(total.deletedBefore) deleted by you before (not brought back), \(total.repeated) repeated in the file."
            ]
            func rows(_ counts: [String: CSVImportSummary.Counts], _ title: String) -> String {
                var rows = [[title, "IMPORTED", "ALREADY", "DELETED", "REPEATED"]]
                for (name, c) in counts.sorted(by: { $0.key < $1.key }) {
                    rows.append([name, "\(c.imported)", "\(c.alreadyPresent)", "\(c.deletedBefore)", "\(c.repeated)"])
                }
                return table(rows)
            }
            if !summary.byType.isEmpty {
                lines.append("")
                lines.append(
                    rows(
                        summary.byType.reduce(into: [:]) { result, entry in
                            result[(try? SampleType(identifier: entry.key)).map(shortName) ?? entry.key] = entry.value
                        },
                        "TYPE"
                    )
                )
                lines.append("")
                lines.append(rows(summary.bySource, "SOURCE"))
            }
            lines.append("\(summary.batches) audited batch\(summary.batches == 1 ? "" : "es") (vault.import).")
            return lines.joined(separator: "\n")
        }
    }
}
