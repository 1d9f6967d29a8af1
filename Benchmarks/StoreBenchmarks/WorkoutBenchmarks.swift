// Live workouts through the real `healthvaultd` (HEALTHVAULTD, as for the statistics benchmarks)
// and HealthVaultKit (issue 19, docs/WORKOUTS.md):
//
// - A two-hour session: a running app's session collects heart rate; a strap app saves one heart
//   rate sample per simulated second (7,200 of them) and the running app inserts one route
//   location per second. Per second: the time from the strap's save call to the running app
//   holding the live statistics that include it ("save to live statistics", the latency an app
//   feels; goal p99 under 10 ms), and the route insert's time. Percentiles as custom metrics.
// - A 10,000-point route written through the daemon (one insert and the finish, with the audit
//   entries' durable commits) and read back (one batch), beside raw SQLCipher storing the same
//   packed bytes in one transaction and reading them back.
import Benchmark
import CSQLCipherBench
import Foundation
import HealthModel
import HealthVaultKit
import VaultCrypto
import VaultEngine
import VaultStore

let workoutRunner = "org.example.runner"
let workoutStrap = "org.example.strap"
let workoutStart = Date(timeIntervalSinceReferenceDate: 810_000_000)

/// A served vault with a running app and a heart-rate strap app, enrolled and granted, each
/// connected through HealthVaultKit; the running app's session started and collecting.
final class WorkoutFixture: @unchecked Sendable {
    let root: URL
    let process: Process
    let runner: HealthStore
    let strap: HealthStore
    let session: WorkoutSession
    var events: AsyncStream<WorkoutSessionMessage>.Iterator
    let routeBuilder: WorkoutRouteBuilder
    var second = 0

    init() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hv-bench-workout-\(UUID().uuidString)")
        let directory = root.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let vault = try Vault.create(
            at: directory,
            passphrase: SecureBytes(utf8: "bench"),
            parameters: .minimumForTesting
        )
        let engine = try VaultEngine(vault: vault)
        var keys: [String: String] = [:]
        for (app, share) in [
            (workoutRunner, [SampleType.workout, .workoutRoute]), (workoutStrap, [SampleType.quantity(.heartRate)]),
        ] {
            let key = Ed25519.SigningKey()
            try await engine.enroll(
                AppRegistration(
                    appID: app,
                    displayName: app,
                    publicKey: key.publicKey,
                    readPurpose: "benchmark",
                    sharePurpose: "benchmark",
                    declaredRead: app == workoutRunner ? [.quantity(.heartRate)] : [],
                    declaredShare: Set(share)
                )
            )
            try await engine.decide(.grant, .share, of: Set(share.map(ObjectType.init)), for: app)
            let path = root.appendingPathComponent("\(app).key").path
            FileManager.default.createFile(
                atPath: path,
                contents: Data((key.seed.withUnsafeBytes { Data($0) }.base64EncodedString() + "\n").utf8),
                attributes: [.posixPermissions: 0o600]
            )
            keys[app] = path
        }
        try await engine.decide(.grant, .read, of: [.quantity(.heartRate)], for: workoutRunner)
        await engine.shutdown()
        vault.lock()
        let passphraseFile = root.appendingPathComponent("passphrase").path
        FileManager.default.createFile(atPath: passphraseFile, contents: Data("bench\n".utf8))
        process = childProcess(healthvaultdPath(), ["--vault", directory.path, "--passphrase-file", passphraseFile])
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let socket = directory.appendingPathComponent("healthvaultd.sock").path
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        runner = try await HealthStore(
            appID: workoutRunner,
            keyFile: keys[workoutRunner]!,
            vaultDirectory: directory.path
        )
        strap = try await HealthStore(appID: workoutStrap, keyFile: keys[workoutStrap]!, vaultDirectory: directory.path)
        let configuration = try WorkoutConfiguration(activityType: .running, locationType: .outdoor)
        session = try await runner.startWorkoutSession(configuration: configuration)
        events = session.events().makeAsyncIterator()
        try await session.startActivity(with: workoutStart)
        let builder = session.associatedWorkoutBuilder()
        try await builder.beginCollection(at: workoutStart)
        let source = LiveWorkoutDataSource(workoutConfiguration: configuration)
        try await source.apply(to: builder)
        routeBuilder = try await WorkoutRouteBuilder(healthStore: runner)
    }

    /// One simulated second: the strap's heart rate, timed until the running app holds the live
    /// statistics; then one route location, timed. Nanoseconds each.
    func tick() async throws -> (live: Int, route: Int) {
        second += 1
        let date = workoutStart.addingTimeInterval(Double(second))
        let heartRate = Sample.quantity(
            try QuantitySample(
                type: .heartRate,
                quantity: Quantity(Double(120 + second % 40), try HealthUnit(from: "count/min")),
                start: date,
                end: date,
                sourceRevision: SourceRevision(source: Source(bundleIdentifier: workoutStrap, name: "strap"))
            )
        )
        let live = try await nanoseconds {
            try await strap.save([heartRate])
            while let event = await events.next() {
                if event.kind == .collected, event.statistics?.isEmpty == false { break }
            }
        }
        let location = try WorkoutRouteLocation(
            timestamp: date,
            latitude: 48.1 + Double(second) * 1e-5,
            longitude: 11.5,
            altitude: 520,
            horizontalAccuracy: 5,
            speed: 3
        )
        let route = try await nanoseconds { try await routeBuilder.insertRouteData([location]) }
        return (live, route)
    }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: root)
    }
}

