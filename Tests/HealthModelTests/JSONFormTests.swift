import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

/// The JSON form is the wire protocol's vocabulary: stable, readable, and lossless.
struct JSONFormTests {
    func json(_ value: some Encodable) throws -> String {
        String(decoding: try HealthJSON.encode(value), as: UTF8.self)
    }

    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try HealthJSON.decode(T.self, from: try HealthJSON.encode(value))
    }

    @Test func quantitySampleHasItsDocumentedForm() throws {
        let sample = try QuantitySample(
            uuid: UUID(uuidString: "6F1C2A9E-3B7D-4E55-9A0C-1D2E3F405162")!,
            type: .stepCount,
            quantity: Quantity(1200, .count),
            start: RFC3339.date(from: "2026-03-03T08:00:00Z")!,
            end: RFC3339.date(from: "2026-03-03T08:30:00.5Z")!,
            sourceRevision: Fixtures.app,
            device: Device(name: "Watch", model: "Watch7,1"),
            metadata: [.wasUserEntered: .bool(false)]
        )
        #expect(
            try json(sample)
                == #"{"device":{"model":"Watch7,1","name":"Watch"},"endDate":"2026-03-03T08:30:00.500Z","#
                + #""metadata":{"HKWasUserEntered":0},"quantity":{"unit":"count","value":1200},"#
                + #""sourceRevision":{"source":{"bundleIdentifier":"org.example.stepcounter","name":"Step Counter"},"#
                + #""version":"1.2"},"startDate":"2026-03-03T08:00:00.000Z","type":"HKQuantityTypeIdentifierStepCount","#
                + #""uuid":"6F1C2A9E-3B7D-4E55-9A0C-1D2E3F405162"}"#
        )
    }

    /// A device and a source revision hold their properties behind one shared reference; their
    /// JSON, equality and hashing are their properties', as when they were held inline.
    @Test func deviceAndSourceRevisionAreTheirProperties() throws {
        let device = Device(
            name: "Watch",
            manufacturer: "Apple Inc.",
            model: "Watch7,1",
            hardwareVersion: "7.1",
            firmwareVersion: "11.2",
            softwareVersion: "11.2.1",
            localIdentifier: "local",
            udiDeviceIdentifier: "00888"
        )
        #expect(
            try json(device)
                == #"{"firmwareVersion":"11.2","hardwareVersion":"7.1","localIdentifier":"local","#
                + #""manufacturer":"Apple Inc.","model":"Watch7,1","name":"Watch","softwareVersion":"11.2.1","#
                + #""udiDeviceIdentifier":"00888"}"#
        )
        #expect(try json(Device()) == "{}")
        #expect(try roundTrip(device) == device)
        let decoded = try HealthJSON.decode(Device.self, from: Data(#"{"model":"Watch7,1","extra":1}"#.utf8))
        #expect(decoded == Device(model: "Watch7,1"))
        #expect(decoded.name == nil && decoded.model == "Watch7,1")
        #expect(Device(model: "Watch7,1") != Device(model: "Watch7,2"))
        // Equal and hashed by value: two devices made apart are one member of a set.
        #expect(Set([device, Device(name: "Watch"), try roundTrip(device)]).count == 2)
        let nulls = try HealthJSON.decode(Device.self, from: Data(#"{"name":null,"model":"Watch7,1"}"#.utf8))
        #expect(nulls == Device(model: "Watch7,1"))
        #expect(String(describing: device).contains("manufacturer: Optional(\"Apple Inc.\")"))

        let revision = SourceRevision(
            source: Source(bundleIdentifier: "com.apple.health", name: "Health"),
            version: "17.1",
            productType: "iPhone15,2",
            operatingSystemVersion: "17.1.2"
        )
        #expect(
            try json(revision)
                == #"{"operatingSystemVersion":"17.1.2","productType":"iPhone15,2","#
                + #""source":{"bundleIdentifier":"com.apple.health","name":"Health"},"version":"17.1"}"#
        )
        #expect(try roundTrip(revision) == revision)
        let bare = SourceRevision(source: revision.source)
        #expect(try json(bare) == #"{"source":{"bundleIdentifier":"com.apple.health","name":"Health"}}"#)
        #expect(bare != revision)
        #expect(bare.version == nil && revision.productType == "iPhone15,2")
        #expect(
            Set([revision, bare, SourceRevision(source: revision.source)]).count == 2
        )
        #expect(String(describing: revision).contains("productType: Optional(\"iPhone15,2\")"))
        let missing = #expect(throws: HealthError.self) {
            try HealthJSON.decode(SourceRevision.self, from: Data(#"{"version":"1"}"#.utf8))
        }
        #expect(missing?.field == "source")
    }

    @Test func identifiersAndEnumerationsUseHealthKitsSpellings() throws {
        #expect(try json(SampleType.quantity(.heartRate)) == #""HKQuantityTypeIdentifierHeartRate""#)
        #expect(try json(ObjectType.characteristic(.bloodType)) == #""HKCharacteristicTypeIdentifierBloodType""#)
        #expect(try json(ObjectType.workout) == #""HKWorkoutTypeIdentifier""#)
        #expect(try json([CategoryValueSleepAnalysis.asleepREM]) == "[5]")
        #expect(
            try json(CharacteristicValue.bloodType(.abNegative))
                == #"{"type":"HKCharacteristicTypeIdentifierBloodType","value":6}"#
        )
        #expect(
            try json(CharacteristicValue.dateOfBirth(try DateOfBirth(year: 1984, month: 2, day: 29)))
                == #"{"type":"HKCharacteristicTypeIdentifierDateOfBirth","value":{"day":29,"month":2,"year":1984}}"#
        )
        #expect(
            try json(StatisticsOptions([.cumulativeSum, .separateBySource])) == #"["separateBySource","cumulativeSum"]"#
        )
        #expect(
            try json(SamplePredicate.quantity(.greaterThan, Quantity(100, .countPerMinute)))
                == #"{"kind":"quantity","operator":"greaterThan","quantity":{"unit":"count/min","value":100}}"#
        )
        #expect(
            try json(MetadataValue.date(RFC3339.date(from: "2026-01-01T00:00:00Z")!))
                == #"{"date":"2026-01-01T00:00:00.000Z"}"#
        )
    }

    @Test func stateOfMindAndElectrocardiogramPredicatesHaveTheirDocumentedForms() throws {
        let forms: [(SamplePredicate, String)] = [
            (.statesOfMind(with: StateOfMind.Kind.dailyMood), #"{"kind":"stateOfMindKind","stateOfMindKind":2}"#),
            (
                .statesOfMind(withValence: -0.5, operatorType: .lessThan),
                #"{"kind":"stateOfMindValence","operator":"lessThan","valence":-0.5}"#
            ),
            (.statesOfMind(with: StateOfMind.Label.happy), #"{"kind":"stateOfMindLabel","label":17}"#),
            (.statesOfMind(with: StateOfMind.Association.work), #"{"association":17,"kind":"stateOfMindAssociation"}"#),
            (
                .electrocardiograms(classification: .atrialFibrillation),
                #"{"classification":2,"kind":"electrocardiogramClassification"}"#
            ),
            (
                .electrocardiograms(symptomsStatus: .present),
                #"{"kind":"electrocardiogramSymptomsStatus","symptomsStatus":2}"#
            ),
        ]
        for (predicate, form) in forms {
            #expect(try json(predicate) == form)
            #expect(try HealthJSON.decode(SamplePredicate.self, from: Data(form.utf8)) == predicate)
        }
        // A raw value HealthKit does not define is refused, naming its field.
        #expect(errorField(SamplePredicate.self, #"{"kind":"stateOfMindLabel","label":99}"#) == "label")
        #expect(
            errorField(
                SamplePredicate.self,
                #"{"kind":"not","predicate":{"kind":"stateOfMindKind","stateOfMindKind":0}}"#
            )
                == "predicate.stateOfMindKind"
        )
        #expect(
            errorField(SamplePredicate.self, #"{"kind":"electrocardiogramClassification","classification":7}"#)
                == "classification"
        )
        #expect(errorField(SamplePredicate.self, #"{"kind":"stateOfMindValence","operator":"lessThan"}"#) == "valence")
    }

    /// One predicate of every kind; the switch fails to compile when a case is added, so that it
    /// is added here too (and so checked against the documents).
    static let predicateOfEveryKind: [SamplePredicate] = {
        let examples: [SamplePredicate] = [
            .date(start: nil, end: nil, options: []), .uuids([]), .sources([]), .device(.name, []),
            .metadata(.wasUserEntered, .exists), .quantity(.equalTo, Quantity(1, .count)), .categoryValue(.equalTo, 0),
            .workoutActivityType(.running), .workoutDuration(.lessThan, 60),
            .workoutTotalEnergyBurned(.lessThan, Quantity(1, .kilocalorie)),
            .workoutTotalDistance(.lessThan, Quantity(1, .meter)), .workout(UUID()), .stateOfMindKind(.dailyMood),
            .stateOfMindValence(.lessThan, 0), .stateOfMindLabel(.calm), .stateOfMindAssociation(.work),
            .electrocardiogramClassification(.sinusRhythm), .electrocardiogramSymptomsStatus(.none), .and([]), .or([]),
            .not(.and([])),
        ]
        for example in examples {
            switch example {
            case .date, .uuids, .sources, .device, .metadata, .quantity, .categoryValue, .workoutActivityType,
                .workoutDuration, .workoutTotalEnergyBurned, .workoutTotalDistance, .workout, .stateOfMindKind,
                .stateOfMindValence, .stateOfMindLabel, .stateOfMindAssociation, .electrocardiogramClassification,
                .electrocardiogramSymptomsStatus, .and, .or, .not:
                break
            }
        }
        return examples
    }()

    /// Every predicate kind the vault reads is in docs/MODEL_JSON.md's "Predicates" table and in
    /// docs/PROTOCOL.md's list of kinds: the documents are what outside clients are written from.
    @Test func everyPredicateKindIsDocumented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs")
        let model = try String(contentsOf: docs.appendingPathComponent("MODEL_JSON.md"), encoding: .utf8)
        let table =
            try #require(model.components(separatedBy: "## Predicates").dropFirst().first)
            .components(separatedBy: "\n\n").dropFirst(2).first ?? ""
        let rows = table.split(separator: "\n").map { $0.components(separatedBy: " | ").first ?? "" }
        let protocolText = try String(contentsOf: docs.appendingPathComponent("PROTOCOL.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        for predicate in Self.predicateOfEveryKind {
            let object = try JSONSerialization.jsonObject(with: try HealthJSON.encode(predicate)) as? [String: Any]
            let kind = try #require(object?["kind"] as? String)
            #expect(rows.contains { $0.contains("`\(kind)`") }, "\(kind) is not in MODEL_JSON's table")
            #expect(protocolText.contains("`\(kind)`"), "\(kind) is not in PROTOCOL's list")
        }
    }

    @Test func datesAreRFC3339WithFractionalSeconds() throws {
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_772_524_800.25)) == "2026-03-03T08:00:00.250Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.500Z")
        #expect(RFC3339.date(from: "2026-03-03T09:00:00+01:00") == RFC3339.date(from: "2026-03-03T08:00:00Z"))
        #expect(RFC3339.date(from: "2026-03-03t08:00:00.25z") == Date(timeIntervalSince1970: 1_772_524_800.25))
        #expect(RFC3339.date(from: "2024-02-29T00:00:00Z") != nil)
        for bad in [
            "2026-02-29T00:00:00Z", "2026-03-03T24:00:00Z", "2026-03-03T08:00:00", "2026-03-03",
            "2026-03-03T08:00:00.Z",
            "2026-3-03T08:00:00Z", "2026-03-03T08:00:00Zjunk", "",
        ] {
            #expect(RFC3339.date(from: bad) == nil, "\(bad)")
        }
    }

    @Test func everyDateReadsBackExactly() async {
        await propertyCheck(count: 500, input: Gen.double(in: -3e9...3e9)) { seconds in
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let text = RFC3339.string(from: date)
            #expect(RFC3339.date(from: text) == date, "\(seconds) -> \(text)")
        }
        // Near Foundation's reference date a Double is finer than a nanosecond.
        for seconds in [0.123_456_789_012_3, 1e-7, -2_000_000.000_000_000_5, 8_000_000.1] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            #expect(RFC3339.date(from: RFC3339.string(from: date)) == date, "\(seconds)")
        }
    }

    @Test func samplesRoundTripThroughJSON() async {
        await propertyCheck(count: 300, input: Generator(run: { rng in RandomModel.sample(&rng) })) { sample throws in
            #expect(try roundTrip(sample) == sample)
        }
    }

    @Test func predicatesRoundTripThroughJSON() async {
        await propertyCheck(count: 300, input: Generator(run: { rng in RandomModel.predicate(&rng) })) {
            predicate throws in
            #expect(try roundTrip(predicate) == predicate)
        }
    }

    @Test func queryDescriptorsRoundTripThroughJSON() async {
        let descriptors = Generator(run: { rng in
            let predicates = (1...Int.random(in: 1...3, using: &rng)).map { _ in
                SampleTypePredicate(
                    SampleType.allTypes.randomElement(using: &rng)!,
                    predicate: Bool.random(using: &rng) ? RandomModel.predicate(&rng) : nil
                )
            }
            let type = QuantityTypeIdentifier.allCases.randomElement(using: &rng)!
            return (
                SampleQueryDescriptor(
                    predicates: predicates,
                    sortDescriptors: RandomModel.sortDescriptors(&rng),
                    limit: Int.random(in: 0...1000, using: &rng)
                ),
                AnchoredObjectQueryDescriptor(
                    predicates: predicates,
                    anchor: Bool.random(using: &rng) ? QueryAnchor(token: RandomModel.string(&rng)) : nil,
                    limit: Int.random(in: 0...1000, using: &rng)
                ),
                StatisticsCollectionQueryDescriptor(
                    quantityType: type,
                    predicate: RandomModel.predicate(&rng),
                    options: RandomModel.statisticsOptions(&rng),
                    anchorDate: RandomModel.date(&rng),
                    intervalComponents: IntervalComponents(
                        month: Int.random(in: 0...2, using: &rng),
                        day: Int.random(in: 0...7, using: &rng),
                        hour: Int.random(in: 1...24, using: &rng)
                    ),
                    timeZone: ["UTC", "Europe/Paris", "America/New_York"].randomElement(using: &rng)!
                ),
                StatisticsQueryDescriptor(quantityType: type, options: RandomModel.statisticsOptions(&rng)),
                CorrelationQueryDescriptor(
                    type: .bloodPressure,
                    predicate: RandomModel.predicate(&rng),
                    samplePredicates: [
                        .quantitySample(type: .bloodPressureSystolic, predicate: RandomModel.predicate(&rng))
                    ]
                ),
                SourceQueryDescriptor(predicate: predicates[0])
            )
        })
        await propertyCheck(count: 200, input: descriptors) {
            sample,
            anchored,
            collection,
            statistics,
            correlation,
            source throws in
            #expect(try roundTrip(sample) == sample)
            #expect(try roundTrip(anchored) == anchored)
            #expect(try roundTrip(collection) == collection)
            #expect(try roundTrip(statistics) == statistics)
            #expect(try roundTrip(correlation) == correlation)
            #expect(try roundTrip(source) == source)
        }
    }

    @Test func statisticsResultsRoundTripThroughJSON() throws {
        let source = Fixtures.app.source
        let values = StatisticsValues(
            sum: Quantity(8042, .count),
            mostRecent: Quantity(12, .count),
            mostRecentStartDate: Fixtures.start,
            mostRecentEndDate: Fixtures.end,
            duration: Quantity(1800, .second)
        )
        let day = Statistics(
            quantityType: .stepCount,
            startDate: Fixtures.start,
            endDate: Fixtures.start.addingTimeInterval(86_400),
            values: values,
            sources: [source],
            valuesBySource: [SourceStatistics(source: source, values: values)]
        )
        let collection = StatisticsCollection(
            quantityType: .stepCount,
            anchorDate: Fixtures.start,
            intervalComponents: IntervalComponents(day: 1),
            timeZone: "UTC",
            statistics: [day]
        )
        #expect(try roundTrip(collection) == collection)
        #expect(collection.statistics(for: Fixtures.end)?.sumQuantity() == Quantity(8042, .count))
        #expect(collection.statistics(for: Fixtures.start.addingTimeInterval(-1)) == nil)
        #expect(day.sumQuantity(for: source) == Quantity(8042, .count))
        #expect(day.mostRecentQuantityDateInterval()?.duration == 1800)
        #expect(collection.sources() == [source])
    }

    @Test func sourceAttributionReplacesWhatTheAppClaimed() throws {
        let vault = SourceRevision(source: Source(bundleIdentifier: "org.example.real", name: "Real"))
        let correlation = try Fixtures.bloodPressure().attributed(to: vault)
        #expect(correlation.sourceRevision == vault)
        #expect(correlation.objects.allSatisfy { $0.sourceRevision == vault })
    }
}

