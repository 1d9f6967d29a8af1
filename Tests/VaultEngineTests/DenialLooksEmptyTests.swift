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

    /// A vault where `other` stored `hidden` step samples and blood-pressure correlations, and
    /// the reader its own three step samples.
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
        try await test.engine.save(ownSamples(), as: .app(reader))
        try await test.engine.setCharacteristic(.biologicalSex(.female))
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
        return (test, hiddenUUIDs)
    }

    /// Every read an app can make of steps, blood pressure and a characteristic, as the bytes
    /// the daemon would send.
    static func answers(_ engine: VaultEngine, probing hidden: UUID?) async throws -> [Data] {
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
        // A characteristic the owner has not set reads as not set.
        try await empty.engine.removeCharacteristic(.biologicalSex)
        try await empty.engine.decide(.grant, .read, of: [.characteristic(.biologicalSex)], for: Self.reader)
        let reference = try await Self.answers(empty.engine, probing: nil)
        let own = try HealthJSON.decode([Sample].self, from: reference[0])
        #expect(own.count == 3, "the reader sees its own samples in every case")

        let (test, hiddenUUIDs) = try await Self.vault(hidden: hidden)
        #expect(try test.sampleCount() == 3 + hidden)
        let probe = hiddenUUIDs.last
        // Not determined.
        #expect(try await Self.answers(test.engine, probing: probe) == reference)
        // Denied.
        try await test.engine.decide(
            .deny,
            .read,
            of: [
                .quantity(.stepCount), .quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic),
                .characteristic(.biologicalSex),
            ],
            for: Self.reader
        )
        #expect(try await Self.answers(test.engine, probing: probe) == reference)
        // Granted, then revoked: the next request is back to the denied answer.
        try await test.engine.decide(.grant, .read, of: [.quantity(.stepCount)], for: Self.reader)
        let granted = try await test.engine.samples(
            matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(.quantity(.stepCount))]),
            as: .app(Self.reader)
        )
        #expect(granted.count == 3 + hidden - hidden / 100)
        try await test.engine.decide(.revoke, .read, of: [.quantity(.stepCount)], for: Self.reader)
        #expect(try await Self.answers(test.engine, probing: probe) == reference)
    }

    @Test func deletingAnotherAppsSampleIsAnsweredAsAnUnknownUUID() async throws {
        let (test, hidden) = try await Self.vault(hidden: 10)
        // The reader may even read steps: deleting still touches only its own.
        try await test.engine.decide(.grant, .read, of: [.quantity(.stepCount)], for: Self.reader)
        let another = try wireBytes(try await test.engine.delete([hidden[1]], as: .app(Self.reader)))
        let unknown = try wireBytes(try await test.engine.delete([UUID()], as: .app(Self.reader)))
        #expect(another == unknown)
        #expect(try test.sampleCount() == 13)
        // By predicate, only its own are touched and counted.
        #expect(
            try await test.engine.deleteObjects(of: .quantity(.stepCount), as: .app(Self.reader)) == 3
        )
        #expect(try test.sampleCount() == 10)
        // The owner deletes anything.
        #expect(try await test.engine.delete([hidden[1]], as: .owner) == 1)
    }
}
