public import AuditLog
public import Foundation
public import HealthModel
import VaultStore

/// The owner's health report (docs/REPORT.md): every figure computed in the vault, in SQL, by the
/// statistics machinery apps and `healthvault stats` use, in one read snapshot; the access
/// history aggregated from the audit log in the same snapshot; then one `vault.report` entry,
/// appended with a signed checkpoint, and the whole log verified up to it.
extension VaultEngine {
    /// The most days one report covers (ten years, as an activity summary query).
    public static let maximumReportDays = ActivitySummaryQueryDescriptor.maximumDays

    /// The owner's report of the days `firstDay` through `lastDay` (`YYYY-MM-DD`, both included,
    /// in the owner's time zone). Refused days are `invalidArgument` (field `start` or `end`), as
    /// an activity summary query's; a refusal is recorded as `vault.report` with outcome `error`.
    public func healthReport(firstDay: String, lastDay: String, requestID: String = "") async throws -> HealthReportData
    {
        try await perform { [self] in
            try audited(.owner, .report, types: [], requestID: requestID) {
                var (data, types, count) = try database.read { db in
                    try reportFigures(firstDay: firstDay, lastDay: lastDay, db)
                }
                // The report's entry, with a checkpoint signed in its transaction: durable before
                // any figure leaves the vault, and covered by the verification below.
                let signed: SignedCheckpoint
                do {
                    signed = try vault.signAuditCheckpoint(
                        recording: entry(.owner, .report, types: types, count: count, requestID: requestID)
                    )
                } catch {
                    throw AuditFailure(cause: error)
                }
                data.auditLog = try database.read { db in
                    let export = try AuditExport(log: vault.auditLog(in: db))
                    let verification = AuditVerifier.verify(export, trustedKey: vault.verifierKey)
                    return HealthReportData.AuditStatus(
                        entries: UInt64(export.entries.count),
                        reportEntry: signed.checkpoint.size - 1,
                        checkpoints: export.checkpoints.count,
                        verified: verification.verdict == .verified,
                        summary: verification.summary
                    )
                }
                return data
            }
        }
    }