extension JSONFormTests {
    @Test func aDateComesBackWithTheDigitsItWasSentWith() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            // A second between 1900 and 2100 (and some near the reference date), with 0 to 6 digits.
            let second = Int64.random(in: -3_155_760_000...3_155_760_000, using: &rng) / (Bool.random() ? 1 : 100_000)
            let digits = Int.random(in: 0...6, using: &rng)
            var fraction = ""
            if digits > 0 {
                fraction = "." + String((0..<digits).map { _ in "0123456789".randomElement(using: &rng)! })
            }
            let base = RFC3339.string(from: Date(timeIntervalSinceReferenceDate: Double(second)))
            let sent = String(base.dropLast(5)) + fraction + "Z"
            let date = try #require(RFC3339.date(from: sent))
            let written = RFC3339.string(from: date)
            #expect(RFC3339.date(from: written) == date)
            // Written as sent, trailing zeros aside and with at least three digits.
            var expected = fraction.isEmpty ? ".000" : fraction
            while expected.count > 4 && expected.hasSuffix("0") { expected.removeLast() }
            while expected.count < 4 { expected += "0" }
            #expect(written == String(base.dropLast(5)) + expected + "Z", "\(sent)")
        }
    }

    @Test func datesOutsideTheYears0000To9999AreRefusedAndNeverTrap() throws {
        #expect(RFC3339.string(from: RFC3339.representableRange.lowerBound) == "0000-01-01T00:00:00.000Z")
        #expect(RFC3339.string(from: RFC3339.representableRange.upperBound) == "9999-12-31T23:59:59.99997Z")
        #expect(RFC3339.string(from: Date(timeIntervalSinceReferenceDate: 1e300)) == "9999-12-31T23:59:59.99997Z")
        #expect(RFC3339.string(from: Date(timeIntervalSinceReferenceDate: .nan)).hasPrefix("0000-"))
        let far = Date(timeIntervalSinceReferenceDate: 1e12)
        let error = healthError { _ = try Fixtures.quantity(start: Fixtures.start, end: far) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "endDate")
    }
}

