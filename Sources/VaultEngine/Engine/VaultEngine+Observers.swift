public import AuditLog
public import Foundation
public import HealthModel
import VaultStore

extension VaultEngine {
    /// Starts an observation of `types`: an update whenever samples of them that the caller may
    /// see change. Visibility is decided at each change with the grants of that moment, so a
    /// revocation stops updates from other apps' samples at once; the app's own saves and
    /// deletes are announced as they would be to an app that may read the type but finds
    /// nothing else there.
    public func observe(_ types: Set<SampleType>, as caller: Caller, requestID: String = "") async throws -> Observation
    {
        try await perform { [self] in
            try audited(caller, .subscribe, types: types.sortedIdentifiers, requestID: requestID) {
                guard !types.isEmpty else {
                    throw HealthError.invalidArgument("observe at least one type", field: "types")
                }
                let enrolledAt = try database.write { db -> Date? in
                    var enrolledAt: Date?
                    if case .app(let appID) = caller { enrolledAt = try requireApp(appID, db).enrolledAt }
                    try append(entry(caller, .subscribe, types: types.sortedIdentifiers, requestID: requestID), in: db)
                    return enrolledAt
                }
                let observation = observers.add(caller, enrolledAt: enrolledAt, types: types)
                // Shut down meanwhile: end it now, as shutdown ended the others.
                if isShutDown { observers.remove(observation.id) }
                return observation
            }
        }
    }

    /// Stops one of the caller's observations (its update stream ends) and records it; another
    /// caller's, or one already ended, is left alone.
    public func stopObserving(_ observation: Observation, as caller: Caller, requestID: String = "") async throws {
        guard observers.isLive(observation.id, of: caller) else { return }
        // Recorded first: if the log cannot be written, the observation goes on.
        try await perform { [self] in
            try record(entry(caller, .unsubscribe, types: observation.types.sortedIdentifiers, requestID: requestID))
        }
        observers.remove(observation.id, of: caller)
    }

    /// Tells each observer about the changes it may see: `changes` maps each changed type to the
    /// apps whose samples of it changed, with the change numbers the write used. An app with a
    /// window on a type is told only of changes inside it.
    func notifyObservers(_ changes: SampleChanges) async {
        // Off the saving caller's path: a running query's new answer is computed in its own task.
        if !activityWatches.isEmpty { Task { await refreshActivitySummaries(changes.sources) } }
        let observers = observers.snapshot
        guard !observers.isEmpty, !changes.isEmpty else { return }
        let apps = Set(
            observers.compactMap { observer -> String? in
                if case .app(let appID) = observer.caller { return appID }
                return nil
            }
        )
        // Each app's enrolment and the changed types it sees, with its grants now. If they cannot
        // be read, every app is taken to see nothing but its own samples.
        let now =
            (try? await perform { [self] in
                try database.read { db in
                    try Dictionary(
                        uniqueKeysWithValues: apps.map { appID in
                            let scope = try readScope(of: appID, db)
                            let seen = try changes.sources.keys.filter { try sees($0, of: changes, scope: scope, db) }
                            return (appID, (Set(seen), try GrantStore.registration(appID, db)?.enrolledAt))
                        }
                    )
                }
            })
        for observer in observers {
            // An observation of an app removed (or removed and enrolled again) since it began ends.
            if case .app(let appID) = observer.caller, let now, now[appID]?.1 != observer.enrolledAt {
                self.observers.remove(observer.id)
                continue
            }
            let visible = observer.types.filter { type in
                guard let sources = changes.sources[type] else { return false }
                switch observer.caller {
                case .owner: return true
                case .app(let appID): return sources.contains(appID) || now?[appID]?.0.contains(type) == true
                }
            }
            if !visible.isEmpty { observer.continuation.yield(ObserverUpdate(types: visible)) }
        }
    }
}
