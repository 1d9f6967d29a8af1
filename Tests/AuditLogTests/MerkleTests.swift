import AuditLog
import Foundation
import HealthModelTestSupport
import Testing
import VaultCrypto

/// The Merkle tree against transparency-dev's 196 inclusion and consistency cases, and proofs made
/// from stored subtrees against the recursive definition.
struct MerkleTests {
    /// The eight leaves behind the vectors (their README).
    static let leaves: [[UInt8]] = [
        "", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f",
    ].map { hex in stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! } }

    struct Case {
        let path: String
        let json: [String: Any]

        func hash(_ key: String) -> [UInt8] {
            (json[key] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? []
        }
        var proof: [[UInt8]] { ((json["proof"] as? [String]) ?? []).map { Array(Data(base64Encoded: $0) ?? Data()) } }
        func number(_ key: String) -> UInt64 { (json[key] as? NSNumber)?.uint64Value ?? 0 }
        var wantError: Bool { json["wantErr"] as? Bool ?? false }
    }

    static func cases(_ kind: String) throws -> [Case] {
        let root = Vectors.directory.appendingPathComponent("merkle/\(kind)")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" } ?? []
        return try files.sorted { $0.path < $1.path }.map { url in
            Case(
                path: String(url.path.dropFirst(root.path.count)),
                json: try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
            )
        }
    }

    @Test(.enabled(if: Vectors.has("merkle"), Vectors.missingMessage))
    func everyTransparencyDevCaseGetsTheExpectedAnswer() throws {
        let inclusion = try Self.cases("inclusion")
        let consistency = try Self.cases("consistency")
        #expect(inclusion.count == 98 && consistency.count == 98)
        for test in inclusion {
            let accepted = Result {
                try Merkle.verifyInclusion(
                    index: test.number("leafIdx"),
                    size: test.number("treeSize"),
                    leafHash: test.hash("leafHash"),
                    proof: test.proof,
                    root: test.hash("root")
                )
            }
            #expect((try? accepted.get()) == nil ? test.wantError : !test.wantError, "inclusion\(test.path)")
        }
        for test in consistency {
            let accepted = Result {
                try Merkle.verifyConsistency(
                    size1: test.number("size1"),
                    size2: test.number("size2"),
                    proof: test.proof,
                    root1: test.hash("root1"),
                    root2: test.hash("root2")
                )
            }
            #expect((try? accepted.get()) == nil ? test.wantError : !test.wantError, "consistency\(test.path)")
        }
    }

    @Test(.enabled(if: Vectors.has("merkle"), Vectors.missingMessage))
    func rootsOfTheEightLeavesMatchTheVectorsAtEverySize() throws {
        // The happy paths of the numbered folders are proofs over the eight leaves: their roots.
        func overTheEightLeaves(_ test: Case) -> Bool {
            test.path.hasSuffix("/happy-path.json") && !test.path.contains("additional")
        }
        var expected: [UInt64: [UInt8]] = [:]
        for test in try Self.cases("inclusion") where overTheEightLeaves(test) {
            expected[test.number("treeSize")] = test.hash("root")
        }
        for test in try Self.cases("consistency") where overTheEightLeaves(test) {
            expected[test.number("size1")] = test.hash("root1")
            expected[test.number("size2")] = test.hash("root2")
        }
        #expect(expected.count >= 5, "\(expected.keys.sorted())")
        let storage = MemoryAuditStorage()
        var range = CompactRange()
        for (index, leaf) in Self.leaves.enumerated() {
            let nodes = range.append(Merkle.leafHash(leaf))
            try storage.append(entry: leaf, sequence: UInt64(index), nodes: nodes, range: range)
            let size = UInt64(index + 1)
            // Three ways to the root agree at every size, and with the vectors where they give one.
            let recursive = Merkle.root(leafHashes: Self.leaves.prefix(index + 1).map(Merkle.leafHash)[...])
            #expect(range.root == recursive, "size \(size)")
            #expect(try Merkle.root(size: size, nodes: storage) == recursive, "size \(size)")
            if let root = expected[size] {
                #expect(recursive == root, "size \(size)")
            }
        }
        let all = "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"
        #expect(range.root.map { String(format: "%02x", $0) }.joined() == all)
    }

    @Test func proofsMadeFromStoredSubtreesVerifyForEverySizeAndIndex() throws {
        let storage = MemoryAuditStorage()
        var range = CompactRange()
        var leafHashes: [MerkleHash] = []
        var roots: [MerkleHash] = [Merkle.emptyRoot]
        for index in 0..<70 {
            let leaf = Merkle.leafHash(Array("entry \(index)".utf8))
            leafHashes.append(leaf)
            try storage.append(entry: [], sequence: UInt64(index), nodes: range.append(leaf), range: range)
            roots.append(range.root)
            #expect(range.root == Merkle.root(leafHashes: leafHashes[...]))
        }
        for size in UInt64(1)...70 {
            for index in 0..<size {
                let proof = try Merkle.inclusionProof(index: index, size: size, nodes: storage)
                try Merkle.verifyInclusion(
                    index: index,
                    size: size,
                    leafHash: leafHashes[Int(index)],
                    proof: proof,
                    root: roots[Int(size)]
                )
                // The same proof does not prove another leaf.
                #expect(throws: MerkleError.self) {
                    try Merkle.verifyInclusion(
                        index: index,
                        size: size,
                        leafHash: leafHashes[Int((index + 1) % 70)],
                        proof: proof,
                        root: roots[Int(size)]
                    )
                }
            }
            for size1 in 1...size {
                let proof = try Merkle.consistencyProof(size1: size1, size2: size, nodes: storage)
                try Merkle.verifyConsistency(
                    size1: size1,
                    size2: size,
                    proof: proof,
                    root1: roots[Int(size1)],
                    root2: roots[Int(size)]
                )
                if size1 < size {
                    #expect(throws: MerkleError.self) {
                        try Merkle.verifyConsistency(
                            size1: size1,
                            size2: size,
                            proof: proof,
                            root1: roots[Int(size1) - 1],
                            root2: roots[Int(size)]
                        )
                    }
                }
            }
        }
    }

    @Test func aCompactRangeRestoresFromTheStoredSubtrees() throws {
        let storage = MemoryAuditStorage()
        var range = CompactRange()
        for index in 0..<37 {
            try storage.append(
                entry: [],
                sequence: UInt64(index),
                nodes: range.append(Merkle.leafHash([UInt8(index)])),
                range: range
            )
        }
        let restored = try CompactRange(
            size: 37,
            hashes: CompactRange.positions(forSize: 37).map { try storage.node(level: $0.level, index: $0.index) }
        )
        #expect(restored == range)
        #expect(throws: AuditLogError.self) { try CompactRange(size: 37, hashes: []) }
    }
}
