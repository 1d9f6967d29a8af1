public import Foundation
public import HealthModel

/// The vault-wide rules of access the owner sets (`policies/default.json`): types no app may
/// share, and types whose grants always need the owner's explicit decision, one type at a time.
///
/// Kept in the encrypted store (`settings.policy`); a vault without one uses ``standard``.
public struct VaultPolicy: Hashable, Sendable {
    /// Types no app may ask to share, and the owner cannot grant sharing of: values the vault
    /// or the owner derives (exercise minutes, stand hours, heart-rate notifications) and
    /// characteristics, which only the owner sets.
    public var neverShared: Set<ObjectType>
    /// Types that approving a whole request never grants: the owner decides each one by itself
    /// (reproductive and sexual health, mental health, for instance). Denying a whole request does
    /// deny them.
    public var explicitDecision: Set<ObjectType>

    public init(neverShared: Set<ObjectType>, explicitDecision: Set<ObjectType>) {
        self.neverShared = neverShared
        self.explicitDecision = explicitDecision
    }

    /// The version of the file format this code reads and writes.
    public static let formatVersion = 1

    /// The policy a vault starts with; `policies/default.json` is this policy as a file.
    public static let standard = VaultPolicy(
        neverShared: Set(
            CharacteristicTypeIdentifier.allCases.map(ObjectType.characteristic)
                + [
                    .activitySummary,
                    .quantity(.appleExerciseTime), .quantity(.appleMoveTime), .quantity(.appleStandTime),
                    .quantity(.appleSleepingWristTemperature), .quantity(.appleSleepingBreathingDisturbances),
                    .quantity(.appleWalkingSteadiness), .quantity(.atrialFibrillationBurden),
                    .quantity(.heartRateRecoveryOneMinute), .quantity(.walkingHeartRateAverage),
                    .quantity(.sixMinuteWalkTestDistance),
                    .category(.appleStandHour), .category(.appleWalkingSteadinessEvent),
                    .category(.audioExposureEvent), .category(.headphoneAudioExposureEvent),
                    .category(.highHeartRateEvent), .category(.lowHeartRateEvent),
                    .category(.irregularHeartRhythmEvent), .category(.lowCardioFitnessEvent),
                    .category(.sleepApneaEvent),
                ]
        ),
        explicitDecision: [
            .quantity(.basalBodyTemperature),
            .category(.menstrualFlow), .category(.intermenstrualBleeding), .category(.infrequentMenstrualCycles),
            .category(.irregularMenstrualCycles), .category(.persistentIntermenstrualBleeding),
            .category(.prolongedMenstrualPeriods), .category(.ovulationTestResult),
            .category(.cervicalMucusQuality), .category(.sexualActivity), .category(.contraceptive),
            .category(.pregnancy), .category(.pregnancyTestResult), .category(.progesteroneTestResult),
            .category(.lactation), .category(.bleedingAfterPregnancy), .category(.bleedingDuringPregnancy),
            // Mental health: how one feels, and anxiety and depression screening.
            .stateOfMind, .scoredAssessment(.gad7), .scoredAssessment(.phq9),
        ]
    )

    // MARK: Rules

    /// Refuses a request (or a manifest's declaration) the vault can never grant: sharing a type
    /// in ``neverShared``, and correlation types, which are granted through their member types,
    /// as in HealthKit. `fieldPrefix` begins the error's field path.
    public func checkRequest(toShare: Set<SampleType>, read: Set<ObjectType>, fieldPrefix: String) throws(HealthError) {
        for type in toShare.sorted(by: Self.identifierOrder) {
            if case .correlation = type {
                throw .invalidArgument(
                    "\(type) is granted through its member types; ask to share those instead",
                    field: fieldPrefix + "share"
                )
            }
            if neverShared.contains(ObjectType(type)) {
                throw .invalidArgument(
                    "no app may share \(type): the vault's policy reserves it",
                    field: fieldPrefix + "share"
                )
            }
        }
        for type in read.sorted(by: Self.identifierOrder) {
            if case .correlation = type {
                throw .invalidArgument(
                    "\(type) is granted through its member types; ask to read those instead",
                    field: fieldPrefix + "read"
                )
            }
        }
    }

    static func identifierOrder<T: CustomStringConvertible>(_ a: T, _ b: T) -> Bool {
        a.description.utf8.lexicographicallyPrecedes(b.description.utf8)
    }

    // MARK: The file

    /// Reads a policy file (docs/POLICIES.md), refusing anything it does not understand.
    public init(contentsOf url: URL) throws(PolicyError) {
        try self.init(json: JSONFile.read(url), file: url.path)
    }

    /// Reads a policy from its JSON form; `file` names it in errors.
    public init(json data: Data, file: String) throws(PolicyError) {
        let json = try JSONFile(data: data, file: file)
        try json.refuseUnknownKeys(allowed: ["version", "neverShared", "explicitDecision"])
        let version = try json.integer("version", required: true)
        guard version == Self.formatVersion else {
            throw json.error(
                "version",
                "must be \(Self.formatVersion) (this HealthVault reads policy version \(Self.formatVersion))"
            )
        }
        let neverShared = try json.objectTypes("neverShared")
        let explicitDecision = try json.objectTypes("explicitDecision")
        for (key, types) in [("neverShared", neverShared), ("explicitDecision", explicitDecision)] {
            for (index, type) in types.enumerated() {
                if case .correlation = type {
                    throw json.error(
                        "\(key)[\(index)]",
                        "\(type) is never granted itself (its member types are); list those"
                    )
                }
            }
        }
        self.init(neverShared: Set(neverShared), explicitDecision: Set(explicitDecision))
    }

    /// The JSON form: keys and identifiers sorted, so the same policy is always the same bytes.
    public func jsonData() -> Data {
        func list(_ types: Set<ObjectType>) -> String {
            types.map(\.identifier).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                .map { "    \"\($0)\"" }.joined(separator: ",\n")
        }
        return Data(
            """
            {
              "version": \(Self.formatVersion),
              "neverShared": [
            \(list(neverShared))
              ],
              "explicitDecision": [
            \(list(explicitDecision))
              ]
            }

            """.utf8
        )
    }
}
