// What apps feel through the socket, end to end (issue 25): the real `healthvaultd` (HEALTHVAULTD,
// built by `make bench`) and HealthVaultKit, beside raw SQLCipher doing the same work with the
// store's schema and indexes (Schema.statements) and settings (synchronous=FULL) in the same run.
// scripts/bench-ratios.py prints the ratios (socket_section); docs/PERFORMANCE.md explains them.
//
// - Saves: HEALTHVAULT_BENCH_SAVES (100,000) step samples saved by one app as batches of 1, 100
//   and 1,000 per call, against raw inserts in one transaction per batch of the same size. The
//   single saves' latency per call as a custom metric (p50, p99).
// - Sample queries: 100 and 10,000 step samples of a day's window (strict start and end) sorted by
//   start, in a vault of HEALTHVAULT_BENCH_ANCHORED (1,000,000) step samples, against the same
//   rows read with one statement through the (type, start) index, bounded by the window on both
//   sides (as the store's own SQL is since schema 17; docs/PERFORMANCE.md).
// - Anchored query: paging through all of those samples with a limit of 10,000 a call, against a
//   raw keyset scan through the (type, seq) index 10,000 rows at a time.
// - The sample queries and the anchored paging through the store alone (`: store`), in this
//   process on the same vault: the SQL and the building of the samples, without the engine, the
//   audit entry, JSON and the socket.
// - Observer: the time from one app's save of one sample to another app's observer update.
// - Many clients: 64 connections of 16 enrolled apps doing mixed saves and queries for
//   HEALTHVAULT_BENCH_CLIENTS_SECONDS (30) on a vault of HEALTHVAULT_BENCH_CLIENTS_FILL
//   (1,000,000) samples of history: calls, each call's latency, the daemon's peak RSS
//   (VmHWM), then the owner's `healthvault audit export` and `audit verify` of the whole log.
// - Start-up: from spawning `healthvaultd` to an app's first answer on a vault of
//   HEALTHVAULT_BENCH_STARTUP_SAMPLES (1,000,000) samples and as many audit entries, built once
//   and kept under Benchmarks/.build/startup-bench.
//
// Vaults are made with the testing Argon2id parameters: the passphrase's derivation is not what
// is measured.
import AuditLog
import Benchmark
import CSQLCipherBench
import Foundation
import HealthModel
import HealthVaultKit
import VaultCrypto
import VaultEngine
import VaultStore

/// An environment variable's whole number, or `fallback`.
func benchEnvironment(_ name: String, _ fallback: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
}

let socketSaves = benchEnvironment("HEALTHVAULT_BENCH_SAVES", 100_000)
let socketQueryVault = benchEnvironment("HEALTHVAULT_BENCH_ANCHORED", 1_000_000)
let socketClientSeconds = benchEnvironment("HEALTHVAULT_BENCH_CLIENTS_SECONDS", 30)
/// The samples of history in the 64 clients' vault (the issue's goal is stated at 1,000,000).
let socketClientsFill = benchEnvironment("HEALTHVAULT_BENCH_CLIENTS_FILL", 1_000_000)
/// Where the 64 clients' benchmark writes each call's end, kind and latency, one line each
/// (`scripts/bench-trace.py` reads it), when set.
let socketClientsTrace = ProcessInfo.processInfo.environment["HEALTHVAULT_BENCH_CLIENTS_TRACE"]
/// The kinds of call the 64 clients make, by name (all of `MixedCall` by default): a run of one
/// kind alone says what that kind costs under load.
let socketClientCalls: [MixedCall] = {
    let names = ProcessInfo.processInfo.environment["HEALTHVAULT_BENCH_CLIENTS_CALLS"]?.split(separator: ",")
    guard let names else { return MixedCall.turns }
    let chosen = Set(
        names.map { name in
            guard let call = MixedCall(rawValue: String(name)) else {
                fatalError("HEALTHVAULT_BENCH_CLIENTS_CALLS: unknown call \(name); known: \(MixedCall.allCases)")
            }
            return call
        }
    )
    return MixedCall.turns.filter(chosen.contains)
}()
let startupSamples = benchEnvironment("HEALTHVAULT_BENCH_STARTUP_SAMPLES", 1_000_000)
let socketTypes: Set<ObjectType> = [
    ObjectType(SampleType.quantity(.stepCount)), ObjectType(SampleType.quantity(.heartRate)),
]

