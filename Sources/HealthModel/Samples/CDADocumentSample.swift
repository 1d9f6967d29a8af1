public import Foundation

/// A clinical document in the HL7 CDA format, as HealthKit's `HKCDADocumentSample`: the
/// document's XML kept byte for byte as given, and the title, patient, author and custodian
/// names read out of it.
///
/// As in HealthKit, a sample or anchored query answers a document sample without its
/// ``document`` (nil); a document query (``DocumentQueryDescriptor``) answers it with the
/// document, and with the document's bytes when it asks for them (`includeDocumentData`).
/// A save carries the bytes.
///
/// Documents are read object by object, as vision prescriptions are (docs/ACCESS_RULES.md).
public struct CDADocumentSample: HealthSample {
    public let uuid: UUID
    /// The document; nil in a sample or anchored query's answer.
    public private(set) var document: CDADocument?
    public let startDate: Date
    public let endDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// The largest document the vault keeps, in bytes (8 MiB: a save of one, as base64 in JSON,
    /// still fits the daemon's default 16 MiB frame).
    public static let maximumDocumentSize = 8 * 1024 * 1024

    /// A document sample made from the document's bytes (HealthKit's
    /// `CDADocumentSampleWithData:startDate:endDate:metadata:validationError:`): the title and the
    /// names are read out of the XML. Throws `invalidArgument` on `document.documentData` for
    /// bytes that are not a well-formed CDA `ClinicalDocument` (saying why), empty or larger than
    /// ``maximumDocumentSize``; and for an end before the start or bad metadata.
    public init(
        // Random, never time-ordered: the audit log names the UUIDs of the objects the owner
        // chooses for an app (docs/MODEL_JSON.md, "UUIDs").
        uuid: UUID = UUID(),
        data: Data,
        start: Date,
        end: Date,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: start, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        self.uuid = uuid
        self.document = try CDADocument(reading: data)
        self.startDate = start
        self.endDate = end
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    /// A document sample as the vault gives it back: with the document as stored (its bytes, or
    /// without them), or without the document. Nothing is read again from the bytes.
    public init(
        uuid: UUID,
        document: CDADocument?,
        start: Date,
        end: Date,
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: start, endDate: end, sourceRevision: sourceRevision, metadata: metadata)
        self.uuid = uuid
        self.document = document
        self.startDate = start
        self.endDate = end
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    public var sampleType: SampleType { .document(.cda) }

    /// The sample as a sample query answers it: without its document.
    public var withoutDocument: CDADocumentSample {
        var copy = self
        copy.document = nil
        return copy
    }

    /// The sample with its document but not the document's bytes (a document query that does not
    /// include the data).
    public var withoutDocumentData: CDADocumentSample {
        var copy = self
        copy.document = document?.withoutData
        return copy
    }

    public func attributed(to sourceRevision: SourceRevision) -> CDADocumentSample {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    private enum CodingKeys: String, CodingKey {
        case document
    }

    public init(from decoder: any Decoder) throws {
        let common = try decoder.container(keyedBy: SampleCodingKeys.self)
        guard try common.decode(SampleType.self, forKey: .type) == .document(.cda) else {
            throw HealthError.invalidArgument("expected \(DocumentTypeIdentifier.cda.rawValue)")
                .field(at: decoder.codingPath + [SampleCodingKeys.type])
        }
        let (uuid, start, end, source, device, metadata) = try common.decodeCommon()
        let document = try decoder.container(keyedBy: CodingKeys.self)
            .decodeIfPresent(CDADocument.self, forKey: .document)
        self = try validating(decoder) { () throws(HealthError) in
            try CDADocumentSample(
                uuid: uuid,
                document: document,
                start: start,
                end: end,
                sourceRevision: source,
                device: device,
                metadata: metadata
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var common = encoder.container(keyedBy: SampleCodingKeys.self)
        try common.encodeCommon(self)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(document, forKey: .document)
    }
}

/// A CDA document's content (HealthKit's `HKCDADocument`): its bytes, when the answer carries
/// them, and what HealthKit reads out of them.
///
/// JSON: `{"documentData": "<base64>", "title": "...", "patientName": "...", "authorName":
/// "...", "custodianName": "..."}`. A save sends `documentData` (the names are read from it; any
/// it sends too must be the ones read); an answer without the bytes has no `documentData`.
public struct CDADocument: Hashable, Sendable, Codable {
    /// The document's XML, byte for byte as saved; nil when the answer leaves it out.
    public let documentData: Data?
    /// The document's `title`, its white space collapsed; empty when it has none.
    public let title: String
    /// The name of `recordTarget/patientRole/patient`: its parts in the document's order.
    public let patientName: String
    /// The name of `author/assignedAuthor/assignedPerson`; empty for an author that is a device.
    public let authorName: String
    /// The name of `custodian/assignedCustodian/representedCustodianOrganization`.
    public let custodianName: String

    /// A document as the vault stores it (the names already read from its bytes).
    public init(documentData: Data?, title: String, patientName: String, authorName: String, custodianName: String) {
        self.documentData = documentData
        self.title = title
        self.patientName = patientName
        self.authorName = authorName
        self.custodianName = custodianName
    }

    /// Reads a document's bytes, or throws `invalidArgument` on `document.documentData` saying
    /// why they are not a CDA document. The message never quotes the document.
    public init(reading data: Data) throws(HealthError) {
        try self.init(reading: data, field: "document.documentData")
    }

    /// ``init(reading:)``, naming `field` in its errors.
    init(reading data: Data, field: String) throws(HealthError) {
        guard !data.isEmpty else { throw .invalidArgument("the document is empty", field: field) }
        guard data.count <= CDADocumentSample.maximumDocumentSize else {
            throw .invalidArgument(
                "a document is at most \(CDADocumentSample.maximumDocumentSize) bytes (8 MiB)",
                field: field
            )
        }
        let extract: CDADocumentReader.Extract
        do {
            extract = try CDADocumentReader.read(Array(data))
        } catch {
            throw .invalidArgument("not a CDA document: \(error.message)", field: field)
        }
        self.init(
            documentData: data,
            title: extract.title,
            patientName: extract.patientName,
            authorName: extract.authorName,
            custodianName: extract.custodianName
        )
    }

    /// The document without its bytes.
    public var withoutData: CDADocument {
        CDADocument(
            documentData: nil,
            title: title,
            patientName: patientName,
            authorName: authorName,
            custodianName: custodianName
        )
    }

    private enum CodingKeys: String, CodingKey {
        case documentData, title, patientName, authorName, custodianName
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let names = (
            try container.decodeIfPresent(String.self, forKey: .title),
            try container.decodeIfPresent(String.self, forKey: .patientName),
            try container.decodeIfPresent(String.self, forKey: .authorName),
            try container.decodeIfPresent(String.self, forKey: .custodianName)
        )
        guard let base64 = try container.decodeIfPresent(String.self, forKey: .documentData) else {
            // An answer without the bytes: the names as the vault read them.
            guard let title = names.0, let patient = names.1, let author = names.2, let custodian = names.3 else {
                throw HealthError.invalidArgument("a document carries its documentData (base64)")
                    .field(at: decoder.codingPath + [CodingKeys.documentData])
            }
            self.init(
                documentData: nil,
                title: title,
                patientName: patient,
                authorName: author,
                custodianName: custodian
            )
            return
        }
        guard let data = Data(base64Encoded: base64) else {
            throw HealthError.invalidArgument("documentData is not base64 (RFC 4648, with padding)")
                .field(at: decoder.codingPath + [CodingKeys.documentData])
        }
        // The field is this object's: decoding locates it.
        let document = try validating(decoder) { () throws(HealthError) in
            try CDADocument(reading: data, field: "documentData")
        }
        for (given, read, key) in [
            (names.0, document.title, CodingKeys.title), (names.1, document.patientName, .patientName),
            (names.2, document.authorName, .authorName), (names.3, document.custodianName, .custodianName),
        ] where given != nil && given != read {
            throw HealthError.invalidArgument(
                "\(key.stringValue) is read from the document; leave it out, or send the one the document gives"
            )
            .field(at: decoder.codingPath + [key])
        }
        self = document
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(documentData?.base64EncodedString(), forKey: .documentData)
        try container.encode(title, forKey: .title)
        try container.encode(patientName, forKey: .patientName)
        try container.encode(authorName, forKey: .authorName)
        try container.encode(custodianName, forKey: .custodianName)
    }
}

/// HealthKit's document type identifiers (`HKDocumentTypeIdentifier`): CDA, the one there is.
public enum DocumentTypeIdentifier: String, CaseIterable, Hashable, Sendable, Codable {
    case cda = "HKDocumentTypeIdentifierCDA"
}
