import ArgumentParser
import CommandSupport
import Foundation
import HealthInterchange
import HealthModel
import VaultClient
import VaultProtocol

/// `export`: take your data out (docs/EXPORT_JSON.md), written by the daemon, owner-only.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take your data out: every sample with its series, your characteristics and settings.",
        discussion: """
            The daemon writes the export into OUT (a new directory, or an empty one; give a path \
            it can write), owner-only: the directory 0700, every file 0600. The export is NOT \
            encrypted. --format json is lossless: `healthvault import json OUT` brings it back \
            into any vault, every UUID and source kept (docs/EXPORT_JSON.md). Filters: --type \
            (repeatable), --from/--to (the sample's start; days and local times in your time \
            zone), --source (a bundle identifier or a name, repeatable); an export with a --type \
            or --source leaves characteristics and settings out. Audited as vault.export.

            Examples:
              healthvault export --format json ~/health-2026
              healthvault export --format csv ~/sheets --type weight --from 2026-01-01
              healthvault export --format fhir ~/for-my-doctor --from -90d
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "The format: \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: String

    @Argument(help: "The directory to write (made when absent; refused when it holds files, unless --overwrite).")
    var out: String

    @Option(
        name: .customLong("type"),
        help: "Only this type (repeatable): stepCount, HKQuantityTypeIdentifierHeartRate..."
    )
    var types: [String] = []

    @Option(parsing: .unconditional, help: .date("Only samples starting at or after this date."))
    var from: DateArgument?

    @Option(parsing: .unconditional, help: .date("Only samples starting before this date."))
    var to: DateArgument?

    @Option(name: .customLong("source"), help: "Only this source, by bundle identifier or name (repeatable).")
    var sources: [String] = []

    @Flag(help: "Write into a directory that holds files already (the export's own files are replaced).")
    var overwrite = false

    static let warning =
        "healthvault: warning: this export is NOT encrypted: whoever can read its files reads your health data. "
        + "They are written owner-only (0600); keep them safe and delete them when you are done.\n"

    func run() async throws {
        guard let format = ExportFormat(rawValue: format) else {
            throw ValidationError(
                "--format is one of \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let types = types.isEmpty ? nil : try types.map { try parseSampleType($0).identifier }
        try checkDateOrder(from: from, to: to)
        let terminal = isatty(2) == 1 && !output.json
        let started = Date()
        let summary = try await vault.withOwner { [from, to, out, sources, overwrite] connection in
            var range: (start: Date?, end: Date?)?
            if from != nil || to != nil {
                range = try dateRange(from: from, to: to, in: try await ownerTimeZone(on: connection), now: started)
            }
            let params = ExportParams(
                path: URL(fileURLWithPath: out).standardizedFileURL.path,
                format: format.rawValue,
                types: types,
                from: range?.start,
                to: range?.end,
                sources: sources.isEmpty ? nil : sources,
                overwrite: overwrite ? true : nil
            )
            let watcher = Task {
                for await progress in connection.exportProgress() where terminal {
                    FileHandle.standardError.write(Data(Self.progressLine(progress, since: started).utf8))
                }
            }
            defer { watcher.cancel() }
            return try await connection.call(Method.exportWrite, params, as: ExportSummary.self)
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        // Said once the files exist (never before a refusal, when nothing was written).
        FileHandle.standardError.write(Data(Self.warning.utf8))
        if output.json { return try printJSON(summary) }
        print(Self.report(summary))
    }

    static func progressLine(_ progress: ExportProgressParams, since start: Date) -> String {
        let elapsed = max(Date().timeIntervalSince(start), 0.001)
        var line =
            "\r\u{1B}[K\(progress.samples) of \(progress.totalSamples) samples, \(Int(Double(progress.samples) / elapsed)) samples/s"
        if progress.totalSamples > 0 {
            let fraction = Double(progress.samples) / Double(progress.totalSamples)
            line += String(format: ", %.0f%%", fraction * 100)
            if fraction > 0.01 { line += ", about \(Int(elapsed / fraction - elapsed)) s left" }
        }
        return line
    }

    static func report(_ summary: ExportSummary) -> String {
        let manifest = summary.manifest
        let count = manifest.sampleCount
        let rate = summary.seconds > 0 ? " (\(Int(Double(count) / summary.seconds)) samples/s)" : ""
        var lines = [
            "Exported \(count) sample\(count == 1 ? "" : "s") to \(summary.path) in "
                + "\(String(format: "%.1f", summary.seconds)) s\(rate), format \(summary.format.rawValue)."
        ]
        if !manifest.samples.isEmpty {
            var rows = [["TYPE", "SAMPLES"]]
            for (identifier, n) in manifest.samples.sorted(by: { $0.key < $1.key }) {
                rows.append([(try? SampleType(identifier: identifier)).map(shortName) ?? identifier, "\(n)"])
            }
            lines.append("")
            lines.append(table(rows))
        }
        if manifest.routeLocations > 0 { lines.append("\(manifest.routeLocations) route locations.") }
        if manifest.settings {
            lines.append(
                "\(manifest.characteristics) characteristics and your settings (units, goals, time zone, source order)."
            )
        } else {
            lines.append("Characteristics and settings left out (an export of some types or sources).")
        }
        lines.append(
            "Files (not encrypted): \(([JSONExportWriter.manifestFile] + manifest.files).joined(separator: ", "))."
        )
        return lines.joined(separator: "\n")
    }
}
