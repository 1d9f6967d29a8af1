/// Each element's attributes read into its item: the known ones into their fields, in any order
/// and with either quote; any other kept in `otherAttributes` and counted.
extension AppleHealthReader {
    /// The values of the attributes named (nil where absent), in the order named, and the others.
    func read(_ names: [StaticString], element: String) -> (values: [String?], others: [AppleHealthAttribute]) {
        var values = [String?](repeating: nil, count: names.count)
        var others: [AppleHealthAttribute] = []
        for attribute in scanner.attributes {
            if let index = names.firstIndex(where: { self.attribute(attribute, is: $0) }) {
                values[index] = value(of: attribute)
            } else {
                others.append(other(attribute, element: element))
            }
        }
        return (values, others)
    }

    private func other(_ attribute: XMLScanner.Attribute, element: String) -> AppleHealthAttribute {
        let name = name(of: attribute)
        counts.unknownAttributes[AppleHealthDiagnostics.Key(element: element, detail: name), default: 0] += 1
        return AppleHealthAttribute(name: name, value: value(of: attribute))
    }

    /// A `<Record>`'s attributes: the hot path, matched by length first.
    func readRecord() -> AppleHealthRecord {
        var record = AppleHealthRecord(
            type: "",
            sourceName: "",
            startDate: "",
            endDate: "",
            byteOffset: scanner.offset(of: scanner.tokenStart)
        )
        var seen: UInt8 = 0
        for attribute in scanner.attributes {
            switch attribute.nameEnd - attribute.nameStart {
            case 4 where self.attribute(attribute, is: "type"):
                record.type = interned(attribute, .type)
                seen |= 1
            case 4 where self.attribute(attribute, is: "unit"):
                record.unit = interned(attribute, .unit)
            case 5 where self.attribute(attribute, is: "value"):
                record.value = value(of: attribute)
            case 6 where self.attribute(attribute, is: "device"):
                record.device = interned(attribute, .device)
            case 7 where self.attribute(attribute, is: "endDate"):
                record.endDate = value(of: attribute)
                seen |= 8
            case 9 where self.attribute(attribute, is: "startDate"):
                record.startDate = value(of: attribute)
                seen |= 4
            case 10 where self.attribute(attribute, is: "sourceName"):
                record.sourceName = interned(attribute, .sourceName)
                seen |= 2
            case 12 where self.attribute(attribute, is: "creationDate"):
                record.creationDate = value(of: attribute)
            case 13 where self.attribute(attribute, is: "sourceVersion"):
                record.sourceVersion = interned(attribute, .sourceVersion)
            default:
                record.otherAttributes.append(other(attribute, element: "Record"))
            }
        }
        if seen != 15 {
            record.missingAttributes = Self.missing(seen, ["type", "sourceName", "startDate", "endDate"])
        }
        return record
    }

    private static func missing(_ seen: UInt8, _ names: [String]) -> [String] {
        names.enumerated().filter { seen & (1 << $0.offset) == 0 }.map(\.element)
    }

    func readMetadataEntry() -> AppleHealthMetadataEntry {
        var key = ""
        var value = ""
        for attribute in scanner.attributes {
            if self.attribute(attribute, is: "key") {
                key = interned(attribute, .metadataKey)
            } else if self.attribute(attribute, is: "value") {
                value = interned(attribute, .metadataValue)
            } else {
                _ = other(attribute, element: "MetadataEntry")
            }
        }
        return AppleHealthMetadataEntry(key: key, value: value)
    }

    func readBeatsPerMinute() -> AppleHealthBeatsPerMinute {
        let attributes = read(["bpm", "time"], element: "InstantaneousBeatsPerMinute")
        return AppleHealthBeatsPerMinute(bpm: attributes.values[0] ?? "", time: attributes.values[1] ?? "")
    }

    func readCorrelation() -> AppleHealthCorrelation {
        let attributes = read(
            ["type", "sourceName", "sourceVersion", "device", "creationDate", "startDate", "endDate"],
            element: "Correlation"
        )
        let values = attributes.values
        var correlation = AppleHealthCorrelation(
            type: values[0] ?? "",
            sourceName: values[1] ?? "",
            sourceVersion: values[2],
            device: values[3],
            creationDate: values[4],
            startDate: values[5] ?? "",
            endDate: values[6] ?? "",
            otherAttributes: attributes.others,
            byteOffset: scanner.offset(of: scanner.tokenStart)
        )
        correlation.missingAttributes = [(0, "type"), (1, "sourceName"), (5, "startDate"), (6, "endDate")]
            .filter { values[$0.0] == nil }.map(\.1)
        return correlation
    }

