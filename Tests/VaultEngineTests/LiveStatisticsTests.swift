import Foundation
import HealthModel
import Testing
import VaultEngine
import VaultStore

/// Live statistics are carried from one reading to the next (only the rows stored since are
/// read); whatever happens between readings, they stay those a statistics query over the
/// workout's samples gives at the same moment.
@Suite struct LiveStatisticsTests {
    static let watch = "org.example.watch"

    /// A small deterministic generator (SplitMix64), so that a failing seed can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func close(_ a: Quantity?, _ b: Quantity?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?):
            guard a.unit == b.unit else { return false }
            return abs(a.value - b.value) <= 1e-9 * max(1, abs(b.value))
        default: return false
        }
    }

    /// The carried statistics and the reference's, alike.
    static func alike(_ live: Statistics?, _ reference: Statistics?) -> Bool {
        guard let live, let reference else { return live == nil && reference == nil }
        return live.quantityType == reference.quantityType && live.startDate == reference.startDate
            && live.endDate == reference.endDate && live.sources == reference.sources
            && close(live.sumQuantity(), reference.sumQuantity())
            && close(live.averageQuantity(), reference.averageQuantity())
            && close(live.minimumQuantity(), reference.minimumQuantity())
            && close(live.maximumQuantity(), reference.maximumQuantity())
            && close(live.mostRecentQuantity(), reference.mostRecentQuantity())
            && live.mostRecentQuantityDateInterval() == reference.mostRecentQuantityDateInterval()
    }

    static func sample(
        _ type: QuantityTypeIdentifier,
        _ value: Double,
        _ unit: HealthUnit,
        from: Double,
        to: Double,
        by app: String,
        metadata: Metadata = [:]
    ) throws -> Sample {
        .quantity(
            try QuantitySample(
                type: type,
                quantity: Quantity(value, unit),
                start: WorkoutSessionTests.at(from),
                end: WorkoutSessionTests.at(to),
                sourceRevision: SourceRevision(source: Source(bundleIdentifier: app, name: app)),
                metadata: metadata
            )
        )
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func carriedStatisticsMatchAQueryOverTheWorkoutWhateverHappensBetween(seed: UInt64) async throws {
        var random = Generator(state: seed)
        let test = try await WorkoutSessionTests.vault()
        let engine = test.engine
        let runner = WorkoutSessionTests.runner
        let strap = WorkoutSessionTests.strap
        let app = Caller.app(runner)
        try await test.enroll(Self.watch)
        try await test.grant(.share, .quantity(.activeEnergyBurned), to: Self.watch)
        try await test.grant(.read, .quantity(.activeEnergyBurned), to: runner)
        // Stored before the session collects: given to the builder again later, it is associated
        // late (an older row), and the carry starts again.
        let early = try Self.sample(
            .activeEnergyBurned,
            4,
            .kilocalorie,
            from: 1,
            to: 2,
            by: runner,
            metadata: [.syncIdentifier: .string("early"), .syncVersion: .number(1)]
        )
        try await engine.save([early], as: app)

        let session = try await engine.startWorkoutSession(try WorkoutConfiguration(activityType: .running), as: app)
        try await engine.workoutSession(.startActivity, at: WorkoutSessionTests.at(0), follower: session, as: app)
        try await engine.beginWorkoutCollection(at: WorkoutSessionTests.at(0), follower: session, as: app)
        try await engine.setWorkoutCollectedTypes(
            [.quantity(.heartRate), .quantity(.activeEnergyBurned)],
            follower: session,
            as: app
        )
        let workout = session.session.builder.workoutUUID
        var saved: [String: [UUID]] = [:]
        var clock = 10.0
        var readsHeartRate = true

        for step in 0..<60 {
            clock += Double.random(in: 1...20, using: &random)
            let choice = Int.random(in: 0..<10, using: &random)
            switch choice {
            case 0...3:
                // The strap's heart rate, some with a duration.
                let length = Bool.random(using: &random) ? 0 : Double.random(in: 1...30, using: &random)
                let value = Double.random(in: 60...190, using: &random)
                let heartRate = try Self.sample(
                    .heartRate,
                    value,
                    WorkoutSessionTests.bpm,
                    from: clock,
                    to: clock + length,
                    by: strap
                )
                try await engine.save([heartRate], as: .app(strap))
                saved[strap, default: []].append(heartRate.uuid)
            case 4:
                // The watch's energy: a second source of a cumulative type, merged by time.
                let energy = try Self.sample(
                    .activeEnergyBurned,
                    Double.random(in: 1...20, using: &random),
                    .kilocalorie,
                    from: clock - 15,
                    to: clock,
                    by: Self.watch
                )
                try await engine.save([energy], as: .app(Self.watch))
                saved[Self.watch, default: []].append(energy.uuid)
            case 5:
                // The runner's own heart rate or energy, added to the builder.
                let own =
                    Bool.random(using: &random)
                    ? try Self.sample(
                        .heartRate,
                        Double.random(in: 60...190, using: &random),
                        WorkoutSessionTests.bpm,
                        from: clock,
                        to: clock,
                        by: runner
                    )
                    : try Self.sample(
                        .activeEnergyBurned,
                        Double.random(in: 1...20, using: &random),
                        .kilocalorie,
                        from: clock - 10,
                        to: clock,
                        by: runner
                    )
                try await engine.addWorkoutSamples([own], follower: session, as: app)
            case 6:
                // The strap deletes one of its samples.
                if let doomed = saved[strap]?.randomElement(using: &random) {
                    _ = try await engine.delete([doomed], as: .app(strap))
                    saved[strap]?.removeAll { $0 == doomed }
                }
            case 7:
                // The owner withdraws the runner's heart rate reading, or grants it again.
                try await engine.decide(
                    readsHeartRate ? .revoke : .grant,
                    .read,
                    of: [.quantity(.heartRate)],
                    for: runner
                )
                readsHeartRate.toggle()
            case 8:
                // The owner orders the energy sources, one way or the other.
                let order = Bool.random(using: &random) ? [Self.watch, runner] : [runner, Self.watch]
                try await engine.setSourcePriority(order, for: .activeEnergyBurned)
            default:
                // The early sample, given to the builder again (once associated, it stays).
                try await engine.addWorkoutSamples([early], follower: session, as: app)
            }
            for type in [QuantityTypeIdentifier.heartRate, .activeEnergyBurned] {
                let live = try await engine.workoutStatistics(type, follower: session, as: app)
                let reference = try await engine.statistics(
                    matching: StatisticsQueryDescriptor(
                        quantityType: type,
                        predicate: .workout(workout),
                        options: .workout(for: type)
                    ),
                    as: app
                )
                #expect(
                    Self.alike(live, reference),
                    "seed \(seed), step \(step) (choice \(choice)), \(type): live \(String(describing: live)), reference \(String(describing: reference))"
                )
            }
        }
    }
}
