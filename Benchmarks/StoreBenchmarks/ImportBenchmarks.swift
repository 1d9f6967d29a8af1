// Importing an Apple Health export (issue 20, docs/APPLE_HEALTH_IMPORT.md), on a generated export
// of about 1,000,000 records (AppleHealthExportGenerator: about 1,550 records a day, minute heart
// rate, a watch's and a phone's overlapping steps, blood pressure correlations, runs with their GPX routes),
// written once and kept under Benchmarks/.build/import-bench (HEALTHVAULT_BENCH_IMPORT_RECORDS
// asks for another size, e.g. 5,000,000 to check that memory does not grow with the file):
//
// - parse only: the reader through the file without converting (`validates` off);
// - raw SQLCipher: the rows the import stores (samples, members and metadata) inserted with
//   prepared statements into the store's schema, 25,000 records a transaction as the daemon's
//   import commits (importRecordsPerTransaction), with the same key and settings; the rows are
//   made before the clock starts;
// - daemon: the owner's `healthvault import apple-health FILE` against the real `healthvaultd`
//   (HEALTHVAULTD and HEALTHVAULT, built by `make bench`) on a fresh vault, from the command's
//   start to its exit: unlock, reading, conversion, UUIDs, batches with their audit entries.
//   The daemon's and the command's peak resident memory (VmHWM; ru_maxrss) are custom metrics.
//   The vault is made with the testing Argon2id parameters: the issue sets the passphrase's
//   derivation (256 MiB at MODERATE) aside, and the unlock is not the import.
//
// Each benchmark counts the records it went through as the custom metric `records`, for
// scripts/bench-ratios.py to turn times into records/s.
import AppleHealthExportGenerator
import Benchmark
import CSQLCipherBench
import Foundation
import HealthInterchange
import HealthModel
import VaultCrypto
import VaultStore

/// The generated export the import benchmarks read, and how many records it holds.
struct BenchmarkExport {
    let url: URL
    let records: Int

    /// The export of about `HEALTHVAULT_BENCH_IMPORT_RECORDS` (1,000,000) records, written on first
    /// use and kept (with its record count beside it) for later runs.
    static func cached() throws -> BenchmarkExport {
        let wanted =
            ProcessInfo.processInfo.environment["HEALTHVAULT_BENCH_IMPORT_RECORDS"].flatMap(Int.init) ?? 1_000_000
        let generator = ExportGenerator(firstDay: "2021-01-01", days: ExportGenerator.days(forRecords: wanted), seed: 1)
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/import-bench")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // v2: with the runs' GPX files under workout-routes/.
        let url = directory.appendingPathComponent("export-\(generator.days)d-seed\(generator.seed)-v2.xml")
        let countURL = url.appendingPathExtension("records")
        if let text = try? String(contentsOf: countURL, encoding: .utf8), let records = Int(text),
            FileManager.default.fileExists(atPath: url.path)
        {
            return BenchmarkExport(url: url, records: records)
        }
        let partial = url.appendingPathExtension("partial")
        let summary = try generator.write(to: partial)
        try generator.writeRoutes(summary.routes, into: directory)
        _ = try? FileManager.default.removeItem(at: url)
        try FileManager.default.moveItem(at: partial, to: url)
        try "\(summary.recordCount)".write(to: countURL, atomically: true, encoding: .utf8)
        return BenchmarkExport(url: url, records: summary.recordCount)
    }
}

/// The records a transaction of healthvaultd's import holds (Session.appleHealthImportBatchSize).
let importRecordsPerTransaction = 25_000

