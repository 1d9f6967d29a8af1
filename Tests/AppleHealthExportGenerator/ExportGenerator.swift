public import Foundation

/// Writes realistic Apple Health exports of any length, deterministically from a seed: about
/// 1,500 records a day, as an iPhone with an Apple Watch makes them.
///
/// A day holds minute-level heart rate (every minute from 07:00 to 23:00, every five at night),
/// steps and distance from both the iPhone and the Watch over the same ten minutes (the overlap
/// statistics must not double-count), active and basal energy, stand hours, exercise minutes,
/// environmental audio levels, a night's sleep stages, blood oxygen at night, heart rate
/// variability with its instantaneous readings, resting and walking heart rate, an activity
/// summary; every third day a blood pressure (a correlation, its two members also written at the
/// top level, as Apple does); every seventh a body mass in pounds; every second day a run with a
/// pause, statistics, metadata and a route (its GPX path in ``Summary/routes``, for a fixture
/// folder of routes). Records come grouped by type, then correlations, workouts and activity
/// summaries, as in Apple's files. Dates are written in `timeZone` with the offset of each instant,
/// so a run across a daylight-saving change has both offsets.
///
/// Reusable: ``write(to:)`` streams to a file (a 2 GB export needs no memory), ``bytes()`` builds
/// one in memory, ``write(into:)`` hands out the text piece by piece. Shared by the reader's tests
/// and the import benchmark (Benchmarks/), which writes a 1,000,000-record export with it.
public struct ExportGenerator: Sendable {
    /// The first day, `YYYY-MM-DD`.
    public var firstDay: String
    public var days: Int
    public var timeZone: TimeZone
    public var seed: UInt64

    public init(
        firstDay: String = "2022-11-01",
        days: Int = 7,
        timeZone: TimeZone = TimeZone(identifier: "America/Los_Angeles")!,
        seed: UInt64 = 1
    ) {
        self.firstDay = firstDay
        self.days = days
        self.timeZone = timeZone
        self.seed = seed
    }

    /// What was written, to compare with what a reader reads.
    public struct Summary: Equatable, Sendable {
        /// Top-level records by type (members of correlations are also written at the top level and
        /// counted here).
        public var records: [String: Int] = [:]
        public var correlations: [String: Int] = [:]
        /// Records written inside correlations.
        public var correlationMembers = 0
        public var workouts: [String: Int] = [:]
        public var activitySummaries = 0
        /// Every workout route: its GPX path in the export and its span.
        public var routes: [Route] = []
        /// Top-level elements: ExportDate, Me, records, correlations, workouts, summaries.
        public var topLevelElements = 0
        public var bytes = 0

        public var recordCount: Int { records.values.reduce(0, +) }
    }

    public struct Route: Equatable, Sendable {
        public let path: String
        public let start: Date
        public let end: Date
    }

    /// The days that make about `records` top-level records (about 1,550 a day).
    public static func days(forRecords records: Int) -> Int {
        max(1, (records + 1549) / 1550)
    }

    public static let watchDevice =
        "<<HKDevice: 0x283e8c0f0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:9.1>"
    public static let phoneDevice =
        "<<HKDevice: 0x2811a2b70>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:16.1>"
    public static let watchName = "Jane\u{2019}s Apple Watch"
    public static let phoneName = "Jane\u{2019}s iPhone"

