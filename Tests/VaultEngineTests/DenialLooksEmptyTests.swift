import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine
import VaultStore

/// A read the app may not make, a read not yet decided, and a granted read of a vault with no
/// one else's data give byte-identical answers, whether other apps stored nothing or 100,000
/// samples.
@Suite struct DenialLooksEmptyTests {
    static let reader = "org.example.reader"
    static let other = "org.example.other"
    static let start = Fixtures.start

    /// The reader's own samples: the same UUIDs and dates in every vault, so its answers can be
    /// compared byte for byte.
    static func ownSamples() throws -> [Sample] {
        try (0..<3).map { index in
            .quantity(
                try QuantitySample(
                    uuid: UUID(uuidString: "00000000-0000-4000-8000-00000000000\(index)")!,
                    type: .stepCount,
                    quantity: Quantity(Double(100 + index), .count),
                    start: start.addingTimeInterval(Double(index) * 3600),
                    end: start.addingTimeInterval(Double(index) * 3600 + 60),
                    sourceRevision: Fixtures.app
                )
            )
        }
    }

    /// The reader's own sample of each kind of issue 19 (state of mind, assessments,
    /// electrocardiogram, audiogram, heartbeat series), the same in every vault; with `uuid` and
    /// `source`, another app's of the same content.
    static func ownKinds(
        _ uuid: (Int) -> UUID = { UUID(uuidString: "00000000-0000-4000-8000-0000000001\($0)0")! }
    )
        throws -> [Sample]
    {
        let ecg = try Electrocardiogram(
            uuid: uuid(3),
            start: start,
            end: start.addingTimeInterval(30),
            classification: .sinusRhythm,
            averageHeartRate: Quantity(60, .countPerMinute),
            samplingFrequency: Quantity(512, .hertz),
            voltageMeasurements: (0..<2500).map {
                .init(
                    timeSinceSampleStart: Double($0) / 512,
                    leadI: Quantity(Double($0 % 97) - 48, try! HealthUnit(from: "mcV"))
                )
            },
            sourceRevision: Fixtures.app
        )
        return [
            .stateOfMind(
                try StateOfMind(
                    uuid: uuid(0),
                    date: start,
                    kind: .momentaryEmotion,
                    valence: 0.3,
                    labels: [.calm],
                    sourceRevision: Fixtures.app
                )
            ),
            .gad7Assessment(
                try GAD7Assessment(
                    uuid: uuid(1),
                    date: start,
                    answers: Array(repeating: .severalDays, count: 7),
                    sourceRevision: Fixtures.app
                )
            ),
            .phq9Assessment(
                try PHQ9Assessment(
                    uuid: uuid(2),
                    date: start,
                    answers: Array(repeating: .notAtAll, count: 9),
                    sourceRevision: Fixtures.app
                )
            ),
            .electrocardiogram(ecg),
            .audiogram(
                try AudiogramSample(
                    uuid: uuid(4),
                    sensitivityPoints: [
                        .init(
                            frequency: Quantity(1000, .hertz),
                            leftEarSensitivity: Quantity(10, .decibelHearingLevel),
                            rightEarSensitivity: nil
                        )
                    ],
                    start: start,
                    end: start.addingTimeInterval(300),
                    sourceRevision: Fixtures.app
                )
            ),
            .heartbeatSeries(
                try HeartbeatSeriesSample(
                    uuid: uuid(5),
                    start: start,
                    end: start.addingTimeInterval(600),
                    heartbeats: (0..<600).map { .init(timeSinceSeriesStart: Double($0), precededByGap: $0 % 50 == 0) },
                    sourceRevision: Fixtures.app
                )
            ),
        ]
    }

    /// The types of ``ownKinds(_:)``.
    static let kindTypes: [SampleType] = [
        .stateOfMind, .scoredAssessment(.gad7), .scoredAssessment(.phq9), .electrocardiogram, .audiogram,
        .heartbeatSeries,
    ]

