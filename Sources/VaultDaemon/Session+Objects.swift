import Foundation
import HealthModel
import VaultEngine
import VaultProtocol

extension Session {
    /// The methods of per-object reads (docs/PROTOCOL.md, "Per-object reads and documents"): the
    /// document query for both roles, an app's request to read object by object, the owner's
    /// list and choices of objects; nil for any other method (or one of the other role).
    func dispatchObjects(method: String, data: Data, caller: Caller, requestID: String) async throws -> (any Encodable)?
    {
        switch (method, caller) {
        case (Method.queryDocuments, _):
            let p = try params(DocumentQueryParams.self, from: data)
            let offset = p.offset ?? 0
            let batch = try await daemon.engine().documents(
                matching: p.query,
                offset: offset,
                as: caller,
                requestID: requestID
            )
            return DocumentsResult(batch, offset: offset)
        case (Method.requestObjectAuthorization, .app):
            let p = try params(ObjectAuthorizationParams.self, from: data)
            try await daemon.engine().requestPerObjectReadAuthorization(
                for: p.type,
                predicate: p.predicate,
                as: caller,
                requestID: requestID
            )
            return Empty()
        case (Method.objectsList, .owner):
            let p = try params(ObjectsListParams.self, from: data)
            let choices = try await daemon.engine().objectChoices(for: p.app, type: p.type)
            return ObjectsResult(
                objects: choices.map {
                    ObjectInfo(
                        uuid: $0.uuid,
                        type: $0.type,
                        startDate: $0.startDate,
                        endDate: $0.endDate,
                        source: $0.source,
                        summary: $0.summary,
                        readable: $0.readable,
                        asked: $0.asked
                    )
                }
            )
        case (Method.objectsDecide, .owner):
            let p = try params(ObjectsDecideParams.self, from: data)
            guard let decision = ObjectDecision(rawValue: p.decision) else {
                throw RPCError.from(HealthError.invalidArgument("grant or revoke", field: "decision"))
            }
            try await daemon.engine().decideObjects(decision, p.objects, for: p.app)
            return Empty()
        default:
            return nil
        }
    }

    /// A waiting request to read object by object, as `requests.list` sends it.
    static func info(_ request: ObjectRequest) -> ObjectRequestInfo {
        ObjectRequestInfo(
            id: request.id,
            app: request.appID,
            requestedAt: request.requestedAt,
            type: request.type,
            predicate: request.predicate
        )
    }
}
