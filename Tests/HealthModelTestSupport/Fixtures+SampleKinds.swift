public import Foundation
public import HealthModel

/// One valid sample of each kind of issue 19, for tests that need one without a seeded generator.
extension Fixtures {
    public static let microvolt = try! HealthUnit(from: "mcV")

    public static func stateOfMind(uuid: UUID = UUID(), valence: Double = 0.25) throws(HealthError) -> StateOfMind {
        try StateOfMind(
            uuid: uuid,
            date: start,
            kind: .dailyMood,
            valence: valence,
            labels: [.content, .grateful],
            associations: [.family, .fitness],
            sourceRevision: app
        )
    }

    public static func gad7(uuid: UUID = UUID()) throws(HealthError) -> GAD7Assessment {
        try GAD7Assessment(
            uuid: uuid,
            date: start,
            answers: [
                .notAtAll, .severalDays, .severalDays, .moreThanHalfTheDays, .notAtAll, .nearlyEveryDay, .notAtAll,
            ],
            sourceRevision: app
        )
    }

    public static func phq9(uuid: UUID = UUID()) throws(HealthError) -> PHQ9Assessment {
        try PHQ9Assessment(
            uuid: uuid,
            date: start,
            answers: [
                .severalDays, .severalDays, .notAtAll, .nearlyEveryDay, .notAtAll, .notAtAll, .severalDays,
                .notAtAll, .preferNotToAnswer,
            ],
            sourceRevision: app
        )
    }

    /// An electrocardiogram of `count` measurements at 512 Hz (a 30-second one has 15,360), in µV.
    public static func electrocardiogram(
        uuid: UUID = UUID(),
        count: Int = 15_360
    ) throws(HealthError)
        -> Electrocardiogram
    {
        try Electrocardiogram(
            uuid: uuid,
            start: start,
            end: start.addingTimeInterval(Double(count) / 512),
            classification: .sinusRhythm,
            symptomsStatus: .none,
            averageHeartRate: Quantity(64, .countPerMinute),
            samplingFrequency: Quantity(512, .hertz),
            voltageMeasurements: (0..<count).map {
                .init(timeSinceSampleStart: Double($0) / 512, leadI: Quantity(Double($0 % 400) * 2.5 - 500, microvolt))
            },
            sourceRevision: app
        )
    }

    public static func audiogram(uuid: UUID = UUID()) throws(HealthError) -> AudiogramSample {
        try AudiogramSample(
            uuid: uuid,
            sensitivityPoints: [250.0, 500, 1000, 2000, 4000, 8000].map {
                .init(
                    frequency: Quantity($0, .hertz),
                    leftEarSensitivity: Quantity(($0 / 400).rounded(), .decibelHearingLevel),
                    rightEarSensitivity: Quantity(($0 / 300).rounded(), .decibelHearingLevel)
                )
            },
            start: start,
            end: start.addingTimeInterval(900),
            sourceRevision: app
        )
    }

    /// A heartbeat series of `count` beats 0.8 s apart, a gap before every hundredth.
    public static func heartbeatSeries(
        uuid: UUID = UUID(),
        count: Int = 1000
    ) throws(HealthError)
        -> HeartbeatSeriesSample
    {
        try HeartbeatSeriesSample(
            uuid: uuid,
            start: start,
            end: start.addingTimeInterval(Double(count - 1) * 0.8),
            heartbeats: heartbeats(count),
            sourceRevision: app
        )
    }

    public static func heartbeats(_ count: Int, from first: Int = 0) -> [HeartbeatSeriesSample.Heartbeat] {
        (first..<first + count).map { .init(timeSinceSeriesStart: Double($0) * 0.8, precededByGap: $0 % 100 == 99) }
    }

    /// One sample of each kind, in this order: state of mind, GAD-7, PHQ-9, electrocardiogram,
    /// audiogram, heartbeat series.
    public static func sampleKinds(electrocardiogramCount: Int = 15_360) throws(HealthError) -> [Sample] {
        [
            .stateOfMind(try stateOfMind()), .gad7Assessment(try gad7()), .phq9Assessment(try phq9()),
            .electrocardiogram(try electrocardiogram(count: electrocardiogramCount)), .audiogram(try audiogram()),
            .heartbeatSeries(try heartbeatSeries()),
        ]
    }

    /// The types of ``sampleKinds(electrocardiogramCount:)``, in its order.
    public static let sampleKindTypes: [SampleType] = [
        .stateOfMind, .scoredAssessment(.gad7), .scoredAssessment(.phq9), .electrocardiogram, .audiogram,
        .heartbeatSeries,
    ]
}
