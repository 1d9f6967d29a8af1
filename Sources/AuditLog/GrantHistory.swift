public import Foundation

/// What each app could read and share at any instant, replayed from audit entries alone
/// (docs/AUDIT_LOG.md, "Grants and their history"): the owner's decisions (`authorization.grant-*`,
/// `-deny-*`, `-revoke-*`) with their attributes (a read grant's window, any grant's expiry),
/// expiries (`authorization.expire-*`), and an app's enrolment and removal, which start its
/// permissions afresh. Only entries with outcome `ok` change anything. Give it a log that
/// verified: a replay proves nothing of a log that did not.
public struct GrantHistory: Sendable {
    /// One permission: an app, `read` or `share`, a type identifier.
    public struct Key: Hashable, Sendable, Comparable {
        public let app: String
        public let access: String
        public let type: String

        public init(app: String, access: String, type: String) {
            self.app = app
            self.access = access
            self.type = type
        }

        public static func < (a: Key, b: Key) -> Bool {
            (a.app, a.type, a.access) < (b.app, b.type, b.access)
        }
    }

    /// A permission's state: granted (with the grant's attributes: `window`, `window-start`,
    /// `window-end`, `window-seconds`, `expires`) or denied; a permission with no state is not
    /// determined.
    public struct State: Hashable, Sendable {
        public var granted: Bool
        public var attributes: [String: String]
        /// The instant the state began: its entry's time, or for an expiry the instant it took
        /// effect.
        public var since: Date
        /// The entry that made it.
        public var entry: UInt64

        /// When a grant ends by its own expiry, nil when it does not.
        public var expires: Date? { granted ? attributes["expires"].flatMap(RFC3339Millis.date) : nil }
    }

    /// One change: from `time` on, the permission is `state` (nil: not determined).
    public struct Change: Hashable, Sendable {
        public var time: Date
        public var key: Key
        public var state: State?
        public var operation: String
    }

    /// Every change, in the log's order.
    public private(set) var changes: [Change] = []
    /// Every change of the objects an app may read of a per-object type (vision prescriptions,
    /// documents: docs/AUDIT_LOG.md, "Per-object choices"), in the log's order.
    public private(set) var objectChanges: [ObjectChange] = []

    /// Objects of `type` an app was let read (`granted`) or had taken back, from `time` on; an
    /// enrolment or removal of the app takes back everything (`objects` then lists what it held).
    public struct ObjectChange: Hashable, Sendable {
        public var time: Date
        public var app: String
        public var type: String
        public var objects: [String]
        public var granted: Bool
        public var operation: String
        public var entry: UInt64
    }

    /// An app and a per-object type.
    public struct ObjectKey: Hashable, Sendable, Comparable {
        public let app: String
        public let type: String

        public init(app: String, type: String) {
            self.app = app
            self.type = type
        }

        public static func < (a: ObjectKey, b: ObjectKey) -> Bool { (a.app, a.type) < (b.app, b.type) }
    }
    /// Entries of the earlier spelling (`authorization.grant`, `-deny`, `-revoke` without a side)
    /// that decided something: they name no side, so they cannot be replayed; counted, to be said.
    public private(set) var unreplayable: [UInt64] = []

