import Foundation
import HealthVaultKit
import Synchronization

/// The demo's run tracker and the heart-rate strap it reads from: two apps, as a watch's workout
/// app and a chest strap's app would be, written against HealthVaultKit alone. They share one
/// executable because they play the same simulated run (``Run``): two minutes of running with a
/// pause at a crossing and a lap, replayed `--speed` times faster than real time (20 by default:
/// six seconds). Every sample and every step of the session carries the run's own date: the run
/// took place in the two minutes before the replay began, so the vault keeps what a real run
/// would have left, only sooner.
///
///     example-runtracker request       --key KEY   the run tracker asks for what it needs
///     example-runtracker strap-request --key KEY   the strap asks to share heart rate
///     example-runtracker strap --key KEY --clock FILE
///     example-runtracker run   --key KEY --clock FILE [--speed N] [--uuid-file FILE]
///
/// `run` starts a workout session, writes the replay's clock to FILE, plays the run, prints the
/// live totals as the vault pushes them and the workout it saves. `strap`, started before it,
/// waits for the clock and saves a heart-rate reading every ten seconds of the run. Each exits
/// non-zero when the vault did not behave as promised.
@main
struct RunTracker {
    static let appID = "org.example.runtracker"
    static let strapID = "org.example.heartstrap"

    static func main() async {
        let arguments = Arguments(CommandLine.arguments.dropFirst())
        let isStrap = arguments.command?.hasPrefix("strap") == true
        do {
            guard let command = arguments.command, let keyFile = arguments["--key"] else {
                throw Failure("usage: example-runtracker request|strap-request|strap|run --key KEY [--clock FILE] ...")
            }
            let store = try await HealthStore(appID: isStrap ? strapID : appID, keyFile: keyFile)
            switch command {
            case "request": try await request(store)
            case "strap-request": try await Strap.request(store)
            case "strap": try await Strap.measure(store, clockFile: try arguments.required("--clock"))
            case "run":
                try await run(
                    store,
                    clockFile: try arguments.required("--clock"),
                    speed: Double(arguments["--speed"] ?? "") ?? 20,
                    uuidFile: arguments["--uuid-file"]
                )
            default: throw Failure("unknown command \(command)")
            }
            await store.close()
        } catch {
            (isStrap ? Strap.say : say)("FAILED: \(error)")
            exit(1)
        }
    }

    static func request(_ store: HealthStore) async throws {
        try await store.requestAuthorization(
            toShare: [.workout, .quantity(.activeEnergyBurned), .quantity(.distanceWalkingRunning)],
            read: [ObjectType(.quantity(.heartRate))]
        )
        say("asked to share workouts, active energy and distance, and to read heart rate")
    }

    // MARK: The run

