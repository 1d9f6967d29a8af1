// A denied read must take the same time whatever other apps stored (DESIGN.md, "The rules of
// access"; issue 18). For every kind of read an app can make, the same call by an app without a
// read grant, through VaultEngine (its grants, the scope, the store's SQL, the audit entry's
// durable commit), in a vault where another app holds 500,000 step samples and 20,000 blood
// pressure correlations and the owner set a characteristic ("hidden"), against the same call in a
// vault where no other app stored anything and no characteristic is set ("empty"). The object
// lookup compares another app's sample's UUID ("hidden") with an unknown UUID, in the empty vault
// ("empty") and in the same vault ("unknown"): the comparison an app can make.
//
// And a refused authentication through the real `healthvaultd` (HEALTHVAULTD, as for the
// statistics benchmarks): an enrolled app id with a wrong signature ("enrolled") against an app
// id never enrolled ("unknown"), each a whole connection from connect to the refusal.
//
// Each benchmark runs its cases in a random order in every iteration and records each one's time as a
// custom metric of the case's name (nanoseconds, printed in K = microseconds), and the paired
// ratio of the first case to each other ("hidden/empty", in millionths, printed in K =
// thousandths): on a shared, noisy machine both sides meet the same load, which separate
// benchmarks a few seconds apart do not. scripts/bench-ratios.py prints the median paired ratio
// per kind (target 0.95-1.05) beside both medians.
import Benchmark
import Foundation
import HealthModel
import HealthVaultKit
import VaultCrypto
import VaultEngine
import VaultStore

/// The app that reads, enrolled without any read grant, in both vaults.
let denialReader = "org.example.mine"
let denialOther = "org.example.theirs"
let hiddenCorrelationCount = 20_000
let ownCorrelationCount = 10

/// Blood pressure correlations of one source, an hour apart from the step samples' start.
func makeBloodPressures(_ count: Int, source: String) -> [Sample] {
    let revision = SourceRevision(source: Source(bundleIdentifier: source, name: source), version: "1.0")
    let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
    return (0..<count).map { index in
        let time = start.addingTimeInterval(Double(index) * 3600)
        let member = { (type: QuantityTypeIdentifier, value: Double) -> Sample in
            .quantity(
                try! QuantitySample(
                    type: type,
                    quantity: Quantity(value, .millimeterOfMercury),
                    start: time,
                    end: time,
                    sourceRevision: revision
                )
            )
        }
        return .correlation(
            try! Correlation(
                type: .bloodPressure,
                start: time,
                end: time,
                objects: [
                    member(.bloodPressureSystolic, Double(100 + index % 40)),
                    member(.bloodPressureDiastolic, Double(60 + index % 30)),
                ],
                sourceRevision: revision
            )
        )
    }
}

/// One vault of the comparison, open with its engine; the reader enrolled without grants.
final class DenialVault: @unchecked Sendable {
    let files: TemporaryVault
    let vault: Vault
    let engine: VaultEngine
    /// A UUID of another app's step sample (hidden vault), or one never stored (empty vault).
    let otherUUID: UUID
    /// A UUID never stored.
    let unknownUUID = UUID()

    init(hidden: Bool) async throws {
        files = try TemporaryVault()
        var uuid = UUID()
        if hidden {
            for chunk in 0..<(hiddenCount / 50_000) {
                let samples = makeSamples(50_000, source: denialOther, offset: chunk * 50_000, uuid: UUID.init)
                if chunk == 3 { uuid = samples[12_345].uuid }
                try files.store.save(samples)
            }
            try files.store.save(makeBloodPressures(hiddenCorrelationCount, source: denialOther))
        }
        otherUUID = uuid
        try files.store.save(makeSamples(ownCount, source: denialReader, uuid: UUID.init))
        try files.store.save(makeBloodPressures(ownCorrelationCount, source: denialReader))
        let filling = try VaultEngine(vault: files.vault)
        try await filling.enroll(
            AppRegistration(
                appID: denialReader,
                displayName: "Mine",
                publicKey: Ed25519.SigningKey().publicKey,
                readPurpose: "benchmark",
                declaredRead: [
                    .quantity(.stepCount), .quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic),
                    .characteristic(.biologicalSex), .activitySummary,
                ]
            ),
            // Its samples were put in through the store, before it was enrolled.
            adoptingExistingSamples: true
        )
        if hidden { try await filling.setCharacteristic(.biologicalSex(.female)) }
        await filling.shutdown()
        // Locked (its write-ahead log checkpointed and emptied) and opened again, so both vaults
        // start from an empty log: the audit entries' commits then grow both logs alike (a log
        // left long by the filling would make the hidden vault's commits cheaper).
        files.vault.lock()
        vault = try Vault.open(at: files.directory, passphrase: SecureBytes(utf8: "bench"))
        engine = try VaultEngine(vault: vault)
    }
}