/// A vault for the socket benchmarks: apps enrolled with share and read grants on step count and
/// heart rate and their key files, optionally `fill` step samples of `org.example.history` a minute
/// apart; served by `healthvaultd` once `start()` is called.
final class SocketVault: @unchecked Sendable {
    let root: URL
    let directory: URL
    let passphraseFile: String
    var keys: [String: String] = [:]
    var process: Process?
    /// Removed with the fixture (false for the cached start-up vault).
    let temporary: Bool

    /// A new vault in a temporary directory.
    convenience init(apps: [String], fill: Int = 0) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hv-bench-socket-\(UUID().uuidString)")
        try await self.init(root: root, apps: apps, fill: fill, auditEntries: 0, temporary: true)
    }

    /// A vault under `root` (made there unless it is already complete), with `auditEntries` more
    /// entries in its log than its own making wrote.
    init(root: URL, apps: [String], fill: Int, auditEntries: Int, temporary: Bool) async throws {
        self.root = root
        self.temporary = temporary
        directory = root.appendingPathComponent("vault")
        passphraseFile = root.appendingPathComponent("passphrase").path
        for app in apps { keys[app] = root.appendingPathComponent("\(app).key").path }
        let complete = root.appendingPathComponent("complete")
        if FileManager.default.fileExists(atPath: complete.path) { return }
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let vault = try Vault.create(
            at: directory,
            passphrase: SecureBytes(utf8: "bench"),
            parameters: .minimumForTesting
        )
        let store = SampleStore(database: try vault.db())
        for chunk in stride(from: 0, to: fill, by: 50_000) {
            // Random UUIDs, as a history imported from Apple Health has (an import's UUIDs are
            // keyed hashes of the records' content): the apps' time-ordered ones go among them.
            let samples = makeSamples(
                min(50_000, fill - chunk),
                source: "org.example.history",
                offset: chunk,
                uuid: UUID.init
            )
            try store.save(samples)
        }
        for chunk in stride(from: 0, to: auditEntries, by: 100_000) {
            try vault.db().write { db in
                let log = vault.auditLog(in: db)
                for entry in makeEntries(min(100_000, auditEntries - chunk), offset: chunk) { try log.append(entry) }
            }
            try vault.signAuditCheckpoint()
        }
        let engine = try VaultEngine(vault: vault)
        for app in apps {
            let key = Ed25519.SigningKey()
            try await engine.enroll(
                AppRegistration(
                    appID: app,
                    displayName: app,
                    publicKey: key.publicKey,
                    readPurpose: "benchmark",
                    sharePurpose: "benchmark",
                    declaredRead: socketTypes,
                    declaredShare: Set(socketTypes.compactMap(\.sampleType))
                )
            )
            try await engine.decide(.grant, .share, of: socketTypes, for: app)
            try await engine.decide(.grant, .read, of: socketTypes, for: app)
            FileManager.default.createFile(
                atPath: keys[app]!,
                contents: Data((key.seed.withUnsafeBytes { Data($0) }.base64EncodedString() + "\n").utf8),
                attributes: [.posixPermissions: 0o600]
            )
        }
        await engine.shutdown()
        vault.lock()
        FileManager.default.createFile(atPath: passphraseFile, contents: Data("bench\n".utf8))
        FileManager.default.createFile(atPath: complete.path, contents: Data())
    }

    /// Spawns `healthvaultd` on the vault and waits for its socket. The request budget is raised
    /// far above its default of 1,000 a second a connection: one app's single saves, one after
    /// another, come faster than that since schema 21, and the benchmark measures what the daemon
    /// can do, not its budget (docs/PERFORMANCE.md, "How it is measured").
    func start() throws {
        let process = childProcess(
            healthvaultdPath(),
            [
                "--vault", directory.path, "--passphrase-file", passphraseFile, "--max-requests-per-second", "1000000",
            ]
        )
        let log = root.appendingPathComponent("healthvaultd.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        self.process = process
        let socket = directory.appendingPathComponent("healthvaultd.sock").path
        while !FileManager.default.fileExists(atPath: socket) {
            guard process.isRunning else {
                let message = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw BenchError.sqlite("healthvaultd exited: \(message)")
            }
            usleep(1_000)
        }
    }

    /// A connection of `app` (enrolled with its key file).
    func connect(_ app: String) async throws -> HealthStore {
        try await HealthStore(appID: app, keyFile: keys[app]!, vaultDirectory: directory.path)
    }

    /// The daemon's peak resident memory so far, in KiB (VmHWM).
    func daemonPeakKB() -> Int {
        guard let process else { return 0 }
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Runs the owner's `healthvault ARGUMENTS --vault … --passphrase-file …` (without the two
    /// for a command that needs no vault, `audit verify`); its standard output, or throws when it
    /// fails.
    func owner(_ arguments: [String], vault: Bool = true) throws -> String {
        let command = childProcess(
            healthvaultPath(),
            arguments + (vault ? ["--vault", directory.path, "--passphrase-file", passphraseFile] : [])
        )
        let output = Pipe()
        let errors = Pipe()
        command.standardOutput = output
        command.standardError = errors
        try command.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        command.waitUntilExit()
        guard command.terminationStatus == 0 else {
            throw BenchError.sqlite("healthvault \(arguments.joined(separator: " ")): \(message)")
        }
        return text
    }

    /// Stops the daemon (SIGTERM) and waits for it.
    func stopDaemon() {
        guard let process else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        self.process = nil
    }

    func stop() {
        stopDaemon()
        if temporary { try? FileManager.default.removeItem(at: root) }
    }
}

let socketApp = "org.example.bench"

/// `count` step samples of `org.example.bench` a minute apart, from `offset` minutes after the
/// benchmarks' start, in batches of `batch`.
func socketBatches(_ count: Int, batch: Int, offset: Int) -> [[Sample]] {
    let samples = makeSamples(count, source: socketApp, offset: offset)
    return stride(from: 0, to: count, by: batch).map { Array(samples[$0..<min($0 + batch, count)]) }
}

func socketBenchmarks() {
    func metric(_ name: String) -> BenchmarkMetric { .custom(name, polarity: .prefersSmaller, useScalingFactor: false) }

    // MARK: Saves

    for batch in [1, 100, 1_000] {
        let configuration = Benchmark.Configuration(
            metrics: batch == 1
                ? [.wallClock, metric("samples"), metric("save latency")] : [.wallClock, metric("samples")],
            timeUnits: .milliseconds,
            warmupIterations: 0,
            maxDuration: .seconds(batch == 1 ? 60 : 120),
            maxIterations: batch == 1 ? 1 : 3
        )
        nonisolated(unsafe) var fixture: SocketVault?
        nonisolated(unsafe) var store: HealthStore?
        nonisolated(unsafe) var saved = 0
        Benchmark("Socket saves: daemon, batches of \(batch)", configuration: configuration) { benchmark in
            let batches = socketBatches(socketSaves, batch: batch, offset: saved)
            saved += socketSaves
            benchmark.startMeasurement()
            if batch == 1 {
                for samples in batches {
                    let time = try await nanoseconds { try await store!.save(samples) }
                    benchmark.measurement(metric("save latency"), time)
                }
            } else {
                for samples in batches { try await store!.save(samples) }
            }
            benchmark.stopMeasurement()
            benchmark.measurement(metric("samples"), socketSaves)
        } setup: {
            fixture = try await SocketVault(apps: [socketApp])
            try fixture!.start()
            store = try await fixture!.connect(socketApp)
        } teardown: {
            await store?.close()
            fixture?.stop()
            fixture = nil
        }

        nonisolated(unsafe) var raw: RawDatabase?
        nonisolated(unsafe) var sequence = 0
        Benchmark("Socket saves: raw SQLCipher, batches of \(batch)", configuration: configuration) { benchmark in
            let rows = RawRows(count: socketSaves)
            benchmark.startMeasurement()
            for start in stride(from: 0, to: socketSaves, by: batch) {
                let time = try await nanoseconds {
                    try raw!.insert(
                        rows,
                        range: start..<min(start + batch, socketSaves),
                        firstSequence: sequence + start
                    )
                }
                if batch == 1 { benchmark.measurement(metric("save latency"), time) }
            }
            benchmark.stopMeasurement()
            sequence += socketSaves
            benchmark.measurement(metric("samples"), socketSaves)
        } setup: {
            raw = try RawDatabase(key: SecureBytes.random(count: 32))
        } teardown: {
            raw = nil
        }
    }

    // MARK: Sample and anchored queries

    let queryConfiguration = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(20),
        maxIterations: 200
    )
    let origin = Date(timeIntervalSinceReferenceDate: 700_000_000)
    /// A window of `count` minute samples in the middle of the vault (or its start when small).
    func window(_ count: Int) -> (Date, Date) {
        let first = max(0, min(socketQueryVault / 2, socketQueryVault - count))
        let start = origin.addingTimeInterval(Double(first) * 60)
        return (start, start.addingTimeInterval(Double(count) * 60))
    }
    nonisolated(unsafe) var queryFixture: SocketVault?
    nonisolated(unsafe) var queryStore: HealthStore?
    let serveQueryVault: @Sendable () async throws -> Void = {
        queryFixture = try await SocketVault(apps: [socketApp], fill: socketQueryVault)
        try queryFixture!.start()
        queryStore = try await queryFixture!.connect(socketApp)
    }
    let stopQueryVault: @Sendable () async throws -> Void = {
        await queryStore?.close()
        queryFixture?.stop()
        queryFixture = nil
    }
    nonisolated(unsafe) var rawQuery: RawDatabase?
    let fillRaw: @Sendable () throws -> Void = {
        rawQuery = try RawDatabase(key: SecureBytes.random(count: 32))
        for chunk in stride(from: 0, to: socketQueryVault, by: 100_000) {
            let count = min(100_000, socketQueryVault - chunk)
            try rawQuery!.insert(RawRows(count: count, offset: chunk), range: 0..<count, firstSequence: chunk)
        }
        // The daemon's readers' cache, so both sides decrypt the same pages.
        try rawQuery!.exec("PRAGMA cache_size = -16384")
    }

    /// The sample query of `count` samples in the middle of the vault, sorted by start.
    func windowQuery(_ count: Int) -> SampleQueryDescriptor {
        let (start, end) = window(count)
        return SampleQueryDescriptor(
            predicates: [
                .quantitySample(
                    type: .stepCount,
                    predicate: .samples(withStart: start, end: end, options: [.strictStartDate, .strictEndDate])
                )
            ],
            sortDescriptors: [SampleSortDescriptor(.startDate, order: .ascending)]
        )
    }

    for count in [100, 10_000] {
        let (start, end) = window(count)
        let query = windowQuery(count)
        let expected = min(count, socketQueryVault)
        Benchmark("Socket sample query \(count): daemon", configuration: queryConfiguration) { benchmark in
            for _ in benchmark.scaledIterations {
                let samples = try await queryStore!.samples(matching: query)
                precondition(samples.count == expected, "\(samples.count) samples, not \(expected)")
                blackHole(samples)
            }
        } setup: {
            try await serveQueryVault()
        } teardown: {
            try await stopQueryVault()
        }
        Benchmark("Socket sample query \(count): raw SQLCipher", configuration: queryConfiguration) { benchmark in
            for _ in benchmark.scaledIterations {
                let rows = try rawQuery!.sampleRows(
                    "WHERE type = 1 AND start_date >= ? AND start_date <= ? AND end_date <= ? ORDER BY start_date",
                    [
                        start.timeIntervalSinceReferenceDate, end.timeIntervalSinceReferenceDate,
                        end.timeIntervalSinceReferenceDate,
                    ]
                )
                precondition(rows == expected, "\(rows) rows, not \(expected)")
            }
        } setup: {
            try fillRaw()
        } teardown: {
            rawQuery = nil
        }
    }

    let pageConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, metric("rows")],
        timeUnits: .milliseconds,
        warmupIterations: 0,
        maxDuration: .seconds(60),
        maxIterations: 3
    )
    let pageLimit = 10_000
    Benchmark("Socket anchored query paging: daemon", configuration: pageConfiguration) { benchmark in
        var anchor: QueryAnchor?
        var rows = 0
        while true {
            let page = try await queryStore!.anchoredObjects(
                matching: AnchoredObjectQueryDescriptor(
                    predicates: [.quantitySample(type: .stepCount)],
                    anchor: anchor,
                    limit: pageLimit
                )
            )
            if page.addedSamples.isEmpty { break }
            rows += page.addedSamples.count
            anchor = page.newAnchor
        }
        precondition(rows == socketQueryVault, "\(rows) rows, not \(socketQueryVault)")
        benchmark.measurement(metric("rows"), rows)
    } setup: {
        try await serveQueryVault()
    } teardown: {
        try await stopQueryVault()
    }
    Benchmark("Socket anchored query paging: raw SQLCipher", configuration: pageConfiguration) { benchmark in
        var position: Double = 0
        var rows = 0
        while true {
            let (count, last) = try rawQuery!.keysetPage(after: position, limit: pageLimit)
            if count == 0 { break }
            rows += count
            position = last
        }
        precondition(rows == socketQueryVault, "\(rows) rows, not \(socketQueryVault)")
        benchmark.measurement(metric("rows"), rows)
    } setup: {
        try fillRaw()
    } teardown: {
        rawQuery = nil
    }

    // The same queries in the benchmark's process, through the store alone (SampleStore on the
    // vault's database, the scope the daemon gives the app): the SQL and the building of the
    // samples, without the engine, the audit entry, JSON and the socket.
    nonisolated(unsafe) var storeVault: Vault?
    let openStoreVault: @Sendable () async throws -> Void = {
        queryFixture = try await SocketVault(apps: [socketApp], fill: socketQueryVault)
        storeVault = try Vault.open(at: queryFixture!.directory, passphrase: SecureBytes(utf8: "bench"))
    }
    let closeStoreVault: @Sendable () async throws -> Void = {
        storeVault?.lock()
        storeVault = nil
        queryFixture?.stop()
        queryFixture = nil
    }
    let storeScope = ReadScope.app(socketApp, readableTypes: [.quantity(.stepCount), .quantity(.heartRate)])
    for count in [100, 10_000] {
        let query = windowQuery(count)
        let expected = min(count, socketQueryVault)
        Benchmark("Socket sample query \(count): store", configuration: queryConfiguration) { benchmark in
            let store = SampleStore(database: try storeVault!.db())
            for _ in benchmark.scaledIterations {
                let samples = try store.samples(matching: query, scope: storeScope)
                precondition(samples.count == expected, "\(samples.count) samples, not \(expected)")
                blackHole(samples)
            }
        } setup: {
            try await openStoreVault()
        } teardown: {
            try await closeStoreVault()
        }
    }
    Benchmark("Socket anchored query paging: store", configuration: pageConfiguration) { benchmark in
        let store = SampleStore(database: try storeVault!.db())
        let query = AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: .stepCount)], limit: pageLimit)
        var position: Int64 = 0
        var rows = 0
        while true {
            let page = try store.database.read {
                try store.changes(matching: query, after: position, scope: storeScope, in: $0)
            }
            if page.added.isEmpty { break }
            rows += page.added.count
            position = page.position
        }
        precondition(rows == socketQueryVault, "\(rows) rows, not \(socketQueryVault)")
        benchmark.measurement(metric("rows"), rows)
    } setup: {
        try await openStoreVault()
    } teardown: {
        try await closeStoreVault()
    }

    // MARK: Observer

    final class ObserverFixture: @unchecked Sendable {
        let vault: SocketVault
        let writer: HealthStore
        let reader: HealthStore
        let observer: ObserverQuery
        var updates: ObserverQuery.Updates.AsyncIterator
        var written = 0

        init() async throws {
            vault = try await SocketVault(apps: ["org.example.writer", "org.example.watcher"])
            try vault.start()
            writer = try await vault.connect("org.example.writer")
            reader = try await vault.connect("org.example.watcher")
            observer = try await reader.observe([.quantity(.stepCount)])
            updates = observer.updates.makeAsyncIterator()
        }

        /// One save by the writer, timed until the watcher's update.
        func tick() async throws -> Int {
            written += 1
            let sample = makeSamples(1, source: "org.example.writer", offset: written)
            return try await nanoseconds {
                try await writer.save(sample)
                _ = await updates.next()
            }
        }

        func stop() async {
            await writer.close()
            await reader.close()
            vault.stop()
        }
    }
    nonisolated(unsafe) var observerFixture: ObserverFixture?
    Benchmark(
        "Socket save to observer update",
        configuration: Benchmark.Configuration(
            metrics: [metric("save to update")],
            timeUnits: .microseconds,
            warmupIterations: 10,
            maxDuration: .seconds(30),
            maxIterations: 1_000
        )
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            benchmark.measurement(metric("save to update"), try await observerFixture!.tick())
        }
    } setup: {
        observerFixture = try await ObserverFixture()
    } teardown: {
        await observerFixture?.stop()
        observerFixture = nil
    }

    // MARK: Many clients

    Benchmark(
        "Socket 64 clients mixed",
        configuration: Benchmark.Configuration(
            metrics: [
                metric("calls"), metric("call latency"), metric("save latency"), metric("query latency"),
                metric("daemon peak RSS MB"), metric("audit entries verified"), metric("calls beyond the log"),
                metric("errors"), metric("seconds"),
            ] + MixedCall.allCases.map { metric($0.latencyMetric) },
            timeUnits: .microseconds,
            warmupIterations: 0,
            maxDuration: .seconds(socketClientSeconds * 3 + 120),
            maxIterations: 1
        )
    ) { benchmark in
        let apps = (0..<16).map { "org.example.client\($0)" }
        let fixture = try await SocketVault(apps: apps, fill: socketClientsFill)
        defer { fixture.stop() }
        try fixture.start()
        var stores: [HealthStore] = []
        for index in 0..<64 { stores.append(try await fixture.connect(apps[index % apps.count])) }
        let began = ContinuousClock.now
        let deadline = began + .seconds(socketClientSeconds)
        let results = try await withThrowingTaskGroup(of: ClientTally.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask { try await mixedClient(store, index: index, began: began, until: deadline) }
            }
            var all = ClientTally()
            for try await tally in group { all.merge(tally) }
            return all
        }
        for store in stores { await store.close() }
        if let path = socketClientsTrace {
            let lines = results.trace.sorted { $0.end < $1.end }.map { "\($0.end) \($0.kind.rawValue) \($0.latency)\n" }
            try lines.joined().write(toFile: path, atomically: true, encoding: .utf8)
        }
        for time in results.saves {
            benchmark.measurement(metric("save latency"), time)
            benchmark.measurement(metric("call latency"), time)
        }
        for time in results.queries {
            benchmark.measurement(metric("query latency"), time)
            benchmark.measurement(metric("call latency"), time)
        }
        for (kind, times) in results.byKind {
            for time in times { benchmark.measurement(metric(kind.latencyMetric), time) }
        }
        benchmark.measurement(metric("calls"), results.saves.count + results.queries.count)
        benchmark.measurement(metric("errors"), results.errors)
        benchmark.measurement(metric("seconds"), socketClientSeconds)
        benchmark.measurement(metric("daemon peak RSS MB"), fixture.daemonPeakKB() / 1024)
        // The whole log, exported by the owner and verified offline against the vault's key.
        let export = fixture.root.appendingPathComponent("export").path
        _ = try fixture.owner(["audit", "export", export])
        let verdict = try fixture.owner(
            [
                "audit", "verify", export, "--key", fixture.directory.appendingPathComponent("audit-key.pub").path,
                "--json",
            ],
            vault: false
        )
        let object = try JSONSerialization.jsonObject(with: Data(verdict.utf8)) as? [String: Any]
        let entries = (object?["entries"] as? Int) ?? 0
        let verified = object?["verdict"] as? String == "verified"
        benchmark.measurement(metric("audit entries verified"), verified ? entries : 0)
        // Counted here: the benchmark's table prints counts of 10,000 and more in whole thousands,
        // too coarse to compare the entries with the calls.
        let calls = results.saves.count + results.queries.count
        benchmark.measurement(metric("calls beyond the log"), verified ? max(0, calls - entries) : calls)
    }

    // MARK: Start-up

    Benchmark(
        "Socket start-up: 1M samples, 1M audit entries",
        configuration: Benchmark.Configuration(
            metrics: [.wallClock],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(60),
            maxIterations: 5
        )
    ) { benchmark in
        let fixture = try await startupVault()
        benchmark.startMeasurement()
        try fixture.start()
        let store = try await fixture.connect(socketApp)
        let first = try await store.samples(
            matching: SampleQueryDescriptor(predicates: [.quantitySample(type: .stepCount)], limit: 1)
        )
        benchmark.stopMeasurement()
        precondition(first.count == 1)
        await store.close()
        fixture.stopDaemon()
    }
}

