public import Foundation

/// One access to the vault, as the audit log records it: who did what to which types, how many
/// objects, with what outcome, when, and for which request. Never a health value, never a
/// sample's content: only type identifiers and counts.
public struct AuditEntry: Hashable, Sendable {
    /// Position in the log, from 0; also the entry's leaf index in the Merkle tree.
    public var sequence: UInt64
    /// When the access happened, to the millisecond (encoded as milliseconds since 1970, UTC).
    public var time: Date
    public var actor: Actor
    public var operation: Operation
    /// Identifiers of the object types involved (HealthKit's strings), sorted, without repeats.
    public var types: [String]
    /// How many objects the access saved, returned or deleted (0 when none or not applicable).
    public var objectCount: UInt64
    public var outcome: Outcome
    /// The request this access served, as the caller or the daemon named it (may be empty).
    public var requestID: String
    /// What the entry says beyond the fields every entry has, by name (a well-formed name, as an
    /// operation's): a grant's window and expiry, an expiry's instant (docs/AUDIT_LOG.md,
    /// "Attributes"). Never a health value. Empty for most entries, which then encode exactly as
    /// before attributes existed (version 1).
    public var attributes: [String: String]

    public init(
        sequence: UInt64 = 0,
        time: Date,
        actor: Actor,
        operation: Operation,
        types: [String] = [],
        objectCount: UInt64 = 0,
        outcome: Outcome,
        requestID: String = "",
        attributes: [String: String] = [:]
    ) {
        self.sequence = sequence
        self.time = Self.millisecondPrecision(time)
        self.actor = actor
        self.operation = operation
        self.types = Array(Set(types)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        self.objectCount = objectCount
        self.outcome = outcome
        self.requestID = requestID
        self.attributes = attributes
    }

    /// The date the encoding keeps: whole milliseconds since 1970.
    static func millisecondPrecision(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds(date)) / 1000)
    }

    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        return Int64(exactly: value) ?? (value < 0 ? Int64.min : Int64.max)
    }

    /// Who made the access.
    public enum Actor: Hashable, Sendable, CustomStringConvertible {
        /// The vault itself (startup, scheduled work).
        case system
        /// The owner, through the CLI.
        case owner
        /// An enrolled app, by its app id.
        case app(String)

        public var description: String {
            switch self {
            case .system: "system"
            case .owner: "owner"
            case .app(let id): id
            }
        }
    }

    /// What was done. A name from docs/AUDIT_LOG.md's table; the set can grow.
    public struct Operation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        public static let authorizationRequest = Operation(rawValue: "authorization.request")
        public static let authorizationStatus = Operation(rawValue: "authorization.status")
        public static let authorizationGrant = Operation(rawValue: "authorization.grant")
        public static let authorizationDeny = Operation(rawValue: "authorization.deny")
        public static let authorizationRevoke = Operation(rawValue: "authorization.revoke")
        // The owner's decisions, one operation per permission, so the log alone answers "could
        // this app read that type then?". Actor `owner`; the request id is the app decided about.
        public static let authorizationGrantRead = Operation(rawValue: "authorization.grant-read")
        public static let authorizationGrantShare = Operation(rawValue: "authorization.grant-share")
        public static let authorizationDenyRead = Operation(rawValue: "authorization.deny-read")
        public static let authorizationDenyShare = Operation(rawValue: "authorization.deny-share")
        public static let authorizationRevokeRead = Operation(rawValue: "authorization.revoke-read")
        public static let authorizationRevokeShare = Operation(rawValue: "authorization.revoke-share")
        /// A grant's expiry took effect: the permission is denied from the instant its `expired`
        /// attribute gives. Actor `system`; the request id is the app the grant was for.
        public static let authorizationExpireRead = Operation(rawValue: "authorization.expire-read")
        public static let authorizationExpireShare = Operation(rawValue: "authorization.expire-share")
        /// The owner replaced the vault's access policy.
        public static let policySet = Operation(rawValue: "policy.set")
        public static let appEnroll = Operation(rawValue: "app.enroll")
        public static let appRemove = Operation(rawValue: "app.remove")
        public static let save = Operation(rawValue: "save")
        public static let delete = Operation(rawValue: "delete")
        public static let querySample = Operation(rawValue: "query.sample")
        public static let queryAnchored = Operation(rawValue: "query.anchored")
        public static let queryStatistics = Operation(rawValue: "query.statistics")
        public static let queryStatisticsCollection = Operation(rawValue: "query.statistics-collection")
        public static let querySource = Operation(rawValue: "query.source")
        public static let queryCorrelation = Operation(rawValue: "query.correlation")
        public static let queryCharacteristic = Operation(rawValue: "query.characteristic")
        public static let queryActivitySummary = Operation(rawValue: "query.activity-summary")
        /// A batch of one electrocardiogram's voltage measurements (HealthKit's `HKElectrocardiogramQuery`).
        public static let queryElectrocardiogram = Operation(rawValue: "query.electrocardiogram")
        /// A batch of one heartbeat series' beats (HealthKit's `HKHeartbeatSeriesQuery`).
        public static let queryHeartbeatSeries = Operation(rawValue: "query.heartbeat-series")
        /// A batch of one quantity sample's quantities (HealthKit's `HKQuantitySeriesSampleQuery`).
        public static let queryQuantitySeries = Operation(rawValue: "query.quantity-series")
        public static let characteristicSet = Operation(rawValue: "characteristic.set")
        public static let subscribe = Operation(rawValue: "subscribe")
        public static let unsubscribe = Operation(rawValue: "unsubscribe")
        /// An app asked for background delivery of a type (the entry names it), or stopped it
        /// (the types it stopped; none when it stopped every one and had none).
        public static let backgroundEnable = Operation(rawValue: "background.enable")
        public static let backgroundDisable = Operation(rawValue: "background.disable")
        public static let authenticationFailure = Operation(rawValue: "authentication.failure")
        public static let unlock = Operation(rawValue: "vault.unlock")
        /// The owner opened a vault whose `audit-checkpoint.note` was missing, accepting that a
        /// rollback of its database could not be checked this once.
        public static let openWithoutCheckpoint = Operation(rawValue: "vault.open-without-checkpoint")
        public static let lock = Operation(rawValue: "vault.lock")
        public static let passphraseChange = Operation(rawValue: "vault.passphrase-change")
        /// The owner opened a session (`healthvault login`): later owner connections from its uid
        /// present its token instead of the passphrase's proof until it expires. Never the token.
        public static let sessionOpen = Operation(rawValue: "session.open")
        /// The owner ended a session before its expiry (`healthvault logout`).
        public static let sessionClose = Operation(rawValue: "session.close")
        public static let `import` = Operation(rawValue: "vault.import")
        public static let export = Operation(rawValue: "vault.export")
        public static let auditExport = Operation(rawValue: "audit.export")
        /// The owner backed the vault up (`healthvault backup`): a copy of the database, the key
        /// file, the public key and the checkpoint that covers this entry.
        public static let backup = Operation(rawValue: "vault.backup")
        /// The vault was restored from a backup (`healthvault restore`): the first entry the
        /// restored vault's owner writes after the backup's own entries.
        public static let restore = Operation(rawValue: "vault.restore")
        /// The owner insisted on restoring a backup whose log is behind (or diverges from) the
        /// log of the vault it replaced: a rollback, on the record. The count is the replaced
        /// vault's log size.
        public static let restoreOlder = Operation(rawValue: "vault.restore-older")
        /// The owner changed a vault setting: a type's source priority (the entry names the type)
        /// or the time zone statistics are counted in (no type).
        public static let settingsSet = Operation(rawValue: "settings.set")
        /// A step of a workout session or its live builder that reads and writes no health data
        /// (docs/WORKOUTS.md): the session created, recovered or mirrored, a state change, the
        /// builder's collection begun or ended, its data source's types, events, metadata,
        /// activities, data sent between the session's connections. The types are the ones the
        /// step names, if any.
        public static let workoutSession = Operation(rawValue: "workout.session")
        /// A live builder's statistics read: pushed to the app as samples arrive, or asked for.
        /// The count is the number of statistics.
        public static let workoutCollect = Operation(rawValue: "workout.collect")
        /// A live builder's workout saved (count 1) with everything associated with it.
        public static let workoutFinish = Operation(rawValue: "workout.finish")
        /// A live builder discarded, or its session ended by another session of the same app.
        public static let workoutDiscard = Operation(rawValue: "workout.discard")
        /// A route builder begun, locations inserted into it (the count: how many), or it discarded.
        public static let workoutRoute = Operation(rawValue: "workout.route")
        /// A route's locations read (the count: how many were returned).
        public static let queryRoute = Operation(rawValue: "query.route")
        /// The owner's summary of what the vault holds, per type and source (counts and dates).
        public static let querySummary = Operation(rawValue: "query.summary")
        /// The owner's statistics of a category type per interval (time asleep per night).
        public static let queryCategoryStatistics = Operation(rawValue: "query.category-statistics")
        /// An app asked to read a type object by object (`requestPerObjectReadAuthorization`).
        public static let authorizationRequestObjects = Operation(rawValue: "authorization.request-objects")
        /// The owner let an app read these objects (attribute `objects`; docs/AUDIT_LOG.md,
        /// "Per-object choices"). Actor `owner`; the request id is the app.
        public static let authorizationGrantObjects = Operation(rawValue: "authorization.grant-objects")
        /// The owner took these objects back from an app (attribute `objects`).
        public static let authorizationRevokeObjects = Operation(rawValue: "authorization.revoke-objects")
        /// The owner answered an app's request to read objects without choosing any (attribute `request`).
        public static let authorizationDenyObjects = Operation(rawValue: "authorization.deny-objects")
        /// A batch of a document query (HealthKit's `HKDocumentQuery`): the count is the documents returned.
        public static let queryDocument = Operation(rawValue: "query.document")
        /// The owner's health report (`healthvault report`): its figures read in one snapshot,
        /// then this entry appended with a checkpoint signed in its transaction. The types are
        /// those with samples in the report's range; the count, those samples.
        public static let report = Operation(rawValue: "vault.report")

        /// Every operation this version names (docs/AUDIT_LOG.md): what `healthvault audit show
        /// --operation` takes.
        public static let known: [Operation] = [
            .authorizationRequest, .authorizationStatus, .authorizationGrant, .authorizationDeny, .authorizationRevoke,
            .authorizationGrantRead, .authorizationGrantShare, .authorizationDenyRead, .authorizationDenyShare,
            .authorizationRevokeRead, .authorizationRevokeShare, .authorizationExpireRead, .authorizationExpireShare,
            .policySet,
            .appEnroll, .appRemove, .save, .delete, .querySample, .queryAnchored, .queryStatistics,
            .queryStatisticsCollection, .querySource, .queryCorrelation, .queryCharacteristic, .queryActivitySummary,
            .queryElectrocardiogram, .queryHeartbeatSeries, .queryQuantitySeries, .characteristicSet,
            .subscribe, .unsubscribe, .backgroundEnable, .backgroundDisable, .authenticationFailure, .unlock,
            .openWithoutCheckpoint, .lock,
            .passphraseChange, .sessionOpen, .sessionClose, .import, .export,
            .auditExport, .settingsSet, .workoutSession, .workoutCollect, .workoutFinish, .workoutDiscard,
            .workoutRoute, .queryRoute, .querySummary, .backup, .restore, .restoreOlder, .queryCategoryStatistics,
            .authorizationRequestObjects, .authorizationGrantObjects, .authorizationRevokeObjects,
            .authorizationDenyObjects, .queryDocument, .report,
        ]

        /// Whether the name has the allowed shape: 1-64 of `a-z 0-9 . -`, starting with a letter.
        var isWellFormed: Bool { AuditEntry.isWellFormedName(rawValue) }
    }

    /// Whether a name (an operation's, an attribute's) has the allowed shape: 1-64 of
    /// `a-z 0-9 . -`, starting with a letter.
    static func isWellFormedName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[0]) else {
            return false
        }
        return bytes.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
    }

    /// How the access ended.
    public enum Outcome: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case ok = 0
        /// Refused, and the caller was told so (a save without a share grant).
        case denied = 1
        /// Refused, and answered exactly as an empty result (a read without a read grant).
        case deniedServedEmpty = 2
        /// Failed: bad input or an internal error.
        case error = 3

        public var description: String {
            switch self {
            case .ok: "ok"
            case .denied: "denied"
            case .deniedServedEmpty: "denied-served-empty"
            case .error: "error"
            }
        }
    }
}
