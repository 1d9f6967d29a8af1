public import Foundation
public import HealthInterchange
public import HealthModel
import VaultStore

extension VaultEngine {
    /// The most route locations one import batch holds (about 20 MB in memory).
    static let maximumBatchLocations = 200_000
    /// The largest GPX file an import reads (a day-long route is a few megabytes).
    static let maximumGPXFileSize = 256 << 20

    /// Imports an Apple Health `export.xml` into the vault as the owner (docs/APPLE_HEALTH_IMPORT.md):
    /// read as a stream, stored in batches of `batchSize` (each a transaction with its
    /// `vault.import` entry), every record under its source's import identity and this vault's
    /// content UUID, so importing the same file again adds nothing and a newer export adds only
    /// what is new. A file cut short is refused before anything is stored, saying where it stops,
    /// unless `acceptTruncated` (then what precedes the cut is imported and the summary says
    /// where it stopped). `progress` is called after each batch with the reader's progress.
    ///
    /// When `stopRequested` says so (the owner's connection ended: Ctrl-C), the import stops
    /// after the batch being stored, throwing `userCanceled`: every batch is whole (a
    /// correlation with its members, a workout with its routes), and importing the export again
    /// adds what is missing.
    public func importAppleHealth(
        at url: URL,
        acceptTruncated: Bool = false,
        batchSize: Int = 10_000,
        requestID: String = "",
        stopRequested: @Sendable () -> Bool = { false },
        progress: @Sendable (AppleHealthReader.Progress) -> Void = { _ in }
    ) async throws -> AppleHealthImportSummary {
        guard (1...Self.maximumBatchSize).contains(batchSize) else {
            throw HealthError.invalidArgument("a batch holds 1 to \(Self.maximumBatchSize) records", field: "batchSize")
        }
        let export = try AppleHealthExport(at: url)
        // A zip is inflated through once first, so a damaged one is refused before anything is
        // stored; a file cut short is found before anything is stored too.
        let whole = try export.endsWithEndTag()
        if !acceptTruncated, !whole, let cut = try Self.truncation(of: export) { throw cut }
        var summary = AppleHealthImportSummary()
        summary.xml = export.form == .zip ? export.xmlPath : URL(fileURLWithPath: export.xmlPath).lastPathComponent
        for (kind, count) in export.unreadFiles { summary.unsupported[kind, default: 0] += count }
        let reader = try export.reader()

        typealias RouteItem = (route: ImportedRoute, source: String)
        // What a batch's tally needs is kept apart from its samples (its UUIDs, types and
        // sources), so a stored batch's samples are freed.
        typealias Tally = (uuid: UUID, type: SampleType, source: String)
        var batch: [Sample] = []
        var batchTally: [Tally] = []
        var batchRoutes: [RouteItem] = []
        var batchLocations = 0
        // The goals of each day the export's activity summaries give (a few thousand days).
        var goalsByDay: [String: ActivityGoals] = [:]

        // A batch is stored while the next is read: reading and converting on one core, storing
        // on the other; batches commit in order, one at a time. (Letting a second batch wait
        // behind the one being stored, chained to it, gained 3% on a 1,000,000-record import and
        // held a third batch in memory.)
        var inFlight: [(task: Task<ImportSorting, any Error>, tally: [Tally])] = []
        func settleOldest() async throws {
            guard !inFlight.isEmpty else { return }
            let (task, items) = inFlight.removeFirst()
            let sorting = try await task.value
            summary.batches += 1
            func count(_ item: Tally, _ field: WritableKeyPath<AppleHealthImportSummary.Counts, Int>, _ n: Int) {
                summary.byType[item.type.identifier, default: .init()][keyPath: field] += n
                summary.bySource[item.source, default: .init()][keyPath: field] += n
            }
            // Every object counted as imported, a run of one type from one source at a time (a
            // file is mostly long runs)...
            var start = 0
            while start < items.count {
                var end = start + 1
                while end < items.count, items[end].type == items[start].type, items[end].source == items[start].source
                {
                    end += 1
                }
                count(items[start], \.imported, end - start)
                start = end
            }
            // ...then each one not stored moved to its column.
            let passedOver: [([UUID], WritableKeyPath<AppleHealthImportSummary.Counts, Int>)] = [
                (sorting.alreadyPresent, \.alreadyPresent), (sorting.deletedBefore, \.deletedBefore),
                (sorting.repeated, \.repeated),
            ]
            if passedOver.contains(where: { !$0.0.isEmpty }) {
                let byUUID = Dictionary(items.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
                for (uuids, field) in passedOver {
                    for uuid in uuids {
                        guard let item = byUUID[uuid] else { continue }
                        count(item, \.imported, -1)
                        count(item, field, 1)
                    }
                }
            }
            progress(reader.progress)
        }
        func settle() async throws {
            while !inFlight.isEmpty { try await settleOldest() }
        }
        func store() async throws {
            try await settle()
            if stopRequested() {
                try await settle()
                throw HealthError(
                    .userCanceled,
                    "the import stopped after \(summary.batches) whole batches; import the export again to add the rest"
                )
            }
            guard !batch.isEmpty || !batchRoutes.isEmpty else { return }
            let samples = batch
            let routes = batchRoutes.map(\.route)
            // Routes are tallied as samples (their row is one).
            let items = batchTally + batchRoutes.map { ($0.route.route.uuid, SampleType.workoutRoute, $0.source) }
            inFlight.append(
                (Task { [self] in try await importSamples(samples, routes: routes, requestID: requestID) }, items)
            )
            batch = []
            batch.reserveCapacity(batchSize)
            batchTally.removeAll(keepingCapacity: true)
            batchRoutes.removeAll(keepingCapacity: true)
            batchLocations = 0
        }
        /// A batch is full at `batchSize` objects, or at `maximumBatchLocations` route locations
        /// (a run of long workouts' routes would otherwise fill memory).
        func storeIfFull() async throws {
            if batch.count + batchRoutes.count >= batchSize || batchLocations >= Self.maximumBatchLocations {
                try await store()
            }
        }
        /// An object no answer could carry (``checkAnswerable(_:)``) is skipped, with its reason.
        func checkImportable(_ sample: Sample) throws {
            guard (try? Self.answerBytes(of: sample)).map({ $0 <= largestObjectJSONBytes }) ?? false else {
                throw HealthError(
                    .dataSizeExceeded,
                    "larger than an answer may hold for one object (\(largestObjectJSONBytes) bytes of JSON)"
                )
            }
        }
        func append(_ sample: Sample, uuid: UUID, source: String) {
            batch.append(sample)
            batchTally.append((uuid, sample.sampleType, source))
        }
        func add(_ sample: Sample, uuid: UUID, source: String) async throws {
            append(sample, uuid: uuid, source: source)
            try await storeIfFull()
        }
        func skip(_ type: String, _ source: String?, _ reason: String) {
            summary.byType[type, default: .init()].skipped += 1
            if let source { summary.bySource[source, default: .init()].skipped += 1 }
            summary.skipped["\(type): \(reason)", default: 0] += 1
        }
        func source(_ name: String) -> Source { Self.importSource(origin: "apple-health", name: name) }
        /// A workout's routes, each from its GPX files, in the workout's batch.
        func addRoutes(of workout: AppleHealthWorkout, uuid workoutUUID: UUID) async throws {
            for route in workout.routes {
                let name = route.sourceName ?? workout.sourceName
                do {
                    var track = GPXTrack([])
                    for reference in route.fileReferences {
                        guard let bytes = try export.contents(of: reference, maximumSize: Self.maximumGPXFileSize)
                        else {
                            throw HealthError.invalidArgument(
                                "its GPX file is not in the export",
                                field: "fileReferences"
                            )
                        }
                        let part = GPXTrack(bytes)
                        track.locations += part.locations
                        track.skipped += part.skipped
                    }
                    track.locations.sort { $0.timestamp < $1.timestamp }
                    summary.routeLocationsSkipped += track.skipped
                    guard track.locations.count <= SampleStore.maximumRouteLocations else {
                        throw HealthError.invalidArgument(
                            "more than \(SampleStore.maximumRouteLocations) locations",
                            field: "fileReferences"
                        )
                    }
                    let routeSource = source(name)
                    let uuid = try importUUID(for: route.identity(in: workout).bytes)
                    let sample = try route.route(uuid: uuid, source: routeSource, track: track, in: workout)
                    batchRoutes.append(
                        (ImportedRoute(route: sample, locations: track.locations, workout: workoutUUID), name)
                    )
                    batchLocations += track.locations.count
                } catch let error as HealthError {
                    skip(ObjectType.workoutRouteTypeIdentifier, name, error.message)
                } catch let error as AppleHealthReadError {
                    skip(ObjectType.workoutRouteTypeIdentifier, name, error.message)
                }
            }
            try await storeIfFull()
        }

        do {
            while let item = try reader.next() {
                switch item {
                case .record(let record):
                    do {
                        let uuid = try importUUID(for: record.identity.bytes)
                        let sample = try record.sample(uuid: uuid, source: source(record.sourceName))
                        try checkImportable(sample)
                        try await add(sample, uuid: uuid, source: record.sourceName)
                    } catch let error as HealthError {
                        skip(record.type, record.sourceName, error.message)
                        continue
                    }
                    // A heart rate variability reading's beat-to-beat list: a heartbeat series.
                    guard !record.instantaneousBeatsPerMinute.isEmpty else { continue }
                    do {
                        let uuid = try importUUID(for: record.heartbeatSeriesIdentity.bytes)
                        if let series = try record.heartbeatSeries(uuid: uuid, source: source(record.sourceName)) {
                            try checkImportable(.heartbeatSeries(series))
                            try await add(.heartbeatSeries(series), uuid: uuid, source: record.sourceName)
                        }
                    } catch let error as HealthError {
                        skip(ObjectType.heartbeatSeriesTypeIdentifier, record.sourceName, error.message)
                    }
                case .correlation(let correlation):
                    do {
                        let members = try correlation.records.map { try importUUID(for: $0.identity.bytes) }
                        let uuid = try importUUID(for: correlation.identity.bytes)
                        let sample = try correlation.sample(
                            uuid: uuid,
                            memberUUIDs: members,
                            source: source(correlation.sourceName)
                        )
                        try checkImportable(sample)
                        try await add(sample, uuid: uuid, source: correlation.sourceName)
                    } catch let error as HealthError {
                        skip(correlation.type, correlation.sourceName, error.message)
                    }
                case .workout(let workout):
                    do {
                        let uuid = try importUUID(for: workout.identity.bytes)
                        let sample = try workout.sample(uuid: uuid, source: source(workout.sourceName))
                        try checkImportable(sample)
                        append(sample, uuid: uuid, source: workout.sourceName)
                        try await addRoutes(of: workout, uuid: uuid)
                    } catch let error as HealthError {
                        skip(ObjectType.workoutTypeIdentifier, workout.sourceName, error.message)
                        for _ in workout.routes {
                            skip(ObjectType.workoutRouteTypeIdentifier, workout.sourceName, "its workout was skipped")
                        }
                    }
                case .activitySummary(let activity):
                    summary.activitySummaries += 1
                    if let day = activity.dateComponents, let goals = try? activity.goals() {
                        goalsByDay[day] = goals
                    }
                case .me(let me):
                    // Only what the vault does not hold yet: a re-import never undoes the owner's
                    // own correction of a characteristic.
                    for value in me.characteristics()
                    where try await characteristic(value.type, as: .owner, requestID: requestID) == nil {
                        try await setCharacteristic(value, requestID: requestID)
                        summary.characteristics += 1
                    }
                case .unsupported(let unsupported):
                    summary.unsupported[
                        [unsupported.element, unsupported.type].compactMap { $0 }.joined(separator: " "),
                        default: 0
                    ] +=
                        unsupported.count
                case .skipped(let skipped):
                    skip(skipped.type ?? skipped.element, nil, skipped.reason.message)
                }
            }
        } catch let error as AppleHealthReadError where error.code == .truncated && acceptTruncated {
            summary.truncated = .init(
                byteOffset: error.byteOffset,
                line: error.line,
                completeItems: error.completeItems
            )
        } catch {
            // What is in flight commits (or fails) before the error is told: nothing is written
            // after the import's answer.
            for (task, _) in inFlight { _ = try? await task.value }
            throw error
        }
        try await store()
        try await settle()
        summary.goalChanges = try await importActivityGoals(goalsByDay, requestID: requestID)
        let diagnostics = reader.diagnostics
        summary.removedCharacters = diagnostics.forbiddenCharactersRemoved
        summary.doctypeIrregularities = diagnostics.doctypeIrregularities
        return summary
    }

    /// The truncation error of an export whose end lacks `</HealthData>`, found by reading it
    /// through without storing; nil when it reads to its end after all.
    static func truncation(of export: AppleHealthExport) throws -> AppleHealthReadError? {
        let reader = try export.reader(options: .init(validates: false))
        while true {
            let next = Result { () throws(AppleHealthReadError) -> AppleHealthItem? in try reader.next() }
            switch next {
            case .success(nil): return nil
            case .success: continue
            case .failure(let error): return error.code == .truncated ? error : nil
            }
        }
    }
}
