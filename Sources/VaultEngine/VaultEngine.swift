public import AuditLog
public import Foundation
public import HealthModel
import NIOPosix
import Synchronization
public import VaultStore

/// The one door to the vault: every request, from an app or from the owner, passes through it:
/// authorize, act, record.
///
/// The rules it enforces (DESIGN.md, "the rules of access"): saving needs a share grant for each
/// object's type and is stamped with the caller as its source; every read runs with the caller's
/// visibility scope, so a read without a grant sees only the app's own samples and looks exactly
/// like a read of an empty vault; an app deletes only what it created; characteristics are the
/// owner's. Every access, refusals and failures included, is appended to the signed audit log:
/// a write and its entry commit in one transaction, a read's entry is durable before its result
/// is returned, and an access whose entry cannot be written does not happen.
///
/// Safe under concurrent callers: one writer and several readers (WAL). The blocking SQLCipher
/// work runs on the engine's own threads, never on the caller's (the Swift cooperative pool or
/// an event loop).
public final class VaultEngine: Sendable {
    public let vault: Vault
    let store: SampleStore
    let threads: NIOThreadPool
    let observers = ObserverRegistry()
    let workoutSessions = WorkoutSessions()
    let heartbeatSeriesBuilders = SeriesBuilders<HeartbeatSeriesBuilder>(
        kind: "heartbeat series",
        limit: .perConnection(16)
    )
    let activityWatches = ActivitySummaryWatches()
    let quantitySeriesBuilders = SeriesBuilders<QuantitySeriesBuilder>(
        kind: "quantity series",
        limit: .perApp(8)
    )
    private let shutDown = Atomic<Bool>(false)
    /// The engine's clock: the instant a request's rolling windows end at, expiries are judged
    /// at and decisions are dated with. `Date()` but in tests, which give their own.
    let now: @Sendable () -> Date
    /// The task that writes the next expiry when its instant comes (``armExpiryTimer(next:)``).
    let expiryTimer = Mutex<Task<Void, Never>?>(nil)
    /// Whether statistics queries use and keep the hours kept (docs/STATISTICS.md, "Hours
    /// kept"); off, every query is computed from the rows (benchmarks compare the two).
    let keepsStatisticsHours: Bool

    /// The most objects one save or delete may name.
    public static let maximumBatchSize = 100_000

    /// The most bytes of JSON one object saved may take as an answer writes it
    /// (``checkAnswerable(_:)``): a save of anything larger is refused, since no query could
    /// then return it.
    public let largestObjectJSONBytes: Int

    /// ``largestObjectJSONBytes`` for a daemon whose frames carry at most `maximumFrameBytes`:
    /// 65,536 bytes less, for the answer around the object (a quarter less for frames under
    /// 262,144 bytes).
    public static func largestObjectJSONBytes(forFrames maximumFrameBytes: Int) -> Int {
        maximumFrameBytes - min(65_536, maximumFrameBytes / 4)
    }

    /// An engine over an open vault; ``shutdown()`` stops its threads. `now` is its clock (tests
    /// give their own). Expiries that came while the vault was closed are written now, with the
    /// instants they took effect (docs/AUDIT_LOG.md, "Grants and their history").
    /// `keepsStatisticsHours: false` computes every statistics query from the rows.
    public init(
        vault: Vault,
        now: @escaping @Sendable () -> Date = { Date() },
        keepsStatisticsHours: Bool = true,
        largestObjectJSONBytes: Int = VaultEngine.largestObjectJSONBytes(forFrames: 16 * 1024 * 1024)
    ) throws {
        self.vault = vault
        self.now = now
        self.keepsStatisticsHours = keepsStatisticsHours
        self.largestObjectJSONBytes = largestObjectJSONBytes
        self.store = SampleStore(database: try vault.db())
        // A writer and every reader busy at once, and no more (more would only wait for a connection).
        self.threads = NIOThreadPool(numberOfThreads: Database.readerCount + 1)
        // The workout sessions the vault keeps, for their apps to recover (docs/WORKOUTS.md).
        try workoutSessions.loadIfNeeded { [store] in try store.database.read { try store.workoutSessions(in: $0) } }
        threads.start()
        armExpiryTimer(next: try writeDueExpiries().next)
    }

    /// Ends every observation and stops the engine's threads once the work under way is done.
    public func shutdown() async {
        shutDown.store(true, ordering: .sequentiallyConsistent)
        expiryTimer.withLock { task in
            task?.cancel()
            task = nil
        }
        observers.finishAll()
        activityWatches.finishAll()
        workoutSessions.finishAll()
        try? await threads.shutdownGracefully()
    }

