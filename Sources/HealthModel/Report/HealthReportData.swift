public import Foundation

/// What the owner's health report shows, computed in the vault (docs/REPORT.md): statistics per
/// day, night and week, the lists a reader expects beside them (measurements, workouts), who
/// contributed what, and who touched the vault, from the audit log. `HealthReport` draws it; the
/// vault engine computes it in one read, as the owner, and records it as one `vault.report` entry.
///
/// Every figure is the vault's own: daily statistics are statistics collection answers, sleep a
/// category statistics answer, the rings activity summaries. Quantities are in their canonical
/// unit; ``units`` says how the owner prefers to read each.
public struct HealthReportData: Hashable, Sendable, Codable {
    /// When the vault computed it.
    public var generatedAt: Date
    /// The first and last day of the report, `YYYY-MM-DD`, both included.
    public var firstDay: String
    public var lastDay: String
    /// Midnight at the start of the first day and at the end of the last, in ``timeZone``.
    public var start: Date
    public var end: Date
    /// The owner's time zone, in which days, nights and weeks are counted.
    public var timeZone: String
    /// The owner's preferred unit of each quantity type the report shows, by type identifier.
    public var units: [String: HealthUnit]
    /// The rings: one summary per day with activity (docs/ACTIVITY.md).
    public var activity: [ActivitySummary]
    /// Per day statistics of each quantity type the report charts (``dailyTypes``): sums for
    /// cumulative types, average, minimum and maximum for the others. Days without data absent.
    public var daily: [StatisticsCollection]
    /// Sleep per night, noon to noon, by stage (category statistics of `sleepAnalysis`).
    public var sleep: CategoryStatisticsCollection
    /// Weight and body mass index measurements, newest first, at most ``listLimit`` per type.
    public var measurements: [Measurement]
    /// Blood pressure readings (correlations with their systolic and diastolic members), newest
    /// first, at most ``listLimit``.
    public var bloodPressure: [BloodPressureReading]
    /// Workouts, newest first, at most ``listLimit``.
    public var workouts: [WorkoutRow]
    /// Per week (from Monday): workouts, their time and distance. Weeks without any absent.
    public var workoutWeeks: [WorkoutWeek]
    /// Per sample type, each source's samples that start in the range.
    public var sources: [TypeSources]
    /// Days on which two or more sources recorded the same quantity type.
    public var overlaps: [Overlap]
    /// How many of each list there were in all, when a list holds fewer (by list name:
    /// `bodyMass`, `bodyMassIndex`, `bloodPressure`, `workouts`).
    public var totals: [String: Int]
    /// The access history: per actor and day, from the audit log.
    public var access: [AccessDay]
    /// Grants and apps changed by the owner in the range.
    public var grantChanges: [GrantChange]
    /// The audit log verified as the report was made.
    public var auditLog: AuditStatus

    /// The longest list the report carries of one kind (measurements of one type, readings,
    /// workouts); the report says how many there were when there were more.
    public static let listLimit = 500

    /// The quantity types of ``daily``, in the report's order.
    public static let dailyTypes: [QuantityTypeIdentifier] = [
        .stepCount, .activeEnergyBurned, .restingHeartRate, .heartRate,
        .heartRateVariabilitySDNN, .bodyMass, .bodyMassIndex, .bloodPressureSystolic, .bloodPressureDiastolic,
    ]

    public init(
        generatedAt: Date,
        firstDay: String,
        lastDay: String,
        start: Date,
        end: Date,
        timeZone: String,
        units: [String: HealthUnit],
        activity: [ActivitySummary],
        daily: [StatisticsCollection],
        sleep: CategoryStatisticsCollection,
        measurements: [Measurement],
        bloodPressure: [BloodPressureReading],
        workouts: [WorkoutRow],
        workoutWeeks: [WorkoutWeek],
        sources: [TypeSources],
        overlaps: [Overlap],
        totals: [String: Int],
        access: [AccessDay],
        grantChanges: [GrantChange],
        auditLog: AuditStatus
    ) {
        self.generatedAt = generatedAt
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.start = start
        self.end = end
        self.timeZone = timeZone
        self.units = units
        self.activity = activity
        self.daily = daily
        self.sleep = sleep
        self.measurements = measurements
        self.bloodPressure = bloodPressure
        self.workouts = workouts
        self.workoutWeeks = workoutWeeks
        self.sources = sources
        self.overlaps = overlaps
        self.totals = totals
        self.access = access
        self.grantChanges = grantChanges
        self.auditLog = auditLog
    }

    /// The daily statistics of one type (an empty collection when the report has none).
    public func daily(_ type: QuantityTypeIdentifier) -> [Statistics] {
        daily.first { $0.quantityType == type }?.statistics ?? []
    }

    /// The owner's unit of a type: as set, else the type's default unit.
    public func unit(of type: QuantityTypeIdentifier) -> HealthUnit {
        units[type.rawValue] ?? type.defaultUnit
    }

    /// One measurement of a quantity (weight, body mass index): when, the value in the type's
    /// canonical unit, and the source's name.
    public struct Measurement: Hashable, Sendable, Codable {
        public var type: QuantityTypeIdentifier
        public var date: Date
        public var value: Double
        public var source: String

        public init(type: QuantityTypeIdentifier, date: Date, value: Double, source: String) {
            self.type = type
            self.date = date
            self.value = value
            self.source = source
        }
    }

    /// One blood pressure reading: the correlation's start, its members in mmHg, its source's name.
    public struct BloodPressureReading: Hashable, Sendable, Codable {
        public var date: Date
        public var systolic: Double
        public var diastolic: Double
        public var source: String

