import ArgumentParser
import CommandSupport
import Foundation
import HealthInterchange
import HealthModel
import VaultClient
import VaultProtocol

/// Bringing history in (docs/APPLE_HEALTH_IMPORT.md).
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring your history in: an Apple Health export, a CSV file, a HealthVault JSON export.",
        discussion: """
            Examples:
              healthvault import apple-health ~/Downloads/export.zip
              healthvault import csv weights.csv
              healthvault import json ~/health-2026
            """,
        subcommands: [AppleHealth.self, CSV.self, JSON.self]
    )

    struct AppleHealth: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple-health",
            abstract:
                "Import an iPhone's \"Export All Health Data\": export.zip, the apple_health_export folder, or export.xml.",
            discussion: """
                The daemon reads the export (give a path it can read; a zip is read as it is, \
                never unpacked to disk) with its workout routes, and stores it in batches, each \
                audited as vault.import. Importing the same export again adds nothing; a newer \
                export adds only what is new; a record you deleted is not brought back. A file cut \
                short is refused, nothing imported, unless --accept-truncated. --json prints the \
                import's summary as one object.

                Example: healthvault import apple-health ~/Downloads/export.zip
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "export.zip, the apple_health_export folder, or export.xml (any name).")
        var path: String

        @Flag(help: "Import what precedes the cut of a file cut short.")
        var acceptTruncated = false

        func run() async throws {
            let file = URL(fileURLWithPath: path).standardizedFileURL
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw ToolError("\(path): no such file or folder")
            }
            let terminal = isatty(2) == 1 && !output.json
            let started = Date()
            let summary = try await vault.withOwner { connection in
                let watcher = Task {
                    for await progress in connection.importProgress() where terminal {
                        FileHandle.standardError.write(Data(Self.progressLine(progress, since: started).utf8))
                    }
                }
                defer { watcher.cancel() }
                do {
                    return try await connection.call(
                        Method.importAppleHealth,
                        ImportAppleHealthParams(path: file.path, acceptTruncated: acceptTruncated ? true : nil),
                        as: AppleHealthImportSummary.self
                    )
                } catch let error as RPCError where error.message.hasPrefix("the export is cut short") {
                    throw ToolError(
                        "\(error.message); nothing was imported: export it again, or import what precedes the cut with --accept-truncated"
                    )
                }
            }
            if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            if output.json { return try printJSON(summary) }
            print(Self.report(summary, file: file, seconds: Date().timeIntervalSince(started)))
        }

        static func progressLine(_ progress: ImportProgressParams, since start: Date) -> String {
            let elapsed = max(Date().timeIntervalSince(start), 0.001)
            let rate = Double(progress.records) / elapsed
            var line = "\r\u{1B}[K\(progress.records) records, \(Int(rate)) records/s"
            if let total = progress.totalBytes, total > 0 {
                let fraction = Double(progress.bytesRead) / Double(total)
                line += String(format: ", %.0f%%", fraction * 100)
                if fraction > 0.01 { line += ", about \(Int(elapsed / fraction - elapsed)) s left" }
            }
            return line
        }

        static func report(_ summary: AppleHealthImportSummary, file: URL, seconds: Double) -> String {
            let total = summary.total
            var lines = [
                "Imported \(total.imported) of \(summary.xml ?? file.lastPathComponent) in \(String(format: "%.1f", seconds)) s: "
                    + "\(total.alreadyPresent) already there, \(total.deletedBefore) deleted by you before (not brought back), "
                    + "\(total.repeated) repeated in the file, \(total.skipped) skipped."
            ]
            func rows(_ counts: [String: AppleHealthImportSummary.Counts], _ title: String) -> String {
                var rows = [[title, "IMPORTED", "ALREADY", "DELETED", "REPEATED", "SKIPPED"]]
                for (name, c) in counts.sorted(by: { $0.key < $1.key }) {
                    rows.append([
                        name, "\(c.imported)", "\(c.alreadyPresent)", "\(c.deletedBefore)", "\(c.repeated)",
                        "\(c.skipped)",
                    ])
                }
                return table(rows)
            }
            if !summary.byType.isEmpty {
                lines.append("")
                lines.append(
                    rows(
                        summary.byType.reduce(into: [:]) { result, entry in
                            let name = (try? SampleType(identifier: entry.key)).map(shortName) ?? entry.key
                            result[name] = entry.value
                        },
                        "TYPE"
                    )
                )
                lines.append("")
                lines.append(rows(summary.bySource, "SOURCE"))
            }
            if !summary.skipped.isEmpty {
                lines.append("")
                lines.append("Skipped:")
                for (reason, count) in summary.skipped.sorted(by: { $0.key < $1.key }) {
                    lines.append("  \(count)  \(reason)")
                }
            }
            if !summary.unsupported.isEmpty {
                lines.append("")
                lines.append("Not stored (HealthVault cannot hold these yet):")
                for (what, count) in summary.unsupported.sorted(by: { $0.key < $1.key }) {
                    lines.append("  \(count)  \(what)")
                }
            }
            if summary.activitySummaries > 0 {
                lines.append("")
                lines.append(
                    "\(summary.activitySummaries) activity summaries read: HealthVault computes them from the samples; "
                        + "their goals gave \(summary.goalChanges) change\(summary.goalChanges == 1 ? "" : "s") of daily goals "
                        + "(goals you set in HealthVault win)."
                )
            }
            if summary.characteristics > 0 {
                lines.append("\(summary.characteristics) characteristics set (see `profile show`).")
            }
            if summary.routeLocationsSkipped > 0 {
                lines.append("\(summary.routeLocationsSkipped) unreadable GPX points left out of workout routes.")
            }
            if summary.removedCharacters > 0 {
                lines.append(
                    "\(summary.removedCharacters) characters XML forbids removed from names (the rest of each kept)."
                )
            }
            if let cut = summary.truncated {
                lines.append("")
                lines.append(
                    "The file was cut short at byte \(cut.byteOffset.map(String.init) ?? "?") (line \(cut.line.map(String.init) ?? "?")); "
                        + "the \(cut.completeItems.map(String.init) ?? "?") whole elements before the cut were read, as --accept-truncated asked."
                )
            }
            lines.append("\(summary.batches) audited batch\(summary.batches == 1 ? "" : "es") (vault.import).")
            return lines.joined(separator: "\n")
        }
    }
}
