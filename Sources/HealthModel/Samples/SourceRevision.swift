/// The app that wrote a sample: its bundle identifier (the app id) and display name.
public struct Source: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The app id, reverse-DNS (`org.example.stepcounter`).
    public let bundleIdentifier: String
    /// The app's display name.
    public let name: String

    public init(bundleIdentifier: String, name: String) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
    }

    public var description: String { "\(name) (\(bundleIdentifier))" }
}

/// The app and the version of it that wrote a sample, as HealthKit's `HKSourceRevision`.
///
/// The vault stamps it from the authenticated app on save; what an app sends is not trusted.
public struct SourceRevision: Hashable, Sendable, Codable {
    public let source: Source
    /// The app's version string, when known.
    public let version: String?
    /// The hardware product type (`iPhone15,2`, `Watch7,1`), when known (imports).
    public let productType: String?
    /// The operating system version, when known (imports).
    public let operatingSystemVersion: String?

    public init(
        source: Source,
        version: String? = nil,
        productType: String? = nil,
        operatingSystemVersion: String? = nil
    ) {
        self.source = source
        self.version = version
        self.productType = productType
        self.operatingSystemVersion = operatingSystemVersion
    }

    func validate() throws(HealthError) {
        guard !source.bundleIdentifier.isEmpty else {
            throw .invalidArgument("the source's bundle identifier is empty", field: "source.bundleIdentifier")
        }
    }
}