func importBenchmarks() {
    func metric(_ name: String) -> BenchmarkMetric { .custom(name, polarity: .prefersSmaller, useScalingFactor: false) }
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident, metric("records")],
        timeUnits: .milliseconds,
        warmupIterations: 0,
        maxDuration: .seconds(300),
        maxIterations: 3
    )
    nonisolated(unsafe) var export: BenchmarkExport?

    Benchmark("Import 1M records: parse only", configuration: configuration) { benchmark in
        let reader = try AppleHealthReader(contentsOf: export!.url, options: .init(validates: false))
        var records = 0
        benchmark.startMeasurement()
        while let item = try reader.next() {
            if case .record = item { records += 1 }
        }
        benchmark.stopMeasurement()
        benchmark.measurement(metric("records"), records)
    } setup: {
        export = try BenchmarkExport.cached()
    }

    nonisolated(unsafe) var rows: RawImportRows?
    Benchmark("Import 1M records: raw SQLCipher", configuration: configuration) { benchmark in
        let database = try RawDatabase(key: SecureBytes.random(count: 32), seeded: false)
        try rows!.prepare(database)
        benchmark.startMeasurement()
        try rows!.insert(into: database, recordsPerTransaction: importRecordsPerTransaction)
        benchmark.stopMeasurement()
        benchmark.measurement(metric("records"), rows!.records)
    } setup: {
        export = try BenchmarkExport.cached()
        rows = try RawImportRows(reading: export!.url)
    } teardown: {
        rows = nil
    }

    var daemonConfiguration = configuration
    daemonConfiguration.metrics = [
        .wallClock, metric("records"), metric("daemon peak RSS MB"), metric("command peak RSS MB"),
    ]
    Benchmark("Import 1M records: daemon", configuration: daemonConfiguration) { benchmark in
        let served = try ServedVault()
        defer { served.stop() }
        benchmark.startMeasurement()
        let commandKB = try served.runOwnerCommand(["import", "apple-health", export!.url.path])
        benchmark.stopMeasurement()
        benchmark.measurement(metric("records"), export!.records)
        benchmark.measurement(metric("daemon peak RSS MB"), served.daemonPeakKB() / 1024)
        benchmark.measurement(metric("command peak RSS MB"), commandKB / 1024)
    } setup: {
        export = try BenchmarkExport.cached()
    }
}

/// A fresh vault served by the real `healthvaultd`, for the owner's commands.
final class ServedVault {
    let root: URL
    let directory: URL
    let passphraseFile: String
    let process: Process

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hv-bench-import-\(UUID().uuidString)")
        directory = root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let vault = try Vault.create(
            at: directory,
            passphrase: SecureBytes(utf8: "bench"),
            parameters: .minimumForTesting
        )
        vault.lock()
        passphraseFile = root.appendingPathComponent("passphrase").path
        FileManager.default.createFile(atPath: passphraseFile, contents: Data("bench\n".utf8))
        process = childProcess(healthvaultdPath(), ["--vault", directory.path, "--passphrase-file", passphraseFile])
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let socket = directory.appendingPathComponent("healthvaultd.sock").path
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
    }

    /// Runs `healthvault ARGUMENTS --vault … --passphrase-file …` to its end; returns its peak
    /// resident memory in KiB (ru_maxrss), or throws when it fails.
    func runOwnerCommand(_ arguments: [String]) throws -> Int {
        let argv = [healthvaultPath()] + arguments + ["--vault", directory.path, "--passphrase-file", passphraseFile]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let errors = root.appendingPathComponent("command.err").path
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var cEnvironment = childEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in cEnvironment { free(variable) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw BenchError.sqlite("cannot run \(argv[0]): errno \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        guard status == 0 else {
            let message = (try? String(contentsOf: URL(fileURLWithPath: errors), encoding: .utf8)) ?? ""
            throw BenchError.sqlite("\(arguments.joined(separator: " ")) failed (\(status)): \(message)")
        }
        return usage.ru_maxrss
    }

    /// The daemon's peak resident memory so far, in KiB (VmHWM).
    func daemonPeakKB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: root)
    }
}

