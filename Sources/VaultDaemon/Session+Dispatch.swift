import AuditLog
import Foundation
import HealthModel
import VaultCrypto
import VaultEngine
import VaultProtocol
import VaultStore

extension Session {
    /// Runs one request for this session's identity. An app reaches only the app methods; the
    /// owner the owner methods and the reads and deletes it shares with apps. Any other method
    /// name is `methodNotFound`, the same answer for a method that exists for the other role.
    func dispatch(method: String, data: Data, requestID: String) async throws -> any Encodable {
        guard let caller else {
            throw RPCError(code: RPCError.notAuthenticated, message: "authenticate first")
        }
        let isOwner = caller == .owner
        switch method {
        // Both roles.
        case Method.delete:
            let p = try params(DeleteParams.self, from: data)
            return DeleteResult(deleted: try await daemon.engine().delete(p.uuids, as: caller, requestID: requestID))
        case Method.deleteObjects:
            let p = try params(DeleteObjectsParams.self, from: data)
            let deleted = try await daemon.engine().deleteObjects(
                of: p.type,
                predicate: p.predicate,
                as: caller,
                requestID: requestID
            )
            return DeleteResult(deleted: deleted)
        case Method.querySamples:
            let p = try params(SampleQueryParams.self, from: data)
            return SamplesResult(
                samples: try await daemon.engine().samples(matching: p.query, as: caller, requestID: requestID)
            )
        case Method.querySources:
            let p = try params(SourceQueryParams.self, from: data)
            return SourcesResult(
                sources: try await daemon.engine().sources(matching: p.query, as: caller, requestID: requestID)
            )
        case Method.preferredUnits:
            let p = try params(PreferredUnitsParams.self, from: data)
            let units = try await daemon.engine().preferredUnits(for: Set(p.types))
            return PreferredUnitsResult(
                units: Dictionary(uniqueKeysWithValues: units.map { ($0.key.rawValue, $0.value) })
            )
        case Method.queryActivitySummaries:
            let p = try params(ActivitySummaryQueryParams.self, from: data)
            if p.updates == true { return try await observeActivitySummaries(p.query, requestID: requestID) }
            return ActivitySummariesResult(
                summaries: try await daemon.engine().activitySummaries(
                    matching: p.query,
                    as: caller,
                    requestID: requestID
                )
            )
        case Method.queryCorrelations:
            let p = try params(CorrelationQueryParams.self, from: data)
            return CorrelationsResult(
                correlations: try await daemon.engine().correlations(
                    matching: p.query,
                    as: caller,
                    requestID: requestID
                )
            )
        case Method.queryAnchored:
            let p = try params(AnchoredQueryParams.self, from: data)
            return try await daemon.engine().anchoredObjects(matching: p.query, as: caller, requestID: requestID)
        case Method.queryStatistics:
            let p = try params(StatisticsQueryParams.self, from: data)
            return StatisticsResult(
                statistics: try await daemon.engine().statistics(matching: p.query, as: caller, requestID: requestID)
            )
        case Method.queryStatisticsCollection:
            let p = try params(StatisticsCollectionQueryParams.self, from: data)
            return StatisticsCollectionResult(
                collection: try await daemon.engine().statisticsCollection(
                    matching: p.query,
                    as: caller,
                    requestID: requestID
                )
            )
        case Method.queryRoute:
            let p = try params(RouteQueryParams.self, from: data)
            let (locations, next) = try await daemon.engine().routeLocations(
                p.route,
                offset: p.offset ?? 0,
                limit: p.limit ?? VaultEngine.maximumRouteBatch,
                as: caller,
                requestID: requestID
            )
            return RouteQueryResult(locations: locations, next: next, offset: p.offset ?? 0)
        case Method.queryObject:
            let p = try params(ObjectParams.self, from: data)
            return ObjectResult(
                sample: try await daemon.engine().sample(uuid: p.uuid, as: caller, requestID: requestID)
            )
        case Method.characteristic:
            let p = try params(CharacteristicParams.self, from: data)
            let value = try await daemon.engine().characteristic(p.type, as: caller, requestID: requestID)
            return CharacteristicResult(value: value)
        default:
            break
        }
        if let result = try await dispatchSampleKinds(method: method, data: data, caller: caller, requestID: requestID)
        {
            return result
        }
        if let result = try await dispatchObjects(method: method, data: data, caller: caller, requestID: requestID) {
            return result
        }
        if isOwner {
            return try await dispatchOwner(method: method, data: data, requestID: requestID)
        }
        switch method {
        case Method.requestAuthorization:
            let p = try params(AuthorizationTypesParams.self, from: data)
            try await daemon.engine().requestAuthorization(
                toShare: Set(p.toShare),
                read: Set(p.read),
                as: caller,
                requestID: requestID
            )
            return Empty()
        case Method.authorizationRequestStatus:
            let p = try params(AuthorizationTypesParams.self, from: data)
            let status = try await daemon.engine().authorizationRequestStatus(
                toShare: Set(p.toShare),
                read: Set(p.read),
                as: caller,
                requestID: requestID
            )
            return AuthorizationRequestStatusResult(status: status.description)
        case Method.authorizationStatus:
            let p = try params(TypeParams.self, from: data)
            let status = try await daemon.engine().authorizationStatus(for: p.type, as: caller, requestID: requestID)
            return AuthorizationStatusResult(status: status.description)
        case Method.save:
            let p = try params(SaveParams.self, from: data)
            let outcome = try await daemon.engine().save(p.objects, as: caller, requestID: requestID)
            return SaveResult(saved: outcome.saved)
        case Method.observerStart:
            let p = try params(ObserverStartParams.self, from: data)
            return SubscriptionParams(
                subscription: try await subscribe(
                    Set(p.types),
                    frequency: p.frequency ?? .immediate,
                    requestID: requestID
                )
            )
        case Method.observerStop:
            let p = try params(SubscriptionParams.self, from: data)
            try await unsubscribe(p.subscription, requestID: requestID)
            return Empty()
        case Method.observerAcknowledge:
            let p = try params(AcknowledgeParams.self, from: data)
            try await acknowledge(p.delivery)
            return Empty()
        case Method.observerEnableBackgroundDelivery:
            let p = try params(EnableBackgroundDeliveryParams.self, from: data)
            try await daemon.engine().enableBackgroundDelivery(
                for: p.type,
                frequency: p.frequency,
                as: caller,
                requestID: requestID
            )
            return Empty()
        case Method.observerDisableBackgroundDelivery:
            let p = try params(DisableBackgroundDeliveryParams.self, from: data)
            try await daemon.engine().disableBackgroundDelivery(
                for: p.types.map(Set.init),
                as: caller,
                requestID: requestID
            )
            return Empty()
        default:
            if let result = try await dispatchWorkout(method: method, data: data, caller: caller, requestID: requestID)
            {
                return result
            }
            throw RPCError(code: RPCError.methodNotFound, message: "no method \"\(method)\"")
        }
    }
}
