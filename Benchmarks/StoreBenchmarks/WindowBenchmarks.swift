// What a read grant's window hides, and what a per-object grant leaves out, must take the time of
// data that does not exist (issue 23: "byte-identical answers and equal timing within 5%, the same
// promise and the same tests as a denied type today"; docs/ACCESS_RULES.md, "Windows and
// expiries" and "Per-object reads").
//
// Windows: the reader holds read grants with a window, given through the engine's grant API as
// `healthvault grant --from/--to` and `--last` give them (`decide(.grant, .read, terms:)`), on
// steps, blood pressure (systolic and diastolic, so the correlation type too), active energy,
// workouts and the activity summary type. Two windows, each in a pair of vaults:
// - fixed: a week from `windowStart` to `windowEnd`. The "hidden" vault holds, of other apps,
//   what lies inside (every kind) and, outside it, 250,000 step samples before the week and
//   250,000 after, 10,000 blood pressure correlations on each side, 10,000 active energy samples
//   and 1,000 workouts on each side, 10,000 steps of a third app that has nothing inside, and
//   10,000 deletions of outside steps on each side. The "empty" vault holds only what lies
//   inside, and the same deletions inside the week.
// - rolling, the last 7 days: the engine's clock stands at `windowEnd`, so the window is the
//   same week, open after it; the "hidden" vault holds everything outside before the week (a
//   rolling window has no end: later samples are inside it).
// In both, the reader's own 100 step samples lie the day before the week (outside the window,
// shown as its own) and the other app deleted 28 of its step samples inside the week. Each query
// kind an app can make is one benchmark, the two vaults' calls interleaved in a random order in
// every iteration, as DenialBenchmarks does; the lookup by UUID compares another app's sample
// outside the window (hidden) with an unknown UUID (empty), and, apart, a sample inside.
//
// Per-object: the reader may read 3 vision prescriptions and 3 CDA documents a clinic saved,
// chosen by the owner (`decideObjects`). The "hidden" vault holds besides them 2,500
// prescriptions and 2,500 documents of the clinic and as many of an optician, none chosen for the
// reader (50 of them chosen for another app), dated among the chosen ones; the "empty" vault
// only the chosen ones. Both hold the reader's own prescription and document.
import Benchmark
import Foundation
import HealthModel
import VaultCrypto
import VaultEngine
import VaultStore

let windowOther = "org.example.theirs"
let windowThird = "org.example.third"
let windowStart = Date(timeIntervalSinceReferenceDate: 700_000_000 + 200 * 86_400)
let windowEnd = windowStart.addingTimeInterval(7 * 86_400)

/// Samples of one source, `every` seconds apart from `first`, each `length` seconds long.
func spacedSamples(
    _ count: Int,
    source: String,
    from first: Date,
    every: TimeInterval,
    length: TimeInterval,
    make: (Date, Date, SourceRevision, Int) -> Sample
) -> [Sample] {
    let revision = SourceRevision(source: Source(bundleIdentifier: source, name: source), version: "1.0")
    return (0..<count).map { index in
        let start = first.addingTimeInterval(Double(index) * every)
        return make(start, start.addingTimeInterval(length), revision, index)
    }
}

func steps(_ start: Date, _ end: Date, _ revision: SourceRevision, _ index: Int) -> Sample {
    .quantity(
        try! QuantitySample(
            type: .stepCount,
            quantity: Quantity(Double(1 + index % 120), .count),
            start: start,
            end: end,
            sourceRevision: revision
        )
    )
}

func energy(_ start: Date, _ end: Date, _ revision: SourceRevision, _ index: Int) -> Sample {
    .quantity(
        try! QuantitySample(
            type: .activeEnergyBurned,
            quantity: Quantity(Double(5 + index % 40), .kilocalorie),
            start: start,
            end: end,
            sourceRevision: revision
        )
    )
}

func workout(_ start: Date, _ end: Date, _ revision: SourceRevision, _ index: Int) -> Sample {
    .workout(
        try! Workout(
            activityType: .running,
            start: start,
            end: end,
            totalEnergyBurned: Quantity(Double(200 + index % 100), .kilocalorie),
            sourceRevision: revision
        )
    )
}

