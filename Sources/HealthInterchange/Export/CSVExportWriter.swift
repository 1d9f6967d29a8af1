public import Foundation
public import HealthModel

/// Writes samples as spreadsheet-ready CSV (RFC 4180, UTF-8, a header row), one file per type
/// named by its short name (`stepCount.csv`, `sleepAnalysis.csv`, `bloodPressure.csv`,
/// `workout.csv`) in a folder the caller made owner-only. docs/EXPORT_CSV.md gives each file's
/// columns.
///
/// Times are the owner's local times (`2026-03-02 08:00:00`) with the UTC offset in a column of
/// its own; quantities in the owner's units (a percentage as a percent: 97, not 0.97); a
/// category value by its name. A correlation's members are rows of their own types' files too;
/// a blood pressure is also a row of `bloodPressure.csv` pairing them. Text a spreadsheet would
/// run as a formula (a source name beginning with `=`, `+`, `-` or `@`) is written with a `'`
/// in front.
public final class CSVExportWriter: ExportWriter {
    private let directory: ExportDirectory
    private let context: ExportContext
    private var open: [String: ExportFile] = [:]
    public private(set) var files: [String] = []
    /// Rows written, by file.
    public private(set) var counts: [String: Int] = [:]
    /// The UTC offset of each quarter hour the export has met (offsets change on a quarter
    /// hour of UTC, in every zone there is).
    private var offsets: [Int: Int] = [:]
    /// The unit each quantity type's values are written in.
    private var units: [QuantityTypeIdentifier: HealthUnit] = [:]
    private static let perMinute = try! HealthUnit(from: "count/min")

    public init(directory: ExportDirectory, context: ExportContext) throws {
        self.directory = directory
        self.context = context
    }

    public func write(_ exported: ExportedSample) throws {
        try write(exported.sample)
    }

    /// The characteristics, one row each in `characteristics.csv` (`type,value`: HealthKit's
    /// identifier and constant, a date of birth as `YYYY-MM-DD`).
    public func write(characteristics: [CharacteristicValue], settings: ExportedSettings) throws {
        guard !characteristics.isEmpty else { return }
        for characteristic in characteristics {
            let value: String =
                switch characteristic {
                case .activityMoveMode(let mode): mode.healthKitConstant
                case .biologicalSex(let sex): sex.healthKitConstant
                case .bloodType(let type): type.healthKitConstant
                case .dateOfBirth(let birth): String(format: "%04d-%02d-%02d", birth.year, birth.month, birth.day)
                case .fitzpatrickSkinType(let type): type.healthKitConstant
                case .wheelchairUse(let use): use.healthKitConstant
                }
            try row(named: "characteristics.csv", header: ["type", "value"], [characteristic.type.rawValue, value])
        }
    }

    /// Closes the files and writes HealthVault's manifest.
    public func finish(_ manifest: ExportManifest) throws {
        for file in open.values { try file.close() }
        open = [:]
        try directory.writeManifest(manifest)
    }

    // MARK: Rows