    var isShutDown: Bool { shutDown.load(ordering: .sequentiallyConsistent) }

    var database: Database { store.database }

    // MARK: Running

    /// Runs blocking work on the engine's threads and turns whatever it throws into the error a
    /// caller can act on.
    func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            guard !isShutDown else { throw Self.engineShutDown }
            return try await threads.runIfActive(body)
        } catch is CancellationError where isShutDown {
            // Work still queued when the pool stopped.
            throw Self.engineShutDown
        } catch {
            throw Self.callerError(error)
        }
    }

    static let engineShutDown = HealthError(.databaseInaccessible, "the vault engine has shut down")

    static func callerError(_ error: any Error) -> any Error {
        switch error {
        case let error as HealthError: return error
        case let refusal as Refusal: return refusal.error
        case let error as PolicyError: return error
        case let failure as AuditFailure:
            return HealthError(
                .databaseInaccessible,
                "the vault could not record this access in its audit log, so it did not happen (\(failure.cause))"
            )
        case StoreError.locked: return HealthError(.databaseInaccessible, "the vault is locked")
        case is NIOThreadPoolError.ThreadPoolInactive: return engineShutDown
        case let error as DatabaseError:
            // SQLite's message, never the statement: a caller learns nothing of the vault's SQL.
            return HealthError(
                .unknownError,
                "the vault could not complete the request: \(error.message) (\(error.resultCode))"
            )
        // The audit layer's errors carry a message for a person after their code: the message.
        case let error as AuditLogError: return HealthError(.unknownError, error.message)
        default: return HealthError(.unknownError, "the vault could not complete the request: \(error)")
        }
    }

    // MARK: Recording

    /// The audit log could not be written; the access it was for did not happen.
    struct AuditFailure: Error {
        let cause: any Error
    }

    /// An access refused by the rules, its `denied` entry already committed: the caller gets
    /// `error`, and nothing more is recorded.
    struct Refusal: Error {
        let error: HealthError
    }

    func entry(
        _ caller: Caller,
        _ operation: AuditEntry.Operation,
        types: [String] = [],
        count: Int = 0,
        outcome: AuditEntry.Outcome = .ok,
        requestID: String,
        attributes: [String: String] = [:]
    ) -> AuditEntry {
        AuditEntry(
            time: now(),
            actor: caller.actor,
            operation: operation,
            types: types,
            objectCount: UInt64(max(count, 0)),
            outcome: outcome,
            requestID: requestID,
            attributes: attributes
        )
    }

    /// Appends `entry` inside the write transaction `db`: it commits with the access or not at all.
    func append(_ entry: AuditEntry, in db: Connection) throws {
        do {
            try vault.auditLog(in: db).append(entry)
        } catch {
            throw AuditFailure(cause: error)
        }
    }

    /// Appends `entry` in a write of its own (committed with the writes waiting at the same
    /// moment, ``Database/writeGrouped(_:)``), durable when this returns (a read's entry,
    /// written before its result leaves the engine).
    func record(_ entry: AuditEntry) throws {
        do {
            try database.writeGrouped { try append(entry, in: $0) }
        } catch let failure as AuditFailure {
            throw failure
        } catch {
            throw AuditFailure(cause: error)
        }
    }

    /// Runs `body` in one read transaction and appends the entry it returns, durable when this
    /// returns (``Database/read(_:thenWrite:)``: on the writer's warm connection when it is free).
    /// A failure to write the entry is an ``AuditFailure``.
    func readRecorded<T>(
        keeping keeper: StatisticsHoursKeeper? = nil,
        _ body: (Connection) throws -> (T, AuditEntry)
    ) throws -> T {
        var recording = false
        do {
            return try database.read(body) { db, read in
                recording = true
                // Statistics hours the read computed, kept with its entry (docs/STATISTICS.md).
                if let keeper { try store.keepStatisticsHours(keeper, in: db) }
                try append(read.1, in: db)
            }.0
        } catch let failure as AuditFailure {
            throw failure
        } catch {
            if recording { throw AuditFailure(cause: error) }
            throw error
        }
    }

    /// Runs an access, recording a failure as an entry: `denied` for `authorizationDenied` (an
    /// app not enrolled), `error` for bad input or an internal error. Refusals of the rules are
    /// recorded by the access itself, in the transaction they belong to; a failure to write the
    /// log is not recorded again.
    func audited<T>(
        _ caller: Caller,
        _ operation: AuditEntry.Operation,
        types: [String],
        requestID: String,
        _ body: () throws -> T
    ) throws -> T {
        do {
            return try body()
        } catch let failure as AuditFailure {
            throw failure
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            let outcome: AuditEntry.Outcome =
                (error as? HealthError)?.code == .authorizationDenied ? .denied : .error
            try? record(entry(caller, operation, types: types, outcome: outcome, requestID: requestID))
            throw error
        }
    }

    // MARK: Who may see what

    /// The enrolled app, or `authorizationDenied` (an app removed while connected ends here).
    func requireApp(_ appID: String, _ db: Connection) throws -> AppRegistration {
        guard let app = try GrantStore.registration(appID, db) else {
            throw HealthError(.authorizationDenied, "\(appID) is not enrolled in this vault")
        }
        return app
    }

    /// What `caller` may read, from the grants in `db`'s snapshot, at the engine's `now`: the
    /// owner everything; an app the types it holds a read grant in force for (within the grant's
    /// window, if it has one), and the correlation types all of whose member types it may read
    /// (blood pressure: systolic and diastolic; within all their windows at once); its own
    /// samples of every other type. A correlation type read with only some member types would
    /// show other apps' correlations to observers, and cost more with each hidden one, so it is
    /// read as the app's own.
    func scope(for caller: Caller, _ db: Connection) throws -> ReadScope {
        guard case .app(let appID) = caller else { return .owner }
        _ = try requireApp(appID, db)
        return try readScope(of: appID, db)
    }

    /// The scope of an app (enrolled or not: then its own samples only), at the engine's `now`.
    func readScope(of appID: String, _ db: Connection) throws -> ReadScope {
        let now = now()
        var readable: Set<SampleType> = []
        var windows: [SampleType: ReadWindow] = [:]
        for (type, grant) in try GrantStore.readGrants(appID, at: now, db) {
            // A type read object by object is never read through a type's grant.
            guard let sampleType = type.sampleType, !sampleType.isReadPerObject else { continue }
            readable.insert(sampleType)
            if let window = grant.window {
                windows[sampleType] = window.readWindow(at: now, grantedAt: grant.grantedAt)
            }
        }
        let correlations = CorrelationTypeIdentifier.allCases.filter { correlation in
            correlation.allowedMemberTypes.allSatisfy(readable.contains)
        }
        return .app(appID, readableTypes: readable.union(correlations.map(SampleType.correlation)), windows: windows)
            // Vision prescriptions and documents: the objects the owner chose for the app.
            .reading(objects: try ObjectGrantStore.readableObjects(appID, db))
    }

    /// Whether the app with scope `scope` is to be told of `changes` to `type`: its own samples
    /// changed, or another app's that it sees (for a type read within a window, a sample inside
    /// it, checked over the write's own rows).
    func sees(_ type: SampleType, of changes: SampleChanges, scope: ReadScope, _ db: Connection) throws -> Bool {
        guard let sources = changes.sources[type] else { return false }
        guard let appID = scope.bundleIdentifier else { return true }
        if sources.contains(appID) { return true }
        guard scope.readableTypes.contains(type) else { return false }
        guard scope.windows[type] != nil else { return true }
        return try store.seesChanges(of: type, after: changes.after, through: changes.through, scope: scope, in: db)
    }

    /// `deniedServedEmpty` when the scope held back any of `types` (the app saw only its own
    /// samples of it), else `ok` (a type read object by object is `ok`): for the auditor; the
    /// app's answer is the same either way.
    static func readOutcome(_ scope: ReadScope, _ types: some Sequence<SampleType>) -> AuditEntry.Outcome {
        guard scope.bundleIdentifier != nil else { return .ok }
        // A type read object by object serves the app its own objects and those the owner chose,
        // which the log's object entries say: nothing there is a denial.
        return types.allSatisfy { $0.isReadPerObject || scope.readableTypes.contains($0) } ? .ok : .deniedServedEmpty
    }
}

extension Caller {
    var actor: AuditEntry.Actor {
        switch self {
        case .owner: .owner
        case .app(let id): .app(id)
        }
    }
}

extension Sequence where Element: CustomStringConvertible {
    /// Identifiers in byte order, as the audit log and every listing give them.
    var sortedIdentifiers: [String] {
        sortedByIdentifier().map(\.description)
    }
}
