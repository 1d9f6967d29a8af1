public import Foundation
public import HealthModel

/// An app's request to read a type object by object (HealthKit's
/// `requestPerObjectReadAuthorization(for:predicate:)`), waiting for the owner to choose.
public struct ObjectRequest: Hashable, Sendable {
    /// The vault's number for the request (shared with the requests for types).
    public var id: Int64
    public var appID: String
    public var requestedAt: Date
    public var type: SampleType
    /// The objects the app asked about; nil: every object of the type.
    public var predicate: SamplePredicate?
}
