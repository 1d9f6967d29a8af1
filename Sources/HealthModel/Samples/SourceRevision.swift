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
public struct SourceRevision: Hashable, Sendable, Codable, CustomReflectable {
    /// The properties, behind one reference (``Shared``): a source revision is copied with every
    /// sample that names it.
    private struct Properties: Hashable, Sendable, Codable {
        let source: Source
        let version: String?
        let productType: String?
        let operatingSystemVersion: String?
    }

    private let properties: Shared<Properties>

    public var source: Source { properties.value.source }
    /// The app's version string, when known.
    public var version: String? { properties.value.version }
    /// The hardware product type (`iPhone15,2`, `Watch7,1`), when known (imports).
    public var productType: String? { properties.value.productType }
    /// The operating system version, when known (imports).
    public var operatingSystemVersion: String? { properties.value.operatingSystemVersion }

    public init(
        source: Source,
        version: String? = nil,
        productType: String? = nil,
        operatingSystemVersion: String? = nil
    ) {
        properties = Shared(
            Properties(
                source: source,
                version: version,
                productType: productType,
                operatingSystemVersion: operatingSystemVersion
            )
        )
    }

    /// The JSON object of its source and its other properties, each absent when nil.
    public init(from decoder: any Decoder) throws {
        properties = try Shared(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try properties.encode(to: encoder)
    }

    /// Its properties, as a value holding them inline shows them (`print`, `dump`, test failures).
    public var customMirror: Mirror { properties.mirror(of: self) }

    func validate() throws(HealthError) {
        guard !source.bundleIdentifier.isEmpty else {
            throw .invalidArgument("the source's bundle identifier is empty", field: "source.bundleIdentifier")
        }
    }
}