/// The start-up benchmark's vault of HEALTHVAULT_BENCH_STARTUP_SAMPLES samples and as many audit
/// entries, made on first use under Benchmarks/.build/startup-bench and kept for later runs.
func startupVault() async throws -> SocketVault {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/startup-bench/vault-\(startupSamples)")
    return try await SocketVault(
        root: root,
        apps: [socketApp],
        fill: startupSamples,
        auditEntries: startupSamples,
        temporary: false
    )
}

/// One client's calls: nanoseconds per save and per query, and per kind of call, and the calls
/// that failed.
struct ClientTally: Sendable {
    var saves: [Int] = []
    var queries: [Int] = []
    var byKind: [MixedCall: [Int]] = [:]
    var errors = 0

    /// Each call when it ended (microseconds since `start`), its kind and its latency
    /// (microseconds), kept only for `HEALTHVAULT_BENCH_CLIENTS_TRACE`.
    var trace: [(end: Int, kind: MixedCall, latency: Int)] = []
    let start: ContinuousClock.Instant

    init(start: ContinuousClock.Instant = .now) { self.start = start }

    mutating func record(_ kind: MixedCall, _ time: Int) {
        if socketClientsTrace != nil {
            let end = (ContinuousClock.now - start).components
            let micros = Int(end.seconds) * 1_000_000 + Int(end.attoseconds / 1_000_000_000_000)
            trace.append((micros, kind, time / 1000))
        }
        if kind == .save { saves.append(time) } else { queries.append(time) }
        byKind[kind, default: []].append(time)
    }

