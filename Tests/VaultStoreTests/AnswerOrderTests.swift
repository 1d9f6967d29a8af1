import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

@testable import VaultStore

/// A sample query's whole answer is sorted in Swift, an answer cut by a limit or an offset by
/// SQL's `ORDER BY` (docs/PERFORMANCE.md, "One pass through the rows"): the two orders must be
/// one, ties on every sort key included, and a cut answer's rows must come out of the join with
/// their quantity series in the order SQL sorted them.
@Suite(.serialized)
struct AnswerOrderTests {
    let test: TestVault
    let store: SampleStore

    init() throws {
        test = try TestVault()
        store = try test.store
    }

    /// Samples of eight types with few distinct dates and values, so most of them tie on every
    /// sort key and only their UUIDs order them: steps (some of them series), heart rates
    /// (series), body mass in grams and kilograms (values compared in base units), sleep analysis
    /// and stand hours (category values), workouts and blood-pressure correlations (no value).
    static func tiedSamples(_ rng: inout any SeededRandomNumberGenerator) throws -> [Sample] {
        let starts = (0..<3).map { Fixtures.start.addingTimeInterval(Double($0) * 60) }
        var samples: [Sample] = []
        for index in 0..<300 {
            let start = starts.randomElement(using: &rng)!
            let end = start.addingTimeInterval([0, 60, 120].randomElement(using: &rng)!)
            let source = SourceRevision(
                source: Source(bundleIdentifier: "org.example.app\(index % 3)", name: "App \(index % 3)")
            )
            let uuid = UUID(using: &rng)
            // Some with metadata: a sample's entries are rows of their own in the statement.
            let metadata: Metadata =
                index % 7 == 0
                ? [
                    "org.example.note": .string("n\(index % 4)"), "org.example.count": .number(Double(index)),
                    "org.example.at": .date(start), MetadataKey.wasUserEntered: .number(1),
                    "org.example.length": .quantity(Quantity(Double(index % 5), .meter)),
                ] : [:]
            switch index % 5 {
            case 0:
                let value = [0.0, 5, 10].randomElement(using: &rng)!
                samples.append(
                    .quantity(
                        try QuantitySample(
                            uuid: uuid,
                            type: .stepCount,
                            quantity: Quantity(value, .count),
                            start: start,
                            end: end,
                            sourceRevision: source,
                            metadata: metadata
                        )
                    )
                )
            case 1:
                // Series of steps (a sum: no summary) and of heart rates (an average with its
                // minimum, maximum and most recent).
                let values = [[2.0, 3], [5, 0], [1, 4], [4, 1]].randomElement(using: &rng)!
                let (type, unit): (QuantityTypeIdentifier, HealthUnit) =
                    index % 10 == 1 ? (.stepCount, .count) : (.heartRate, .countPerMinute)
                samples.append(
                    .quantity(
                        try QuantitySample(
                            uuid: uuid,
                            type: type,
                            series: values.enumerated().map { offset, value in
                                QuantitySample.SeriesQuantity(
                                    quantity: Quantity(type == .heartRate ? value + 60 : value, unit),
                                    dateInterval: DateInterval(
                                        start: start.addingTimeInterval(Double(offset)),
                                        duration: 0
                                    )
                                )
                            },
                            unit: unit,
                            start: start,
                            end: start.addingTimeInterval(60),
                            sourceRevision: source,
                            metadata: metadata
                        )
                    )
                )
            case 2:
                let (value, unit): (Double, HealthUnit) =
                    [(5, .gram), (2, .kilogram), (70, .kilogram)].randomElement(using: &rng)!
                samples.append(
                    .quantity(
                        try QuantitySample(
                            uuid: uuid,
                            type: .bodyMass,
                            quantity: Quantity(value, unit),
                            start: start,
                            end: end,
                            sourceRevision: source,
                            metadata: metadata
                        )
                    )
                )
            case 3:
                // Two category types, sorted by value together.
                let type: CategoryTypeIdentifier = index % 10 == 3 ? .sleepAnalysis : .appleStandHour
                samples.append(
                    .category(
                        try CategorySample(
                            uuid: uuid,
                            type: type,
                            value: Int.random(in: 0...1, using: &rng),
                            start: start,
                            end: end,
                            sourceRevision: source,
                            metadata: metadata
                        )
                    )
                )
            case _ where index % 10 == 9:
                // A correlation and its two objects: built through the same statement again.
                let objects = try [
                    (QuantityTypeIdentifier.bloodPressureSystolic, 120.0), (.bloodPressureDiastolic, 80),
                ]
                .map { type, value in
                    Sample.quantity(
                        try QuantitySample(
                            uuid: UUID(using: &rng),
                            type: type,
                            quantity: Quantity(value, .millimeterOfMercury),
                            start: start,
                            end: start,
                            sourceRevision: source
                        )
                    )
                }
                samples.append(
                    .correlation(
                        try Correlation(
                            uuid: uuid,
                            type: .bloodPressure,
                            start: start,
                            end: start,
                            objects: objects,
                            sourceRevision: source,
                            metadata: metadata
                        )
                    )
                )
            default:
                samples.append(
                    .workout(
                        try Workout(
                            uuid: uuid,
                            activityType: .running,
                            start: start,
                            end: end,
                            sourceRevision: source,
                            metadata: metadata
                        )
                    )
                )
            }
        }
        return samples
    }

