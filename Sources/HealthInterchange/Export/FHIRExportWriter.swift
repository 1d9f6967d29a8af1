public import Foundation
public import HealthModel

/// Writes samples as FHIR R4 resources, one newline-delimited JSON file per resource type as in
/// FHIR Bulk Data (`Observation.ndjson`, `Patient.ndjson`), in a folder the caller made
/// owner-only. docs/FHIR_EXPORT.md says what each sample becomes.
///
/// Every sample is one Observation (`id` its UUID, `identifier` `urn:uuid:<UUID>`, status
/// `final`, subject the Patient, the source as a `meta.tag`, the device as the reference's
/// display): a quantity with a LOINC code writes its value in the code's UCUM unit, any other
/// quantity in its own unit; a blood pressure is one panel with systolic and diastolic
/// components, any other correlation a component per member; a category sample's value is its
/// case name; a workout's activity type with its duration, energy and distance as components;
/// the other kinds their headline value (score, classification, valence, count of points).
/// The point data of series (route locations, beats, voltages) is in the JSON export only.
public final class FHIRExportWriter: ExportWriter {
    public static let patientID = "owner"
    public static let observationsFile = "Observation.ndjson"
    public static let patientFile = "Patient.ndjson"
    private let directory: ExportDirectory
    private let observations: ExportFile
    private var characteristics: [CharacteristicValue] = []
    public private(set) var files: [String] = [FHIRExportWriter.observationsFile, FHIRExportWriter.patientFile]
    /// Resources written, by file.
    public private(set) var counts: [String: Int] = [:]

    public init(directory: ExportDirectory) throws {
        self.directory = directory
        observations = try directory.create(Self.observationsFile)
    }

    /// One Observation per sample.
    public func write(_ exported: ExportedSample) throws {
        try line(try Self.observation(exported.sample))
    }

    /// The characteristics: the Patient's gender and birth date, the others as Observations.
    public func write(characteristics: [CharacteristicValue], settings: ExportedSettings) throws {
        self.characteristics = characteristics
        for characteristic in characteristics {
            if let bytes = Self.characteristicObservation(characteristic) { try line(bytes) }
        }
    }

    /// Writes the Patient (always: every Observation's subject) and HealthVault's manifest, and
    /// closes the files.
    public func finish(_ manifest: ExportManifest) throws {
        try observations.close()
        let patient = try directory.create(Self.patientFile)
        try patient.write(Self.patient(characteristics) + [0x0A])
        try patient.close()
        counts[Self.patientFile] = 1
        try directory.writeManifest(manifest)
    }

    private func line(_ bytes: [UInt8]) throws {
        try observations.write(bytes + [0x0A])
        counts[Self.observationsFile, default: 0] += 1
    }

    // MARK: Resources

    static func patient(_ characteristics: [CharacteristicValue]) -> [UInt8] {
        var json = JSONText()
        json.element { json in
            json.field("resourceType", "Patient")
            json.field("id", patientID)
            for characteristic in characteristics {
                switch characteristic {
                case .biologicalSex(let sex):
                    let gender =
                        switch sex {
                        case .female: "female"
                        case .male: "male"
                        case .other: "other"
                        case .notSet: "unknown"
                        }
                    json.field("gender", gender)
                case .dateOfBirth(let birth):
                    json.field("birthDate", String(format: "%04d-%02d-%02d", birth.year, birth.month, birth.day))
                default: break
                }
            }
        }
        return json.bytes
    }

