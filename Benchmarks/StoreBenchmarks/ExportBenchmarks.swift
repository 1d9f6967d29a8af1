// The owner's export (issue 21, docs/EXPORT_JSON.md): 1,000,000 step-count samples exported as
// JSON lines through the engine (one read snapshot, keyset batches of 1,000 top-level samples
// loaded whole, each written as one line of samples.jsonl), beside a raw SQLCipher scan of the
// same rows with one prepared statement reading the columns an export needs (the sample's row
// with its type, source, revision and unit joined). Goal: the export at 100,000 samples/s or
// better.
import Benchmark
import CSQLCipherBench
import Foundation
import HealthInterchange
import HealthModel
import VaultCrypto
import VaultEngine
import VaultStore

let exportCount = 1_000_000

/// A vault holding `exportCount` step samples, and an engine over it.
final class ExportFixture: @unchecked Sendable {
    let vault: TemporaryVault
    let engine: VaultEngine

    init() throws {
        vault = try TemporaryVault()
        for chunk in 0..<(exportCount / 50_000) {
            try vault.store.save(makeSamples(50_000, source: "org.example.bench", offset: chunk * 50_000))
        }
        engine = try VaultEngine(vault: vault.vault)
    }

    /// Exports everything into a new directory, removed afterwards; returns the samples written.
    func export() async throws -> Int {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hv-bench-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let writer = try JSONExportWriter(directory: try ExportDirectory(out, overwrite: false))
        return try await engine.export(ExportFilter(), to: writer).sampleCount
    }
}

extension RawDatabase {
    /// Reads every top-level sample's row with the columns an export writes, in row order.
    func scanForExport() throws -> Int {
        var statement: OpaquePointer?
        let sql = """
            SELECT s.id, s.uuid, t.identifier, s.start_date, s.end_date, s.value, s.given_value, u.unit,
                src.bundle_id, r.name, r.version
            FROM samples s JOIN types t ON t.code = s.type JOIN sources src ON src.id = s.source_id
            JOIN revisions r ON r.id = s.revision_id LEFT JOIN units u ON u.id = s.unit_id
            WHERE s.parent_id IS NULL ORDER BY s.id
            """
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var count = 0
        var checksum = 0.0
        while sqlite3_step(statement) == SQLITE_ROW {
            _ = sqlite3_column_blob(statement, 1)
            _ = sqlite3_column_text(statement, 2)
            checksum += sqlite3_column_double(statement, 3) + sqlite3_column_double(statement, 5)
            _ = sqlite3_column_text(statement, 7)
            _ = sqlite3_column_text(statement, 8)
            _ = sqlite3_column_text(statement, 9)
            count += 1
        }
        blackHole(checksum)
        return count
    }
}

func exportBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(120),
        maxIterations: 5
    )
    nonisolated(unsafe) var fixture: ExportFixture?
    Benchmark("Export 1M samples: JSON lines", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let written = try await fixture!.export()
            precondition(written == exportCount)
        }
    } setup: {
        fixture = try ExportFixture()
    } teardown: {
        await fixture?.engine.shutdown()
        fixture = nil
    }

    nonisolated(unsafe) var raw: RawDatabase?
    Benchmark("Export 1M samples: raw SQLCipher scan", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let scanned = try raw!.scanForExport()
            precondition(scanned == exportCount)
        }
    } setup: {
        raw = try RawDatabase(key: SecureBytes.random(count: 32))
        try raw!.insert(RawRows(count: exportCount))
    } teardown: {
        raw = nil
    }
}
