public import Foundation

/// One `<InstantaneousBeatsPerMinute bpm="72" time="7:35:22.12 PM"/>`, as written.
public struct AppleHealthBeatsPerMinute: Hashable, Sendable {
    public let bpm: String
    /// A local clock time, without a date or an offset.
    public let time: String

    public init(bpm: String, time: String) {
        self.bpm = bpm
        self.time = time
    }
}

/// A heart-rate-variability reading at its instant.
public struct AppleHealthResolvedBeatsPerMinute: Hashable, Sendable {
    public let date: Date
    public let beatsPerMinute: Double
}