/// The `healthvault` command the import benchmark runs: HEALTHVAULT (`make bench` sets it), else
/// the one beside HEALTHVAULTD.
func healthvaultPath() -> String {
    ProcessInfo.processInfo.environment["HEALTHVAULT"]
        ?? URL(fileURLWithPath: healthvaultdPath()).deletingLastPathComponent().appendingPathComponent("healthvault")
        .path
}

/// The rows an import of an export stores, made from the file before the clock starts: a
/// `samples` row per record, correlation (its members as rows whose parent it is) and workout,
/// a `sample_metadata` row per metadata entry, and for each workout's route its `samples` row,
/// its locations packed as the store packs them (`route_locations`, 10,000 a row) and its
/// `workout_samples` association, with the interned types, sources, revisions, devices and
/// units numbered as the store numbers them; for raw inserts of the same rows. (Not the
/// heartbeat series of HRV records: a few thousand small rows.)
struct RawImportRows {
    struct SampleRow {
        var uuid: UUID
        var type: Int64
        var source: Int64
        var revision: Int64
        var device: Int64?
        var start: Double
        var end: Double
        var value: Double?
        var givenValue: Double?
        var unit: Int64?
        /// The position of the correlation row a member belongs to.
        var parent: Int?
    }

    struct MetadataRow {
        var sample: Int
        var key: String
        var kind: Int64
        var text: String?
        var number: Double?
        var base: Double?
    }

    struct RouteRows {
        /// The position of the route's `samples` row, and of its workout's.
        var sample: Int
        var workout: Int
        var workoutUUID: UUID
        /// Each `route_locations` row: its count of locations and their packed bytes.
        var chunks: [(count: Int, data: [UInt8])]
    }

    var samples: [SampleRow] = []
    var metadata: [MetadataRow] = []
    var routes: [RouteRows] = []
    /// The file's records.
    var records = 0
    /// The position of each top-level sample's row (a record, correlation or workout), for
    /// transactions of as many top-level samples as the import's batches.
    var topLevel: [Int] = []
    var types: [String: Int64] = [:]
    var sources: [String: Int64] = [:]
    var revisions: [String: (source: Int64, name: String, version: String?)] = [:]
    var revisionIDs: [String: Int64] = [:]
    var devices: [String: Int64] = [:]
    var units: [String: Int64] = [:]

    init(reading url: URL) throws {
        let reader = try AppleHealthReader(contentsOf: url)
        // Member-type records, as the import holds them: a correlation claims its own.
        var held: [AppleHealthIdentity: AppleHealthRecord] = [:]
        while let item = try reader.next() {
            switch item {
            case .record(let record):
                records += 1
                if record.type.hasPrefix("HKQuantityTypeIdentifierBloodPressure")
                    || record.type.hasPrefix("HKQuantityTypeIdentifierDietary")
                {
                    held[record.identity] = record
                    continue
                }
                topLevel.append(samples.count)
                add(try record.sample(uuid: UUID(), source: Self.source(record.sourceName)), parent: nil)
            case .correlation(let correlation):
                for member in correlation.records { held[member.identity] = nil }
                topLevel.append(samples.count)
                let sample = try correlation.sample(
                    uuid: UUID(),
                    memberUUIDs: correlation.records.map { _ in UUID() },
                    source: Self.source(correlation.sourceName)
                )
                add(sample, parent: nil)
            case .workout(let workout):
                topLevel.append(samples.count)
                let workoutPosition = samples.count
                let workoutSample = try workout.sample(uuid: UUID(), source: Self.source(workout.sourceName))
                add(workoutSample, parent: nil)
                for route in workout.routes {
                    var locations: [WorkoutRouteLocation] = []
                    for reference in route.fileReferences {
                        let file = url.deletingLastPathComponent().appendingPathComponent(reference)
                        locations += GPXTrack(Array(try Data(contentsOf: file))).locations
                    }
                    guard !locations.isEmpty else { continue }
                    var row = SampleRow(
                        uuid: UUID(),
                        type: Self.intern(SampleType.workoutRoute.identifier, &types),
                        source: samples[workoutPosition].source,
                        revision: samples[workoutPosition].revision,
                        start: locations.first!.timestamp.timeIntervalSinceReferenceDate,
                        end: locations.last!.timestamp.timeIntervalSinceReferenceDate
                    )
                    row.value = Double(locations.count)
                    let chunks = stride(from: 0, to: locations.count, by: SampleStore.maximumRouteChunk).map {
                        let part = Array(locations[$0..<min($0 + SampleStore.maximumRouteChunk, locations.count)])
                        return (count: part.count, data: SampleStore.pack(part))
                    }
                    routes.append(
                        RouteRows(
                            sample: samples.count,
                            workout: workoutPosition,
                            workoutUUID: workoutSample.uuid,
                            chunks: chunks
                        )
                    )
                    samples.append(row)
                }
            default:
                continue
            }
        }
        for record in held.values {
            topLevel.append(samples.count)
            add(try record.sample(uuid: UUID(), source: Self.source(record.sourceName)), parent: nil)
        }
    }

