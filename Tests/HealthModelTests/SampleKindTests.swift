import Foundation
import HealthModel
import HealthModelTestSupport
import PropertyBased
import Testing

/// States of mind, scored assessments, electrocardiograms, audiograms and heartbeat series: their
/// JSON forms (docs/MODEL_JSON.md), HealthKit's derived values, and every class of bad input
/// refused with its field.
struct SampleKindTests {
    static let uuid = UUID(uuidString: "3A9E5C12-7B4D-4F60-8E21-0C5D9A7B1F34")!
    static let date = RFC3339.date(from: "2026-03-03T21:00:00.000Z")!
    static let source = SourceRevision(source: Source(bundleIdentifier: "org.example.mood", name: "Mood"))

    func json(_ value: some Encodable) throws -> String {
        String(decoding: try HealthJSON.encode(value), as: UTF8.self)
    }

    /// The HealthError `json` decoded as a `Sample` throws.
    func refusal(_ json: String) -> HealthError? {
        healthError { _ = try HealthJSON.decode(Sample.self, from: Data(json.utf8)) }
    }

    /// `json` with `replacement` for `original`, which must occur in it.
    func edited(_ json: String, _ original: String, _ replacement: String) -> String {
        #expect(json.contains(original), "\(original) is not in \(json)")
        return json.replacingOccurrences(of: original, with: replacement)
    }

    static let common =
        #""sourceRevision":{"source":{"bundleIdentifier":"org.example.mood","name":"Mood"}},"#
        + #""startDate":"2026-03-03T21:00:00.000Z","#

    // MARK: State of mind