func bloodPressure(_ start: Date, _ end: Date, _ revision: SourceRevision, _ index: Int) -> Sample {
    let member = { (type: QuantityTypeIdentifier, value: Double) -> Sample in
        .quantity(
            try! QuantitySample(
                type: type,
                quantity: Quantity(value, .millimeterOfMercury),
                start: start,
                end: start,
                sourceRevision: revision
            )
        )
    }
    return .correlation(
        try! Correlation(
            type: .bloodPressure,
            start: start,
            end: start,
            objects: [
                member(.bloodPressureSystolic, Double(100 + index % 40)),
                member(.bloodPressureDiastolic, Double(60 + index % 30)),
            ],
            sourceRevision: revision
        )
    )
}

/// Which window a pair of vaults is read through.
enum WindowKind: String, CaseIterable, Sendable {
    case fixed = "fixed"
    case rolling = "last 7 days"

    var window: GrantWindow {
        switch self {
        case .fixed: .fixed(start: windowStart, end: windowEnd)
        case .rolling: .last(seconds: 7 * 86_400)
        }
    }
}

/// One vault of a window comparison, open with its engine (its clock at `windowEnd`).
final class WindowVault: @unchecked Sendable {
    let files: TemporaryVault
    let vault: Vault
    let engine: VaultEngine
    /// Another app's step sample outside the window (hidden vault), or a UUID never stored.
    let outsideUUID: UUID
    /// Another app's step sample inside the window, the same in both vaults.
    let insideUUID: UUID
    /// A UUID never stored.
    let unknownUUID = UUID()

    init(_ kind: WindowKind, hidden: Bool) async throws {
        files = try TemporaryVault()
        let store = files.store
        let day: TimeInterval = 86_400
        // Inside the week: steps every 30 minutes, 10 minutes long; active energy every hour; two
        // blood pressures and a workout a day. The same samples (UUIDs too) in both vaults.
        let insideSteps = spacedSamples(
            336,
            source: windowOther,
            from: windowStart.addingTimeInterval(600),
            every: 1800,
            length: 600,
            make: steps
        )
        let insideOthers =
            spacedSamples(168, source: windowOther, from: windowStart, every: 3600, length: 1800, make: energy)
            + spacedSamples(
                14,
                source: windowOther,
                from: windowStart.addingTimeInterval(8 * 3600),
                every: day / 2,
                length: 0,
                make: bloodPressure
            )
            + spacedSamples(
                7,
                source: windowOther,
                from: windowStart.addingTimeInterval(7 * 3600),
                every: day,
                length: 2700,
                make: workout
            )
        insideUUID = insideSteps[100].uuid
        // The reader's own, the day before the week: outside the window, shown as its own.
        try store.save(
            spacedSamples(
                ownCount,
                source: denialReader,
                from: windowStart.addingTimeInterval(-day),
                every: 60,
                length: 60,
                make: steps
            )
        )
        var uuid = UUID()
        if hidden {
            // Outside: before the week (and after it, for the fixed window), a minute apart.
            let sides = kind == .fixed ? [-1.0, 1.0] : [-1.0]
            let perSide = hiddenCount / sides.count
            for side in sides {
                // The side's first sample: ending an hour before the week, or an hour after it.
                let edge = side < 0 ? windowStart.addingTimeInterval(-3600) : windowEnd.addingTimeInterval(3600)
                func first(_ count: Int, every: TimeInterval, length: TimeInterval) -> Date {
                    side < 0 ? edge.addingTimeInterval(-Double(count) * every - length) : edge
                }
                for chunk in 0..<(perSide / 50_000) {
                    let samples = spacedSamples(
                        50_000,
                        source: windowOther,
                        from: first(perSide, every: 60, length: 60).addingTimeInterval(Double(chunk) * 50_000 * 60),
                        every: 60,
                        length: 60,
                        make: steps
                    )
                    if chunk == 1 { uuid = samples[4_321].uuid }
                    try store.save(samples)
                    // Deletions outside: every 10th sample of the side's first two chunks, 10,000 a side.
                    if chunk < 2 {
                        let gone = stride(from: 0, to: samples.count, by: 10).map { samples[$0].uuid }
                        _ = try store.delete(uuids: Array(gone.prefix(5_000)), scope: .app(windowOther))
                    }
                }
                let count = 10_000
                try store.save(
                    spacedSamples(
                        count,
                        source: windowOther,
                        from: first(count, every: 3600, length: 0),
                        every: 3600,
                        length: 0,
                        make: bloodPressure
                    )
                )
                try store.save(
                    spacedSamples(
                        count,
                        source: windowOther,
                        from: first(count, every: 3600, length: 1800),
                        every: 3600,
                        length: 1800,
                        make: energy
                    )
                )
                try store.save(
                    spacedSamples(
                        1_000,
                        source: windowOther,
                        from: first(1_000, every: day / 2, length: 2700),
                        every: day / 2,
                        length: 2700,
                        make: workout
                    )
                )
            }
            // A third app with steps only before the week: no source of the window's.
            try store.save(
                spacedSamples(
                    10_000,
                    source: windowThird,
                    from: windowStart.addingTimeInterval(-30 * day),
                    every: 120,
                    length: 60,
                    make: steps
                )
            )
        }
        outsideUUID = uuid
        try store.save(insideSteps)
        try store.save(insideOthers)
        // Deletions inside the week, the same in both vaults.
        _ = try store.delete(
            uuids: stride(from: 5, to: insideSteps.count, by: 12).map { insideSteps[$0].uuid },
            scope: .app(windowOther)
        )
        let clock = { @Sendable in windowEnd }
        let filling = try VaultEngine(vault: files.vault, now: clock)
        let readTypes: [ObjectType] = [
            .quantity(.stepCount), .quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic),
            .quantity(.activeEnergyBurned), .workout, .activitySummary,
        ]
        try await filling.enroll(
            AppRegistration(
                appID: denialReader,
                displayName: "Mine",
                publicKey: Ed25519.SigningKey().publicKey,
                readPurpose: "benchmark",
                declaredRead: Set(readTypes)
            ),
            adoptingExistingSamples: true
        )
        // As `healthvault grant org.example.mine --read ... --from ... --to ...` (or `--last 7d`).
        try await filling.decide(
            .grant,
            .read,
            of: Set(readTypes),
            for: denialReader,
            terms: GrantTerms(window: kind.window)
        )
        await filling.shutdown()
        // Locked and opened again, so both vaults start from an empty write-ahead log.
        files.vault.lock()
        vault = try Vault.open(at: files.directory, passphrase: SecureBytes(utf8: "bench"))
        engine = try VaultEngine(vault: vault, now: clock)
    }
}

