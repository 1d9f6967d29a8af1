import AuditLog
import Foundation
public import HealthModel
public import VaultStore

/// The owner's own entries (`healthvault samples add`, docs/ACCESS_RULES.md, "The owner's
/// entries"): samples the owner writes down by hand, as HealthKit's Health app does. They arrive
/// without an app, under one source no app can have, ``ownerEntrySource``, and each is marked as
/// entered by a person (`HKWasUserEntered` = 1), so an app that may read the type sees them as
/// HealthKit apps see the Health app's manual entries.
extension VaultEngine {
    /// The source of the owner's entries: bundle identifier `owner:healthvault` (an app id never
    /// holds a colon, so no app can be enrolled under it), named `HealthVault`.
    public static let ownerEntrySource = Source(bundleIdentifier: "owner:healthvault", name: "HealthVault")

    /// Saves the owner's entries, all or nothing, in one transaction with their audit entry
    /// (`save` by `owner`: the types, correlation members' included, and how many objects were
    /// stored; never a value). Each must be a quantity (not a series), category, correlation or
    /// workout sample, marked `HKWasUserEntered` = 1, a correlation's members too
    /// (`invalidArgument`, field `objects[i]` or `objects[i].metadata`); the source it names is
    /// replaced by ``ownerEntrySource``. A UUID the vault holds or held is refused as an app's
    /// save refuses it. Observers and background delivery hear of them as of any save.
    @discardableResult
    public func saveOwnerEntries(_ samples: [Sample], requestID: String = "") async throws -> SaveOutcome {
        let types = Self.types(of: samples)
        let revision = SourceRevision(source: Self.ownerEntrySource)
        let source = Self.ownerEntrySource.bundleIdentifier
        let (outcome, changes) = try await perform { [self] () throws -> (SaveOutcome, SampleChanges) in
            try audited(.owner, .save, types: types.sortedIdentifiers, requestID: requestID) {
                guard !samples.isEmpty else {
                    throw HealthError.invalidArgument("there is nothing to save", field: "objects")
                }
                guard samples.count <= Self.maximumBatchSize else {
                    throw HealthError(
                        .dataSizeExceeded,
                        "a save holds at most \(Self.maximumBatchSize) objects; split the batch",
                        field: "objects"
                    )
                }
                for (index, sample) in samples.enumerated() {
                    try Self.checkOwnerEntry(sample, field: "objects[\(index)]")
                }
                try checkAnswerable(samples)
                let attributed = samples.map { $0.attributed(to: revision) }
                return try database.write { db in
                    let sequence = try store.changeSequence(in: db)
                    let outcome = try store.save(attributed, in: db)
                    let changes = SampleChanges(
                        outcome.saved > 0 ? types : [],
                        by: source,
                        after: sequence,
                        through: try store.changeSequence(in: db)
                    )
                    try countBackgroundChanges(changes, db)
                    try append(
                        entry(
                            .owner,
                            .save,
                            types: types.sortedIdentifiers,
                            count: outcome.saved,
                            requestID: requestID
                        ),
                        in: db
                    )
                    return (outcome, changes)
                }
            }
        }
        await notifyObservers(changes)
        return outcome
    }

    /// Whether `sample` may be an owner's entry: a kind a person enters, marked as entered by one.
    static func checkOwnerEntry(_ sample: Sample, field: String) throws {
        let members: [Sample]
        switch sample {
        case .quantity(let quantity):
            guard quantity.count == 1 else {
                throw HealthError.invalidArgument("an entry is one quantity, not a series", field: field)
            }
            members = []
        case .category, .workout:
            members = []
        case .correlation(let correlation):
            members = correlation.objects
        default:
            throw HealthError.invalidArgument(
                "the owner enters quantity, category, correlation and workout samples, not \(sample.sampleType.identifier)",
                field: field
            )
        }
        for (index, object) in ([sample] + members).enumerated() {
            guard object.metadata[.wasUserEntered] == .number(1) else {
                throw HealthError.invalidArgument(
                    "an owner's entry is marked HKWasUserEntered = 1",
                    field: index == 0 ? field + ".metadata" : field + ".objects[\(index - 1)].metadata"
                )
            }
        }
    }
}