    static func source(_ name: String) -> Source {
        Source(bundleIdentifier: "import:apple-health:" + name, name: name)
    }

    static func intern(_ key: String, _ table: inout [String: Int64]) -> Int64 {
        if let id = table[key] { return id }
        let id = Int64(table.count + 1)
        table[key] = id
        return id
    }

    mutating func add(_ sample: Sample, parent: Int?) {
        let revision = sample.sourceRevision
        let source = Self.intern(revision.source.bundleIdentifier, &sources)
        let revisionKey = [
            revision.source.bundleIdentifier, revision.source.name, revision.version ?? "",
            revision.productType ?? "", revision.operatingSystemVersion ?? "",
        ]
        .joined(separator: "\u{1}")
        let revisionID = Self.intern(revisionKey, &revisionIDs)
        revisions[revisionKey] = (source, revision.source.name, revision.version)
        var row = SampleRow(
            uuid: sample.uuid,
            type: Self.intern(sample.sampleType.identifier, &types),
            source: source,
            revision: revisionID,
            device: sample.device.map { Self.intern("\($0)", &devices) },
            start: sample.startDate.timeIntervalSinceReferenceDate,
            end: sample.endDate.timeIntervalSinceReferenceDate,
            parent: parent
        )
        switch sample {
        case .quantity(let quantity):
            row.value = try? quantity.quantity.doubleValue(for: quantity.quantityType.canonicalUnit)
            row.givenValue = quantity.quantity.value
            row.unit = Self.intern(quantity.quantity.unit.unitString, &units)
        case .category(let category):
            row.value = Double(category.value)
        case .workout(let workout):
            row.value = workout.duration
        default:
            break
        }
        let position = samples.count
        samples.append(row)
        for (key, value) in sample.metadata {
            let (kind, text, number, base): (Int64, String?, Double?, Double?) =
                switch value {
                case .string(let string): (0, string, nil, nil)
                case .number(let number): (1, nil, number, number)
                case .date(let date):
                    (2, nil, date.timeIntervalSinceReferenceDate, date.timeIntervalSinceReferenceDate)
                case .quantity(let quantity):
                    (3, quantity.unit.unitString, quantity.value, quantity.unit.baseValue(quantity.value))
                }
            metadata.append(
                MetadataRow(sample: position, key: key.rawValue, kind: kind, text: text, number: number, base: base)
            )
        }
        if case .correlation(let correlation) = sample {
            for member in correlation.objects { add(member, parent: position) }
        }
    }

