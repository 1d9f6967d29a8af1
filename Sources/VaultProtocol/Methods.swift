public import Foundation
public import HealthModel

/// Every method name of the protocol (docs/PROTOCOL.md).
public enum Method {
    // Before authentication.
    public static let hello = "hello"  // a notification, daemon to client
    public static let authenticate = "authenticate"

    // An app's (and, where noted, the owner's).
    public static let requestAuthorization = "authorization.request"
    public static let authorizationRequestStatus = "authorization.requestStatus"
    public static let authorizationStatus = "authorization.status"
    public static let save = "samples.save"
    public static let delete = "samples.delete"  // owner too
    public static let deleteObjects = "samples.deleteObjects"  // owner too
    public static let querySamples = "query.samples"  // owner too
    public static let queryObject = "query.object"  // owner too
    public static let querySources = "query.sources"  // owner too
    public static let queryAnchored = "query.anchored"  // owner too
    public static let queryCorrelations = "query.correlations"  // owner too
    public static let queryActivitySummaries = "query.activitySummaries"  // owner too
    public static let activitySummariesUpdate = "activitySummaries.update"  // a notification, daemon to client
    public static let queryStatistics = "query.statistics"  // owner too
    public static let queryStatisticsCollection = "query.statisticsCollection"  // owner too
    public static let characteristic = "characteristic.get"  // owner too
    public static let preferredUnits = "units.preferred"  // owner too
    public static let observerStart = "observer.start"
    public static let observerStop = "observer.stop"
    public static let observerUpdate = "observer.update"  // a notification, daemon to client
    public static let observerAcknowledge = "observer.acknowledge"
    public static let observerEnableBackgroundDelivery = "observer.enableBackgroundDelivery"
    public static let observerDisableBackgroundDelivery = "observer.disableBackgroundDelivery"

    // The owner's only.
    public static let status = "vault.status"
    public static let lock = "vault.lock"
    public static let unlock = "vault.unlock"
    public static let changePassphrase = "vault.changePassphrase"
    public static let sessionOpen = "session.open"
    public static let sessionClose = "session.close"
    public static let appsEnroll = "apps.enroll"
    public static let appsList = "apps.list"
    public static let appsShow = "apps.show"
    public static let appsRemove = "apps.remove"
    public static let requestsList = "requests.list"
    public static let requestsApprove = "requests.approve"
    public static let requestsDeny = "requests.deny"
    public static let grantsDecide = "grants.decide"
    public static let profileSet = "profile.set"
    public static let profileRemove = "profile.remove"
    public static let profileShow = "profile.show"
    public static let auditExport = "audit.export"
    public static let auditEntries = "audit.entries"
    public static let sourcesPriority = "sources.priority"
    public static let sourcesSetPriority = "sources.setPriority"
    public static let settingsShow = "settings.show"
    public static let settingsSetTimeZone = "settings.setTimeZone"
    public static let settingsSetActivityGoals = "settings.setActivityGoals"
    public static let settingsSetPreferredUnit = "settings.setPreferredUnit"
    public static let samplesSummary = "samples.summary"
    public static let samplesCategoryStatistics = "samples.categoryStatistics"
    public static let samplesDeletePreview = "samples.deletePreview"
    public static let importAppleHealth = "import.appleHealth"
    public static let importProgress = "import.progress"  // a notification, daemon to owner
    public static let importCSV = "import.csv"
    public static let samplesAdd = "samples.add"
    public static let exportWrite = "export.write"
    public static let exportProgress = "export.progress"  // a notification, daemon to owner
    public static let importJSON = "import.json"
    public static let backup = "vault.backup"
    public static let backupProgress = "backup.progress"  // a notification, daemon to owner
    public static let backupFailed = "vault.backupFailed"
    public static let report = "vault.report"
}

// MARK: Handshake

/// The daemon's first message on every connection (a notification).
public struct Hello: Hashable, Sendable, Codable {
    public var `protocol`: String
    public var version: UInt32
    /// This connection's id, a UUID; signed in the handshake.
    public var connection: UUID
    /// 32 random bytes, base64; signed in the handshake.
    public var nonce: String
    /// The vault's id.
    public var vault: UUID
    public var locked: Bool
    /// The largest frame payload the daemon reads, bytes.
    public var maxFrameBytes: Int
    /// Seconds the client has to authenticate.
    public var authenticationTimeout: Double

    public init(
        connection: UUID,
        nonce: [UInt8],
        vault: UUID,
        locked: Bool,
        maxFrameBytes: Int,
        authenticationTimeout: Double
    ) {
        self.protocol = WireProtocol.name
        self.version = WireProtocol.version
        self.connection = connection
        self.nonce = Data(nonce).base64EncodedString()
        self.vault = vault
        self.locked = locked
        self.maxFrameBytes = maxFrameBytes
        self.authenticationTimeout = authenticationTimeout
    }
}

