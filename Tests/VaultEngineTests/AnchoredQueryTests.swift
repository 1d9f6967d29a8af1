import AuditLog
import Foundation
import HealthModel
import HealthModelTestSupport
import Testing
import VaultEngine

/// The anchored object query: additions and deletions since an opaque anchor, in the caller's
/// scope, page by page, with anchors that move only for what the caller may see.
@Suite struct AnchoredQueryTests {
    static let reader = "org.example.reader"
    static let writer = "org.example.writer"
    static let steps = [SampleTypePredicate(.quantity(.stepCount))]

    static func vault() async throws -> TestEngine {
        let test = try TestEngine()
        for app in [reader, writer] {
            try await test.enroll(app)
            try await test.grant(
                .share,
                .quantity(.stepCount),
                .quantity(.heartRate),
                .quantity(.bloodPressureSystolic),
                .quantity(.bloodPressureDiastolic),
                to: app
            )
        }
        return test
    }

    static func anchored(
        _ test: TestEngine,
        _ predicates: [SampleTypePredicate] = steps,
        from anchor: QueryAnchor? = nil,
        limit: Int = 0,
        as caller: Caller = .app(reader)
    ) async throws -> AnchoredObjectQueryResult {
        try await test.engine.anchoredObjects(
            matching: AnchoredObjectQueryDescriptor(predicates: predicates, anchor: anchor, limit: limit),
            as: caller
        )
    }

    static func samples(_ count: Int, from minute: Int = 0, value: Double = 100) throws -> [Sample] {
        try (minute..<minute + count).map {
            try quantitySample(value: value + Double($0), start: Fixtures.start.addingTimeInterval(Double($0) * 60))
        }
    }

    @Test func additionsAndDeletionsComeOnceInTheOrderTheyHappened() async throws {
        let test = try await Self.vault()
        try await test.grant(.read, .quantity(.stepCount), to: Self.reader)
        let saved = try Self.samples(5)
        try await test.engine.save(saved, as: .app(Self.writer))

        let first = try await Self.anchored(test)
        #expect(first.addedSamples.map(\.uuid) == saved.map(\.uuid))
        #expect(first.deletedObjects.isEmpty)
        // Nothing new: nothing returned, and the same anchor back.
        let again = try await Self.anchored(test, from: first.newAnchor)
        #expect(again.addedSamples.isEmpty && again.deletedObjects.isEmpty)
        #expect(again.newAnchor == first.newAnchor)

        // A deletion, a save, a deletion: in that order, each once.
        try await test.engine.delete([saved[1].uuid], as: .app(Self.writer))
        let later = try Self.samples(1, from: 10)
        try await test.engine.save(later, as: .app(Self.writer))
        try await test.engine.delete([saved[3].uuid], as: .owner)
        let changes = try await Self.anchored(test, from: first.newAnchor)
        #expect(changes.addedSamples.map(\.uuid) == later.map(\.uuid))
        #expect(
            changes.deletedObjects == [
                DeletedObject(uuid: saved[1].uuid, sampleType: .quantity(.stepCount)),
                DeletedObject(uuid: saved[3].uuid, sampleType: .quantity(.stepCount)),
            ]
        )
        #expect(changes.newAnchor != first.newAnchor)

        // Page by page from the start: every change once, in order, whatever the page size.
        let expected =
            [saved[0], saved[2], saved[4]].map { "+\($0.uuid)" } + ["-\(saved[1].uuid)"] + ["+\(later[0].uuid)"]
            + ["-\(saved[3].uuid)"]
        for limit in [1, 2, 4] {
            var anchor: QueryAnchor?
            var seen: [String] = []
            var pages = 0
            while true {
                let page = try await Self.anchored(test, from: anchor, limit: limit)
                let count = page.addedSamples.count + page.deletedObjects.count
                #expect(count <= limit)
                seen += page.addedSamples.map { "+\($0.uuid)" } + page.deletedObjects.map { "-\($0.uuid)" }
                anchor = page.newAnchor
                pages += 1
                if count == 0 { break }
            }
            // Within a page additions come before deletions; across pages the order holds.
            #expect(Set(seen) == Set(expected) && seen.count == expected.count, "limit \(limit)")
            #expect(pages == (expected.count + limit - 1) / limit + 1)
            #expect(anchor == changes.newAnchor, "the last page ends where the whole answer ends")
        }

        // The predicate narrows the additions; deletions go by type.
        let big = try await Self.anchored(
            test,
            [
                SampleTypePredicate(
                    .quantity(.stepCount),
                    predicate: .quantity(.greaterThanOrEqualTo, Quantity(104, .count))
                )
            ],
            from: nil
        )
        #expect(big.addedSamples.map(\.uuid) == [saved[4].uuid, later[0].uuid])
        #expect(big.deletedObjects.count == 2)

