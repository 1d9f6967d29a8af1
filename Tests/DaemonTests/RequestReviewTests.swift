import Foundation
import Glibc
import HealthModel
import HealthVaultKit
import Testing
import VaultClient
import VaultProtocol

extension DaemonEndToEnd {
    /// `healthvault requests review` and the asks again the owner now sees, with the real binary
    /// against a real daemon (a pty where the terminal matters).
    @Suite struct RequestReviewTests {
        static let app = "org.example.reviewed"
        static let read: Set<ObjectType> = [ObjectType(steps), ObjectType(heartRate)]
        static let share: Set<SampleType> = [steps]

        /// A daemon with the app enrolled and its request waiting: read steps and heart rate,
        /// share steps.
        static func asked() async throws -> (TestDaemon, HealthStore) {
            let daemon = try TestDaemon()
            try await daemon.enroll(app, read: [ObjectType(steps), ObjectType(heartRate)], share: [steps])
            let store = try await daemon.store(app)
            try await store.requestAuthorization(toShare: share, read: read)
            return (daemon, store)
        }

        /// The app's grants as `apps show --json` gives them: "access type" -> state.
        static func states(_ daemon: TestDaemon) throws -> [String: String] {
            let shown = try CLITests.healthvault(["apps", "show", app, "--json"], daemon: daemon)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [String: Any])
            var states: [String: String] = [:]
            for grant in object["grants"] as? [[String: Any]] ?? [] {
                let type = try ObjectType(identifier: grant["type"] as? String ?? "").shortName
                for access in ["read", "share"] {
                    states["\(access) \(type)"] = (grant[access] as? [String: Any])?["state"] as? String
                }
            }
            return states
        }

        @Test func anAppThatAsksAgainForWhatWasDecidedIsShownToTheOwnerAndToldNothingNew() async throws {
            let (daemon, store) = try await Self.asked()
            #expect(try CLITests.healthvault(["requests", "deny", "1"], daemon: daemon).status == 0)
            let before = try await store.statusForAuthorizationRequest(toShare: Self.share, read: Self.read)

            // Nothing is left to decide: the list says so, and no one asked again yet.
            var list = try CLITests.healthvault(["requests"], daemon: daemon)
            #expect(list.out == "No requests are waiting.\n", "\(list)")

            try await store.requestAuthorization(toShare: Self.share, read: Self.read)
            try await store.requestAuthorization(toShare: [], read: [ObjectType(heartRate)])
            // The app learns nothing from asking again.
            #expect(try await store.statusForAuthorizationRequest(toShare: Self.share, read: Self.read) == before)

            list = try CLITests.healthvault(["requests"], daemon: daemon)
            #expect(list.status == 0)
            #expect(list.out.contains("Asked again after your decisions"), "\(list.out)")
            #expect(
                list.out.contains("  \(Self.app): 2 times, from ") && list.out.contains("for read heartRate\n"),
                "\(list.out)"
            )
            let json = try CLITests.healthvault(["requests", "list", "--json"], daemon: daemon)
            let lines = json.out.split(separator: "\n")
            #expect(lines.count == 1, "\(json.out)")
            let repeated = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(repeated["repeated"] as? Bool == true && repeated["times"] as? Int == 2, "\(repeated)")
            #expect(repeated["read"] as? [String] == ["HKQuantityTypeIdentifierHeartRate"], "\(repeated)")

