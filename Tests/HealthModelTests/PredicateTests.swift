import Foundation
import HealthModel
import HealthModelTestSupport
import Testing

/// The in-memory meaning of predicates and sorting: the reference the store's SQL must match.
struct PredicateTests {
    let hour: TimeInterval = 3600

    /// A sample from `startHour` to `endHour` after Fixtures.start.
    func steps(_ startHour: Double, _ endHour: Double, value: Double = 100) throws -> Sample {
        .quantity(
            try Fixtures.quantity(
                .stepCount,
                value,
                start: Fixtures.start.addingTimeInterval(startHour * hour),
                end: Fixtures.start.addingTimeInterval(endHour * hour)
            )
        )
    }

    func interval(_ options: QueryOptions) -> SamplePredicate {
        .samples(
            withStart: Fixtures.start.addingTimeInterval(1 * hour),
            end: Fixtures.start.addingTimeInterval(2 * hour),
            options: options
        )
    }

    @Test func dateIntervalWithoutOptionsMatchesOverlappingSamples() throws {
        let predicate = interval([])
        #expect(try predicate.matches(steps(0, 1)))  // ends exactly at the start: endDate >= start
        #expect(try predicate.matches(steps(0.5, 1.5)))
        #expect(try predicate.matches(steps(1.5, 3)))
        #expect(try predicate.matches(steps(0, 3)))
        #expect(try !predicate.matches(steps(2, 3)))  // starts exactly at the end: startDate < end fails
        #expect(try !predicate.matches(steps(0, 0.9)))
    }

    @Test func strictStartDateNeedsTheStartInsideTheInterval() throws {
        let predicate = interval(.strictStartDate)
        #expect(try predicate.matches(steps(1, 3)))
        #expect(try predicate.matches(steps(1.5, 3)))
        #expect(try !predicate.matches(steps(0.5, 1.5)))
        #expect(try !predicate.matches(steps(2, 3)))
    }

    @Test func strictEndDateNeedsTheEndInsideTheInterval() throws {
        let predicate = interval(.strictEndDate)
        #expect(try predicate.matches(steps(0.5, 1.5)))
        #expect(try predicate.matches(steps(0, 2)))
        #expect(try !predicate.matches(steps(1.5, 3)))
        #expect(try !predicate.matches(steps(0, 0.5)))
    }

    @Test func bothStrictOptionsNeedTheWholeSampleInside() throws {
        let predicate = interval([.strictStartDate, .strictEndDate])
        #expect(try predicate.matches(steps(1, 2)))
        #expect(try !predicate.matches(steps(0.9, 1.5)))
        #expect(try !predicate.matches(steps(1.5, 2.1)))
        #expect(try SamplePredicate.samples(withStart: nil, end: nil).matches(steps(5, 6)))
    }

    @Test func quantityComparesInAnyCompatibleUnit() throws {
        let mass: Sample = .quantity(try Fixtures.quantity(.bodyMass, 72, .kilogram))
        #expect(SamplePredicate.quantity(.greaterThan, Quantity(150, .pound)).matches(mass))
        #expect(!SamplePredicate.quantity(.greaterThan, Quantity(160, .pound)).matches(mass))
        #expect(SamplePredicate.quantity(.equalTo, Quantity(72_000, .gram)).matches(mass))
        #expect(!SamplePredicate.quantity(.equalTo, Quantity(72, .meter)).matches(mass))
        #expect(!SamplePredicate.categoryValue(.equalTo, 0).matches(mass))
    }

    @Test func categoryValuesUUIDsSourcesAndDevicesMatch() throws {
        let sleep = Sample.category(
            try Fixtures.category(.sleepAnalysis, CategoryValueSleepAnalysis.asleepDeep.rawValue)
        )
        #expect(SamplePredicate.categorySamples(withValues: [3, 4, 5]).matches(sleep))
        #expect(!SamplePredicate.categoryValue(.lessThan, 4).matches(sleep))
        #expect(SamplePredicate.object(with: sleep.uuid).matches(sleep))
        #expect(!SamplePredicate.uuids([UUID()]).matches(sleep))
        #expect(SamplePredicate.sources(["org.example.stepcounter"]).matches(sleep))
        #expect(!SamplePredicate.sources(["org.example.other"]).matches(sleep))
        #expect(!SamplePredicate.device(.model, ["Watch7,1"]).matches(sleep))
        let measured = Sample.quantity(
            try QuantitySample(
                type: .heartRate,
                quantity: Quantity(60, .countPerMinute),
                start: Fixtures.start,
                end: Fixtures.start,
                sourceRevision: Fixtures.app,
                device: Device(manufacturer: "Apple Inc.", model: "Watch7,1")
            )
        )
        #expect(SamplePredicate.device(.model, ["Watch6,1", "Watch7,1"]).matches(measured))
        #expect(!SamplePredicate.device(.name, ["Watch7,1"]).matches(measured))
    }

