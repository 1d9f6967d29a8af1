import Foundation

/// How many connections each kind of holder may keep open (docs/PROTOCOL.md, "Connections").
public struct ConnectionLimits: Hashable, Sendable {
    /// Connections not yet authenticated, all peers together; when full, a newcomer takes the
    /// place of the oldest waiting connection of the peer holding the most.
    public var unauthenticated = 64
    /// Connections not yet authenticated from one peer process.
    public var unauthenticatedPerPeer = 16
    /// Authenticated connections of one app.
    public var perApp = 16
    /// Authenticated connections of all apps together.
    public var apps = 128
    /// Authenticated owner connections: room the apps never take.
    public var owner = 8

    public init() {}

    /// Every connection these limits allow at once.
    public var total: Int { unauthenticated + apps + owner }
}

/// Who holds the daemon's connections, and the rules that admit one more. Each rule counts only
/// what the newcomer's own holder has, except the two shared ceilings (connections waiting to
/// authenticate, and all apps together), which no single peer or app can fill.
struct ConnectionTable<Member> {
    enum Holder: Hashable {
        /// Connected, not yet authenticated, from this peer process.
        case waiting(peer: Int32)
        case app(String)
        case owner
    }

    struct Entry {
        var member: Member
        var holder: Holder
        /// Admission order: older connections have smaller numbers.
        var order: UInt64
    }

    let limits: ConnectionLimits
    private(set) var entries: [UUID: Entry] = [:]
    private var admitted: UInt64 = 0

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    var count: Int { entries.count }

    func count(of holder: Holder) -> Int {
        entries.values.count { $0.holder == holder }
    }

    /// Admits a new connection from `peer` waiting to authenticate. Returns the connection shed
    /// to make room (already removed), or throws the refusal's message.
    mutating func admit(_ id: UUID, _ member: Member, peer: Int32) throws(ConnectionRefusal) -> Member? {
        guard entries[id] == nil else {
            throw ConnectionRefusal("a connection id was drawn twice; connect again")
        }
        guard count(of: .waiting(peer: peer)) < limits.unauthenticatedPerPeer else {
            throw ConnectionRefusal(
                "this process already has \(limits.unauthenticatedPerPeer) connections waiting to authenticate"
            )
        }
        var shed: Member?
        let waiting = entries.filter { if case .waiting = $0.value.holder { true } else { false } }
        if waiting.count >= limits.unauthenticated {
            // The peer holding the most waiting connections gives up its oldest (of equals, the
            // peer whose oldest is oldest), so a peer that opens many never keeps out one that
            // opens few.
            let byPeer = Dictionary(grouping: waiting, by: { $0.value.holder })
            let victim = byPeer.values.max { a, b in
                a.count != b.count
                    ? a.count < b.count : a.map(\.value.order).min()! > b.map(\.value.order).min()!
            }!
            let oldest = victim.min { $0.value.order < $1.value.order }!
            shed = entries.removeValue(forKey: oldest.key)?.member
        }
        admitted += 1
        entries[id] = Entry(member: member, holder: .waiting(peer: peer), order: admitted)
        return shed
    }

    /// Moves an admitted connection to its authenticated holder, or throws the refusal's message
    /// (the connection stays as it was; the caller closes it).
    mutating func authenticate(_ id: UUID, as holder: Holder) throws(ConnectionRefusal) {
        guard entries[id] != nil else { throw ConnectionRefusal("the connection was closed") }
        switch holder {
        case .waiting:
            preconditionFailure("authenticate as an app or the owner")
        case .owner:
            guard count(of: .owner) < limits.owner else {
                throw ConnectionRefusal("the owner already has \(limits.owner) connections open")
            }
        case .app(let appID):
            guard count(of: holder) < limits.perApp else {
                throw ConnectionRefusal("\(appID) already has \(limits.perApp) connections open")
            }
            let apps = entries.values.count { if case .app = $0.holder { true } else { false } }
            guard apps < limits.apps else {
                throw ConnectionRefusal("the daemon serves no more app connections now; try again later")
            }
        }
        entries[id]!.holder = holder
    }

    @discardableResult
    mutating func remove(_ id: UUID) -> Member? {
        entries.removeValue(forKey: id)?.member
    }
}

/// Why a connection was not admitted: the message of the `-32004` answer.
struct ConnectionRefusal: Error, Hashable, Sendable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
