public import Foundation
public import HealthModel

// The owner's methods: parameters and results (docs/PROTOCOL.md, "The owner's methods").

public struct StatusResult: Hashable, Sendable, Codable {
    public var vault: UUID
    public var directory: String
    public var locked: Bool
    public var connections: Int
    public var apps: Int?
    public var pendingRequests: Int?
    public var auditEntries: Int?
    /// The daemon's resident memory, bytes.
    public var residentBytes: Int?
    /// Of it, what the encrypted store's library holds (its page caches above all), bytes.
    public var storeBytes: Int?

    public init(
        vault: UUID,
        directory: String,
        locked: Bool,
        connections: Int,
        apps: Int?,
        pendingRequests: Int?,
        auditEntries: Int?,
        residentBytes: Int? = nil,
        storeBytes: Int? = nil
    ) {
        self.vault = vault
        self.directory = directory
        self.locked = locked
        self.connections = connections
        self.apps = apps
        self.pendingRequests = pendingRequests
        self.auditEntries = auditEntries
        self.residentBytes = residentBytes
        self.storeBytes = storeBytes
    }
}

public struct PassphraseParams: Sendable, Codable {
    /// The passphrase, base64 of its UTF-8 bytes.
    public var passphrase: String

    public init(passphrase: String) {
        self.passphrase = passphrase
    }
}

public struct ChangePassphraseParams: Sendable, Codable {
    /// base64 of the UTF-8 bytes.
    public var old: String
    public var new: String

    public init(old: String, new: String) {
        self.old = old
        self.new = new
    }
}

public struct EnrollParams: Hashable, Sendable, Codable {
    /// The manifest's JSON text (policies/apps/*.json).
    public var manifest: String
    /// The manifest's file name, for error messages.
    public var file: String
    /// The app's Ed25519 public key, base64 of 32 bytes.
    public var publicKey: String
    public var adoptExistingSamples: Bool?

    public init(manifest: String, file: String, publicKey: String, adoptExistingSamples: Bool?) {
        self.manifest = manifest
        self.file = file
        self.publicKey = publicKey
        self.adoptExistingSamples = adoptExistingSamples
    }
}

public struct AppParams: Hashable, Sendable, Codable {
    public var app: String

    public init(app: String) {
        self.app = app
    }
}

/// One permission's state: `notDetermined`, `granted` or `denied`, with when and by whom (`owner`,
/// or `expiry` for a grant that expired); a read grant's window; a grant's expiry (for a grant
/// that expired, the instant it did, `at` too).
public struct DeterminationInfo: Hashable, Sendable, Codable {
    public var state: String
    public var at: Date?
    public var by: String?
    public var window: WindowInfo?
    public var expiresAt: Date?

    public init(state: String, at: Date?, by: String?, window: WindowInfo? = nil, expiresAt: Date? = nil) {
        self.state = state
        self.at = at
        self.by = by
        self.window = window
        self.expiresAt = expiresAt
    }
}

/// A read grant's window (docs/PROTOCOL.md, "Windows and expiries"): `kind` `fixed` (`start`,
/// `end` or both: other apps' samples lying wholly between them), `last` (`seconds`: those of the
/// last so many seconds before each request) or `sinceGrant` (from the grant's instant on: in
/// answers, `start` is that instant).
public struct WindowInfo: Hashable, Sendable, Codable {
    public var kind: String
    public var start: Date?
    public var end: Date?
    public var seconds: Double?

    public init(kind: String, start: Date? = nil, end: Date? = nil, seconds: Double? = nil) {
        self.kind = kind
        self.start = start
        self.end = end
        self.seconds = seconds
    }
}

public struct GrantInfo: Hashable, Sendable, Codable {
    public var type: ObjectType
    public var read: DeterminationInfo
    public var share: DeterminationInfo

    public init(type: ObjectType, read: DeterminationInfo, share: DeterminationInfo) {
        self.type = type
        self.read = read
        self.share = share
    }
}

public struct RequestInfo: Hashable, Sendable, Codable {
    public var id: Int64
    public var app: String
    public var requestedAt: Date
    public var read: [ObjectType]
    public var share: [ObjectType]

