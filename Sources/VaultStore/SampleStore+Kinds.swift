import Foundation
import HealthModel

/// The details of states of mind, scored assessments, electrocardiograms, audiograms, heartbeat
/// series (schema 10), vision prescriptions and documents (schema 16): one row per sample in the kind's own table, keyed by the sample's
/// row and deleted with it, and the series' points in `series_chunks`.
extension SampleStore {
    /// How many points one `series_chunks` row holds: a batch of a series query reads only the
    /// chunks it needs.
    static let pointsPerChunk = 1024

    /// Saves the kind's details of `sample`, stored as row `sampleID`.
    func insertDetails(of sample: Sample, sampleID: Int64, _ db: Connection) throws {
        switch sample {
        case .stateOfMind(let state):
            try db.statement(
                "INSERT INTO states_of_mind (sample_id, kind, valence, labels, associations) VALUES (?, ?, ?, ?, ?)"
            ).execute([
                sampleID, state.kind.rawValue, state.valence, Self.jsonList(state.labels.map(\.rawValue)),
                Self.jsonList(state.associations.map(\.rawValue)),
            ])
        case .gad7Assessment(let assessment):
            try insertAssessment(
                assessment.answers.map(\.rawValue),
                assessment.score,
                assessment.risk.rawValue,
                sampleID,
                db
            )
        case .phq9Assessment(let assessment):
            try insertAssessment(
                assessment.answers.map(\.rawValue),
                assessment.score,
                assessment.risk.rawValue,
                sampleID,
                db
            )
        case .electrocardiogram(let ecg):
            guard let measurements = ecg.voltageMeasurements else { throw Self.seriesMissing("voltageMeasurements") }
            try db.statement(
                """
                INSERT INTO electrocardiograms (sample_id, classification, symptoms_status, heart_rate_value,
                    heart_rate_unit_id, frequency_value, frequency_unit_id, measurement_count, voltage_unit_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
            ).execute([
                sampleID, ecg.classification.rawValue, ecg.symptomsStatus.rawValue, ecg.averageHeartRate?.value,
                try ecg.averageHeartRate.map { try intern(unit: $0.unit.unitString, db) },
                ecg.samplingFrequency?.value,
                try ecg.samplingFrequency.map { try intern(unit: $0.unit.unitString, db) },
                measurements.count,
                try measurements.first.map { try intern(unit: $0.leadI.unit.unitString, db) },
            ])
            try insertChunks(measurements.map { ($0.timeSinceSampleStart, $0.leadI.value) }, sampleID, db)
        case .audiogram(let audiogram):
            try db.statement("INSERT INTO audiograms (sample_id, sensitivity_points) VALUES (?, ?)").execute([
                sampleID, String(decoding: try HealthJSON.encode(audiogram.sensitivityPoints), as: UTF8.self),
            ])
        case .heartbeatSeries(let series):
            guard let beats = series.heartbeats else { throw Self.seriesMissing("heartbeats") }
            try db.statement("INSERT INTO heartbeat_series (sample_id, beat_count) VALUES (?, ?)").execute([
                sampleID, beats.count,
            ])
            try insertChunks(beats.map { ($0.timeSinceSeriesStart, $0.precededByGap ? 1 : 0) }, sampleID, db)
        case .visionPrescription(let prescription):
            try db.statement(
                "INSERT INTO vision_prescriptions (sample_id, prescription_type, lenses) VALUES (?, ?, ?)"
            ).execute([
                sampleID, prescription.prescriptionType.rawValue,
                try prescription.lenses.map {
                    String(decoding: try HealthJSON.encode(StoredLenses($0)), as: UTF8.self)
                },
            ])
        case .cdaDocument(let sample):
            guard let document = sample.document, let data = document.documentData else {
                throw HealthError.invalidArgument(
                    "a save carries the document itself (document.documentData); a query's answer leaves it out",
                    field: "document.documentData"
                )
            }
            try db.statement(
                """
                INSERT INTO documents (sample_id, title, patient_name, author_name, custodian_name, data)
                VALUES (?, ?, ?, ?, ?, ?)
                """
            ).execute(values: [
                .integer(sampleID), .text(document.title), .text(document.patientName), .text(document.authorName),
                .text(document.custodianName), .blob(Array(data)),
            ])
        case .quantity, .category, .correlation, .workout, .workoutRoute:
            break
        }
    }

    /// A vision prescription's lenses as the `vision_prescriptions` table keeps them: the JSON
    /// fields the prescription's own form gives them (`rightEye`, `leftEye`, `brand`).
    struct StoredLenses: Codable {
        var rightEye: AnyLens?
        var leftEye: AnyLens?
        var brand: String?

        enum AnyLens: Codable {
            case glasses(GlassesLensSpecification)
            case contacts(ContactsLensSpecification)

            init(from decoder: any Decoder) throws {
                // Read by the prescription's type (see `lenses(_:)`); glasses decode here.
                self = .glasses(try GlassesLensSpecification(from: decoder))
            }

            func encode(to encoder: any Encoder) throws {
                switch self {
                case .glasses(let lens): try lens.encode(to: encoder)
                case .contacts(let lens): try lens.encode(to: encoder)
                }
            }
        }

        init(_ lenses: VisionPrescription.Lenses) {
            switch lenses {
            case .glasses(let right, let left):
                rightEye = right.map(AnyLens.glasses)
                leftEye = left.map(AnyLens.glasses)
            case .contacts(let right, let left, let brand):
                rightEye = right.map(AnyLens.contacts)
                leftEye = left.map(AnyLens.contacts)
                self.brand = brand
            }
        }
    }

    /// The lenses stored as `json` for a prescription of `type`.
    static func lenses(_ json: String?, type: VisionPrescriptionType) throws -> VisionPrescription.Lenses? {
        guard let json else { return nil }
        struct Glasses: Decodable {
            var rightEye: GlassesLensSpecification?
            var leftEye: GlassesLensSpecification?
        }
        struct Contacts: Decodable {
            var rightEye: ContactsLensSpecification?
            var leftEye: ContactsLensSpecification?
            var brand: String
        }
        switch type {
        case .glasses:
            let glasses = try HealthJSON.decode(Glasses.self, from: Data(json.utf8))
            return .glasses(rightEye: glasses.rightEye, leftEye: glasses.leftEye)
        case .contacts:
            let contacts = try HealthJSON.decode(Contacts.self, from: Data(json.utf8))
            return .contacts(rightEye: contacts.rightEye, leftEye: contacts.leftEye, brand: contacts.brand)
        }
    }

    /// The document of the sample stored as row `id`: its names, and its bytes when `withData`.
    func document(ofRow id: Int64, withData: Bool, _ db: Connection) throws -> CDADocument {
        guard
            let row = try db.statement(
                "SELECT title, patient_name, author_name, custodian_name\(withData ? ", data" : "") FROM documents WHERE sample_id = ?"
            ).rows([id]).first
        else { throw StoreError.damagedDatabase("a stored document lacks its details") }
        return CDADocument(
            documentData: withData ? Data(row[4].bytes ?? []) : nil,
            title: row[0].string ?? "",
            patientName: row[1].string ?? "",
            authorName: row[2].string ?? "",
            custodianName: row[3].string ?? ""
        )
    }

    /// A series read back from a query carries only its count; saving one needs its points.
    static func seriesMissing(_ field: String) -> HealthError {
        .invalidArgument("a save carries the series itself (\(field)); a query's answer leaves it out", field: field)
    }

    /// Refuses an electrocardiogram without its voltage measurements, a heartbeat series without
    /// its beats, a document sample without its document's bytes and a quantity series without
    /// its quantities (which only the quantity series
    /// builder gives: a save's JSON cannot carry them), at position `index` of a batch.
    static func checkSeries(_ sample: Sample, at index: Int, in batch: String = "objects") throws(HealthError) {
        switch sample {
        case .electrocardiogram(let ecg) where ecg.voltageMeasurements == nil:
            throw seriesMissing("voltageMeasurements").nested(in: "\(batch)[\(index)]")
        case .heartbeatSeries(let series) where series.heartbeats == nil:
            throw seriesMissing("heartbeats").nested(in: "\(batch)[\(index)]")
        case .cdaDocument(let sample) where sample.document?.documentData == nil:
            throw HealthError.invalidArgument(
                "a save carries the document itself (document.documentData); a query's answer leaves it out",
                field: "document.documentData"
            )
            .nested(in: "\(batch)[\(index)]")
        case .quantity(let quantity) where quantity.count > 1 && quantity.seriesQuantities?.count != quantity.count:
            throw HealthError.invalidArgument(
                "a quantity sample holding more than one quantity is made by the quantity series builder (quantitySeriesBuilder.begin); a save carries one quantity",
                field: "count"
            )
            .nested(in: "\(batch)[\(index)]")
        default:
            return
        }
    }

    private func insertAssessment(
        _ answers: [Int],
        _ score: Int,
        _ risk: Int,
        _ sampleID: Int64,
        _ db: Connection
    )
        throws
    {
        try db.statement("INSERT INTO scored_assessments (sample_id, answers, score, risk) VALUES (?, ?, ?, ?)")
            .execute([sampleID, Self.jsonList(answers), score, risk])
    }

    /// Stores points (a time and a value each) in chunks of ``pointsPerChunk``, each point as two
    /// little-endian IEEE 754 doubles.
    private func insertChunks(_ points: [(Double, Double)], _ sampleID: Int64, _ db: Connection) throws {
        let insert = try db.statement("INSERT INTO series_chunks (sample_id, first, points) VALUES (?, ?, ?)")
        var first = 0
        while first < points.count {
            let end = min(first + Self.pointsPerChunk, points.count)
            var bytes: [UInt8] = []
            bytes.reserveCapacity((end - first) * 16)
            for (time, value) in points[first..<end] {
                withUnsafeBytes(of: time.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
            try insert.execute(values: [.integer(sampleID), .integer(Int64(first)), .blob(bytes)])
            first = end
        }
    }

    /// Saves a quantity series' count, a discrete series' summary and its quantities (each its
    /// start and end date and its value in the sample's unit, three little-endian doubles, in
    /// chunks of ``pointsPerChunk``), for the sample stored as row `sampleID`.
    func insertSeries(of sample: QuantitySample, sampleID: Int64, _ db: Connection) throws {
        guard let quantities = sample.seriesQuantities else { throw Self.seriesMissing("quantities") }
        let canonical = sample.quantityType.canonicalUnit
        let summary = sample.discreteSummary
        let unit = sample.quantity.unit
        try db.statement(
            """
            INSERT INTO quantity_series (sample_id, type, source_id, quantity_count, minimum, maximum,
                minimum_base, maximum_base, most_recent, most_recent_start, most_recent_end)
            SELECT id, type, source_id, ?, ?, ?, ?, ?, ?, ?, ? FROM samples WHERE id = ?
            """
        ).execute([
            quantities.count, try summary?.minimum.doubleValue(for: unit),
            try summary?.maximum.doubleValue(for: unit), try summary?.minimum.doubleValue(for: canonical),
            try summary?.maximum.doubleValue(for: canonical), try summary?.mostRecent.doubleValue(for: unit),
            summary?.mostRecentDateInterval.start.timeIntervalSinceReferenceDate,
            summary?.mostRecentDateInterval.end.timeIntervalSinceReferenceDate, sampleID,
        ])
        let insert = try db.statement(
            "INSERT INTO quantity_series_chunks (sample_id, first, points) VALUES (?, ?, ?)"
        )
        var first = 0
        while first < quantities.count {
            let end = min(first + Self.pointsPerChunk, quantities.count)
            var bytes: [UInt8] = []
            bytes.reserveCapacity((end - first) * 24)
            for entry in quantities[first..<end] {
                for number in [
                    entry.dateInterval.start.timeIntervalSinceReferenceDate,
                    entry.dateInterval.end.timeIntervalSinceReferenceDate, try entry.quantity.doubleValue(for: unit),
                ] {
                    withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                }
            }
            try insert.execute(values: [.integer(sampleID), .integer(Int64(first)), .blob(bytes)])
            first = end
        }
    }

    /// Reads the points stored in a chunk's bytes.
    static func points(of bytes: [UInt8]) -> [(Double, Double)] {
        stride(from: 0, to: bytes.count - bytes.count % 16, by: 16).map { offset in
            func double(at index: Int) -> Double {
                var bits: UInt64 = 0
                for byte in bytes[index..<index + 8].reversed() { bits = bits << 8 | UInt64(byte) }
                return Double(bitPattern: bits)
            }
            return (double(at: offset), double(at: offset + 8))
        }
    }

    static func jsonList(_ values: [Int]) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }

    static func list(_ json: String?) throws -> [Int] {
        guard let json else { throw StoreError.damagedDatabase("a stored sample lacks its details") }
        return try HealthJSON.decode([Int].self, from: Data(json.utf8))
    }

    // MARK: Loading

    /// Builds the samples of these kinds with ids `ids` from their rows (`pending`) and their
    /// details; a sample whose details are missing is left out (the tables are written in the
    /// sample's transaction, so only a damaged database lacks them).
    func loadKinds(
        _ ids: [Int64],
        pending: [Int64: (SampleType, UUID, Date, Date, Double?, SourceRevision, Device?)],
        metadata: [Int64: Metadata],
        unit: (String) throws -> HealthUnit,
        into samples: inout LoadedSamples,
        _ db: Connection
    ) throws {
        let list = Self.idList(ids)
        let byID = "WHERE sample_id IN (SELECT value FROM json_each(?))"
        for row in try db.rows(
            "SELECT sample_id, kind, valence, labels, associations FROM states_of_mind \(byID)",
            [list]
        ) {
            let id = row[0].int64!
            guard let (_, uuid, start, _, _, source, device) = pending[id] else { continue }
            samples.put(
                .stateOfMind(
                    try StateOfMind(
                        uuid: uuid,
                        date: start,
                        kind: try StateOfMind.Kind(validating: Int(row[1].int64 ?? 0)),
                        valence: row[2].double ?? .nan,
                        labels: try Self.list(row[3].string).map { try StateOfMind.Label(validating: $0) },
                        associations: try Self.list(row[4].string).map { try StateOfMind.Association(validating: $0) },
                        sourceRevision: source,
                        device: device,
                        metadata: metadata[id] ?? [:]
                    )
                ),
                for: id
            )
        }
        for row in try db.rows("SELECT sample_id, answers FROM scored_assessments \(byID)", [list]) {
            let id = row[0].int64!
            guard let (type, uuid, start, _, _, source, device) = pending[id] else { continue }
            let answers = try Self.list(row[1].string)
            switch type {
            case .scoredAssessment(.gad7):
                samples.put(
                    .gad7Assessment(
                        try GAD7Assessment(
                            uuid: uuid,
                            date: start,
                            answers: try answers.map { try GAD7Assessment.Answer(validating: $0) },
                            sourceRevision: source,
                            device: device,
                            metadata: metadata[id] ?? [:]
                        )
                    ),
                    for: id
                )
            case .scoredAssessment(.phq9):
                samples.put(
                    .phq9Assessment(
                        try PHQ9Assessment(
                            uuid: uuid,
                            date: start,
                            answers: try answers.map { try PHQ9Assessment.Answer(validating: $0) },
                            sourceRevision: source,
                            device: device,
                            metadata: metadata[id] ?? [:]
                        )
                    ),
                    for: id
                )
            default:
                throw StoreError.damagedDatabase("a scored assessment's row has another type")
            }
        }
        for row in try db.rows(
            """
            SELECT e.sample_id, e.classification, e.symptoms_status, e.heart_rate_value, hu.unit, e.frequency_value,
                fu.unit, e.measurement_count
            FROM electrocardiograms e LEFT JOIN units hu ON hu.id = e.heart_rate_unit_id
                LEFT JOIN units fu ON fu.id = e.frequency_unit_id
            WHERE e.sample_id IN (SELECT value FROM json_each(?))
            """,
            [list]
        ) {
            let id = row[0].int64!
            guard let (_, uuid, start, end, _, source, device) = pending[id] else { continue }
            samples.put(
                .electrocardiogram(
                    try Electrocardiogram(
                        uuid: uuid,
                        start: start,
                        end: end,
                        classification: try Electrocardiogram.Classification(validating: Int(row[1].int64 ?? -1)),
                        symptomsStatus: try Electrocardiogram.SymptomsStatus(validating: Int(row[2].int64 ?? -1)),
                        averageHeartRate: try row[3].double.map { Quantity($0, try unit(row[4].string ?? "")) },
                        samplingFrequency: try row[5].double.map { Quantity($0, try unit(row[6].string ?? "")) },
                        voltageMeasurements: nil,
                        numberOfVoltageMeasurements: Int(row[7].int64 ?? -1),
                        sourceRevision: source,
                        device: device,
                        metadata: metadata[id] ?? [:]
                    )
                ),
                for: id
            )
        }
        for row in try db.rows("SELECT sample_id, sensitivity_points FROM audiograms \(byID)", [list]) {
            let id = row[0].int64!
            guard let (_, uuid, start, end, _, source, device) = pending[id] else { continue }
            samples.put(
                .audiogram(
                    try AudiogramSample(
                        uuid: uuid,
                        sensitivityPoints: try HealthJSON.decode(
                            [AudiogramSample.SensitivityPoint].self,
                            from: Data((row[1].string ?? "").utf8)
                        ),
                        start: start,
                        end: end,
                        sourceRevision: source,
                        device: device,
                        metadata: metadata[id] ?? [:]
                    )
                ),
                for: id
            )
        }
        for row in try db.rows(
            "SELECT sample_id, prescription_type, lenses FROM vision_prescriptions \(byID)",
            [list]
        ) {
            let id = row[0].int64!
            guard let (_, uuid, start, end, _, source, device) = pending[id] else { continue }
            let type = try VisionPrescriptionType(validating: Int(row[1].int64 ?? 0))
            samples.put(
                .visionPrescription(
                    try VisionPrescription(
                        uuid: uuid,
                        type: type,
                        lenses: try Self.lenses(row[2].string, type: type),
                        dateIssued: start,
                        expirationDate: end >= VisionPrescription.noExpiration ? nil : end,
                        sourceRevision: source,
                        device: device,
                        metadata: metadata[id] ?? [:]
                    )
                ),
                for: id
            )
        }
        for row in try db.rows("SELECT sample_id, beat_count FROM heartbeat_series \(byID)", [list]) {
            let id = row[0].int64!
            guard let (_, uuid, start, end, _, source, device) = pending[id] else { continue }
            samples.put(
                .heartbeatSeries(
                    try HeartbeatSeriesSample(
                        uuid: uuid,
                        start: start,
                        end: end,
                        heartbeats: nil,
                        count: Int(row[1].int64 ?? -1),
                        sourceRevision: source,
                        device: device,
                        metadata: metadata[id] ?? [:]
                    )
                ),
                for: id
            )
        }
    }
}
