public import Foundation
public import HealthModel
public import VaultCrypto

/// An app's description for the owner (`policies/apps/<app id>.json`): who it is, why it reads and
/// shares, the types it will ask for and, optionally, its public key. The owner enrolls an app
/// from it; nothing in it is a grant.
public struct AppManifest: Hashable, Sendable {
    public var appID: String
    public var displayName: String
    public var readPurpose: String
    public var sharePurpose: String
    public var read: Set<ObjectType>
    public var share: Set<SampleType>
    /// Why the app wants each of some types it declares (`purposes`), shown to the owner beside
    /// that type when deciding; the others go by `readPurpose` and `sharePurpose`.
    public var typePurposes: [ObjectType: String]
    /// The app's Ed25519 public key, when the manifest carries it (base64 of the 32 bytes).
    public var publicKey: Ed25519.PublicKey?
    /// The file it was read from, for errors.
    public var file: String

    /// The version of the manifest format this code reads.
    public static let formatVersion = 1

    /// Reads a manifest file (docs/POLICIES.md), refusing anything it does not understand.
    public init(contentsOf url: URL) throws(PolicyError) {
        try self.init(json: JSONFile.read(url), file: url.path)
    }

    public init(json data: Data, file: String) throws(PolicyError) {
        let json = try JSONFile(data: data, file: file)
        try json.refuseUnknownKeys(allowed: [
            "version", "appID", "displayName", "readPurpose", "sharePurpose", "read", "share", "purposes",
            "publicKey",
        ])
        let version = try json.integer("version", required: true)
        guard version == Self.formatVersion else {
            throw json.error(
                "version",
                "must be \(Self.formatVersion) (this HealthVault reads manifest version \(Self.formatVersion))"
            )
        }
        self.file = file
        appID = try json.string("appID", required: true) ?? ""
        displayName = try json.string("displayName", required: true) ?? ""
        readPurpose = try json.string("readPurpose", required: false) ?? ""
        sharePurpose = try json.string("sharePurpose", required: false) ?? ""
        read = Set(try json.objectTypes("read"))
        var share: Set<SampleType> = []
        for (index, type) in try json.objectTypes("share").enumerated() {
            guard let sampleType = type.sampleType else {
                throw json.error("share[\(index)]", "\(type) is not a sample type; only samples can be shared")
            }
            share.insert(sampleType)
        }
        self.share = share
        typePurposes = try json.typePurposes("purposes")
        for type in typePurposes.keys.sorted(by: VaultPolicy.identifierOrder) {
            let shared = type.sampleType.map { share.contains($0) } ?? false
            guard read.contains(type) || shared else {
                throw json.error("purposes", "names \(type.identifier), which the manifest neither reads nor shares")
            }
        }
        guard !read.isEmpty || !share.isEmpty else {
            throw json.error(
                nil,
                "declares no types: list what the app will ask to read and share (\"read\", \"share\")"
            )
        }
        if let key = try json.string("publicKey", required: false) {
            guard let bytes = Data(base64Encoded: key),
                let publicKey = try? Ed25519.PublicKey(rawRepresentation: Array(bytes))
            else {
                throw json.error("publicKey", "must be the base64 of a 32-byte Ed25519 public key")
            }
            self.publicKey = publicKey
        } else {
            publicKey = nil
        }
        // The shape only: whether the vault's own policy allows each type is checked at enrolment.
        do throws(HealthError) {
            try AppRegistration.validate(
                appID: appID,
                displayName: displayName,
                readPurpose: readPurpose,
                sharePurpose: sharePurpose,
                declaredRead: read,
                declaredShare: share,
                typePurposes: typePurposes,
                policy: VaultPolicy(neverShared: [], explicitDecision: [])
            )
        } catch {
            throw json.error(error.field, error.message)
        }
    }

    /// The registration this manifest describes, with `publicKey` (or the manifest's own key).
    public func registration(publicKey: Ed25519.PublicKey) -> AppRegistration {
        AppRegistration(
            appID: appID,
            displayName: displayName,
            publicKey: publicKey,
            readPurpose: readPurpose,
            sharePurpose: sharePurpose,
            declaredRead: read,
            declaredShare: share,
            typePurposes: typePurposes
        )
    }
}
