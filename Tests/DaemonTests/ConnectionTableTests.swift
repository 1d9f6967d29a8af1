import Foundation
import Testing
import VaultProtocol

@testable import VaultDaemon

/// The rules that admit a connection (docs/PROTOCOL.md, "Connections"), on the table alone.
@Suite struct ConnectionTableTests {
    static func limits() -> ConnectionLimits {
        var limits = ConnectionLimits()
        limits.unauthenticated = 6
        limits.unauthenticatedPerPeer = 3
        limits.perApp = 2
        limits.apps = 5
        limits.owner = 1
        return limits
    }

    @Test func aPeerMayKeepOnlyItsShareOfConnectionsWaitingToAuthenticate() throws {
        var table = ConnectionTable<Int>(limits: Self.limits())
        for index in 0..<3 { #expect(try table.admit(UUID(), index, peer: 100) == nil) }
        #expect(throws: ConnectionRefusal.self) { try table.admit(UUID(), 3, peer: 100) }
        // Another peer is not refused for the first one's connections.
        #expect(try table.admit(UUID(), 4, peer: 200) == nil)
    }

    @Test func whenTheWaitingRoomIsFullThePeerHoldingMostGivesUpItsOldest() throws {
        var table = ConnectionTable<String>(limits: Self.limits())
        for name in ["a1", "a2", "a3"] { _ = try table.admit(UUID(), name, peer: 1) }
        for name in ["b1", "b2"] { _ = try table.admit(UUID(), name, peer: 2) }
        _ = try table.admit(UUID(), "c1", peer: 3)
        // Full (6): a newcomer sheds peer 1's oldest, then, at equal counts, the peer whose
        // oldest is oldest; the lone connection of peer 3 outlasts them all.
        #expect(try table.admit(UUID(), "d1", peer: 4) == "a1")
        #expect(try table.admit(UUID(), "e1", peer: 5) == "a2")
        #expect(try table.admit(UUID(), "f1", peer: 6) == "b1")
        #expect(try table.admit(UUID(), "g1", peer: 7) == "a3")
        #expect(table.count == 6)
    }

    @Test func appsAndTheOwnerHaveLimitsOfTheirOwn() throws {
        var table = ConnectionTable<Int>(limits: Self.limits())
        var ids: [UUID] = []
        for index in 0..<6 {
            let id = UUID()
            _ = try table.admit(id, index, peer: Int32(index))
            ids.append(id)
        }
        try table.authenticate(ids[0], as: .app("one"))
        try table.authenticate(ids[1], as: .app("one"))
        // Its own limit: the message is about its own connections only.
        #expect(throws: ConnectionRefusal("one already has 2 connections open")) {
            try table.authenticate(ids[2], as: .app("one"))
        }
        try table.authenticate(ids[2], as: .app("two"))
        try table.authenticate(ids[3], as: .owner)
        #expect(throws: ConnectionRefusal.self) { try table.authenticate(ids[4], as: .owner) }
        // Authenticated connections leave the waiting room: new peers are admitted.
        for index in 6..<9 { #expect(try table.admit(UUID(), index, peer: Int32(index)) == nil) }
    }

    @Test func aConnectionIDDrawnTwiceIsRefused() throws {
        var table = ConnectionTable<Int>(limits: Self.limits())
        let id = UUID()
        _ = try table.admit(id, 1, peer: 1)
        #expect(throws: ConnectionRefusal.self) { try table.admit(id, 2, peer: 2) }
    }

    @Test func connectionIDsAreRandomVersion4() {
        let ids = (0..<1000).map { _ in Session.newConnectionID() }
        #expect(Set(ids).count == 1000)
        for id in ids {
            #expect(id.uuidString.dropFirst(14).first == "4")
            #expect("89AB".contains(id.uuidString.dropFirst(19).first!))
        }
    }
}

/// What the daemon writes when an answer cannot be encoded.
@Suite struct AnswerEncodingTests {
    struct Unencodable: Error {}

    @Test func anAnswerThatCannotBeEncodedIsAnInternalErrorWithTheRequestsID() throws {
        let payload = Session.payload(answering: .number(42)) { throw Unencodable() }
        let answer = try #require(JSONSerialization.jsonObject(with: payload) as? [String: Any])
        #expect(answer["id"] as? Int == 42)
        #expect((answer["error"] as? [String: Any])?["code"] as? Int == -32603)
    }
}
