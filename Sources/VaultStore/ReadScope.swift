public import HealthModel

/// What one read may see: the types it may read wholly, and whose own samples it may read of
/// every other type. The store applies it in SQL, so hidden rows are never loaded.
public struct ReadScope: Hashable, Sendable {
    /// Nil for the owner, who reads everything.
    public let bundleIdentifier: String?
    /// Types read wholly (for an app: those with a read grant).
    public let readableTypes: Set<SampleType>

    private init(bundleIdentifier: String?, readableTypes: Set<SampleType>) {
        self.bundleIdentifier = bundleIdentifier
        self.readableTypes = readableTypes
    }

    /// The owner: every sample of every type.
    public static let owner = ReadScope(bundleIdentifier: nil, readableTypes: [])

    /// An app: the types it may read wholly, and its own samples of any other type.
    public static func app(_ bundleIdentifier: String, readableTypes: Set<SampleType>) -> ReadScope {
        ReadScope(bundleIdentifier: bundleIdentifier, readableTypes: readableTypes)
    }

    enum Access {
        case all
        case ownSamples(String)
    }

    /// The app whose own samples are all this scope sees of `type`, or nil when it sees them all.
    func ownSource(of type: SampleType) -> String? {
        if case .ownSamples(let bundleIdentifier) = access(to: type) { return bundleIdentifier }
        return nil
    }

    func access(to type: SampleType) -> Access {
        guard let bundleIdentifier else { return .all }
        return readableTypes.contains(type) ? .all : .ownSamples(bundleIdentifier)
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