    mutating func merge(_ other: ClientTally) {
        saves += other.saves
        queries += other.queries
        byKind.merge(other.byKind, uniquingKeysWith: +)
        errors += other.errors
        trace += other.trace
    }
}

/// The calls of the 64 clients' mix.
enum MixedCall: String, CaseIterable {
    /// A save of 10 step samples.
    case save
    /// A sample query of the last hour the client wrote (10 to 60 samples), newest first; in a
    /// cycle without saves (`HEALTHVAULT_BENCH_CLIENTS_CALLS`), an hour of the history (60).
    case hour
    /// A sample query of a day of the pre-filled history (1,440 samples), oldest first.
    case day
    /// An anchored query of 100 from the client's last anchor.
    case anchored
    /// A statistics query of a day's steps (sum).
    case statistics

    /// One client's turns, in order: 3 saves and 4 queries in 7 calls.
    static let turns: [MixedCall] = [.save, .hour, .save, .day, .anchored, .save, .statistics]

    /// The custom metric of this kind's latency in the many clients' benchmark.
    var latencyMetric: String { "latency: \(rawValue)" }
}

/// One of the 64 clients until `deadline`, making the calls of `socketClientCalls` in turn,
/// beginning at its own place in the turns (`index`): at any moment the calls in flight are of
/// every kind, as independent apps' calls are. Begun all at the same place, the clients move
/// through the turns together (each call waits for the others' calls ahead of it, so they stay in
/// that order): 64 days of history at once, then 64 anchored queries waiting behind them, and
/// each call's latency is the cost of one kind 64 times over (docs/PERFORMANCE.md, "The many
/// clients in step").
func mixedClient(
    _ store: HealthStore,
    index: Int,
    began: ContinuousClock.Instant,
    until deadline: ContinuousClock.Instant
) async throws -> ClientTally {
    var tally = ClientTally(start: began)
    var anchor: QueryAnchor?
    var written = 0
    let origin = Date(timeIntervalSinceReferenceDate: 700_000_000)
    // Each client writes its own minutes, after the pre-filled history.
    let base = socketClientsFill + 100_000 + index * 1_000_000
    var turn = index
    // A client whose cycle saves nothing reads an hour of the history for its hour, its own one,
    // so that the hour's query alone is not an empty answer.
    let hourEnd = socketClientCalls.contains(.save) ? nil : socketClientsFill - index * 60
    while ContinuousClock.now < deadline {
        turn += 1
        let kind = socketClientCalls[turn % socketClientCalls.count]
        do {
            switch kind {
            case .save:
                let samples = makeSamples(10, source: "org.example.client", offset: base + written)
                written += 10
                tally.record(kind, try await nanoseconds { try await store.save(samples) })
            case .hour:
                let end = origin.addingTimeInterval(Double(hourEnd ?? base + written) * 60)
                let query = SampleQueryDescriptor(
                    predicates: [
                        .quantitySample(
                            type: .stepCount,
                            predicate: .samples(withStart: end.addingTimeInterval(-3600), end: end)
                        )
                    ],
                    sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)]
                )
                tally.record(kind, try await nanoseconds { blackHole(try await store.samples(matching: query)) })
            case .day:
                let day = origin.addingTimeInterval(Double(turn % 60) * 86_400)
                let query = SampleQueryDescriptor(
                    predicates: [
                        .quantitySample(
                            type: .stepCount,
                            predicate: .samples(withStart: day, end: day.addingTimeInterval(86_400))
                        )
                    ],
                    sortDescriptors: [SampleSortDescriptor(.startDate, order: .ascending)]
                )
                tally.record(kind, try await nanoseconds { blackHole(try await store.samples(matching: query)) })
            case .anchored:
                let query = AnchoredObjectQueryDescriptor(
                    predicates: [.quantitySample(type: .stepCount)],
                    anchor: anchor,
                    limit: 100
                )
                tally.record(
                    kind,
                    try await nanoseconds { anchor = try await store.anchoredObjects(matching: query).newAnchor }
                )
            case .statistics:
                let day = origin.addingTimeInterval(Double(turn % 60) * 86_400)
                let query = StatisticsQueryDescriptor(
                    quantityType: .stepCount,
                    predicate: .samples(withStart: day, end: day.addingTimeInterval(86_400)),
                    options: [.cumulativeSum]
                )
                tally.record(kind, try await nanoseconds { blackHole(try await store.statistics(matching: query)) })
            }
        } catch {
            tally.errors += 1
        }
    }
    return tally
}

