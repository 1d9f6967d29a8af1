public import AuditLog
public import Foundation
public import HealthModel
import VaultStore

/// What the owner does to an app's reading of some objects.
public enum ObjectDecision: String, Hashable, Sendable, CustomStringConvertible {
    /// The app may read the objects, from its next request on.
    case grant
    /// The app may no longer read them, from its next request on (an anchored query tells it they
    /// went, as deletions).
    case revoke

    public var description: String { rawValue }

    var operation: AuditEntry.Operation {
        switch self {
        case .grant: .authorizationGrantObjects
        case .revoke: .authorizationRevokeObjects
        }
    }
}

extension VaultEngine {
    /// How many UUIDs one entry's `objects` attribute names: 27 of 36 characters and their commas
    /// fit its 1,024 bytes. A decision on more objects is several entries, in one transaction.
    static let objectsPerEntry = 27

    // MARK: The app's side

    /// Asks the owner to choose which objects of `type` the app may read (HealthKit's
    /// `requestPerObjectReadAuthorization(for:predicate:)`): vision prescriptions or documents,
    /// those matching `predicate` (all when nil). The request waits for the owner, who sees it
    /// (`healthvault requests`) and chooses (`healthvault objects`); a request of the type still
    /// waiting takes the new predicate. It returns once recorded, and says nothing of what the
    /// owner chose: an app learns that by reading.
    ///
    /// Refused with `invalidArgument`: a type not read object by object, a predicate that does
    /// not fit the type, a type the app's manifest does not declare reading.
    public func requestPerObjectReadAuthorization(
        for type: SampleType,
        predicate: SamplePredicate?,
        as caller: Caller,
        requestID: String = ""
    ) async throws {
        let appID = try Self.appID(of: caller)
        try await perform { [self] in
            try audited(caller, .authorizationRequestObjects, types: [type.identifier], requestID: requestID) {
                guard type.isReadPerObject else {
                    throw HealthError.invalidArgument(
                        "\(type) is not read object by object (vision prescriptions and documents are); ask for it with requestAuthorization",
                        field: "type"
                    )
                }
                if let predicate { try predicate.validate(for: type) }
                try database.write { db in
                    let app = try requireApp(appID, db)
                    guard app.declaredRead.contains(ObjectType(type)) else {
                        throw HealthError.invalidArgument(
                            "\(appID)'s manifest does not declare read \(type); the owner enrolls it again with a manifest that does"
                        )
                    }
                    _ = try ObjectGrantStore.addRequest(appID, type: type, predicate: predicate, at: Date(), db)
                    try append(
                        entry(caller, .authorizationRequestObjects, types: [type.identifier], requestID: requestID),
                        in: db
                    )
                }
            }
        }
    }

    // MARK: The owner's side

    /// The requests to read object by object still waiting for the owner, oldest first.
    public func pendingObjectRequests(of appID: String? = nil) async throws -> [ObjectRequest] {
        try await perform { [self] in try database.read { try ObjectGrantStore.pendingRequests(of: appID, $0) } }
    }