public struct AuthenticateParams: Hashable, Sendable, Codable {
    public var version: UInt32
    /// The app id; absent when `owner` is true.
    public var app: String?
    /// True to authenticate as the vault's owner, with the owner key.
    public var owner: Bool?
    /// The Ed25519 signature of ``WireProtocol/signedMessage(version:nonce:identity:connectionID:)``,
    /// base64; absent (or empty) when the owner presents a `session` instead.
    public var signature: String?
    /// The owner's session token (`session.open`), 64 lowercase hex digits, instead of a signature.
    public var session: String?

    public init(
        version: UInt32 = WireProtocol.version,
        app: String?,
        owner: Bool? = nil,
        signature: String?,
        session: String? = nil
    ) {
        self.version = version
        self.app = app
        self.owner = owner
        self.signature = signature
        self.session = session
    }
}

public struct AuthenticateResult: Hashable, Sendable, Codable {
    /// "app" or "owner".
    public var role: String
    public var app: String?

    public init(role: String, app: String?) {
        self.role = role
        self.app = app
    }
}

// MARK: Authorization

public struct AuthorizationTypesParams: Hashable, Sendable, Codable {
    public var toShare: [SampleType]
    public var read: [ObjectType]

    public init(toShare: [SampleType], read: [ObjectType]) {
        self.toShare = toShare
        self.read = read
    }
}

public struct AuthorizationRequestStatusResult: Hashable, Sendable, Codable {
    /// `unknown`, `shouldRequest` or `unnecessary`.
    public var status: String

    public init(status: String) {
        self.status = status
    }
}

public struct TypeParams: Hashable, Sendable, Codable {
    public var type: ObjectType

    public init(type: ObjectType) {
        self.type = type
    }
}

public struct AuthorizationStatusResult: Hashable, Sendable, Codable {
    /// `notDetermined`, `sharingDenied` or `sharingAuthorized`.
    public var status: String

    public init(status: String) {
        self.status = status
    }
}

// MARK: Samples

public struct SaveParams: Sendable, Codable {
    public var objects: [Sample]

    public init(objects: [Sample]) {
        self.objects = objects
    }
}

public struct SaveResult: Hashable, Sendable, Codable {
    /// Objects stored (new, or a newer sync version).
    public var saved: Int

    public init(saved: Int) {
        self.saved = saved
    }
}

public struct DeleteParams: Hashable, Sendable, Codable {
    public var uuids: [UUID]

    public init(uuids: [UUID]) {
        self.uuids = uuids
    }
}

public struct DeleteObjectsParams: Hashable, Sendable, Codable {
    public var type: SampleType
    public var predicate: SamplePredicate?

    public init(type: SampleType, predicate: SamplePredicate?) {
        self.type = type
        self.predicate = predicate
    }
}

public struct DeleteResult: Hashable, Sendable, Codable {
    /// Samples deleted (a correlation's members included).
    public var deleted: Int

    public init(deleted: Int) {
        self.deleted = deleted
    }
}

public struct SampleQueryParams: Hashable, Sendable, Codable {
    public var query: SampleQueryDescriptor

    public init(query: SampleQueryDescriptor) {
        self.query = query
    }
}

public struct SamplesResult: Sendable, Codable {
    public var samples: [Sample]

    public init(samples: [Sample]) {
        self.samples = samples
    }
}

public struct AnchoredQueryParams: Hashable, Sendable, Codable {
    public var query: AnchoredObjectQueryDescriptor

    public init(query: AnchoredObjectQueryDescriptor) {
        self.query = query
    }
}

public struct CorrelationQueryParams: Hashable, Sendable, Codable {
    public var query: CorrelationQueryDescriptor

    public init(query: CorrelationQueryDescriptor) {
        self.query = query
    }
}

public struct CorrelationsResult: Sendable, Codable {
    /// Oldest first (by start date, then UUID).
    public var correlations: [Correlation]

    public init(correlations: [Correlation]) {
        self.correlations = correlations
    }
}

public struct ActivitySummaryQueryParams: Hashable, Sendable, Codable {
    public var query: ActivitySummaryQueryDescriptor
    /// True: the query keeps running and its changes arrive as `activitySummaries.update`
    /// notifications (HealthKit's `updateHandler`).
    public var updates: Bool?

    public init(query: ActivitySummaryQueryDescriptor, updates: Bool? = nil) {
        self.query = query
        self.updates = updates
    }
}

public struct ActivitySummariesResult: Hashable, Sendable, Codable {
    /// One per day with data, in order.
    public var summaries: [ActivitySummary]
    /// The running query's subscription, when it was asked for with `updates`.
    public var subscription: UUID?

    public init(summaries: [ActivitySummary], subscription: UUID? = nil) {
        self.summaries = summaries
        self.subscription = subscription
    }
}

