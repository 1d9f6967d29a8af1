import Foundation
import HealthModel
import Testing

/// The workout session's state machine (docs/WORKOUTS.md) and the builder's rules, as values.
@Suite struct WorkoutSessionStateTests {
    /// The table of docs/WORKOUTS.md: for each state and action, the states passed through, or nil
    /// when HealthKit does not allow it.
    static let table: [WorkoutSessionState: [WorkoutSessionAction: [WorkoutSessionState]]] = [
        .notStarted: [.prepare: [.prepared], .startActivity: [.running], .end: [.ended]],
        .prepared: [.startActivity: [.running], .end: [.ended]],
        .running: [.pause: [.paused], .stopActivity: [.stopped], .end: [.stopped, .ended]],
        .paused: [.resume: [.running], .stopActivity: [.stopped], .end: [.stopped, .ended]],
        .stopped: [.end: [.ended]],
        .ended: [:],
    ]

    @Test func everyTransitionAllowedOrNot() throws {
        for state in WorkoutSessionState.allCases {
            for action in WorkoutSessionAction.allCases {
                let expected = Self.table[state]?[action]
                do {
                    let path = try state.transitions(for: action)
                    #expect(path == expected, "\(state) \(action)")
                } catch {
                    #expect(expected == nil, "\(state) \(action) refused: \(error)")
                    #expect(error.code == .invalidArgument && error.field == "state")
                    #expect(error.message.contains("cannot \(action) a session that is \(state)"), "\(error.message)")
                }
            }
        }
    }