    private func write(_ sample: Sample) throws {
        let common = [source(sample), device(sample), sample.uuid.uuidString]
        switch sample {
        case .quantity(let quantity):
            let (value, unit) = try owners(quantity.quantity, of: quantity.quantityType)
            try row(
                sample.sampleType,
                header: ["start", "end", "value", "unit", "source", "device", "uuid", "utc_offset"],
                [local(sample.startDate), local(sample.endDate), number(value), unit] + common + [
                    offset(sample.startDate)
                ]
            )
        case .category(let category):
            let name = category.categoryType.valueSet.caseName(of: category.value) ?? String(category.value)
            try row(
                sample.sampleType,
                header: ["start", "end", "value", "source", "device", "uuid", "utc_offset"],
                [local(sample.startDate), local(sample.endDate), name] + common + [offset(sample.startDate)]
            )
        case .correlation(let correlation):
            for member in correlation.objects { try write(member) }
            if correlation.correlationType == .bloodPressure {
                let unit = try HealthUnit(from: "mmHg")
                let preferred = context.preferredUnits[.bloodPressureSystolic] ?? unit
                func value(_ type: QuantityTypeIdentifier) throws -> String {
                    guard case .quantity(let member) = correlation.objects(for: .quantity(type)).first else {
                        return ""
                    }
                    return number(try member.quantity.doubleValue(for: preferred))
                }
                try row(
                    sample.sampleType,
                    header: [
                        "start", "end", "systolic", "diastolic", "unit", "source", "device", "uuid", "utc_offset",
                    ],
                    [
                        local(sample.startDate), local(sample.endDate), try value(.bloodPressureSystolic),
                        try value(.bloodPressureDiastolic), preferred.unitString,
                    ] + common + [offset(sample.startDate)]
                )
            } else {
                try row(
                    sample.sampleType,
                    header: ["start", "end", "items", "source", "device", "uuid", "utc_offset"],
                    [local(sample.startDate), local(sample.endDate), String(correlation.objects.count)] + common
                        + [offset(sample.startDate)]
                )
            }
        case .workout(let workout):
            let energy = try workout.totalEnergyBurned.map { try owners($0, of: .activeEnergyBurned) }
            let distanceType = workout.workoutActivityType.distanceType ?? .distanceWalkingRunning
            let distance = try workout.totalDistance.map { try owners($0, of: distanceType) }
            try row(
                sample.sampleType,
                header: [
                    "start", "end", "activity", "duration_min", "energy", "energy_unit", "distance", "distance_unit",
                    "source", "device", "uuid", "utc_offset",
                ],
                [
                    local(sample.startDate), local(sample.endDate), "\(workout.workoutActivityType)",
                    number(workout.duration / 60), energy.map { number($0.value) } ?? "", energy?.unit ?? "",
                    distance.map { number($0.value) } ?? "", distance?.unit ?? "",
                ] + common + [offset(sample.startDate)]
            )
        case .gad7Assessment(let assessment):
            try row(
                sample.sampleType,
                header: ["date", "score", "risk", "source", "device", "uuid", "utc_offset"],
                [local(sample.startDate), String(assessment.score), "\(assessment.risk)"] + common
                    + [offset(sample.startDate)]
            )
        case .phq9Assessment(let assessment):
            try row(
                sample.sampleType,
                header: ["date", "score", "risk", "source", "device", "uuid", "utc_offset"],
                [local(sample.startDate), String(assessment.score), "\(assessment.risk)"] + common
                    + [offset(sample.startDate)]
            )
        case .stateOfMind(let mind):
            try row(
                sample.sampleType,
                header: [
                    "date", "kind", "valence", "labels", "associations", "source", "device", "uuid", "utc_offset",
                ],
                [
                    local(sample.startDate), "\(mind.kind)", number(mind.valence),
                    mind.labels.map { "\($0)" }.joined(separator: ";"),
                    mind.associations.map { "\($0)" }.joined(separator: ";"),
                ] + common + [offset(sample.startDate)]
            )
        case .electrocardiogram(let ecg):
            let rate = try ecg.averageHeartRate.map { try owners($0, of: .heartRate) }
            try row(
                sample.sampleType,
                header: [
                    "start", "end", "classification", "average_heart_rate", "unit", "voltage_measurements", "source",
                    "device", "uuid", "utc_offset",
                ],
                [
                    local(sample.startDate), local(sample.endDate), "\(ecg.classification)",
                    rate.map { number($0.value) } ?? "", rate?.unit ?? "", String(ecg.numberOfVoltageMeasurements),
                ] + common + [offset(sample.startDate)]
            )
        case .visionPrescription(let prescription):
            // Each eye's powers in diopters and its axis in degrees; the rest is in the JSON export.
            func powers(_ sphere: Quantity?, _ cylinder: Quantity?, _ axis: Quantity?) -> [String] {
                [
                    sphere.flatMap { try? $0.doubleValue(for: .diopter) }.map(number) ?? "",
                    cylinder.flatMap { try? $0.doubleValue(for: .diopter) }.map(number) ?? "",
                    axis.flatMap { try? $0.doubleValue(for: .degreeAngle) }.map(number) ?? "",
                ]
            }
            var eyes: [String] = []
            switch prescription.lenses {
            case .glasses(let right, let left):
                eyes =
                    powers(right?.sphere, right?.cylinder, right?.axis)
                    + powers(left?.sphere, left?.cylinder, left?.axis)
            case .contacts(let right, let left, _):
                eyes =
                    powers(right?.sphere, right?.cylinder, right?.axis)
                    + powers(left?.sphere, left?.cylinder, left?.axis)
            case nil:
                eyes = Array(repeating: "", count: 6)
            }
            try row(
                sample.sampleType,
                header: [
                    "date_issued", "expires", "prescription_type", "right_sphere_D", "right_cylinder_D",
                    "right_axis_deg", "left_sphere_D", "left_cylinder_D", "left_axis_deg", "brand", "source", "device",
                    "uuid", "utc_offset",
                ],
                [
                    local(prescription.dateIssued), prescription.expirationDate.map(local) ?? "",
                    "\(prescription.prescriptionType)",
                ] + eyes + [Self.defused(prescription.brand ?? "")] + common + [offset(sample.startDate)]
            )
        case .cdaDocument(let document):
            try row(
                sample.sampleType,
                header: [
                    "start", "end", "title", "patient", "author", "custodian", "bytes", "source", "device", "uuid",
                    "utc_offset",
                ],
                [
                    local(sample.startDate), local(sample.endDate), Self.defused(document.document?.title ?? ""),
                    Self.defused(document.document?.patientName ?? ""),
                    Self.defused(document.document?.authorName ?? ""),
                    Self.defused(document.document?.custodianName ?? ""),
                    document.document?.documentData.map { String($0.count) } ?? "",
                ] + common + [offset(sample.startDate)]
            )
        case .workoutRoute, .heartbeatSeries, .audiogram:
            let points: Int =
                switch sample {
                case .workoutRoute(let route): route.count
                case .heartbeatSeries(let series): series.count
                case .audiogram(let audiogram): audiogram.sensitivityPoints.count
                default: 0
                }
            try row(
                sample.sampleType,
                header: ["start", "end", "points", "source", "device", "uuid", "utc_offset"],
                [local(sample.startDate), local(sample.endDate), String(points)] + common + [offset(sample.startDate)]
            )
        }
    }