    static func run(_ store: HealthStore, clockFile: String, speed: Double, uuidFile: String?) async throws {
        guard speed > 0 else { throw Failure("--speed must be above 0") }
        // Distance and energy in the owner's units (kilometres or miles, as they chose); heart
        // rate in beats per minute, as every running app shows it.
        var preferred = try await store.preferredUnits(for: [.distanceWalkingRunning, .activeEnergyBurned])
        preferred[.heartRate] = .countPerMinute
        let units = Units(preferred)
        let configuration = try WorkoutConfiguration(activityType: .running, locationType: .outdoor)
        let session = try await store.startWorkoutSession(configuration: configuration)
        let builder = session.associatedWorkoutBuilder()
        let replay = Date().addingTimeInterval(0.5)
        let clock = RunClock(start: replay.addingTimeInterval(-Run.length), replay: replay, speed: speed)
        let display = LiveDisplay(clock: clock, units: units)
        session.delegate = display
        builder.delegate = display

        say(
            "a run of \(minutes(Run.length)) from \(clock.start.formatted(.iso8601)), replayed \(number(speed))x faster"
        )
        try await session.startActivity(with: clock.date(0))
        try await builder.beginCollection(at: clock.date(0))
        // What HealthKit collects for a run: heart rate (here from the strap), active energy and
        // walking and running distance (here the tracker's own, added below).
        try await LiveWorkoutDataSource(workoutConfiguration: configuration).apply(to: builder)
        try await builder.addMetadata([.weatherTemperature: .quantity(Quantity(12, .degreeCelsius))])
        try clock.write(to: clockFile)

        let route = RouteRecorder()
        for (at, step) in Run.steps {
            try await clock.wait(until: at)
            switch step {
            case .measured(let from, let metres):
                // What the tracker measured itself over the stretch: saved and added to the workout.
                let stretch = (from: clock.date(from), to: clock.date(at))
                try await builder.add(try measurements(metres: metres, from: stretch.from, to: stretch.to))
                try await route.insertLocations(from: stretch.from, to: stretch.to)
            // HealthKit's pause() and resume() act now; the replay gives each its moment of the run.
            case .pause: try await session.change(.pause, at: clock.date(at))
            case .resume: try await session.change(.resume, at: clock.date(at))
            case .lap(let from):
                try await builder.addWorkoutEvents([
                    WorkoutEvent(type: .lap, start: clock.date(from), end: clock.date(at))
                ])
            }
        }
        try await clock.wait(until: Run.length)
        try await session.change(.end, at: clock.date(Run.length))
        try await builder.endCollection(at: clock.date(Run.length))
        let workout = try await builder.finishWorkout()
        try await route.finishRoute(with: workout)
        await display.waitUntilEnded()
        if let uuidFile { try Data((workout.uuid.uuidString + "\n").utf8).write(to: URL(fileURLWithPath: uuidFile)) }
        try await report(workout, store: store, clock: clock, units: units, liveUpdates: display.updates)
    }

    /// Prints the saved workout and the samples associated with it, and checks them against the run.
    static func report(
        _ workout: Workout,
        store: HealthStore,
        clock: RunClock,
        units: Units,
        liveUpdates: Int
    ) async throws {
        let heart = workout.statistics(for: .heartRate)
        let paused = workout.endDate.timeIntervalSince(workout.startDate) - workout.duration
        say("saved the workout \(workout.uuid) after \(liveUpdates) live updates")
        say(
            "  \(workout.workoutActivityType), \(minutes(workout.duration)) of running "
                + "in \(minutes(Run.length)) (paused \(minutes(paused)))"
        )
        say(
            "  distance \(units.text(workout.totalDistance, .distanceWalkingRunning)), "
                + "energy \(units.text(workout.totalEnergyBurned, .activeEnergyBurned)), "
                + "heart rate avg \(units.text(heart?.averageQuantity(), .heartRate)), "
                + "max \(units.text(heart?.maximumQuantity(), .heartRate))"
        )
        let events = workout.workoutEvents.map { event in
            event.duration > 0
                ? "\(event.type) \(minutes(clock.offset(event.startDate)))-\(minutes(clock.offset(event.endDate)))"
                : "\(event.type) at \(minutes(clock.offset(event.startDate)))"
        }
        let laps = workout.workoutEvents.filter { $0.type == .lap }.count
        say("  events: \(events.joined(separator: ", ")); \(laps) lap\(laps == 1 ? "" : "s")")

        // The samples of the workout, by HealthKit's predicateForObjects(from:).
        let types: [QuantityTypeIdentifier] = [.heartRate, .distanceWalkingRunning, .activeEnergyBurned]
        let samples = try await SampleQueryDescriptor(
            predicates: types.map { SampleTypePredicate(.quantity($0), predicate: .objects(from: workout)) }
        ).result(for: store)
        let counts = types.map { type in
            let of = samples.filter { $0.sampleType == .quantity(type) }
            let sources = Set(of.map(\.sourceRevision.source.name)).sorted().joined(separator: ", ")
            return "\(of.count) \(units.name(type)) (\(sources))"
        }
        say("  its samples: \(counts.joined(separator: ", "))")

        let expectedDistance = Run.steps.reduce(0.0) { total, step in
            if case .measured(_, let metres) = step.step { return total + metres }
            return total
        }
        try check(workout.workoutActivityType == .running, "the workout is not a run")
        try check(abs(workout.duration - Run.moving) < 0.01, "the duration \(workout.duration) is not \(Run.moving) s")
        try check(
            abs((try workout.totalDistance?.doubleValue(for: .meter) ?? 0) - expectedDistance) < 0.01,
            "the distance is not \(expectedDistance) m"
        )
        try check(workout.totalEnergyBurned != nil, "the workout has no energy")
        try check(workout.workoutEvents.map(\.type) == [.lap, .pause, .resume], "the events are \(events)")
        try check(
            (try heart?.maximumQuantity()?.doubleValue(for: .countPerMinute)) == Run.heartRate.map(\.bpm).max(),
            "the strap's heart rate is not in the workout"
        )
        try check(liveUpdates > 0, "no live statistics came")
    }

