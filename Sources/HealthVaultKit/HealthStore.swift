public import Foundation
@_exported public import HealthModel
import VaultClient
import VaultCrypto
import VaultProtocol

/// An app's door to the vault, shaped like HealthKit's `HKHealthStore`: one connection to
/// healthvaultd, authenticated as the app, with HealthKit's calls as async methods.
///
///     let store = try await HealthStore(appID: "org.example.stepcounter", keyFile: "stepcounter.key")
///     try await store.requestAuthorization(toShare: [.quantity(.stepCount)], read: [.quantity(.stepCount)])
///     try await store.save(samples)
///     let steps = try await SampleQueryDescriptor(predicates: [.init(.quantity(.stepCount))]).result(for: store)
///
/// Every failure is a ``HealthError`` (its `code` mirrors `HKError.Code`). As in HealthKit, a read
/// the owner has not granted is not an error: it returns only the app's own samples.
public final class HealthStore: Sendable {
    let connection: VaultConnection
    public let appID: String

    /// The vault directory when none is given, found as the owner's tools find it:
    /// `$HEALTHVAULT_DIR`, else `vault` in the owner's config file
    /// (`$XDG_CONFIG_HOME/healthvault/config`), else `$XDG_DATA_HOME/healthvault`, else
    /// `$HOME/.local/share/healthvault`.
    public static var defaultVaultDirectory: String {
        defaultVaultDirectory(environment: ProcessInfo.processInfo.environment)
    }

