/// What a reader saw and did so far, for the importer's summary and for anyone asking where a
/// record went: counts per element and type, what it could not store, what it repaired.
///
/// Complete once ``AppleHealthReader/next()`` has returned nil; a running view before. No count
/// names or holds a health value.
public struct AppleHealthDiagnostics: Hashable, Sendable {
    /// A count's key: an element name, and a type or another detail where the count has one.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        public let element: String
        public let type: String?
        /// A reason, a child element's or an attribute's name, a conversion note's field.
        public let detail: String?

        public init(element: String, type: String? = nil, detail: String? = nil) {
            self.element = element
            self.type = type
            self.detail = detail
        }

        public var description: String {
            [element, type, detail].compactMap { $0 }.joined(separator: " ")
        }
    }

    /// `HealthData`'s `locale` attribute (`en_US`).
    public var locale: String?
    /// `ExportDate`'s value, as written.
    public var exportDate: String?
    /// The N of the DTD's `<!-- HealthKit Export Version: N -->`.
    public var exportVersion: Int?
    /// Defects of the DOCTYPE's internal subset the reader read past: declarations never closed,
    /// stray `>` or `<`, a subset never closed before the root element. iOS 16 and 17 exports have
    /// some; the reader does not interpret the subset.
    public var doctypeIrregularities = 0

    /// Top-level `<Record>` elements read, by type (skipped ones included).
    public var records: [String: Int] = [:]
    /// `<Record>` elements read inside correlations (not in ``records``).
    public var correlationMembers = 0
    /// `<Correlation>` elements read, by type.
    public var correlations: [String: Int] = [:]
    /// `<Workout>` elements read, by activity type.
    public var workouts: [String: Int] = [:]
    public var activitySummaries = 0
    /// `<Me>` elements read (one in an export).
    public var meElements = 0
    /// Top-level elements HealthVault cannot store yet, by element name and type.
    public var unsupported: [Key: Int] = [:]
    /// Child elements the reader does not know where they are (element: the parent, detail: the
    /// child), skipped with everything inside them.
    public var unexpectedChildren: [Key: Int] = [:]
    /// Attributes the reader does not know (element, detail: the attribute), kept in each item's
    /// `otherAttributes`.
    public var unknownAttributes: [Key: Int] = [:]
    /// Items read whole but refused by HealthModel, by element, type and reason (the reason's
    /// field and message).
    public var skipped: [Key: Int] = [:]
    /// Parts a conversion left out or changed (a metadata entry of the wrong kind, a workout
    /// statistic of an unknown type), by element, type and the note; counted while validating.
    public var conversionNotes: [Key: Int] = [:]

    /// Characters XML 1.0 forbids (C0 controls other than tab, line feed and carriage return, as
    /// the vertical tab Apple writes in some device names; U+FFFE and U+FFFF) removed from
    /// attribute values, written or as character references. The rest of each value is kept.
    public var forbiddenCharactersRemoved = 0
    /// Attribute values whose bytes were not valid UTF-8 (each bad sequence became U+FFFD).
    public var invalidUTF8Values = 0
    /// `&name;` references to entities XML does not predefine, and `&` not starting a reference,
    /// kept as written.
    public var unknownReferences = 0
    /// Heart-rate-variability readings whose time or number cannot be read (not resolvable to an
    /// instant); counted while validating.
    public var unresolvedBeatTimes = 0
    /// Bytes of tags after `</HealthData>` (read and ignored; a tag that cannot be read there
    /// counts 1 and ends the reading).
    public var trailingBytes = 0

    /// Top-level elements (children of `HealthData`) read whole, of any kind.
    public var completeItems = 0
    /// The largest the reader's window of the file has been, in bytes: the bound on its memory
    /// for file content (about two chunks, more only while one tag is larger than a chunk).
    public var peakBufferBytes = 0
    /// The most children (metadata entries, readings, events, member records) one item held.
    public var largestItemChildren = 0

    public init() {}
}
