import Foundation
import HealthModel
import HealthModelTestSupport
import HealthVaultKit
import Testing
import VaultClient
import VaultProtocol

extension DaemonEndToEnd {
    /// The app's side end to end: the real daemon, HealthVaultKit, the owner's decisions over the
    /// owner channel.
    @Suite struct DaemonFlowTests {
        @Test func authorizationFlowSaveQueryDeleteAndRevocation() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll(
                "org.example.counter",
                read: [ObjectType(steps), ObjectType(heartRate)],
                share: [steps, heartRate]
            )
            let store = try await daemon.store("org.example.counter")
            #expect(HealthStore.isHealthDataAvailable(vaultDirectory: daemon.directory.path))

            let share: Set<SampleType> = [steps, heartRate]
            let read: Set<ObjectType> = [ObjectType(steps), ObjectType(heartRate)]
            #expect(try await store.statusForAuthorizationRequest(toShare: share, read: read) == .shouldRequest)
            try await store.requestAuthorization(toShare: share, read: read)
            #expect(try await store.authorizationStatus(for: ObjectType(steps)) == .notDetermined)

            // The owner sees the request and grants steps only.
            let pending = try await daemon.ownerCall(
                Method.requestsList,
                RequestsListParams(app: nil),
                as: RequestsResult.self
            )
            #expect(pending.requests.count == 1)
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.counter")
            try await daemon.decide("deny", ["read", "share"], [ObjectType(heartRate)], for: "org.example.counter")
            #expect(try await store.statusForAuthorizationRequest(toShare: share, read: read) == .unnecessary)
            #expect(try await store.authorizationStatus(for: ObjectType(steps)) == .sharingAuthorized)
            #expect(try await store.authorizationStatus(for: ObjectType(heartRate)) == .sharingDenied)

            // Saving: granted types go in, attributed to the app; a batch with a denied type saves nothing.
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let saved = try (0..<10).map {
                try quantity(.stepCount, Double(100 + $0), .count, at: start.addingTimeInterval(Double($0) * 60))
            }
            try await store.save(saved)
            await #expect(throws: HealthError.self) {
                try await store.save([
                    try quantity(.stepCount, 1, .count, at: start),
                    try quantity(.heartRate, 60, .countPerMinute, at: start, minutes: 0),
                ])
            }
            let query = SampleQueryDescriptor(
                predicates: [SampleTypePredicate(steps)],
                sortDescriptors: [SampleSortDescriptor(.startDate)]
            )
            let found = try await query.result(for: store)
            #expect(found.map(\.uuid) == saved.map(\.uuid))
            #expect(found.allSatisfy { $0.sourceRevision.source.bundleIdentifier == "org.example.counter" })
            #expect(try await store.object(uuid: saved[0].uuid)?.uuid == saved[0].uuid)