/// An `activitySummaries.update` notification: what changed in a running activity summary query's
/// answer since the last one the connection was sent.
public struct ActivitySummariesUpdateParams: Hashable, Sendable, Codable {
    public var subscription: UUID
    /// New or modified summaries, oldest first.
    public var summaries: [ActivitySummary]
    /// Days (`YYYY-MM-DD`) that had a summary and have none now, oldest first.
    public var removedDays: [String]
    /// Present on the last update of a query that stopped because a new answer could not be
    /// computed (both lists are then empty).
    public var error: HealthError?

    public init(subscription: UUID, summaries: [ActivitySummary], removedDays: [String], error: HealthError? = nil) {
        self.subscription = subscription
        self.summaries = summaries
        self.removedDays = removedDays
        self.error = error
    }
}

public struct SourceQueryParams: Hashable, Sendable, Codable {
    public var query: SourceQueryDescriptor

    public init(query: SourceQueryDescriptor) {
        self.query = query
    }
}

public struct SourcesResult: Hashable, Sendable, Codable {
    /// By bundle identifier.
    public var sources: [Source]

    public init(sources: [Source]) {
        self.sources = sources
    }
}

public struct ObjectParams: Hashable, Sendable, Codable {
    public var uuid: UUID

    public init(uuid: UUID) {
        self.uuid = uuid
    }
}

public struct ObjectResult: Sendable, Codable {
    /// Absent when there is no such object the caller may see.
    public var sample: Sample?

    public init(sample: Sample?) {
        self.sample = sample
    }
}

public struct PreferredUnitsParams: Hashable, Sendable, Codable {
    public var types: [QuantityTypeIdentifier]

    public init(types: [QuantityTypeIdentifier]) {
        self.types = types
    }
}

public struct PreferredUnitsResult: Hashable, Sendable, Codable {
    /// By type identifier: the owner's unit, else the type's canonical one.
    public var units: [String: HealthUnit]

    public init(units: [String: HealthUnit]) {
        self.units = units
    }
}

public struct CharacteristicParams: Hashable, Sendable, Codable {
    public var type: CharacteristicTypeIdentifier

    public init(type: CharacteristicTypeIdentifier) {
        self.type = type
    }
}

public struct CharacteristicResult: Hashable, Sendable, Codable {
    /// Absent when not set (or not readable: the same answer).
    public var value: CharacteristicValue?

    public init(value: CharacteristicValue?) {
        self.value = value
    }
}

// MARK: Observers

public struct ObserverStartParams: Hashable, Sendable, Codable {
    public var types: [SampleType]
    /// `immediate` when absent.
    public var frequency: UpdateFrequency?

    public init(types: [SampleType], frequency: UpdateFrequency?) {
        self.types = types
        self.frequency = frequency
    }
}

public struct SubscriptionParams: Hashable, Sendable, Codable {
    public var subscription: UUID

    public init(subscription: UUID) {
        self.subscription = subscription
    }
}

/// The `observer.update` notification: samples of these types changed.
public struct ObserverUpdateParams: Hashable, Sendable, Codable {
    public var subscription: UUID
    public var types: [SampleType]
    /// Present when some of the types have background delivery: acknowledge it with
    /// `observer.acknowledge` once handled, or it is delivered again on the next subscription.
    public var delivery: String?

    public init(subscription: UUID, types: [SampleType], delivery: String? = nil) {
        self.subscription = subscription
        self.types = types
        self.delivery = delivery
    }
}

public struct AcknowledgeParams: Hashable, Sendable, Codable {
    public var delivery: String

    public init(delivery: String) {
        self.delivery = delivery
    }
}

public struct EnableBackgroundDeliveryParams: Hashable, Sendable, Codable {
    public var type: SampleType
    public var frequency: UpdateFrequency

    public init(type: SampleType, frequency: UpdateFrequency) {
        self.type = type
        self.frequency = frequency
    }
}

public struct DisableBackgroundDeliveryParams: Hashable, Sendable, Codable {
    /// Absent: every type.
    public var types: [SampleType]?

    public init(types: [SampleType]?) {
        self.types = types
    }
}

public struct StatisticsQueryParams: Hashable, Sendable, Codable {
    public var query: StatisticsQueryDescriptor

    public init(query: StatisticsQueryDescriptor) {
        self.query = query
    }
}

public struct StatisticsResult: Hashable, Sendable, Codable {
    /// Null when the caller sees no matching sample.
    public var statistics: Statistics?

    public init(statistics: Statistics?) {
        self.statistics = statistics
    }

    // Always present, null included, so the answer's shape never depends on the data.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statistics, forKey: .statistics)
    }
}

public struct StatisticsCollectionQueryParams: Hashable, Sendable, Codable {
    public var query: StatisticsCollectionQueryDescriptor

    public init(query: StatisticsCollectionQueryDescriptor) {
        self.query = query
    }
}

public struct StatisticsCollectionResult: Hashable, Sendable, Codable {
    public var collection: StatisticsCollection

    public init(collection: StatisticsCollection) {
        self.collection = collection
    }
}
