public import Foundation
public import HealthModel

/// One top-level sample of the vault as an export takes it: whole, with every series it holds.
///
/// An electrocardiogram carries its voltage measurements, a heartbeat series its beats, and a
/// quantity series its quantities (``QuantitySample/seriesQuantities``); a workout route's
/// locations come in ``routeLocations``.
public struct ExportedSample: Sendable {
    public var sample: Sample
    /// A workout route's locations, in time order (as many as its count); nil for other samples.
    public var routeLocations: [WorkoutRouteLocation]?
    /// The workouts (by UUID) the sample is associated with: collected by a live workout builder,
    /// or a route of the workout. Empty for most samples.
    public var workouts: [UUID]

    public init(sample: Sample, routeLocations: [WorkoutRouteLocation]? = nil, workouts: [UUID] = []) {
        self.sample = sample
        self.routeLocations = routeLocations
        self.workouts = workouts
    }
}

/// Where an export goes: the engine hands a writer each sample in turn (never the whole vault at
/// once), then the characteristics and settings of a whole-vault export, then the manifest. A
/// format (JSON, FHIR, CSV) is one writer.
public protocol ExportWriter: AnyObject {
    /// The files the writer made, by name inside the export's directory (for the manifest).
    var files: [String] { get }
    func write(_ sample: ExportedSample) throws
    func write(characteristics: [CharacteristicValue], settings: ExportedSettings) throws
    /// Writes the manifest last and closes every file: an export without its manifest did not end.
    func finish(_ manifest: ExportManifest) throws
}

/// The owner's settings as an export carries them (docs/EXPORT_JSON.md, `settings.json`).
public struct ExportedSettings: Hashable, Sendable, Codable {
    /// One change of the owner's daily activity goals: the goals in force from `since` (a midnight
    /// in the owner's time zone) on.
    public struct GoalChange: Hashable, Sendable, Codable {
        public var since: Date
        public var goals: ActivityGoals
        /// Brought in by an Apple Health import's activity summaries, not set by the owner.
        public var imported: Bool?

        public init(since: Date, goals: ActivityGoals, imported: Bool? = nil) {
            self.since = since
            self.goals = goals
            self.imported = imported
        }
    }

    /// The time zone the owner set (an IANA name); nil when the owner never set one.
    public var timeZone: String?
    /// Each quantity type's preferred unit the owner chose, by type identifier.
    public var preferredUnits: [String: String]
    /// Each quantity type's order of sources, highest priority first, as bundle identifiers.
    public var sourcePriorities: [String: [String]]
    /// The history of the owner's daily activity goals, oldest first.
    public var activityGoals: [GoalChange]

    public init(
        timeZone: String? = nil,
        preferredUnits: [String: String] = [:],
        sourcePriorities: [String: [String]] = [:],
        activityGoals: [GoalChange] = []
    ) {
        self.timeZone = timeZone
        self.preferredUnits = preferredUnits
        self.sourcePriorities = sourcePriorities
        self.activityGoals = activityGoals
    }

    /// How many settings it holds (a goal history counts once).
    public var count: Int {
        (timeZone == nil ? 0 : 1) + preferredUnits.count + sourcePriorities.count + (activityGoals.isEmpty ? 0 : 1)
    }
}

/// The manifest of an export (docs/EXPORT_JSON.md, `manifest.json`).
public struct ExportManifest: Hashable, Sendable, Codable {
    public static let formatName = "healthvault-export"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    /// The vault the export was made from.
    public var vault: UUID
    public var createdAt: Date
    public var filters: ExportFilter
    /// Top-level samples written, by type identifier (a correlation counts once, its objects not).
    public var samples: [String: Int]
    /// Route locations written (in `route-locations.jsonl`).
    public var routeLocations: Int
    /// Characteristics written.
    public var characteristics: Int
    /// Whether `settings.json` was written (a whole-vault export).
    public var settings: Bool
    /// The files of the export besides the manifest, by name.
    public var files: [String]

    public init(
        vault: UUID,
        createdAt: Date,
        filters: ExportFilter,
        samples: [String: Int],
        routeLocations: Int,
        characteristics: Int,
        settings: Bool,
        files: [String]
    ) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.vault = vault
        self.createdAt = createdAt
        self.filters = filters
        self.samples = samples
        self.routeLocations = routeLocations
        self.characteristics = characteristics
        self.settings = settings
        self.files = files
    }

    /// Every type's samples added up.
    public var sampleCount: Int { samples.values.reduce(0, +) }
}

/// What an export wrote (the answer of `export.write`; `healthvault export --json`).
public struct ExportSummary: Hashable, Sendable, Codable {
    public var format: ExportFormat
    /// The export's directory, as the daemon wrote it.
    public var path: String
    public var manifest: ExportManifest
    public var seconds: Double

    public init(format: ExportFormat, path: String, manifest: ExportManifest, seconds: Double) {
        self.format = format
        self.path = path
        self.manifest = manifest
        self.seconds = seconds
    }
}
