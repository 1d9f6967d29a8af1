import AuditLog
public import Foundation
public import HealthModel
import VaultStore

extension VaultEngine {
    /// The types activity summaries are derived from.
    static let activityTypes: Set<SampleType> = [
        .quantity(.activeEnergyBurned), .quantity(.appleExerciseTime), .workout, .category(.appleStandHour),
        .quantity(.stepCount),
    ]

    /// Runs an activity summary query (HealthKit's `HKActivitySummaryQuery`): one summary per day
    /// of the range with data, each with the owner's goals of that day. The owner's summaries
    /// count every sample; an app with the activity summary read grant sees the summaries of
    /// everyone's samples, as in HealthKit, and an app without it only summaries of its own
    /// samples: the answer a vault without other apps' data would give.
    public func activitySummaries(
        matching query: ActivitySummaryQueryDescriptor,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> [ActivitySummary] {
        // Without the activity summary grant, only the app's own samples count; with a window on
        // it, only other apps' samples inside the window (of every type summaries count).
        let scope: @Sendable (Connection) throws -> (ReadScope, AuditEntry.Outcome) = { [self] db in
            guard case .app(let appID) = caller else { return (.owner, .ok) }
            _ = try requireApp(appID, db)
            let now = now()
            guard let grant = try GrantStore.readGrants(appID, at: now, db)[.activitySummary] else {
                return (.app(appID, readableTypes: []), .deniedServedEmpty)
            }
            let window = grant.window?.readWindow(at: now, grantedAt: grant.grantedAt)
            return (
                .app(
                    appID,
                    readableTypes: Self.activityTypes,
                    windows: window.map { window in
                        Dictionary(uniqueKeysWithValues: Self.activityTypes.map { ($0, window) })
                    }
                        ?? [:]
                ),
                .ok
            )
        }
        let keeper = StatisticsHoursKeeper(keepsStatisticsHours ? .keep : .off)
        return try await read(
            .queryActivitySummary,
            recording: [ObjectType.activitySummaryTypeIdentifier],
            as: caller,
            requestID: requestID,
            scope: scope,
            keeping: keeper
        ) { [self] db, scope in
            let zone = try query.timeZone.flatMap(TimeZone.init(identifier:)) ?? VaultSettings.timeZone(db)
            let midnights = try query.midnights(in: zone)  // validates the query
            let days = try store.activityDays(
                midnights: midnights,
                scope: scope,
                timeZone: zone,
                keeping: keeper,
                in: db
            )
            let goals = try Self.goalHistory(db)
            let summaries = days.map { day in
                ActivitySummary(
                    day: CalendarDay.string(of: midnights[day.index], in: zone),
                    activeEnergyBurnedKilocalories: day.activeEnergyBurned,
                    exerciseMinutes: day.exerciseMinutes,
                    standHours: day.standHours,
                    goals: Self.goals(on: midnights[day.index], goals)
                )
            }
            return (summaries, summaries.count)
        }
    }

    // MARK: Running queries

    /// Starts an activity summary query that keeps running (HealthKit's `HKActivitySummaryQuery`
    /// with an `updateHandler`): its first answer, as ``activitySummaries(matching:as:requestID:)``
    /// gives it, then an update whenever the answer changes: after a save or a delete of a type
    /// summaries count (active energy, exercise time, stand hours, workouts, steps) that the
    /// caller's summaries may count, after the owner changes the goals or the time zone, and after
    /// a decision on the caller's grants. Each new answer is computed and audited as the query
    /// is (`query.activity-summary`); only the days whose summary changed are sent, so an update
    /// tells exactly what asking again would.
    public func observeActivitySummaries(
        matching query: ActivitySummaryQueryDescriptor,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> ActivitySummaryObservation {
        // Registered before the first answer is read, so that a change committed meanwhile is
        // answered right after it.
        let id = activityWatches.register(caller, query: query)
        let summaries: [ActivitySummary]
        do {
            summaries = try await activitySummaries(matching: query, as: caller, requestID: requestID)
        } catch {
            activityWatches.remove(id)
            throw error
        }
        if activityWatches.started(id, answer: summaries) { answerActivitySummaries(id) }
        // Shut down meanwhile: end it now, as shutdown ended the others.
        if isShutDown { activityWatches.remove(id) }
        let watches = activityWatches
        return ActivitySummaryObservation(
            id: id,
            summaries: summaries,
            updates: AsyncThrowingStream { try await watches.nextUpdate(id) }
        )
    }

    /// Stops one of the caller's running activity summary queries (its updates end); another
    /// caller's, or one already ended, is left alone.
    public func stopObservingActivitySummaries(_ id: UUID, as caller: Caller) {
        activityWatches.remove(id, of: caller)
    }

    /// Whether `id` is one of the caller's running activity summary queries.
    public func isObservingActivitySummaries(_ id: UUID, as caller: Caller) -> Bool {
        activityWatches.isLive(id, of: caller)
    }

    /// Answers again the running activity summary queries whose answer a change may have moved:
    /// `changes` maps each changed type to the apps whose samples of it changed; nil for a change
    /// of every answer's ground (goals, time zone). `apps`, when given, limits it to those apps'
    /// queries (a decision on their grants).
    func refreshActivitySummaries(_ changes: [SampleType: Set<String>]?, apps only: Set<String>? = nil) async {
        let watches = activityWatches.snapshot
        guard !watches.isEmpty else { return }
        var changedBy: Set<String>?
        if let changes {
            let counted = changes.filter { Self.activityTypes.contains($0.key) }
            guard !counted.isEmpty else { return }
            changedBy = counted.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        }
        // An app's summaries count another app's samples only with the activity summary grant.
        let apps = Set(
            watches.compactMap { watch -> String? in
                if case .app(let appID) = watch.caller { return appID }
                return nil
            }
        )
        let granted =
            (try? await perform { [self] in
                try database.read { db in
                    try apps.filter { try GrantStore.grantedTypes($0, .read, at: now(), db).contains(.activitySummary) }
                }
            }) ?? []
        for watch in watches {
            if case .app(let appID) = watch.caller {
                if let only, !only.contains(appID) { continue }
                if let changedBy, !changedBy.contains(appID), !granted.contains(appID) { continue }
            } else if only != nil {
                continue
            }
            answerActivitySummariesAgain(watch.id)
        }
    }

    /// Computes a running query's answer again, off the caller's path: one at a time per query,
    /// later changes merged into the next.
    private func answerActivitySummariesAgain(_ id: UUID) {
        guard activityWatches.note(id) else { return }
        answerActivitySummaries(id)
    }

    /// Answers the query while changes are noted for it. A new answer that cannot be computed
    /// (the audit log cannot be written, too many energy sources, the app removed) stops the
    /// query with that error: an answer left behind silently would be wrong from then on.
    private func answerActivitySummaries(_ id: UUID) {
        Task { [self] in
            while let (caller, query) = activityWatches.next(id) {
                do {
                    activityWatches.answer(try await activitySummaries(matching: query, as: caller), for: id)
                } catch let error as HealthError {
                    activityWatches.fail(id, error)
                } catch {
                    activityWatches.fail(id, HealthError(.unknownError, "the activity summaries could not be computed"))
                }
            }
        }
    }

    // MARK: Goals (owner)

    /// A goal change: the goals in force from `since` (a midnight in the owner's zone) on.
    struct GoalChange: Codable {
        let since: Double
        let goals: ActivityGoals
        /// Read from an import (an export's activity summaries), not set by the owner here.
        var imported: Bool? = nil
    }

    /// The owner's goals now (the standard ones until the owner sets some).
    public func activityGoals() async throws -> ActivityGoals {
        try await perform { [self] in
            try database.read { db in Self.goals(on: Date(), try Self.goalHistory(db)) }
        }
    }

    /// Sets the owner's daily goals from today on (today's midnight in the owner's zone); the
    /// summaries of earlier days keep the goals of their day. Audited as `settings.set` naming
    /// the activity summary type.
    public func setActivityGoals(_ goals: ActivityGoals, requestID: String = "") async throws {
        let types = [ObjectType.activitySummaryTypeIdentifier]
        try await perform { [self] in
            try audited(.owner, .settingsSet, types: types, requestID: requestID) {
                try goals.validate()
                try database.write { db in
                    var calendar = Calendar(identifier: .gregorian)
                    calendar.timeZone = try VaultSettings.timeZone(db)
                    let today = calendar.startOfDay(for: Date()).timeIntervalSinceReferenceDate
                    var history = try Self.goalHistory(db).filter { $0.since < today }
                    history.append(GoalChange(since: today, goals: goals))
                    let json = String(decoding: try JSONEncoder().encode(history), as: UTF8.self)
                    try VaultSettings.setValue(json, for: "activityGoals", db)
                    try append(entry(.owner, .settingsSet, types: types, requestID: requestID), in: db)
                }
            }
        }
        await refreshActivitySummaries(nil)
    }

    /// Brings in the goals of the days an import read (`YYYY-MM-DD` in the owner's zone: an
    /// export's activity summaries), as the changes of goals from one day to the next. The
    /// owner's own goals win: nothing is taken for the days from the first goals the owner set
    /// here on. A later import of the same days replaces what an earlier one brought for them.
    /// Audited as `settings.set` naming the activity summary type when anything changed; returns
    /// how many changes of goals the history gained or lost.
    @discardableResult
    public func importActivityGoals(_ byDay: [String: ActivityGoals], requestID: String = "") async throws -> Int {
        let types = [ObjectType.activitySummaryTypeIdentifier]
        let changed = try await perform { [self] () throws -> Int in
            try audited(.owner, .settingsSet, types: types, requestID: requestID) {
                try database.write { db -> Int in
                    let zone = try VaultSettings.timeZone(db)
                    let days = byDay.compactMap { day, goals -> (since: Double, goals: ActivityGoals)? in
                        guard (try? goals.validate()) != nil, let midnight = CalendarDay.midnight(of: day, in: zone)
                        else { return nil }
                        return (midnight.timeIntervalSinceReferenceDate, goals)
                    }.sorted { $0.since < $1.since }
                    guard let first = days.first?.since, let last = days.last?.since else { return 0 }
                    let history = try Self.goalHistory(db)
                    let firstOwn = history.first { $0.imported != true }?.since ?? .infinity
                    // Earlier imports' changes outside this import's days stay; the owner's all do.
                    var merged = history.filter { $0.imported != true || $0.since < first || $0.since > last }
                    for day in days where day.since < firstOwn {
                        merged.append(GoalChange(since: day.since, goals: day.goals, imported: true))
                    }
                    merged.sort { $0.since < $1.since }
                    // Only changes: a day with the goals of the day before adds nothing.
                    var compact: [GoalChange] = []
                    for change in merged where change.imported != true || compact.last?.goals != change.goals {
                        compact.append(change)
                    }
                    let before = history.map { "\($0.since) \($0.goals) \($0.imported ?? false)" }
                    let after = compact.map { "\($0.since) \($0.goals) \($0.imported ?? false)" }
                    guard before != after else { return 0 }
                    let json = String(decoding: try JSONEncoder().encode(compact), as: UTF8.self)
                    try VaultSettings.setValue(json, for: "activityGoals", db)
                    try append(entry(.owner, .settingsSet, types: types, requestID: requestID), in: db)
                    return Set(after).symmetricDifference(Set(before)).count
                }
            }
        }
        if changed > 0 { await refreshActivitySummaries(nil) }
        return changed
    }

    static func goalHistory(_ db: Connection) throws -> [GoalChange] {
        guard let json = try VaultSettings.value("activityGoals", db) else { return [] }
        return (try? JSONDecoder().decode([GoalChange].self, from: Data(json.utf8))) ?? []
    }

    /// The goals in force on the day starting at `midnight`: the latest change from that day or
    /// before; the standard goals before the first change.
    static func goals(on midnight: Date, _ history: [GoalChange]) -> ActivityGoals {
        history.last { $0.since <= midnight.timeIntervalSinceReferenceDate }?.goals ?? .standard
    }
}
