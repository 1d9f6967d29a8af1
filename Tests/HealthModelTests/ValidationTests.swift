import Foundation
import HealthModel
import HealthModelTestSupport
import Testing

/// Each validation rule refuses bad input with the right code and names the field.
struct ValidationTests {
    func expectInvalid(
        field: String?,
        _ body: () throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = healthError(body)
        #expect(error?.code == .invalidArgument, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.field == field, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    // MARK: Samples

    @Test func endBeforeStartIsRefused() {
        expectInvalid(field: "endDate") { _ = try Fixtures.quantity(start: Fixtures.end, end: Fixtures.start) }
        expectInvalid(field: "endDate") {
            _ = try CategorySample(
                type: .mindfulSession,
                value: 0,
                start: Fixtures.end,
                end: Fixtures.start,
                sourceRevision: Fixtures.app
            )
        }
    }

    @Test func unitIncompatibleWithTheTypeIsRefused() {
        expectInvalid(field: "quantity.unit") { _ = try Fixtures.quantity(.stepCount, 10, .kilogram) }
        expectInvalid(field: "quantity.unit") { _ = try Fixtures.quantity(.heartRate, 60, .hertz) }
    }

    @Test func compatibleUnitsAreAcceptedAndKeptAsGiven() throws {
        let sample = try Fixtures.quantity(.bodyMass, 160, .pound)
        #expect(sample.quantity.unit == .pound)
        #expect(abs(try sample.quantity.doubleValue(for: .kilogram) - 72.5747792) < 1e-9)
    }

    @Test func nonFiniteValuesAreRefused() {
        for value in [Double.nan, .infinity, -.infinity] {
            expectInvalid(field: "quantity.value") { _ = try Fixtures.quantity(.bodyMass, value, .kilogram) }
        }
    }

    @Test func valuesOutsideTheTypesDomainAreRefused() {
        expectInvalid(field: "quantity.value") { _ = try Fixtures.quantity(.stepCount, -1) }
        expectInvalid(field: "quantity.value") { _ = try Fixtures.quantity(.oxygenSaturation, 1.2, .percent) }
        expectInvalid(field: "quantity.value") { _ = try Fixtures.quantity(.bodyTemperature, -300, .degreeCelsius) }
        expectInvalid(field: "quantity.value") { _ = try Fixtures.quantity(.bodyTemperature, -1, .kelvin) }
    }

    @Test func valuesInsideTheDomainAreAccepted() throws {
        _ = try Fixtures.quantity(.oxygenSaturation, 0.97, .percent)
        _ = try Fixtures.quantity(.bodyTemperature, 98.6, .degreeFahrenheit)
        // A wrist-temperature deviation may be negative.
        _ = try Fixtures.quantity(.appleSleepingWristTemperature, -0.4, .degreeCelsius)
        _ = try Fixtures.quantity(.stepCount, 0)
    }

    @Test func categoryValueNotOfTheTypesEnumerationIsRefused() throws {
        expectInvalid(field: "value") { _ = try Fixtures.category(.sleepAnalysis, 9) }
        expectInvalid(field: "value") { _ = try Fixtures.category(.mindfulSession, 1) }
        expectInvalid(field: "value") { _ = try Fixtures.category(.headache, -1) }
        expectInvalid(field: "value") {
            _ = try CategorySample(
                type: .sleepAnalysis,
                value: CategoryValueSeverity.mild,
                start: Fixtures.start,
                end: Fixtures.end,
                sourceRevision: Fixtures.app
            )
        }
        let sleep = try CategorySample(
            type: .sleepAnalysis,
            value: CategoryValueSleepAnalysis.asleepDeep,
            start: Fixtures.start,
            end: Fixtures.end,
            sourceRevision: Fixtures.app
        )
        #expect(sleep.value == 4)
        #expect(CategoryValueSleepAnalysis.asleep == .asleepUnspecified)
        #expect(CategoryTypeIdentifier.sleepAnalysis.valueSet.caseName(of: 5) == "asleepREM")
    }

    @Test func correlationMemberOfADisallowedTypeIsRefused() throws {
        expectInvalid(field: "objects[1].type") {
            _ = try Correlation(
                type: .food,
                start: Fixtures.start,
                end: Fixtures.end,
                objects: [
                    .quantity(try Fixtures.quantity(.dietaryProtein, 12, .gram)),
                    .quantity(try Fixtures.quantity(.heartRate, 70, .countPerMinute)),
                ],
                sourceRevision: Fixtures.app
            )
        }
        expectInvalid(field: "objects[0].type") {
            _ = try Correlation(
                type: .bloodPressure,
                start: Fixtures.start,
                end: Fixtures.end,
                objects: [.category(try Fixtures.category())],
                sourceRevision: Fixtures.app
            )
        }
    }

    @Test func bloodPressureNeedsExactlyOneSystolicAndOneDiastolic() throws {
        _ = try Fixtures.bloodPressure()
        let systolic = try Fixtures.quantity(.bloodPressureSystolic, 120, .millimeterOfMercury)
        expectInvalid(field: "objects") {
            _ = try Correlation(
                type: .bloodPressure,
                start: Fixtures.start,
                end: Fixtures.end,
                objects: [.quantity(systolic)],
                sourceRevision: Fixtures.app
            )
        }
        expectInvalid(field: "objects[1].uuid") {
            _ = try Correlation(
                type: .bloodPressure,
                start: Fixtures.start,
                end: Fixtures.end,
                objects: [.quantity(systolic), .quantity(systolic)],
                sourceRevision: Fixtures.app
            )
        }
        expectInvalid(field: "objects") {
            _ = try Correlation(
                type: .food,
                start: Fixtures.start,
                end: Fixtures.end,
                objects: [],
                sourceRevision: Fixtures.app
            )
        }
    }

    @Test func foodHoldsOnlyDietaryTypes() {
        let dietary = CorrelationTypeIdentifier.food.allowedMemberTypes
        #expect(dietary.count == 39)
        #expect(dietary.allSatisfy { $0.identifier.hasPrefix("HKQuantityTypeIdentifierDietary") })
        #expect(CorrelationTypeIdentifier.bloodPressure.allowedMemberTypes.count == 2)
    }

    @Test func unknownIdentifiersAreRefused() {
        expectInvalid(field: "type") { _ = try ObjectType(identifier: "HKQuantityTypeIdentifierStepsTaken") }
        expectInvalid(field: "type") { _ = try SampleType(identifier: "") }
        expectInvalid(field: "type") { _ = try QuantityTypeIdentifier(healthKitString: "stepCount") }
        // A characteristic is an object type but not a sample type.
        expectInvalid(field: "type") { _ = try SampleType(identifier: "HKCharacteristicTypeIdentifierBloodType") }
    }

    @Test func unknownIdentifierInJSONIsAnInvalidArgument() throws {
        var json = String(decoding: try HealthJSON.encode(Sample.quantity(try Fixtures.quantity())), as: UTF8.self)
        json = json.replacingOccurrences(of: "HKQuantityTypeIdentifierStepCount", with: "HKQuantityTypeIdentifierSteps")
        let error = healthError { _ = try HealthJSON.decode(Sample.self, from: Data(json.utf8)) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("HKQuantityTypeIdentifierSteps") == true)
    }

    @Test func invalidSampleInJSONIsRefusedOnDecoding() throws {
        let json = String(decoding: try HealthJSON.encode(try Fixtures.quantity()), as: UTF8.self)
            .replacingOccurrences(of: "\"value\":1200", with: "\"value\":-5")
        let error = healthError { _ = try HealthJSON.decode(QuantitySample.self, from: Data(json.utf8)) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "quantity.value")
    }

    @Test func malformedJSONIsAnInvalidArgumentNamingTheField() {
        let missing = healthError { _ = try HealthJSON.decode(Quantity.self, from: Data(#"{"value": 3}"#.utf8)) }
        #expect(missing?.code == .invalidArgument)
        #expect(missing?.field == "unit")
        let garbage = healthError { _ = try HealthJSON.decode(Sample.self, from: Data("{not json".utf8)) }
        #expect(garbage?.code == .invalidArgument)
        let badDate = healthError {
            _ = try HealthJSON.decode(
                SamplePredicate.self,
                from: Data(#"{"kind":"date","startDate":"yesterday"}"#.utf8)
            )
        }
        #expect(badDate?.code == .invalidArgument)
        #expect(badDate?.field == "startDate")
        // A fraction where a whole number goes: said so, not "not valid JSON".
        let fraction = healthError {
            _ = try HealthJSON.decode(
                SampleQueryDescriptor.self,
                from: Data(#"{"predicates":[],"sortDescriptors":[],"limit":1.5}"#.utf8)
            )
        }
        #expect(fraction?.code == .invalidArgument)
        #expect(
            fraction?.message.contains("whole number") == true,
            "\(String(describing: fraction?.message)) \(String(describing: fraction?.field))"
        )
        #expect(garbage?.message.contains("whole number") == false)
    }

    @Test func numbersBeyondADoubleAndBadUUIDsAreNamedInJSONsWords() throws {
        let json = String(decoding: try HealthJSON.encode(Sample.quantity(try Fixtures.quantity())), as: UTF8.self)
        // JSON's grammar allows 1e400; a double cannot hold it. Named, not "not valid JSON".
        let beyond = healthError {
            _ = try HealthJSON.decode(
                Sample.self,
                from: Data(json.replacingOccurrences(of: "\"value\":1200", with: "\"value\":1e400").utf8)
            )
        }
        #expect(
            beyond?.field == "quantity.value" && beyond?.message.contains("1e400") == true,
            "\(String(describing: beyond))"
        )
        // Beyond range in a list, inside an object with an escaped key.
        let nested = healthError {
            _ = try HealthJSON.decode(
                [String: [Double]].self,
                from: Data(#"{"a\"b":[1, 2.5e-3, -7E+500]}"#.utf8)
            )
        }
        #expect(nested?.field == #"a"b[2]"#, "\(String(describing: nested))")
        let uuid = healthError {
            _ = try HealthJSON.decode(
                Sample.self,
                from: Data(json.replacingOccurrences(of: #""uuid":""#, with: #""uuid":"nope"#).utf8)
            )
        }
        #expect(uuid?.field == "uuid" && uuid?.message.contains("not a UUID") == true, "\(String(describing: uuid))")
    }

    // MARK: Metadata

    @Test func syncIdentifierNeedsASyncVersion() throws {
        expectInvalid(field: "metadata.HKMetadataKeySyncVersion") {
            _ = try Fixtures.quantity(metadata: [.syncIdentifier: .string("abc")])
        }
        _ = try Fixtures.quantity(metadata: [.syncIdentifier: .string("abc"), .syncVersion: .number(2)])
    }

    @Test func wellKnownMetadataKeysTakeTheirKindOfValue() throws {
        expectInvalid(field: "metadata.HKWasUserEntered") {
            _ = try Fixtures.quantity(metadata: [.wasUserEntered: .string("yes")])
        }
        expectInvalid(field: "metadata.HKWasUserEntered") {
            _ = try Fixtures.quantity(metadata: [.wasUserEntered: .number(2)])
        }
        expectInvalid(field: "metadata.HKHeartRateSensorLocation") {
            _ = try Fixtures.quantity(metadata: [.heartRateSensorLocation: .number(42)])
        }
        expectInvalid(field: "metadata.HKTimeZone") {
            _ = try Fixtures.quantity(metadata: [.timeZone: .string("Mars/Olympus_Mons")])
        }
        expectInvalid(field: "metadata.HKLapLength") {
            _ = try Fixtures.quantity(metadata: [.lapLength: .quantity(Quantity(25, .second))])
        }
        expectInvalid(field: "metadata.org.example.score") {
            _ = try Fixtures.quantity(metadata: ["org.example.score": .number(.nan)])
        }
        _ = try Fixtures.quantity(metadata: [
            .wasUserEntered: .bool(true),
            .heartRateSensorLocation: .number(Double(HeartRateSensorLocation.wrist.rawValue)),
            .timeZone: .string("Europe/Paris"),
            .lapLength: .quantity(Quantity(25, .meter)),
            .dateOfEarliestDataUsedForEstimate: .date(Fixtures.start),
            "org.example.note": .string("after lunch"),
        ])
    }

    // MARK: Workouts

    @Test func workoutDurationTotalsAndEventsAreChecked() throws {
        func workout(
            duration: TimeInterval? = nil,
            energy: Quantity? = nil,
            distance: Quantity? = nil,
            events: [WorkoutEvent] = []
        ) throws -> Workout {
            try Workout(
                activityType: .running,
                start: Fixtures.start,
                end: Fixtures.end,
                duration: duration,
                totalEnergyBurned: energy,
                totalDistance: distance,
                events: events,
                sourceRevision: Fixtures.app
            )
        }
        #expect(try workout().duration == 1800)
        expectInvalid(field: "duration") { _ = try workout(duration: 3600) }
        expectInvalid(field: "duration") { _ = try workout(duration: -1) }
        expectInvalid(field: "totalEnergyBurned.unit") { _ = try workout(energy: Quantity(300, .meter)) }
        expectInvalid(field: "totalDistance.unit") { _ = try workout(distance: Quantity(5, .kilocalorie)) }
        expectInvalid(field: "totalDistance.value") { _ = try workout(distance: Quantity(-5, .kilometer)) }
        expectInvalid(field: "workoutEvents[0].startDate") {
            _ = try workout(events: [WorkoutEvent(type: .lap, start: Fixtures.end.addingTimeInterval(60))])
        }
        let paused = try workout(
            duration: 1500,
            energy: Quantity(310, .kilocalorie),
            distance: Quantity(5, .kilometer),
            events: [
                WorkoutEvent(type: .resume, start: Fixtures.start.addingTimeInterval(600)),
                WorkoutEvent(type: .pause, start: Fixtures.start.addingTimeInterval(300)),
                WorkoutEvent(
                    type: .segment,
                    start: Fixtures.start,
                    end: Fixtures.start.addingTimeInterval(900)
                ),
            ]
        )
        #expect(paused.workoutEvents.map(\.type) == [.segment, .pause, .resume])
    }

    // MARK: Characteristics

    @Test func dateOfBirthMustBeARealDay() throws {
        expectInvalid(field: "day") { _ = try DateOfBirth(year: 1990, month: 2, day: 30) }
        expectInvalid(field: "month") { _ = try DateOfBirth(year: 1990, month: 13, day: 1) }
        expectInvalid(field: "year") { _ = try DateOfBirth(year: 1200, month: 1, day: 1) }
        #expect(try DateOfBirth(year: 1984, month: 2, day: 29).description == "1984-02-29")
        let bad = #"{"type":"HKCharacteristicTypeIdentifierBloodType","value":12}"#
        let error = healthError { _ = try HealthJSON.decode(CharacteristicValue.self, from: Data(bad.utf8)) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("HKBloodType") == true)
        #expect(error?.field == "value")
        let leap = #"{"type":"HKCharacteristicTypeIdentifierDateOfBirth","value":{"year":1990,"month":2,"day":30}}"#
        let leapError = healthError { _ = try HealthJSON.decode(CharacteristicValue.self, from: Data(leap.utf8)) }
        #expect(leapError?.field == "value.day")
    }

    // MARK: Queries

    @Test func cumulativeSumOverADiscreteTypeIsAnInvalidArgument() throws {
        expectInvalid(field: "options") {
            try StatisticsQueryDescriptor(quantityType: .heartRate, options: .cumulativeSum).validate()
        }
        expectInvalid(field: "options") {
            try StatisticsQueryDescriptor(quantityType: .stepCount, options: .discreteAverage).validate()
        }
        expectInvalid(field: "options") {
            try StatisticsQueryDescriptor(quantityType: .stepCount, options: .separateBySource).validate()
        }
        try StatisticsQueryDescriptor(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource])
            .validate()
        try StatisticsQueryDescriptor(quantityType: .heartRate, options: [.discreteAverage, .discreteMax, .mostRecent])
            .validate()
    }

    @Test func predicatesMustFitTheTypeTheyQuery() throws {
        let beats = SamplePredicate.quantity(.greaterThan, Quantity(100, .countPerMinute))
        try beats.validate(for: .quantity(.heartRate))
        expectInvalid(field: "predicate") { try beats.validate(for: .category(.sleepAnalysis)) }
        expectInvalid(field: "predicate.unit") { try beats.validate(for: .quantity(.stepCount)) }
        expectInvalid(field: "predicate.predicates[1]") {
            try SamplePredicate.and([.uuids([]), .categoryValue(.equalTo, 1)]).validate(for: .quantity(.heartRate))
        }
        expectInvalid(field: "predicate") {
            try SamplePredicate.workoutDuration(.greaterThan, 60).validate(for: .quantity(.heartRate))
        }
        expectInvalid(field: "predicate") {
            try SamplePredicate.date(start: Fixtures.end, end: Fixtures.start, options: []).validate(for: .workout)
        }
        expectInvalid(field: "predicate.unit") {
            try SamplePredicate.workoutTotalDistance(.greaterThan, Quantity(1, .kilocalorie)).validate(for: .workout)
        }
    }

    @Test func stateOfMindAndElectrocardiogramPredicatesNeedTheirTypes() throws {
        let grateful = SamplePredicate.statesOfMind(with: StateOfMind.Label.grateful)
        try grateful.validate(for: .stateOfMind)
        for predicate in [
            grateful, .stateOfMindKind(.dailyMood), .stateOfMindAssociation(.work), .stateOfMindValence(.lessThan, 0),
        ] {
            for type in [SampleType.quantity(.heartRate), .category(.sleepAnalysis), .electrocardiogram, .workout] {
                expectInvalid(field: "predicate") { try predicate.validate(for: type) }
            }
        }
        for predicate in [
            SamplePredicate.electrocardiograms(classification: .atrialFibrillation),
            .electrocardiograms(symptomsStatus: .present),
        ] {
            try predicate.validate(for: .electrocardiogram)
            expectInvalid(field: "predicate") { try predicate.validate(for: .stateOfMind) }
            expectInvalid(field: "predicate") { try predicate.validate(for: .quantity(.heartRate)) }
        }
        expectInvalid(field: "predicate.predicates[1]") {
            try SamplePredicate.or([grateful, .electrocardiogramClassification(.sinusRhythm)])
                .validate(for: .stateOfMind)
        }
        // A valence must be finite; outside -1...1 it only compares (below every one, or above).
        try SamplePredicate.statesOfMind(withValence: 1.5, operatorType: .lessThan).validate(for: .stateOfMind)
        for valence in [Double.nan, .infinity, -.infinity] {
            expectInvalid(field: "predicate") {
                try SamplePredicate.statesOfMind(withValence: valence, operatorType: .lessThan)
                    .validate(for: .stateOfMind)
            }
        }
    }

    @Test func overlyDeepOrLargePredicatesAreRefused() {
        var deep = SamplePredicate.uuids([])
        for _ in 0..<SamplePredicate.maximumDepth { deep = .not(deep) }
        let error = healthError { try deep.validate(for: .workout) }
        #expect(error?.code == .invalidArgument)
        let wide = SamplePredicate.uuids(Array(repeating: UUID(), count: SamplePredicate.maximumSize + 1))
        #expect(healthError { try wide.validate(for: .workout) }?.code == .dataSizeExceeded)
    }

    @Test func queryDescriptorsValidateLimitsSortsIntervalsAndMembers() throws {
        let steps = SampleTypePredicate.quantitySample(type: .stepCount)
        expectInvalid(field: "limit") { try SampleQueryDescriptor(predicates: [steps], limit: -1).validate() }
        expectInvalid(field: "predicates") { try SampleQueryDescriptor(predicates: []).validate() }
        expectInvalid(field: "sortDescriptors") {
            try SampleQueryDescriptor(
                predicates: [steps, .quantitySample(type: .bodyMass)],
                sortDescriptors: [SampleSortDescriptor(.value)]
            ).validate()
        }
        try SampleQueryDescriptor(
            predicates: [steps, .quantitySample(type: .pushCount)],
            sortDescriptors: [SampleSortDescriptor(.value, order: .descending)],
            limit: 10
        ).validate()
        expectInvalid(field: "predicates[0].predicate") {
            try AnchoredObjectQueryDescriptor(
                predicates: [.quantitySample(type: .stepCount, predicate: .categoryValue(.equalTo, 0))]
            ).validate()
        }
        expectInvalid(field: "anchor") {
            try AnchoredObjectQueryDescriptor(predicates: [steps], anchor: QueryAnchor(token: "")).validate()
        }
        let daily = StatisticsCollectionQueryDescriptor(
            quantityType: .stepCount,
            options: .cumulativeSum,
            anchorDate: Fixtures.start,
            intervalComponents: IntervalComponents(day: 1),
            timeZone: "Europe/Paris"
        )
        try daily.validate()
        expectInvalid(field: "intervalComponents") {
            try StatisticsCollectionQueryDescriptor(
                quantityType: .stepCount,
                options: .cumulativeSum,
                anchorDate: Fixtures.start,
                intervalComponents: IntervalComponents()
            ).validate()
        }
        expectInvalid(field: "timeZone") {
            try StatisticsCollectionQueryDescriptor(
                quantityType: .stepCount,
                options: .cumulativeSum,
                anchorDate: Fixtures.start,
                intervalComponents: IntervalComponents(hour: 1),
                timeZone: "Nowhere/Land"
            ).validate()
        }
        expectInvalid(field: "samplePredicates[0].sampleType") {
            try CorrelationQueryDescriptor(
                type: .bloodPressure,
                samplePredicates: [.quantitySample(type: .heartRate)]
            ).validate()
        }
        expectInvalid(field: "predicate.predicate") {
            try SourceQueryDescriptor(sampleType: .workout, predicate: .categoryValue(.equalTo, 1)).validate()
        }
    }

    @Test func errorCodesMapToHealthKitsCodes() {
        #expect(HealthError.Code.invalidArgument.healthKitCode == 3)
        #expect(HealthError.Code.authorizationDenied.healthKitCode == 4)
        #expect(HealthError.Code.authorizationNotDetermined.healthKitCode == 5)
        #expect(HealthError.Code.databaseInaccessible.healthKitCode == 6)
        #expect(HealthError.Code.noData.healthKitCode == 11)
        #expect(HealthError.Code(rawValue: "somethingNew").healthKitCode == nil)
        let error = HealthError.invalidArgument("the end date is before the start date", field: "endDate")
        #expect(error.description == "invalidArgument: endDate: the end date is before the start date")
    }
}

extension ValidationTests {
    @Test func syncVersionMustBeAWholeNumber() {
        expectInvalid(field: "metadata.HKMetadataKeySyncVersion") {
            _ = try Fixtures.quantity(metadata: [.syncIdentifier: .string("abc"), .syncVersion: .number(1.5)])
        }
    }

    @Test func errorMessagesCarryNoMeasuredValues() {
        let messages = [
            healthError { _ = try Fixtures.quantity(start: Fixtures.end, end: Fixtures.start) },
            healthError { _ = try Fixtures.quantity(.stepCount, -123_457) },
            healthError { _ = try Fixtures.category(.sleepAnalysis, 9876) },
            healthError { _ = try DateOfBirth(year: 1987, month: 2, day: 30) },
            healthError {
                _ = try Workout(
                    activityType: .running,
                    start: Fixtures.start,
                    end: Fixtures.end,
                    duration: 4321,
                    sourceRevision: Fixtures.app
                )
            },
        ].map { $0?.message ?? "" }
        for message in messages {
            #expect(!message.isEmpty)
            for value in ["08:", "2026", "123457", "9876", "1987", "4321", "1800"] {
                #expect(!message.contains(value), "\(message)")
            }
        }
    }
}