    public init(id: Int64, app: String, requestedAt: Date, read: [ObjectType], share: [ObjectType]) {
        self.id = id
        self.app = app
        self.requestedAt = requestedAt
        self.read = read
        self.share = share
    }
}

public struct AppInfo: Hashable, Sendable, Codable {
    public var app: String
    public var name: String
    public var publicKey: String
    public var readPurpose: String
    public var sharePurpose: String
    public var declaredRead: [ObjectType]
    public var declaredShare: [SampleType]
    /// Why it wants each of some declared types (its manifest's `purposes`), by identifier;
    /// absent when the manifest gave none.
    public var purposes: [String: String]?
    public var enrolledAt: Date
    /// Present in `apps.show` and `apps.list`.
    public var grants: [GrantInfo]?
    public var pendingRequests: [RequestInfo]?

    public init(
        app: String,
        name: String,
        publicKey: String,
        readPurpose: String,
        sharePurpose: String,
        declaredRead: [ObjectType],
        declaredShare: [SampleType],
        purposes: [String: String]? = nil,
        enrolledAt: Date,
        grants: [GrantInfo]?,
        pendingRequests: [RequestInfo]?
    ) {
        self.app = app
        self.name = name
        self.publicKey = publicKey
        self.readPurpose = readPurpose
        self.sharePurpose = sharePurpose
        self.declaredRead = declaredRead
        self.declaredShare = declaredShare
        self.purposes = purposes
        self.enrolledAt = enrolledAt
        self.grants = grants
        self.pendingRequests = pendingRequests
    }
}

public struct AppsResult: Hashable, Sendable, Codable {
    public var apps: [AppInfo]

    public init(apps: [AppInfo]) {
        self.apps = apps
    }
}

public struct RequestsListParams: Hashable, Sendable, Codable {
    public var app: String?

    public init(app: String?) {
        self.app = app
    }
}

public struct RequestsResult: Hashable, Sendable, Codable {
    public var requests: [RequestInfo]
    /// Apps that asked again for permissions the owner had all decided (nothing new waits), since
    /// the owner's last decision for each; absent when there are none.
    public var repeated: [RepeatedRequestInfo]?
    /// The requests to read a type object by object (vision prescriptions, documents); the daemon
    /// always sends the member, possibly empty.
    public var objectRequests: [ObjectRequestInfo]?

    public init(
        requests: [RequestInfo],
        repeated: [RepeatedRequestInfo]? = nil,
        objectRequests: [ObjectRequestInfo] = []
    ) {
        self.requests = requests
        self.repeated = repeated
        self.objectRequests = objectRequests
    }
}

/// An app's asks again for what the owner decided: how often, first and latest, and the types of
/// the latest.
public struct RepeatedRequestInfo: Hashable, Sendable, Codable {
    public var app: String
    public var firstAskedAt: Date
    public var lastAskedAt: Date
    public var times: Int
    public var read: [ObjectType]
    public var share: [ObjectType]

    public init(app: String, firstAskedAt: Date, lastAskedAt: Date, times: Int, read: [ObjectType], share: [ObjectType])
    {
        self.app = app
        self.firstAskedAt = firstAskedAt
        self.lastAskedAt = lastAskedAt
        self.times = times
        self.read = read
        self.share = share
    }
}

public struct RequestIDParams: Hashable, Sendable, Codable {
    public var id: Int64

    public init(id: Int64) {
        self.id = id
    }
}

public struct DecideParams: Hashable, Sendable, Codable {
    public var app: String
    public var types: [ObjectType]
    /// `grant`, `deny` or `revoke`.
    public var decision: String
    /// `read`, `share`, or both.
    public var access: [String]
    /// For a read grant: its window (`kind` `fixed`, `last` or `sinceGrant`).
    public var window: WindowInfo?
    /// For a grant: the instant it expires.
    public var expiresAt: Date?

    public init(
        app: String,
        types: [ObjectType],
        decision: String,
        access: [String],
        window: WindowInfo? = nil,
        expiresAt: Date? = nil
    ) {
        self.app = app
        self.types = types
        self.decision = decision
        self.access = access
        self.window = window
        self.expiresAt = expiresAt
    }
}

public struct ProfileSetParams: Hashable, Sendable, Codable {
    public var value: CharacteristicValue

    public init(value: CharacteristicValue) {
        self.value = value
    }
}