    private func row(_ type: SampleType, header: [String], _ fields: [String]) throws {
        try row(named: TypeNames.shortName(of: type) + ".csv", header: header, fields)
    }

    private func row(named name: String, header: [String], _ fields: [String]) throws {
        let file: ExportFile
        if let existing = open[name] {
            file = existing
        } else {
            file = try directory.create(name)
            try file.write(Array((header.joined(separator: ",") + "\n").utf8))
            open[name] = file
            files.append(name)
        }
        try file.write(Array((fields.map(Self.escaped).joined(separator: ",") + "\n").utf8))
        counts[name, default: 0] += 1
    }

    // MARK: Values

    /// A quantity in the owner's unit for its type (a percentage as a percent). Without one, the
    /// type's canonical unit, but rates per second (heart rate's `count/s`) per minute, as people
    /// read them.
    private func owners(_ quantity: Quantity, of type: QuantityTypeIdentifier) throws -> (value: Double, unit: String) {
        let unit: HealthUnit
        if let known = units[type] {
            unit = known
        } else {
            let perMinute = type.canonicalUnit.unitString == "count/s" ? Self.perMinute : nil
            unit = context.preferredUnits[type] ?? perMinute ?? type.canonicalUnit
            units[type] = unit
        }
        let value = try quantity.doubleValue(for: quantity.isCompatible(with: unit) ? unit : quantity.unit)
        let used = quantity.isCompatible(with: unit) ? unit : quantity.unit
        return used.unitString == "%" ? (value * 100, "%") : (value, used.unitString)
    }

    /// The owner's local time, `YYYY-MM-DD HH:MM:SS` (whole seconds).
    private func local(_ date: Date) -> String {
        let text = RFC3339.string(from: date.addingTimeInterval(Double(offsetSeconds(date))))
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8))
    }

    private func offsetSeconds(_ date: Date) -> Int {
        let quarter = Int((date.timeIntervalSinceReferenceDate / 900).rounded(.down))
        if let known = offsets[quarter] { return known }
        let seconds = context.timeZone.secondsFromGMT(for: date)
        if offsets.count > 100_000 { offsets = [:] }
        offsets[quarter] = seconds
        return seconds
    }

    private func offset(_ date: Date) -> String {
        let seconds = offsetSeconds(date)
        let sign = seconds < 0 ? "-" : "+"
        return String(format: "%@%02d:%02d", sign, abs(seconds) / 3600, abs(seconds) % 3600 / 60)
    }

    /// At most 15 significant digits (docs/EXPORT_CSV.md): `154`, not `153.99999999999997`.
    private func number(_ value: Double) -> String { DecimalText.text(value) }

    private func source(_ sample: Sample) -> String { Self.defused(sample.sourceRevision.source.name) }

    private func device(_ sample: Sample) -> String {
        Self.defused([sample.device?.name, sample.device?.model].compactMap { $0 }.joined(separator: " "))
    }

    /// Text a spreadsheet would take for a formula, made plain text.
    static func defused(_ text: String) -> String {
        guard let first = text.first, "=+-@".contains(first) else { return text }
        return "'" + text
    }

    /// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    static func escaped(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