    /// Lets an app read these objects, or takes them back (docs/ACCESS_RULES.md, "Per-object
    /// reads"): effective from the app's next request, its observers told, as a change of its own
    /// samples would. A grant answers the app's waiting requests of the objects' types.
    ///
    /// Recorded as one `authorization.grant-objects` or `authorization.revoke-objects` entry per
    /// type and 27 objects, naming them (attribute `objects`), never anything of their content.
    /// Refused (`invalidArgument`, nothing changed): an unknown app; for a grant, a UUID the vault
    /// does not hold, an object of a type not read object by object, the app's own object, a
    /// type the app's manifest does not declare reading; for a revocation, an object the app may
    /// not read.
    public func decideObjects(_ decision: ObjectDecision, _ uuids: [UUID], for appID: String) async throws {
        let unique = Array(Set(uuids)).sorted { $0.uuidString < $1.uuidString }
        let changes = try await perform { [self] () throws -> SampleChanges in
            try audited(.owner, decision.operation, types: [], requestID: appID) {
                guard !unique.isEmpty else {
                    throw HealthError.invalidArgument("name at least one object", field: "objects")
                }
                guard unique.count <= Self.maximumBatchSize else {
                    throw HealthError(.dataSizeExceeded, "a decision names at most \(Self.maximumBatchSize) objects")
                }
                return try database.write { db -> SampleChanges in
                    guard let app = try GrantStore.registration(appID, db) else {
                        throw HealthError.invalidArgument("no app \(appID) is enrolled", field: "app")
                    }
                    var byType: [SampleType: [UUID]] = [:]
                    for uuid in unique {
                        byType[try objectType(of: uuid, decision, for: app, db), default: []].append(uuid)
                    }
                    let now = Date()
                    let before = try store.changeSequence(in: db)
                    var changed: Set<SampleType> = []
                    for (type, objects) in byType.sorted(by: { VaultPolicy.identifierOrder($0.key, $1.key) }) {
                        for uuid in objects {
                            // Each change its own position, in the order the entries name them.
                            let sequence = try store.advanceChangeSequence(in: db)
                            let did =
                                decision == .grant
                                ? try ObjectGrantStore.grant(uuid, of: type, to: appID, at: sequence, on: now, db)
                                : try ObjectGrantStore.revoke(uuid, from: appID, at: sequence, on: now, db)
                            if did { changed.insert(type) }
                        }
                        if decision == .grant { try ObjectGrantStore.answer(appID, type: type, at: now, db) }
                        for chunk in stride(from: 0, to: objects.count, by: Self.objectsPerEntry) {
                            let part = objects[chunk..<min(chunk + Self.objectsPerEntry, objects.count)]
                            var record = entry(
                                .owner,
                                decision.operation,
                                types: [type.identifier],
                                count: part.count,
                                requestID: appID
                            )
                            record.attributes = ["objects": Self.objectsAttribute(part)]
                            try append(record, in: db)
                        }
                    }
                    // Told as a change of the app's own: a choice, or a taking back, is one to it.
                    let changes = SampleChanges(
                        changed,
                        by: appID,
                        after: before,
                        through: try store.changeSequence(in: db)
                    )
                    if !changes.isEmpty { try countBackgroundChanges(changes, db) }
                    return changes
                }
            }
        }
        if !changes.isEmpty { await notifyObservers(changes) }
    }

    /// The `objects` attribute: the UUIDs in upper case, as `UUID.uuidString` prints them, in
    /// increasing order, separated by commas.
    static func objectsAttribute(_ uuids: some Sequence<UUID>) -> String {
        uuids.map(\.uuidString).sorted().joined(separator: ",")
    }

    /// The type of the object a decision names, after checking that the decision may name it.
    private func objectType(
        of uuid: UUID,
        _ decision: ObjectDecision,
        for app: AppRegistration,
        _ db: Connection
    )
        throws -> SampleType
    {
        switch decision {
        case .revoke:
            guard try ObjectGrantStore.isReadable(uuid, by: app.appID, db),
                let type = try ObjectGrantStore.chosenType(uuid, of: app.appID, db)
            else {
                throw HealthError.invalidArgument(
                    "\(app.appID) may not read \(uuid.uuidString) (it was never chosen for it, or was taken back)",
                    field: "objects"
                )
            }
            return type
        case .grant:
            guard let sample = try store.sample(uuid: uuid, scope: .owner, in: db) else {
                throw HealthError.invalidArgument("the vault holds no object \(uuid.uuidString)", field: "objects")
            }
            let type = sample.sampleType
            guard type.isReadPerObject else {
                throw HealthError.invalidArgument(
                    "\(uuid.uuidString) is a sample of \(type), which is read by type, not object by object (healthvault grant)",
                    field: "objects"
                )
            }
            guard sample.sourceRevision.source.bundleIdentifier != app.appID else {
                throw HealthError.invalidArgument(
                    "\(uuid.uuidString) is \(app.appID)'s own: an app always reads the objects it saved",
                    field: "objects"
                )
            }
            guard app.declaredRead.contains(ObjectType(type)) else {
                throw HealthError.invalidArgument(
                    "\(app.appID)'s manifest does not declare reading \(type)",
                    field: "objects"
                )
            }
            return type
        }
    }