    @Test func elapsedTimeLeavesOutPausesAndTheTimeBeforeCollection() throws {
        let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)
        var session = WorkoutSessionSnapshot(
            app: "org.example.app",
            configuration: try WorkoutConfiguration(activityType: .running)
        )
        _ = try session.take(.startActivity, at: t0)
        try session.builder.beginCollection(at: t0.addingTimeInterval(10))
        _ = try session.take(.pause, at: t0.addingTimeInterval(100))
        #expect(session.elapsedTime(at: t0.addingTimeInterval(150)) == 90)
        _ = try session.take(.resume, at: t0.addingTimeInterval(200))
        #expect(session.elapsedTime(at: t0.addingTimeInterval(260)) == 150)
        #expect(session.builder.events.map(\.type) == [.pause, .resume])
        // A sample starting in the pause is not collected; one after the resume is.
        try session.builder.collect([.quantity(.heartRate)])
        #expect(!session.collects(.quantity(.heartRate), startingAt: t0.addingTimeInterval(150)))
        #expect(session.collects(.quantity(.heartRate), startingAt: t0.addingTimeInterval(210)))
        #expect(!session.collects(.quantity(.stepCount), startingAt: t0.addingTimeInterval(210)))
        // History runs forwards.
        #expect(throws: HealthError.self) { _ = try session.take(.pause, at: t0.addingTimeInterval(5)) }
        _ = try session.take(.end, at: t0.addingTimeInterval(300))
        try session.builder.endCollection(at: t0.addingTimeInterval(300))
        #expect(session.elapsedTime(at: t0.addingTimeInterval(1000)) == 190)
    }

    @Test func theBuilderRefusesWhatHealthKitRefuses() throws {
        let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)
        var builder = WorkoutBuilderSnapshot(workoutUUID: UUID())
        #expect(throws: HealthError.self) { try builder.add([WorkoutEvent(type: .lap, start: t0)]) }
        try builder.beginCollection(at: t0)
        #expect(throws: HealthError.self) { try builder.beginCollection(at: t0) }
        #expect(throws: HealthError.self) { try builder.add([WorkoutEvent(type: .pause, start: t0)]) }
        #expect(throws: HealthError.self) {
            try builder.add([WorkoutEvent(type: .lap, start: t0.addingTimeInterval(-1))])
        }
        let swim = try WorkoutConfiguration(
            activityType: .swimming,
            swimmingLocationType: .pool,
            lapLength: Quantity(25, .meter)
        )
        try builder.beginActivity(swim, at: t0.addingTimeInterval(1))
        #expect(throws: HealthError.self) { try builder.beginActivity(swim, at: t0.addingTimeInterval(2)) }
        try builder.endActivity(at: t0.addingTimeInterval(60))
        #expect(throws: HealthError.self) { try builder.endActivity(at: t0.addingTimeInterval(61)) }
        #expect(throws: HealthError.self) { try builder.endCollection(at: t0.addingTimeInterval(30)) }
        try builder.endCollection(at: t0.addingTimeInterval(90))
        // Metadata refused naming its key once.
        do {
            try builder.add([.indoorWorkout: .string("x")])
            Issue.record("a text HKIndoorWorkout was accepted")
        } catch {
            #expect(error.field == "metadata.HKIndoorWorkout")
        }
        // A lap length is for pool swimming only.
        #expect(throws: HealthError.self) {
            _ = try WorkoutConfiguration(activityType: .running, lapLength: Quantity(25, .meter))
        }
    }

    @Test func theLatestDatesAJSONDateCanHoldWorkLikeAnyOther() throws {
        // Past Foundation's distantFuture (4001-01-01), up to the last instant of 9999.
        let late = RFC3339.representableRange.upperBound.addingTimeInterval(-3600)
        var session = WorkoutSessionSnapshot(
            app: "org.example.app",
            configuration: try WorkoutConfiguration(activityType: .running)
        )
        _ = try session.take(.startActivity, at: late)
        try session.builder.beginCollection(at: late)
        try session.builder.collect([.quantity(.heartRate)])
        try session.builder.beginActivity(
            try WorkoutConfiguration(activityType: .cycling),
            at: late.addingTimeInterval(1)
        )
        try session.builder.add([WorkoutEvent(type: .lap, start: late.addingTimeInterval(2))])
        #expect(session.collects(.quantity(.heartRate), startingAt: late.addingTimeInterval(3)))
        try session.builder.endActivity(at: late.addingTimeInterval(10))
        try session.builder.endCollection(at: late.addingTimeInterval(20))
        #expect(session.elapsedTime(at: late.addingTimeInterval(20)) == 20)
        _ = try WorkoutActivity(configuration: try WorkoutConfiguration(activityType: .walking), start: late)
    }

    @Test func aSnapshotRoundTripsThroughItsJSON() throws {
        var session = WorkoutSessionSnapshot(
            app: "org.example.app",
            configuration: try WorkoutConfiguration(
                activityType: .swimming,
                locationType: .indoor,
                swimmingLocationType: .pool,
                lapLength: Quantity(50, .meter)
            )
        )
        let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)
        _ = try session.take(.startActivity, at: t0)
        try session.builder.beginCollection(at: t0)
        try session.builder.add([WorkoutEvent(type: .lap, start: t0.addingTimeInterval(30))])
        let decoded = try HealthJSON.decode(WorkoutSessionSnapshot.self, from: try HealthJSON.encode(session))
        #expect(decoded == session)
    }

    @Test func aSessionsRecordStaysBounded() throws {
        let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)
        var session = WorkoutSessionSnapshot(
            app: "org.example.app",
            configuration: try WorkoutConfiguration(activityType: .running)
        )
        _ = try session.take(.startActivity, at: t0)
        try session.builder.beginCollection(at: t0)
        var refused: HealthError?
        for second in 1...20_000 {
            do {
                _ = try session.take(second % 2 == 1 ? .pause : .resume, at: t0.addingTimeInterval(Double(second)))
            } catch {
                refused = error
                break
            }
        }
        #expect(refused?.code == .dataSizeExceeded && refused?.field == "state")
        #expect(session.builder.events.count <= WorkoutBuilderSnapshot.maximumEvents)
        #expect(session.stateChanges.count <= WorkoutSessionSnapshot.maximumStateChanges)
        let big: Metadata = [MetadataKey(rawValue: "note"): .string(String(repeating: "x", count: 70_000))]
        let error = #expect(throws: HealthError.self) { try session.builder.add(big) }
        #expect(error?.code == .dataSizeExceeded && error?.field == "metadata")
    }
}