extension JSONFormTests {
    @Test func theEncoderRefusesDatesItCannotCarryInsteadOfChangingThem() {
        let far = SamplePredicate.date(start: Date(timeIntervalSinceReferenceDate: 1e12), end: nil, options: [])
        #expect(throws: EncodingError.self) { _ = try HealthJSON.encode(far) }
        #expect(healthError { try far.validate(for: .workout) }?.code == .invalidArgument)
    }

    /// Decodes `json` as `T` and returns the field of the HealthError it throws.
    func errorField<T: Decodable>(_ type: T.Type, _ json: String) -> String? {
        let error = healthError { _ = try HealthJSON.decode(T.self, from: Data(json.utf8)) }
        #expect(error?.code == .invalidArgument, "\(String(describing: error))")
        return error?.field
    }

    @Test func decodingErrorsNameTheFullPathOfTheField() throws {
        let sample = String(
            decoding: try HealthJSON.encode(Sample.correlation(try Fixtures.bloodPressure())),
            as: UTF8.self
        )
        #expect(
            errorField(Sample.self, sample.replacingOccurrences(of: "mmHg", with: "kg")) == "objects[0].quantity.unit"
        )
        #expect(
            errorField(Sample.self, sample.replacingOccurrences(of: "mmHg", with: "furlong"))
                == "objects[0].quantity.unit"
        )
        #expect(
            errorField(Sample.self, sample.replacingOccurrences(of: "BloodPressureSystolic", with: "Nonsense"))
                == "objects[0].type"
        )
        let run = try Workout(
            activityType: .running,
            start: Fixtures.start,
            end: Fixtures.end,
            sourceRevision: Fixtures.app
        )
        let workout = String(decoding: try HealthJSON.encode(run), as: UTF8.self)
        #expect(
            errorField(
                Sample.self,
                workout.replacingOccurrences(of: "\"workoutActivityType\":37", with: "\"workoutActivityType\":999")
            )
                == "workoutActivityType"
        )
        #expect(
            errorField(
                SamplePredicate.self,
                #"{"kind":"and","predicates":[{"kind":"quantity","operator":"equalTo","quantity":{"value":1,"unit":"xx"}}]}"#
            ) == "predicates[0].quantity.unit"
        )
        #expect(
            errorField(SamplePredicate.self, #"{"kind":"not","predicate":{"kind":"maybe"}}"#) == "predicate.kind"
        )
        #expect(
            errorField(
                QuantitySample.self,
                String(
                    decoding: try HealthJSON.encode(
                        try Fixtures.quantity(metadata: [.lapLength: .quantity(Quantity(25, .meter))])
                    ),
                    as: UTF8.self
                )
                .replacingOccurrences(of: "\"unit\":\"m\"", with: "\"unit\":\"mx\"")
            ) == "metadata.HKLapLength.unit"
        )
    }

    @Test func hostileNestingIsRefusedWhileDecoding() throws {
        var predicate = #"{"kind":"uuids","uuids":[]}"#
        for _ in 0..<100 { predicate = #"{"kind":"not","predicate":"# + predicate + "}" }
        #expect(errorField(SamplePredicate.self, predicate)?.hasPrefix("predicate.predicate") == true)
        // Deeper than any request may nest: refused before a parser sees it.
        for _ in 0..<100 { predicate = #"{"kind":"not","predicate":"# + predicate + "}" }
        #expect(throws: JSONNesting.tooDeep()) {
            try HealthJSON.decode(SamplePredicate.self, from: Data(predicate.utf8))
        }
        let inner = String(
            decoding: try HealthJSON.encode(Sample.correlation(try Fixtures.bloodPressure())),
            as: UTF8.self
        )
        let outer = inner.replacingOccurrences(
            of: #""objects":["#,
            with: #""objects":["# + inner + ","
        )
        #expect(errorField(Sample.self, outer) == "objects[0].type")
    }
}

