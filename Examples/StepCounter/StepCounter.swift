import Foundation
import HealthVaultKit

/// The demo's step counter: an app written against HealthVaultKit alone, as a HealthKit app would
/// be. Each command is one step of `make demo`; it says what it saw and exits non-zero when the
/// vault did not behave as promised.
///
///     example-stepcounter request  --key KEY
///     example-stepcounter save-day --key KEY [--uuid-file FILE]   (yesterday's steps, UTC, and a
///                                                                 heart rate when it may share one)
///     example-stepcounter save-one --key KEY
@main
struct StepCounter {
    static let appID = "org.example.stepcounter"
    static let steps = SampleType.quantity(.stepCount)
    static let heartRate = SampleType.quantity(.heartRate)

    static func main() async {
        let arguments = Arguments(CommandLine.arguments.dropFirst())
        do {
            guard let command = arguments.command, let keyFile = arguments["--key"] else {
                throw Failure("usage: example-stepcounter request|save-day|save-one --key KEY [--uuid-file FILE]")
            }
            let store = try await HealthStore(appID: appID, keyFile: keyFile)
            defer { Task { await store.close() } }
            switch command {
            case "request": try await request(store)
            case "save-day": try await saveDay(store, uuidFile: arguments["--uuid-file"])
            case "save-one": try await saveOne(store)
            default: throw Failure("unknown command \(command)")
            }
            await store.close()
        } catch {
            say("FAILED: \(error)")
            exit(1)
        }
    }

    static func request(_ store: HealthStore) async throws {
        let share: Set<SampleType> = [steps, heartRate]
        let read: Set<ObjectType> = [ObjectType(steps), ObjectType(heartRate)]
        let before = try await store.statusForAuthorizationRequest(toShare: share, read: read)
        try await store.requestAuthorization(toShare: share, read: read)
        say("asked to read and share steps and heart rate (request status was \(before)); the owner decides")
        try check(before == .shouldRequest, "a first request should be needed, was \(before)")
    }

    static func saveDay(_ store: HealthStore, uuidFile: String?) async throws {
        let stepStatus = try await store.authorizationStatus(for: ObjectType(steps))
        let heartStatus = try await store.authorizationStatus(for: ObjectType(heartRate))
        say("may share steps: \(stepStatus); heart rate: \(heartStatus)")
        try check(stepStatus == .sharingAuthorized, "steps should be shareable")

        // A heart-rate reading: saved when the owner granted it; otherwise the save is refused, and
        // nothing of the batch is stored.
        let reading = try sample(.heartRate, 62, unit: .countPerMinute, at: Date())
        if heartStatus == .sharingAuthorized {
            try await store.save(reading)
            say("saved a heart rate of 62 count/min")
        } else {
            do {
                try await store.save(reading)
                throw Failure("saving heart rate should have been refused")
            } catch let error as HealthError where error.code == .authorizationDenied {
                say("saving heart rate was refused: \(error.message)")
            }
        }

        // A day of steps: one sample per hour, yesterday (UTC).
        let today = Calendar.utc.startOfDay(for: Date())
        let day = today.addingTimeInterval(-86_400)
        var samples: [Sample] = []
        var total = 0.0
        for hour in 0..<24 {
            let count = Double(hour >= 7 && hour <= 21 ? 300 + (hour * 37) % 400 : hour % 3 * 10)
            total += count
            samples.append(try sample(.stepCount, count, unit: .count, at: day.addingTimeInterval(Double(hour) * 3600)))
        }
        try await store.save(samples)
        say("saved 24 hourly step samples for \(day.formatted(.iso8601.year().month().day())): \(Int(total)) steps")

        let query = SampleQueryDescriptor(
            predicates: [SampleTypePredicate(steps, predicate: .date(start: day, end: today, options: []))],
            sortDescriptors: [SampleSortDescriptor(.startDate)]
        )
        let read = try await query.result(for: store)
        let readTotal = read.reduce(0.0) { sum, sample in
            guard case .quantity(let quantity) = sample else { return sum }
            return sum + ((try? quantity.quantity.doubleValue(for: .count)) ?? 0)
        }
        say("read them back: \(read.count) samples, \(Int(readTotal)) steps")
        try check(read.count == 24 && readTotal == total, "the samples read back differ from those saved")
        if let uuidFile {
            try Data((read[12].uuid.uuidString + "\n").utf8).write(to: URL(fileURLWithPath: uuidFile))
        }
    }

    static func saveOne(_ store: HealthStore) async throws {
        let now = Date()
        try await store.save(sample(.stepCount, 42, unit: .count, at: now.addingTimeInterval(-60)))
        say("saved 42 steps for the last minute")
    }

    static func sample(
        _ type: QuantityTypeIdentifier,
        _ value: Double,
        unit: HealthUnit,
        at start: Date
    ) throws -> Sample {
        let end = type == .heartRate ? start : start.addingTimeInterval(3600)
        return .quantity(
            try QuantitySample(
                type: type,
                quantity: Quantity(value, unit),
                start: start,
                end: min(end, Date()),
                sourceRevision: SourceRevision(
                    source: Source(bundleIdentifier: appID, name: "Step Counter"),
                    version: "1.0"
                )
            )
        )
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("  [step counter] \(line)\n".utf8))
    }

    static func check(_ condition: Bool, _ message: String) throws {
        if !condition { throw Failure(message) }
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
}

extension Calendar {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