    public init(entries: some Sequence<AuditEntry>) {
        var known: [String: Set<Key>] = [:]
        var current: [Key: State] = [:]
        var objects: [ObjectKey: Set<String>] = [:]
        for entry in entries where entry.outcome == .ok {
            let operation = entry.operation.rawValue
            if entry.operation == .appEnroll || entry.operation == .appRemove {
                for key in objects.keys.filter({ $0.app == entry.requestID }).sorted() {
                    let held = objects.removeValue(forKey: key) ?? []
                    guard !held.isEmpty else { continue }
                    objectChanges.append(
                        ObjectChange(
                            time: entry.time,
                            app: key.app,
                            type: key.type,
                            objects: held.sorted(),
                            granted: false,
                            operation: operation,
                            entry: entry.sequence
                        )
                    )
                }
                // Everything the app had ends: a new enrolment starts from nothing decided.
                for key in (known.removeValue(forKey: entry.requestID) ?? []).sorted() {
                    current[key] = nil
                    changes.append(Change(time: entry.time, key: key, state: nil, operation: operation))
                }
                continue
            }
            if entry.operation == .authorizationGrantObjects || entry.operation == .authorizationRevokeObjects,
                let type = entry.types.first
            {
                let named = (entry.attributes["objects"] ?? "").split(separator: ",").map(String.init)
                let key = ObjectKey(app: entry.requestID, type: type)
                let granted = entry.operation == .authorizationGrantObjects
                if granted {
                    objects[key, default: []].formUnion(named)
                } else {
                    objects[key, default: []].subtract(named)
                }
                objectChanges.append(
                    ObjectChange(
                        time: entry.time,
                        app: key.app,
                        type: type,
                        objects: named.sorted(),
                        granted: granted,
                        operation: operation,
                        entry: entry.sequence
                    )
                )
                continue
            }
            if [.authorizationGrant, .authorizationDeny, .authorizationRevoke].contains(entry.operation) {
                unreplayable.append(entry.sequence)
                continue
            }
            for (prefix, granted) in Self.decisions where operation.hasPrefix(prefix) {
                let access = String(operation.dropFirst(prefix.count))
                guard access == "read" || access == "share" else { continue }
                let expiry = prefix == "authorization.expire-"
                let since = expiry ? entry.attributes["expired"].flatMap(RFC3339Millis.date) ?? entry.time : entry.time
                for type in entry.types {
                    let key = Key(app: entry.requestID, access: access, type: type)
                    // An expiry ends the grant it names (the one expiring then); one the owner has
                    // since replaced or ended is over already.
                    if expiry, current[key]?.expires != since { continue }
                    known[key.app, default: []].insert(key)
                    let state = State(
                        granted: granted,
                        attributes: granted ? entry.attributes : [:],
                        since: since,
                        entry: entry.sequence
                    )
                    current[key] = state
                    changes.append(Change(time: since, key: key, state: state, operation: operation))
                }
            }
        }
    }

    private static let decisions: [(String, Bool)] = [
        ("authorization.grant-", true), ("authorization.deny-", false), ("authorization.revoke-", false),
        ("authorization.expire-", false),
    ]

    /// Every permission decided at `instant` (not determined ones are absent): the changes up to
    /// it, a grant whose `expires` has come being denied from that instant, whether or not its
    /// expiry entry was written yet.
    public func states(at instant: Date) -> [Key: State] {
        var states: [Key: State] = [:]
        for change in changes where change.time <= instant {
            states[change.key] = change.state
        }
        for (key, state) in states {
            if let expires = state.expires, expires <= instant {
                states[key] = State(granted: false, attributes: [:], since: expires, entry: state.entry)
            }
        }
        return states
    }

    /// The objects each app could read of each per-object type at `instant` (none: absent), with
    /// the last change that made it so.
    public func objects(at instant: Date) -> [ObjectKey: (objects: Set<String>, since: Date, entry: UInt64)] {
        var held: [ObjectKey: (objects: Set<String>, since: Date, entry: UInt64)] = [:]
        for change in objectChanges where change.time <= instant {
            let key = ObjectKey(app: change.app, type: change.type)
            var objects = held[key]?.objects ?? []
            if change.granted { objects.formUnion(change.objects) } else { objects.subtract(change.objects) }
            held[key] = (objects, change.time, change.entry)
        }
        return held.filter { !$0.value.objects.isEmpty }
    }

    /// The changes of one app (or all), with each grant's own expiry as a change at its instant
    /// when no later change came first, in time order: the timeline `grants history` prints.
    public func timeline(app: String? = nil) -> [Change] {
        var timeline: [Change] = []
        for (index, change) in changes.enumerated() where app == nil || change.key.app == app {
            timeline.append(change)
            guard let state = change.state, let expires = state.expires else { continue }
            let next = changes[(index + 1)...].first { $0.key == change.key }
            if next == nil || next!.time > expires, next?.operation.hasPrefix("authorization.expire-") != true {
                timeline.append(
                    Change(
                        time: expires,
                        key: change.key,
                        state: State(granted: false, attributes: [:], since: expires, entry: state.entry),
                        operation: "expires"
                    )
                )
            }
        }
        return timeline.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element
        )
    }
}

/// RFC 3339 instants as attributes write them (`2026-12-30T23:00:00.000Z`).
enum RFC3339Millis {
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