    /// Blood type (LOINC), skin type, wheelchair use and move mode (HealthVault's codes).
    static func characteristicObservation(_ value: CharacteristicValue) -> [UInt8]? {
        let (constant, loinc): (String, (loinc: String, display: String)?) =
            switch value {
            case .bloodType(let type): (type.healthKitConstant, FHIRMapping.bloodType)
            case .fitzpatrickSkinType(let type): (type.healthKitConstant, nil)
            case .wheelchairUse(let use): (use.healthKitConstant, nil)
            case .activityMoveMode(let mode): (mode.healthKitConstant, nil)
            case .biologicalSex, .dateOfBirth: ("", nil)
            }
        guard !constant.isEmpty else { return nil }
        var json = JSONText()
        json.element { json in
            json.field("resourceType", "Observation")
            json.field(
                "id",
                "characteristic-"
                    + value.type.rawValue.replacingOccurrences(of: "HKCharacteristicTypeIdentifier", with: "")
                    .lowercased()
            )
            json.field("status", "final")
            codeField(&json, loinc: loinc, type: value.type.rawValue)
            subject(&json)
            json.object("valueCodeableConcept") { json in
                json.array("coding") { json in
                    json.element { json in
                        json.field("system", FHIRMapping.characteristicSystem)
                        json.field("code", constant)
                    }
                }
                json.field("text", constant)
            }
        }
        return json.bytes
    }

    static func observation(_ sample: Sample) throws -> [UInt8] {
        var json = JSONText()
        try json.element { json in
            json.field("resourceType", "Observation")
            let uuid = sample.uuid.uuidString.lowercased()
            json.field("id", uuid)
            let source = sample.sourceRevision.source
            json.object("meta") { json in
                json.array("tag") { json in
                    json.element { json in
                        json.field("system", FHIRMapping.sourceSystem)
                        json.field("code", source.bundleIdentifier)
                        json.field("display", source.name)
                    }
                }
            }
            json.array("identifier") { json in
                json.element { json in
                    json.field("system", "urn:ietf:rfc:3986")
                    json.field("value", "urn:uuid:" + uuid)
                }
            }
            json.field("status", "final")
            switch sample {
            case .quantity(let quantity):
                let code = FHIRMapping.quantityCodes[quantity.quantityType]
                category(&json, code?.category)
                codeField(&json, loinc: code.map { ($0.loinc, $0.display) }, type: quantity.quantityType.rawValue)
                subject(&json)
                effective(&json, sample)
                device(&json, sample.device)
                json.key("valueQuantity")
                try self.quantity(&json, quantity.quantity, code: code)
            case .correlation(let correlation):
                let pressure = correlation.correlationType == .bloodPressure
                category(&json, pressure ? "vital-signs" : nil)
                codeField(
                    &json,
                    loinc: pressure ? FHIRMapping.bloodPressurePanel : nil,
                    type: correlation.correlationType.rawValue
                )
                subject(&json)
                effective(&json, sample)
                device(&json, sample.device)
                try json.array("component") { json in
                    for case .quantity(let member) in correlation.objects {
                        let code = FHIRMapping.quantityCodes[member.quantityType]
                        try json.element { json in
                            codeField(
                                &json,
                                loinc: code.map { ($0.loinc, $0.display) },
                                type: member.quantityType.rawValue
                            )
                            json.key("valueQuantity")
                            try self.quantity(&json, member.quantity, code: code)
                        }
                    }
                }
            case .category(let category):
                codeField(&json, loinc: nil, type: category.categoryType.rawValue)
                subject(&json)
                effective(&json, sample)
                device(&json, sample.device)
                let name = category.categoryType.valueSet.caseName(of: category.value) ?? String(category.value)
                valueCode(&json, name)
            case .workout(let workout):
                category(&json, "activity")
                codeField(&json, loinc: nil, type: ObjectType.workoutTypeIdentifier)
                subject(&json)
                effective(&json, sample)
                device(&json, sample.device)
                let activity = "\(workout.workoutActivityType)"
                json.object("valueCodeableConcept") { json in
                    json.array("coding") { json in
                        json.element { json in
                            json.field("system", FHIRMapping.activityTypeSystem)
                            json.field("code", activity)
                        }
                    }
                    json.field("text", activity)
                }
                try json.array("component") { json in
                    json.element { json in
                        codeField(&json, loinc: FHIRMapping.exerciseDuration, type: "duration")
                        json.key("valueQuantity")
                        ucumQuantity(&json, workout.duration / 60, unit: "min", code: "min")
                    }
                    if let energy = workout.totalEnergyBurned {
                        try json.element { json in
                            let code = FHIRMapping.quantityCodes[.activeEnergyBurned]
                            codeField(&json, loinc: code.map { ($0.loinc, $0.display) }, type: "totalEnergyBurned")
                            json.key("valueQuantity")
                            try self.quantity(&json, energy, code: code)
                        }
                    }
                    if let distance = workout.totalDistance {
                        try json.element { json in
                            codeField(&json, loinc: nil, type: "totalDistance")
                            json.key("valueQuantity")
                            try self.quantity(&json, distance, code: nil)
                        }
                    }
                }
            default:
                try otherKind(&json, sample)
            }
        }
        return json.bytes
    }