    func readWorkout() -> AppleHealthWorkout {
        let attributes = read(
            [
                "workoutActivityType", "duration", "durationUnit", "totalDistance", "totalDistanceUnit",
                "totalEnergyBurned", "totalEnergyBurnedUnit", "sourceName", "sourceVersion", "device",
                "creationDate", "startDate", "endDate",
            ],
            element: "Workout"
        )
        let values = attributes.values
        var workout = AppleHealthWorkout(
            workoutActivityType: values[0] ?? "",
            duration: values[1],
            durationUnit: values[2],
            totalDistance: values[3],
            totalDistanceUnit: values[4],
            totalEnergyBurned: values[5],
            totalEnergyBurnedUnit: values[6],
            sourceName: values[7] ?? "",
            sourceVersion: values[8],
            device: values[9],
            creationDate: values[10],
            startDate: values[11] ?? "",
            endDate: values[12] ?? "",
            otherAttributes: attributes.others,
            byteOffset: scanner.offset(of: scanner.tokenStart)
        )
        workout.missingAttributes = [(0, "workoutActivityType"), (7, "sourceName"), (11, "startDate"), (12, "endDate")]
            .filter { values[$0.0] == nil }.map(\.1)
        return workout
    }

    func readEvent() -> AppleHealthWorkoutEvent {
        let attributes = read(["type", "date", "duration", "durationUnit"], element: "WorkoutEvent")
        let values = attributes.values
        return AppleHealthWorkoutEvent(
            type: values[0],
            date: values[1],
            duration: values[2],
            durationUnit: values[3],
            otherAttributes: attributes.others
        )
    }

    func readStatistics() -> AppleHealthWorkoutStatistics {
        let attributes = read(
            ["type", "startDate", "endDate", "average", "minimum", "maximum", "sum", "unit"],
            element: "WorkoutStatistics"
        )
        let values = attributes.values
        return AppleHealthWorkoutStatistics(
            type: values[0],
            startDate: values[1],
            endDate: values[2],
            average: values[3],
            minimum: values[4],
            maximum: values[5],
            sum: values[6],
            unit: values[7],
            otherAttributes: attributes.others
        )
    }

    func readActivity() -> AppleHealthWorkoutActivity {
        let attributes = read(["uuid", "startDate", "endDate", "duration", "durationUnit"], element: "WorkoutActivity")
        let values = attributes.values
        return AppleHealthWorkoutActivity(
            uuid: values[0],
            startDate: values[1],
            endDate: values[2],
            duration: values[3],
            durationUnit: values[4],
            otherAttributes: attributes.others
        )
    }

    func readRoute() -> AppleHealthWorkoutRoute {
        let attributes = read(
            ["sourceName", "sourceVersion", "device", "creationDate", "startDate", "endDate"],
            element: "WorkoutRoute"
        )
        let values = attributes.values
        return AppleHealthWorkoutRoute(
            sourceName: values[0],
            sourceVersion: values[1],
            device: values[2],
            creationDate: values[3],
            startDate: values[4],
            endDate: values[5],
            otherAttributes: attributes.others
        )
    }

    func readActivitySummary() -> AppleHealthActivitySummary {
        let attributes = read(
            [
                "dateComponents", "activeEnergyBurned", "activeEnergyBurnedGoal", "activeEnergyBurnedUnit",
                "appleMoveTime", "appleMoveTimeGoal", "appleExerciseTime", "appleExerciseTimeGoal", "appleStandHours",
                "appleStandHoursGoal",
            ],
            element: "ActivitySummary"
        )
        let values = attributes.values
        return AppleHealthActivitySummary(
            dateComponents: values[0],
            activeEnergyBurned: values[1],
            activeEnergyBurnedGoal: values[2],
            activeEnergyBurnedUnit: values[3],
            appleMoveTime: values[4],
            appleMoveTimeGoal: values[5],
            appleExerciseTime: values[6],
            appleExerciseTimeGoal: values[7],
            appleStandHours: values[8],
            appleStandHoursGoal: values[9],
            otherAttributes: attributes.others,
            byteOffset: scanner.offset(of: scanner.tokenStart)
        )
    }
}
