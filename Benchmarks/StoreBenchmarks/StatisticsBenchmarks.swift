// Statistics through the daemon against the same aggregation as hand-written SQL on raw
// SQLCipher, in the same run (issue 7):
//
// - a year of minute-level heart rate (525,600 one-minute samples, one source) in daily
//   intervals: time-weighted average, minimum, maximum;
// - a year of steps in hourly sums from two overlapping sources (a phone's 15-minute samples all
//   day, a watch's 5-minute samples 07:00-23:00, two minutes out of step), the watch first by
//   the owner's priority, so each moment is counted once.
//
// The daemon side is the real `healthvaultd` (built by `make bench`, found through HEALTHVAULTD)
// on a vault filled through the store, queried by an app with a read grant through HealthVaultKit:
// framing, JSON, the engine's grants and audit entry, the store's SQL. The raw side holds the
// same rows in the store's schema (same key, same cache size as the daemon's readers) and runs one
// hand-written statement per aggregation, UTC days and hours by arithmetic.
import Benchmark
import CSQLCipherBench
import Foundation
import HealthModel
import HealthVaultKit
import VaultCrypto
import VaultEngine
import VaultStore

/// 2025-01-01T00:00:00Z.
let yearStart = Date(timeIntervalSince1970: 1_735_689_600)
let minutesInYear = 525_600

/// One source's rows, as both sides store them.
struct StatisticsRows {
    let type: QuantityTypeIdentifier
    let source: String
    var starts: [Double] = []
    var ends: [Double] = []
    var values: [Double] = []

    static func heartRate() -> StatisticsRows {
        var rows = StatisticsRows(type: .heartRate, source: "org.example.watch")
        let origin = yearStart.timeIntervalSinceReferenceDate
        for minute in 0..<minutesInYear {
            let start = origin + Double(minute) * 60
            rows.starts.append(start)
            rows.ends.append(start + 60)
            rows.values.append(Double(55 + (minute * 7919) % 110))
        }
        return rows
    }

    static func phoneSteps() -> StatisticsRows {
        var rows = StatisticsRows(type: .stepCount, source: "org.example.phone")
        let origin = yearStart.timeIntervalSinceReferenceDate
        for quarter in 0..<(minutesInYear / 15) {
            let start = origin + Double(quarter) * 900
            rows.starts.append(start)
            rows.ends.append(start + 900)
            rows.values.append(Double((quarter * 7) % 400))
        }
        return rows
    }

    static func watchSteps() -> StatisticsRows {
        var rows = StatisticsRows(type: .stepCount, source: "org.example.watch")
        let origin = yearStart.timeIntervalSinceReferenceDate
        for day in 0..<365 {
            for five in 0..<(16 * 12) {
                let start = origin + Double(day) * 86_400 + 7 * 3600 + 120 + Double(five) * 300
                rows.starts.append(start)
                rows.ends.append(start + 300)
                rows.values.append(Double((day + five * 13) % 150))
            }
        }
        return rows
    }

    var samples: [Sample] {
        let revision = SourceRevision(source: Source(bundleIdentifier: source, name: source), version: "1.0")
        return starts.indices.map { index in
            .quantity(
                try! QuantitySample(
                    type: type,
                    quantity: Quantity(values[index], type.canonicalUnit),
                    start: Date(timeIntervalSinceReferenceDate: starts[index]),
                    end: Date(timeIntervalSinceReferenceDate: ends[index]),
                    sourceRevision: revision
                )
            )
        }
    }
}

/// A vault holding the rows, its reader app enrolled with a read grant and a key file, the
/// owner's source priority set; locked, ready for a daemon or an engine.
final class StatisticsVault {
    let root: URL
    let directory: URL
    let keyFile: String
    let passphraseFile: String