    /// Writes the export to a file, a chunk at a time.
    public func write(to url: URL) throws -> Summary {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var failure: (any Error)?
        let summary = write { text in
            guard failure == nil else { return }
            do {
                try handle.write(contentsOf: Data(text.utf8))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return summary
    }

    /// Writes each route's GPX file where the export names it, under `folder` (the XML's folder),
    /// as Apple writes them: a track point a second, with elevation, time, speed, course and
    /// accuracies. Returns the points written.
    @discardableResult
    public func writeRoutes(_ routes: [Route], into folder: URL) throws -> Int {
        let iso = ISO8601DateFormatter()
        var points = 0
        for (index, route) in routes.enumerated() {
            let file = folder.appendingPathComponent(String(route.path.dropFirst()))
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            var text =
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"Apple Health Export\" "
                + "xmlns=\"http://www.topografix.com/GPX/1/1\">\n <metadata>\n  <time>\(iso.string(from: route.start))</time>\n"
                + " </metadata>\n <trk>\n  <name>Route</name>\n  <trkseg>\n"
            let seconds = Int(route.end.timeIntervalSince(route.start))
            let latitude = 37.33 + Double(index % 50) * 0.001
            for second in 0..<seconds {
                let angle = Double(second) / Double(max(seconds, 1)) * 2 * .pi
                let time = iso.string(from: route.start.addingTimeInterval(Double(second)))
                text +=
                    "   <trkpt lon=\"\(-122.03 + 0.01 * cos(angle))\" lat=\"\(latitude + 0.01 * sin(angle))\">"
                    + "<ele>\(10 + second % 7)</ele><time>\(time)</time><extensions><speed>2.8\(second % 10)</speed>"
                    + "<course>\(Double(second % 360))</course><hAcc>4.\(second % 9)</hAcc><vAcc>3.\(second % 7)</vAcc>"
                    + "</extensions></trkpt>\n"
            }
            text += "  </trkseg>\n </trk>\n</gpx>\n"
            try Data(text.utf8).write(to: file)
            points += seconds
        }
        return points
    }

    /// The whole export in memory.
    public func bytes() -> ([UInt8], Summary) {
        var bytes: [UInt8] = []
        let summary = write { bytes += Array($0.utf8) }
        return (bytes, summary)
    }

    /// Hands the export's text out in pieces of about 256 KiB.
    public func write(into sink: @escaping (String) -> Void) -> Summary {
        var writer = Writer(sink: sink)
        var summary = Summary()
        writer.append(Self.header)
        writer.append(" <ExportDate value=\"\(format(dayStart(days) + 8 * 3600))\"/>\n")
        writer.append(
            " <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1984-02-29\" "
                + "HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" "
                + "HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeNotSet\" "
                + "HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" "
                + "HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n"
        )
        summary.topLevelElements += 2
        for kind in RecordKind.allCases {
            for day in 0..<days {
                var random = Random(seed: seed, kind.rawValue, UInt64(day))
                for record in records(of: kind, day: day, random: &random) {
                    writer.append(record.xml(indent: " "))
                    summary.records[record.type, default: 0] += 1
                    summary.topLevelElements += 1
                }
            }
        }
        for day in 0..<days where day % 3 == 0 {
            let (systolic, diastolic) = bloodPressure(day: day)
            let start = dayStart(day) + 8 * 3600 + 15 * 60
            writer.append(
                " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"\(Self.phoneName)\" "
                    + "sourceVersion=\"16.1\" creationDate=\"\(format(start + 5))\" startDate=\"\(format(start))\" "
                    + "endDate=\"\(format(start))\">\n"
            )
            writer.append("  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n")
            writer.append(systolic.xml(indent: "  "))
            writer.append(diastolic.xml(indent: "  "))
            writer.append(" </Correlation>\n")
            summary.correlations["HKCorrelationTypeIdentifierBloodPressure", default: 0] += 1
            summary.correlationMembers += 2
            summary.topLevelElements += 1
        }
        for day in 0..<days where day % 2 == 1 {
            var random = Random(seed: seed, 1000, UInt64(day))
            summary.routes.append(writeRun(day: day, random: &random, into: &writer))
            summary.workouts["HKWorkoutActivityTypeRunning", default: 0] += 1
            summary.topLevelElements += 1
        }
        for day in 0..<days {
            var random = Random(seed: seed, 2000, UInt64(day))
            let energy = 300 + random.next(below: 400)
            writer.append(
                " <ActivitySummary dateComponents=\"\(dayName(day))\" activeEnergyBurned=\"\(energy).5\" "
                    + "activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"Cal\" appleMoveTime=\"0\" "
                    + "appleMoveTimeGoal=\"0\" appleExerciseTime=\"\(10 + random.next(below: 50))\" "
                    + "appleExerciseTimeGoal=\"30\" appleStandHours=\"\(6 + random.next(below: 8))\" "
                    + "appleStandHoursGoal=\"12\"/>\n"
            )
            summary.activitySummaries += 1
            summary.topLevelElements += 1
        }
        writer.append("</HealthData>\n")
        writer.flush()
        summary.bytes = writer.written
        return summary
    }

    // MARK: - Records

    enum RecordKind: UInt64, CaseIterable {
        case heartRate = 1
        case stepsPhone, stepsWatch, distancePhone, distanceWatch
        case activeEnergy, basalEnergy, exerciseTime, standHour, audioExposure
        case sleep, oxygenSaturation, heartRateVariability, restingHeartRate, walkingHeartRate
        case bloodPressure, bodyMass
    }

    struct Record {
        var type: String
        var sourceName: String
        var sourceVersion: String
        var device: String?
        var unit: String?
        var creation: String
        var start: String
        var end: String
        var value: String
        var metadata: [(String, String)] = []
        var readings: [(String, String)] = []

        func xml(indent: String) -> String {
            var text =
                indent + "<Record type=\"\(type)\" sourceName=\"\(sourceName)\" sourceVersion=\"\(sourceVersion)\""
            if let device {
                text += " device=\"\(escape(device))\""
            }
            if let unit {
                text += " unit=\"\(unit)\""
            }
            text += " creationDate=\"\(creation)\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\""
            if metadata.isEmpty, readings.isEmpty {
                return text + "/>\n"
            }
            text += ">\n"
            for (key, value) in metadata {
                text += indent + " <MetadataEntry key=\"\(key)\" value=\"\(value)\"/>\n"
            }
            if !readings.isEmpty {
                text += indent + " <HeartRateVariabilityMetadataList>\n"
                for (bpm, time) in readings {
                    text += indent + "  <InstantaneousBeatsPerMinute bpm=\"\(bpm)\" time=\"\(time)\"/>\n"
                }
                text += indent + " </HeartRateVariabilityMetadataList>\n"
            }
            return text + indent + "</Record>\n"
        }
    }

    private func record(
        _ type: String,
        watch: Bool,
        unit: String?,
        start: Double,
        end: Double,
        value: String
    ) -> Record {
        Record(
            type: "HKQuantityTypeIdentifier" + type,
            sourceName: watch ? Self.watchName : Self.phoneName,
            sourceVersion: watch ? "9.1" : "16.1",
            device: watch ? Self.watchDevice : Self.phoneDevice,
            unit: unit,
            creation: format(end + 60),
            start: format(start),
            end: format(end),
            value: value
        )
    }

    private func records(of kind: RecordKind, day: Int, random: inout Random) -> [Record] {
        let midnight = dayStart(day)
        var result: [Record] = []
        func every(_ step: Double, from first: Double, to last: Double, _ make: (Double) -> Record?) {
            var time = first
            while time < last {
                if let record = make(midnight + time) { result.append(record) }
                time += step
            }
        }
        switch kind {
        case .heartRate:
            every(60, from: 7 * 3600, to: 23 * 3600) { time in
                var heart = record(
                    "HeartRate",
                    watch: true,
                    unit: "count/min",
                    start: time,
                    end: time,
                    value: "\(58 + random.next(below: 60))"
                )
                if random.next(below: 10) == 0 {
                    heart.metadata = [("HKMetadataKeyHeartRateMotionContext", "\(random.next(below: 3))")]
                }
                return heart
            }
            every(300, from: 0, to: 7 * 3600) { time in
                record(
                    "HeartRate",
                    watch: true,
                    unit: "count/min",
                    start: time,
                    end: time,
                    value: "\(52 + random.next(below: 10))"
                )
            }
            every(300, from: 23 * 3600, to: 24 * 3600) { time in
                record(
                    "HeartRate",
                    watch: true,
                    unit: "count/min",
                    start: time,
                    end: time,
                    value: "\(54 + random.next(below: 10))"
                )
            }
        case .stepsPhone, .stepsWatch:
            let watch = kind == .stepsWatch
            every(600, from: 7 * 3600, to: 23 * 3600) { time in
                record(
                    "StepCount",
                    watch: watch,
                    unit: "count",
                    start: time,
                    end: time + 600,
                    value: "\(random.next(below: 900))"
                )
            }
        case .distancePhone, .distanceWatch:
            let watch = kind == .distanceWatch
            every(1200, from: 7 * 3600, to: 23 * 3600) { time in
                record(
                    "DistanceWalkingRunning",
                    watch: watch,
                    unit: watch ? "mi" : "km",
                    start: time,
                    end: time + 1200,
                    value: "0.\(random.next(below: 900) + 10)"
                )
            }
        case .activeEnergy:
            every(900, from: 7 * 3600, to: 23 * 3600) { time in
                record(
                    "ActiveEnergyBurned",
                    watch: true,
                    unit: "Cal",
                    start: time,
                    end: time + 900,
                    value: "\(random.next(below: 40)).\(random.next(below: 1000))"
                )
            }
        case .basalEnergy:
            every(1800, from: 0, to: 24 * 3600) { time in
                record(
                    "BasalEnergyBurned",
                    watch: true,
                    unit: "kcal",
                    start: time,
                    end: time + 1800,
                    value: "3\(random.next(below: 9)).2"
                )
            }
        case .exerciseTime:
            every(1800, from: 7 * 3600, to: 22 * 3600) { time in
                record("AppleExerciseTime", watch: true, unit: "min", start: time, end: time + 60, value: "1")
            }
        case .standHour:
            every(3600, from: 7 * 3600, to: 23 * 3600) { time in
                var stand = record("AppleStandHour", watch: true, unit: nil, start: time, end: time + 3600, value: "")
                stand.type = "HKCategoryTypeIdentifierAppleStandHour"
                stand.value =
                    random.next(below: 4) == 0
                    ? "HKCategoryValueAppleStandHourIdle" : "HKCategoryValueAppleStandHourStood"
                return stand
            }
        case .audioExposure:
            every(2400, from: 7 * 3600, to: 23 * 3600) { time in
                record(
                    "EnvironmentalAudioExposure",
                    watch: true,
                    unit: "dBASPL",
                    start: time,
                    end: time + 1800,
                    value: "\(55 + random.next(below: 30)).\(random.next(below: 10))"
                )
            }
        case .sleep:
            var start = -3600.0 + Double(random.next(below: 1800))
            let inBed = start
            for stage in [
                "AsleepCore", "AsleepDeep", "AsleepCore", "AsleepREM", "Awake", "AsleepCore", "AsleepREM", "AsleepCore",
            ] {
                let length = Double(1800 + random.next(below: 2400))
                var sleep = record(
                    "SleepAnalysis",
                    watch: true,
                    unit: nil,
                    start: midnight + start,
                    end: midnight + start + length,
                    value: ""
                )
                sleep.type = "HKCategoryTypeIdentifierSleepAnalysis"
                sleep.value = "HKCategoryValueSleepAnalysis" + stage
                result.append(sleep)
                start += length
            }
            var bed = record(
                "SleepAnalysis",
                watch: false,
                unit: nil,
                start: midnight + inBed,
                end: midnight + start,
                value: ""
            )
            bed.type = "HKCategoryTypeIdentifierSleepAnalysis"
            bed.value = "HKCategoryValueSleepAnalysisInBed"
            result.append(bed)
        case .oxygenSaturation:
            every(2400, from: 0, to: 6 * 3600) { time in
                record(
                    "OxygenSaturation",
                    watch: true,
                    unit: "%",
                    start: time,
                    end: time,
                    value: "0.9\(random.next(below: 10))"
                )
            }
        case .heartRateVariability:
            every(14_400, from: 2 * 3600, to: 22 * 3600) { time in
                var hrv = record(
                    "HeartRateVariabilitySDNN",
                    watch: true,
                    unit: "ms",
                    start: time,
                    end: time + 60,
                    value: "\(20 + random.next(below: 60)).\(random.next(below: 1000))"
                )
                for second in stride(from: 1, to: 60, by: 1) {
                    hrv.readings.append(("\(60 + random.next(below: 20))", clockTime(time + Double(second) + 0.25)))
                }
                return hrv
            }
        case .restingHeartRate:
            result.append(
                record(
                    "RestingHeartRate",
                    watch: true,
                    unit: "count/min",
                    start: midnight + 3600,
                    end: midnight + 86_000,
                    value: "\(50 + random.next(below: 10))"
                )
            )
        case .walkingHeartRate:
            result.append(
                record(
                    "WalkingHeartRateAverage",
                    watch: true,
                    unit: "count/min",
                    start: midnight + 3600,
                    end: midnight + 86_000,
                    value: "\(90 + random.next(below: 20))"
                )
            )
        case .bloodPressure:
            if day % 3 == 0 {
                let (systolic, diastolic) = bloodPressure(day: day)
                result += [systolic, diastolic]
            }
        case .bodyMass:
            if day % 7 == 0 {
                var mass = record(
                    "BodyMass",
                    watch: false,
                    unit: "lb",
                    start: midnight + 7 * 3600,
                    end: midnight + 7 * 3600,
                    value: "\(130 + random.next(below: 20)).4"
                )
                mass.device = nil
                mass.sourceName = "Health"
                mass.metadata = [("HKWasUserEntered", "1")]
                result.append(mass)
            }
        }
        return result
    }

    /// The two members of a day's blood pressure, written alike inside the correlation and at the
    /// top level.
    private func bloodPressure(day: Int) -> (Record, Record) {
        var random = Random(seed: seed, 3000, UInt64(day))
        let time = dayStart(day) + 8 * 3600 + 15 * 60
        var systolic = record(
            "BloodPressureSystolic",
            watch: false,
            unit: "mmHg",
            start: time,
            end: time,
            value: "\(110 + random.next(below: 30))"
        )
        var diastolic = record(
            "BloodPressureDiastolic",
            watch: false,
            unit: "mmHg",
            start: time,
            end: time,
            value: "\(70 + random.next(below: 20))"
        )
        for index in [0, 1] {
            var member = index == 0 ? systolic : diastolic
            member.device = nil
            member.creation = format(time + 5)
            if index == 0 { systolic = member } else { diastolic = member }
        }
        return (systolic, diastolic)
    }

    private func writeRun(day: Int, random: inout Random, into writer: inout Writer) -> Route {
        let start = dayStart(day) + 18 * 3600 + Double(random.next(below: 1800))
        let pause = start + 900
        let resume = pause + 120
        let end = start + 2400 + Double(random.next(below: 600))
        let minutes = (end - start - 120) / 60
        let miles = Double(3 + random.next(below: 3)) + Double(random.next(below: 100)) / 100
        let energy = 250 + random.next(below: 150)
        let hour = Int((start - dayStart(day)) / 3600)
        let minute = Int((start - dayStart(day)) / 60) % 60
        let path =
            "/workout-routes/route_\(dayName(day))_\(hour > 12 ? hour - 12 : hour).\(pad(minute))\(hour >= 12 ? "pm" : "am").gpx"
        writer.append(
            " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"\(minutes)\" durationUnit=\"min\" "
                + "sourceName=\"\(Self.watchName)\" sourceVersion=\"9.1\" device=\"\(escape(Self.watchDevice))\" "
                + "creationDate=\"\(format(end + 30))\" startDate=\"\(format(start))\" endDate=\"\(format(end))\">\n"
        )
        for (key, value) in [
            ("HKIndoorWorkout", "0"), ("HKElevationAscended", "\(1000 + random.next(below: 5000)) cm"),
            ("HKWeatherTemperature", "\(50 + random.next(below: 30)) degF"),
            ("HKWeatherHumidity", "\(40 + random.next(below: 50)) %"),
            ("HKTimeZone", timeZone.identifier), ("HKAverageMETs", "9.\(random.next(below: 99)) kcal/hr·kg"),
        ] {
            writer.append("  <MetadataEntry key=\"\(key)\" value=\"\(value)\"/>\n")
        }
        writer.append("  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"\(format(pause))\"/>\n")
        writer.append("  <WorkoutEvent type=\"HKWorkoutEventTypeResume\" date=\"\(format(resume))\"/>\n")
        writer.append(
            "  <WorkoutEvent type=\"HKWorkoutEventTypeSegment\" date=\"\(format(start))\" duration=\"15\" durationUnit=\"min\"/>\n"
        )
        let span = "startDate=\"\(format(start))\" endDate=\"\(format(end))\""
        writer.append(
            "  <WorkoutStatistics type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" \(span) sum=\"\(miles)\" unit=\"mi\"/>\n"
        )
        writer.append(
            "  <WorkoutStatistics type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" \(span) sum=\"\(energy)\" unit=\"Cal\"/>\n"
        )
        writer.append(
            "  <WorkoutStatistics type=\"HKQuantityTypeIdentifierHeartRate\" \(span) average=\"\(140 + random.next(below: 20))\" "
                + "minimum=\"101\" maximum=\"176\" unit=\"count/min\"/>\n"
        )
        writer.append(
            "  <WorkoutRoute sourceName=\"\(Self.watchName)\" sourceVersion=\"9.1\" "
                + "creationDate=\"\(format(end + 60))\" \(span)>\n"
        )
        writer.append("   <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"2\"/>\n")
        writer.append("   <FileReference path=\"\(path)\"/>\n")
        writer.append("  </WorkoutRoute>\n")
        writer.append(" </Workout>\n")
        return Route(path: path, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end))
    }

    // MARK: - Dates and text

    /// The instant (seconds since 1970) of a day's local midnight.
    private func dayStart(_ day: Int) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = firstDay.split(separator: "-").compactMap { Int($0) }
        let first = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
        return calendar.date(byAdding: .day, value: day, to: first)!.timeIntervalSince1970
    }

