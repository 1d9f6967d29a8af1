import Foundation
import HealthModel

extension AppleHealthWorkout {
    /// How far past its span a duration or an event may reach and be shortened rather than left
    /// out: exports write dates to the second, durations to the millisecond.
    static let roundingSlack: TimeInterval = 1

    /// Converts the workout with a placeholder UUID and source; HealthModel validates it.
    func prepare() throws(HealthError) -> PreparedSample {
        if let missing = missingAttributes.first {
            throw .invalidArgument("the Workout has no \(missing) attribute", field: missing)
        }
        guard let activityType = ExportConstants.workoutActivityTypes[workoutActivityType] else {
            throw .invalidArgument(
                "unknown workout activity type \"\(workoutActivityType)\"",
                field: "workoutActivityType"
            )
        }
        let start = try AppleHealthRecord.date(startDate, field: "startDate").date
        let end = try AppleHealthRecord.date(endDate, field: "endDate").date
        guard end >= start else {
            throw .invalidArgument("the end date is before the start date", field: "endDate")
        }
        let span = start...end
        let device = device.flatMap(ExportDevice.device)
        var notes: [AppleHealthConversionNote] = []

        var duration: TimeInterval?
        if let text = self.duration {
            let seconds = try Self.seconds(text, unit: durationUnit, field: "duration")
            let length = end.timeIntervalSince(start)
            if seconds <= length + 0.001 {
                duration = seconds
            } else if seconds <= length + Self.roundingSlack {
                duration = length
                notes.append(Self.note("duration", "shortened to the workout's span (dates are written to the second)"))
            } else {
                notes.append(Self.note("duration", "left out: longer than the workout's span"))
            }
        }

        let statistics = Self.statistics(self.statistics, span: span, field: "statistics", notes: &notes)
        let energy =
            Self.total(
                totalEnergyBurned,
                unit: totalEnergyBurnedUnit,
                compatibleWith: .kilocalorie,
                field: "totalEnergyBurned",
                notes: &notes
            ) ?? statistics.first { $0.quantityType == .activeEnergyBurned }?.sumQuantity()
        let distance =
            Self.total(
                totalDistance,
                unit: totalDistanceUnit,
                compatibleWith: .meter,
                field: "totalDistance",
                notes: &notes
            )
            ?? activityType.distanceType.flatMap { type in statistics.first { $0.quantityType == type }?.sumQuantity() }

        let events = Self.events(self.events, within: span, field: "events", notes: &notes)
        let activities = Self.activities(
            self.activities,
            workoutType: activityType,
            within: span,
            notes: &notes
        )
        var metadata = ExportMetadata.convert(metadata, notes: &notes)
        metadata = ExportMetadata.accepted(metadata, fieldPrefix: "", notes: &notes)
        let revision = PreparedSample.placeholderRevision(
            sourceName: sourceName,
            version: sourceVersion,
            device: device
        )
        let workout = try buildDroppingRefusedMetadata(metadata, notes: &notes) { metadata in
            try Workout(
                uuid: PreparedSample.placeholderUUID,
                activityType: activityType,
                start: start,
                end: end,
                duration: duration,
                totalEnergyBurned: energy,
                totalDistance: distance,
                events: events,
                activities: activities,
                statistics: statistics,
                sourceRevision: revision,
                device: device,
                metadata: metadata
            )
        }
        return PreparedSample(sample: .workout(workout), notes: notes)
    }

    private static func note(_ field: String, _ reason: String) -> AppleHealthConversionNote {
        AppleHealthConversionNote(field: field, reason: reason)
    }

    /// A duration in seconds from its number and unit (minutes when the unit is absent).
    static func seconds(_ text: String, unit: String?, field: String) throws(HealthError) -> TimeInterval {
        guard let value = ExportValues.number(text), value >= 0 else {
            throw .invalidArgument("not a number of at least 0", field: field)
        }
        let parsed = try UnitCache.unit(unit ?? "min")
        guard parsed.isCompatible(with: .second) else {
            throw .invalidArgument("unit \(parsed) is not a time", field: field + "Unit")
        }
        return try parsed.convert(value, to: .second)
    }