    init(_ sets: [StatisticsRows], priority: [String]) async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hv-bench-stats-\(UUID().uuidString)")
        directory = root.appendingPathComponent("vault")
        keyFile = root.appendingPathComponent("reader.key").path
        passphraseFile = root.appendingPathComponent("passphrase").path
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let vault = try Vault.create(
            at: directory,
            passphrase: SecureBytes(utf8: "bench"),
            parameters: .minimumForTesting
        )
        let sampleStore = SampleStore(database: try vault.db())
        for rows in sets {
            let samples = rows.samples
            for chunk in stride(from: 0, to: samples.count, by: 50_000) {
                try sampleStore.save(Array(samples[chunk..<min(chunk + 50_000, samples.count)]))
            }
        }
        let engine = try VaultEngine(vault: vault)
        let key = Ed25519.SigningKey()
        let types = Set(sets.map { ObjectType(SampleType.quantity($0.type)) })
        try await engine.enroll(
            AppRegistration(
                appID: "org.example.reader",
                displayName: "Reader",
                publicKey: key.publicKey,
                readPurpose: "benchmark",
                declaredRead: types
            )
        )
        try await engine.decide(.grant, .read, of: types, for: "org.example.reader")
        for type in Set(sets.map(\.type)) where !priority.isEmpty {
            try await engine.setSourcePriority(priority, for: type)
        }
        await engine.shutdown()
        vault.lock()
        FileManager.default.createFile(
            atPath: keyFile,
            contents: Data((key.seed.withUnsafeBytes { Data($0) }.base64EncodedString() + "\n").utf8),
            attributes: [.posixPermissions: 0o600]
        )
        FileManager.default.createFile(atPath: passphraseFile, contents: Data("bench\n".utf8))
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }
}

/// The vault served by a `healthvaultd` process, and the reader's HealthStore on it.
final class DaemonFixture {
    let vault: StatisticsVault
    let process: Process
    let store: HealthStore

    init(_ vault: StatisticsVault) async throws {
        self.vault = vault
        process = childProcess(
            healthvaultdPath(),
            ["--vault", vault.directory.path, "--passphrase-file", vault.passphraseFile]
        )
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let socket = vault.directory.appendingPathComponent("healthvaultd.sock").path
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        store = try await HealthStore(
            appID: "org.example.reader",
            keyFile: vault.keyFile,
            vaultDirectory: vault.directory.path
        )
    }

    func stop() async {
        await store.close()
        process.terminate()
        process.waitUntilExit()
    }
}

/// The vault opened in-process: the engine alone, without the socket and JSON.
final class EngineFixture {
    let vault: StatisticsVault
    let opened: Vault
    let engine: VaultEngine

    /// `hours: false`: every statistics query computed from the rows, none of the hours kept.
    init(_ vault: StatisticsVault, hours: Bool = true) throws {
        self.vault = vault
        opened = try Vault.open(at: vault.directory, passphrase: SecureBytes(utf8: "bench"))
        engine = try VaultEngine(vault: opened, keepsStatisticsHours: hours)
    }

    func stop() async {
        await engine.shutdown()
        opened.lock()
    }
}