        public init(date: Date, systolic: Double, diastolic: Double, source: String) {
            self.date = date
            self.systolic = systolic
            self.diastolic = diastolic
            self.source = source
        }
    }

    /// One workout: its span, activity, duration (seconds), total distance (meters) and energy
    /// (kilocalories) when it has them, and its source's name.
    public struct WorkoutRow: Hashable, Sendable, Codable {
        public var start: Date
        public var end: Date
        public var activityType: WorkoutActivityType
        public var duration: Double
        public var distance: Double?
        public var energy: Double?
        public var source: String

        public init(
            start: Date,
            end: Date,
            activityType: WorkoutActivityType,
            duration: Double,
            distance: Double?,
            energy: Double?,
            source: String
        ) {
            self.start = start
            self.end = end
            self.activityType = activityType
            self.duration = duration
            self.distance = distance
            self.energy = energy
            self.source = source
        }
    }

    /// One week's workouts (the week of Monday `week`, `YYYY-MM-DD`): how many, their duration
    /// (seconds) and total distance (meters) summed.
    public struct WorkoutWeek: Hashable, Sendable, Codable {
        public var week: String
        public var count: Int
        public var duration: Double
        public var distance: Double

        public init(week: String, count: Int, duration: Double, distance: Double) {
            self.week = week
            self.count = count
            self.duration = duration
            self.distance = distance
        }
    }

    /// One type's sources: how many of its samples each gave, most first.
    public struct TypeSources: Hashable, Sendable, Codable {
        public struct Contribution: Hashable, Sendable, Codable {
            public var bundleIdentifier: String
            public var name: String
            public var count: Int
            public var firstStart: Date
            public var lastStart: Date

            public init(bundleIdentifier: String, name: String, count: Int, firstStart: Date, lastStart: Date) {
                self.bundleIdentifier = bundleIdentifier
                self.name = name
                self.count = count
                self.firstStart = firstStart
                self.lastStart = lastStart
            }
        }

        public var type: SampleType
        public var sources: [Contribution]

        public init(type: SampleType, sources: [Contribution]) {
            self.type = type
            self.sources = sources
        }
    }

    /// A day on which two or more sources recorded a quantity type: each source's own figure
    /// (its sum, or its average for a discrete type) and the vault's merged figure, which for a
    /// sum counts each moment from the source of highest priority only (docs/STATISTICS.md).
    public struct Overlap: Hashable, Sendable, Codable {
        public struct SourceValue: Hashable, Sendable, Codable {
            public var bundleIdentifier: String
            public var name: String
            public var value: Double

            public init(bundleIdentifier: String, name: String, value: Double) {
                self.bundleIdentifier = bundleIdentifier
                self.name = name
                self.value = value
            }
        }

        public var type: QuantityTypeIdentifier
        public var day: String
        /// In the type's canonical unit.
        public var merged: Double
        public var sources: [SourceValue]

        public init(type: QuantityTypeIdentifier, day: String, merged: Double, sources: [SourceValue]) {
            self.type = type
            self.day = day
            self.merged = merged
            self.sources = sources
        }
    }

    /// What one actor (an app id, `owner` or `system`) did on one day, from the audit log: how
    /// many reads and writes, of which types, how many objects, what was refused, and each
    /// operation's count.
    public struct AccessDay: Hashable, Sendable, Codable {
        public var actor: String
        public var day: String
        public var reads: Int
        public var typesRead: [String]
        public var objectsRead: UInt64
        public var writes: Int
        public var typesWritten: [String]
        public var objectsWritten: UInt64
        /// Entries with outcome `denied` or `denied-served-empty`.
        public var refused: Int
        public var typesRefused: [String]
        /// Entries with outcome `error`.
        public var errors: Int
        /// Every operation of the day, and how many entries it has.
        public var operations: [String: Int]

        public init(
            actor: String,
            day: String,
            reads: Int = 0,
            typesRead: [String] = [],
            objectsRead: UInt64 = 0,
            writes: Int = 0,
            typesWritten: [String] = [],
            objectsWritten: UInt64 = 0,
            refused: Int = 0,
            typesRefused: [String] = [],
            errors: Int = 0,
            operations: [String: Int] = [:]
        ) {
            self.actor = actor
            self.day = day
            self.reads = reads
            self.typesRead = typesRead
            self.objectsRead = objectsRead
            self.writes = writes
            self.typesWritten = typesWritten
            self.objectsWritten = objectsWritten
            self.refused = refused
            self.typesRefused = typesRefused
            self.errors = errors
            self.operations = operations
        }
    }

    /// An owner's decision about an app: a grant, denial or revocation (the audit operation, as
    /// `authorization.grant-read`), an enrollment or a removal, with the types it named.
    public struct GrantChange: Hashable, Sendable, Codable {
        public var time: Date
        public var app: String
        public var operation: String
        public var types: [String]

        public init(time: Date, app: String, operation: String, types: [String]) {
            self.time = time
            self.app = app
            self.operation = operation
            self.types = types
        }
    }

    /// The audit log's state as the report was made: its entries (the report's own included, at
    /// ``reportEntry``), the signed checkpoint that covers them, and whether every entry verified
    /// against every checkpoint as an auditor's verification would (`verified`), with the
    /// verifier's words.
    public struct AuditStatus: Hashable, Sendable, Codable {
        public var entries: UInt64
        public var reportEntry: UInt64
        public var checkpoints: Int
        public var verified: Bool
        public var summary: String

        public init(entries: UInt64, reportEntry: UInt64, checkpoints: Int, verified: Bool, summary: String) {
            self.entries = entries
            self.reportEntry = reportEntry
            self.checkpoints = checkpoints
            self.verified = verified
            self.summary = summary
        }
    }
}
