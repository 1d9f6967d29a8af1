import ArgumentParser
import CommandSupport
import Foundation
import Glibc
import HealthModel
import HealthReport
import VaultClient
import VaultProtocol

/// `report`: the owner's health report and access history as one self-contained HTML page, or a
/// PDF printed from it by headless Chromium (docs/REPORT.md).
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write your health report and access history: one HTML page to open, print or give a doctor.",
        discussion: """
            Charts of activity (the rings), heart, sleep, body, workouts and sources, each with a \
            caption in words and a table for screen readers; who touched your vault, from the \
            audit log, with the log's verification. One self-contained file: it fetches nothing. \
            Days in your time zone, values in your units (see `units`). The vault computes every \
            figure and records the report as one audit entry (vault.report). The file is NOT \
            encrypted: it is written owner-only (0600). --pdf prints it to PDF with headless \
            Chromium (when installed) instead.

            Examples:
              healthvault report ~/health.html
              healthvault report --from 2026-11-01 --to 2026-11-30 ~/november.html
              healthvault report --from -90d --pdf ~/for-my-doctor.pdf
            """
    )
    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(parsing: .unconditional, help: .date("The first day, or a date in it (default: 29 days before the last)."))
    var from: DateArgument?

    @Option(parsing: .unconditional, help: .date("The last day, or a date in it (default: today)."))
    var to: DateArgument?

    @Flag(help: "Write a PDF (printed by headless Chromium) instead of the HTML page.")
    var pdf = false

    @Flag(help: "Replace OUT when it exists.")
    var overwrite = false

    @Argument(help: "The file to write (the HTML page, or the PDF with --pdf).")
    var out: String

    static let warning =
        "healthvault: warning: this report is NOT encrypted: whoever can read the file reads your health data. "
        + "It is written owner-only (0600); keep it safe and delete it when you are done.\n"

    /// What `--json` prints.
    struct Summary: Encodable {
        let path: String
        let format: String
        let bytes: Int
        let firstDay: String
        let lastDay: String
        let auditEntry: UInt64
        let auditLogVerified: Bool
    }

    func run() async throws {
        let path = URL(fileURLWithPath: out).standardizedFileURL.path
        try Self.checkDestination(path, overwrite: overwrite)
        // Said before the vault is asked, so a missing browser costs no audit entry.
        let chromium = pdf ? try Self.findChromium() : nil
        let started = Date()
        let data = try await vault.withOwner { [from, to] connection in
            let zone = try await ownerTimeZone(on: connection)
            let (first, last) = try Self.days(from: from, to: to, in: zone, now: started)
            return try await connection.call(
                Method.report,
                ReportParams(start: first, end: last),
                as: HealthReportData.self
            )
        }
        let page = Data(HealthReport.html(data).utf8)
        let written: Data
        if let chromium {
            written = try Self.printToPDF(page, with: chromium)
        } else {
            written = page
        }
        try Self.writeOwnerOnly(written, to: path)
        FileHandle.standardError.write(Data(Self.warning.utf8))
        if output.json {
            return try printJSON(
                Summary(
                    path: path,
                    format: pdf ? "pdf" : "html",
                    bytes: written.count,
                    firstDay: data.firstDay,
                    lastDay: data.lastDay,
                    auditEntry: data.auditLog.reportEntry,
                    auditLogVerified: data.auditLog.verified
                )
            )
        }
        let dayCount = Self.dayCount(data)
        print(
            "Wrote the report of \(data.firstDay) to \(data.lastDay) (\(dayCount) day\(dayCount == 1 ? "" : "s")) to \(path): "
                + "\(Self.size(written.count)), \(pdf ? "PDF" : "HTML"); recorded as vault.report, audit entry \(data.auditLog.reportEntry)."
        )
        if !data.auditLog.verified {
            print("The audit log did NOT verify: \(data.auditLog.summary)")
        }
    }

    /// The first and last day: `--to` (default today) and `--from` (default 29 days before it),
    /// as days in `zone`; `--to` before `--from` is refused.
    static func days(from: DateArgument?, to: DateArgument?, in zone: TimeZone, now: Date) throws -> (String, String) {
        let last = to?.day(in: zone, now: now) ?? CalendarDay.string(of: now, in: zone)
        var first = from?.day(in: zone, now: now)
        if first == nil, let midnight = CalendarDay.midnight(of: last, in: zone) {
            // Noon, so a 23- or 25-hour day never shifts the date.
            first = CalendarDay.string(of: midnight.addingTimeInterval(-29 * 86_400 + 12 * 3600), in: zone)
        }
        let start = first ?? last
        guard start <= last else {
            throw ToolError(
                "--to \(to?.text ?? last) is before --from \(from?.text ?? start): give the first day first"
            )
        }
        return (start, last)
    }

    static func dayCount(_ data: HealthReportData) -> Int {
        Int((data.end.timeIntervalSince(data.start) / 86_400).rounded())
    }

    static func size(_ bytes: Int) -> String {
        bytes < 1024 * 1024
            ? String(format: "%.1f KiB", Double(bytes) / 1024) : String(format: "%.2f MiB", Double(bytes) / 1_048_576)
    }

    /// OUT must be a file that does not exist (or `--overwrite`), in a directory that does.
    static func checkDestination(_ path: String, overwrite: Bool) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw ToolError("\(path) is a directory; give the report's file name (report.html)")
            }
            if !overwrite {
                throw ToolError("\(path) exists; give --overwrite to replace it, or another name")
            }
        }
        let parent = (path as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ToolError("\(parent) is not a directory; make it first, or write the report elsewhere")
        }
    }

    /// Writes `data` to a new file beside `path`, readable and writable by the owner only (0600,
    /// whatever the umask), then renames it into place: the report appears whole or not at all.
    static func writeOwnerOnly(_ data: Data, to path: String) throws {
        let temporary = path + ".partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ToolError(
                "cannot write \(temporary): \(String(cString: strerror(errno))); choose a directory you can write"
            )
        }
        fchmod(descriptor, 0o600)
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let wrote = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if wrote < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += wrote
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw ToolError("cannot write \(path): \(failure); nothing was written")
        }
    }

    // MARK: PDF

    /// The Chromium to print with: the first of chromium, chromium-browser, google-chrome in PATH.
    static func findChromium() throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        throw ToolError(
            "--pdf needs Chromium, and none is installed (no chromium in PATH); install it (Debian: apt-get install chromium), "
                + "or write the HTML page and print it from any browser"
        )
    }

    /// The page printed to PDF by headless Chromium, in a private folder (0700) removed after: the
    /// page's own print stylesheet lays it out; no header or footer is added.
    static func printToPDF(_ page: Data, with chromium: String) throws -> Data {
        guard let made = mkdtemp(strdup("/tmp/healthvault-report-XXXXXX")) else {
            throw ToolError("cannot make a private folder in /tmp: \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let html = folder + "/report.html"
        let pdf = folder + "/report.pdf"
        try writeOwnerOnly(page, to: html)
        var arguments = [
            "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-pdf-header-footer",
            "--user-data-dir=\(folder)/profile", "--print-to-pdf=\(pdf)",
        ]
        // Chromium's sandbox refuses to run as root; root's own file is read all the same.
        if geteuid() == 0 { arguments.append("--no-sandbox") }
        arguments.append(URL(fileURLWithPath: html).absoluteString)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        // The PDF is health data too: nothing Chromium writes may be readable by others.
        let previous = umask(0o077)
        defer { umask(previous) }
        do {
            try process.run()
        } catch {
            throw ToolError("cannot run \(chromium): \(error.localizedDescription)")
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let printed = FileManager.default.contents(atPath: pdf), !printed.isEmpty
        else {
            let last =
                String(decoding: said, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "no message"
            throw ToolError(
                "Chromium could not print the report to PDF (exit \(process.terminationStatus): \(last)); nothing was written"
            )
        }
        return printed
    }
}