    /// A vault where `other` stored `hidden` step samples and blood-pressure correlations (and,
    /// with any, one sample of each of ``kindTypes``), and the reader its own three step samples
    /// and ``ownKinds(_:)``.
    static func vault(hidden: Int) async throws -> (TestEngine, [UUID]) {
        let test = try TestEngine()
        try await test.enroll(reader)
        try await test.enroll(other)
        try await test.grant(.share, .quantity(.stepCount), to: reader)
        try await test.grant(
            .share,
            .quantity(.stepCount),
            .quantity(.bloodPressureSystolic),
            .quantity(.bloodPressureDiastolic),
            to: other
        )
        try await test.engine.decide(.grant, .share, of: Set(kindTypes.map(ObjectType.init)), for: reader)
        try await test.engine.decide(.grant, .share, of: Set(kindTypes.map(ObjectType.init)), for: other)
        try await test.engine.save(ownSamples() + ownKinds(), as: .app(reader))
        try await test.engine.setCharacteristic(.biologicalSex(.female))
        var hiddenKinds: [UUID] = []
        if hidden > 0 {
            let others = try ownKinds { _ in UUID() }
            try await test.engine.save(others, as: .app(other))
            hiddenKinds = others.map(\.uuid)
        }
        var hiddenUUIDs: [UUID] = []
        var index = 0
        while index < hidden {
            let count = min(10_000, hidden - index)
            let batch = try (index..<index + count).map { offset -> Sample in
                if offset % 100 == 0 {
                    return .correlation(try Fixtures.bloodPressure(systolic: 110, diastolic: 70))
                }
                return try quantitySample(.stepCount, start: start.addingTimeInterval(Double(offset % 7200)))
            }
            hiddenUUIDs += batch.map(\.uuid)
            try await test.engine.save(batch, as: .app(other))
            index += count
        }
        // The hidden samples of the new kinds last: state of mind ... heartbeat series.
        return (test, hiddenUUIDs + hiddenKinds)
    }

