public import Foundation
public import HealthModel

/// Random states of mind, scored assessments, electrocardiograms, audiograms and heartbeat series.
extension RandomModel {
    public static func stateOfMind(_ rng: inout RNG) -> StateOfMind {
        // Now and then exactly on a band's bound, where the classification changes.
        let valence =
            Int.random(in: 0...4, using: &rng) == 0
            ? Double(Int.random(in: 0...7, using: &rng)) * (2.0 / 7.0) - 1.0
            : Double.random(in: -1...1, using: &rng)
        return try! StateOfMind(
            uuid: UUID(using: &rng),
            date: date(&rng),
            kind: StateOfMind.Kind.allCases.randomElement(using: &rng)!,
            valence: min(max(valence, -1), 1),
            labels: Array(StateOfMind.Label.allCases.shuffled(using: &rng).prefix(Int.random(in: 0...4, using: &rng))),
            associations: Array(
                StateOfMind.Association.allCases.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng))
            ),
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    public static func gad7(_ rng: inout RNG) -> GAD7Assessment {
        try! GAD7Assessment(
            uuid: UUID(using: &rng),
            date: date(&rng),
            answers: (0..<7).map { _ in GAD7Assessment.Answer.allCases.randomElement(using: &rng)! },
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    public static func phq9(_ rng: inout RNG) -> PHQ9Assessment {
        let answers = (0..<8).map { _ in
            PHQ9Assessment.Answer.allCases.filter { $0 != .preferNotToAnswer }.randomElement(using: &rng)!
        }
        return try! PHQ9Assessment(
            uuid: UUID(using: &rng),
            date: date(&rng),
            answers: answers + [PHQ9Assessment.Answer.allCases.randomElement(using: &rng)!],
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    /// An electrocardiogram of `count` measurements (1 to 64 when nil) at 512 Hz.
    public static func electrocardiogram(_ rng: inout RNG, count: Int? = nil) -> Electrocardiogram {
        let start = date(&rng)
        let count = count ?? Int.random(in: 1...64, using: &rng)
        let unit = [HealthUnit.volt, try! HealthUnit(from: "mV"), try! HealthUnit(from: "mcV")]
            .randomElement(using: &rng)!
        let scale = try! Quantity(1, .volt).doubleValue(for: unit)
        let measurements = (0..<count).map { index in
            Electrocardiogram.VoltageMeasurement(
                timeSinceSampleStart: Double(index) / 512,
                leadI: Quantity(Double.random(in: -0.002...0.002, using: &rng) * scale, unit)
            )
        }
        return try! Electrocardiogram(
            uuid: UUID(using: &rng),
            start: start,
            end: start.addingTimeInterval(Double(count) / 512),
            classification: Electrocardiogram.Classification.allCases.randomElement(using: &rng)!,
            symptomsStatus: Electrocardiogram.SymptomsStatus.allCases.randomElement(using: &rng)!,
            averageHeartRate: Bool.random(using: &rng)
                ? Quantity(Double.random(in: 40...180, using: &rng), .countPerMinute) : nil,
            samplingFrequency: Bool.random(using: &rng) ? Quantity(512, .hertz) : nil,
            voltageMeasurements: measurements,
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    public static func audiogram(_ rng: inout RNG) -> AudiogramSample {
        let start = date(&rng)
        let frequencies = [125.0, 250, 500, 1000, 2000, 3000, 4000, 6000, 8000, 16_000]
            .filter { _ in Bool.random(using: &rng) }
        let points = (frequencies.isEmpty ? [1000] : frequencies).map { frequency in
            let ears = Int.random(in: 0...2, using: &rng)
            func level() -> Quantity {
                Quantity(Double.random(in: -20...160, using: &rng).rounded(), .decibelHearingLevel)
            }
            return AudiogramSample.SensitivityPoint(
                frequency: Bool.random(using: &rng)
                    ? Quantity(frequency, .hertz) : Quantity(frequency / 1000, try! HealthUnit(from: "kHz")),
                leftEarSensitivity: ears != 1 ? level() : nil,
                rightEarSensitivity: ears != 0 ? level() : nil
            )
        }
        return try! AudiogramSample(
            uuid: UUID(using: &rng),
            sensitivityPoints: points,
            start: start,
            end: start.addingTimeInterval(Double.random(in: 0...900, using: &rng)),
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    /// A heartbeat series of `count` beats (1 to 120 when nil).
    public static func heartbeatSeries(_ rng: inout RNG, count: Int? = nil) -> HeartbeatSeriesSample {
        let start = date(&rng)
        var time = 0.0
        let beats = (0..<(count ?? Int.random(in: 1...120, using: &rng))).map { index in
            if index > 0 { time += Double.random(in: 0.3...1.5, using: &rng) }
            return HeartbeatSeriesSample.Heartbeat(
                timeSinceSeriesStart: time,
                precededByGap: index > 0 && Int.random(in: 0...9, using: &rng) == 0
            )
        }
        return try! HeartbeatSeriesSample(
            uuid: UUID(using: &rng),
            start: start,
            end: start.addingTimeInterval(time),
            heartbeats: beats,
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    /// One of the kinds above.
    public static func sampleOfAnotherKind(_ rng: inout RNG) -> Sample {
        switch Int.random(in: 0...5, using: &rng) {
        case 0: .stateOfMind(stateOfMind(&rng))
        case 1: .gad7Assessment(gad7(&rng))
        case 2: .phq9Assessment(phq9(&rng))
        case 3: .electrocardiogram(electrocardiogram(&rng))
        case 4: .audiogram(audiogram(&rng))
        default: .heartbeatSeries(heartbeatSeries(&rng))
        }
    }
}