    @Test func aWholeAnswerIsInTheOrderOfOneSortedBySQL() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (5, 3, 5, 8))
        let samples = try Self.tiedSamples(&rng)
        try store.save(samples)
        let saved = Dictionary(uniqueKeysWithValues: samples.map { ($0.uuid, $0) })
        #expect(samples.filter { !$0.metadata.isEmpty }.count > 40)
        let types: [SampleType] = [
            .quantity(.stepCount), .quantity(.heartRate), .quantity(.bodyMass), .category(.sleepAnalysis),
            .category(.appleStandHour), .workout, .correlation(.bloodPressure),
        ]
        // Each kind of value a sort by value takes (a workout and a correlation have none).
        let byValue: [[SampleType]] = [
            [.quantity(.stepCount)], [.quantity(.heartRate)], [.quantity(.bodyMass)],
            [.category(.sleepAnalysis), .category(.appleStandHour)], [.category(.appleStandHour)],
        ]
        // An app reading steps within a window (two SELECTs a branch), correlations but only one
        // of their objects' types (another app's correlations left out whole), sleep wholly.
        let app = ReadScope.app(
            "org.example.app1",
            readableTypes: [
                .quantity(.stepCount), .category(.sleepAnalysis), .correlation(.bloodPressure),
                .quantity(.bloodPressureSystolic),
            ],
            windows: [
                .quantity(.stepCount): ReadWindow(start: Fixtures.start, end: Fixtures.start.addingTimeInterval(120))
            ]
        )
        var compared = 0
        for _ in 0..<150 {
            let keys = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                SampleSortDescriptor(
                    SampleSortDescriptor.Key.allCases.randomElement(using: &rng)!,
                    order: Bool.random(using: &rng) ? .ascending : .descending
                )
            }
            let predicates =
                keys.contains { $0.key == .value }
                ? byValue.randomElement(using: &rng)!.map { SampleTypePredicate($0) }
                : types.filter { _ in Bool.random(using: &rng) }.map { SampleTypePredicate($0) }
            guard !predicates.isEmpty else { continue }
            let scope = Bool.random(using: &rng) ? ReadScope.owner : app
            let whole = try store.samples(
                matching: SampleQueryDescriptor(predicates: predicates, sortDescriptors: keys),
                scope: scope
            )
            // Cut by a limit past the end: every row, sorted by SQL.
            let sortedBySQL = try store.samples(
                matching: SampleQueryDescriptor(predicates: predicates, sortDescriptors: keys, limit: 10_000),
                scope: scope
            )
            #expect(whole.map(\.uuid) == sortedBySQL.map(\.uuid), "\(keys)")
            #expect(whole == sortedBySQL, "\(keys)")
            // And as HealthKit's sort descriptors order them, the UUID's bytes last.
            let reference = whole.sorted { a, b in
                for key in keys {
                    if key.orders(a, before: b) { return true }
                    if key.orders(b, before: a) { return false }
                }
                return a.uuid.bytes.lexicographicallyPrecedes(b.uuid.bytes)
            }
            #expect(whole.map(\.uuid) == reference.map(\.uuid), "\(keys)")
            let expectedCount = samples.filter { sample in predicates.contains { $0.sampleType == sample.sampleType } }
                .count
            if scope == .owner {
                #expect(whole.count == expectedCount)
            } else {
                #expect(whole.count <= expectedCount)
            }
            // Each as saved, its metadata too (a series without its quantities, which only the
            // series query reads).
            #expect(
                whole.allSatisfy { sample in
                    guard let original = saved[sample.uuid] else { return false }
                    if case .quantity(let quantity) = original, quantity.count > 1 {
                        return sample.metadata == original.metadata && sample.startDate == original.startDate
                    }
                    return sample == original
                }
            )
            // A page cut from the middle by a limit and an offset (the document query's way).
            let offset = Int.random(in: 0...max(0, whole.count - 1), using: &rng)
            let page: [Sample] = try store.database.read { db in
                try store.build(
                    try store.sampleRows(
                        matching: SampleQueryDescriptor(predicates: predicates, sortDescriptors: keys, limit: 17),
                        scope: scope,
                        offset: offset,
                        db
                    ),
                    scope: scope,
                    db
                )
            }
            #expect(page.map(\.uuid) == whole.dropFirst(offset).prefix(17).map(\.uuid))
            compared += whole.count
        }
        #expect(compared > 10_000, "the queries compare enough rows")
    }

    @Test func aSeriesKeepsItsCountAndSummaryWhateverTheOrder() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (8, 5, 3, 5))
        let samples = try Self.tiedSamples(&rng)
        try store.save(samples)
        let series = samples.compactMap { sample -> QuantitySample? in
            if case .quantity(let quantity) = sample, quantity.count > 1 { return quantity }
            return nil
        }
        #expect(series.count == 60)
        #expect(series.filter { $0.discreteSummary != nil }.count == 30)
        for limit in [0, 10_000] {
            for (type, order) in [QuantityTypeIdentifier.stepCount, .heartRate].flatMap({ type in
                [SampleSortDescriptor.Order.ascending, .descending].map { (type, $0) }
            }) {
                let answer = try store.samples(
                    matching: SampleQueryDescriptor(
                        predicates: [SampleTypePredicate(.quantity(type))],
                        sortDescriptors: [SampleSortDescriptor(.value, order: order)],
                        limit: limit
                    ),
                    scope: .owner
                )
                let byUUID = Dictionary(uniqueKeysWithValues: answer.map { ($0.uuid, $0) })
                for sample in series where sample.quantityType == type {
                    guard case .quantity(let read) = byUUID[sample.uuid] else {
                        Issue.record("a series was not answered")
                        continue
                    }
                    #expect(read.count == sample.count && read.discreteSummary == sample.discreteSummary)
                }
            }
        }
    }
}