    /// Every read an app can make of steps, blood pressure and a characteristic, as the bytes
    /// the daemon would send.
    static func answers(
        _ engine: VaultEngine,
        probing hidden: UUID?,
        kinds hiddenKinds: [UUID] = []
    ) async throws
        -> [Data]
    {
        let caller = Caller.app(reader)
        let queries = [
            SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))]),
            SampleQueryDescriptor(
                predicates: [
                    SampleTypePredicate(
                        .quantity(.stepCount),
                        predicate: .samples(withStart: start, end: start.addingTimeInterval(7200))
                    )
                ],
                sortDescriptors: [SampleSortDescriptor(.value, order: .descending)],
                limit: 2
            ),
            SampleQueryDescriptor(predicates: [SampleTypePredicate(.correlation(.bloodPressure))]),
            SampleQueryDescriptor(
                predicates: [
                    SampleTypePredicate(.quantity(.bloodPressureSystolic)),
                    SampleTypePredicate(
                        .quantity(.stepCount),
                        predicate: .quantity(.greaterThan, Quantity(50, .count))
                    ),
                ],
                sortDescriptors: [SampleSortDescriptor(.startDate)]
            ),
        ]
        var answers: [Data] = []
        for query in queries {
            answers.append(try wireBytes(try await engine.samples(matching: query, as: caller)))
        }
        answers.append(
            try wireBytes(
                try await engine.sources(matching: SourceQueryDescriptor(sampleType: .quantity(.stepCount)), as: caller)
            )
        )
        answers.append(
            try wireBytes(
                try await engine.sources(
                    matching: SourceQueryDescriptor(sampleType: .correlation(.bloodPressure)),
                    as: caller
                )
            )
        )
        let statistics: [StatisticsQueryDescriptor] = [
            StatisticsQueryDescriptor(
                quantityType: .stepCount,
                options: [.cumulativeSum, .separateBySource, .duration]
            ),
            StatisticsQueryDescriptor(quantityType: .bloodPressureSystolic, options: [.discreteAverage, .mostRecent]),
        ]
        for query in statistics {
            answers.append(try wireBytes(try await engine.statistics(matching: query, as: caller)))
        }
        for (components, zone) in [(IntervalComponents(hour: 1), "UTC"), (IntervalComponents(day: 1), "Europe/Paris")] {
            let collection = StatisticsCollectionQueryDescriptor(
                quantityType: .stepCount,
                options: [.cumulativeSum, .separateBySource],
                anchorDate: start,
                intervalComponents: components,
                timeZone: zone
            )
            answers.append(try wireBytes(try await engine.statisticsCollection(matching: collection, as: caller)))
        }
        answers += try await anchoredAnswers(engine, as: caller)
        for query in [
            CorrelationQueryDescriptor(type: .bloodPressure),
            CorrelationQueryDescriptor(
                type: .bloodPressure,
                predicate: .date(start: start, end: nil, options: []),
                samplePredicates: [
                    SampleTypePredicate(
                        .quantity(.bloodPressureSystolic),
                        predicate: .quantity(.greaterThan, Quantity(100, .millimeterOfMercury))
                    )
                ]
            ),
        ] {
            answers.append(try wireBytes(try await engine.correlations(matching: query, as: caller)))
        }
        answers.append(
            try wireBytes(
                try await engine.activitySummaries(
                    matching: ActivitySummaryQueryDescriptor(start: "2026-03-01", end: "2026-03-07", timeZone: "UTC"),
                    as: caller
                )
            )
        )
        // Another app's sample by UUID is answered as an unknown UUID.
        answers.append(try wireBytes(try await engine.sample(uuid: hidden ?? UUID(), as: caller)))
        // Saving a sample under a UUID the vault holds is refused with the same bytes whether the
        // holder is hidden from the reader or is the reader's own sample (the empty vault's probe).
        let colliding = Sample.quantity(
            try QuantitySample(
                uuid: hidden ?? ownSamples()[0].uuid,
                type: .stepCount,
                quantity: Quantity(5, .count),
                start: start,
                end: start.addingTimeInterval(60),
                sourceRevision: Fixtures.app
            )
        )
        let refusal = await healthError { try await engine.save([colliding], as: caller) }
        #expect(refusal?.field == "uuid", "\(String(describing: refusal))")
        answers.append(try wireBytes(refusal))
        answers.append(try wireBytes(try await engine.characteristic(.biologicalSex, as: caller)))
        answers += try await kindAnswers(engine, as: caller, probing: hiddenKinds)
        return answers
    }

    /// Every read of the kinds of issue 19: sample queries, sources, anchored queries, lookups by
    /// UUID and the series queries, of the reader's own samples and of `hidden` ones (another
    /// app's of each kind, in ``kindTypes`` order; random UUIDs when there are none).
    static func kindAnswers(_ engine: VaultEngine, as caller: Caller, probing hidden: [UUID]) async throws -> [Data] {
        var answers: [Data] = []
        for type in kindTypes {
            let query = SampleQueryDescriptor(
                predicates: [SampleTypePredicate(type)],
                sortDescriptors: [SampleSortDescriptor(.startDate, order: .descending)]
            )
            answers.append(try wireBytes(try await engine.samples(matching: query, as: caller)))
            answers.append(
                try wireBytes(try await engine.sources(matching: SourceQueryDescriptor(sampleType: type), as: caller))
            )
        }
        let anchored = try await engine.anchoredObjects(
            matching: AnchoredObjectQueryDescriptor(predicates: kindTypes.map { SampleTypePredicate($0) }, limit: 4),
            as: caller
        )
        #expect(anchored.addedSamples.map(\.sampleType) == Array(kindTypes.prefix(4)))
        answers.append(try wireBytes(anchored.addedSamples))
        answers.append(try wireBytes(anchored.deletedObjects))
        let probes = hidden.isEmpty ? kindTypes.map { _ in UUID() } : hidden
        for probe in probes {
            answers.append(try wireBytes(try await engine.sample(uuid: probe, as: caller)))
        }
        let own = try ownKinds()
        for (uuid, limit) in [(own[3].uuid, 0), (own[3].uuid, 1000), (probes[3], 0), (probes[5], 0), (own[5].uuid, 0)] {
            answers.append(
                try wireBytes(
                    try await engine.voltageMeasurements(of: uuid, offset: 1000, limit: limit, as: caller).map {
                        [try wireBytes($0.points), try wireBytes($0.next)]
                    }
                )
            )
        }
        for (uuid, offset) in [(own[5].uuid, 0), (own[5].uuid, 599), (probes[5], 0), (probes[3], 0), (own[3].uuid, 0)] {
            answers.append(
                try wireBytes(
                    try await engine.heartbeats(of: uuid, offset: offset, as: caller).map {
                        [try wireBytes($0.points), try wireBytes($0.next)]
                    }
                )
            )
        }
        return answers
    }

    /// Anchored queries of steps and blood pressure, from the start, page by page, and from
    /// their own anchors. Anchors are sealed with each vault's own key, so they are compared by
    /// which of the answers share one (every distinct anchor numbered in order of appearance);
    /// AnchoredQueryTests compares them byte for byte within one vault, before and after hidden
    /// writes.
    static func anchoredAnswers(_ engine: VaultEngine, as caller: Caller) async throws -> [Data] {
        let steps = [SampleTypePredicate(.quantity(.stepCount))]
        let pressure = [
            SampleTypePredicate(.correlation(.bloodPressure)), SampleTypePredicate(.quantity(.bloodPressureSystolic)),
        ]
        var results: [AnchoredObjectQueryResult] = []
        func run(
            _ predicates: [SampleTypePredicate],
            from anchor: QueryAnchor?,
            limit: Int = 0
        ) async throws
            -> QueryAnchor
        {
            let query = AnchoredObjectQueryDescriptor(predicates: predicates, anchor: anchor, limit: limit)
            let result = try await engine.anchoredObjects(matching: query, as: caller)
            results.append(result)
            return result.newAnchor
        }
        let all = try await run(steps, from: nil)
        _ = try await run(steps, from: all)
        let page = try await run(steps, from: nil, limit: 2)
        _ = try await run(steps, from: page, limit: 2)
        let none = try await run(pressure, from: nil)
        _ = try await run(pressure, from: none, limit: 1)
        var numbers: [QueryAnchor: Int] = [:]
        return try results.map { result in
            var canonical = result
            let number = numbers[result.newAnchor] ?? numbers.count
            numbers[result.newAnchor] = number
            canonical.newAnchor = QueryAnchor(token: "anchor-\(number)")
            return try wireBytes(canonical)
        }
    }

    @Test(arguments: [0, 100_000])
    func deniedAndUndeterminedReadsLookLikeAnEmptyVault(hidden: Int) async throws {
        // The reference: the reader may read everything, and no one else stored anything.
        let (empty, _) = try await Self.vault(hidden: 0)
        try await empty.engine.decide(
            .grant,
            .read,
            of: [.quantity(.stepCount), .quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic)],
            for: Self.reader
        )
        try await empty.engine.decide(.grant, .read, of: [.activitySummary], for: Self.reader)
        try await empty.engine.decide(.grant, .read, of: Set(Self.kindTypes.map(ObjectType.init)), for: Self.reader)
        // A characteristic the owner has not set reads as not set.
        try await empty.engine.removeCharacteristic(.biologicalSex)
        try await empty.engine.decide(.grant, .read, of: [.characteristic(.biologicalSex)], for: Self.reader)
        let reference = try await Self.answers(empty.engine, probing: nil)
        let own = try HealthJSON.decode([Sample].self, from: reference[0])
        #expect(own.count == 3, "the reader sees its own samples in every case")

        let (test, allHidden) = try await Self.vault(hidden: hidden)
        let hiddenUUIDs = hidden > 0 ? Array(allHidden.dropLast(Self.kindTypes.count)) : allHidden
        let kinds = hidden > 0 ? Array(allHidden.suffix(Self.kindTypes.count)) : []
        #expect(try test.sampleCount() == 3 + Self.kindTypes.count + hidden + kinds.count)
        let probe = hiddenUUIDs.last
        // Not determined.
        #expect(try await Self.answers(test.engine, probing: probe, kinds: kinds) == reference)
        // Denied.
        try await test.engine.decide(
            .deny,
            .read,
            of: Set<ObjectType>([
                .quantity(.stepCount), .quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic),
                .characteristic(.biologicalSex),
            ]).union(Self.kindTypes.map(ObjectType.init)),
            for: Self.reader
        )
        #expect(try await Self.answers(test.engine, probing: probe, kinds: kinds) == reference)
        // Granted, then revoked: the next request is back to the denied answer.
        try await test.engine.decide(.grant, .read, of: [.quantity(.stepCount)], for: Self.reader)
        let granted = try await test.engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))]),
            as: .app(Self.reader)
        )
        #expect(granted.count == 3 + hidden - hidden / 100)
        try await test.engine.decide(.grant, .read, of: [.electrocardiogram], for: Self.reader)
        if let hiddenECG = kinds.dropFirst(3).first {
            let measurements = try await test.engine.voltageMeasurements(of: hiddenECG, as: .app(Self.reader))
            #expect(measurements?.points.count == 2500, "a granted reader reads another app's electrocardiogram")
        }
        try await test.engine.decide(
            .revoke,
            .read,
            of: [.quantity(.stepCount), .electrocardiogram],
            for: Self.reader
        )
        #expect(try await Self.answers(test.engine, probing: probe, kinds: kinds) == reference)
    }

    @Test func deletingAnotherAppsSampleIsAnsweredAsAnUnknownUUID() async throws {
        let (test, hidden) = try await Self.vault(hidden: 10)
        // The reader may even read steps: deleting still touches only its own.
        try await test.engine.decide(.grant, .read, of: [.quantity(.stepCount)], for: Self.reader)
        let another = try wireBytes(try await test.engine.delete([hidden[1]], as: .app(Self.reader)))
        let unknown = try wireBytes(try await test.engine.delete([UUID()], as: .app(Self.reader)))
        #expect(another == unknown)
        // Another app's state of mind ... heartbeat series, too, even read granted.
        try await test.engine.decide(.grant, .read, of: Set(Self.kindTypes.map(ObjectType.init)), for: Self.reader)
        let kinds = Array(hidden.suffix(Self.kindTypes.count))
        #expect(try wireBytes(try await test.engine.delete(kinds, as: .app(Self.reader))) == unknown)
        #expect(try test.sampleCount() == 3 + 6 + 10 + 6)
        // By predicate, only its own are touched and counted.
        #expect(
            try await test.engine.deleteObjects(of: .quantity(.stepCount), as: .app(Self.reader)) == 3
        )
        for type in Self.kindTypes {
            #expect(try await test.engine.deleteObjects(of: type, as: .app(Self.reader)) == 1, "\(type)")
        }
        #expect(try test.sampleCount() == 10 + 6)
        // The owner deletes anything.
        #expect(try await test.engine.delete([hidden[1]], as: .owner) == 1)
        #expect(try await test.engine.delete(kinds, as: .owner) == 6)
    }
}