    @Test func metadataExistsEqualsAndComparesBySameKind() throws {
        let sample = Sample.quantity(
            try Fixtures.quantity(metadata: [
                .wasUserEntered: .bool(true),
                "org.example.note": .string("after lunch"),
                .lapLength: .quantity(Quantity(25, .meter)),
            ])
        )
        #expect(SamplePredicate.objects(withMetadataKey: .wasUserEntered).matches(sample))
        #expect(!SamplePredicate.objects(withMetadataKey: .syncIdentifier).matches(sample))
        #expect(SamplePredicate.objects(withMetadataKey: .wasUserEntered, allowedValues: [.number(1)]).matches(sample))
        #expect(
            SamplePredicate.objects(
                withMetadataKey: "org.example.note",
                operatorType: .greaterThan,
                value: .string("a")
            )
            .matches(sample)
        )
        #expect(
            SamplePredicate.objects(
                withMetadataKey: .lapLength,
                operatorType: .lessThan,
                value: .quantity(Quantity(30, .yard))
            ).matches(sample)
        )
        // Different kinds do not compare; a missing key never matches a comparison.
        #expect(
            !SamplePredicate.objects(withMetadataKey: "org.example.note", operatorType: .notEqualTo, value: .number(1))
                .matches(sample)
        )
        #expect(
            !SamplePredicate.objects(withMetadataKey: .syncVersion, operatorType: .notEqualTo, value: .number(1))
                .matches(sample)
        )
    }

    @Test func workoutPredicatesMatchActivityDurationAndTotals() throws {
        let run = Sample.workout(
            try Workout(
                activityType: .running,
                start: Fixtures.start,
                end: Fixtures.end,
                totalEnergyBurned: Quantity(300, .kilocalorie),
                totalDistance: Quantity(5, .kilometer),
                sourceRevision: Fixtures.app
            )
        )
        #expect(SamplePredicate.workoutActivityType(.running).matches(run))
        #expect(!SamplePredicate.workoutActivityType(.cycling).matches(run))
        #expect(SamplePredicate.workoutDuration(.greaterThanOrEqualTo, 1800).matches(run))
        #expect(SamplePredicate.workoutTotalDistance(.greaterThan, Quantity(3, .mile)).matches(run))
        #expect(!SamplePredicate.workoutTotalEnergyBurned(.greaterThan, Quantity(2000, .kilojoule)).matches(run))
    }

    @Test func aStateOfMindPredicateMatchesByKindValenceLabelAndAssociation() throws {
        // A daily mood of 0.25, content and grateful, about family and fitness.
        let mood = Sample.stateOfMind(try Fixtures.stateOfMind(valence: 0.25))
        #expect(SamplePredicate.statesOfMind(with: StateOfMind.Kind.dailyMood).matches(mood))
        #expect(!SamplePredicate.statesOfMind(with: StateOfMind.Kind.momentaryEmotion).matches(mood))
        // The valence compares as a number, ties included.
        #expect(SamplePredicate.statesOfMind(withValence: 0.25, operatorType: .equalTo).matches(mood))
        #expect(SamplePredicate.statesOfMind(withValence: 0.25, operatorType: .lessThanOrEqualTo).matches(mood))
        #expect(!SamplePredicate.statesOfMind(withValence: 0.25, operatorType: .lessThan).matches(mood))
        #expect(SamplePredicate.statesOfMind(withValence: 0, operatorType: .greaterThan).matches(mood))
        #expect(SamplePredicate.statesOfMind(withValence: 2, operatorType: .lessThan).matches(mood))
        // A label or association matches when it is any one of those the sample lists.
        #expect(SamplePredicate.statesOfMind(with: StateOfMind.Label.grateful).matches(mood))
        #expect(SamplePredicate.statesOfMind(with: StateOfMind.Label.content).matches(mood))
        #expect(!SamplePredicate.statesOfMind(with: StateOfMind.Label.sad).matches(mood))
        #expect(SamplePredicate.statesOfMind(with: StateOfMind.Association.fitness).matches(mood))
        #expect(!SamplePredicate.statesOfMind(with: StateOfMind.Association.work).matches(mood))
        // The overloads tell a kind, a label and an association apart by the case's name.
        #expect(SamplePredicate.statesOfMind(with: .happy) == .stateOfMindLabel(.happy))
        #expect(SamplePredicate.statesOfMind(with: .momentaryEmotion) == .stateOfMindKind(.momentaryEmotion))
        #expect(SamplePredicate.statesOfMind(with: .weather) == .stateOfMindAssociation(.weather))
        // Both labels: an `and` of two label predicates.
        #expect(SamplePredicate.and([.stateOfMindLabel(.content), .stateOfMindLabel(.grateful)]).matches(mood))
        // Nothing but a state of mind matches them.
        let steps = try steps(0, 1)
        #expect(!SamplePredicate.stateOfMindValence(.lessThan, 2).matches(steps))
        #expect(!SamplePredicate.stateOfMindLabel(.content).matches(steps))
    }

    @Test func anElectrocardiogramPredicateMatchesByClassificationAndSymptomsStatus() throws {
        // Sinus rhythm, no symptoms.
        let ecg = Sample.electrocardiogram(try Fixtures.electrocardiogram(count: 8))
        #expect(SamplePredicate.electrocardiograms(classification: .sinusRhythm).matches(ecg))
        #expect(!SamplePredicate.electrocardiograms(classification: .atrialFibrillation).matches(ecg))
        #expect(SamplePredicate.electrocardiograms(symptomsStatus: .none).matches(ecg))
        #expect(!SamplePredicate.electrocardiograms(symptomsStatus: .present).matches(ecg))
        #expect(!SamplePredicate.electrocardiograms(symptomsStatus: .notSet).matches(ecg))
        let mood = Sample.stateOfMind(try Fixtures.stateOfMind())
        #expect(!SamplePredicate.electrocardiogramClassification(.sinusRhythm).matches(mood))
        #expect(!SamplePredicate.stateOfMindKind(.dailyMood).matches(ecg))
        // Typed, as HealthKit's HKSamplePredicate.stateOfMind(_:) and .electrocardiogram(_:).
        #expect(SampleTypePredicate.electrocardiogram(.electrocardiogramSymptomsStatus(.none)).matches(ecg))
        #expect(!SampleTypePredicate.stateOfMind(.electrocardiogramSymptomsStatus(.none)).matches(ecg))
        #expect(SampleTypePredicate.stateOfMind().matches(mood))
    }

    @Test func andOrNotCombine() throws {
        let sample = try steps(0, 1)
        let yes = SamplePredicate.sources(["org.example.stepcounter"])
        let no = SamplePredicate.uuids([])
        #expect(SamplePredicate.and([yes, yes]).matches(sample))
        #expect(!SamplePredicate.and([yes, no]).matches(sample))
        #expect(SamplePredicate.or([no, yes]).matches(sample))
        #expect(!SamplePredicate.or([]).matches(sample))
        #expect(SamplePredicate.and([]).matches(sample))
        #expect(SamplePredicate.not(no).matches(sample))
    }

    @Test func correlationQueriesMatchMembers() throws {
        let reading = try Fixtures.bloodPressure(systolic: 150, diastolic: 95)
        let high = CorrelationQueryDescriptor(
            type: .bloodPressure,
            samplePredicates: [
                .quantitySample(
                    type: .bloodPressureSystolic,
                    predicate: .quantity(.greaterThanOrEqualTo, Quantity(140, .millimeterOfMercury))
                )
            ]
        )
        try high.validate()
        #expect(high.matches(reading))
        #expect(!high.matches(try Fixtures.bloodPressure(systolic: 118, diastolic: 76)))
        #expect(reading.objects(for: .quantity(.bloodPressureDiastolic)).count == 1)
    }

    @Test func sortDescriptorsOrderByDatesAndValues() throws {
        let samples = [try steps(2, 3, value: 5), try steps(0, 4, value: 50), try steps(1, 2, value: 500)]
        func sorted(_ descriptor: SampleSortDescriptor) -> [Double] {
            samples.sorted { descriptor.orders($0, before: $1) }.map { sample in
                guard case .quantity(let q) = sample else { return -1 }
                return q.quantity.value
            }
        }
        #expect(sorted(SampleSortDescriptor(.startDate)) == [50, 500, 5])
        #expect(sorted(SampleSortDescriptor(.endDate, order: .descending)) == [50, 5, 500])
        #expect(sorted(SampleSortDescriptor(.value, order: .descending)) == [500, 50, 5])
    }
}

extension PredicateTests {
    @Test func sortingByValueComparesAcrossCanonicalUnitsOfOneDimension() throws {
        let fast = Sample.quantity(try Fixtures.quantity(.heartRate, 120, .countPerMinute))  // canonical count/s
        let slow = Sample.quantity(try Fixtures.quantity(.restingHeartRate, 50, .countPerMinute))  // count/min
        let ascending = SampleSortDescriptor(.value)
        #expect(ascending.orders(slow, before: fast))
        #expect(!ascending.orders(fast, before: slow))
    }
}
