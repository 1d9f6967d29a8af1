import Foundation
import HealthModel
import HealthVaultKit
import Testing
import VaultProtocol

extension DaemonEndToEnd {
    /// The anchored object query through the real daemon: HealthVaultKit's one-shot and
    /// long-running forms.
    @Suite struct DaemonQueryTests {
        static let steps = SampleType.quantity(.stepCount)

        @Test func anchoredQueriesPageAndStreamWhatTheAppMaySee() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.writer", read: [], share: [Self.steps])
            try await daemon.decide("grant", ["share"], [ObjectType(Self.steps)], for: "org.example.writer")
            try await daemon.enroll("org.example.reader", read: [ObjectType(Self.steps)], share: [])
            try await daemon.decide("grant", ["read"], [ObjectType(Self.steps)], for: "org.example.reader")
            let writer = try await daemon.store("org.example.writer")
            let reader = try await daemon.store("org.example.reader")
            let start = RFC3339.date(from: "2026-11-02T08:00:00.000Z")!
            let saved = try (0..<3).map {
                try quantity(.stepCount, Double(10 + $0), .count, at: start.addingTimeInterval(Double($0) * 60))
            }
            try await writer.save(saved)

            // One shot: everything from the start, then nothing new from its anchor.
            let query = AnchoredObjectQueryDescriptor(predicates: [SampleTypePredicate(Self.steps)])
            let all = try await query.result(for: reader)
            #expect(all.addedSamples.map(\.uuid) == saved.map(\.uuid))
            let none = try await AnchoredObjectQueryDescriptor(
                predicates: query.predicates,
                anchor: all.newAnchor
            )
            .result(for: reader)
            #expect(none.addedSamples.isEmpty && none.deletedObjects.isEmpty && none.newAnchor == all.newAnchor)

            // Long-running, two at a time: the pages up to now, then each change as it happens.
            let paged = AnchoredObjectQueryDescriptor(predicates: query.predicates, limit: 2)
            var updates = paged.results(for: reader).makeAsyncIterator()
            #expect(try await updates.next()?.addedSamples.map(\.uuid) == Array(saved.prefix(2)).map(\.uuid))
            let third = try #require(try await updates.next())
            #expect(third.addedSamples.map(\.uuid) == [saved[2].uuid])
            #expect(third.newAnchor == all.newAnchor)
            let more = try quantity(.stepCount, 99, .count, at: start.addingTimeInterval(3600))
            try await writer.save(more)
            #expect(try await updates.next()?.addedSamples.map(\.uuid) == [more.uuid])
            #expect(try await writer.delete(saved[0]) == 1)
            let deletion = try #require(try await updates.next())
            #expect(deletion.deletedObjects == [DeletedObject(uuid: saved[0].uuid, sampleType: Self.steps)])
            #expect(deletion.addedSamples.isEmpty)

            // A made-up anchor is refused as bad input, and the connection goes on serving.
            await #expect(throws: HealthError.self) {
                _ = try await AnchoredObjectQueryDescriptor(
                    predicates: query.predicates,
                    anchor: QueryAnchor(token: "1.bm90IGFuIGFuY2hvciBhdCBhbGwsIGp1c3QgdGV4dA")
                )
                .result(for: reader)
            }
            #expect(try await query.result(for: reader).addedSamples.count == 3)
            await reader.close()
            await writer.close()
        }
    }
}
