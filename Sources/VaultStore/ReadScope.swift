public import Foundation
public import HealthModel

/// The dates a windowed read grant lets an app see of a type: a sample is inside when it lies
/// wholly within the window, starting at or after ``start`` and ending at or before ``end``
/// (docs/ACCESS_RULES.md, "Windows"). A nil bound is open. Resolved for one request: a rolling
/// window ("the last 30 days") is a window with a start that moves with each request's time.
public struct ReadWindow: Hashable, Sendable {
    /// The earliest start a visible sample may have; nil: no limit.
    public let start: Date?
    /// The latest end a visible sample may have; nil: no limit.
    public let end: Date?

    public init(start: Date?, end: Date?) {
        self.start = start
        self.end = end
    }

    /// The longest a sample inside can last (end minus start, in seconds), or nil when the
    /// window is open at either end.
    var duration: Double? {
        guard let start, let end else { return nil }
        return max(end.timeIntervalSinceReferenceDate - start.timeIntervalSinceReferenceDate, 0)
    }

    /// Whether a sample from `start` to `end` lies wholly inside.
    public func contains(start sampleStart: Date, end sampleEnd: Date) -> Bool {
        (start.map { sampleStart >= $0 } ?? true) && (end.map { sampleEnd <= $0 } ?? true)
    }

    /// The dates inside both windows (a correlation read through its member types' windows).
    public func intersection(_ other: ReadWindow) -> ReadWindow {
        ReadWindow(
            start: [start, other.start].compactMap { $0 }.max(),
            end: [end, other.end].compactMap { $0 }.min()
        )
    }

    /// The SQL condition on the row alias `alias` (its `start_date` and `end_date`): the bounds as
    /// a range of the start, so the (type, start) index walks only the rows inside (and, with an
    /// end, those that begin inside and end after it), never one that begins before the window.
    func condition(_ alias: String) -> SQLFragment {
        var parts: [String] = []
        var arguments: [DatabaseValue] = []
        if let start {
            parts.append("\(alias).start_date >= ?")
            arguments.append(.real(start.timeIntervalSinceReferenceDate))
        }
        if let end {
            // The end bounds the start too (a sample never ends before it starts): the index
            // range stops there.
            parts.append("\(alias).start_date <= ? AND \(alias).end_date <= ?")
            arguments += [.real(end.timeIntervalSinceReferenceDate), .real(end.timeIntervalSinceReferenceDate)]
        }
        if parts.isEmpty {
            // Open at both ends: every row, still as a range of the start (NULL never matches).
            return SQLFragment("\(alias).start_date IS NOT NULL")
        }
        return SQLFragment(parts.joined(separator: " AND "), arguments)
    }
}

/// What one read may see: the types it may read (wholly, or within a window), and whose own
/// samples it may read of every other type. The store applies it in SQL, so hidden rows are
/// never loaded.
public struct ReadScope: Hashable, Sendable {
    /// Nil for the owner, who reads everything.
    public let bundleIdentifier: String?
    /// Types the app may read beyond its own samples (for an app: those with a read grant in
    /// force), wholly or within a window.
    public let readableTypes: Set<SampleType>
    /// Of ``readableTypes``, those read only within a window: other apps' samples outside it are,
    /// to this scope, samples that do not exist. The app's own samples stay visible whatever the
    /// window.
    public let windows: [SampleType: ReadWindow]
    /// Of the types read object by object (``SampleType/isReadPerObject``: vision prescriptions,
    /// documents), the other apps' objects this scope may read, by type: those the owner chose
    /// for the app. No type-level grant shows others (docs/ACCESS_RULES.md, "Per-object reads").
    public private(set) var readableObjects: [SampleType: Set<UUID>] = [:]