    @Test func stateOfMindHasItsDocumentedForm() throws {
        let state = try StateOfMind(
            uuid: Self.uuid,
            date: Self.date,
            kind: .dailyMood,
            valence: 0.4,
            labels: [.happy, .calm],
            associations: [.family],
            sourceRevision: Self.source
        )
        let text = try json(Sample.stateOfMind(state))
        #expect(
            text
                == #"{"associations":[5],"endDate":"2026-03-03T21:00:00.000Z","kind":2,"labels":[17,7],"#
                + Self.common
                + #""type":"HKDataTypeStateOfMind","uuid":"3A9E5C12-7B4D-4F60-8E21-0C5D9A7B1F34","#
                + #""valence":0.4,"valenceClassification":5}"#
        )
        #expect(try HealthJSON.decode(Sample.self, from: Data(text.utf8)) == .stateOfMind(state))
        #expect(state.sampleType.identifier == "HKDataTypeStateOfMind")
    }

    @Test func valenceIsClassifiedInSevenEqualBandsAsHealthKitDoes() {
        let bound = { (index: Int) in Double(index) * (2.0 / 7.0) - 1.0 }
        let expected: [(Double, StateOfMind.ValenceClassification)] = [
            (-1, .veryUnpleasant), (bound(1).nextDown, .veryUnpleasant), (bound(1), .unpleasant),
            (bound(2).nextDown, .unpleasant), (bound(2), .slightlyUnpleasant), (bound(3).nextDown, .slightlyUnpleasant),
            (bound(3), .neutral), (0, .neutral), (bound(4), .neutral), (bound(4).nextUp, .slightlyPleasant),
            (bound(5), .slightlyPleasant), (bound(5).nextUp, .pleasant), (bound(6), .pleasant),
            (bound(6).nextUp, .veryPleasant), (1, .veryPleasant),
        ]
        for (valence, classification) in expected {
            #expect(StateOfMind.ValenceClassification(valence: valence) == classification, "\(valence)")
        }
        for outside in [(-1.0).nextDown, 1.0.nextUp, .nan, .infinity] {
            #expect(StateOfMind.ValenceClassification(valence: outside) == nil)
        }
        #expect(StateOfMind.ValenceClassification.allCases.map(\.rawValue) == Array(1...7))
    }

    @Test func badStatesOfMindAreRefusedNamingTheField() throws {
        let state = try StateOfMind(
            uuid: Self.uuid,
            date: Self.date,
            kind: .momentaryEmotion,
            valence: -0.5,
            labels: [.sad],
            associations: [.work, .weather],
            sourceRevision: Self.source
        )
        let text = try json(Sample.stateOfMind(state))
        let cases: [(String, String)] = [
            (edited(text, #""valence":-0.5"#, #""valence":1.5"#), "valence"),
            (edited(text, #""kind":1"#, #""kind":3"#), "kind"),
            (edited(text, #""labels":[27]"#, #""labels":[27,27]"#), "labels[1]"),
            (edited(text, #""labels":[27]"#, #""labels":[39]"#), "labels[0]"),
            (edited(text, #""associations":[17,18]"#, #""associations":[17,0]"#), "associations[1]"),
            (edited(text, #""valenceClassification":2"#, #""valenceClassification":6"#), "valenceClassification"),
            (
                edited(text, #""endDate":"2026-03-03T21:00:00.000Z""#, #""endDate":"2026-03-03T21:00:01.000Z""#),
                "endDate"
            ),
            (edited(text, #""valence":-0.5,"#, ""), "valence"),
        ]
        for (json, field) in cases {
            let error = refusal(json)
            #expect(error?.code == .invalidArgument, "\(json)")
            #expect(error?.field == field, "\(String(describing: error))")
        }
        // Absent lists and classification are read as empty and derived.
        let minimal = edited(edited(text, #""associations":[17,18],"#, ""), #","valenceClassification":2"#, "")
        if case .stateOfMind(let read) = try HealthJSON.decode(Sample.self, from: Data(minimal.utf8)) {
            #expect(read.associations.isEmpty)
            #expect(read.valenceClassification == .unpleasant)
        } else {
            Issue.record("not a state of mind")
        }
        #expect(
            healthError {
                _ = try StateOfMind(date: Self.date, kind: .dailyMood, valence: .nan, sourceRevision: Self.source)
            }?.field == "valence"
        )
    }

    // MARK: Scored assessments

    @Test func assessmentsHaveTheirDocumentedForms() throws {
        let gad7 = try GAD7Assessment(
            uuid: Self.uuid,
            date: Self.date,
            answers: [
                .severalDays, .notAtAll, .moreThanHalfTheDays, .nearlyEveryDay, .notAtAll, .severalDays, .notAtAll,
            ],
            sourceRevision: Self.source
        )
        let text = try json(Sample.gad7Assessment(gad7))
        #expect(
            text
                == #"{"answers":[1,0,2,3,0,1,0],"endDate":"2026-03-03T21:00:00.000Z","risk":2,"score":7,"#
                + Self.common
                + #""type":"HKScoredAssessmentTypeIdentifierGAD7","uuid":"3A9E5C12-7B4D-4F60-8E21-0C5D9A7B1F34"}"#
        )
        #expect(try HealthJSON.decode(Sample.self, from: Data(text.utf8)) == .gad7Assessment(gad7))
        let phq9 = try PHQ9Assessment(
            uuid: Self.uuid,
            date: Self.date,
            answers: [
                .nearlyEveryDay, .nearlyEveryDay, .nearlyEveryDay, .nearlyEveryDay, .nearlyEveryDay, .severalDays,
                .notAtAll, .notAtAll, .preferNotToAnswer,
            ],
            sourceRevision: Self.source
        )
        #expect(
            try json(Sample.phq9Assessment(phq9))
                == #"{"answers":[3,3,3,3,3,1,0,0,4],"endDate":"2026-03-03T21:00:00.000Z","risk":4,"score":16,"#
                + Self.common
                + #""type":"HKScoredAssessmentTypeIdentifierPHQ9","uuid":"3A9E5C12-7B4D-4F60-8E21-0C5D9A7B1F34"}"#
        )
    }

    @Test func scoresAndRisksFollowHealthKitsBands() throws {
        func gad7(_ total: Int) throws -> GAD7Assessment {
            // `total` spread over the seven answers, 3 at most each.
            let answers = (0..<7).map { min(3, max(0, total - 3 * $0)) }
            return try GAD7Assessment(
                date: Self.date,
                answers: answers.map { GAD7Assessment.Answer(rawValue: $0)! },
                sourceRevision: Self.source
            )
        }
        let gadBands: [(ClosedRange<Int>, GAD7Assessment.Risk)] = [
            (0...4, .noneToMinimal), (5...9, .mild), (10...14, .moderate), (15...21, .severe),
        ]
        for (scores, risk) in gadBands {
            for score in scores {
                let assessment = try gad7(score)
                #expect(assessment.score == score)
                #expect(assessment.risk == risk, "GAD-7 \(score)")
            }
        }
        func phq9(_ total: Int, ninth: PHQ9Assessment.Answer = .notAtAll) throws -> PHQ9Assessment {
            let answers = (0..<8).map { min(3, max(0, total - 3 * $0)) }
            return try PHQ9Assessment(
                date: Self.date,
                answers: answers.map { PHQ9Assessment.Answer(rawValue: $0)! } + [ninth],
                sourceRevision: Self.source
            )
        }
        let phqBands: [(ClosedRange<Int>, PHQ9Assessment.Risk)] = [
            (0...4, .noneToMinimal), (5...9, .mild), (10...14, .moderate), (15...19, .moderatelySevere),
            (20...24, .severe),
        ]
        for (scores, risk) in phqBands {
            for score in scores {
                let assessment = try phq9(score, ninth: .preferNotToAnswer)
                #expect(assessment.score == score, "the ninth answer declined counts 0")
                #expect(assessment.risk == risk, "PHQ-9 \(score)")
            }
        }
        #expect(try phq9(24, ninth: .nearlyEveryDay).score == 27)
        #expect(try phq9(24, ninth: .nearlyEveryDay).risk == .severe)
    }

    @Test func badAssessmentsAreRefusedNamingTheField() throws {
        let gad7 = try json(
            Sample.gad7Assessment(
                try GAD7Assessment(
                    uuid: Self.uuid,
                    date: Self.date,
                    answers: Array(repeating: .severalDays, count: 7),
                    sourceRevision: Self.source
                )
            )
        )
        let phq9 = try json(
            Sample.phq9Assessment(
                try PHQ9Assessment(
                    uuid: Self.uuid,
                    date: Self.date,
                    answers: Array(repeating: .severalDays, count: 9),
                    sourceRevision: Self.source
                )
            )
        )
        let cases: [(String, String)] = [
            (edited(gad7, "[1,1,1,1,1,1,1]", "[1,1,1,1,1,1]"), "answers"),
            (edited(gad7, "[1,1,1,1,1,1,1]", "[1,1,1,1,1,1,1,1]"), "answers"),
            (edited(gad7, "[1,1,1,1,1,1,1]", "[1,1,4,1,1,1,1]"), "answers[2]"),
            (edited(gad7, "[1,1,1,1,1,1,1]", "[1,1,1,1,1,1,-1]"), "answers[6]"),
            (edited(gad7, #""score":7"#, #""score":8"#), "score"),
            (edited(gad7, #""risk":2"#, #""risk":1"#), "risk"),
            (
                edited(gad7, #""endDate":"2026-03-03T21:00:00.000Z""#, #""endDate":"2026-03-04T21:00:00.000Z""#),
                "endDate"
            ),
            (edited(phq9, "[1,1,1,1,1,1,1,1,1]", "[4,1,1,1,1,1,1,1,1]"), "answers[0]"),
            (edited(phq9, "[1,1,1,1,1,1,1,1,1]", "[1,1,1,1,1,1,1,1,5]"), "answers[8]"),
            (edited(phq9, "[1,1,1,1,1,1,1,1,1]", "[1,1,1,1,1,1,1,1]"), "answers"),
            (edited(phq9, #""score":9"#, #""score":10"#), "score"),
        ]
        for (json, field) in cases {
            let error = refusal(json)
            #expect(error?.code == .invalidArgument, "\(json)")
            #expect(error?.field == field, "\(String(describing: error))")
        }
        // Score and risk are derived: absent, they are computed.
        let bare = edited(edited(phq9, #""risk":2,"#, ""), #""score":9,"#, "")
        if case .phq9Assessment(let read) = try HealthJSON.decode(Sample.self, from: Data(bare.utf8)) {
            #expect(read.score == 9 && read.risk == .mild)
        } else {
            Issue.record("not a PHQ-9 assessment")
        }
        let declined = healthError {
            _ = try PHQ9Assessment(
                date: Self.date,
                answers: [.preferNotToAnswer] + Array(repeating: .notAtAll, count: 8),
                sourceRevision: Self.source
            )
        }
        #expect(declined?.field == "answers[0]")
    }

    // MARK: Electrocardiograms

    static func ecg(_ measurements: [Electrocardiogram.VoltageMeasurement]? = nil) throws -> Electrocardiogram {
        try Electrocardiogram(
            uuid: uuid,
            start: date,
            end: date.addingTimeInterval(30),
            classification: .sinusRhythm,
            symptomsStatus: .none,
            averageHeartRate: Quantity(62, .countPerMinute),
            samplingFrequency: Quantity(512, .hertz),
            voltageMeasurements: measurements
                ?? [0, 1, 2].map {
                    Electrocardiogram.VoltageMeasurement(
                        timeSinceSampleStart: Double($0) / 512,
                        leadI: Quantity([-42.5, 118, 1203.25][$0], try! HealthUnit(from: "mcV"))
                    )
                },
            sourceRevision: source
        )
    }

    @Test func electrocardiogramHasItsDocumentedForm() throws {
        let ecg = try Self.ecg()
        let text = try json(Sample.electrocardiogram(ecg))
        #expect(
            text
                == #"{"averageHeartRate":{"unit":"count/min","value":62},"classification":1,"#
                + #""endDate":"2026-03-03T21:00:30.000Z","numberOfVoltageMeasurements":3,"#
                + #""samplingFrequency":{"unit":"Hz","value":512},"#
                + Self.common
                + #""symptomsStatus":1,"type":"HKDataTypeIdentifierElectrocardiogram","#
                + #""uuid":"3A9E5C12-7B4D-4F60-8E21-0C5D9A7B1F34","#
                + #""voltageMeasurements":[{"leadI":{"unit":"mcV","value":-42.5},"timeSinceSampleStart":0},"#
                + #"{"leadI":{"unit":"mcV","value":118},"timeSinceSampleStart":0.001953125},"#
                + #"{"leadI":{"unit":"mcV","value":1203.25},"timeSinceSampleStart":0.00390625}]}"#
        )
        #expect(try HealthJSON.decode(Sample.self, from: Data(text.utf8)) == .electrocardiogram(ecg))
        // As a query answers it: the count, without the measurements.
        let answered = try json(Sample.electrocardiogram(ecg).withoutSeriesData)
        #expect(!answered.contains("voltageMeasurements\":"))
        #expect(
            try HealthJSON.decode(Sample.self, from: Data(answered.utf8)) == .electrocardiogram(ecg).withoutSeriesData
        )
        #expect(
            ecg.voltageMeasurements?[1].quantity(for: .appleWatchSimilarToLeadI)
                == Quantity(118, try HealthUnit(from: "mcV"))
        )
    }

    @Test func badElectrocardiogramsAreRefusedNamingTheField() throws {
        let text = try json(Sample.electrocardiogram(try Self.ecg()))
        let cases: [(String, String)] = [
            (
                edited(text, #""timeSinceSampleStart":0.001953125"#, #""timeSinceSampleStart":0"#),
                "voltageMeasurements[1].timeSinceSampleStart"
            ),
            (
                edited(text, #""timeSinceSampleStart":0.00390625"#, #""timeSinceSampleStart":31"#),
                "voltageMeasurements[2].timeSinceSampleStart"
            ),
            (
                edited(text, #""timeSinceSampleStart":0}"#, #""timeSinceSampleStart":-1}"#),
                "voltageMeasurements[0].timeSinceSampleStart"
            ),
            (
                edited(text, #"{"unit":"mcV","value":118}"#, #"{"unit":"mV","value":0.118}"#),
                "voltageMeasurements[1].leadI.unit"
            ),
            (
                edited(text, #"{"unit":"mcV","value":118}"#, #"{"unit":"mcV","value":2000000}"#),
                "voltageMeasurements[1].leadI.value"
            ),
            (text.replacingOccurrences(of: "mcV", with: "Pa"), "voltageMeasurements[0].leadI.unit"),
            (
                edited(text, #""numberOfVoltageMeasurements":3"#, #""numberOfVoltageMeasurements":4"#),
                "numberOfVoltageMeasurements"
            ),
            (edited(text, #""classification":1"#, #""classification":7"#), "classification"),
            (edited(text, #""symptomsStatus":1"#, #""symptomsStatus":3"#), "symptomsStatus"),
            (edited(text, #"{"unit":"count/min","value":62}"#, #"{"unit":"kg","value":62}"#), "averageHeartRate.unit"),
            (
                edited(text, #"{"unit":"count/min","value":62}"#, #"{"unit":"count/min","value":-1}"#),
                "averageHeartRate.value"
            ),
            (edited(text, #"{"unit":"Hz","value":512}"#, #"{"unit":"Hz","value":0}"#), "samplingFrequency.value"),
            (edited(text, #""voltageMeasurements":["#, #""voltageMeasurements":[],"x":["#), "voltageMeasurements"),
        ]
        for (json, field) in cases {
            let error = refusal(json)
            #expect(error?.code == .invalidArgument, "\(json)")
            #expect(error?.field == field, "\(String(describing: error))")
        }
        // Without measurements, the number is needed.
        let bare = try json(Sample.electrocardiogram(try Self.ecg()).withoutSeriesData)
        #expect(refusal(edited(bare, #""numberOfVoltageMeasurements":3,"#, ""))?.field == "voltageMeasurements")
        let tooMany = healthError {
            _ = try Self.ecg(
                (0...Electrocardiogram.maximumVoltageMeasurements).map {
                    .init(timeSinceSampleStart: Double($0) / 10_000, leadI: Quantity(0, .volt))
                }
            )
        }
        #expect(tooMany?.field == "voltageMeasurements")
    }

    // MARK: Audiograms

    static func audiogram(_ points: [AudiogramSample.SensitivityPoint]? = nil) throws -> AudiogramSample {
        try AudiogramSample(
            uuid: uuid,
            sensitivityPoints: points
                ?? [
                    .init(
                        frequency: Quantity(1000, .hertz),
                        leftEarSensitivity: Quantity(20, .decibelHearingLevel),
                        rightEarSensitivity: Quantity(25, .decibelHearingLevel)
                    ),
                    .init(
                        frequency: Quantity(4, try! HealthUnit(from: "kHz")),
                        leftEarSensitivity: nil,
                        rightEarSensitivity: Quantity(40, .decibelHearingLevel)
                    ),
                ],
            start: date,
            end: date.addingTimeInterval(600),
            sourceRevision: source
        )
    }

    @Test func audiogramHasItsDocumentedForm() throws {
        let audiogram = try Self.audiogram()
        let text = try json(Sample.audiogram(audiogram))
        #expect(
            text
                == #"{"endDate":"2026-03-03T21:10:00.000Z","sensitivityPoints":["#
                + #"{"frequency":{"unit":"Hz","value":1000},"leftEarSensitivity":{"unit":"dBHL","value":20},"#
                + #""rightEarSensitivity":{"unit":"dBHL","value":25}},"#
                + #"{"frequency":{"unit":"kHz","value":4},"rightEarSensitivity":{"unit":"dBHL","value":40}}],"#
                + Self.common
                + #""type":"HKDataTypeIdentifierAudiogram","uuid":"3A9E5C12-7B4D-4F60-8E21-0C5D9A7B1F34"}"#
        )
        #expect(try HealthJSON.decode(Sample.self, from: Data(text.utf8)) == .audiogram(audiogram))
    }

    @Test func badAudiogramsAreRefusedNamingTheField() throws {
        let text = try json(Sample.audiogram(try Self.audiogram()))
        let cases: [(String, String)] = [
            (
                edited(text, #"{"unit":"kHz","value":4}"#, #"{"unit":"kHz","value":0.5}"#),
                "sensitivityPoints[1].frequency"
            ),
            (
                edited(text, #"{"unit":"kHz","value":4}"#, #"{"unit":"kHz","value":1}"#),
                "sensitivityPoints[1].frequency"
            ),
            (
                edited(text, #"{"unit":"kHz","value":4}"#, #"{"unit":"kHz","value":31}"#),
                "sensitivityPoints[1].frequency.value"
            ),
            (
                edited(text, #"{"unit":"dBHL","value":20}"#, #"{"unit":"dBHL","value":161}"#),
                "sensitivityPoints[0].leftEarSensitivity.value"
            ),
            (
                edited(text, #"{"unit":"dBHL","value":25}"#, #"{"unit":"dBASPL","value":25}"#),
                "sensitivityPoints[0].rightEarSensitivity.unit"
            ),
            (
                edited(text, #","rightEarSensitivity":{"unit":"dBHL","value":40}"#, ""),
                "sensitivityPoints[1].leftEarSensitivity"
            ),
            (
                edited(text, #"{"unit":"Hz","value":1000}"#, #"{"unit":"s","value":1000}"#),
                "sensitivityPoints[0].frequency.unit"
            ),
        ]
        for (json, field) in cases {
            let error = refusal(json)
            #expect(error?.code == .invalidArgument, "\(json)")
            #expect(error?.field == field, "\(String(describing: error))")
        }
        #expect(healthError { _ = try Self.audiogram([]) }?.field == "sensitivityPoints")
        let thirtyOne = (1...31).map {
            AudiogramSample.SensitivityPoint(
                frequency: Quantity(Double($0 * 100), .hertz),
                leftEarSensitivity: Quantity(0, .decibelHearingLevel),
                rightEarSensitivity: nil
            )
        }
        #expect(healthError { _ = try Self.audiogram(thirtyOne) }?.field == "sensitivityPoints")
        #expect(try Self.audiogram(Array(thirtyOne.prefix(30))).sensitivityPoints.count == 30)
    }

    // MARK: Heartbeat series

    static func series(_ beats: [HeartbeatSeriesSample.Heartbeat]? = nil) throws -> HeartbeatSeriesSample {
        try HeartbeatSeriesSample(
            uuid: uuid,
            start: date,
            end: date.addingTimeInterval(2.5),
            heartbeats: beats
                ?? [
                    .init(timeSinceSeriesStart: 0), .init(timeSinceSeriesStart: 0.8125),
                    .init(timeSinceSeriesStart: 2.5, precededByGap: true),
                ],
            sourceRevision: source
        )
    }

    @Test func heartbeatSeriesHasItsDocumentedForm() throws {
        let series = try Self.series()
        let text = try json(Sample.heartbeatSeries(series))
        #expect(
            text
                == #"{"count":3,"endDate":"2026-03-03T21:00:02.500Z","heartbeats":["#
                + #"{"precededByGap":false,"timeSinceSeriesStart":0},"#
                + #"{"precededByGap":false,"timeSinceSeriesStart":0.8125},"#
                + #"{"precededByGap":true,"timeSinceSeriesStart":2.5}],"#
                + Self.common
                + #""type":"HKDataTypeIdentifierHeartbeatSeries","uuid":"3A9E5C12-7B4D-4F60-8E21-0C5D9A7B1F34"}"#
        )
        #expect(try HealthJSON.decode(Sample.self, from: Data(text.utf8)) == .heartbeatSeries(series))
    }

    @Test func badHeartbeatSeriesAreRefusedNamingTheField() throws {
        let text = try json(Sample.heartbeatSeries(try Self.series()))
        let cases: [(String, String)] = [
            (
                edited(text, #""timeSinceSeriesStart":0.8125"#, #""timeSinceSeriesStart":0"#),
                "heartbeats[1].timeSinceSeriesStart"
            ),
            (
                edited(text, #""timeSinceSeriesStart":2.5"#, #""timeSinceSeriesStart":3"#),
                "heartbeats[2].timeSinceSeriesStart"
            ),
            (
                edited(text, #""timeSinceSeriesStart":0}"#, #""timeSinceSeriesStart":-0.5}"#),
                "heartbeats[0].timeSinceSeriesStart"
            ),
            (edited(text, #""count":3"#, #""count":2"#), "count"),
            (edited(text, #""precededByGap":true"#, #""precededByGap":"yes""#), "heartbeats[2].precededByGap"),
        ]
        for (json, field) in cases {
            let error = refusal(json)
            #expect(error?.code == .invalidArgument, "\(json)")
            #expect(error?.field == field, "\(String(describing: error))")
        }
        #expect(healthError { _ = try Self.series([]) }?.field == "heartbeats")
        let tooMany = (0...HeartbeatSeriesSample.maximumCount).map {
            HeartbeatSeriesSample.Heartbeat(timeSinceSeriesStart: Double($0) / 1000)
        }
        #expect(healthError { _ = try Self.series(tooMany) }?.field == "heartbeats")
    }

    // MARK: Types and round trips

    @Test func theNewTypesReadAndPrintAsHealthKitsIdentifiers() throws {
        let identifiers: [(String, ObjectType)] = [
            ("HKDataTypeStateOfMind", .stateOfMind),
            ("HKScoredAssessmentTypeIdentifierGAD7", .scoredAssessment(.gad7)),
            ("HKScoredAssessmentTypeIdentifierPHQ9", .scoredAssessment(.phq9)),
            ("HKDataTypeIdentifierElectrocardiogram", .electrocardiogram),
            ("HKDataTypeIdentifierAudiogram", .audiogram),
            ("HKDataTypeIdentifierHeartbeatSeries", .heartbeatSeries),
        ]
        for (identifier, type) in identifiers {
            #expect(try ObjectType(identifier: identifier) == type)
            #expect(type.identifier == identifier)
            let sampleType = try #require(type.sampleType)
            #expect(try SampleType(identifier: identifier) == sampleType)
            #expect(SampleType.allTypes.contains(sampleType))
            #expect(ObjectType.allTypes.contains(type))
        }
        // A constant's name that is not its value (HealthKit's two): refused, with the value to send.
        for (name, value) in [
            ("HKDataTypeIdentifierStateOfMind", "HKDataTypeStateOfMind"),
            ("HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent", "HKCategoryTypeIdentifierAudioExposureEvent"),
        ] {
            let error = healthError { _ = try ObjectType(identifier: name) }
            #expect(error?.message.contains("\"\(value)\"") == true, "\(name)")
            let sampleError = healthError { _ = try SampleType(identifier: name) }
            #expect(sampleError?.message.contains("\"\(value)\"") == true, "\(name)")
        }
    }

    @Test func theNewKindsRoundTripThroughJSON() async {
        await propertyCheck(count: 300, input: Generator(run: { rng in RandomModel.sampleOfAnotherKind(&rng) })) {
            sample throws in
            #expect(try HealthJSON.decode(Sample.self, from: try HealthJSON.encode(sample)) == sample)
            let answered = sample.withoutSeriesData
            #expect(try HealthJSON.decode(Sample.self, from: try HealthJSON.encode(answered)) == answered)
        }
    }
}

extension SampleKindTests {
    /// Every example of the new kinds in docs/MODEL_JSON.md is what the vault writes for it, byte
    /// for byte once the document's line breaks are taken out.
    @Test func theDocumentedExamplesAreTheVaultsOwnForms() throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/MODEL_JSON.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let blocks = text.components(separatedBy: "```json\n").dropFirst()
            .map { $0.components(separatedBy: "\n```").first! }
            .filter { $0.contains(#""type":"HKDataType"#) || $0.contains(#""type":"HKScoredAssessment"#) }
        #expect(blocks.count == 5)
        for block in blocks {
            let compact = block.replacingOccurrences(of: "\n *", with: "", options: .regularExpression)
            let sample = try HealthJSON.decode(Sample.self, from: Data(compact.utf8))
            #expect(try json(sample) == compact)
        }
    }
}

extension SampleKindTests {
    /// A refusal names the field, the unit and the range, never the value refused.
    @Test func errorMessagesOfTheNewKindsCarryNoMeasuredValues() {
        let errors = [
            healthError {
                _ = try StateOfMind(date: Self.date, kind: .dailyMood, valence: 4.56789, sourceRevision: Self.source)
            },
            healthError {
                _ = try Self.ecg([
                    .init(timeSinceSampleStart: 0, leadI: Quantity(7_654_321, Fixtures.microvolt))
                ])
            },
            healthError {
                _ = try Self.ecg([
                    .init(timeSinceSampleStart: 98.7654, leadI: Quantity(1, Fixtures.microvolt))
                ])
            },
            healthError {
                _ = try Self.audiogram([
                    .init(
                        frequency: Quantity(45_678, .hertz),
                        leftEarSensitivity: Quantity(1, .decibelHearingLevel),
                        rightEarSensitivity: nil
                    )
                ])
            },
            healthError {
                _ = try Self.audiogram([
                    .init(
                        frequency: Quantity(1000, .hertz),
                        leftEarSensitivity: Quantity(234.5, .decibelHearingLevel),
                        rightEarSensitivity: nil
                    )
                ])
            },
            healthError { _ = try Self.series([.init(timeSinceSeriesStart: 76.54)]) },
            refusal(
                try! json(
                    Sample.gad7Assessment(
                        try! GAD7Assessment(
                            date: Self.date,
                            answers: Array(repeating: .notAtAll, count: 7),
                            sourceRevision: Self.source
                        )
                    )
                )
                .replacingOccurrences(of: "[0,0,0,0,0,0,0]", with: "[0,0,0,0,0,0,7777]")
            ),
        ]
        for error in errors {
            let message = error?.message ?? ""
            #expect(!message.isEmpty)
            for value in ["4.56789", "7654321", "98.7654", "45678", "234.5", "76.54", "7777"] {
                #expect(!message.contains(value), "\(message)")
            }
        }
    }

    /// A sample is as large as the largest kind it holds inline, and samples move whole (into
    /// arrays, answers, the import's batches): what most of a sample's bytes were (its source
    /// revision, its device, a discrete summary) is one reference each, shared by the samples that
    /// name the same one, and no rare kind may make every sample pay for its size: the vision
    /// prescription and the CDA document are boxed. A sample was 569 bytes (576 in an array, its
    /// stride) before the vision prescription was boxed, then 353 (a stride of 360), and a quantity
    /// sample 352; now 129 (a stride of 136).
    @Test func samplesMoveAsAFewWords() {
        let reference = MemoryLayout<AnyObject>.size
        #expect(MemoryLayout<SourceRevision>.size == reference)
        #expect(MemoryLayout<Device?>.size == reference)
        #expect(MemoryLayout<QuantitySample>.size <= 104)
        #expect(MemoryLayout<Sample>.size <= MemoryLayout<Workout>.size + 1)
        #expect(MemoryLayout<Sample>.size <= 136)
        #expect(MemoryLayout<Sample>.stride <= 136)
    }
}
