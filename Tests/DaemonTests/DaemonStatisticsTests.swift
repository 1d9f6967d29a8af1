import Foundation
import HealthModel
import HealthVaultKit
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// Statistics through the real daemon: HealthVaultKit's descriptors, the owner's source
    /// priority and time zone from the CLI, the long-running collection.
    @Suite struct DaemonStatisticsTests {
        static let steps = SampleType.quantity(.stepCount)

        @Test func badStatisticsParametersAreRefusedNamingTheirFieldAndKeepingTheRequestID() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.app", read: [ObjectType(Self.steps)], share: [Self.steps])
            let socket = try await DaemonBadInputTests.authenticated(daemon, "org.example.app")
            func collection(_ query: String) -> String {
                #"{"jsonrpc":"2.0","id":31,"method":"query.statisticsCollection","params":{"query":{"quantityType":"HKQuantityTypeIdentifierStepCount","options":["cumulativeSum"],"anchorDate":"2026-01-01T00:00:00.000Z",\#(query)}}}"#
            }
            for (query, field) in [
                (#""intervalComponents":{"day":1},"timeZone":"""#, "timeZone"),
                (#""intervalComponents":{"day":1},"timeZone":"utc""#, "timeZone"),
                (#""intervalComponents":{"day":1.5}"#, "params.query.intervalComponents"),
                (#""intervalComponents":{"hour":1e309}"#, "params.query.intervalComponents"),
                (#""intervalComponents":{"day":-1e309}"#, "params.query.intervalComponents"),
                (#""intervalComponents":{"day":"1"}"#, "params.query.intervalComponents"),
                (#""intervalComponents":{"day":-1}"#, "intervalComponents"),
            ] {
                socket.sendFrame(collection(query))
                let answer = await socket.readFrame()
                #expect(answer?["id"] as? Int == 31, "\(query)")
                let data = (answer?["error"] as? [String: Any])?["data"] as? [String: Any]
                #expect(data?["code"] as? String == "invalidArgument", "\(query): \(String(describing: answer))")
                #expect(data?["field"] as? String == field, "\(query): \(String(describing: data))")
            }
            // A value too large for statistics is refused at save, naming it (the app may share steps).
            try await daemon.decide("grant", ["share"], [ObjectType(Self.steps)], for: "org.example.app")
            socket.sendFrame(
                #"{"jsonrpc":"2.0","id":32,"method":"samples.save","params":{"objects":[{"kind":"quantity","uuid":"6B1A6F0C-1C55-4B8F-9E55-1D2B3C4D5E6F","type":"HKQuantityTypeIdentifierStepCount","quantity":{"value":1e308,"unit":"count"},"startDate":"2026-01-01T10:00:00.000Z","endDate":"2026-01-01T11:00:00.000Z","sourceRevision":{"source":{"bundleIdentifier":"org.example.app","name":"App"}}}]}}"#
            )
            let refused = await socket.readFrame()
            #expect(refused?["id"] as? Int == 32)
            let data = (refused?["error"] as? [String: Any])?["data"] as? [String: Any]
            #expect(data?["code"] as? String == "invalidArgument", "\(String(describing: refused))")
            #expect(
                data?["field"] as? String == "params.objects[0].quantity.value",
                "\(String(describing: data))"
            )
            // A number JSON allows but a double cannot hold is named too, with its text (Foundation's
            // decoder calls the whole text "not valid JSON").
            for (value, metadata, field) in [
                ("1e400", "{}", "params.objects[0].quantity.value"),
                ("12", #"{"org.example.a":1,"org.example.far":-2E+999}"#, "params.objects[0].metadata.org.example.far"),
                // Not a metadata value at all: said what one is.
                ("12", #"{"org.example.none":null}"#, "params.objects[0].metadata.org.example.none"),
                ("12", #"{"org.example.list":[1,2]}"#, "params.objects[0].metadata.org.example.list"),
            ] {
                socket.sendFrame(
                    #"{"jsonrpc":"2.0","id":33,"method":"samples.save","params":{"objects":[{"uuid":"6B1A6F0C-1C55-4B8F-9E55-1D2B3C4D5E70","type":"HKQuantityTypeIdentifierStepCount","quantity":{"value":\#(value),"unit":"count"},"startDate":"2026-01-01T10:00:00.000Z","endDate":"2026-01-01T11:00:00.000Z","metadata":\#(metadata),"sourceRevision":{"source":{"bundleIdentifier":"org.example.app","name":"App"}}}]}}"#
                )
                let beyond = await socket.readFrame()
                #expect(beyond?["id"] as? Int == 33)
                let error = beyond?["error"] as? [String: Any]
                #expect(error?["code"] as? Int == -32602, "\(String(describing: beyond))")
                let detail = error?["data"] as? [String: Any]
                #expect(detail?["field"] as? String == field, "\(String(describing: detail))")
                let expected =
                    metadata.contains("null") || metadata.contains("[") ? "a metadata value is" : "range of a double"
                #expect((detail?["message"] as? String)?.contains(expected) == true, "\(String(describing: detail))")
            }
            #expect(daemon.stop() == 0)
        }

        @Test func theOwnersTimeZoneKeepsTheNameTheOwnerGave() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.app", read: [ObjectType(Self.steps)], share: [Self.steps])
            try await daemon.decide("grant", ["share", "read"], [ObjectType(Self.steps)], for: "org.example.app")
            let set = try CLITests.healthvault(["timezone", "UTC"], daemon: daemon)
            #expect(set.out == "Time zone: UTC\n", "\(set)")
            #expect(try CLITests.healthvault(["timezone"], daemon: daemon).out == "Time zone: UTC\n")
            let app = try await daemon.store("org.example.app")
            let noon = RFC3339.date(from: "2026-03-01T12:00:00.000Z")!
            try await app.save(try quantity(.stepCount, 10, .count, at: noon, minutes: 10))
            for zone in [nil, "UTC"] {
                let collection = try await StatisticsCollectionQueryDescriptor(
                    quantityType: .stepCount,
                    options: [.cumulativeSum],
                    anchorDate: noon,
                    intervalComponents: IntervalComponents(day: 1),
                    timeZone: zone
                ).result(for: app)
                #expect(collection.timeZone == "UTC", "\(String(describing: zone))")
                #expect(collection.statistics.count == 1)
            }
            #expect(daemon.stop() == 0)
        }

        @Test func statisticsMergeSourcesByTheOwnersPriority() async throws {
            let daemon = try TestDaemon()
            for app in ["org.example.phone", "org.example.watch"] {
                try await daemon.enroll(app, read: [ObjectType(Self.steps)], share: [Self.steps])
                try await daemon.decide("grant", ["share"], [ObjectType(Self.steps)], for: app)
            }
            try await daemon.enroll("org.example.reader", read: [ObjectType(Self.steps)], share: [])
            try await daemon.decide("grant", ["read"], [ObjectType(Self.steps)], for: "org.example.reader")
            #expect(
                try CLITests.healthvault(["timezone", "Europe/Paris"], daemon: daemon).out
                    == "Time zone: Europe/Paris\n"
            )

            // Both count 10:00-11:00 Paris time on 2026-10-24; the watch also 23:30-00:30.
            let morning = RFC3339.date(from: "2026-10-24T10:00:00.000+02:00")!
            let phone = try await daemon.store("org.example.phone")
            let watch = try await daemon.store("org.example.watch")
            try await phone.save(try quantity(.stepCount, 1000, .count, at: morning, minutes: 60))
            try await watch.save(try quantity(.stepCount, 800, .count, at: morning, minutes: 60))
            try await watch.save(
                try quantity(.stepCount, 100, .count, at: morning.addingTimeInterval(13.5 * 3600), minutes: 60)
            )

            let reader = try await daemon.store("org.example.reader")
            let sum = StatisticsQueryDescriptor(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource])
            // Default priority: the phone saved first.
            var statistics = try #require(try await sum.result(for: reader))
            #expect(statistics.sumQuantity() == Quantity(1100, .count))
            #expect(statistics.sources.map(\.bundleIdentifier) == ["org.example.phone", "org.example.watch"])

            let set = try CLITests.healthvault(["priority", "set", "stepCount", "org.example.watch"], daemon: daemon)
            #expect(set.status == 0, "\(set.err)")
            let shown = try CLITests.healthvault(["priority"], daemon: daemon)
            #expect(
                shown.out.contains(
                    "HKQuantityTypeIdentifierStepCount  org.example.watch (then the rest, oldest first)"
                ),
                "\(shown)"
            )
            statistics = try #require(try await sum.result(for: reader))
            #expect(statistics.sumQuantity() == Quantity(900, .count))
            #expect(statistics.sumQuantity(for: statistics.valuesBySource[0].source) == Quantity(1000, .count))

            // Days in the owner's zone: the late sample is split at Paris midnight.
            let daily = StatisticsCollectionQueryDescriptor(
                quantityType: .stepCount,
                options: [.cumulativeSum],
                anchorDate: RFC3339.date(from: "2026-10-01T00:00:00.000+02:00")!,
                intervalComponents: IntervalComponents(day: 1)
            )
            let collection = try await daily.result(for: reader)
            #expect(collection.timeZone == "Europe/Paris")
            #expect(collection.statistics.map { $0.sumQuantity() } == [Quantity(850, .count), Quantity(50, .count)])

            // The CLI shows the same days.
            let stats = try CLITests.healthvault(["stats", "stepCount"], daemon: daemon)
            #expect(stats.status == 0)
            #expect(stats.out.contains("2026-10-24  sum 850  [org.example.watch]"), "\(stats.out)")
            #expect(stats.out.contains("2026-10-25  sum 50  [org.example.watch]"), "\(stats.out)")

            // The long-running form: the collection now, and again after another save.
            var updates = daily.results(for: reader).makeAsyncIterator()
            #expect(try await updates.next()?.statistics.count == 2)
            try await phone.save(
                try quantity(.stepCount, 7, .count, at: morning.addingTimeInterval(86_400 * 3), minutes: 10)
            )
            let updated = try #require(try await updates.next())
            #expect(updated.statistics.count == 3)

            // Reset: the default order again, the phone first.
            #expect(try CLITests.healthvault(["priority", "reset", "stepCount"], daemon: daemon).status == 0)
            #expect(try CLITests.healthvault(["priority"], daemon: daemon).out.hasPrefix("Default order"))
            #expect(try await sum.result(for: reader)?.sumQuantity() == Quantity(1107, .count))

            for store in [phone, watch, reader] { await store.close() }
        }
    }
}