/// The nesting scan that keeps Foundation's scanner from trapping on deep input.
@Suite struct JSONNestingTests {
    @Test func nestingIsCountedOutsideStringsOnly() {
        #expect(JSONNesting.isWithin(Data("[[[]]]".utf8), limit: 3))
        #expect(!JSONNesting.isWithin(Data("[[[[]]]]".utf8), limit: 3))
        #expect(!JSONNesting.isWithin(Data(#"{"a":{"b":{"c":{}}}}"#.utf8), limit: 3))
        // Brackets in strings, escaped quotes included, are not nesting.
        #expect(JSONNesting.isWithin(Data(#"["[[[[\"[[[[", "{{{{"]"#.utf8), limit: 1))
        #expect(!JSONNesting.isWithin(Data(#"["\\", [[]]]"#.utf8), limit: 2))
    }

    @Test func decodingRefusesTextNestedPastTheLimitWithAnError() {
        let deep = Data(String(repeating: "[", count: 513).utf8)
        #expect(throws: JSONNesting.tooDeep()) { try HealthJSON.decode([Int].self, from: deep) }
        let justPast = Data(
            (String(repeating: "[", count: JSONNesting.maximumDepth + 1)
                + String(repeating: "]", count: JSONNesting.maximumDepth + 1)).utf8
        )
        #expect(throws: HealthError.self) { try HealthJSON.decode([Int].self, from: justPast) }
    }
}
