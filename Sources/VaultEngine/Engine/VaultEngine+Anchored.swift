import AuditLog
public import Foundation
public import HealthModel
import VaultCrypto
import VaultStore

extension VaultEngine {
    /// Runs an anchored object query in the caller's scope (HealthKit's anchored object query):
    /// the samples added and the objects deleted since the anchor, oldest first, at most the
    /// query's limit of them together, and a new anchor.
    ///
    /// The anchor seals the position of the last change the caller saw, under a key of this
    /// vault and bound to the caller: an app can neither read it (so it learns nothing of how
    /// many changes others made in between) nor forge it nor use another caller's. It moves only
    /// with changes the caller may see, so asking again after other apps' hidden writes returns
    /// the very same bytes. An anchor that is not one the vault made for this caller is an
    /// `invalidArgument` on `anchor`.
    public func anchoredObjects(
        matching query: AnchoredObjectQueryDescriptor,
        as caller: Caller,
        requestID: String = ""
    ) async throws -> AnchoredObjectQueryResult {
        let types = Set(query.predicates.map(\.sampleType))
        return try await read(.queryAnchored, types: types, as: caller, requestID: requestID) { [self] db, scope in
            // Before the anchor is opened, so a malformed query is named as such (the store
            // checks it again, for its other callers).
            try query.validate()
            let sealer = try vault.queryAnchorSealer()
            let position = try query.anchor.map { try Self.position(of: $0, for: caller, sealer) } ?? 0
            let changes = try store.changes(matching: query, after: position, scope: scope, in: db)
            let result = AnchoredObjectQueryResult(
                addedSamples: changes.added,
                deletedObjects: changes.deleted,
                newAnchor: Self.anchor(at: changes.position, for: caller, sealer)
            )
            return (result, changes.added.count + changes.deleted.count)
        }
    }

    /// The version prefix of every anchor this vault makes.
    static let anchorPrefix = "1."

    static func anchor(at position: Int64, for caller: Caller, _ sealer: TokenSealer) -> QueryAnchor {
        let sealed = sealer.seal(
            withUnsafeBytes(of: position.littleEndian, Array.init),
            associatedData: anchorAssociatedData(caller)
        )
        return QueryAnchor(token: anchorPrefix + Base64URL.encode(sealed))
    }

    static func position(
        of anchor: QueryAnchor,
        for caller: Caller,
        _ sealer: TokenSealer
    ) throws(HealthError)
        -> Int64
    {
        guard anchor.token.hasPrefix(anchorPrefix),
            let sealed = Base64URL.decode(String(anchor.token.dropFirst(anchorPrefix.count))),
            let opened = sealer.open(sealed, associatedData: anchorAssociatedData(caller)), opened.count == 8
        else {
            throw .invalidArgument("the anchor is not one the vault made for this caller", field: "anchor")
        }
        let position = opened.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(as: Int64.self)) }
        guard position >= 0 else {
            throw .invalidArgument("the anchor is not one the vault made for this caller", field: "anchor")
        }
        return position
    }

    private static func anchorAssociatedData(_ caller: Caller) -> [UInt8] {
        let who =
            switch caller {
            case .owner: "owner"
            case .app(let appID): "app:" + appID
            }
        return Array("healthvault query anchor\u{0}\(who)".utf8)
    }
}

/// Base64url without padding (RFC 4648 §5), for tokens that travel as JSON strings.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ string: String) -> [UInt8]? {
        guard string.utf8.allSatisfy({ $0.isBase64URL }) else { return nil }
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}

extension UInt8 {
    fileprivate var isBase64URL: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self)
            || self == 0x2D || self == 0x5F
    }
}
