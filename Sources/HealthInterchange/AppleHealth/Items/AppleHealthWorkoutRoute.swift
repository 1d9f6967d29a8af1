/// A `<WorkoutRoute>` as written: the route's source and span, its metadata, and the paths of
/// its GPX files in the export (`/workout-routes/route_2023-01-01_8.30am.gpx`).
public struct AppleHealthWorkoutRoute: Hashable, Sendable {
    public var sourceName: String?
    public var sourceVersion: String?
    public var device: String?
    public var creationDate: String?
    public var startDate: String?
    public var endDate: String?
    public var metadata: [AppleHealthMetadataEntry]
    /// The `<FileReference path=...>` paths, relative to the export's folder.
    public var fileReferences: [String]
    public var otherAttributes: [AppleHealthAttribute]

    public init(
        sourceName: String?,
        sourceVersion: String? = nil,
        device: String? = nil,
        creationDate: String? = nil,
        startDate: String?,
        endDate: String?,
        metadata: [AppleHealthMetadataEntry] = [],
        fileReferences: [String] = [],
        otherAttributes: [AppleHealthAttribute] = []
    ) {
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.fileReferences = fileReferences
        self.otherAttributes = otherAttributes
    }
}