    /// ``defaultVaultDirectory`` for `environment`. A config file that cannot be read is passed
    /// over here (the owner's tools say what is wrong with it).
    public static func defaultVaultDirectory(environment: [String: String]) -> String {
        let configuration = (try? ToolConfiguration.load(environment: environment)) ?? ToolConfiguration()
        if let directory = try? VaultLocation.resolve(flag: nil, configuration: configuration, environment: environment)
        {
            return directory.path
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/healthvault").path
    }

    /// Whether a vault is being served here: its daemon's socket exists (HealthKit's
    /// `isHealthDataAvailable()`).
    public static func isHealthDataAvailable(vaultDirectory: String = defaultVaultDirectory) -> Bool {
        var status = stat()
        let path = VaultConnection.socketPath(vaultDirectory: vaultDirectory)
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Connects to the vault's daemon and authenticates as `appID` with the private key in
    /// `keyFile` (written by `healthvault apps keygen`).
    public convenience init(
        appID: String,
        keyFile: String,
        vaultDirectory: String = defaultVaultDirectory
    )
        async throws
    {
        let key = try Self.readKey(keyFile)
        try await self.init(appID: appID, key: key, vaultDirectory: vaultDirectory)
    }

    /// Connects with a key already in memory.
    init(appID: String, key: Ed25519.SigningKey, vaultDirectory: String = defaultVaultDirectory) async throws {
        self.appID = appID
        do {
            self.connection = try await VaultConnection.connect(
                socketPath: VaultConnection.socketPath(vaultDirectory: vaultDirectory),
                identity: .app(id: appID, key: key)
            )
        } catch {
            throw Self.healthError(error)
        }
    }

    /// Reads a private key file (``PrivateKeyFile``); a bad one is `invalidArgument`.
    static func readKey(_ path: String) throws(HealthError) -> Ed25519.SigningKey {
        do {
            return try PrivateKeyFile.read(path)
        } catch {
            throw HealthError(.invalidArgument, error.description)
        }
    }

    /// Closes the connection; observer updates end.
    public func close() async {
        await connection.closeAndWait()
    }

    // MARK: Authorization

    /// Asks the owner for access (HealthKit's `requestAuthorization(toShare:read:)`). It returns
    /// once the request is recorded; the owner decides with `healthvault requests` / `grant`.
    public func requestAuthorization(toShare: Set<SampleType>, read: Set<ObjectType>) async throws {
        _ = try await call(
            Method.requestAuthorization,
            AuthorizationTypesParams(toShare: Self.sorted(toShare), read: Self.sorted(read)),
            as: Empty.self
        )
    }

    /// Whether asking would show the owner anything new (`getRequestStatusForAuthorization`).
    public func statusForAuthorizationRequest(
        toShare: Set<SampleType>,
        read: Set<ObjectType>
    ) async throws
        -> AuthorizationRequestStatus
    {
        let result = try await call(
            Method.authorizationRequestStatus,
            AuthorizationTypesParams(toShare: Self.sorted(toShare), read: Self.sorted(read)),
            as: AuthorizationRequestStatusResult.self
        )
        return AuthorizationRequestStatus.allCases.first { $0.description == result.status } ?? .unknown
    }

    /// Whether the app may share (save) `type`; says nothing about reading, as in HealthKit.
    public func authorizationStatus(for type: ObjectType) async throws -> AuthorizationStatus {
        let result = try await call(
            Method.authorizationStatus,
            TypeParams(type: type),
            as: AuthorizationStatusResult.self
        )
        return AuthorizationStatus.allCases.first { $0.description == result.status } ?? .notDetermined
    }

    // MARK: Saving and deleting

    /// Saves objects, all or nothing; each is attributed to this app.
    public func save(_ objects: [Sample]) async throws {
        _ = try await call(Method.save, SaveParams(objects: objects), as: SaveResult.self)
    }

    public func save(_ object: Sample) async throws {
        try await save([object])
    }

    /// Deletes objects this app saved; another app's object is answered as an unknown one.
    /// Returns how many samples were deleted.
    @discardableResult
    public func delete(_ objects: [Sample]) async throws -> Int {
        try await delete(uuids: objects.map(\.uuid))
    }

    @discardableResult
    public func delete(_ object: Sample) async throws -> Int {
        try await delete(uuids: [object.uuid])
    }

    @discardableResult
    public func delete(uuids: [UUID]) async throws -> Int {
        try await call(Method.delete, DeleteParams(uuids: uuids), as: DeleteResult.self).deleted
    }

    /// Deletes this app's samples of `type` that match `predicate`; returns how many.
    @discardableResult
    public func deleteObjects(of type: SampleType, predicate: SamplePredicate? = nil) async throws -> Int {
        try await call(
            Method.deleteObjects,
            DeleteObjectsParams(type: type, predicate: predicate),
            as: DeleteResult.self
        )
        .deleted
    }

    // MARK: Reading

    /// The samples a sample query finds (see ``SampleQueryDescriptor/result(for:)``).
    public func samples(matching query: SampleQueryDescriptor) async throws -> [Sample] {
        try await call(Method.querySamples, SampleQueryParams(query: query), as: SamplesResult.self).samples
    }

    /// The apps that saved samples of a type (see ``SourceQueryDescriptor/result(for:)``).
    public func sources(matching query: SourceQueryDescriptor) async throws -> Set<Source> {
        Set(try await call(Method.querySources, SourceQueryParams(query: query), as: SourcesResult.self).sources)
    }

    /// The owner's preferred unit of each type (HealthKit's `preferredUnits(for:)`): the unit
    /// the owner chose, else the type's canonical unit.
    public func preferredUnits(
        for types: Set<QuantityTypeIdentifier>
    ) async throws
        -> [QuantityTypeIdentifier: HealthUnit]
    {
        let result = try await call(
            Method.preferredUnits,
            PreferredUnitsParams(types: types.sorted { $0.rawValue < $1.rawValue }),
            as: PreferredUnitsResult.self
        )
        var units: [QuantityTypeIdentifier: HealthUnit] = [:]
        for (identifier, unit) in result.units {
            if let type = QuantityTypeIdentifier(rawValue: identifier) { units[type] = unit }
        }
        return units
    }

    /// The activity summaries of a range of days (see
    /// ``ActivitySummaryQueryDescriptor/result(for:)``).
    public func activitySummaries(matching query: ActivitySummaryQueryDescriptor) async throws -> [ActivitySummary] {
        try await call(
            Method.queryActivitySummaries,
            ActivitySummaryQueryParams(query: query),
            as: ActivitySummariesResult.self
        )
        .summaries
    }

    /// Starts an activity summary query that keeps running (HealthKit's `HKActivitySummaryQuery`
    /// with an `updateHandler`): its first answer, then an update each time a day's summary in
    /// the range changes, appears or goes. Stop it with ``ActivitySummaryQuery/stop()``.
    public func observeActivitySummaries(
        matching query: ActivitySummaryQueryDescriptor
    ) async throws -> ActivitySummaryQuery {
        let result = try await call(
            Method.queryActivitySummaries,
            ActivitySummaryQueryParams(query: query, updates: true),
            as: ActivitySummariesResult.self
        )
        guard let subscription = result.subscription else {
            throw ConnectionError("the daemon answered a running activity summary query without its subscription")
        }
        return ActivitySummaryQuery(store: self, subscription: subscription, summaries: result.summaries)
    }

    /// The correlations a correlation query finds (see ``CorrelationQueryDescriptor/result(for:)``).
    public func correlations(matching query: CorrelationQueryDescriptor) async throws -> [Correlation] {
        try await call(Method.queryCorrelations, CorrelationQueryParams(query: query), as: CorrelationsResult.self)
            .correlations
    }

    /// What was added and deleted since an anchor (see
    /// ``AnchoredObjectQueryDescriptor/result(for:)``).
    public func anchoredObjects(
        matching query: AnchoredObjectQueryDescriptor
    ) async throws
        -> AnchoredObjectQueryResult
    {
        try await call(Method.queryAnchored, AnchoredQueryParams(query: query), as: AnchoredObjectQueryResult.self)
    }

    /// The statistics of the samples a statistics query matches, or nil when this app sees none
    /// (see ``StatisticsQueryDescriptor/result(for:)``).
    public func statistics(matching query: StatisticsQueryDescriptor) async throws -> Statistics? {
        try await call(Method.queryStatistics, StatisticsQueryParams(query: query), as: StatisticsResult.self)
            .statistics
    }

    /// The statistics per interval of a collection query (see
    /// ``StatisticsCollectionQueryDescriptor/result(for:)``).
    public func statisticsCollection(
        matching query: StatisticsCollectionQueryDescriptor
    ) async throws
        -> StatisticsCollection
    {
        try await call(
            Method.queryStatisticsCollection,
            StatisticsCollectionQueryParams(query: query),
            as: StatisticsCollectionResult.self
        )
        .collection
    }

    /// One object by UUID, or nil when there is none this app may see.
    public func object(uuid: UUID) async throws -> Sample? {
        try await call(Method.queryObject, ObjectParams(uuid: uuid), as: ObjectResult.self).sample
    }

    /// One of the owner's characteristics, or nil when not set or not readable (one answer).
    public func characteristic(_ type: CharacteristicTypeIdentifier) async throws -> CharacteristicValue? {
        try await call(Method.characteristic, CharacteristicParams(type: type), as: CharacteristicResult.self).value
    }

    public func biologicalSex() async throws -> BiologicalSex? {
        if case .biologicalSex(let value)? = try await characteristic(.biologicalSex) { return value }
        return nil
    }

    public func dateOfBirth() async throws -> DateOfBirth? {
        if case .dateOfBirth(let value)? = try await characteristic(.dateOfBirth) { return value }
        return nil
    }

    public func bloodType() async throws -> BloodType? {
        if case .bloodType(let value)? = try await characteristic(.bloodType) { return value }
        return nil
    }

    // MARK: Observing

    /// Starts an observer query (HealthKit's `HKObserverQuery` with background delivery at
    /// `frequency`): an update each time samples of `types` this app may see change, at most one
    /// per frequency interval.
    public func observe(
        _ types: Set<SampleType>,
        frequency: UpdateFrequency = .immediate
    ) async throws
        -> ObserverQuery
    {
        let result = try await call(
            Method.observerStart,
            ObserverStartParams(types: Self.sorted(types), frequency: frequency),
            as: SubscriptionParams.self
        )
        return ObserverQuery(store: self, subscription: result.subscription, types: types)
    }

    /// Enables background delivery of `type` at `frequency` (HealthKit's
    /// `enableBackgroundDelivery(for:frequency:)`): from now on, changes to it this app may see
    /// are kept for it until it acknowledges them (``ObserverQuery/acknowledge(_:)``), and told
    /// when it next observes the type if it was away, at most once per `frequency` otherwise.
    /// It lasts until disabled, across connections and restarts of the daemon.
    public func enableBackgroundDelivery(for type: SampleType, frequency: UpdateFrequency) async throws {
        _ = try await call(
            Method.observerEnableBackgroundDelivery,
            EnableBackgroundDeliveryParams(type: type, frequency: frequency),
            as: Empty.self
        )
    }

    /// Disables background delivery of `type`; what was pending for it is dropped.
    public func disableBackgroundDelivery(for type: SampleType) async throws {
        _ = try await call(
            Method.observerDisableBackgroundDelivery,
            DisableBackgroundDeliveryParams(types: [type]),
            as: Empty.self
        )
    }

    /// Disables background delivery of every type.
    public func disableAllBackgroundDelivery() async throws {
        _ = try await call(
            Method.observerDisableBackgroundDelivery,
            DisableBackgroundDeliveryParams(types: nil),
            as: Empty.self
        )
    }

    // MARK: Calling

    func call<Params: Encodable & Sendable, Result: Decodable>(
        _ method: String,
        _ params: Params,
        as type: Result.Type
    ) async throws(HealthError) -> Result {
        do {
            return try await connection.call(method, params, as: type)
        } catch {
            throw Self.healthError(error)
        }
    }

    static func healthError(_ error: any Error) -> HealthError {
        switch error {
        case let error as HealthError: error
        case let error as RPCError: error.healthError
        case let error as ConnectionError: HealthError(.healthDataUnavailable, error.description)
        default: HealthError(.unknownError, "\(error)")
        }
    }

    static func sorted<T: CustomStringConvertible>(_ values: Set<T>) -> [T] {
        values.sortedByIdentifier()
    }
}

extension SourceQueryDescriptor {
    /// Runs the query against `store` (HealthKit's `HKSourceQueryDescriptor.result(for:)`): the
    /// sources of the samples this app may see.
    public func result(for store: HealthStore) async throws -> Set<Source> {
        try await store.sources(matching: self)
    }
}

extension SampleQueryDescriptor {
    /// Runs the query against `store` (HealthKit's `HKSampleQueryDescriptor.result(for:)`).
    public func result(for store: HealthStore) async throws -> [Sample] {
        try await store.samples(matching: self)
    }
}

extension ActivitySummaryQueryDescriptor {
    /// Runs the query against `store` (HealthKit's `HKActivitySummaryQuery`): a summary for each
    /// day of the range with data, with the owner's goals. Without the activity summary read
    /// grant, an app's summaries count only its own samples.
    public func result(for store: HealthStore) async throws -> [ActivitySummary] {
        try await store.activitySummaries(matching: self)
    }
}

extension CorrelationQueryDescriptor {
    /// Runs the query against `store` (HealthKit's `HKCorrelationQuery`): the correlations of the
    /// type this app may see that meet the predicate and hold a member meeting each member
    /// predicate, oldest first.
    public func result(for store: HealthStore) async throws -> [Correlation] {
        try await store.correlations(matching: self)
    }
}

extension AnchoredObjectQueryDescriptor {
    /// Runs the query against `store` (HealthKit's `HKAnchoredObjectQueryDescriptor.result(for:)`):
    /// the samples added and objects deleted since the anchor that this app may see, oldest
    /// first, and the anchor to start from next time.
    public func result(for store: HealthStore) async throws -> AnchoredObjectQueryResult {
        try await store.anchoredObjects(matching: self)
    }

    /// The long-running form (HealthKit's `results(for:)`): every change since the anchor, a page
    /// of at most `limit` at a time, then the changes again each time samples of the query's
    /// types that this app may see change, each result carrying the anchor it reached. Ends when
    /// the stream's consumer stops or the connection ends.
    public func results(for store: HealthStore) -> AsyncThrowingStream<AnchoredObjectQueryResult, any Error> {
        let query = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let observer = try await store.observe(Set(query.predicates.map(\.sampleType)))
                    var anchor = query.anchor
                    // Every page up to the present; the first result is always yielded, even empty.
                    func catchUp(first: Bool) async throws {
                        var first = first
                        while true {
                            let page = AnchoredObjectQueryDescriptor(
                                predicates: query.predicates,
                                anchor: anchor,
                                limit: query.limit
                            )
                            let result = try await store.anchoredObjects(matching: page)
                            anchor = result.newAnchor
                            let count = result.addedSamples.count + result.deletedObjects.count
                            if first || count > 0 { continuation.yield(result) }
                            first = false
                            if query.limit == 0 || count < query.limit { return }
                        }
                    }
                    try await catchUp(first: true)
                    for await _ in observer.updates {
                        if Task.isCancelled { break }
                        try await catchUp(first: false)
                    }
                    try? await observer.stop()
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension StatisticsQueryDescriptor {
    /// Runs the query against `store` (HealthKit's `HKStatisticsQueryDescriptor.result(for:)`):
    /// nil when this app sees no matching sample.
    public func result(for store: HealthStore) async throws -> Statistics? {
        try await store.statistics(matching: self)
    }
}

extension StatisticsCollectionQueryDescriptor {
    /// Runs the query against `store` (HealthKit's
    /// `HKStatisticsCollectionQueryDescriptor.result(for:)`).
    public func result(for store: HealthStore) async throws -> StatisticsCollection {
        try await store.statisticsCollection(matching: self)
    }

    /// The long-running form (HealthKit's `results(for:)`): the collection now, then again each
    /// time samples of the type this app may see change. Ends when the stream's consumer stops
    /// or the connection ends.
    public func results(for store: HealthStore) -> AsyncThrowingStream<StatisticsCollection, any Error> {
        let query = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let observer = try await store.observe([.quantity(query.quantityType)])
                    continuation.yield(try await store.statisticsCollection(matching: query))
                    for await _ in observer.updates {
                        if Task.isCancelled { break }
                        continuation.yield(try await store.statisticsCollection(matching: query))
                    }
                    try? await observer.stop()
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