    /// The distance and the active energy of a stretch the tracker measured.
    static func measurements(metres: Double, from start: Date, to end: Date) throws -> [Sample] {
        let source = SourceRevision(source: Source(bundleIdentifier: appID, name: "Run Tracker"), version: "1.0")
        return [
            .quantity(
                try QuantitySample(
                    type: .distanceWalkingRunning,
                    quantity: Quantity(metres, .meter),
                    start: start,
                    end: end,
                    sourceRevision: source
                )
            ),
            .quantity(
                try QuantitySample(
                    type: .activeEnergyBurned,
                    quantity: Quantity(metres * Run.kilocaloriesPerMetre, .kilocalorie),
                    start: start,
                    end: end,
                    sourceRevision: source
                )
            ),
        ]
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("  [run tracker] \(line)\n".utf8))
    }

    static func check(_ condition: Bool, _ message: String) throws {
        if !condition { throw Failure(message) }
    }

    /// `m:ss`.
    static func minutes(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }

    /// A value to three figures or so: 168, 21.2, 0.35.
    static func number(_ value: Double) -> String {
        let scale = abs(value) >= 100 ? 1.0 : abs(value) >= 10 ? 10 : 100
        let rounded = (value * scale).rounded() / scale
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// The simulated run, in seconds from its start: what the runner does and what each app measures.
enum Run {
    enum Step {
        /// The tracker's own distance over a stretch of running, from a moment to the step's.
        case measured(from: TimeInterval, metres: Double)
        case pause
        case resume
        /// The runner taps "lap": the lap ran from a moment to the step's.
        case lap(from: TimeInterval)
    }

    static let length: TimeInterval = 120
    /// Waiting at a crossing from 0:40 to 1:00.
    static let moving: TimeInterval = length - 20
    static let kilocaloriesPerMetre = 0.06

    static let steps: [(at: TimeInterval, step: Step)] = [
        (10, .measured(from: 0, metres: 32)),
        (20, .measured(from: 10, metres: 34)),
        (30, .measured(from: 20, metres: 35)),
        (40, .measured(from: 30, metres: 36)),
        (40, .pause),
        (60, .resume),
        (70, .measured(from: 60, metres: 33)),
        (80, .measured(from: 70, metres: 35)),
        (80, .lap(from: 0)),
        (90, .measured(from: 80, metres: 37)),
        (100, .measured(from: 90, metres: 38)),
        (110, .measured(from: 100, metres: 37)),
        (120, .measured(from: 110, metres: 33)),
    ]

    /// The strap's readings, one every ten seconds, halfway between the runner's steps (so none
    /// falls on the pause or the resume); the two taken during the pause are not the workout's.
    static let heartRate: [(at: TimeInterval, bpm: Double)] = [
        (5, 98), (15, 118), (25, 132), (35, 141), (45, 128), (55, 112),
        (65, 131), (75, 146), (85, 155), (95, 163), (105, 168), (115, 161),
    ]
}

/// The replay's clock: the run's moment `t` seconds in has the date `start + t` and is played at
/// `replay + t / speed` in real time. The run tracker writes it to a file; the strap reads it, as
/// both would follow the real time of a real run.
struct RunClock: Codable {
    let start: Date
    let replay: Date
    let speed: Double

    func date(_ t: TimeInterval) -> Date { start.addingTimeInterval(t) }

    /// Seconds from the run's start to `date`.
    func offset(_ date: Date) -> TimeInterval { date.timeIntervalSince(start) }

    /// The run's moment now.
    var now: TimeInterval { Date().timeIntervalSince(replay) * speed }

    func wait(until t: TimeInterval) async throws {
        let delay = replay.addingTimeInterval(t / speed).timeIntervalSinceNow
        if delay > 0 { try await Task.sleep(for: .seconds(delay)) }
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The clock in `path`, once the run tracker has written it (at most `seconds` from now).
    static func read(from path: String, waitingUpTo seconds: Double) async throws -> RunClock {
        let deadline = Date().addingTimeInterval(seconds)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        while Date() < deadline {
            if let data = FileManager.default.contents(atPath: path) {
                return try decoder.decode(RunClock.self, from: data)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure("no run started within \(Int(seconds)) s (\(path) was not written)")
    }
}

/// What the run tracker shows while it runs: the session's state changes and the live totals
/// the vault pushes (HealthKit's session and live builder delegates).
final class LiveDisplay: WorkoutSessionDelegate, LiveWorkoutBuilderDelegate, Sendable {
    let clock: RunClock
    let units: Units
    private let state = Mutex((updates: 0, shown: "", ended: false))

    init(clock: RunClock, units: Units) {
        self.clock = clock
        self.units = units
    }

    var updates: Int { state.withLock { $0.updates } }

    func workoutSession(
        _ session: WorkoutSession,
        didChangeTo toState: WorkoutSessionState,
        from fromState: WorkoutSessionState,
        date: Date
    ) {
        RunTracker.say("session \(toState) at \(RunTracker.minutes(clock.offset(date)))")
        if toState == .ended { state.withLock { $0.ended = true } }
    }

    func workoutSession(_ session: WorkoutSession, didFailWithError error: HealthError) {
        RunTracker.say("the session failed: \(error.message)")
    }

    func workoutBuilder(_ builder: LiveWorkoutBuilder, didCollectDataOf collectedTypes: Set<SampleType>) {
        var line = ""
        if let heart = builder.statistics(for: .heartRate) {
            line +=
                "  heart rate \(units.text(heart.mostRecentQuantity(), .heartRate))"
                + " (avg \(units.text(heart.averageQuantity(), .heartRate, unit: false)),"
                + " max \(units.text(heart.maximumQuantity(), .heartRate, unit: false)))"
        }
        if let distance = builder.statistics(for: .distanceWalkingRunning) {
            line += "  distance \(units.text(distance.sumQuantity(), .distanceWalkingRunning))"
        }
        if let energy = builder.statistics(for: .activeEnergyBurned) {
            line += "  energy \(units.text(energy.sumQuantity(), .activeEnergyBurned))"
        }
        // Shown when the totals changed (a push may repeat them).
        let changed = state.withLock { state in
            state.updates += 1
            defer { state.shown = line }
            return state.shown != line
        }
        guard changed else { return }
        // The replay's "now" is a moment of the run, not the real one: ask for the elapsed time then.
        let elapsed = builder.elapsedTime(at: clock.date(min(max(clock.now, 0), Run.length)))
        RunTracker.say("live  elapsed \(RunTracker.minutes(elapsed))\(line)")
    }

    func workoutBuilderDidCollectEvent(_ builder: LiveWorkoutBuilder) {
        if let lap = builder.workoutEvents.last(where: { $0.type == .lap }) {
            let (start, end) = (
                RunTracker.minutes(clock.offset(lap.startDate)), RunTracker.minutes(clock.offset(lap.endDate))
            )
            RunTracker.say("lap at \(end) (\(start)-\(end))")
        }
    }

    /// Waits (a moment at most) for the session's last state change to be shown.
    func waitUntilEnded() async {
        for _ in 0..<200 where !state.withLock({ $0.ended }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// The owner's preferred units of the run's types, and how the tracker writes a quantity in them.
struct Units: Sendable {
    let preferred: [QuantityTypeIdentifier: HealthUnit]

    init(_ preferred: [QuantityTypeIdentifier: HealthUnit]) {
        self.preferred = preferred
    }

    func text(_ quantity: Quantity?, _ type: QuantityTypeIdentifier, unit: Bool = true) -> String {
        let shown = preferred[type] ?? type.canonicalUnit
        guard let quantity, let value = try? quantity.doubleValue(for: shown) else { return "-" }
        let label = shown == .countPerMinute ? "bpm" : shown.description
        return RunTracker.number(value) + (unit ? " \(label)" : "")
    }

    func name(_ type: QuantityTypeIdentifier) -> String {
        switch type {
        case .heartRate: "heart rate"
        case .distanceWalkingRunning: "distance"
        case .activeEnergyBurned: "active energy"
        default: type.rawValue
        }
    }
}

/// Where the run's route goes (issue 19): a tracker inserts each stretch's locations into a route
/// builder as it runs (HealthVaultKit's `WorkoutRouteBuilder`, HealthKit's
/// `HKWorkoutRouteBuilder.insertRouteData(_:)`, which needs the share grant for
/// `HKWorkoutRouteTypeIdentifier`) and attaches the route to the saved workout
/// (`finishRoute(with:metadata:)`). The replay has no locations yet, so these do nothing.
struct RouteRecorder {
    func insertLocations(from start: Date, to end: Date) async throws {}
    func finishRoute(with workout: Workout) async throws {}
}

/// The heart-rate strap: another app, which only shares heart rate. It knows nothing of the run
/// tracker's session; the vault gives its readings to the session because the owner lets the run
/// tracker read heart rate.
enum Strap {
    static func request(_ store: HealthStore) async throws {
        try await store.requestAuthorization(toShare: [.quantity(.heartRate)], read: [])
        say("asked to share heart rate")
    }

    static func measure(_ store: HealthStore, clockFile: String) async throws {
        let status = try await store.authorizationStatus(for: ObjectType(.quantity(.heartRate)))
        guard status == .sharingAuthorized else { throw Failure("the strap may not share heart rate (\(status))") }
        let clock = try await RunClock.read(from: clockFile, waitingUpTo: 60)
        let source = SourceRevision(source: Source(bundleIdentifier: RunTracker.strapID, name: "Heart Strap"))
        for reading in Run.heartRate {
            try await clock.wait(until: reading.at)
            let date = clock.date(reading.at)
            try await store.save(
                .quantity(
                    try QuantitySample(
                        type: .heartRate,
                        quantity: Quantity(reading.bpm, .countPerMinute),
                        start: date,
                        end: date,
                        sourceRevision: source
                    )
                )
            )
        }
        let values = Run.heartRate.map(\.bpm)
        say(
            "saved \(values.count) heart rate readings as the run went, one every 10 s "
                + "(\(Int(values.min()!))-\(Int(values.max()!)) bpm)"
        )
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("  [heart strap] \(line)\n".utf8))
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `command --name value ...`
struct Arguments {
    let command: String?
    let options: [String: String]

    init(_ arguments: ArraySlice<String>) {
        command = arguments.first
        var options: [String: String] = [:]
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            options[name] = rest.popFirst() ?? ""
        }
        self.options = options
    }

    subscript(name: String) -> String? { options[name] }

    func required(_ name: String) throws -> String {
        guard let value = options[name], !value.isEmpty else { throw Failure("give \(name)") }
        return value
    }
}
