public import Foundation

/// A generated Apple Health export folder for import tests: `days` days of heart rate every two
/// minutes (720 a day, from "Watch"), a blood pressure each morning (from "Cuff"; its members at
/// top level first, as Apple writes them, then the correlation), and an evening run (from
/// "Watch") with its route of 60 locations in `workout-routes/route_<day>.gpx`.
public enum ExportFolderFixture {
    public static func write(days: Int) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hv-interrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("workout-routes"),
            withIntermediateDirectories: true
        )
        let base = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        func stamp(_ date: Date) -> String { formatter.string(from: date) + " +0000" }
        let iso = ISO8601DateFormatter()
        var records = ""
        var correlations = ""
        var workouts = ""
        for day in 0..<days {
            let midnight = base.addingTimeInterval(Double(day) * 86_400)
            for minute in stride(from: 0, to: 1_440, by: 2) {
                let at = stamp(midnight.addingTimeInterval(Double(minute) * 60))
                records +=
                    "<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"\(at)\" endDate=\"\(at)\" value=\"\(60 + minute % 40)\"/>\n"
            }
            let morning = stamp(midnight.addingTimeInterval(7 * 3_600))
            let members =
                "<Record type=\"HKQuantityTypeIdentifierBloodPressureSystolic\" sourceName=\"Cuff\" unit=\"mmHg\" startDate=\"\(morning)\" endDate=\"\(morning)\" value=\"\(110 + day % 30)\"/>\n"
                + "<Record type=\"HKQuantityTypeIdentifierBloodPressureDiastolic\" sourceName=\"Cuff\" unit=\"mmHg\" startDate=\"\(morning)\" endDate=\"\(morning)\" value=\"\(70 + day % 20)\"/>\n"
            records += members
            correlations +=
                "<Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Cuff\" startDate=\"\(morning)\" endDate=\"\(morning)\">\n\(members)</Correlation>\n"
            let start = midnight.addingTimeInterval(18 * 3_600)
            let file = "route_\(day).gpx"
            workouts +=
                "<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"10\" durationUnit=\"min\" sourceName=\"Watch\" startDate=\"\(stamp(start))\" endDate=\"\(stamp(start.addingTimeInterval(600)))\">\n<WorkoutRoute sourceName=\"Watch\"><FileReference path=\"/workout-routes/\(file)\"/></WorkoutRoute>\n</Workout>\n"
            var gpx = "<gpx><trk><trkseg>\n"
            for second in stride(from: 0, to: 600, by: 10) {
                let time = iso.string(from: start.addingTimeInterval(Double(second)))
                gpx +=
                    "<trkpt lat=\"48.85\(second)\" lon=\"2.35\"><time>\(time)</time><extensions><hAcc>5</hAcc></extensions></trkpt>\n"
            }
            try Data((gpx + "</trkseg></trk></gpx>\n").utf8).write(
                to: root.appendingPathComponent("workout-routes/\(file)")
            )
        }
        let xml =
            "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n" + records + correlations + workouts
            + "</HealthData>\n"
        try Data(xml.utf8).write(to: root.appendingPathComponent("export.xml"))
        return root
    }

}
