public import Foundation
public import HealthModel
public import VaultCrypto

/// An app the owner enrolled: who it is, the key it proves that with, why it reads and shares,
/// and the types its manifest says it will ask for.
public struct AppRegistration: Hashable, Sendable {
    /// Reverse-DNS app id; also the `bundleIdentifier` of every sample it saves.
    public var appID: String
    /// The name shown to the owner and stamped on the app's samples as their source's name.
    public var displayName: String
    /// The Ed25519 key the app signs the daemon's challenge with.
    public var publicKey: Ed25519.PublicKey
    /// Why the app reads health data (HealthKit's `NSHealthShareUsageDescription`).
    public var readPurpose: String
    /// Why the app saves health data (HealthKit's `NSHealthUpdateUsageDescription`).
    public var sharePurpose: String
    /// The types the app may ask to read; a request for another is refused.
    public var declaredRead: Set<ObjectType>
    /// The types the app may ask to share.
    public var declaredShare: Set<SampleType>
    /// Why it wants each of some declared types, in its manifest's words (`purposes`).
    public var typePurposes: [ObjectType: String]
    /// When the owner enrolled it (set by the engine).
    public var enrolledAt: Date

    public init(
        appID: String,
        displayName: String,
        publicKey: Ed25519.PublicKey,
        readPurpose: String = "",
        sharePurpose: String = "",
        declaredRead: Set<ObjectType> = [],
        declaredShare: Set<SampleType> = [],
        typePurposes: [ObjectType: String] = [:],
        enrolledAt: Date = Date(timeIntervalSince1970: 0)
    ) {
        self.appID = appID
        self.displayName = displayName
        self.publicKey = publicKey
        self.readPurpose = readPurpose
        self.sharePurpose = sharePurpose
        self.declaredRead = declaredRead
        self.declaredShare = declaredShare
        self.typePurposes = typePurposes
        self.enrolledAt = enrolledAt
    }

    /// The longest display name, and the longest purpose, in bytes.
    public static let maximumNameLength = 100
    public static let maximumPurposeLength = 1000

    /// Refuses a malformed id, an empty or overlong name or purpose, a purpose missing for the
    /// access the app declares (HealthKit refuses an app without its usage descriptions too),
    /// control characters, and types no app may ask for.
    public func validate(policy: VaultPolicy) throws(HealthError) {
        try Self.validate(
            appID: appID,
            displayName: displayName,
            readPurpose: readPurpose,
            sharePurpose: sharePurpose,
            declaredRead: declaredRead,
            declaredShare: declaredShare,
            typePurposes: typePurposes,
            policy: policy
        )
    }

    static func validate(
        appID: String,
        displayName: String,
        readPurpose: String,
        sharePurpose: String,
        declaredRead: Set<ObjectType>,
        declaredShare: Set<SampleType>,
        typePurposes: [ObjectType: String] = [:],
        policy: VaultPolicy
    ) throws(HealthError) {
        try AppID.validate(appID)
        try checkText(displayName, field: "displayName", maximum: maximumNameLength, required: true)
        try checkText(readPurpose, field: "readPurpose", maximum: maximumPurposeLength, required: !declaredRead.isEmpty)
        try checkText(
            sharePurpose,
            field: "sharePurpose",
            maximum: maximumPurposeLength,
            required: !declaredShare.isEmpty
        )
        for (type, purpose) in typePurposes {
            try checkText(
                purpose,
                field: "purposes.\(type.identifier)",
                maximum: maximumPurposeLength,
                required: true
            )
        }
        try policy.checkRequest(toShare: declaredShare, read: declaredRead, fieldPrefix: "")
    }

    static func checkText(_ text: String, field: String, maximum: Int, required: Bool) throws(HealthError) {
        if required && text.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidArgument("is required (the owner sees it when deciding)", field: field)
        }
        guard text.utf8.count <= maximum else {
            throw .invalidArgument("is longer than \(maximum) bytes", field: field)
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidArgument("contains a control character", field: field)
        }
    }

    /// The source every sample the app saves is attributed to, whatever the app sent.
    public var source: Source { Source(bundleIdentifier: appID, name: displayName) }
}