public struct ProfileResult: Hashable, Sendable, Codable {
    public var values: [CharacteristicValue]

    public init(values: [CharacteristicValue]) {
        self.values = values
    }
}

public struct AuditExportParams: Hashable, Sendable, Codable {
    /// An absolute path: a directory that does not exist yet, or an empty one.
    public var directory: String

    public init(directory: String) {
        self.directory = directory
    }
}

public struct AuditExportResult: Hashable, Sendable, Codable {
    public var directory: String
    public var entries: UInt64
    /// The signed checkpoint's text (C2SP tlog-checkpoint).
    public var checkpoint: String

    public init(directory: String, entries: UInt64, checkpoint: String) {
        self.directory = directory
        self.entries = entries
        self.checkpoint = checkpoint
    }
}

public struct AuditEntriesParams: Hashable, Sendable, Codable {
    public var app: String?
    public var type: String?
    public var operation: String?
    public var outcome: String?
    public var from: Date?
    public var to: Date?
    /// The most entries returned, the newest; 0 or absent means 1,000.
    public var limit: Int?

    public init(
        app: String? = nil,
        type: String? = nil,
        operation: String? = nil,
        outcome: String? = nil,
        from: Date? = nil,
        to: Date? = nil,
        limit: Int? = nil
    ) {
        self.app = app
        self.type = type
        self.operation = operation
        self.outcome = outcome
        self.from = from
        self.to = to
        self.limit = limit
    }
}

/// One audit entry as the owner reads it. `time` is written to the millisecond, as the log keeps it
/// (RFC 3339 with exactly three fractional digits, docs/PROTOCOL.md), never with the extra digits
/// of the binary fraction a `Date` holds.
public struct AuditEntryInfo: Hashable, Sendable, Codable {
    public var index: UInt64
    public var time: Date
    public var actor: String
    public var operation: String
    public var types: [String]
    public var count: UInt64
    public var outcome: String
    public var request: String
    /// The entry's attributes (docs/AUDIT_LOG.md, "Attributes"); absent when it has none.
    public var attributes: [String: String]?

    public init(
        index: UInt64,
        time: Date,
        actor: String,
        operation: String,
        types: [String],
        count: UInt64,
        outcome: String,
        request: String,
        attributes: [String: String]? = nil
    ) {
        self.index = index
        self.time = time
        self.actor = actor
        self.operation = operation
        self.types = types
        self.count = count
        self.outcome = outcome
        self.request = request
        self.attributes = attributes?.isEmpty == true ? nil : attributes
    }

    enum CodingKeys: String, CodingKey {
        case index, time, actor, operation, types, count, outcome, request, attributes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .time)
        guard let time = RFC3339.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .time,
                in: container,
                debugDescription: "not an RFC 3339 date"
            )
        }
        self.init(
            index: try container.decode(UInt64.self, forKey: .index),
            time: time,
            actor: try container.decode(String.self, forKey: .actor),
            operation: try container.decode(String.self, forKey: .operation),
            types: try container.decode([String].self, forKey: .types),
            count: try container.decode(UInt64.self, forKey: .count),
            outcome: try container.decode(String.self, forKey: .outcome),
            request: try container.decode(String.self, forKey: .request),
            attributes: try container.decodeIfPresent([String: String].self, forKey: .attributes)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(Self.millisecondTimestamp(time), forKey: .time)
        try container.encode(actor, forKey: .actor)
        try container.encode(operation, forKey: .operation)
        try container.encode(types, forKey: .types)
        try container.encode(count, forKey: .count)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(request, forKey: .request)
        try container.encodeIfPresent(attributes, forKey: .attributes)
    }

    /// `2026-11-22T09:00:12.500Z`: the date rounded to the millisecond, in UTC.
    static func millisecondTimestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = remainder < 0 ? seconds - 1 : seconds
        let fraction = remainder < 0 ? remainder + 1000 : remainder
        // A whole second is written with ".000Z"; only the fraction is replaced.
        let text = RFC3339.string(from: Date(timeIntervalSince1970: TimeInterval(whole)))
        return String(text.dropLast(5)) + "." + String(String(fraction + 1000).dropFirst()) + "Z"
    }
}

