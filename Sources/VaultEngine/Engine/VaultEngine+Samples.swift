public import AuditLog
public import Foundation
public import HealthModel
public import VaultStore

extension VaultEngine {
    // MARK: Saving

    /// Saves a batch for an app, all or nothing: every object's type (a correlation's member
    /// types) needs the app's share grant, else `authorizationDenied` naming the types and nothing
    /// is saved. Every object is attributed to the calling app, whatever source it names.
    @discardableResult
    public func save(_ samples: [Sample], as caller: Caller, requestID: String = "") async throws -> SaveOutcome {
        try await save(samples, as: caller, requestID: requestID, addingTo: nil)
    }

    /// ``save(_:as:requestID:)``, the saved samples associated with `workout` in the same
    /// transaction when given (a live builder's `add`). Samples a live builder collects are
    /// associated with its workout in the save's transaction too, and its followers told after.
    @discardableResult
    func save(
        _ samples: [Sample],
        as caller: Caller,
        requestID: String,
        addingTo workout: (workout: UUID, session: UUID)?
    ) async throws
        -> SaveOutcome
    {
        guard case .app(let appID) = caller else {
            throw HealthError(.invalidArgument, "the owner does not save samples through the engine; an app does")
        }
        let types = Self.types(of: samples)
        let (outcome, changed, collected) = try await perform {
            [self] () throws -> (SaveOutcome, SampleChanges, [UUID: Set<SampleType>]) in
            try audited(caller, .save, types: types.sortedIdentifiers, requestID: requestID) {
                guard !samples.isEmpty else {
                    throw HealthError.invalidArgument("there is nothing to save", field: "objects")
                }
                if let index = samples.firstIndex(where: { $0.sampleType == .workoutRoute }) {
                    throw HealthError.invalidArgument(
                        "a route is made by a route builder (workoutRoute.begin, insert, finish), not saved whole",
                        field: "objects[\(index)]"
                    )
                }
                guard samples.count <= Self.maximumBatchSize else {
                    throw HealthError(
                        .dataSizeExceeded,
                        "a save holds at most \(Self.maximumBatchSize) objects; split the batch",
                        field: "objects"
                    )
                }
                try checkAnswerable(samples)
                // Committed with the writes waiting at the same moment (group commit).
                let result = try database.writeGrouped {
                    db -> Result<(SaveOutcome, SampleChanges, [UUID: Set<SampleType>]), HealthError> in
                    let app = try requireApp(appID, db)
                    let granted = try GrantStore.grantedTypes(appID, .share, at: now(), db)
                    if let refusal = Self.refusal(toShare: types, granted: granted, nothing: "saved") {
                        try append(
                            entry(
                                caller,
                                .save,
                                types: types.sortedIdentifiers,
                                outcome: .denied,
                                requestID: requestID
                            ),
                            in: db
                        )
                        return .failure(refusal)
                    }
                    if let workout {
                        // Checked again under the writer's lock: the builder may have ended since.
                        guard let session = workoutSessions.session(workout.session),
                            session.builder.startDate != nil, session.builder.endDate == nil
                        else {
                            throw HealthError.invalidArgument(
                                "the builder adds samples while it collects",
                                field: "objects"
                            )
                        }
                    }
                    let attributed = samples.map { Self.attributed($0, by: app) }
                    let sequence = try store.changeSequence(in: db)
                    let outcome = try store.save(attributed, in: db)
                    // Nothing changed when every object was an older sync version.
                    let changes = SampleChanges(
                        outcome.saved > 0 ? types : [],
                        by: appID,
                        after: sequence,
                        through: try store.changeSequence(in: db)
                    )
                    var collected: [UUID: Set<SampleType>] = [:]
                    if outcome.saved > 0 {
                        try countBackgroundChanges(changes, db)
                        collected = try collectIntoWorkouts(attributed, savedBy: appID, storedAfter: sequence, db)
                    }
                    if let workout {
                        // Added to a live builder: associated whatever its data source collects,
                        // and its followers told once, with what it collected.
                        // The app's own samples of these types, a sample it stored earlier too.
                        try store.associate(
                            attributed.map { ($0.uuid, $0.sampleType) },
                            ofSource: appID,
                            withWorkout: workout.workout,
                            storedAfter: sequence,
                            acceptingEarlier: true,
                            in: db
                        )
                        collected[workout.session, default: []].formUnion(attributed.map(\.sampleType))
                    }
                    try append(
                        entry(
                            caller,
                            .save,
                            types: types.sortedIdentifiers,
                            count: outcome.saved,
                            requestID: requestID
                        ),
                        in: db
                    )
                    return .success((outcome, changes, collected))
                }
                return try result.mapError(Refusal.init).get()
            }
        }
        for (session, types) in collected { pushCollected(types, for: session) }
        await notifyObservers(changed)
        return outcome
    }