    private static func total(
        _ text: String?,
        unit: String?,
        compatibleWith reference: HealthUnit,
        field: String,
        notes: inout [AppleHealthConversionNote]
    ) -> Quantity? {
        guard let text else { return nil }
        guard let value = ExportValues.number(text), value >= 0, let unitText = unit,
            let parsed = try? UnitCache.unit(unitText), parsed.isCompatible(with: reference)
        else {
            notes.append(note(field, "left out: not a number of at least 0 in a unit of \(reference)'s kind"))
            return nil
        }
        return Quantity(value, parsed)
    }

    /// The statistics HealthModel can hold, each in its type's canonical unit; one per type.
    static func statistics(
        _ raw: [AppleHealthWorkoutStatistics],
        span: ClosedRange<Date>,
        field: String,
        notes: inout [AppleHealthConversionNote]
    ) -> [Statistics] {
        var result: [Statistics] = []
        for (index, statistic) in raw.enumerated() {
            let path = "\(field)[\(index)]"
            guard let typeText = statistic.type, let type = QuantityTypeIdentifier(rawValue: typeText) else {
                notes.append(note(path, "left out: not a quantity type HealthVault knows"))
                continue
            }
            guard !result.contains(where: { $0.quantityType == type }) else {
                notes.append(note(path, "left out: a second statistics of \(type.rawValue)"))
                continue
            }
            guard let unitText = statistic.unit, let unit = try? UnitCache.unit(unitText),
                type.isCompatible(with: unit)
            else {
                notes.append(note(path, "left out: no unit of \(type.rawValue)'s kind"))
                continue
            }
            var converted: [Quantity?] = []
            var readable = true
            for text in [statistic.sum, statistic.average, statistic.minimum, statistic.maximum] {
                guard let text else {
                    converted.append(nil)
                    continue
                }
                guard let value = ExportValues.number(text),
                    let canonical = try? Quantity(value, unit).converted(to: type.canonicalUnit),
                    canonical.value.isFinite
                else {
                    readable = false
                    break
                }
                converted.append(canonical)
            }
            guard readable else {
                notes.append(note(path, "left out: a figure that is not a number"))
                continue
            }
            let startDate = statistic.startDate.flatMap(AppleHealthDate.init(parsing:))?.date ?? span.lowerBound
            let endDate = statistic.endDate.flatMap(AppleHealthDate.init(parsing:))?.date ?? span.upperBound
            result.append(
                Statistics(
                    quantityType: type,
                    startDate: startDate,
                    endDate: max(startDate, endDate),
                    values: StatisticsValues(
                        sum: converted[0],
                        average: converted[1],
                        minimum: converted[2],
                        maximum: converted[3]
                    )
                )
            )
        }
        return result
    }

    /// The events that lie within `span` (an event ending up to a second past it is shortened).
    static func events(
        _ raw: [AppleHealthWorkoutEvent],
        within span: ClosedRange<Date>,
        field: String,
        notes: inout [AppleHealthConversionNote]
    ) -> [WorkoutEvent] {
        var result: [WorkoutEvent] = []
        for (index, event) in raw.enumerated() {
            let path = "\(field)[\(index)]"
            guard let typeText = event.type, let type = ExportConstants.workoutEventTypes[typeText] else {
                notes.append(note(path, "left out: not a workout event type HealthVault knows"))
                continue
            }
            guard let dateText = event.date, let start = AppleHealthDate(parsing: dateText)?.date else {
                notes.append(note(path, "left out: no date"))
                continue
            }
            var length: TimeInterval = 0
            if let duration = event.duration {
                guard let seconds = try? seconds(duration, unit: event.durationUnit, field: "duration") else {
                    notes.append(note(path, "left out: a duration that is not a time"))
                    continue
                }
                length = seconds
            }
            guard span.contains(start) else {
                notes.append(note(path, "left out: outside the workout or activity"))
                continue
            }
            var end = start.addingTimeInterval(length)
            if end > span.upperBound {
                guard end.timeIntervalSince(span.upperBound) <= roundingSlack else {
                    notes.append(note(path, "left out: ends after the workout or activity"))
                    continue
                }
                end = span.upperBound
                notes.append(note(path, "shortened to end with the workout or activity"))
            }
            var eventNotes: [AppleHealthConversionNote] = []
            var metadata = ExportMetadata.convert(event.metadata, fieldPrefix: path + ".", notes: &eventNotes)
            metadata = ExportMetadata.accepted(metadata, fieldPrefix: path + ".", notes: &eventNotes)
            notes += eventNotes
            result.append(WorkoutEvent(type: type, start: start, end: end, metadata: metadata))
        }
        return result
    }