public struct AuditEntriesResult: Hashable, Sendable, Codable {
    public var entries: [AuditEntryInfo]
    /// Entries in the log in all.
    public var total: UInt64

    public init(entries: [AuditEntryInfo], total: UInt64) {
        self.entries = entries
        self.total = total
    }
}

/// `sources.priority`: one type's order (`type` given) or every type the owner has ordered.
public struct SourcePriorityParams: Hashable, Sendable, Codable {
    public var type: QuantityTypeIdentifier?

    public init(type: QuantityTypeIdentifier?) {
        self.type = type
    }
}

/// `sources.setPriority`: a type's sources, highest priority first; empty restores the default.
public struct SetSourcePriorityParams: Hashable, Sendable, Codable {
    public var type: QuantityTypeIdentifier
    public var sources: [String]

    public init(type: QuantityTypeIdentifier, sources: [String]) {
        self.type = type
        self.sources = sources
    }
}

public struct SourcePriorityResult: Hashable, Sendable, Codable {
    /// Type identifier to bundle identifiers, highest priority first.
    public var priorities: [String: [String]]

    public init(priorities: [String: [String]]) {
        self.priorities = priorities
    }
}

public struct SettingsResult: Hashable, Sendable, Codable {
    /// The time zone statistics collections use when a query names none.
    public var timeZone: String
    /// The owner's daily activity goals in force today.
    public var activityGoals: ActivityGoals

    public init(timeZone: String, activityGoals: ActivityGoals) {
        self.timeZone = timeZone
        self.activityGoals = activityGoals
    }
}

public struct PreferredUnitParams: Hashable, Sendable, Codable {
    public var type: QuantityTypeIdentifier
    /// Absent: back to the type's canonical unit.
    public var unit: HealthUnit?

    public init(type: QuantityTypeIdentifier, unit: HealthUnit?) {
        self.type = type
        self.unit = unit
    }
}

public struct TimeZoneParams: Hashable, Sendable, Codable {
    public var timeZone: String

    public init(timeZone: String) {
        self.timeZone = timeZone
    }
}

/// `samples.summary`: what the vault holds, per type (identifier order).
/// `samples.categoryStatistics`: statistics of a category type per interval (docs/STATISTICS.md,
/// "Category statistics").
public struct CategoryStatisticsQueryParams: Hashable, Sendable, Codable {
    public var query: CategoryStatisticsQueryDescriptor

    public init(query: CategoryStatisticsQueryDescriptor) {
        self.query = query
    }
}

public struct CategoryStatisticsResult: Hashable, Sendable, Codable {
    public var collection: CategoryStatisticsCollection

    public init(collection: CategoryStatisticsCollection) {
        self.collection = collection
    }
}

public struct SamplesSummaryResult: Hashable, Sendable, Codable {
    public struct TypeInfo: Hashable, Sendable, Codable {
        public struct SourceInfo: Hashable, Sendable, Codable {
            public var bundleIdentifier: String
            public var name: String
            public var count: Int

            public init(bundleIdentifier: String, name: String, count: Int) {
                self.bundleIdentifier = bundleIdentifier
                self.name = name
                self.count = count
            }
        }

        public var type: SampleType
        public var count: Int
        public var firstStart: Date
        public var lastStart: Date
        /// The most samples first.
        public var sources: [SourceInfo]

        public init(type: SampleType, count: Int, firstStart: Date, lastStart: Date, sources: [SourceInfo]) {
            self.type = type
            self.count = count
            self.firstStart = firstStart
            self.lastStart = lastStart
            self.sources = sources
        }
    }

    public var types: [TypeInfo]

    public init(types: [TypeInfo]) {
        self.types = types
    }
}

/// `samples.deletePreview`: what `samples.delete` (`uuids`) or `samples.deleteObjects` (`type`,
/// `predicate`) would take now, without deleting.
public struct DeletePreviewParams: Hashable, Sendable, Codable {
    public var uuids: [UUID]?
    public var type: SampleType?
    public var predicate: SamplePredicate?

    public init(uuids: [UUID]? = nil, type: SampleType? = nil, predicate: SamplePredicate? = nil) {
        self.uuids = uuids
        self.type = type
        self.predicate = predicate
    }
}