    private init(bundleIdentifier: String?, readableTypes: Set<SampleType>, windows: [SampleType: ReadWindow]) {
        self.bundleIdentifier = bundleIdentifier
        self.readableTypes = readableTypes
        var windows = windows.filter { readableTypes.contains($0.key) }
        // A correlation read within its object types' windows: inside all of them at once.
        for case .correlation(let correlationType) in readableTypes {
            let memberWindows = correlationType.allowedMemberTypes.compactMap { windows[$0] }
            guard !memberWindows.isEmpty else { continue }
            let own = windows[.correlation(correlationType)].map { [$0] } ?? []
            windows[.correlation(correlationType)] = (own + memberWindows).dropFirst().reduce((own + memberWindows)[0])
            {
                $0.intersection($1)
            }
        }
        self.windows = windows
    }

    /// The owner: every sample of every type.
    public static let owner = ReadScope(bundleIdentifier: nil, readableTypes: [], windows: [:])

    /// An app: the types it may read (those in `windows` only within their window), and its own
    /// samples of any other type.
    public static func app(
        _ bundleIdentifier: String,
        readableTypes: Set<SampleType>,
        windows: [SampleType: ReadWindow] = [:]
    ) -> ReadScope {
        ReadScope(bundleIdentifier: bundleIdentifier, readableTypes: readableTypes, windows: windows)
    }

    /// Whether this scope sees every sample of `type`, whoever stored it and whenever.
    public func readsWholly(_ type: SampleType) -> Bool {
        guard bundleIdentifier != nil else { return true }
        return readableTypes.contains(type) && windows[type] == nil
    }

    /// The scope that may also read `objects`, by type (only the types read object by object
    /// count; an empty set is dropped).
    public func reading(objects: [SampleType: Set<UUID>]) -> ReadScope {
        var copy = self
        copy.readableObjects = objects.filter { $0.key.isReadPerObject && !$0.value.isEmpty }
        return copy
    }

    enum Access {
        case all
        /// Other apps' samples inside the window, and every one of the app's own.
        case window(ReadWindow, own: String)
        case ownSamples(String)
        /// A type read object by object: the app's own samples and these objects of others.
        case objects(Set<UUID>, own: String)
    }

    /// The app whose own samples are all this scope sees of `type`, or nil when it sees more.
    func ownSource(of type: SampleType) -> String? {
        switch access(to: type) {
        case .ownSamples(let bundleIdentifier): return bundleIdentifier
        case .objects(let objects, let own) where objects.isEmpty: return own
        // Some of others' objects: neither all nor only its own (no caller asks this of such a type).
        case .all, .window, .objects: return nil
        }
    }

    func access(to type: SampleType) -> Access {
        guard let bundleIdentifier else { return .all }
        if type.isReadPerObject { return .objects(readableObjects[type] ?? [], own: bundleIdentifier) }
        guard readableTypes.contains(type) else { return .ownSamples(bundleIdentifier) }
        if let window = windows[type] { return .window(window, own: bundleIdentifier) }
        return .all
    }
}

/// Who deletes: the owner deletes anything; an app only the samples it wrote.
public enum DeleteScope: Hashable, Sendable {
    case owner
    case app(String)
}

/// What a save did with each sample.
public struct SaveOutcome: Hashable, Sendable {
    /// Samples stored (new, or replacing an older sync version).
    public var saved = 0
    /// Older versions removed because a newer sync version arrived.
    public var replaced = 0
    /// Samples not stored because the vault has the same or a newer sync version.
    public var ignored = 0

    public init(saved: Int = 0, replaced: Int = 0, ignored: Int = 0) {
        self.saved = saved
        self.replaced = replaced
        self.ignored = ignored
    }
}

/// What a delete would remove or removed: how many samples (correlation members included), and
/// which apps' samples of which types.
public struct Deletion: Hashable, Sendable {
    public var count: Int
    /// For each type, the app ids (sources) whose samples of it go.
    public var sources: [SampleType: Set<String>]

    public init(count: Int, sources: [SampleType: Set<String>]) {
        self.count = count
        self.sources = sources
    }

    public var types: Set<SampleType> { Set(sources.keys) }
}