    private func dayName(_ day: Int) -> String {
        String(format(dayStart(day) + 12 * 3600).prefix(10))
    }

    /// `2022-11-01 07:00:00 -0700`, in `timeZone` at that instant.
    public func format(_ instant: Double) -> String {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
        let local = Int(instant.rounded(.down)) + offset
        let days = Int((Double(local) / 86_400).rounded(.down))
        let seconds = local - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return
            "\(year)-\(pad(month))-\(pad(day)) \(pad(seconds / 3600)):\(pad(seconds / 60 % 60)):\(pad(seconds % 60)) "
            + "\(sign)\(pad(magnitude / 3600))\(pad(magnitude / 60 % 60))"
    }

    /// A heart-rate-variability reading's local clock time, `7:35:22.25 PM`.
    private func clockTime(_ instant: Double) -> String {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
        let local = instant + Double(offset)
        let seconds = local - (local / 86_400).rounded(.down) * 86_400
        let whole = Int(seconds)
        let hour = whole / 3600
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        let hundredths = Int(((seconds - Double(whole)) * 100).rounded())
        return "\(hour12):\(pad(whole / 60 % 60)):\(pad(whole % 60)).\(pad(hundredths)) \(hour < 12 ? "AM" : "PM")"
    }

    private func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Year, month, day of a day count since 1970 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 13 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        ]>
        <HealthData locale="en_US">

        """

    /// Text collected and handed to the sink in large pieces.
    struct Writer {
        let sink: (String) -> Void
        var buffer = ""
        var written = 0

        mutating func append(_ text: String) {
            buffer += text
            if buffer.utf8.count >= 256 * 1024 {
                flush()
            }
        }

        mutating func flush() {
            guard !buffer.isEmpty else { return }
            written += buffer.utf8.count
            sink(buffer)
            buffer = ""
        }
    }

    /// SplitMix64, seeded from the generator's seed and a stream's numbers.
    struct Random {
        var state: UInt64

        init(seed: UInt64, _ stream: UInt64, _ index: UInt64) {
            state = seed &* 0x9E37_79B9_7F4A_7C15 ^ stream &* 0xBF58_476D_1CE4_E5B9 ^ index &* 0x94D0_49BB_1331_11EB
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func next(below bound: Int) -> Int {
            Int(next() % UInt64(bound))
        }
    }
}

/// Text escaped for an attribute value, as Apple writes it.
func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.append(character)
        }
    }
    return out
}
