public import Foundation
public import HealthModel

extension AppleHealthRecord {
    /// The identity of the heartbeat series made of this record's beat-to-beat list: the record's
    /// own identity, as its one member.
    public var heartbeatSeriesIdentity: AppleHealthIdentity {
        AppleHealthIdentity(element: "HeartbeatSeries", fields: [], members: [identity])
    }

    /// The record's `HeartRateVariabilityMetadataList` as a HealthModel heartbeat series
    /// (HealthKit's `HKHeartbeatSeriesSample`, from which the phone computed the list), or nil when
    /// the record has no readable reading.
    ///
    /// Each `InstantaneousBeatsPerMinute` is one beat at its `time` (resolved as
    /// ``resolvedBeatsPerMinute()`` says), its `bpm` the rate over the interval that ends with it.
    /// The series spans the record, widened to its first and last beat; a beat at the same
    /// instant as the one before (times are written to the hundredth of a second) is left out. A
    /// beat is `precededByGap` when the time since the beat before is longer than its own rate
    /// allows (by more than a fifth and a tenth of a second): beats were missed between them.
    /// Throws `invalidArgument` when HealthModel refuses the series (more than
    /// ``HeartbeatSeriesSample/maximumCount`` beats).
    public func heartbeatSeries(uuid: UUID, source: Source) throws(HealthError) -> HeartbeatSeriesSample? {
        let readings = resolvedBeatsPerMinute().sorted { $0.date < $1.date }
        guard let first = readings.first, let last = readings.last,
            let recordStart = AppleHealthDate(parsing: startDate)?.date,
            let recordEnd = AppleHealthDate(parsing: endDate)?.date
        else { return nil }
        let start = min(recordStart, first.date)
        let end = max(recordEnd, last.date)
        var beats: [HeartbeatSeriesSample.Heartbeat] = []
        var previous: AppleHealthResolvedBeatsPerMinute?
        for reading in readings {
            let time = reading.date.timeIntervalSince(start)
            if let previous {
                let interval = reading.date.timeIntervalSince(previous.date)
                guard interval > 0 else { continue }
                let expected = reading.beatsPerMinute > 0 ? 60 / reading.beatsPerMinute : .infinity
                beats.append(.init(timeSinceSeriesStart: time, precededByGap: interval > expected * 1.2 + 0.1))
            } else {
                beats.append(.init(timeSinceSeriesStart: time))
            }
            previous = reading
        }
        let device = device.flatMap(ExportDevice.device)
        return try HeartbeatSeriesSample(
            uuid: uuid,
            start: start,
            end: end,
            heartbeats: beats,
            sourceRevision: PreparedSample.revision(source: source, version: sourceVersion, device: device),
            device: device
        )
    }
}
