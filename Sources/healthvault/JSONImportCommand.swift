import ArgumentParser
import CommandSupport
import Foundation
import HealthInterchange
import HealthModel
import VaultClient
import VaultProtocol

extension Import {
    /// `import json`: a HealthVault JSON export (docs/EXPORT_JSON.md) brought back in.
    struct JSON: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "json",
            abstract:
                "Import a HealthVault JSON export (healthvault export --format json): a restore of your own data.",
            discussion: """
                The daemon reads the export's directory (give a path it can read) and stores its \
                samples in batches, each audited as vault.import, keeping every UUID, source, \
                device and metadata; then the characteristics and settings this vault does not \
                hold yet (yours win). Importing it again adds nothing; a sample you deleted is not \
                brought back. A problem is named by file and line. --json prints the import's \
                summary as one object.

                Example: healthvault import json ~/health-2026
                """
        )
        @OptionGroup var vault: VaultOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The export's directory (it holds manifest.json).")
        var directory: String

        func run() async throws {
            let url = URL(fileURLWithPath: directory).standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw ToolError("\(directory): no such directory")
            }
            let terminal = isatty(2) == 1 && !output.json
            let started = Date()
            let summary = try await vault.withOwner { connection in
                let watcher = Task {
                    for await progress in connection.importProgress() where terminal {
                        let rate = Int(Double(progress.records) / max(Date().timeIntervalSince(started), 0.001))
                        FileHandle.standardError.write(
                            Data("\r\u{1B}[K\(progress.records) samples, \(rate) samples/s".utf8)
                        )
                    }
                }
                defer { watcher.cancel() }
                do {
                    return try await connection.call(
                        Method.importJSON,
                        ImportJSONParams(path: url.path),
                        as: JSONImportSummary.self
                    )
                } catch let error as RPCError {
                    let refusal = error.healthError
                    guard refusal.code == .invalidArgument, refusal.field == "path" else { throw error }
                    throw ToolError(refusal.message)
                }
            }
            if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            if output.json { return try printJSON(summary) }
            print(Self.report(summary, seconds: Date().timeIntervalSince(started)))
        }

        static func report(_ summary: JSONImportSummary, seconds: Double) -> String {
            let total = summary.total
            var lines = [
                "Imported \(total.imported) of \(summary.samples) samples in \(String(format: "%.1f", seconds)) s: "
                    + "\(total.alreadyPresent) already there, \(total.deletedBefore) deleted by you before (not brought back), "
                    + "\(total.repeated) repeated."
            ]
            if !summary.byType.isEmpty {
                var rows = [["TYPE", "IMPORTED", "ALREADY", "DELETED", "REPEATED"]]
                for (identifier, c) in summary.byType.sorted(by: { $0.key < $1.key }) {
                    rows.append([
                        (try? SampleType(identifier: identifier)).map(shortName) ?? identifier, "\(c.imported)",
                        "\(c.alreadyPresent)", "\(c.deletedBefore)", "\(c.repeated)",
                    ])
                }
                lines.append("")
                lines.append(table(rows))
            }
            lines.append(
                "\(summary.characteristics) characteristics and \(summary.settings) settings restored (those this vault did not hold)."
            )
            lines.append("\(summary.batches) audited batch\(summary.batches == 1 ? "" : "es") (vault.import).")
            return lines.joined(separator: "\n")
        }
    }
}