    /// Inserts the interned rows (types, sources, revisions, devices, units) the samples name.
    func prepare(_ database: RawDatabase) throws {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        var sql = "BEGIN;"
        for (identifier, code) in types {
            sql += "INSERT INTO types (code, identifier) VALUES (\(code), \(quoted(identifier)));"
        }
        for (bundle, id) in sources { sql += "INSERT INTO sources (id, bundle_id) VALUES (\(id), \(quoted(bundle)));" }
        for (key, id) in revisionIDs {
            let revision = revisions[key]!
            sql +=
                "INSERT INTO revisions (id, source_id, identity, name, version) VALUES (\(id), \(revision.source), "
                + "\(quoted(key)), \(quoted(revision.name)), \(revision.version.map(quoted) ?? "NULL"));"
        }
        for (device, id) in devices { sql += "INSERT INTO devices (id, identity) VALUES (\(id), \(quoted(device)));" }
        for (unit, id) in units { sql += "INSERT INTO units (id, unit) VALUES (\(id), \(quoted(unit)));" }
        try database.exec(sql + "COMMIT")
    }

    /// Inserts the rows, `recordsPerTransaction` top-level samples (with their members and
    /// metadata) a transaction, with one prepared statement each for samples and metadata.
    func insert(into database: RawDatabase, recordsPerTransaction: Int) throws {
        let handle = database.handle
        func prepare(_ sql: String) throws -> OpaquePointer? {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
                throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
            }
            return statement
        }
        let insertSample = try prepare(
            """
            INSERT INTO samples (id, uuid, type, source_id, revision_id, device_id, start_date, end_date, value,
                given_value, unit_id, parent_id, sync_identifier, sync_version, seq)
            SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, NULL, NULL, ?13
            WHERE NOT EXISTS (SELECT 1 FROM samples WHERE uuid = ?2)
            """
        )
        let insertMetadata = try prepare(
            "INSERT INTO sample_metadata (sample_id, key, kind, text_value, number_value, base_value) VALUES (?, ?, ?, ?, ?, ?)"
        )
        let insertLocations = try prepare(
            "INSERT INTO route_locations (sample_id, chunk, count, data) VALUES (?, ?, ?, ?)"
        )
        let associate = try prepare("INSERT INTO workout_samples (workout, sample_id) VALUES (?, ?)")
        defer {
            sqlite3_finalize(insertSample)
            sqlite3_finalize(insertMetadata)
            sqlite3_finalize(insertLocations)
            sqlite3_finalize(associate)
        }
        func step(_ statement: OpaquePointer?) throws {
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
            }
            sqlite3_reset(statement)
        }
        func bind(_ statement: OpaquePointer?, _ index: Int32, _ value: Double?) {
            if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        }
        func bind(_ statement: OpaquePointer?, _ index: Int32, _ value: Int64?) {
            if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        }
        func bind(_ statement: OpaquePointer?, _ index: Int32, _ value: String?) {
            if let value {
                sqlite3_bind_text(statement, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            } else {
                sqlite3_bind_null(statement, index)
            }
        }
        // As the store saves a batch (schema 20): each type and source's longest duration, statistics
        // hours forgotten and changes counted, once at the end of the batch.
        let durations = try prepare(SampleStore.raiseLongestSQL)
        let forget = try prepare(SampleStore.forgetHoursSQL)
        let count = try prepare(SampleStore.countChangesSQL)
        defer {
            sqlite3_finalize(durations)
            sqlite3_finalize(forget)
            sqlite3_finalize(count)
        }
        var nextMetadata = 0
        var nextRoute = 0
        var sampleIndex = 0
        for first in stride(from: 0, to: topLevel.count, by: recordsPerTransaction) {
            let endIndex =
                first + recordsPerTransaction < topLevel.count ? topLevel[first + recordsPerTransaction] : samples.count
            try database.exec("BEGIN IMMEDIATE")
            var spans: [SampleStore.TypeAndSource: SampleStore.InsertedSpan] = [:]
            while sampleIndex < endIndex {
                let row = samples[sampleIndex]
                spans.add(SampleStore.TypeAndSource(type: row.type, source: row.source), start: row.start, end: row.end)
                sqlite3_bind_int64(insertSample, 1, Int64(sampleIndex + 1))
                withUnsafeBytes(of: row.uuid.uuid) {
                    _ = sqlite3_bind_blob(
                        insertSample,
                        2,
                        $0.baseAddress,
                        16,
                        unsafeBitCast(-1, to: sqlite3_destructor_type.self)
                    )
                }
                sqlite3_bind_int64(insertSample, 3, row.type)
                sqlite3_bind_int64(insertSample, 4, row.source)
                sqlite3_bind_int64(insertSample, 5, row.revision)
                bind(insertSample, 6, row.device)
                sqlite3_bind_double(insertSample, 7, row.start)
                sqlite3_bind_double(insertSample, 8, row.end)
                bind(insertSample, 9, row.value)
                bind(insertSample, 10, row.givenValue)
                bind(insertSample, 11, row.unit)
                bind(insertSample, 12, row.parent.map { Int64($0 + 1) })
                sqlite3_bind_int64(insertSample, 13, Int64(sampleIndex + 1))
                try step(insertSample)
                while nextMetadata < metadata.count, metadata[nextMetadata].sample == sampleIndex {
                    let entry = metadata[nextMetadata]
                    sqlite3_bind_int64(insertMetadata, 1, Int64(sampleIndex + 1))
                    bind(insertMetadata, 2, entry.key)
                    sqlite3_bind_int64(insertMetadata, 3, entry.kind)
                    bind(insertMetadata, 4, entry.text)
                    bind(insertMetadata, 5, entry.number)
                    bind(insertMetadata, 6, entry.base)
                    try step(insertMetadata)
                    nextMetadata += 1
                }
                while nextRoute < routes.count, routes[nextRoute].sample == sampleIndex {
                    let route = routes[nextRoute]
                    for (chunk, part) in route.chunks.enumerated() {
                        sqlite3_bind_int64(insertLocations, 1, Int64(sampleIndex + 1))
                        sqlite3_bind_int64(insertLocations, 2, Int64(chunk))
                        sqlite3_bind_int64(insertLocations, 3, Int64(part.count))
                        part.data.withUnsafeBytes {
                            _ = sqlite3_bind_blob(
                                insertLocations,
                                4,
                                $0.baseAddress,
                                Int32($0.count),
                                unsafeBitCast(-1, to: sqlite3_destructor_type.self)
                            )
                        }
                        try step(insertLocations)
                    }
                    withUnsafeBytes(of: route.workoutUUID.uuid) {
                        _ = sqlite3_bind_blob(
                            associate,
                            1,
                            $0.baseAddress,
                            16,
                            unsafeBitCast(-1, to: sqlite3_destructor_type.self)
                        )
                    }
                    sqlite3_bind_int64(associate, 2, Int64(sampleIndex + 1))
                    try step(associate)
                    nextRoute += 1
                }
                sampleIndex += 1
            }
            for (key, span) in spans.sorted(by: { ($0.key.type, $0.key.source) < ($1.key.type, $1.key.source) }) {
                sqlite3_bind_int64(durations, 1, key.type)
                sqlite3_bind_int64(durations, 2, key.source)
                sqlite3_bind_double(durations, 3, span.longest)
                try step(durations)
                for hours in span.mergedHours {
                    sqlite3_bind_int64(forget, 1, key.type)
                    sqlite3_bind_int64(forget, 2, key.source)
                    sqlite3_bind_int64(forget, 3, hours.lowerBound)
                    sqlite3_bind_int64(forget, 4, hours.upperBound)
                    try step(forget)
                }
                sqlite3_bind_int64(count, 1, key.type)
                sqlite3_bind_int64(count, 2, key.source)
                sqlite3_bind_int64(count, 3, span.count)
                try step(count)
            }
            try database.exec(
                "UPDATE counters SET value = \(sampleIndex) WHERE name = 'change_sequence'; COMMIT"
            )
        }
    }
}