extension RawDatabase {
    /// Inserts `range` of `rows` in one transaction with one prepared statement, as the store
    /// writes them, sequence numbers from `firstSequence + 1`, the change counter moved.
    func insert(_ rows: RawRows, range: Range<Int>, firstSequence: Int) throws {
        var statement: OpaquePointer?
        let sql = """
            INSERT INTO samples (uuid, type, source_id, revision_id, device_id, start_date, end_date, value,
                given_value, unit_id, parent_id, sync_identifier, sync_version, seq)
            SELECT ?1, 1, 1, 1, NULL, ?2, ?3, ?4, ?5, 1, NULL, NULL, NULL, ?6
            WHERE NOT EXISTS (SELECT 1 FROM samples WHERE uuid = ?1)
            """
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        try exec("BEGIN IMMEDIATE")
        for index in range {
            rows.uuids[index].withUnsafeBytes { _ = sqlite3_bind_blob(statement, 1, $0.baseAddress, 16, nil) }
            sqlite3_bind_double(statement, 2, rows.starts[index])
            sqlite3_bind_double(statement, 3, rows.starts[index] + 60)
            sqlite3_bind_double(statement, 4, rows.values[index])
            sqlite3_bind_double(statement, 5, rows.values[index])
            sqlite3_bind_int64(statement, 6, Int64(firstSequence + index + 1))
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
            }
            sqlite3_reset(statement)
        }
        try exec(
            "UPDATE counters SET value = \(firstSequence + range.upperBound) WHERE name = 'change_sequence'; COMMIT"
        )
    }

    /// Reads every column an answer's sample is made of for the rows `clause` selects; returns
    /// how many.
    func sampleRows(_ clause: String, _ doubles: [Double]) throws -> Int {
        var statement: OpaquePointer?
        let sql =
            "SELECT uuid, type, source_id, revision_id, start_date, end_date, value, unit_id, seq FROM samples "
            + clause
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        for (index, value) in doubles.enumerated() { sqlite3_bind_double(statement, Int32(index + 1), value) }
        return try readSampleRows(statement).count
    }

    /// One page of a keyset scan in change order: the rows after `position`, at most `limit`;
    /// how many and the last one's sequence number.
    func keysetPage(after position: Double, limit: Int) throws -> (Int, Double) {
        var statement: OpaquePointer?
        let sql = """
            SELECT uuid, type, source_id, revision_id, start_date, end_date, value, unit_id, seq FROM samples
            WHERE type = 1 AND seq > ? ORDER BY seq LIMIT ?
            """
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_double(statement, 1, position)
        sqlite3_bind_int64(statement, 2, Int64(limit))
        return try readSampleRows(statement)
    }

    /// Steps through the rows, reading each column; (rows, the last row's sequence number).
    private func readSampleRows(_ statement: OpaquePointer?) throws -> (count: Int, last: Double) {
        var rows = 0
        var last = 0.0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle))) }
            if let blob = sqlite3_column_blob(statement, 0) {
                blackHole(UUID(uuid: blob.load(as: uuid_t.self)))
            }
            blackHole(sqlite3_column_int64(statement, 1) + sqlite3_column_int64(statement, 2))
            blackHole(sqlite3_column_int64(statement, 3) + sqlite3_column_int64(statement, 7))
            blackHole(sqlite3_column_double(statement, 4) + sqlite3_column_double(statement, 5))
            blackHole(sqlite3_column_double(statement, 6))
            last = Double(sqlite3_column_int64(statement, 8))
            rows += 1
        }
        return (rows, last)
    }
}
