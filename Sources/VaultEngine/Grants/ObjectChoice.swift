public import Foundation
public import HealthModel

/// One object of a type read object by object, as the owner sees it when choosing: what it is,
/// whose, and whether an app may read it.
public struct ObjectChoice: Hashable, Sendable {
    public var uuid: UUID
    public var type: SampleType
    public var startDate: Date
    public var endDate: Date
    /// The app that saved it.
    public var source: Source
    /// A document's title; a prescription's type (`glasses`, `contacts`).
    public var summary: String
    /// Whether the app asked about may read it now.
    public var readable: Bool
    /// Whether it matches the predicate of one of the app's waiting requests.
    public var asked: Bool
}