    /// Answers an app's request to read object by object without choosing any object (the
    /// objects it may already read stay): `requests deny` of such a request. Recorded as
    /// `authorization.deny-objects` with the request's number (attribute `request`).
    func denyObjectRequest(_ id: Int64, _ db: Connection) throws -> String {
        guard let request = try ObjectGrantStore.pendingRequests(of: nil, id: id, db).first else {
            throw HealthError.invalidArgument("request \(id) has nothing left to decide", field: "request")
        }
        try ObjectGrantStore.answer(request.appID, type: nil, id: id, at: Date(), db)
        var record = entry(
            .owner,
            .authorizationDenyObjects,
            types: [request.type.identifier],
            requestID: request.appID
        )
        record.attributes = ["request": String(id)]
        try append(record, in: db)
        return request.appID
    }

    /// The objects of the types read object by object, for the owner choosing for `appID`: each
    /// with whether the app may read it now and whether it matches one of the app's waiting
    /// requests; of one type when `type` is given; the app's own objects left out (it reads them
    /// anyway). Oldest first. Recorded as the owner's `query.sample` of those types.
    public func objectChoices(for appID: String, type: SampleType? = nil) async throws -> [ObjectChoice] {
        let types = type.map { [$0] } ?? SampleType.allTypes.filter(\.isReadPerObject)
        guard types.allSatisfy(\.isReadPerObject) else {
            throw HealthError.invalidArgument(
                "\(types[0]) is read by type, not object by object (vision prescriptions and documents are)",
                field: "type"
            )
        }
        return try await read(.querySample, types: Set(types), as: .owner, requestID: appID) { [self] db, _ in
            guard try GrantStore.registration(appID, db) != nil else {
                throw HealthError.invalidArgument("no app \(appID) is enrolled", field: "app")
            }
            let readable = try ObjectGrantStore.readableObjects(appID, db)
            let requests = try ObjectGrantStore.pendingRequests(of: appID, db)
            var choices: [ObjectChoice] = []
            for type in types {
                var asked: Set<UUID> = []
                for request in requests where request.type == type {
                    let query = SampleQueryDescriptor(predicates: [
                        SampleTypePredicate(type, predicate: request.predicate)
                    ])
                    asked.formUnion(try store.samples(matching: query, scope: .owner, in: db).map(\.uuid))
                }
                let all = SampleQueryDescriptor(
                    predicates: [SampleTypePredicate(type)],
                    sortDescriptors: [SampleSortDescriptor(.startDate)]
                )
                var titles: [UUID: String] = [:]
                if case .document(let documentType) = type {
                    var offset: Int? = 0
                    while let from = offset {
                        let batch = try store.documents(
                            matching: DocumentQueryDescriptor(documentType: documentType, includeDocumentData: false),
                            offset: from,
                            scope: .owner,
                            in: db
                        )
                        for document in batch.documents { titles[document.uuid] = document.document?.title }
                        offset = batch.next
                    }
                }
                for sample in try store.samples(matching: all, scope: .owner, in: db)
                where sample.sourceRevision.source.bundleIdentifier != appID {
                    var summary = titles[sample.uuid] ?? ""
                    if case .visionPrescription(let prescription) = sample {
                        summary = prescription.prescriptionType.word
                    }
                    choices.append(
                        ObjectChoice(
                            uuid: sample.uuid,
                            type: type,
                            startDate: sample.startDate,
                            endDate: sample.endDate,
                            source: sample.sourceRevision.source,
                            summary: summary,
                            readable: readable[type]?.contains(sample.uuid) == true,
                            asked: asked.contains(sample.uuid)
                        )
                    )
                }
            }
            return (choices, choices.count)
        }
    }
}