    /// The sample's revision with the app's identity as its source: the app's version, product
    /// type and system version stay as it gave them.
    static func revision(of sample: Sample, by app: AppRegistration) -> SourceRevision {
        let given = sample.sourceRevision
        return SourceRevision(
            source: app.source,
            version: given.version,
            productType: given.productType,
            operatingSystemVersion: given.operatingSystemVersion
        )
    }

    /// The sample as the vault stores it for `app`: every revision's source the app's identity, a
    /// correlation's members each keeping its own version, product type and system version.
    static func attributed(_ sample: Sample, by app: AppRegistration) -> Sample {
        guard case .correlation(let correlation) = sample else {
            return sample.attributed(to: revision(of: sample, by: app))
        }
        return .correlation(
            correlation.attributed(to: revision(of: sample, by: app), members: { revision(of: $0, by: app) })
        )
    }

    /// Refuses (`dataSizeExceeded`, field `objects[i]`) an object whose JSON, as the largest
    /// answer holding it writes it, would take more than ``largestObjectJSONBytes``: no query
    /// could return it, and an anchored query could not page past it. Measured as the object is
    /// given, without the series data that series queries serve in batches (a CDA document with
    /// its bytes, which the document query returns), with 1,024 bytes for each source the vault
    /// will put in place of the one it names (the object's and each member's).
    func checkAnswerable(_ samples: [Sample]) throws {
        for (index, sample) in samples.enumerated() {
            try checkAnswerable(sample, field: "objects[\(index)]")
        }
    }

    /// ``checkAnswerable(_:)`` of one object, naming `field` when it is too large.
    func checkAnswerable(_ sample: Sample, field: String) throws {
        let bytes = try Self.answerBytes(of: sample)
        guard bytes <= largestObjectJSONBytes else {
            throw HealthError(
                .dataSizeExceeded,
                "this object takes about \(bytes) bytes of JSON, more than an answer may hold for one object "
                    + "(\(largestObjectJSONBytes)), so no query could return it; make it smaller",
                field: field
            )
        }
    }

    /// Runs a series builder's save: a sample too large for an answer (``checkAnswerable(_:)``)
    /// names what made it so, the builder's metadata (the request has no `objects`).
    static func namingMetadata(_ save: () async throws -> SaveOutcome) async throws {
        do {
            _ = try await save()
        } catch let error as HealthError where error.code == .dataSizeExceeded && error.field == "objects[0]" {
            throw HealthError(.dataSizeExceeded, error.message, field: "metadata")
        }
    }

    /// The bytes ``checkAnswerable(_:)`` counts for `sample`.
    static func answerBytes(of sample: Sample) throws -> Int {
        let answered: Sample
        if case .cdaDocument = sample { answered = sample } else { answered = sample.withoutSeriesData }
        var sources = 1
        if case .correlation(let correlation) = sample { sources += correlation.objects.count }
        return try JSONWriter.data(answered, capacity: answered.estimatedJSONBytes).count + sources * 1_024
    }

    /// Every type in a batch: the objects' and their members'.
    static func types(of samples: [Sample]) -> Set<SampleType> {
        var types: Set<SampleType> = []
        for sample in samples {
            types.insert(sample.sampleType)
            if case .correlation(let correlation) = sample {
                for member in correlation.objects { types.insert(member.sampleType) }
            }
        }
        return types
    }

    /// `authorizationDenied` naming the types among `types` the app may not share, or nil when it
    /// may share them all. Correlations go by their members' types, never their own.
    static func refusal(toShare types: Set<SampleType>, granted: Set<ObjectType>, nothing done: String) -> HealthError?
    {
        let missing = types.filter {
            if case .correlation = $0 { return false }
            return !granted.contains(ObjectType($0))
        }
        guard !missing.isEmpty else { return nil }
        return HealthError(
            .authorizationDenied,
            "not authorized to share \(missing.sortedIdentifiers.joined(separator: ", ")); nothing was \(done)"
        )
    }