/// The pairs of vaults by window, made once for all the window benchmarks of that window.
nonisolated(unsafe) var windowVaults: [WindowKind: (hidden: WindowVault, empty: WindowVault)] = [:]

func makeWindowVaults(_ kind: WindowKind) async throws {
    guard windowVaults[kind] == nil else { return }
    let pair = (try await WindowVault(kind, hidden: true), try await WindowVault(kind, hidden: false))
    windowVaults[kind] = pair
    denialDirectories += [pair.0.files.directory, pair.1.files.directory]
    atexit {
        for directory in denialDirectories { try? FileManager.default.removeItem(at: directory) }
    }
}

/// A read through a window, as one call of the engine by the reader.
struct WindowRead: Sendable {
    let kind: String
    let call: @Sendable (WindowVault, Caller) async throws -> Void
}

let windowReads: [WindowRead] = [
    WindowRead(kind: "sample query") { vault, caller in
        // Three days either side of the week: the reader's own samples, and in the hidden vault
        // outside ones, match the dates.
        let query = SampleQueryDescriptor(
            predicates: [
                SampleTypePredicate(
                    .quantity(.stepCount),
                    predicate: .samples(
                        withStart: windowStart.addingTimeInterval(-3 * 86_400),
                        end: windowEnd.addingTimeInterval(3 * 86_400)
                    )
                )
            ],
            sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)]
        )
        blackHole(try await vault.engine.samples(matching: query, as: caller))
    },
    WindowRead(kind: "anchored query") { vault, caller in
        // From the beginning: every addition and deletion the reader sees.
        let query = AnchoredObjectQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))])
        blackHole(try await vault.engine.anchoredObjects(matching: query, as: caller))
    },
    WindowRead(kind: "source query") { vault, caller in
        let query = SourceQueryDescriptor(sampleType: .quantity(.stepCount))
        blackHole(try await vault.engine.sources(matching: query, as: caller))
    },
    WindowRead(kind: "statistics") { vault, caller in
        let query = StatisticsQueryDescriptor(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource])
        blackHole(try await vault.engine.statistics(matching: query, as: caller))
    },
    WindowRead(kind: "statistics collection") { vault, caller in
        let query = StatisticsCollectionQueryDescriptor(
            quantityType: .stepCount,
            options: [.cumulativeSum],
            anchorDate: windowStart,
            intervalComponents: IntervalComponents(hour: 1),
            timeZone: "UTC"
        )
        blackHole(try await vault.engine.statisticsCollection(matching: query, as: caller))
    },
    WindowRead(kind: "correlation query") { vault, caller in
        let query = CorrelationQueryDescriptor(type: .bloodPressure)
        blackHole(try await vault.engine.correlations(matching: query, as: caller))
    },
    WindowRead(kind: "activity summaries") { vault, caller in
        // The week (2023-09-24 20:26 to 2023-10-01 20:26 UTC) and three days either side.
        let query = ActivitySummaryQueryDescriptor(start: "2023-09-21", end: "2023-10-04", timeZone: "UTC")
        blackHole(try await vault.engine.activitySummaries(matching: query, as: caller))
    },
    WindowRead(kind: "workout query") { vault, caller in
        let query = SampleQueryDescriptor(predicates: [SampleTypePredicate(.workout)])
        blackHole(try await vault.engine.samples(matching: query, as: caller))
    },
]

