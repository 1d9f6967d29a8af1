import Foundation
import HealthVaultKit

/// The demo's second app, a sleep tracker. It may not read steps: its reads of steps must look
/// exactly like a vault with no steps, and it must not be able to delete the step counter's data.
///
///     example-sleeptracker request    --key KEY
///     example-sleeptracker read-steps --key KEY
///     example-sleeptracker delete     --key KEY --uuid UUID
///     example-sleeptracker watch      --key KEY --seconds N
@main
struct SleepTracker {
    static let appID = "org.example.sleeptracker"
    static let steps = SampleType.quantity(.stepCount)
    static let sleep = SampleType.category(.sleepAnalysis)

    static func main() async {
        let arguments = Arguments(CommandLine.arguments.dropFirst())
        do {
            guard let command = arguments.command, let keyFile = arguments["--key"] else {
                throw Failure("usage: example-sleeptracker request|read-steps|delete|watch --key KEY ...")
            }
            let store = try await HealthStore(appID: appID, keyFile: keyFile)
            switch command {
            case "request": try await request(store)
            case "read-steps": try await readSteps(store)
            case "delete": try await delete(store, uuid: arguments["--uuid"])
            case "watch": try await watch(store, seconds: Double(arguments["--seconds"] ?? "") ?? 5)
            default: throw Failure("unknown command \(command)")
            }
            await store.close()
        } catch {
            say("FAILED: \(error)")
            exit(1)
        }
    }

    static func request(_ store: HealthStore) async throws {
        try await store.requestAuthorization(toShare: [sleep], read: [ObjectType(sleep), ObjectType(steps)])
        say("asked to read sleep and steps, and to share sleep")
    }

    static func readSteps(_ store: HealthStore) async throws {
        let found = try await SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)]).result(for: store)
        say("read steps: \(found.count) samples (a denied read looks exactly like no data)")
        guard found.isEmpty else { throw Failure("a denied read returned \(found.count) samples") }
    }

    static func delete(_ store: HealthStore, uuid: String?) async throws {
        guard let uuid = uuid.flatMap(UUID.init(uuidString:)) else { throw Failure("give --uuid UUID") }
        let other = try await store.delete(uuids: [uuid])
        let unknown = try await store.delete(uuids: [UUID()])
        say("deleting the step counter's sample: \(other) deleted; deleting an unknown UUID: \(unknown) deleted")
        guard other == 0, unknown == 0 else { throw Failure("another app's sample was answered differently") }
        say("the two answers are the same: it cannot tell the sample exists")
    }

    /// Observes steps for `seconds`, printing each update, then stops the observer query.
    static func watch(_ store: HealthStore, seconds: Double) async throws {
        let query = try await store.observe([steps], frequency: .immediate)
        say("watching steps for \(Int(seconds)) s")
        let counter = Task {
            var count = 0
            for await update in query.updates {
                count += 1
                say("update \(count): \(update.types.map(\.description).sorted().joined(separator: ", ")) changed")
            }
            return count
        }
        try await Task.sleep(for: .seconds(seconds))
        try await query.stop()
        let count = await counter.value
        say("observer stopped after \(count) update\(count == 1 ? "" : "s")")
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("  [sleep tracker] \(line)\n".utf8))
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

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