    /// The activities HealthModel accepts, each ended, within the workout and after the one before.
    static func activities(
        _ raw: [AppleHealthWorkoutActivity],
        workoutType: WorkoutActivityType,
        within span: ClosedRange<Date>,
        notes: inout [AppleHealthConversionNote]
    ) -> [WorkoutActivity] {
        var result: [WorkoutActivity] = []
        let ordered = raw.enumerated().sorted { lhs, rhs in
            (lhs.element.startDate.flatMap(AppleHealthDate.init(parsing:))?.date ?? .distantPast)
                < (rhs.element.startDate.flatMap(AppleHealthDate.init(parsing:))?.date ?? .distantPast)
        }
        for (index, activity) in ordered {
            let path = "activities[\(index)]"
            guard let uuidText = activity.uuid, let uuid = UUID(uuidString: uuidText) else {
                notes.append(note(path, "left out: no UUID"))
                continue
            }
            guard let start = activity.startDate.flatMap(AppleHealthDate.init(parsing:))?.date,
                var end = activity.endDate.flatMap(AppleHealthDate.init(parsing:))?.date, end >= start
            else {
                notes.append(note(path, "left out: no start and end, or an end before the start"))
                continue
            }
            guard span.contains(start), end.timeIntervalSince(span.upperBound) <= roundingSlack else {
                notes.append(note(path, "left out: outside the workout"))
                continue
            }
            if end > span.upperBound {
                end = span.upperBound
                notes.append(note(path, "shortened to end with the workout"))
            }
            if let previous = result.last?.endDate, start < previous {
                notes.append(note(path, "left out: overlaps the activity before it"))
                continue
            }
            var activityNotes: [AppleHealthConversionNote] = []
            var metadata = ExportMetadata.convert(activity.metadata, fieldPrefix: path + ".", notes: &activityNotes)
            metadata = ExportMetadata.accepted(metadata, fieldPrefix: path + ".", notes: &activityNotes)
            let configuration = Self.configuration(of: metadata, workoutType: workoutType)
            let events = Self.events(
                activity.events,
                within: start...end,
                field: path + ".events",
                notes: &activityNotes
            )
            let statistics = Self.statistics(
                activity.statistics,
                span: start...end,
                field: path + ".statistics",
                notes: &activityNotes
            )
            notes += activityNotes
            do {
                result.append(
                    try WorkoutActivity(
                        uuid: uuid,
                        configuration: configuration,
                        start: start,
                        end: end,
                        events: events,
                        metadata: metadata,
                        statistics: statistics
                    )
                )
            } catch {
                notes.append(note(path, "left out: " + error.message))
            }
        }
        return result
    }

    /// An activity's configuration from its metadata: the activity type (`HKActivityType`, else
    /// the workout's), indoor or outdoor (`HKIndoorWorkout`), and for swimming the location and
    /// lap length; HealthModel's checks decide, falling back to the activity type alone.
    private static func configuration(of metadata: Metadata, workoutType: WorkoutActivityType) -> WorkoutConfiguration {
        var type = workoutType
        if case .number(let raw) = metadata[.activityType], let exact = Int(exactly: raw),
            let named = WorkoutActivityType(rawValue: exact)
        {
            type = named
        }
        var location = WorkoutSessionLocationType.unknown
        if case .number(let indoor) = metadata[.indoorWorkout] {
            location = indoor == 1 ? .indoor : .outdoor
        }
        var swimming = WorkoutSwimmingLocationType.unknown
        if type == .swimming, case .number(let raw) = metadata[.swimmingLocationType], let exact = Int(exactly: raw),
            let named = WorkoutSwimmingLocationType(rawValue: exact)
        {
            swimming = named
        }
        var lapLength: Quantity?
        if swimming == .pool, case .quantity(let length) = metadata[.lapLength] {
            lapLength = length
        }
        if let full = try? WorkoutConfiguration(
            activityType: type,
            locationType: location,
            swimmingLocationType: swimming,
            lapLength: lapLength
        ) {
            return full
        }
        return (try? WorkoutConfiguration(activityType: type, locationType: location))
            ?? (try! WorkoutConfiguration(activityType: type))
    }
}