nonisolated(unsafe) var workoutFixture: WorkoutFixture?

func workoutBenchmarks() {
    func metric(_ name: String) -> BenchmarkMetric { .custom(name, polarity: .prefersSmaller, useScalingFactor: false) }
    Benchmark(
        "Live workout: two hours at 1 Hz",
        configuration: Benchmark.Configuration(
            metrics: [metric("save to live statistics"), metric("route insert")],
            timeUnits: .microseconds,
            warmupIterations: 0,
            maxDuration: .seconds(600),
            maxIterations: 7_200
        )
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let (live, route) = try await workoutFixture!.tick()
            benchmark.measurement(metric("save to live statistics"), live)
            benchmark.measurement(metric("route insert"), route)
        }
    } setup: {
        workoutFixture = try await WorkoutFixture()
    } teardown: {
        workoutFixture?.stop()
        workoutFixture = nil
    }

    let points = (0..<10_000).map(routePoint)
    let routeConfiguration = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .microseconds,
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 20
    )
    // Each benchmark runs in a process of its own, so each sets up what it needs.
    nonisolated(unsafe) var workout: Workout?
    nonisolated(unsafe) var written: WorkoutRoute?
    func serveWithWorkout() async throws {
        workoutFixture = try await WorkoutFixture()
        let saved = try Workout(
            activityType: .running,
            start: workoutStart,
            end: workoutStart.addingTimeInterval(10_000),
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: workoutRunner, name: "r"))
        )
        try await workoutFixture!.runner.save([.workout(saved)])
        workout = saved
    }
    func writeRoute() async throws -> WorkoutRoute {
        let builder = try await WorkoutRouteBuilder(healthStore: workoutFixture!.runner)
        try await builder.insertRouteData(points)
        return try await builder.finishRoute(with: workout!)
    }
    Benchmark("Route 10k points: daemon write", configuration: routeConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await writeRoute())
        }
    } setup: {
        try await serveWithWorkout()
    } teardown: {
        workoutFixture?.stop()
        workoutFixture = nil
    }
    Benchmark("Route 10k points: daemon read", configuration: routeConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            var count = 0
            for try await batch in workoutFixture!.runner.routeLocations(of: written!) { count += batch.count }
            precondition(count == 10_000)
        }
    } setup: {
        try await serveWithWorkout()
        written = try await writeRoute()
    } teardown: {
        workoutFixture?.stop()
        workoutFixture = nil
    }

    let packed = SampleStore.pack(points)
    nonisolated(unsafe) var raw: RawDatabase?
    Benchmark("Route 10k points: raw SQLCipher write", configuration: routeConfiguration) { benchmark in
        for iteration in benchmark.scaledIterations {
            try raw!.insertRouteBlob(packed, sampleID: Int64(iteration + 1))
        }
    } setup: {
        raw = try RawDatabase(key: SecureBytes.random(count: 32))
        try raw!.insert(RawRows(count: 64))
    } teardown: {
        raw = nil
    }
    Benchmark("Route 10k points: raw SQLCipher read", configuration: routeConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try raw!.readRouteBlob(sampleID: 1))
        }
    } setup: {
        raw = try RawDatabase(key: SecureBytes.random(count: 32))
        try raw!.insert(RawRows(count: 64))
        try raw!.insertRouteBlob(packed, sampleID: 1)
    } teardown: {
        raw = nil
    }
}

/// One location of the benchmarks' route, the `index`th second from the start.
func routePoint(_ index: Int) -> WorkoutRouteLocation {
    let step = Double(index)
    let longitude = 11.5 + Double(index % 17) * 1e-6
    let altitude = 520 + Double(index % 9)
    return try! WorkoutRouteLocation(
        timestamp: workoutStart.addingTimeInterval(step),
        latitude: 48.1 + step * 1e-5,
        longitude: longitude,
        altitude: altitude,
        horizontalAccuracy: 4.5,
        verticalAccuracy: 3,
        speed: 3.1,
        course: Double(index % 360)
    )
}

extension RawDatabase {
    /// Stores a route's packed locations as one row, durably, in one transaction.
    func insertRouteBlob(_ bytes: [UInt8], sampleID: Int64) throws {
        var statement: OpaquePointer?
        let sql = "INSERT OR REPLACE INTO route_locations (sample_id, chunk, count, data) VALUES (?, 0, ?, ?)"
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        try exec("BEGIN IMMEDIATE")
        sqlite3_bind_int64(statement, 1, (sampleID - 1) % 64 + 1)
        sqlite3_bind_int64(statement, 2, Int64(bytes.count / 80))
        bytes.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 3, $0.baseAddress, Int32($0.count), nil) }
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        try exec("COMMIT")
    }

    /// Reads a route's packed locations back and decodes the doubles.
    func readRouteBlob(sampleID: Int64) throws -> [Double] {
        var statement: OpaquePointer?
        guard
            sqlite3_prepare_v2(handle, "SELECT data FROM route_locations WHERE sample_id = ?", -1, &statement, nil)
                == SQLITE_OK
        else { throw BenchError.sqlite(String(cString: sqlite3_errmsg(handle))) }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, sampleID)
        guard sqlite3_step(statement) == SQLITE_ROW, let blob = sqlite3_column_blob(statement, 0) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, 0)) / 8
        return (0..<count).map { index in
            Double(bitPattern: UInt64(littleEndian: blob.load(fromByteOffset: index * 8, as: UInt64.self)))
        }
    }
}
