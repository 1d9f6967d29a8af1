public import Foundation
public import HealthModel

extension AppleHealthWorkoutRoute {
    /// The route's identity: its workout's, the files it names, its source name and its dates.
    /// Its locations are not part of it (they are in the GPX file, which a later export writes
    /// again unchanged).
    public func identity(in workout: AppleHealthWorkout) -> AppleHealthIdentity {
        AppleHealthIdentity(
            element: "WorkoutRoute",
            fields: [sourceName, AppleHealthIdentity.date(startDate), AppleHealthIdentity.date(endDate)]
                + fileReferences.sorted(),
            members: [workout.identity]
        )
    }

    /// The HealthModel route holding `track`'s locations: its span from the first to the last
    /// location, the route's device (else the workout's), a source revision with the importer's
    /// source and the route's version (else the workout's), and its metadata (entries HealthModel
    /// refuses left out). Throws `invalidArgument` for a track without a location.
    public func route(
        uuid: UUID,
        source: Source,
        track: GPXTrack,
        in workout: AppleHealthWorkout
    ) throws(HealthError) -> WorkoutRoute {
        guard let first = track.locations.first, let last = track.locations.last else {
            throw .invalidArgument("the route's GPX file holds no readable location", field: "fileReferences")
        }
        let device = (device ?? workout.device).flatMap(ExportDevice.device)
        let revision = PreparedSample.revision(
            source: source,
            version: sourceVersion ?? workout.sourceVersion,
            device: device
        )
        var notes: [AppleHealthConversionNote] = []
        var metadata = ExportMetadata.convert(self.metadata, notes: &notes)
        metadata = ExportMetadata.accepted(metadata, fieldPrefix: "", notes: &notes)
        return try buildDroppingRefusedMetadata(metadata, notes: &notes) { metadata in
            try WorkoutRoute(
                uuid: uuid,
                start: first.timestamp,
                end: last.timestamp,
                count: track.locations.count,
                sourceRevision: revision,
                device: device,
                metadata: metadata
            )
        }
    }
}