    // MARK: Deleting

    /// Deletes objects by UUID. An app deletes only samples it created (with its share grant
    /// for their types, else `authorizationDenied`); another app's sample is answered exactly as
    /// an unknown UUID. The owner deletes anything. Returns how many samples were deleted
    /// (a correlation's members included).
    @discardableResult
    public func delete(_ uuids: [UUID], as caller: Caller, requestID: String = "") async throws -> Int {
        try await deleting(as: caller, requestID: requestID, types: [], governing: []) { [self] db, scope, check in
            guard uuids.count <= Self.maximumBatchSize else {
                throw HealthError(.dataSizeExceeded, "a delete names at most \(Self.maximumBatchSize) objects")
            }
            return try store.delete(uuids: uuids, scope: scope, in: db, check: check)
        }
    }

    /// Deletes the caller's samples of a type that match `predicate` (the owner's: every app's),
    /// and returns how many were deleted. An app needs its share grant for the type.
    @discardableResult
    public func deleteObjects(
        of type: SampleType,
        predicate: SamplePredicate? = nil,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> Int {
        let query = SampleTypePredicate(type, predicate: predicate)
        return try await deleting(as: caller, requestID: requestID, types: [type], governing: [type]) {
            [self] db, scope, check in
            try store.delete(matching: query, scope: scope, in: db, check: check)
        }
    }

    /// The shared path of both deletes. `delete` shows what would go to its check before deleting
    /// it: for an app, the share grants of those types and of `governing` decide (a refusal
    /// commits only its `denied` entry).
    private func deleting(
        as caller: Caller,
        requestID: String,
        types requested: Set<SampleType>,
        governing: Set<SampleType>,
        delete: @escaping @Sendable (Connection, DeleteScope, (Deletion) throws -> Void) throws -> Deletion
    ) async throws -> Int {
        let (changes, count) = try await perform { [self] () throws -> (SampleChanges, Int) in
            try audited(caller, .delete, types: requested.sortedIdentifiers, requestID: requestID) {
                let result = try database.write { db -> Result<(SampleChanges, Int), HealthError> in
                    var scope = DeleteScope.owner
                    var granted: Set<ObjectType>?
                    if case .app(let appID) = caller {
                        _ = try requireApp(appID, db)
                        scope = .app(appID)
                        granted = try GrantStore.grantedTypes(appID, .share, at: now(), db)
                    }
                    do {
                        let sequence = try store.changeSequence(in: db)
                        var deletion = try delete(db, scope) { found in
                            guard let granted else { return }
                            let types = found.types.union(governing)
                            if let refusal = Self.refusal(toShare: types, granted: granted, nothing: "deleted") {
                                throw DeleteRefusal(types: types, error: refusal)
                            }
                        }
                        // Apps the owner chose a deleted object for see its deletion, as of their own.
                        if deletion.count > 0 {
                            for (type, apps) in try ObjectGrantStore.holders(ofObjectsDeletedAfter: sequence, db) {
                                deletion.sources[type, default: []].formUnion(apps)
                            }
                        }
                        let changes = SampleChanges(
                            deletion.sources,
                            after: sequence,
                            through: try store.changeSequence(in: db)
                        )
                        try countBackgroundChanges(changes, db)
                        let recorded = deletion.count > 0 ? deletion.types : requested
                        try append(
                            entry(
                                caller,
                                .delete,
                                types: recorded.sortedIdentifiers,
                                count: deletion.count,
                                requestID: requestID
                            ),
                            in: db
                        )
                        return .success((changes, deletion.count))
                    } catch let refusal as DeleteRefusal {
                        // Refused before anything was deleted: only the refusal commits.
                        try append(
                            entry(
                                caller,
                                .delete,
                                types: refusal.types.sortedIdentifiers,
                                outcome: .denied,
                                requestID: requestID
                            ),
                            in: db
                        )
                        return .failure(refusal.error)
                    }
                }
                return try result.mapError(Refusal.init).get()
            }
        }
        await notifyObservers(changes)
        return count
    }

    private struct DeleteRefusal: Error {
        let types: Set<SampleType>
        let error: HealthError
    }

    // MARK: Reading

    /// Runs a sample query in the caller's scope. Without a read grant for a type an app sees
    /// only its own samples of it: the answer is exactly the one a vault without other apps'
    /// data would give.
    public func samples(
        matching query: SampleQueryDescriptor,
        as caller: Caller,
        requestID: String = ""
    ) async throws
        -> [Sample]
    {
        let types = query.predicates.map(\.sampleType)
        return try await read(.querySample, types: Set(types), as: caller, requestID: requestID) { [self] db, scope in
            let samples = try store.samples(matching: query, scope: scope, in: db)
            return (samples, samples.count)
        }
    }

    /// One object by UUID, when the caller may see it; nil otherwise, exactly as for an unknown
    /// UUID (HealthKit's `predicateForObject(with:)` query).
    public func sample(uuid: UUID, as caller: Caller, requestID: String = "") async throws -> Sample? {
        try await read(.querySample, types: [], as: caller, requestID: requestID) { [self] db, scope in
            let sample = try store.sample(uuid: uuid, scope: scope, in: db)
            return (sample, sample == nil ? 0 : 1)
        }
    }

    /// Runs a source query in the caller's scope: the apps that saved samples of the type, among
    /// the samples the caller may see (without a read grant: itself, if it saved any).
    public func sources(
        matching query: SourceQueryDescriptor,
        as caller: Caller,
        requestID: String = ""
    ) async throws
        -> [Source]
    {
        try await read(.querySource, types: [query.predicate.sampleType], as: caller, requestID: requestID) {
            [self] db, scope in
            let sources = try store.sources(matching: query, scope: scope, in: db)
            return (sources, sources.count)
        }
    }

    /// The shared path of every read: the grants and the data from one snapshot, then the entry,
    /// durable before the result is returned. The entry's outcome tells the auditor whether the
    /// scope held anything back; the caller's answer never does.
    func read<T: Sendable>(
        _ operation: AuditEntry.Operation,
        types: Set<SampleType>,
        as caller: Caller,
        requestID: String,
        keeping keeper: StatisticsHoursKeeper? = nil,
        _ body: @escaping @Sendable (Connection, ReadScope) throws -> (T, Int)
    ) async throws -> T {
        try await read(
            operation,
            recording: types.sortedIdentifiers,
            as: caller,
            requestID: requestID,
            scope: { [self] db in
                let scope = try scope(for: caller, db)
                return (scope, Self.readOutcome(scope, types))
            },
            keeping: keeper,
            body
        )
    }

    /// ``read(_:types:as:requestID:_:)`` with the entry's types and the scope (with the outcome
    /// it makes) given, for reads whose scope is not the caller's plain one (activity summaries).
    func read<T: Sendable>(
        _ operation: AuditEntry.Operation,
        recording recorded: [String],
        as caller: Caller,
        requestID: String,
        scope: @escaping @Sendable (Connection) throws -> (ReadScope, AuditEntry.Outcome),
        keeping keeper: StatisticsHoursKeeper? = nil,
        _ body: @escaping @Sendable (Connection, ReadScope) throws -> (T, Int)
    ) async throws -> T {
        try await perform { [self] in
            try audited(caller, operation, types: recorded, requestID: requestID) {
                try readRecorded(keeping: keeper) { db in
                    let (scope, outcome) = try scope(db)
                    let (result, count) = try body(db, scope)
                    return (
                        result,
                        entry(caller, operation, types: recorded, count: count, outcome: outcome, requestID: requestID)
                    )
                }
            }
        }
    }
}

extension VaultEngine {
    /// Runs a correlation query in the caller's scope: an app sees another app's correlations
    /// only when it may read every member type the correlation type allows; otherwise only its
    /// own, as a vault without other apps' data would answer.
    public func correlations(
        matching query: CorrelationQueryDescriptor,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> [Correlation] {
        let types: Set<SampleType> = [.correlation(query.correlationType)]
        return try await read(.queryCorrelation, types: types, as: caller, requestID: requestID) { [self] db, scope in
            let correlations = try store.correlations(matching: query, scope: scope, in: db)
            return (correlations, correlations.count)
        }
    }
}
