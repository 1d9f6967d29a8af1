/// Consecutive top-level elements HealthVault cannot store yet, of one element name and type.
public struct AppleHealthUnsupported: Hashable, Sendable {
    /// The element's name (`ClinicalRecord`, `Audiogram`, `VisionPrescription`, ...).
    public let element: String
    /// Its `type` attribute, when it has one.
    public let type: String?
    /// How many such elements came one after the other.
    public internal(set) var count: Int
    /// Where the first of them begins in the file.
    public let byteOffset: Int
}