/// Both vaults, made once for all the denial benchmarks (the hidden one takes a while); their
/// directories are removed when the benchmarks' process ends.
nonisolated(unsafe) var denialVaults: (hidden: DenialVault, empty: DenialVault)?
nonisolated(unsafe) var denialDirectories: [URL] = []

func makeDenialVaults() async throws {
    guard denialVaults == nil else { return }
    denialVaults = (try await DenialVault(hidden: true), try await DenialVault(hidden: false))
    denialDirectories += [denialVaults!.hidden.files.directory, denialVaults!.empty.files.directory]
    atexit {
        for directory in denialDirectories { try? FileManager.default.removeItem(at: directory) }
    }
}

/// Every read an app can make, as one call of the engine by the reader.
struct DenialRead: Sendable {
    let kind: String
    let call: @Sendable (DenialVault, Caller) async throws -> Void
}

let denialStart = Date(timeIntervalSinceReferenceDate: 700_000_000)

let denialReads: [DenialRead] = [
    DenialRead(kind: "sample query") { vault, caller in
        let query = SampleQueryDescriptor(
            predicates: [
                SampleTypePredicate(.quantity(.stepCount), predicate: .samples(withStart: denialStart, end: nil))
            ],
            sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)]
        )
        blackHole(try await vault.engine.samples(matching: query, as: caller))
    },
    DenialRead(kind: "anchored query") { vault, caller in
        let query = AnchoredObjectQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))])
        blackHole(try await vault.engine.anchoredObjects(matching: query, as: caller))
    },
    DenialRead(kind: "source query") { vault, caller in
        let query = SourceQueryDescriptor(sampleType: .quantity(.stepCount))
        blackHole(try await vault.engine.sources(matching: query, as: caller))
    },
    DenialRead(kind: "statistics") { vault, caller in
        let query = StatisticsQueryDescriptor(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource])
        blackHole(try await vault.engine.statistics(matching: query, as: caller))
    },
    DenialRead(kind: "statistics collection") { vault, caller in
        let query = StatisticsCollectionQueryDescriptor(
            quantityType: .stepCount,
            options: [.cumulativeSum],
            anchorDate: denialStart,
            intervalComponents: IntervalComponents(hour: 1),
            timeZone: "UTC"
        )
        blackHole(try await vault.engine.statisticsCollection(matching: query, as: caller))
    },
    DenialRead(kind: "correlation query") { vault, caller in
        let query = CorrelationQueryDescriptor(type: .bloodPressure)
        blackHole(try await vault.engine.correlations(matching: query, as: caller))
    },
    DenialRead(kind: "activity summaries") { vault, caller in
        // The week of the reader's samples (2023-03-07).
        let query = ActivitySummaryQueryDescriptor(start: "2023-03-05", end: "2023-03-11", timeZone: "UTC")
        blackHole(try await vault.engine.activitySummaries(matching: query, as: caller))
    },
    DenialRead(kind: "characteristic") { vault, caller in
        blackHole(try await vault.engine.characteristic(.biologicalSex, as: caller))
    },
]

/// The nanoseconds `body` takes.
func nanoseconds(_ body: () async throws -> Void) async rethrows -> Int {
    let start = ContinuousClock.now
    try await body()
    let elapsed = (ContinuousClock.now - start).components
    return Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
}

/// Runs each case once per iteration, in a new random order each time, and records each one's
/// time as the custom metric of its name, and the first case's time over each other's in the same
/// iteration as "first/other" (in millionths): both sides are measured in the same moments, so
/// the load of a shared machine falls on both alike, and the median of the paired ratios is not
/// moved by the audit commit's fsync, whose time varies far more than the reads do. The order is
/// random because a fixed one is not neutral: with the order alternating between forwards and
/// backwards, the same lookup run as the first case and as the last took 404 and 348 µs (1.15).
func interleavedBenchmark(
    _ name: String,
    _ cases: [(metric: String, run: @Sendable () async throws -> Void)],
    configuration: Benchmark.Configuration,
    setup: @escaping @Sendable () async throws -> Void,
    teardown: @escaping @Sendable () async throws -> Void = {}
) {
    func metric(_ name: String) -> BenchmarkMetric {
        .custom(name, polarity: .prefersSmaller, useScalingFactor: false)
    }
    let ratios = cases.dropFirst().map { "\(cases[0].metric)/\($0.metric)" }
    var configuration = configuration
    configuration.metrics = cases.map { metric($0.metric) } + ratios.map(metric)
    Benchmark(name, configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var times: [String: Int] = [:]
            for (name, run) in cases.shuffled() {
                times[name] = try await nanoseconds(run)
                benchmark.measurement(metric(name), times[name]!)
            }
            for (ratio, other) in zip(ratios, cases.dropFirst()) {
                let value = Double(times[cases[0].metric]!) / Double(max(times[other.metric]!, 1))
                benchmark.measurement(metric(ratio), Int(value * 1_000_000))
            }
        }
    } setup: {
        try await setup()
    } teardown: {
        try await teardown()
    }
}

func denialBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [],
        timeUnits: .microseconds,
        warmupIterations: 20,
        maxDuration: .seconds(10),
        maxIterations: 1000
    )
    let caller = Caller.app(denialReader)
    for read in denialReads {
        interleavedBenchmark(
            "Denial \(read.kind)",
            [
                ("hidden", { try await read.call(denialVaults!.hidden, caller) }),
                ("empty", { try await read.call(denialVaults!.empty, caller) }),
            ],
            configuration: configuration,
            setup: makeDenialVaults
        )
    }

    // Another app's sample by its UUID, against an unknown UUID in the empty vault, and apart
    // against an unknown UUID in the same vault: each benchmark calls its vaults equally often
    // (as three cases of one benchmark, the full vault called in two of them, its lookups came
    // out 4-7% faster than the empty vault's).
    let lookup = { @Sendable (vault: DenialVault, uuid: UUID) async throws in
        let sample = try await vault.engine.sample(uuid: uuid, as: caller)
        precondition(sample == nil)
    }
    interleavedBenchmark(
        "Denial object lookup",
        [
            ("hidden", { try await lookup(denialVaults!.hidden, denialVaults!.hidden.otherUUID) }),
            ("empty", { try await lookup(denialVaults!.empty, denialVaults!.empty.unknownUUID) }),
        ],
        configuration: configuration,
        setup: makeDenialVaults
    )
    interleavedBenchmark(
        "Denial object lookup in one vault",
        [
            ("hidden", { try await lookup(denialVaults!.hidden, denialVaults!.hidden.otherUUID) }),
            ("unknown", { try await lookup(denialVaults!.hidden, denialVaults!.hidden.unknownUUID) }),
        ],
        configuration: configuration,
        setup: makeDenialVaults
    )

    // Both ids are 18 bytes, so the frames and the audit entries are the same size.
    interleavedBenchmark(
        "Denial authentication",
        [
            ("enrolled", { await authenticationFixture!.refused(as: "org.example.reader") }),
            ("unknown", { await authenticationFixture!.refused(as: "org.example.absent") }),
        ],
        configuration: configuration,
        setup: makeAuthenticationFixture
    )
}

/// A vault served by `healthvaultd` with one enrolled app, and a key file holding a key that is
/// not the app's.
final class AuthenticationFixture {
    let root: URL
    let directory: URL
    let wrongKeyFile: String
    let process: Process

    init() async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hv-bench-auth-\(UUID().uuidString)")
        directory = root.appendingPathComponent("vault")
        wrongKeyFile = root.appendingPathComponent("wrong.key").path
        let passphraseFile = root.appendingPathComponent("passphrase").path
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let vault = try Vault.create(
            at: directory,
            passphrase: SecureBytes(utf8: "bench"),
            parameters: .minimumForTesting
        )
        let engine = try VaultEngine(vault: vault)
        try await engine.enroll(
            AppRegistration(
                appID: "org.example.reader",
                displayName: "Reader",
                publicKey: Ed25519.SigningKey().publicKey,
                readPurpose: "benchmark",
                declaredRead: [.quantity(.stepCount)]
            )
        )
        await engine.shutdown()
        vault.lock()
        let wrong = Ed25519.SigningKey()
        FileManager.default.createFile(
            atPath: wrongKeyFile,
            contents: Data((wrong.seed.withUnsafeBytes { Data($0) }.base64EncodedString() + "\n").utf8),
            attributes: [.posixPermissions: 0o600]
        )
        FileManager.default.createFile(atPath: passphraseFile, contents: Data("bench\n".utf8))
        process = childProcess(healthvaultdPath(), ["--vault", directory.path, "--passphrase-file", passphraseFile])
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let socket = directory.appendingPathComponent("healthvaultd.sock").path
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
    }

    /// One connection claiming `appID` with the wrong key, to its refusal.
    func refused(as appID: String) async {
        do {
            let store = try await HealthStore(appID: appID, keyFile: wrongKeyFile, vaultDirectory: directory.path)
            await store.close()
            fatalError("\(appID) was accepted with a wrong key")
        } catch {
            blackHole(error)
        }
    }

}

/// One daemon for both authentication benchmarks, so both are refused by the same process;
/// stopped and removed when the benchmarks' process ends.
nonisolated(unsafe) var authenticationFixture: AuthenticationFixture?
nonisolated(unsafe) var authenticationCleanup: (pid: pid_t, root: URL)?

func makeAuthenticationFixture() async throws {
    guard authenticationFixture == nil else { return }
    let fixture = try await AuthenticationFixture()
    authenticationFixture = fixture
    authenticationCleanup = (fixture.process.processIdentifier, fixture.root)
    atexit {
        guard let (pid, root) = authenticationCleanup else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: root)
    }
}