    /// States of mind, assessments, electrocardiograms, audiograms, heartbeat series, routes.
    private static func otherKind(_ json: inout JSONText, _ sample: Sample) throws {
        let type = sample.sampleType.identifier
        switch sample {
        case .gad7Assessment(let assessment):
            codeField(&json, loinc: FHIRMapping.gad7Total, type: type)
            subject(&json)
            effective(&json, sample)
            json.field("valueInteger", integer: assessment.score)
        case .phq9Assessment(let assessment):
            codeField(&json, loinc: FHIRMapping.phq9Total, type: type)
            subject(&json)
            effective(&json, sample)
            json.field("valueInteger", integer: assessment.score)
        case .stateOfMind(let mind):
            codeField(&json, loinc: nil, type: type)
            subject(&json)
            effective(&json, sample)
            json.object("valueQuantity") { json in
                json.field("value", number: mind.valence)
                json.field("unit", "valence (-1 to 1)")
            }
        case .electrocardiogram(let ecg):
            codeField(&json, loinc: nil, type: type)
            subject(&json)
            effective(&json, sample)
            device(&json, sample.device)
            let name = ecg.classification.healthKitConstant
            valueCode(&json, name)
            if let rate = ecg.averageHeartRate {
                try json.array("component") { json in
                    try json.element { json in
                        let code = FHIRMapping.quantityCodes[.heartRate]
                        codeField(&json, loinc: code.map { ($0.loinc, $0.display) }, type: "averageHeartRate")
                        json.key("valueQuantity")
                        try quantity(&json, rate, code: code)
                    }
                }
            }
        case .visionPrescription(let prescription):
            // The prescription's type, and each eye's powers and axis as components (the rest of
            // the lenses is in the JSON export).
            codeField(&json, loinc: nil, type: type)
            subject(&json)
            effective(&json, sample)
            device(&json, sample.device)
            let name = prescription.prescriptionType.healthKitConstant
            valueCode(&json, name)
            var components: [(String, Quantity)] = []
            func add(_ eye: String, _ sphere: Quantity?, _ cylinder: Quantity?, _ axis: Quantity?, _ add: Quantity?) {
                for (field, value) in [("Sphere", sphere), ("Cylinder", cylinder), ("Axis", axis), ("AddPower", add)] {
                    if let value { components.append((eye + field, value)) }
                }
            }
            switch prescription.lenses {
            case .glasses(let right, let left):
                add("rightEye", right?.sphere, right?.cylinder, right?.axis, right?.addPower)
                add("leftEye", left?.sphere, left?.cylinder, left?.axis, left?.addPower)
            case .contacts(let right, let left, _):
                add("rightEye", right?.sphere, right?.cylinder, right?.axis, right?.addPower)
                add("leftEye", left?.sphere, left?.cylinder, left?.axis, left?.addPower)
            case nil:
                break
            }
            if !components.isEmpty {
                try json.array("component") { json in
                    for (name, value) in components {
                        try json.element { json in
                            codeField(&json, loinc: nil, type: name)
                            json.key("valueQuantity")
                            try quantity(&json, value, code: nil)
                        }
                    }
                }
            }
        case .cdaDocument(let document):
            // The document's title (the document itself is in the JSON export).
            codeField(&json, loinc: nil, type: type)
            subject(&json)
            effective(&json, sample)
            json.field("valueString", document.document?.title ?? "")
        default:
            // Routes, heartbeat series, audiograms: how many points (the points are in the JSON export).
            codeField(&json, loinc: nil, type: type)
            subject(&json)
            effective(&json, sample)
            device(&json, sample.device)
            let points: Int =
                switch sample {
                case .workoutRoute(let route): route.count
                case .heartbeatSeries(let series): series.count
                case .audiogram(let audiogram): audiogram.sensitivityPoints.count
                default: 0
                }
            json.field("valueInteger", integer: points)
        }
    }