        // Audited as an anchored query of the types, counting what came back.
        let last = try #require(try test.auditEntries().last)
        #expect(last.operation == .queryAnchored && last.types == ["HKQuantityTypeIdentifierStepCount"])
        #expect(last.objectCount == 4 && last.outcome == .ok)
    }

    @Test func anchorsDoNotMoveForWritesTheCallerCannotSee() async throws {
        let test = try await Self.vault()
        try await test.grant(.read, .quantity(.heartRate), to: Self.reader)
        // The reader's own steps, which it sees without a read grant.
        let own = try Self.samples(2)
        try await test.engine.save(own, as: .app(Self.reader))
        let before = try await Self.anchored(test)
        #expect(before.addedSamples.map(\.uuid) == own.map(\.uuid))
        let beforeFromNil = try wireBytes(before)
        let emptyBefore = try wireBytes(try await Self.anchored(test, from: before.newAnchor))

        // Another app saves and deletes steps the reader may not read, and heart rate outside
        // the query; the owner deletes some of them.
        let hidden = try Self.samples(1000, from: 100)
        try await test.engine.save(hidden, as: .app(Self.writer))
        try await test.engine.delete(hidden.prefix(10).map(\.uuid), as: .app(Self.writer))
        try await test.engine.delete(hidden.suffix(10).map(\.uuid), as: .owner)
        try await test.engine.save([try quantitySample(.heartRate)], as: .app(Self.writer))

        // The very same bytes as before: the same samples, the same anchor.
        #expect(try wireBytes(try await Self.anchored(test)) == beforeFromNil)
        #expect(try wireBytes(try await Self.anchored(test, from: before.newAnchor)) == emptyBefore)

        // Its own next change moves the anchor, and only that change comes back.
        let next = try Self.samples(1, from: 5000)
        try await test.engine.save(next, as: .app(Self.reader))
        try await test.engine.delete([own[0].uuid], as: .app(Self.reader))
        let after = try await Self.anchored(test, from: before.newAnchor)
        #expect(after.addedSamples.map(\.uuid) == next.map(\.uuid))
        #expect(after.deletedObjects == [DeletedObject(uuid: own[0].uuid, sampleType: .quantity(.stepCount))])

        // Granted, it sees the others' steps from the start; revoked, they are gone again.
        try await test.grant(.read, .quantity(.stepCount), to: Self.reader)
        let granted = try await Self.anchored(test)
        #expect(granted.addedSamples.count == 1 + 980 + 1 && granted.deletedObjects.count == 21)
        try await test.engine.decide(.revoke, .read, of: [.quantity(.stepCount)], for: Self.reader)
        let revoked = try await Self.anchored(test)
        #expect(revoked.addedSamples.map(\.uuid) == [own[1].uuid, next[0].uuid])
        #expect(revoked.deletedObjects.map(\.uuid) == [own[0].uuid])
        #expect(revoked.newAnchor == after.newAnchor)
    }

    @Test func correlationsAndTheirDeletionsNeedEveryMemberType() async throws {
        let test = try await Self.vault()
        let pressure = [SampleTypePredicate(.correlation(.bloodPressure))]
        let correlation = Sample.correlation(try Fixtures.bloodPressure())
        try await test.engine.save([correlation], as: .app(Self.writer))
        try await test.engine.delete([correlation.uuid], as: .app(Self.writer))
        let kept = Sample.correlation(try Fixtures.bloodPressure(systolic: 130))
        try await test.engine.save([kept], as: .app(Self.writer))

        // Systolic alone: no correlation and no correlation deletion, only systolic samples.
        try await test.grant(.read, .quantity(.bloodPressureSystolic), to: Self.reader)
        let partial = try await Self.anchored(test, pressure)
        #expect(partial.addedSamples.isEmpty && partial.deletedObjects.isEmpty)
        let systolic = try await Self.anchored(test, [SampleTypePredicate(.quantity(.bloodPressureSystolic))])
        #expect(systolic.addedSamples.count == 1 && systolic.deletedObjects.count == 1)

        // Both member types: the correlation with its objects, and the deleted one.
        try await test.grant(.read, .quantity(.bloodPressureDiastolic), to: Self.reader)
        let whole = try await Self.anchored(test, pressure)
        #expect(whole.addedSamples.map(\.uuid) == [kept.uuid])
        if case .correlation(let found)? = whole.addedSamples.first {
            #expect(found.objects.count == 2)
        } else {
            Issue.record("a correlation was expected")
        }
        #expect(
            whole.deletedObjects == [DeletedObject(uuid: correlation.uuid, sampleType: .correlation(.bloodPressure))]
        )
    }

    @Test func anAnchorOpensOnlyForTheCallerItWasMadeFor() async throws {
        let test = try await Self.vault()
        try await test.engine.save(try Self.samples(3), as: .app(Self.reader))
        let mine = try await Self.anchored(test)

        func refusal(_ anchor: QueryAnchor, as caller: Caller = .app(Self.reader)) async -> HealthError? {
            await healthError { _ = try await Self.anchored(test, from: anchor, as: caller) }
        }
        // Another app, or the owner, cannot use it.
        for caller in [Caller.app(Self.writer), .owner] {
            let error = await refusal(mine.newAnchor, as: caller)
            #expect(error?.code == .invalidArgument && error?.field == "anchor")
        }
        // Any byte changed, a made-up token, or another vault's anchor: refused alike.
        var token = Array(mine.newAnchor.token)
        token[token.count / 2] = token[token.count / 2] == "A" ? "B" : "A"
        let other = try await Self.vault()
        let foreign = try await Self.anchored(other).newAnchor
        for anchor in [
            QueryAnchor(token: String(token)), QueryAnchor(token: "1.AAAA"), QueryAnchor(token: "3"),
            QueryAnchor(token: "1." + String(repeating: "_", count: 64)), foreign,
        ] {
            let error = await refusal(anchor)
            #expect(error?.code == .invalidArgument && error?.field == "anchor", "\(anchor)")
        }
        // The refusals are audited as failed anchored queries.
        let last = try #require(try test.auditEntries().last)
        #expect(last.operation == .queryAnchored && last.outcome == .error)
        // The real one still works.
        #expect(try await Self.anchored(test, from: mine.newAnchor).addedSamples.isEmpty)
    }
}