            // The owner decides something for the app: the asks again have been answered.
            #expect(
                try CLITests.healthvault(["grant", Self.app, "heartRate", "--read"], daemon: daemon).status == 0
            )
            list = try CLITests.healthvault(["requests"], daemon: daemon)
            #expect(list.out == "No requests are waiting.\n", "\(list)")
            await store.close()
        }

        @Test func aScriptDecidesWithAllowAndDenyAndTheRestStaysWaiting() async throws {
            let (daemon, store) = try await Self.asked()
            // Without --allow or --deny a script gets the review and nothing is decided.
            let shown = try CLITests.healthvault(["requests", "review"], daemon: daemon)
            #expect(shown.status == 0, "\(shown)")
            #expect(shown.out.contains("Request 1 from \(Self.app) (\(Self.app)), "), "\(shown.out)")
            #expect(
                shown.out.contains("  it reads for:  tests\n  it shares for: tests\n  it has:        nothing yet\n")
            )
            #expect(shown.out.contains("  it asks:       read heartRate, read stepCount, share stepCount\n"))
            #expect(shown.out.contains("Nothing was decided"))
            #expect(try Self.states(daemon).values.allSatisfy { $0 == "notDetermined" })

            // What names nothing waiting, or allows and denies the same, decides nothing.
            let unknown = try CLITests.healthvault(
                ["requests", "review", "--allow", "share:heartRate"],
                daemon: daemon
            )
            #expect(unknown.status == 1, "\(unknown)")
            #expect(
                unknown.err
                    == "healthvault: --allow share of heartRate: no request reviewed waits for it (see `healthvault requests`); nothing was decided\n"
            )
            let both = try CLITests.healthvault(
                ["requests", "review", "--allow", "steps", "--deny", "read:stepCount"],
                daemon: daemon
            )
            #expect(both.status == 1 && both.err.contains("both allowed and denied; nothing was decided"), "\(both)")
            let malformed = try CLITests.healthvault(["requests", "review", "--allow", "write:steps"], daemon: daemon)
            #expect(
                malformed.status != 0 && malformed.err.contains("say read:TYPE, share:TYPE or TYPE"),
                "\(malformed)"
            )
            #expect(try Self.states(daemon).values.allSatisfy { $0 == "notDetermined" })

            let decided = try CLITests.healthvault(
                ["requests", "review", "1", "--allow", "read:stepCount", "--deny", "heartRate"],
                daemon: daemon
            )
            #expect(decided.status == 0, "\(decided)")
            #expect(
                decided.out
                    == "Denied read of heartRate for \(Self.app) (request 1).\nAllowed read of stepCount for \(Self.app) (request 1).\n"
            )
            let states = try Self.states(daemon)
            #expect(states["read stepCount"] == "granted" && states["read heartRate"] == "denied", "\(states)")
            #expect(states["share stepCount"] == "notDetermined", "\(states)")
            #expect(try await store.authorizationStatus(for: ObjectType(steps)) == .notDetermined)

            // Terms: a window needs a read allowed; an expiry, something allowed.
            let windowOnShare = try CLITests.healthvault(
                ["requests", "review", "--allow", "share:steps", "--last", "30d"],
                daemon: daemon
            )
            #expect(windowOnShare.status == 1 && windowOnShare.err.contains("limits reading"), "\(windowOnShare)")
            let expiryOnDenial = try CLITests.healthvault(
                ["requests", "review", "--deny", "share:steps", "--until", "2099-01-01"],
                daemon: daemon
            )
            #expect(expiryOnDenial.status == 1 && expiryOnDenial.err.contains("allow something"), "\(expiryOnDenial)")
            let termsAlone = try CLITests.healthvault(["requests", "review", "--last", "30d"], daemon: daemon)
            #expect(termsAlone.status == 1 && termsAlone.err.contains("add --allow"), "\(termsAlone)")
            #expect(try Self.states(daemon)["share stepCount"] == "notDetermined")

            // Share of steps still waits; --json gives one object per decision.
            let json = try CLITests.healthvault(
                ["requests", "review", "--allow", "share:steps", "--until", "2099-01-01T00:00:00Z", "--json"],
                daemon: daemon
            )
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
            #expect(object["decision"] as? String == "grant" && object["access"] as? String == "share", "\(object)")
            #expect(object["expiresAt"] as? String == "2099-01-01T00:00:00.000Z", "\(object)")
            #expect(object["type"] as? String == "HKQuantityTypeIdentifierStepCount" && object["request"] as? Int == 1)
            #expect(try await store.authorizationStatus(for: ObjectType(steps)) == .sharingAuthorized)
            let nothing = try CLITests.healthvault(["requests", "review", "1"], daemon: daemon)
            #expect(nothing.status == 1 && nothing.err.contains("request 1 waits for nothing"), "\(nothing)")
            await store.close()
        }

        @Test func atATerminalEachTypeIsAskedAndCtrlCAppliesNothingOfTheRequest() async throws {
            let (daemon, store) = try await Self.asked()
            let arguments = [
                "requests", "review", "--vault", daemon.directory.path, "--passphrase-file", daemon.passphraseFile,
            ]
            // Ctrl-C after the first answer: nothing of the request is decided.
            let interrupted = try TerminalProcess(TestDaemon.binary("healthvault"), arguments)
            #expect(interrupted.waitFor("read heartRate? allow, deny or skip [a/d/s]: "), "\(interrupted.output)")
            interrupted.type("a\n")
            #expect(interrupted.waitFor("read stepCount?"), "\(interrupted.output)")
            interrupted.type("\u{03}")
            _ = try #require(interrupted.wait())
            #expect(try Self.states(daemon).values.allSatisfy { $0 == "notDetermined" })

            let review = try TerminalProcess(TestDaemon.binary("healthvault"), arguments)
            #expect(
                review.waitFor("it asks:       read heartRate, read stepCount, share stepCount"),
                "\(review.output)"
            )
            #expect(review.waitFor("read heartRate? allow, deny or skip [a/d/s]: "))
            review.type("maybe\n")
            #expect(review.waitFor("Answer a (allow), d (deny) or s (skip)."), "\(review.output)")
            #expect(review.waitFor("read heartRate?", after: 1))
            review.type("d\n")
            #expect(review.waitFor("read stepCount?"))
            review.type("a 30d until 2099-12-31\n")
            #expect(review.waitFor("share stepCount?"))
            // A window is for reading; a denial takes no terms: asked again each time.
            review.type("a 30d\n")
            #expect(review.waitFor("a window is for reading; a share grant takes only until DATE"), "\(review.output)")
            #expect(review.waitFor("share stepCount?", after: 1))
            review.type("d 30d\n")
            #expect(review.waitFor("A denial takes no window or expiry"), "\(review.output)")
            #expect(review.waitFor("share stepCount?", after: 2))
            review.type("s\n")
            let status = try #require(review.wait())
            #expect(TerminalProcess.exitCode(status) == 0, "\(review.output)")
            #expect(review.output.contains("Denied read of heartRate for \(Self.app) (request 1)."), "\(review.output)")
            #expect(
                review.output.contains(
                    "Allowed read of stepCount for \(Self.app) (request 1), reading from the last 30 days, until 2099-12-31 00:00 "
                ),
                "\(review.output)"
            )
            let shown = try CLITests.healthvault(["apps", "show", Self.app, "--json"], daemon: daemon)
            #expect(shown.out.contains(#""kind":"last","seconds":2592000"#), "\(shown.out)")
            let states = try Self.states(daemon)
            #expect(states["read heartRate"] == "denied" && states["read stepCount"] == "granted", "\(states)")
            #expect(states["share stepCount"] == "notDetermined", "\(states)")
            // Skipped: still waiting.
            let list = try CLITests.healthvault(["requests", "list", "--json"], daemon: daemon)
            #expect(list.out.contains(#""share":["HKQuantityTypeIdentifierStepCount"]"#), "\(list.out)")
            await store.close()
        }

        @Test func aManifestsReasonForEachTypeIsShownBesideIt() async throws {
            let daemon = try TestDaemon()
            let root = daemon.directory.deletingLastPathComponent().path
            let policies = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("policies/apps").path
            #expect(
                try CLITests.healthvault([
                    "apps", "keygen", "--private-key", root + "/sleep.key", "--public-key", root + "/sleep.pub",
                ]).status == 0
            )
            // A reason for a type the manifest does not declare is refused, naming the key.
            let manifest = try String(contentsOfFile: policies + "/org.example.sleeptracker.json", encoding: .utf8)
            let stray = manifest.replacingOccurrences(
                of: "HKQuantityTypeIdentifierStepCount\": ",
                with: "heartRate\": "
            )
            try Data(stray.utf8).write(to: URL(fileURLWithPath: root + "/stray.json"))
            let refused = try CLITests.healthvault(
                ["apps", "enroll", root + "/stray.json", "--key", root + "/sleep.pub"],
                daemon: daemon
            )
            #expect(refused.status == 1, "\(refused)")
            #expect(
                refused.err.contains("purposes") && refused.err.contains("neither reads nor shares"),
                "\(refused.err)"
            )

            let enrolled = try CLITests.healthvault(
                ["apps", "enroll", policies + "/org.example.sleeptracker.json", "--key", root + "/sleep.pub"],
                daemon: daemon
            )
            #expect(enrolled.status == 0, "\(enrolled)")
            let why = "Your steps tell Sleep Tracker how active each day was, to set beside the night after it."
            let shown = try CLITests.healthvault(["apps", "show", "org.example.sleeptracker"], daemon: daemon)
            #expect(shown.out.contains("why stepCount  \(why)\n"), "\(shown.out)")
            let json = try CLITests.healthvault(["apps", "show", "org.example.sleeptracker", "--json"], daemon: daemon)
            #expect(
                json.out.contains(#""purposes":{"HKQuantityTypeIdentifierStepCount":"# + "\"\(why)\"}"),
                "\(json.out)"
            )

            let store = try await HealthStore(
                appID: "org.example.sleeptracker",
                keyFile: root + "/sleep.key",
                vaultDirectory: daemon.directory.path
            )
            try await store.requestAuthorization(toShare: [], read: [ObjectType(steps)])
            let review = try CLITests.healthvault(["requests", "review"], daemon: daemon)
            #expect(
                review.out.contains("  it asks:       read stepCount\n    why stepCount: \(why)\n"),
                "\(review.out)"
            )
            await store.close()
        }
    }
}