    /// Every figure of the report, read in the snapshot `db`; the sample types with samples in
    /// the range and how many samples they hold (the report's entry records them).
    func reportFigures(
        firstDay: String,
        lastDay: String,
        _ db: Connection
    ) throws -> (HealthReportData, types: [String], count: Int) {
        let zoneName = try VaultSettings.timeZoneName(db)
        let zone = try VaultSettings.timeZone(db)
        let days = ActivitySummaryQueryDescriptor(start: firstDay, end: lastDay, timeZone: nil)
        let midnights = try days.midnights(in: zone)  // validates the days
        let start = midnights[0]
        let end = midnights[midnights.count - 1]
        let range = SamplePredicate.date(start: start, end: end, options: [])
        let daily = IntervalComponents(day: 1)

        // The rings, as activity summaries give them.
        let goals = try Self.goalHistory(db)
        let activity = try store.activityDays(midnights: midnights, scope: .owner, timeZone: zone, in: db).map { day in
            ActivitySummary(
                day: CalendarDay.string(of: midnights[day.index], in: zone),
                activeEnergyBurnedKilocalories: day.activeEnergyBurned,
                exerciseMinutes: day.exerciseMinutes,
                standHours: day.standHours,
                goals: Self.goals(on: midnights[day.index], goals)
            )
        }

        // Each charted type per day, as `healthvault stats` computes it.
        func collection(_ type: QuantityTypeIdentifier, _ options: StatisticsOptions) throws -> StatisticsCollection {
            let answer = try store.statisticsCollection(
                matching: StatisticsCollectionQueryDescriptor(
                    quantityType: type,
                    predicate: range,
                    options: options,
                    anchorDate: start,
                    intervalComponents: daily,
                    timeZone: zoneName
                ),
                scope: .owner,
                timeZone: zoneName,
                in: db
            )
            // A sample reaching past the range brings a day after it: the report keeps its days.
            return StatisticsCollection(
                quantityType: type,
                anchorDate: start,
                intervalComponents: daily,
                timeZone: zoneName,
                statistics: answer.statistics.filter { $0.startDate >= start && $0.startDate < end }
            )
        }
        let dailyCollections = try HealthReportData.dailyTypes.map { type in
            try collection(
                type,
                type.aggregationStyle == .cumulative
                    ? [.cumulativeSum] : [.discreteAverage, .discreteMin, .discreteMax]
            )
        }

        // Sleep per night, noon to noon, for the nights starting on the report's days.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func noon(_ midnight: Date) -> Date {
            let parts = calendar.dateComponents([.year, .month, .day], from: midnight)
            return calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: parts.day, hour: 12))
                ?? midnight.addingTimeInterval(12 * 3600)
        }
        let firstNoon = noon(start)
        let lastNoon = noon(end)
        let nights = try store.categoryStatisticsCollection(
            matching: CategoryStatisticsQueryDescriptor(
                categoryType: .sleepAnalysis,
                predicate: .date(start: firstNoon, end: lastNoon, options: []),
                anchorDate: firstNoon,
                intervalComponents: daily,
                timeZone: zoneName
            ),
            scope: .owner,
            timeZone: zoneName,
            in: db
        )
        let sleep = CategoryStatisticsCollection(
            categoryType: .sleepAnalysis,
            anchorDate: firstNoon,
            intervalComponents: daily,
            timeZone: zoneName,
            statistics: nights.statistics.filter { $0.startDate >= firstNoon && $0.startDate < lastNoon }
        )

        // The lists beside the charts, each bounded.
        let limit = HealthReportData.listLimit
        var totals: [String: Int] = [:]
        var measurements: [HealthReportData.Measurement] = []
        for type in [QuantityTypeIdentifier.bodyMass, .bodyMassIndex] {
            let list = try store.reportMeasurements(of: type, start: start, end: end, limit: limit, in: db)
            measurements += list.rows
            if list.total > list.rows.count { totals[type.shortName] = list.total }
        }
        let bloodPressure = try store.reportBloodPressure(start: start, end: end, limit: limit, in: db)
        if bloodPressure.total > bloodPressure.rows.count { totals["bloodPressure"] = bloodPressure.total }
        let workouts = try store.reportWorkouts(start: start, end: end, limit: limit, in: db)
        if workouts.total > workouts.rows.count { totals["workouts"] = workouts.total }

        // Workouts per week, from the Monday on or before the first day.
        var weekCalendar = calendar
        weekCalendar.firstWeekday = 2
        let firstMonday = weekCalendar.dateInterval(of: .weekOfYear, for: start)?.start ?? start
        var weekStarts = [firstMonday]
        while weekStarts[weekStarts.count - 1] < end {
            let next =
                weekCalendar.date(byAdding: .day, value: 7 * weekStarts.count, to: firstMonday)
                ?? weekStarts[weekStarts.count - 1].addingTimeInterval(7 * 86_400)
            weekStarts.append(next)
        }
        // The weeks' boundaries, cut to the report's range (the first and last weeks may be partial).
        var cut = weekStarts
        cut[0] = start
        cut[cut.count - 1] = end
        let workoutWeeks = try store.reportWorkoutWeeks(weekStarts: cut, in: db).map { week in
            HealthReportData.WorkoutWeek(
                week: CalendarDay.string(of: weekStarts[week.week], in: zone),
                count: week.count,
                duration: week.duration,
                distance: week.distance
            )
        }

        // Who contributed what, and the days two sources recorded the same quantity type.
        let sources = try store.reportSources(start: start, end: end, in: db)
        var overlaps: [HealthReportData.Overlap] = []
        for typeSources in sources where typeSources.sources.count >= 2 {
            guard case .quantity(let type) = typeSources.type else { continue }
            let cumulative = type.aggregationStyle == .cumulative
            let perSource = try collection(
                type,
                cumulative ? [.cumulativeSum, .separateBySource] : [.discreteAverage, .separateBySource]
            )
            let unit = type.canonicalUnit
            func value(_ values: StatisticsValues) -> Double? {
                try? (cumulative ? values.sum : values.average)?.doubleValue(for: unit)
            }
            for statistics in perSource.statistics where statistics.valuesBySource.count >= 2 {
                guard let merged = value(statistics.values) else { continue }
                overlaps.append(
                    HealthReportData.Overlap(
                        type: type,
                        day: CalendarDay.string(of: statistics.startDate, in: zone),
                        merged: merged,
                        sources: statistics.valuesBySource.compactMap { entry in
                            value(entry.values).map {
                                .init(
                                    bundleIdentifier: entry.source.bundleIdentifier,
                                    name: entry.source.name,
                                    value: $0
                                )
                            }
                        }
                    )
                )
                if overlaps.count >= limit * 4 { break }
            }
        }

        // Who touched the vault, from the audit log as it stands in this snapshot.
        let (access, grantChanges) = try Self.accessHistory(
            vault.auditLog(in: db),
            start: start,
            end: end,
            zone: zone
        )

        let units = try Self.preferredUnits(
            for: HealthReportData.dailyTypes + [.distanceWalkingRunning, .activeEnergyBurned, .heartRate],
            db
        )
        let data = HealthReportData(
            generatedAt: Date(),
            firstDay: firstDay,
            lastDay: lastDay,
            start: start,
            end: end,
            timeZone: zoneName,
            units: Dictionary(uniqueKeysWithValues: units.map { ($0.key.rawValue, $0.value) }),
            activity: activity,
            daily: dailyCollections,
            sleep: sleep,
            measurements: measurements,
            bloodPressure: bloodPressure.rows,
            workouts: workouts.rows,
            workoutWeeks: workoutWeeks,
            sources: sources,
            overlaps: overlaps,
            totals: totals,
            access: access,
            grantChanges: grantChanges,
            auditLog: HealthReportData.AuditStatus(
                entries: 0,
                reportEntry: 0,
                checkpoints: 0,
                verified: false,
                summary: ""
            )
        )
        return (
            data,
            sources.map(\.type.identifier).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) },
            sources.reduce(0) { $0 + $1.sources.reduce(0) { $0 + $1.count } }
        )
    }

    /// Operations that read health data (the report's "read" column).
    static let readOperations: Set<AuditEntry.Operation> = [
        .querySample, .queryAnchored, .queryStatistics, .queryStatisticsCollection, .querySource, .queryCorrelation,
        .queryCharacteristic, .queryActivitySummary, .queryElectrocardiogram, .queryHeartbeatSeries,
        .queryQuantitySeries, .queryRoute, .querySummary, .queryCategoryStatistics, .workoutCollect, .export, .report,
    ]

    /// Operations that write health data (the report's "wrote" column).
    static let writeOperations: Set<AuditEntry.Operation> = [
        .save, .delete, .import, .workoutFinish, .workoutRoute, .characteristicSet,
    ]

    /// The owner's decisions about apps, listed as grant changes; the request id names the app.
    static let grantOperations: Set<AuditEntry.Operation> = [
        .authorizationGrantRead, .authorizationGrantShare, .authorizationDenyRead, .authorizationDenyShare,
        .authorizationRevokeRead, .authorizationRevokeShare, .authorizationGrant, .authorizationDeny,
        .authorizationRevoke, .appEnroll, .appRemove, .policySet,
    ]

    /// The audit log's entries in `[start, end)`, in one pass: per actor and day (in `zone`), the
    /// reads and writes and their types, the refusals and errors, each operation's count; and the
    /// owner's decisions about apps. Entries are decoded one at a time; only the aggregates stay.
    static func accessHistory(
        _ log: AuditLog<DatabaseAuditStorage>,
        start: Date,
        end: Date,
        zone: TimeZone
    ) throws -> ([HealthReportData.AccessDay], [HealthReportData.GrantChange]) {
        struct Key: Hashable {
            let actor: String
            let day: String
        }
        struct Tally {
            var day: HealthReportData.AccessDay
            var read: Set<String> = []
            var written: Set<String> = []
            var refused: Set<String> = []
        }
        var tallies: [Key: Tally] = [:]
        var changes: [HealthReportData.GrantChange] = []
        // Days by their midnights, found by binary search rather than a calendar per entry.
        let intervals = StatisticsIntervals(anchorDate: start, components: IntervalComponents(day: 1), timeZone: zone)
        var dayNames: [Int: String] = [:]
        try log.storage.forEachEntry(upTo: try log.size()) { bytes, _ in
            let entry = try AuditEntry(decoding: bytes)
            guard entry.time >= start, entry.time < end else { return }
            let index = intervals.index(containing: entry.time)
            let day = dayNames[index] ?? CalendarDay.string(of: intervals.start(of: index), in: zone)
            dayNames[index] = day
            let key = Key(actor: entry.actor.description, day: day)
            var tally = tallies[key] ?? Tally(day: HealthReportData.AccessDay(actor: key.actor, day: day))
            tally.day.operations[entry.operation.rawValue, default: 0] += 1
            switch entry.outcome {
            case .denied, .deniedServedEmpty:
                tally.day.refused += 1
                tally.refused.formUnion(entry.types)
            case .error:
                tally.day.errors += 1
            case .ok:
                break
            }
            if readOperations.contains(entry.operation) {
                tally.day.reads += 1
                if entry.outcome == .ok { tally.read.formUnion(entry.types) }
                if entry.outcome != .error { tally.day.objectsRead += entry.objectCount }
            } else if writeOperations.contains(entry.operation) {
                tally.day.writes += 1
                if entry.outcome == .ok {
                    tally.written.formUnion(entry.types)
                    tally.day.objectsWritten += entry.objectCount
                }
            }
            tallies[key] = tally
            if entry.actor == .owner, entry.outcome == .ok, grantOperations.contains(entry.operation) {
                changes.append(
                    HealthReportData.GrantChange(
                        time: entry.time,
                        app: entry.requestID,
                        operation: entry.operation.rawValue,
                        types: entry.types
                    )
                )
            }
        }
        let access = tallies.values.map { tally in
            var day = tally.day
            day.typesRead = tally.read.sortedByIdentifier()
            day.typesWritten = tally.written.sortedByIdentifier()
            day.typesRefused = tally.refused.sortedByIdentifier()
            return day
        }.sorted { ($0.actor, $0.day) < ($1.actor, $1.day) }
        return (access, changes)
    }
}
