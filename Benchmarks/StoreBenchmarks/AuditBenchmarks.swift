// The audit log's costs (scripts/bench-ratios.py prints them as figures and ratios):
//
// Append: 1,000 entries appended through the vault's database storage (entry, finished subtree
// hashes, compact range) in one transaction, on an empty log and on a log of 1,000,000 entries
// (the cost must not grow with the log), against raw prepared-statement inserts of the same
// entries' bytes into the same table in SQLCipher.
//
// Verify: the offline verifier over a 1,000,000-entry export written by the vault (ten signed
// checkpoints), from disk: framing, encoding, sequence numbers, the tree at every checkpoint,
// consistency between them, every signature. Target: under 30 seconds.
import AuditLog
import Benchmark
import Foundation
import VaultCrypto
import VaultStore

let auditBatch = 1_000
let largeLog = 1_000_000

/// Varied entries, as the engine writes them.
func makeEntries(_ count: Int, offset: Int = 0) -> [AuditEntry] {
    let operations: [AuditEntry.Operation] = [.save, .querySample, .delete, .queryStatistics, .authorizationRequest]
    let types = ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"]
    return (offset..<offset + count).map { index in
        AuditEntry(
            time: Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 0.25),
            actor: index % 9 == 0 ? .owner : .app("org.example.app\(index % 4)"),
            operation: operations[index % operations.count],
            types: Array(types.prefix(index % 3)),
            objectCount: UInt64(index % 500),
            outcome: index % 11 == 0 ? .deniedServedEmpty : .ok,
            requestID: "request-\(index)"
        )
    }
}

/// Appends `entries` to the vault's log in one transaction.
func append(_ entries: [AuditEntry], to vault: TemporaryVault) throws {
    try vault.vault.db().write { db in
        let log = vault.vault.auditLog(in: db)
        for entry in entries { try log.append(entry) }
    }
}

/// A vault whose log holds `count` entries, with a checkpoint signed every `count / 10`.
func vaultWithLog(_ count: Int) throws -> TemporaryVault {
    let vault = try TemporaryVault()
    let chunk = max(count / 10, 1)
    for start in stride(from: 0, to: count, by: chunk) {
        try append(makeEntries(min(chunk, count - start), offset: start), to: vault)
        try vault.vault.signAuditCheckpoint()
    }
    return vault
}

func auditBenchmarks() {
    let appendConfiguration = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(20),
        maxIterations: 30
    )

    nonisolated(unsafe) var small: TemporaryVault?
    Benchmark("Audit append 1k: empty log", configuration: appendConfiguration) { benchmark in
        let entries = makeEntries(auditBatch)
        benchmark.startMeasurement()
        try append(entries, to: small!)
        benchmark.stopMeasurement()
    } setup: {
        small = try TemporaryVault()
    } teardown: {
        small = nil
    }

    nonisolated(unsafe) var large: TemporaryVault?
    Benchmark("Audit append 1k: 1M-entry log", configuration: appendConfiguration) { benchmark in
        let entries = makeEntries(auditBatch, offset: largeLog)
        benchmark.startMeasurement()
        try append(entries, to: large!)
        benchmark.stopMeasurement()
    } setup: {
        large = try vaultWithLog(largeLog)
    } teardown: {
        large = nil
    }

    nonisolated(unsafe) var raw: RawDatabase?
    nonisolated(unsafe) var rawSize = 0
    Benchmark("Audit append 1k: raw SQLCipher insert", configuration: appendConfiguration) { benchmark in
        let entries = try makeEntries(auditBatch).map { try $0.encoded() }
        benchmark.startMeasurement()
        try raw!.insertAuditEntries(entries, from: rawSize)
        benchmark.stopMeasurement()
        rawSize += auditBatch
    } setup: {
        raw = try RawDatabase(key: SecureBytes.random(count: 32))
        rawSize = 0
    } teardown: {
        raw = nil
    }

    nonisolated(unsafe) var exported: (vault: TemporaryVault, directory: URL, key: VerifierKey)?
    Benchmark(
        "Audit verify 1M entries",
        configuration: .init(
            metrics: [.wallClock],
            timeUnits: .milliseconds,
            warmupIterations: 0,
            maxDuration: .seconds(120),
            maxIterations: 3
        )
    ) { benchmark in
        let report = AuditVerifier.verify(directory: exported!.directory, trustedKey: exported!.key)
        // The export recorded itself: one entry more.
        guard report.verdict == .verified, report.entryCount == largeLog + 1 else {
            fatalError("the 1M-entry export did not verify: \(report.summary)")
        }
    } setup: {
        let vault = try vaultWithLog(largeLog)
        let directory = vault.directory.appendingPathExtension("export")
        try vault.vault.exportAuditLog(to: directory)
        exported = (vault, directory, vault.vault.verifierKey)
    } teardown: {
        if let directory = exported?.directory { try? FileManager.default.removeItem(at: directory) }
        exported = nil
    }
}
