import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// Issue 23, windows: a read grant with a window answers every query exactly as a plain grant
/// over a vault holding only what the window shows, byte for byte; the app's own samples stay
/// visible whatever the window.
@Suite struct WindowLooksLikeMissingDataTests {
    static let reader = "org.example.reader"
    static let other = "org.example.other"
    static let third = "org.example.third"
    static let t0 = RFC3339.date(from: "2026-03-01T00:00:00.000Z")!
    static let day: TimeInterval = 86_400
    static let hour: TimeInterval = 3_600

    static func at(_ days: Double, _ hours: Double = 0, _ minutes: Double = 0) -> Date {
        t0.addingTimeInterval(days * day + hours * hour + minutes * 60)
    }

    static func uuid(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "10000000-0000-4000-8000-%012x", number))!
    }

    /// Every type the reader is granted to read (with the window, in the windowed vault).
    static let readTypes: [SampleType] = [
        .quantity(.stepCount), .quantity(.heartRate), .quantity(.bloodPressureSystolic),
        .quantity(.bloodPressureDiastolic), .quantity(.activeEnergyBurned), .quantity(.appleExerciseTime),
        .category(.appleStandHour), .workout, .stateOfMind, .electrocardiogram, .heartbeatSeries,
    ]

    /// A window under test: how the grant names it, the clock at the grant and at the queries,
    /// and which dates it shows.
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let window: GrantWindow
        let grantedAt: Date
        let queriedAt: Date
        let shows: @Sendable (Date, Date) -> Bool
    }

    static let cases: [Case] = [
        Case(
            description: "fixed, from day 2 to day 4",
            window: .fixed(start: at(2), end: at(4)),
            grantedAt: at(7),
            queriedAt: at(7, 1),
            shows: { start, end in start >= at(2) && end <= at(4) }
        ),
        Case(
            description: "fixed, up to day 3 only",
            window: .fixed(start: nil, end: at(3)),
            grantedAt: at(7),
            queriedAt: at(7, 1),
            shows: { _, end in end <= at(3) }
        ),
        Case(
            description: "the last 3 days",
            window: .last(seconds: 3 * day),
            grantedAt: at(1),
            queriedAt: at(5, 12),
            shows: { start, _ in start >= at(2, 12) }
        ),
        Case(
            description: "since the grant",
            window: .sinceGrant,
            grantedAt: at(3, 6),
            queriedAt: at(6),
            shows: { start, _ in start >= at(3, 6) }
        ),
    ]

    /// The other apps' samples, in the order they are saved (one batch per app and kind).
    static func othersSamples() throws -> [(app: String, samples: [Sample])] {
        var number = 0
        func next() -> UUID {
            number += 1
            return uuid(number)
        }
        let revision = SourceRevision(source: Source(bundleIdentifier: "ignored", name: "ignored"))
        func quantity(
            _ type: QuantityTypeIdentifier,
            _ value: Double,
            _ start: Date,
            _ seconds: TimeInterval
        ) throws
            -> Sample
        {
            .quantity(
                try QuantitySample(
                    uuid: next(),
                    type: type,
                    quantity: Quantity(value, type.canonicalUnit),
                    start: start,
                    end: start.addingTimeInterval(seconds),
                    sourceRevision: revision
                )
            )
        }
        var steps: [Sample] = []
        for hours in stride(from: 0, to: 7 * 24, by: 3) {
            steps.append(try quantity(.stepCount, Double(100 + hours), at(0, Double(hours), 10), 1_200))
        }
        // Samples across the windows' edges: hidden wherever they cross one.
        for (start, seconds) in [
            (at(2, -1), 2 * hour), (at(4, -1), 2 * hour), (at(3, -0.5), hour), (at(2, 11), 2 * hour),
            (at(3, 5), 2 * hour),
        ] {
            steps.append(try quantity(.stepCount, 500, start, seconds))
        }
        var heart: [Sample] = []
        for hours in stride(from: 1, to: 7 * 24, by: 2) {
            heart.append(try quantity(.heartRate, Double(50 + hours % 40), at(0, Double(hours), 5), 0))
        }
        var energy: [Sample] = []
        for hours in stride(from: 2, to: 7 * 24, by: 4) {
            energy.append(try quantity(.activeEnergyBurned, 20, at(0, Double(hours)), 1_800))
        }
        var pressure: [Sample] = []
        var workouts: [Sample] = []
        var kinds: [Sample] = []
        for days in 0..<7 {
            let noon = at(Double(days), 12)
            pressure.append(
                .correlation(
                    try Correlation(
                        uuid: next(),
                        type: .bloodPressure,
                        start: noon,
                        end: noon,
                        objects: [
                            try quantity(.bloodPressureSystolic, Double(105 + days * 3), noon, 0),
                            try quantity(.bloodPressureDiastolic, Double(70 + days), noon, 0),
                        ],
                        sourceRevision: revision
                    )
                )
            )
            workouts.append(
                .workout(
                    try Workout(
                        uuid: next(),
                        activityType: .running,
                        start: at(Double(days), 7),
                        end: at(Double(days), 7, 45),
                        totalEnergyBurned: Quantity(300, .kilocalorie),
                        sourceRevision: revision
                    )
                )
            )
            kinds.append(
                .stateOfMind(
                    try StateOfMind(
                        uuid: next(),
                        date: at(Double(days), 20),
                        kind: .dailyMood,
                        valence: 0.1 * Double(days - 3),
                        sourceRevision: revision
                    )
                )
            )
            if days % 2 == 1 {
                kinds.append(
                    .electrocardiogram(
                        try Electrocardiogram(
                            uuid: next(),
                            start: at(Double(days), 9),
                            end: at(Double(days), 9, 0.5),
                            classification: .sinusRhythm,
                            averageHeartRate: Quantity(60, .countPerMinute),
                            samplingFrequency: Quantity(512, .hertz),
                            voltageMeasurements: (0..<1_024).map {
                                .init(
                                    timeSinceSampleStart: Double($0) / 512,
                                    leadI: Quantity(Double($0 % 89 + days), try! HealthUnit(from: "mcV"))
                                )
                            },
                            sourceRevision: revision
                        )
                    )
                )
                kinds.append(
                    .heartbeatSeries(
                        try HeartbeatSeriesSample(
                            uuid: next(),
                            start: at(Double(days), 10),
                            end: at(Double(days), 10, 10),
                            heartbeats: (0..<300).map {
                                .init(timeSinceSeriesStart: Double($0 * 2), precededByGap: $0 % (40 + days) == 0)
                            },
                            sourceRevision: revision
                        )
                    )
                )
            }
        }
        // A third app, only on the last day and the first morning.
        let thirds = [
            try quantity(.stepCount, 42, at(6, 18), 600), try quantity(.heartRate, 99, at(6, 18), 0),
            try quantity(.stepCount, 43, at(0, 1), 600),
        ]
        return [
            (other, steps), (other, heart), (other, energy), (other, pressure), (other, workouts), (other, kinds),
            (third, thirds),
        ]
    }

    /// The reader's own samples: on every day, inside and outside every window.
    static func ownSamples() throws -> [Sample] {
        let revision = SourceRevision(source: Source(bundleIdentifier: "ignored", name: "ignored"))
        var samples: [Sample] = []
        for days in 0..<7 {
            samples.append(
                .quantity(
                    try QuantitySample(
                        uuid: uuid(0x10_000 + days),
                        type: .stepCount,
                        quantity: Quantity(7, .count),
                        start: at(Double(days), 5),
                        end: at(Double(days), 5, 30),
                        sourceRevision: revision
                    )
                )
            )
        }
        samples.append(
            .quantity(
                try QuantitySample(
                    uuid: uuid(0x10_100),
                    type: .heartRate,
                    quantity: Quantity(77, .countPerMinute),
                    start: at(0, 3),
                    end: at(0, 3),
                    sourceRevision: revision
                )
            )
        )
        samples.append(
            .stateOfMind(
                try StateOfMind(
                    uuid: uuid(0x10_200),
                    date: at(0, 21),
                    kind: .momentaryEmotion,
                    valence: 0.5,
                    sourceRevision: revision
                )
            )
        )
        return samples
    }

    /// Whether a sample lies inside the case's window (a correlation with its objects).
    static func inside(_ sample: Sample, _ testCase: Case) -> Bool {
        if case .correlation(let correlation) = sample {
            return testCase.shows(correlation.startDate, correlation.endDate)
                && correlation.objects.allSatisfy { testCase.shows($0.startDate, $0.endDate) }
        }
        return testCase.shows(sample.startDate, sample.endDate)
    }

    /// A vault with the reader's own samples and the other apps' (all of them, or only those
    /// the window shows); the reader granted every type, within `window` or wholly.
    static func vault(_ testCase: Case, windowed: Bool) async throws -> (TestEngine, TestClock) {
        let clock = TestClock(testCase.grantedAt)
        let test = try TestEngine(clock: clock)
        for app in [reader, other, third] {
            try await test.enroll(app)
            // Stand hours and exercise time are the system's (the policy reserves them): the
            // activity summaries count steps' hours and workouts instead.
            let shared = readTypes.filter { $0 != .category(.appleStandHour) && $0 != .quantity(.appleExerciseTime) }
            try await test.engine.decide(.grant, .share, of: Set(shared.map(ObjectType.init)), for: app)
        }
        try await test.engine.save(try ownSamples(), as: .app(reader))
        for (app, samples) in try othersSamples() {
            let kept = windowed ? samples : samples.filter { inside($0, testCase) }
            if !kept.isEmpty { try await test.engine.save(kept, as: .app(app)) }
        }
        try await test.engine.setCharacteristic(.biologicalSex(.female))
        try await test.engine.decide(.grant, .read, of: [.characteristic(.biologicalSex)], for: reader)
        try await test.engine.decide(
            .grant,
            .read,
            of: Set(readTypes.map(ObjectType.init) + [.activitySummary]),
            for: reader,
            terms: windowed ? GrantTerms(window: testCase.window) : .none
        )
        clock.set(testCase.queriedAt)
        return (test, clock)
    }

    /// Every read the reader can make, as the bytes the daemon would send; anchored queries
    /// before and after `change`, which deletes and saves the same visible samples in both vaults.
    static func answers(
        _ engine: VaultEngine,
        probes: [UUID],
        series: [UUID],
        change: () async throws -> Void
    ) async throws -> [Data] {
        let caller = Caller.app(reader)
        var answers: [Data] = []
        func add(_ value: some Encodable) throws { answers.append(try wireBytes(value)) }

        // Sample queries.
        var queries: [SampleQueryDescriptor] = readTypes.map {
            SampleQueryDescriptor(
                predicates: [SampleTypePredicate($0)],
                sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)]
            )
        }
        queries += [
            SampleQueryDescriptor(
                predicates: [
                    SampleTypePredicate(.quantity(.stepCount), predicate: .samples(withStart: at(1), end: at(5)))
                ],
                sortDescriptors: [SampleSortDescriptor(.value, order: .descending)],
                limit: 5
            ),
            SampleQueryDescriptor(predicates: [SampleTypePredicate(.correlation(.bloodPressure))]),
            SampleQueryDescriptor(
                predicates: [
                    SampleTypePredicate(
                        .quantity(.heartRate),
                        predicate: .quantity(.greaterThan, Quantity(70, .countPerMinute))
                    ),
                    SampleTypePredicate(.stateOfMind),
                ],
                sortDescriptors: [SampleSortDescriptor(.startDate)],
                limit: 12
            ),
        ]
        for query in queries { try add(try await engine.samples(matching: query, as: caller)) }

        // Lookups by UUID: the window's samples are found, the others are unknown UUIDs.
        for probe in probes { try add(try await engine.sample(uuid: probe, as: caller)) }

        // Sources.
        for type in [SampleType.quantity(.stepCount), .quantity(.heartRate), .correlation(.bloodPressure), .workout] {
            try add(try await engine.sources(matching: SourceQueryDescriptor(sampleType: type), as: caller))
        }

        // Statistics and collections.
        let statistics: [StatisticsQueryDescriptor] = [
            StatisticsQueryDescriptor(
                quantityType: .stepCount,
                options: [.cumulativeSum, .separateBySource, .duration]
            ),
            StatisticsQueryDescriptor(
                quantityType: .heartRate,
                options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .separateBySource]
            ),
            StatisticsQueryDescriptor(quantityType: .bloodPressureSystolic, options: [.discreteAverage, .mostRecent]),
            StatisticsQueryDescriptor(
                quantityType: .stepCount,
                predicate: .samples(withStart: at(2, 12), end: at(3, 12)),
                options: [.cumulativeSum]
            ),
        ]
        for query in statistics { try add(try await engine.statistics(matching: query, as: caller)) }
        for (type, options, components, zone) in [
            (
                QuantityTypeIdentifier.stepCount, StatisticsOptions([.cumulativeSum, .separateBySource]),
                IntervalComponents(hour: 6), "UTC"
            ),
            (.heartRate, [.discreteAverage, .discreteMin, .discreteMax], IntervalComponents(day: 1), "Europe/Paris"),
            (.activeEnergyBurned, [.cumulativeSum, .duration], IntervalComponents(day: 1), "UTC"),
        ] {
            let collection = StatisticsCollectionQueryDescriptor(
                quantityType: type,
                options: options,
                anchorDate: t0,
                intervalComponents: components,
                timeZone: zone
            )
            try add(try await engine.statisticsCollection(matching: collection, as: caller))
        }

        // Correlations.
        for query in [
            CorrelationQueryDescriptor(type: .bloodPressure),
            CorrelationQueryDescriptor(
                type: .bloodPressure,
                samplePredicates: [
                    SampleTypePredicate(
                        .quantity(.bloodPressureSystolic),
                        predicate: .quantity(.greaterThan, Quantity(110, .millimeterOfMercury))
                    )
                ]
            ),
        ] {
            try add(try await engine.correlations(matching: query, as: caller))
        }

        // Activity summaries, and a characteristic (no dates: no window).
        try add(
            try await engine.activitySummaries(
                matching: ActivitySummaryQueryDescriptor(start: "2026-03-01", end: "2026-03-08", timeZone: "UTC"),
                as: caller
            )
        )
        try add(try await engine.characteristic(.biologicalSex, as: caller))

        // Series: a hidden electrocardiogram or heartbeat series reads as an unknown UUID.
        for uuid in series {
            try add(
                try await engine.voltageMeasurements(of: uuid, offset: 100, limit: 50, as: caller).map {
                    [try wireBytes($0.points), try wireBytes($0.next)]
                }
            )
            try add(
                try await engine.heartbeats(of: uuid, offset: 10, as: caller).map {
                    [try wireBytes($0.points), try wireBytes($0.next)]
                }
            )
        }

        // Anchored queries, page by page, then from their anchors after the change: deletions of
        // the window's samples come, deletions outside it do not, and anchors never move for them.
        let anchoredTypes: [[SampleTypePredicate]] = [
            [SampleTypePredicate(.quantity(.stepCount))],
            [
                SampleTypePredicate(.correlation(.bloodPressure)),
                SampleTypePredicate(.quantity(.bloodPressureSystolic)),
            ],
            [
                SampleTypePredicate(.workout), SampleTypePredicate(.stateOfMind),
                SampleTypePredicate(.electrocardiogram),
            ],
        ]
        var results: [AnchoredObjectQueryResult] = []
        var anchors: [QueryAnchor] = []
        for predicates in anchoredTypes {
            var anchor: QueryAnchor?
            for _ in 0..<3 {
                let result = try await engine.anchoredObjects(
                    matching: AnchoredObjectQueryDescriptor(predicates: predicates, anchor: anchor, limit: 7),
                    as: caller
                )
                results.append(result)
                anchor = result.newAnchor
            }
            let all = try await engine.anchoredObjects(
                matching: AnchoredObjectQueryDescriptor(predicates: predicates),
                as: caller
            )
            results.append(all)
            anchors.append(all.newAnchor)
        }
        try await change()
        for (predicates, anchor) in zip(anchoredTypes, anchors) {
            let since = try await engine.anchoredObjects(
                matching: AnchoredObjectQueryDescriptor(predicates: predicates, anchor: anchor),
                as: caller
            )
            results.append(since)
            // Nothing more: the same anchor back.
            results.append(
                try await engine.anchoredObjects(
                    matching: AnchoredObjectQueryDescriptor(predicates: predicates, anchor: since.newAnchor),
                    as: caller
                )
            )
        }
        // Anchors are sealed with each vault's key: compared by which answers share one.
        var numbers: [QueryAnchor: Int] = [:]
        for result in results {
            var canonical = result
            let number = numbers[result.newAnchor] ?? numbers.count
            numbers[result.newAnchor] = number
            canonical.newAnchor = QueryAnchor(token: "anchor-\(number)")
            try add(canonical)
        }
        return answers
    }

    /// The change between the anchored queries: deletions inside and outside the window, and new
    /// samples inside and outside it; in the reference vault only what the window shows.
    static func change(_ engine: VaultEngine, _ testCase: Case, windowed: Bool) async throws {
        let others = try othersSamples()
        let steps = others[0].samples
        let pressure = others[3].samples
        let workouts = others[4].samples
        let doomed = [steps[2], steps[17], steps[30], steps[50], pressure[1], pressure[3], workouts[0], workouts[4]]
        let deleted = doomed.filter { windowed || inside($0, testCase) }.map(\.uuid)
        if !deleted.isEmpty { _ = try await engine.delete(deleted, as: .owner) }
        let revision = SourceRevision(source: Source(bundleIdentifier: "ignored", name: "ignored"))
        let added = try [(at(0, 2), 0x20_001), (at(3, 2), 0x20_002), (at(6, 22), 0x20_003)].map { start, number in
            Sample.quantity(
                try QuantitySample(
                    uuid: uuid(number),
                    type: .stepCount,
                    quantity: Quantity(3, .count),
                    start: start,
                    end: start.addingTimeInterval(60),
                    sourceRevision: revision
                )
            )
        }
        let kept = added.filter { windowed || inside($0, testCase) }
        if !kept.isEmpty { try await engine.save(kept, as: .app(other)) }
        // The reader's own, outside every window too.
        try await engine.save(
            [
                .quantity(
                    try QuantitySample(
                        uuid: uuid(0x20_100),
                        type: .stepCount,
                        quantity: Quantity(9, .count),
                        start: at(0, 4),
                        end: at(0, 4, 10),
                        sourceRevision: revision
                    )
                )
            ],
            as: .app(reader)
        )
    }

    @Test(arguments: cases)
    func aWindowedReadAnswersAsAVaultHoldingOnlyWhatTheWindowShows(_ testCase: Case) async throws {
        let all = try Self.othersSamples().flatMap(\.samples)
        let hiddenCount = all.filter { !Self.inside($0, testCase) }.count
        #expect(hiddenCount > 20 && all.count - hiddenCount > 20, "the window must hide some and show some")
        let probes =
            all.map(\.uuid) + [UUID()]
            + all.compactMap { sample -> [UUID]? in
                guard case .correlation(let correlation) = sample else { return nil }
                return correlation.objects.map(\.uuid)
            }.flatMap { $0 }
        let series = all.filter { [.electrocardiogram, .heartbeatSeries].contains($0.sampleType) }.map(\.uuid)

        let (reference, _) = try await Self.vault(testCase, windowed: false)
        let expected = try await Self.answers(reference.engine, probes: probes, series: series) {
            try await Self.change(reference.engine, testCase, windowed: false)
        }
        let (windowed, _) = try await Self.vault(testCase, windowed: true)
        let answers = try await Self.answers(windowed.engine, probes: probes, series: series) {
            try await Self.change(windowed.engine, testCase, windowed: true)
        }
        #expect(answers.count == expected.count)
        for (index, (answer, reference)) in zip(answers, expected).enumerated() where answer != reference {
            Issue.record(
                """
                \(testCase): answer \(index) differs
                windowed:  \(String(decoding: answer.prefix(600), as: UTF8.self))
                reference: \(String(decoding: reference.prefix(600), as: UTF8.self))
                """
            )
        }
        // The reader still reads its own samples outside the window, and other apps' inside it.
        let steps = try await windowed.engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))]),
            as: .app(Self.reader)
        )
        #expect(steps.filter { $0.sourceRevision.source.bundleIdentifier == Self.reader }.count == 8)
        #expect(steps.contains { $0.sourceRevision.source.bundleIdentifier == Self.other })
        // Statistics see the third app only where the window holds some of its samples.
        let bySource = try await windowed.engine.statistics(
            matching: StatisticsQueryDescriptor(
                quantityType: .stepCount,
                options: [.cumulativeSum, .separateBySource]
            ),
            as: .app(Self.reader)
        )
        let thirdInside = try Self.othersSamples().last!.samples.contains {
            $0.sampleType == .quantity(.stepCount) && Self.inside($0, testCase)
        }
        #expect(bySource?.sources.contains { $0.bundleIdentifier == Self.third } == thirdInside)
    }

    @Test func aCorrelationIsShownOnlyWhenItAndEveryObjectLieInsideTheWindow() async throws {
        let test = try TestEngine()
        try await test.enroll(Self.reader)
        try await test.enroll(Self.other)
        try await test.engine.decide(
            .grant,
            .share,
            of: [.quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic)],
            for: Self.other
        )
        let revision = SourceRevision(source: Source(bundleIdentifier: "ignored", name: "ignored"))
        func reading(_ start: Date, systolicAt: Date) throws -> Sample {
            .correlation(
                try Correlation(
                    type: .bloodPressure,
                    start: start,
                    end: start,
                    objects: [
                        .quantity(
                            try QuantitySample(
                                type: .bloodPressureSystolic,
                                quantity: Quantity(120, .millimeterOfMercury),
                                start: systolicAt,
                                end: systolicAt,
                                sourceRevision: revision
                            )
                        ),
                        .quantity(
                            try QuantitySample(
                                type: .bloodPressureDiastolic,
                                quantity: Quantity(80, .millimeterOfMercury),
                                start: start,
                                end: start,
                                sourceRevision: revision
                            )
                        ),
                    ],
                    sourceRevision: revision
                )
            )
        }
        let whole = try reading(Self.at(3), systolicAt: Self.at(3))
        let straddling = try reading(Self.at(3), systolicAt: Self.at(1))
        try await test.engine.save([whole, straddling], as: .app(Self.other))
        // Systolic within days 2 to 4, diastolic within days 0 to 5: the correlation within both.
        try await test.engine.decide(
            .grant,
            .read,
            of: [.quantity(.bloodPressureSystolic)],
            for: Self.reader,
            terms: GrantTerms(window: .fixed(start: Self.at(2), end: Self.at(4)))
        )
        try await test.engine.decide(
            .grant,
            .read,
            of: [.quantity(.bloodPressureDiastolic)],
            for: Self.reader,
            terms: GrantTerms(window: .fixed(start: Self.at(0), end: Self.at(5)))
        )
        let caller = Caller.app(Self.reader)
        let correlations = try await test.engine.correlations(
            matching: CorrelationQueryDescriptor(type: .bloodPressure),
            as: caller
        )
        #expect(correlations.map(\.uuid) == [whole.uuid])
        #expect(try await test.engine.sample(uuid: straddling.uuid, as: caller) == nil)
        #expect(try await test.engine.sample(uuid: whole.uuid, as: caller) != nil)
        // Its diastolic object is a sample of its own inside the diastolic window; its systolic is not.
        let diastolic = try await test.engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.bloodPressureDiastolic))]),
            as: caller
        )
        #expect(diastolic.count == 2)
        let systolic = try await test.engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.bloodPressureSystolic))]),
            as: caller
        )
        #expect(systolic.count == 1)
        // Its deletion is not announced to the reader: it never saw it.
        let anchored = try await test.engine.anchoredObjects(
            matching: AnchoredObjectQueryDescriptor(predicates: [SampleTypePredicate(.correlation(.bloodPressure))]),
            as: caller
        )
        _ = try await test.engine.delete([straddling.uuid, whole.uuid], as: .owner)
        let after = try await test.engine.anchoredObjects(
            matching: AnchoredObjectQueryDescriptor(
                predicates: [SampleTypePredicate(.correlation(.bloodPressure))],
                anchor: anchored.newAnchor
            ),
            as: caller
        )
        #expect(after.deletedObjects.map(\.uuid) == [whole.uuid])
    }
}