/// A CDA document of about a kilobyte and a half.
func benchmarkCDA(title: String) -> Data {
    Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3">
          <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
          <id root="2.16.840.1.113883.19.5" extension="\(title.utf8.count)"/>
          <code code="18842-5" codeSystem="2.16.840.1.113883.6.1"/>
          <title>\(title)</title>
          <effectiveTime value="20230301"/>
          <confidentialityCode code="N" codeSystem="2.16.840.1.113883.5.25"/>
          <recordTarget><patientRole><id root="1.2.3"/><patient><name>Ada Lovelace</name></patient></patientRole></recordTarget>
          <author><time value="20230301"/><assignedAuthor><id root="1.2.4"/>
            <assignedPerson><name><given>Grace</given><family>Hopper</family></name></assignedPerson>
          </assignedAuthor></author>
          <custodian><assignedCustodian><representedCustodianOrganization><id root="1.2.5"/>
            <name>General Hospital</name></representedCustodianOrganization></assignedCustodian></custodian>
          <component><nonXMLBody><text>\(String(repeating: "Seen, examined and discharged in good health. ", count: 16))</text></nonXMLBody></component>
        </ClinicalDocument>

        """.utf8
    )
}

let perObjectClinic = "org.example.clinic"
let perObjectOptician = "org.example.optician"
let perObjectStart = Date(timeIntervalSinceReferenceDate: 700_000_000)

/// Prescriptions and documents of one source: even indexes prescriptions, odd ones documents,
/// `every` seconds apart from `first`.
func perObjectSamples(_ count: Int, source: String, from first: Date, every: TimeInterval) -> [Sample] {
    spacedSamples(count, source: source, from: first, every: every, length: 3600) { start, end, revision, index in
        index % 2 == 0
            ? .visionPrescription(
                try! .glasses(
                    rightEye: GlassesLensSpecification(
                        sphere: Quantity(-Double(index % 16) / 4, .diopter),
                        cylinder: Quantity(-0.5, .diopter),
                        axis: Quantity(Double(index % 180), .degreeAngle)
                    ),
                    leftEye: GlassesLensSpecification(sphere: Quantity(-2, .diopter)),
                    dateIssued: start,
                    expirationDate: start.addingTimeInterval(2 * 365 * 86_400),
                    sourceRevision: revision
                )
            )
            : .cdaDocument(
                try! CDADocumentSample(
                    data: benchmarkCDA(title: "Visit \(source) \(index)"),
                    start: start,
                    end: end,
                    sourceRevision: revision
                )
            )
    }
}

/// One vault of the per-object comparison, open with its engine.
final class PerObjectVault: @unchecked Sendable {
    let files: TemporaryVault
    let vault: Vault
    let engine: VaultEngine
    /// An object chosen for the reader (the same in both vaults).
    let chosenUUID: UUID
    /// Another app's object not chosen for the reader (hidden vault), or a UUID never stored.
    let otherUUID: UUID
    let unknownUUID = UUID()

    init(hidden: Bool) async throws {
        files = try TemporaryVault()
        let store = files.store
        // The reader's own prescription and document, and the clinic's six chosen for it, a
        // day apart; in the hidden vault, every 5 minutes around them, the others.
        try store.save(perObjectSamples(2, source: denialReader, from: perObjectStart, every: 86_400))
        let chosen = perObjectSamples(
            6,
            source: perObjectClinic,
            from: perObjectStart.addingTimeInterval(1_800),
            every: 86_400
        )
        var uuid = UUID()
        var theirs: [UUID] = []
        if hidden {
            let first = perObjectStart.addingTimeInterval(-2 * 86_400)
            let clinic = perObjectSamples(5_000, source: perObjectClinic, from: first, every: 300)
            let optician = perObjectSamples(
                5_000,
                source: perObjectOptician,
                from: first.addingTimeInterval(150),
                every: 300
            )
            try store.save(Array(clinic[..<2_500]))
            try store.save(chosen)
            try store.save(Array(clinic[2_500...]))
            try store.save(optician)
            uuid = clinic[1_234].uuid
            theirs = (clinic.prefix(25) + optician.prefix(25)).map(\.uuid)
        } else {
            try store.save(chosen)
        }
        otherUUID = uuid
        chosenUUID = chosen[3].uuid
        let filling = try VaultEngine(vault: files.vault)
        let types: Set<ObjectType> = [.visionPrescription, .document(.cda)]
        for (app, adopting) in [(denialReader, true), (denialOther, false)] {
            try await filling.enroll(
                AppRegistration(
                    appID: app,
                    displayName: app,
                    publicKey: Ed25519.SigningKey().publicKey,
                    readPurpose: "benchmark",
                    declaredRead: types
                ),
                adoptingExistingSamples: adopting
            )
        }
        // As `healthvault objects grant`: the six for the reader; 50 others for another app.
        try await filling.decideObjects(.grant, chosen.map(\.uuid), for: denialReader)
        if !theirs.isEmpty { try await filling.decideObjects(.grant, theirs, for: denialOther) }
        await filling.shutdown()
        files.vault.lock()
        vault = try Vault.open(at: files.directory, passphrase: SecureBytes(utf8: "bench"))
        engine = try VaultEngine(vault: vault)
    }
}

nonisolated(unsafe) var perObjectVaults: (hidden: PerObjectVault, empty: PerObjectVault)?

func makePerObjectVaults() async throws {
    guard perObjectVaults == nil else { return }
    perObjectVaults = (try await PerObjectVault(hidden: true), try await PerObjectVault(hidden: false))
    denialDirectories += [perObjectVaults!.hidden.files.directory, perObjectVaults!.empty.files.directory]
    atexit {
        for directory in denialDirectories { try? FileManager.default.removeItem(at: directory) }
    }
}

struct PerObjectRead: Sendable {
    let kind: String
    let call: @Sendable (PerObjectVault, Caller) async throws -> Void
}

let perObjectReads: [PerObjectRead] = [
    PerObjectRead(kind: "sample query, prescriptions") { vault, caller in
        let query = SampleQueryDescriptor(
            predicates: [SampleTypePredicate(.visionPrescription)],
            sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)]
        )
        blackHole(try await vault.engine.samples(matching: query, as: caller))
    },
    PerObjectRead(kind: "sample query, documents") { vault, caller in
        let query = SampleQueryDescriptor(
            predicates: [SampleTypePredicate(.document(.cda))],
            sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)]
        )
        blackHole(try await vault.engine.samples(matching: query, as: caller))
    },
    PerObjectRead(kind: "document query with data") { vault, caller in
        blackHole(try await vault.engine.documents(matching: DocumentQueryDescriptor(), as: caller))
    },
    PerObjectRead(kind: "document query without data") { vault, caller in
        let query = DocumentQueryDescriptor(includeDocumentData: false)
        blackHole(try await vault.engine.documents(matching: query, as: caller))
    },
    PerObjectRead(kind: "anchored query") { vault, caller in
        let query = AnchoredObjectQueryDescriptor(
            predicates: [SampleTypePredicate(.visionPrescription), SampleTypePredicate(.document(.cda))]
        )
        blackHole(try await vault.engine.anchoredObjects(matching: query, as: caller))
    },
    PerObjectRead(kind: "source query") { vault, caller in
        blackHole(
            try await vault.engine.sources(matching: SourceQueryDescriptor(sampleType: .document(.cda)), as: caller)
        )
    },
    PerObjectRead(kind: "chosen object lookup") { vault, caller in
        let sample = try await vault.engine.sample(uuid: vault.chosenUUID, as: caller)
        precondition(sample != nil)
    },
]

func windowBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [],
        timeUnits: .microseconds,
        warmupIterations: 20,
        maxDuration: .seconds(10),
        maxIterations: 1000
    )
    let caller = Caller.app(denialReader)
    for kind in WindowKind.allCases {
        let setup = { @Sendable in try await makeWindowVaults(kind) }
        for read in windowReads {
            interleavedBenchmark(
                "Window \(kind.rawValue): \(read.kind)",
                [
                    ("hidden", { try await read.call(windowVaults[kind]!.hidden, caller) }),
                    ("empty", { try await read.call(windowVaults[kind]!.empty, caller) }),
                ],
                configuration: configuration,
                setup: setup
            )
        }
        interleavedBenchmark(
            "Window \(kind.rawValue): sample inside by UUID",
            [
                (
                    "hidden",
                    {
                        try await lookupWindowed(
                            windowVaults[kind]!.hidden,
                            windowVaults[kind]!.hidden.insideUUID,
                            found: true
                        )
                    }
                ),
                (
                    "empty",
                    {
                        try await lookupWindowed(
                            windowVaults[kind]!.empty,
                            windowVaults[kind]!.empty.insideUUID,
                            found: true
                        )
                    }
                ),
            ],
            configuration: configuration,
            setup: setup
        )
        // Another app's sample outside the window against an unknown UUID in the empty vault.
        interleavedBenchmark(
            "Window \(kind.rawValue): object lookup",
            [
                (
                    "hidden",
                    {
                        try await lookupWindowed(
                            windowVaults[kind]!.hidden,
                            windowVaults[kind]!.hidden.outsideUUID,
                            found: false
                        )
                    }
                ),
                (
                    "empty",
                    {
                        try await lookupWindowed(
                            windowVaults[kind]!.empty,
                            windowVaults[kind]!.empty.unknownUUID,
                            found: false
                        )
                    }
                ),
            ],
            configuration: configuration,
            setup: setup
        )
    }

    for read in perObjectReads {
        interleavedBenchmark(
            "Per-object \(read.kind)",
            [
                ("hidden", { try await read.call(perObjectVaults!.hidden, caller) }),
                ("empty", { try await read.call(perObjectVaults!.empty, caller) }),
            ],
            configuration: configuration,
            setup: makePerObjectVaults
        )
    }
    // An object not chosen for the reader against an unknown UUID in the empty vault.
    interleavedBenchmark(
        "Per-object object lookup",
        [
            ("hidden", { try await lookupObject(perObjectVaults!.hidden, perObjectVaults!.hidden.otherUUID) }),
            ("empty", { try await lookupObject(perObjectVaults!.empty, perObjectVaults!.empty.unknownUUID) }),
        ],
        configuration: configuration,
        setup: makePerObjectVaults
    )
}

func lookupWindowed(_ vault: WindowVault, _ uuid: UUID, found: Bool) async throws {
    let sample = try await vault.engine.sample(uuid: uuid, as: .app(denialReader))
    precondition((sample != nil) == found)
}

func lookupObject(_ vault: PerObjectVault, _ uuid: UUID) async throws {
    let sample = try await vault.engine.sample(uuid: uuid, as: .app(denialReader))
    precondition(sample == nil)
}