            // Deleting its own: by object, and by predicate.
            #expect(try await store.delete(found[0]) == 1)
            #expect(
                try await store.deleteObjects(
                    of: steps,
                    predicate: .date(start: start, end: start.addingTimeInterval(300), options: [])
                ) == 4
            )
            #expect(try await query.result(for: store).count == 5)

            // Revocation takes effect on the next request.
            try await daemon.decide("revoke", ["share"], [ObjectType(steps)], for: "org.example.counter")
            do {
                try await store.save(try quantity(.stepCount, 1, .count, at: start))
                Issue.record("a save after the revocation went through")
            } catch let error as HealthError {
                #expect(error.code == .authorizationDenied)
            }
            #expect(try await store.authorizationStatus(for: ObjectType(steps)) == .sharingDenied)
            await store.close()
            #expect(daemon.stop() == 0)
        }

        /// A read the owner has not granted, or has denied or revoked, is answered with the same
        /// bytes as a read of a vault that holds none of that type, for every kind of read there is.
        @Test func deniedReadsAreByteIdenticalToAnEmptyVault() async throws {
            let daemon = try TestDaemon()
            let pressure: [SampleType] = [.quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic)]
            // The kinds of issue 19 too: state of mind ... heartbeat series.
            let kinds = Fixtures.sampleKindTypes
            try await daemon.enroll("org.example.writer", read: [ObjectType(steps)], share: [steps] + pressure + kinds)
            try await daemon.enroll(
                "org.example.reader",
                read: [ObjectType(steps), .characteristic(.biologicalSex)] + kinds.map(ObjectType.init),
                share: [sleepAnalysis]
            )
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.writer")
            try await daemon.decide(
                "grant",
                ["share"],
                (pressure + kinds).map(ObjectType.init),
                for: "org.example.writer"
            )

            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let probe = UUID()
            let query = SampleQueryParams(
                query: SampleQueryDescriptor(
                    predicates: [
                        SampleTypePredicate(
                            steps,
                            predicate: .date(start: start, end: start.addingTimeInterval(86_400), options: [])
                        )
                    ],
                    sortDescriptors: [SampleSortDescriptor(.startDate)],
                    limit: 50
                )
            )

            /// A sleep sample under `uuid`, for saves that collide with a stored UUID.
            func sleep(_ uuid: UUID) throws -> Sample {
                .category(
                    try CategorySample(
                        uuid: uuid,
                        type: .sleepAnalysis,
                        value: 0,
                        start: start,
                        end: start.addingTimeInterval(3600),
                        sourceRevision: SourceRevision(source: Source(bundleIdentifier: "ignored", name: "ignored"))
                    )
                )
            }

            /// Every read, each as the first... nth call of a fresh connection, so ids match, and
            /// a save under a UUID the vault holds (`colliding`).
            func answers(
                _ appID: String,
                deleting target: UUID,
                colliding: UUID,
                kinds probes: [UUID] = Fixtures.sampleKindTypes.map { _ in UUID() }
            ) async throws -> [Data] {
                let connection = try await daemon.connection(appID)
                defer { connection.close() }
                return try await [

                    try await connection.rawCall(Method.querySamples, query),
                    try await connection.rawCall(Method.queryObject, ObjectParams(uuid: target)),
                    try await connection.rawCall(Method.characteristic, CharacteristicParams(type: .biologicalSex)),
                    try await connection.rawCall(Method.delete, DeleteParams(uuids: [target])),
                    try await connection.rawCall(
                        Method.querySources,
                        SourceQueryParams(query: SourceQueryDescriptor(sampleType: steps))
                    ),
                    try await connection.rawCall(
                        Method.queryStatistics,
                        StatisticsQueryParams(
                            query: StatisticsQueryDescriptor(
                                quantityType: .stepCount,
                                options: [.cumulativeSum, .separateBySource, .duration]
                            )
                        )
                    ),
                    try await connection.rawCall(
                        Method.queryStatisticsCollection,
                        StatisticsCollectionQueryParams(
                            query: StatisticsCollectionQueryDescriptor(
                                quantityType: .stepCount,
                                options: [.cumulativeSum, .separateBySource],
                                anchorDate: start,
                                intervalComponents: IntervalComponents(hour: 1)
                            )
                        )
                    ),
                    try await connection.rawCall(
                        Method.queryAnchored,
                        AnchoredQueryParams(
                            query: AnchoredObjectQueryDescriptor(predicates: [SampleTypePredicate(steps)])
                        )
                    ),
                    try await connection.rawCall(
                        Method.queryCorrelations,
                        CorrelationQueryParams(query: CorrelationQueryDescriptor(type: .bloodPressure))
                    ),
                    // The client throws an error answer: its `error` member, every field as sent.
                    try await {
                        do {
                            return try await connection.rawCall(
                                Method.save,
                                SaveParams(objects: [try sleep(colliding)])
                            )
                        } catch let error as RPCError {
                            return try HealthJSON.encode(error)
                        }
                    }(),
                ] + kindAnswers(connection, probing: probes)
            }
            /// Every read of the kinds of issue 19, and deletes, of `probes` (UUIDs of each kind).
            func kindAnswers(_ connection: VaultConnection, probing probes: [UUID]) async throws -> [Data] {
                var answers: [Data] = []
                for type in kinds {
                    let query = SampleQueryDescriptor(
                        predicates: [SampleTypePredicate(type)],
                        sortDescriptors: [SampleSortDescriptor(.startDate)]
                    )
                    answers.append(try await connection.rawCall(Method.querySamples, SampleQueryParams(query: query)))
                    answers.append(
                        try await connection.rawCall(
                            Method.querySources,
                            SourceQueryParams(query: SourceQueryDescriptor(sampleType: type))
                        )
                    )
                }
                answers.append(
                    try await connection.rawCall(
                        Method.queryAnchored,
                        AnchoredQueryParams(
                            query: AnchoredObjectQueryDescriptor(predicates: kinds.map { SampleTypePredicate($0) })
                        )
                    )
                )
                for probe in probes {
                    answers.append(try await connection.rawCall(Method.queryObject, ObjectParams(uuid: probe)))
                    answers.append(
                        try await connection.rawCall(Method.queryElectrocardiogram, SeriesQueryParams(uuid: probe))
                    )
                    answers.append(
                        try await connection.rawCall(Method.queryHeartbeatSeries, SeriesQueryParams(uuid: probe))
                    )
                }
                answers.append(try await connection.rawCall(Method.delete, DeleteParams(uuids: probes)))
                return answers
            }
            /// The answers with each anchor blanked: anchors are sealed for their app, so two
            /// apps' are compared by everything else.
            func withoutAnchors(_ answers: [Data]) -> [String] {
                answers.map {
                    String(decoding: $0, as: UTF8.self).replacingOccurrences(
                        of: #""newAnchor":"[^"]*""#,
                        with: #""newAnchor":"?""#,
                        options: .regularExpression
                    )
                }
            }

            // The empty vault, read by an app that may read everything it asks for.
            try await daemon.decide(
                "grant",
                ["read"],
                [ObjectType(steps), .characteristic(.biologicalSex)] + kinds.map(ObjectType.init),
                for: "org.example.reader"
            )
            // The reader's own sleep sample: in the empty vault, its save under a stored UUID
            // collides with it.
            try await daemon.decide("grant", ["share"], [ObjectType(sleepAnalysis)], for: "org.example.reader")
            let own = try sleep(UUID())
            let ownStore = try await daemon.store("org.example.reader")
            try await ownStore.save(own)
            await ownStore.close()
            let empty = try await answers("org.example.reader", deleting: probe, colliding: own.uuid)
            // (id 1 was the connection's authenticate.)
            let texts = empty.map { String(decoding: $0, as: UTF8.self) }
            #expect(texts[0] == #"{"id":2,"jsonrpc":"2.0","result":{"samples":[]}}"#)
            #expect(texts[1] == #"{"id":3,"jsonrpc":"2.0","result":{}}"#)
            #expect(texts[2] == #"{"id":4,"jsonrpc":"2.0","result":{}}"#)
            #expect(texts[3] == #"{"id":5,"jsonrpc":"2.0","result":{"deleted":0}}"#)
            #expect(texts[4] == #"{"id":6,"jsonrpc":"2.0","result":{"sources":[]}}"#)
            #expect(texts[5] == #"{"id":7,"jsonrpc":"2.0","result":{"statistics":null}}"#)
            #expect(texts[6].contains(#""statistics":[]"#), "\(texts[6])")
            #expect(
                texts[7].hasPrefix(
                    #"{"id":9,"jsonrpc":"2.0","result":{"addedSamples":[],"deletedObjects":[],"newAnchor":"1."#
                ),
                "\(texts[7])"
            )
            #expect(texts[8] == #"{"id":10,"jsonrpc":"2.0","result":{"correlations":[]}}"#)
            #expect(texts[9].contains(#""field":"uuid""#), "\(texts[9])")
            #expect(texts[9].contains("already names an object"), "\(texts[9])")
            #expect(texts[10] == #"{"id":12,"jsonrpc":"2.0","result":{"samples":[]}}"#)
            #expect(texts.suffix(1) == [#"{"id":\#(texts.count + 1),"jsonrpc":"2.0","result":{"deleted":0}}"#])
            #expect(texts.filter { $0.hasSuffix(#""result":{}}"#) }.count == 2 + 3 * kinds.count)
            try await daemon.decide(
                "revoke",
                ["read"],
                [ObjectType(steps), .characteristic(.biologicalSex)] + kinds.map(ObjectType.init),
                for: "org.example.reader"
            )

            // Now the vault holds the writer's steps and the owner's characteristic.
            let writer = try await daemon.store("org.example.writer")
            let saved = try (0..<200).map {
                try quantity(.stepCount, Double($0), .count, at: start.addingTimeInterval(Double($0) * 60))
            }
            try await writer.save(saved)
            try await writer.save(.correlation(try Fixtures.bloodPressure()))
            let hiddenKinds = try Fixtures.sampleKinds()
            try await writer.save(hiddenKinds)
            let probes = hiddenKinds.map(\.uuid)
            try await daemon.ownerCall(
                Method.profileSet,
                ProfileSetParams(value: .biologicalSex(.female)),
                as: Empty.self
            )

            // Revoked, then denied, then never decided (a third app): the same bytes every time.
            let revoked = try await answers(
                "org.example.reader",
                deleting: saved[100].uuid,
                colliding: saved[110].uuid,
                kinds: probes
            )
            #expect(revoked == empty)
            try await daemon.decide(
                "deny",
                ["read"],
                [ObjectType(steps), .characteristic(.biologicalSex)] + kinds.map(ObjectType.init),
                for: "org.example.reader"
            )
            #expect(
                try await answers(
                    "org.example.reader",
                    deleting: saved[101].uuid,
                    colliding: saved[111].uuid,
                    kinds: probes
                ) == empty
            )
            try await daemon.enroll("org.example.third", read: [ObjectType(steps)], share: [sleepAnalysis])
            try await daemon.decide("grant", ["share"], [ObjectType(sleepAnalysis)], for: "org.example.third")
            let third = try await answers(
                "org.example.third",
                deleting: saved[102].uuid,
                colliding: saved[112].uuid,
                kinds: probes
            )
            #expect(withoutAnchors(third) == withoutAnchors(empty))

            // Nothing was deleted, and a granted reader sees the data.
            try await daemon.decide("grant", ["read"], [ObjectType(steps)], for: "org.example.reader")
            let reader = try await daemon.store("org.example.reader")
            #expect(try await reader.samples(matching: query.query).count == 50)
            #expect(
                try await writer.samples(matching: SampleQueryDescriptor(predicates: [SampleTypePredicate(steps)]))
                    .count
                    == 200
            )
            // The writer's series are whole: nothing was deleted, and a granted reader reads them.
            try await daemon.decide("grant", ["read"], [.electrocardiogram], for: "org.example.reader")
            #expect(try await reader.voltageMeasurements(of: probes[3])?.points.count == 10_000)
            #expect(try await writer.heartbeats(of: probes[5])?.points.count == 1000)
            await reader.close()
            await writer.close()
        }

        /// Removing an app ends its connections: re-enrolled with a new key, its old key's
        /// connection is gone rather than served as the new enrolment.
        @Test func removingAnAppEndsItsConnections() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            let old = try await daemon.store("org.example.app")
            #expect(try await old.authorizationStatus(for: ObjectType(steps)) == .notDetermined)
            try await daemon.ownerCall(Method.appsRemove, AppParams(app: "org.example.app"), as: Empty.self)
            try await daemon.enroll("org.example.app", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["share"], [ObjectType(steps)], for: "org.example.app")
            do {
                _ = try await old.authorizationStatus(for: ObjectType(steps))
                Issue.record("the removed enrolment's connection was still served")
            } catch let error as HealthError {
                #expect(error.code == .healthDataUnavailable)
            }
            let renewed = try await daemon.store("org.example.app")
            #expect(try await renewed.authorizationStatus(for: ObjectType(steps)) == .sharingAuthorized)
            await renewed.close()
        }

        @Test func subscriptionsFollowGrantsAndFrequency() async throws {
            let daemon = try TestDaemon()
            try await daemon.enroll("org.example.writer", read: [], share: [steps])
            try await daemon.enroll("org.example.watcher", read: [ObjectType(steps)], share: [steps])
            try await daemon.decide("grant", ["share"], [ObjectType(steps)], for: "org.example.writer")
            try await daemon.decide("grant", ["read", "share"], [ObjectType(steps)], for: "org.example.watcher")
            let writer = try await daemon.store("org.example.writer")
            let watcher = try await daemon.store("org.example.watcher")

            let observer = try await watcher.observe([steps])
            let updates = Updates(observer.updates)
            let now = Date()
            try await writer.save(try quantity(.stepCount, 10, .count, at: now.addingTimeInterval(-600)))
            #expect(try await updates.next(within: 5)?.types == [steps])

            // Revoked: another app's writes are no longer announced; the watcher's own still are.
            try await daemon.decide("revoke", ["read"], [ObjectType(steps)], for: "org.example.watcher")
            try await writer.save(try quantity(.stepCount, 11, .count, at: now.addingTimeInterval(-500)))
            #expect(try await updates.next(within: 1) == nil)
            try await watcher.save(try quantity(.stepCount, 12, .count, at: now.addingTimeInterval(-400)))
            #expect(try await updates.next(within: 5)?.types == [steps])
            try await observer.stop()
            #expect(try await updates.next(within: 2) == nil)

            // Hourly: the first change at once, later ones within the hour held back and merged.
            let hourly = try await watcher.observe([steps], frequency: .hourly)
            let hourlyUpdates = Updates(hourly.updates)
            try await watcher.save(try quantity(.stepCount, 13, .count, at: now.addingTimeInterval(-300)))
            #expect(try await hourlyUpdates.next(within: 5)?.types == [steps])
            try await watcher.save(try quantity(.stepCount, 14, .count, at: now.addingTimeInterval(-200)))
            #expect(try await hourlyUpdates.next(within: 1) == nil)
            try await hourly.stop()

            let subscribes = try await daemon.auditEntries(operation: "subscribe")
            let unsubscribes = try await daemon.auditEntries(operation: "unsubscribe")
            #expect(subscribes.count == 2 && unsubscribes.count == 2)
            await writer.close()
            await watcher.close()
        }
    }
}

/// Collects an observer's updates as they arrive, and hands them out with a time limit.
final class Updates: @unchecked Sendable {
    private var received: [ObserverQuery.Update] = []
    private let lock = NSLock()
    private var pump: Task<Void, Never>?

    init(_ updates: ObserverQuery.Updates) {
        pump = Task { [weak self] in
            for await update in updates {
                guard let self else { return }
                self.lock.withLock { self.received.append(update) }
            }
        }
    }

    deinit { pump?.cancel() }

    /// The next update, or nil if none arrives within `seconds`.
    func next(within seconds: Double) async throws -> ObserverQuery.Update? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let update = lock.withLock({ received.isEmpty ? nil : received.removeFirst() }) { return update }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