/// The answer of `samples.deletePreview`: every sample the delete would take (a correlation's
/// members counted), and by type (identifier order) how many, their earliest start and latest
/// end, and their sources.
public struct DeletePreviewResult: Hashable, Sendable, Codable {
    public struct TypeInfo: Hashable, Sendable, Codable {
        public var type: SampleType
        public var count: Int
        public var firstStart: Date
        public var lastEnd: Date
        /// The most samples first.
        public var sources: [SamplesSummaryResult.TypeInfo.SourceInfo]

        public init(
            type: SampleType,
            count: Int,
            firstStart: Date,
            lastEnd: Date,
            sources: [SamplesSummaryResult.TypeInfo.SourceInfo]
        ) {
            self.type = type
            self.count = count
            self.firstStart = firstStart
            self.lastEnd = lastEnd
            self.sources = sources
        }
    }

    public var count: Int
    public var types: [TypeInfo]

    public init(count: Int, types: [TypeInfo]) {
        self.count = count
        self.types = types
    }
}

/// `import.appleHealth`: an Apple Health `export.xml` the daemon reads from its own file system.
public struct ImportAppleHealthParams: Hashable, Sendable, Codable {
    /// An absolute path.
    public var path: String
    /// Import what precedes the cut of a file cut short (else it is refused, nothing imported).
    public var acceptTruncated: Bool?

    public init(path: String, acceptTruncated: Bool? = nil) {
        self.path = path
        self.acceptTruncated = acceptTruncated
    }
}

/// An `import.progress` notification: how far an import has read its file.
public struct ImportProgressParams: Hashable, Sendable, Codable {
    public var bytesRead: Int
    public var totalBytes: Int?
    public var records: Int

    public init(bytesRead: Int, totalBytes: Int?, records: Int) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.records = records
    }
}

/// `import.csv`: a CSV file of samples (docs/CSV_IMPORT.md) the daemon reads from its own file
/// system.
public struct ImportCSVParams: Hashable, Sendable, Codable {
    /// An absolute path.
    public var path: String
    /// The source of rows that name none; absent or empty: the file's name.
    public var source: String?

    public init(path: String, source: String? = nil) {
        self.path = path
        self.source = source
    }
}

/// `export.write`: the owner's export (docs/EXPORT_JSON.md), written by the daemon into a
/// directory of its own file system, owner-only.
public struct ExportParams: Hashable, Sendable, Codable {
    /// An absolute path: a directory that does not exist yet, or an empty one.
    public var path: String
    /// `json` (the lossless JSON lines of docs/EXPORT_JSON.md).
    public var format: String
    /// Sample type identifiers; absent: every type.
    public var types: [String]?
    /// Samples starting at or after this instant.
    public var from: Date?
    /// Samples starting before this instant.
    public var to: Date?
    /// Sources, by bundle identifier or name; absent: every source.
    public var sources: [String]?
    /// Write into a directory that holds files already (the export's own files are replaced).
    public var overwrite: Bool?

    public init(
        path: String,
        format: String,
        types: [String]? = nil,
        from: Date? = nil,
        to: Date? = nil,
        sources: [String]? = nil,
        overwrite: Bool? = nil
    ) {
        self.path = path
        self.format = format
        self.types = types
        self.from = from
        self.to = to
        self.sources = sources
        self.overwrite = overwrite
    }
}

/// An `export.progress` notification: how many samples an export has written of how many.
public struct ExportProgressParams: Hashable, Sendable, Codable {
    public var samples: Int
    public var totalSamples: Int

    public init(samples: Int, totalSamples: Int) {
        self.samples = samples
        self.totalSamples = totalSamples
    }
}

/// `import.json`: a HealthVault JSON export (docs/EXPORT_JSON.md), a directory the daemon reads
/// from its own file system.
public struct ImportJSONParams: Hashable, Sendable, Codable {
    /// An absolute path.
    public var path: String

    public init(path: String) {
        self.path = path
    }
}

/// `vault.report`: the owner's health report of the days `start` through `end` (`YYYY-MM-DD`,
/// both included, in the owner's time zone); the answer is a ``HealthReportData``
/// (docs/REPORT.md).
public struct ReportParams: Hashable, Sendable, Codable {
    public var start: String
    public var end: String

    public init(start: String, end: String) {
        self.start = start
        self.end = end
    }
}