extension RawDatabase {
    /// The rows of several sources, in the store's schema, for the hand-written aggregations.
    func insert(_ sets: [StatisticsRows]) throws {
        try exec(
            """
            INSERT INTO types (code, identifier) VALUES (2, 'HKQuantityTypeIdentifierHeartRate');
            INSERT INTO sources (id, bundle_id) VALUES (2, 'org.example.phone'), (3, 'org.example.watch');
            INSERT INTO units (id, unit) VALUES (2, 'count/min');
            """
        )
        var statement: OpaquePointer?
        let sql = """
            INSERT INTO samples (uuid, type, source_id, revision_id, device_id, start_date, end_date, value,
                given_value, unit_id, parent_id, sync_identifier, sync_version, seq)
            SELECT ?1, ?2, ?3, 1, NULL, ?4, ?5, ?6, ?7, ?8, NULL, NULL, NULL, ?9
            WHERE NOT EXISTS (SELECT 1 FROM samples WHERE uuid = ?1)
            """
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        try exec("BEGIN IMMEDIATE")
        var sequence: Int64 = 0
        for rows in sets {
            let type: Int32 = rows.type == .heartRate ? 2 : 1
            let source: Int32 = rows.source == "org.example.phone" ? 2 : 3
            for index in rows.starts.indices {
                let uuid = withUnsafeBytes(of: UUID().uuid) { Array($0) }
                uuid.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 1, $0.baseAddress, 16, nil) }
                sqlite3_bind_int(statement, 2, type)
                sqlite3_bind_int(statement, 3, source)
                sqlite3_bind_double(statement, 4, rows.starts[index])
                sqlite3_bind_double(statement, 5, rows.ends[index])
                sqlite3_bind_double(statement, 6, rows.values[index])
                sqlite3_bind_double(statement, 7, rows.values[index])
                sqlite3_bind_int(statement, 8, type)
                sequence += 1
                sqlite3_bind_int64(statement, 9, sequence)
                guard sqlite3_step(statement) == SQLITE_DONE else {
                    throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
                }
                sqlite3_reset(statement)
            }
        }
        try exec("COMMIT")
        // The daemon's readers' cache, so both sides decrypt the same pages.
        try exec("PRAGMA cache_size = -16384")
    }

    /// Runs a query to its end; returns the number of rows.
    func rowCount(_ sql: String, _ doubles: [Double]) throws -> Int {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        for (index, value) in doubles.enumerated() { sqlite3_bind_double(statement, Int32(index + 1), value) }
        var rows = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle))) }
            blackHole(sqlite3_column_double(statement, 1))
            rows += 1
        }
        return rows
    }
}

/// Daily time-weighted average, minimum and maximum of heart rate, UTC days from ?1; a sample
/// crossing midnight counts in both days by its time in each.
let rawHeartRateSQL = """
    SELECT d, sum(x * w) / sum(w), min(x), max(x) FROM (
        SELECT CAST(floor((start_date - ?1) / 86400) AS INTEGER) AS d, value AS x,
            min(end_date, ?1 + (floor((start_date - ?1) / 86400) + 1) * 86400) - start_date AS w
        FROM samples WHERE type = 2
        UNION ALL
        SELECT CAST(floor((end_date - ?1) / 86400) AS INTEGER), value,
            end_date - (?1 + floor((end_date - ?1) / 86400) * 86400)
        FROM samples WHERE type = 2 AND end_date > ?1 + floor((end_date - ?1) / 86400) * 86400
            AND floor((end_date - ?1) / 86400) > floor((start_date - ?1) / 86400)
    ) GROUP BY d ORDER BY d
    """

/// Hourly step sums, UTC hours from ?1 for ?2 hours, the watch (source 3) before the phone
/// (source 2): time cut at every sample's start and end and every hour, each piece counted from
/// the first source covering it.
let rawStepsSQL = """
    WITH RECURSIVE hours(h) AS (SELECT 0 UNION ALL SELECT h + 1 FROM hours WHERE h < ?2),
    e(t, r3, c3, r2, c2) AS (
        SELECT start_date, iif(source_id = 3, value / (end_date - start_date), 0), source_id = 3,
            iif(source_id = 2, value / (end_date - start_date), 0), source_id = 2
        FROM samples WHERE type = 1 AND end_date > start_date
        UNION ALL
        SELECT end_date, iif(source_id = 3, -value / (end_date - start_date), 0), -(source_id = 3),
            iif(source_id = 2, -value / (end_date - start_date), 0), -(source_id = 2)
        FROM samples WHERE type = 1 AND end_date > start_date
        UNION ALL SELECT ?1 + h * 3600, 0, 0, 0, 0 FROM hours),
    g AS (SELECT t, sum(r3) AS r3, sum(c3) AS c3, sum(r2) AS r2, sum(c2) AS c2 FROM e GROUP BY t),
    s AS (
        SELECT t, lead(t) OVER w - t AS len, sum(r3) OVER w AS r3, sum(c3) OVER w AS c3,
            sum(r2) OVER w AS r2, sum(c2) OVER w AS c2
        FROM g WINDOW w AS (ORDER BY t ROWS UNBOUNDED PRECEDING))
    SELECT CAST(floor((t - ?1) / 3600) AS INTEGER) AS hour,
        sum(len * CASE WHEN c3 > 0 THEN r3 WHEN c2 > 0 THEN r2 ELSE 0 END)
    FROM s WHERE len > 0 AND (c3 > 0 OR c2 > 0) GROUP BY hour ORDER BY hour
    """

func statisticsBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(60),
        maxIterations: 7
    )
    let heartRateQuery = StatisticsCollectionQueryDescriptor(
        quantityType: .heartRate,
        options: [.discreteAverage, .discreteMin, .discreteMax],
        anchorDate: yearStart,
        intervalComponents: IntervalComponents(day: 1),
        timeZone: "UTC"
    )
    let stepsQuery = StatisticsCollectionQueryDescriptor(
        quantityType: .stepCount,
        options: [.cumulativeSum],
        anchorDate: yearStart,
        intervalComponents: IntervalComponents(hour: 1),
        timeZone: "UTC"
    )
    let origin = yearStart.timeIntervalSinceReferenceDate

    nonisolated(unsafe) var heartDaemon: DaemonFixture?
    Benchmark("Statistics heart rate year daily: daemon", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let collection = try await heartDaemon!.store.statisticsCollection(matching: heartRateQuery)
            precondition(collection.statistics.count == 365)
            blackHole(collection)
        }
    } setup: {
        heartDaemon = try await DaemonFixture(try await StatisticsVault([.heartRate()], priority: []))
    } teardown: {
        await heartDaemon?.stop()
        heartDaemon = nil
    }

    let reader = Caller.app("org.example.reader")
    nonisolated(unsafe) var heartEngine: EngineFixture?
    Benchmark("Statistics heart rate year daily: engine", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await heartEngine!.engine.statisticsCollection(matching: heartRateQuery, as: reader))
        }
    } setup: {
        heartEngine = try EngineFixture(try await StatisticsVault([.heartRate()], priority: []))
    } teardown: {
        await heartEngine?.stop()
        heartEngine = nil
    }

    // The same from the rows, the hours kept unused: what the first query after an import, or
    // any query the hours do not serve, costs (docs/STATISTICS.md, "Hours kept").
    nonisolated(unsafe) var heartRows: EngineFixture?
    Benchmark("Statistics heart rate year daily: engine, from the rows", configuration: configuration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await heartRows!.engine.statisticsCollection(matching: heartRateQuery, as: reader))
        }
    } setup: {
        heartRows = try EngineFixture(try await StatisticsVault([.heartRate()], priority: []), hours: false)
    } teardown: {
        await heartRows?.stop()
        heartRows = nil
    }

    nonisolated(unsafe) var heartRaw: RawDatabase?
    Benchmark("Statistics heart rate year daily: raw SQLCipher", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let rows = try heartRaw!.rowCount(rawHeartRateSQL, [origin])
            precondition(rows == 365)
        }
    } setup: {
        heartRaw = try RawDatabase(key: SecureBytes.random(count: 32))
        try heartRaw!.insert([.heartRate()])
    } teardown: {
        heartRaw = nil
    }

    nonisolated(unsafe) var stepsDaemon: DaemonFixture?
    Benchmark("Statistics steps year hourly two sources: daemon", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let collection = try await stepsDaemon!.store.statisticsCollection(matching: stepsQuery)
            precondition(collection.statistics.count == 8760)
            blackHole(collection)
        }
    } setup: {
        stepsDaemon = try await DaemonFixture(
            try await StatisticsVault(
                [.phoneSteps(), .watchSteps()],
                priority: ["org.example.watch", "org.example.phone"]
            )
        )
    } teardown: {
        await stepsDaemon?.stop()
        stepsDaemon = nil
    }

    nonisolated(unsafe) var stepsEngine: EngineFixture?
    Benchmark("Statistics steps year hourly two sources: engine", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await stepsEngine!.engine.statisticsCollection(matching: stepsQuery, as: reader))
        }
    } setup: {
        stepsEngine = try EngineFixture(
            try await StatisticsVault(
                [.phoneSteps(), .watchSteps()],
                priority: ["org.example.watch", "org.example.phone"]
            )
        )
    } teardown: {
        await stepsEngine?.stop()
        stepsEngine = nil
    }

    nonisolated(unsafe) var stepsRows: EngineFixture?
    Benchmark("Statistics steps year hourly two sources: engine, from the rows", configuration: configuration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await stepsRows!.engine.statisticsCollection(matching: stepsQuery, as: reader))
        }
    } setup: {
        stepsRows = try EngineFixture(
            try await StatisticsVault(
                [.phoneSteps(), .watchSteps()],
                priority: ["org.example.watch", "org.example.phone"]
            ),
            hours: false
        )
    } teardown: {
        await stepsRows?.stop()
        stepsRows = nil
    }

    // Most of what the socket adds beyond the engine: the answer's JSON, written by the daemon
    // and read by HealthVaultKit (by hand: JSONWriter, JSONReader), and, for comparison, the
    // same through the generic Codable coders.
    nonisolated(unsafe) var stepsAnswer: StatisticsCollection?
    let answerSetup: @Sendable () async throws -> Void = {
        guard stepsAnswer == nil else { return }
        let fixture = try EngineFixture(
            try await StatisticsVault(
                [.phoneSteps(), .watchSteps()],
                priority: ["org.example.watch", "org.example.phone"]
            )
        )
        stepsAnswer = try await fixture.engine.statisticsCollection(matching: stepsQuery, as: reader)
        await fixture.stop()
    }
    Benchmark("Statistics steps year hourly two sources: JSON round trip", configuration: configuration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let data = try JSONWriter.data(stepsAnswer!, capacity: 1 << 16)
            blackHole(try JSONReader.read(StatisticsCollection.self, from: data))
        }
    } setup: {
        try await answerSetup()
    }
    Benchmark("Statistics steps year hourly two sources: JSON round trip, Codable", configuration: configuration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let data = try HealthJSON.encode(stepsAnswer!)
            blackHole(try HealthJSON.decode(StatisticsCollection.self, from: data))
        }
    } setup: {
        try await answerSetup()
    }

    nonisolated(unsafe) var stepsRaw: RawDatabase?
    Benchmark("Statistics steps year hourly two sources: raw SQLCipher", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let rows = try stepsRaw!.rowCount(rawStepsSQL, [origin, 8760])
            precondition(rows == 8760)
        }
    } setup: {
        stepsRaw = try RawDatabase(key: SecureBytes.random(count: 32))
        try stepsRaw!.insert([.phoneSteps(), .watchSteps()])
    } teardown: {
        stepsRaw = nil
    }
}

/// The environment of the daemons and commands the benchmarks start: this process's, without
/// package-benchmark's malloc counter (`libMallocInterposerSwift`), which it preloads into the
/// benchmark's process with `LD_PRELOAD`. Inherited, it would count every allocation of the daemon
/// and of the commands too, and they would be measured as no one runs them.
let childEnvironment: [String: String] = {
    var environment = ProcessInfo.processInfo.environment
    let kept = (environment["LD_PRELOAD"] ?? "").split(whereSeparator: { $0 == ":" || $0 == " " })
        .filter { !$0.contains("MallocInterposer") }
    environment["LD_PRELOAD"] = kept.isEmpty ? nil : kept.joined(separator: ":")
    return environment
}()

/// A daemon or command for a benchmark to run: `executable` with `arguments`, in
/// ``childEnvironment``.
func childProcess(_ executable: String, _ arguments: [String]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.environment = childEnvironment
    process.arguments = arguments
    return process
}

/// The `healthvaultd` the daemon benchmarks run: HEALTHVAULTD (`make bench` sets it), else the
/// checkout's release build.
func healthvaultdPath() -> String {
    ProcessInfo.processInfo.environment["HEALTHVAULTD"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/release/healthvaultd").path
}