    // MARK: Parts

    private static func category(_ json: inout JSONText, _ code: String?) {
        guard let code else { return }
        json.array("category") { json in
            json.element { json in
                json.array("coding") { json in
                    json.element { json in
                        json.field("system", FHIRMapping.categorySystem)
                        json.field("code", code)
                    }
                }
            }
        }
    }

    /// The code: LOINC first where there is one, then HealthVault's type code.
    private static func codeField(_ json: inout JSONText, loinc: (loinc: String, display: String)?, type: String) {
        json.object("code") { json in
            json.array("coding") { json in
                if let loinc {
                    json.element { json in
                        json.field("system", FHIRMapping.loincSystem)
                        json.field("code", loinc.loinc)
                        json.field("display", loinc.display)
                    }
                }
                json.element { json in
                    json.field("system", FHIRMapping.typeSystem)
                    json.field("code", type)
                }
            }
            json.field("text", loinc?.display ?? type)
        }
    }

    /// `valueCodeableConcept`: a HealthKit constant (a category value, a classification, a kind)
    /// under HealthVault's own value system, as code and text.
    private static func valueCode(_ json: inout JSONText, _ name: String) {
        json.object("valueCodeableConcept") { json in
            json.array("coding") { json in
                json.element { json in
                    json.field("system", FHIRMapping.categoryValueSystem)
                    json.field("code", name)
                }
            }
            json.field("text", name)
        }
    }

    private static func subject(_ json: inout JSONText) {
        json.object("subject") { json in json.field("reference", "Patient/" + patientID) }
    }

    private static func effective(_ json: inout JSONText, _ sample: Sample) {
        if sample.startDate == sample.endDate {
            json.field("effectiveDateTime", RFC3339.string(from: sample.startDate))
        } else {
            json.object("effectivePeriod") { json in
                json.field("start", RFC3339.string(from: sample.startDate))
                json.field("end", RFC3339.string(from: sample.endDate))
            }
        }
    }

    private static func device(_ json: inout JSONText, _ device: Device?) {
        guard let device else { return }
        let parts = [device.name, device.model, device.hardwareVersion].compactMap { $0 }
        guard !parts.isEmpty else { return }
        json.object("device") { json in json.field("display", parts.joined(separator: ", ")) }
    }

    /// A quantity in its code's unit (a percentage times 100), else in its own unit with its
    /// UCUM code when it has one.
    private static func quantity(_ json: inout JSONText, _ quantity: Quantity, code: FHIRMapping.Code?) throws {
        if let code {
            let value = try quantity.doubleValue(for: try UnitCache.unit(code.unit))
            ucumQuantity(&json, code.unit == "%" ? value * 100 : value, unit: code.ucum, code: code.ucum)
            return
        }
        if quantity.unit.unitString == "%" {
            ucumQuantity(&json, quantity.value * 100, unit: "%", code: "%")
        } else if let ucum = UCUM.code(for: quantity.unit) {
            ucumQuantity(&json, quantity.value, unit: quantity.unit.unitString, code: ucum)
        } else {
            json.beginObject()
            json.field("value", number: quantity.value)
            json.field("unit", quantity.unit.unitString)
            json.endObject()
        }
    }

    private static func ucumQuantity(_ json: inout JSONText, _ value: Double, unit: String, code: String) {
        json.beginObject()
        json.field("value", number: value)
        json.field("unit", unit)
        json.field("system", FHIRMapping.ucumSystem)
        json.field("code", code)
        json.endObject()
    }
}
