// The owner's health report (issue 24, docs/REPORT.md): a year of minute-level heart rate and
// steps (525,600 samples of each, 1,051,200 in all) reported by the real `healthvaultd` and
// `healthvault report` (HEALTHVAULTD and HEALTHVAULT, the release builds `make bench` makes): the
// command's wall time, from its start to the file written (the passphrase's key, the vault's one
// snapshot of statistics, the audit entry and the log's verification, the page), and the file's
// size. Targets: within 10 seconds, and a file under 2 MB (scripts/bench-ratios.py,
// report_section).
import Benchmark
import Foundation
import Glibc
import HealthModel
import VaultStore

extension StatisticsRows {
    /// A step sample every minute of the year, a few dozen steps each.
    static func minuteSteps() -> StatisticsRows {
        var rows = StatisticsRows(type: .stepCount, source: "org.example.watch")
        let origin = yearStart.timeIntervalSinceReferenceDate
        for minute in 0..<minutesInYear {
            let start = origin + Double(minute) * 60
            rows.starts.append(start)
            rows.ends.append(start + 60)
            rows.values.append(Double((minute * 31) % 120))
        }
        return rows
    }
}

func reportBenchmarks() {
    func metric(_ name: String) -> BenchmarkMetric { .custom(name, polarity: .prefersSmaller, useScalingFactor: false) }
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, metric("file KB")],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(120),
        maxIterations: 5
    )
    nonisolated(unsafe) var served: DaemonFixture?
    Benchmark("Report year of minute heart rate and steps: daemon", configuration: configuration) { benchmark in
        let vault = served!.vault
        let out = vault.root.appendingPathComponent("report-\(UUID().uuidString).html").path
        defer { unlink(out) }
        benchmark.startMeasurement()
        try runOwnerCommand(
            ["report", "--from", "2025-01-01", "--to", "2025-12-31", out],
            vault: vault.directory.path,
            passphraseFile: vault.passphraseFile
        )
        benchmark.stopMeasurement()
        let bytes = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        benchmark.measurement(metric("file KB"), bytes / 1024)
        print("report of a year of minute heart rate and steps: \(bytes) bytes (target: under 2 MB)")
    } setup: {
        served = try await DaemonFixture(
            try await StatisticsVault([.heartRate(), .minuteSteps()], priority: [])
        )
    } teardown: {
        await served?.stop()
        served = nil
    }
}

/// Runs `healthvault ARGUMENTS --vault … --passphrase-file …` to its end, its output discarded;
/// throws when it fails.
func runOwnerCommand(_ arguments: [String], vault: String, passphraseFile: String) throws {
    let process = childProcess(healthvaultPath(), arguments + ["--vault", vault, "--passphrase-file", passphraseFile])
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let said = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchError.sqlite(
            "healthvault \(arguments.joined(separator: " ")): \(String(decoding: said, as: UTF8.self))"
        )
    }
}
