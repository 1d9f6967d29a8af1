import AuditLog
import Foundation
import Testing

/// The canonical entry encoding: one byte form per entry, and nothing else decodes.
struct AuditEntryTests {
    @Test func entriesRoundTripThroughTheirCanonicalBytes() throws {
        for index in 0..<200 {
            var entry = AuditLogFixture.entry(index)
            entry.sequence = UInt64(index) * 1_000_003
            let bytes = try entry.encoded()
            #expect(try AuditEntry(decoding: bytes) == entry)
            #expect(try AuditEntry(decoding: bytes).encoded() == bytes)
        }
        // The log numbers what it appends and reads it back in order.
        let fixture = try AuditLogFixture(count: 30, checkpointSizes: [])
        let expected = (0..<30).map { index -> AuditEntry in
            var entry = AuditLogFixture.entry(index)
            entry.sequence = UInt64(index)
            return entry
        }
        #expect(try fixture.log.entries() == expected)
        #expect(try fixture.log.entries(from: 25) == Array(expected[25...]))
        // Types are kept sorted by bytes and without repeats; time to the millisecond.
        let entry = AuditEntry(
            time: Date(timeIntervalSince1970: 1.2345678),
            actor: .owner,
            operation: .save,
            types: ["b", "a", "b"],
            outcome: .ok
        )
        #expect(entry.types == ["a", "b"])
        #expect(entry.time == Date(timeIntervalSince1970: 1.234))
    }

    @Test func anythingButTheCanonicalFormIsRefused() throws {
        let entry = AuditEntry(
            sequence: 7,
            time: Date(timeIntervalSince1970: 1_790_000_000),
            actor: .app("org.example.app"),
            operation: .querySample,
            types: ["HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierStepCount"],
            objectCount: 3,
            outcome: .deniedServedEmpty,
            requestID: "r1"
        )
        let bytes = try entry.encoded()
        var cases: [(String, [UInt8])] = [
            ("trailing byte", bytes + [0]),
            ("truncated", Array(bytes.dropLast())),
            ("version 2", [2] + bytes.dropFirst()),
            (
                "unknown outcome",
                {
                    var b = bytes
                    b[b.count - 5] = 9
                    return b
                }()
            ),
        ]
        // Swap the two types' order: same bytes otherwise, but not sorted.
        let first = Array("HKQuantityTypeIdentifierHeartRate".utf8)
        let second = Array("HKQuantityTypeIdentifierStepCount".utf8)
        if let range = bytes.firstRange(of: first + [0, UInt8(second.count)] + second) {
            var swapped = bytes
            swapped.replaceSubrange(range, with: second + [0, UInt8(first.count)] + first)
            cases.append(("unsorted types", swapped))
        }
        // An app actor with an empty id, and invalid UTF-8 in the request id.
        var owner = bytes
        owner[17] = 1
        cases.append(("owner with an id", owner))
        var invalid = bytes
        invalid[invalid.count - 1] = 0xFF
        cases.append(("invalid UTF-8", invalid))
        // 513 distinct types in order: well formed, but more than an entry may name.
        let manyTypes = (0..<513).map { String(format: "t%04d", $0) }
        let many = AuditEntry(
            time: .now,
            actor: .owner,
            operation: .save,
            types: Array(manyTypes.prefix(512)),
            outcome: .ok
        )
        var tooMany = try many.encoded()
        let countOffset = 1 + 8 + 8 + 1 + 2 + 2 + "save".utf8.count
        #expect(tooMany[countOffset..<countOffset + 2] == [0x02, 0x00])
        tooMany[countOffset + 1] = 0x01
        tooMany.insert(contentsOf: [0, 5] + Array(manyTypes[512].utf8), at: countOffset + 2 + 512 * 7)
        cases.append(("513 types", tooMany))
        #expect(cases.count == 8)
        for (name, bytes) in cases {
            #expect(throws: AuditLogError.self, "\(name)") { try AuditEntry(decoding: bytes) }
        }
        // What the encoding cannot hold is refused when writing.
        for bad in [
            AuditEntry(time: .now, actor: .app(""), operation: .save, outcome: .ok),
            AuditEntry(time: .now, actor: .owner, operation: AuditEntry.Operation(rawValue: "Save Now"), outcome: .ok),
            AuditEntry(
                time: .now,
                actor: .owner,
                operation: .save,
                outcome: .ok,
                requestID: String(repeating: "x", count: 1025)
            ),
        ] {
            #expect(throws: AuditLogError.self) { try bad.encoded() }
        }
    }

    @Test func attributesMakeAVersionTwoEntryWithOneFormOnly() throws {
        let plain = AuditEntry(
            sequence: 9,
            time: Date(timeIntervalSince1970: 1_790_000_000),
            actor: .owner,
            operation: .authorizationGrantRead,
            types: ["HKQuantityTypeIdentifierHeartRate"],
            outcome: .ok,
            requestID: "org.example.app"
        )
        var windowed = plain
        windowed.attributes = [
            "window": "last", "window-seconds": "2592000", "expires": "2026-12-31T23:00:00.000Z",
        ]
        let v1 = try plain.encoded()
        let v2 = try windowed.encoded()
        // Without attributes: version 1, the bytes every earlier HealthVault wrote.
        #expect(v1[0] == 1 && v2[0] == 2)
        #expect(Array(v2[1..<v1.count]) == Array(v1[1...]))
        #expect(try AuditEntry(decoding: v2) == windowed)
        #expect(try AuditEntry(decoding: v2).encoded() == v2)
        // After the request id: the count, then name and value pairs in byte order of the names.
        var tail: [UInt8] = [0, 3]
        for (name, value) in [
            ("expires", "2026-12-31T23:00:00.000Z"), ("window", "last"), ("window-seconds", "2592000"),
        ] {
            tail += [0, UInt8(name.utf8.count)] + Array(name.utf8) + [0, UInt8(value.utf8.count)] + Array(value.utf8)
        }
        #expect(Array(v2[v1.count...]) == tail)
        // A version 2 entry with these pairs, as they are given.
        func encoding(_ pairs: [(String, String)]) -> [UInt8] {
            var bytes = [2] + v1.dropFirst() + [0, UInt8(pairs.count)]
            for (name, value) in pairs {
                bytes +=
                    [0, UInt8(name.utf8.count)] + Array(name.utf8) + [0, UInt8(value.utf8.count)] + Array(value.utf8)
            }
            return bytes
        }
        #expect(try AuditEntry(decoding: encoding([("expires", "x"), ("window", "y")])).attributes.count == 2)
        let cases: [(String, [UInt8])] = [
            ("no attributes in a version 2 entry", encoding([])),
            ("a version 1 entry with attributes", [1] + v2.dropFirst()),
            ("a malformed name", encoding([("Window", "last")])),
            ("names out of order", encoding([("window", "last"), ("expires", "x")])),
            ("a name repeated", encoding([("window", "last"), ("window", "fixed")])),
            ("a trailing byte", v2 + [0]),
            ("cut inside a value", Array(v2.dropLast())),
        ]
        for (name, bytes) in cases {
            #expect(throws: AuditLogError.self, "\(name)") { try AuditEntry(decoding: bytes) }
        }
        for bad in [["Window": "x"], ["": "x"], ["window": String(repeating: "x", count: 1025)]] {
            var entry = plain
            entry.attributes = bad
            #expect(throws: AuditLogError.self, "\(bad.keys)") { try entry.encoded() }
        }
        var many = plain
        many.attributes = Dictionary(uniqueKeysWithValues: (0..<65).map { ("a\($0)", "") })
        #expect(throws: AuditLogError.self) { try many.encoded() }
    }

    @Test func checkpointsAndVerifierKeysParseOnlyTheirExactForm() throws {
        let fixture = try AuditLogFixture(count: 5, checkpointSizes: [5])
        let signed = try #require(try fixture.log.storage.checkpoints().last)
        #expect(try SignedCheckpoint(text: signed.text) == signed)
        try SignedCheckpoint(text: signed.text).verify(with: fixture.verifierKey)
        #expect(try VerifierKey(line: fixture.verifierKey.description) == fixture.verifierKey)
        for bad in [
            signed.text.replacingOccurrences(of: "\n5\n", with: "\n05\n"),
            signed.text.replacingOccurrences(of: "\n\n", with: "\n"),
            signed.text.replacingOccurrences(of: "store ", with: "stores "),
        ] {
            #expect(throws: AuditLogError.self) { try SignedCheckpoint(text: bad) }
        }
        #expect(throws: AuditLogError.self) {
            try VerifierKey(
                line: fixture.verifierKey.description.replacingOccurrences(of: "healthvault/", with: "other/")
            )
        }
    }
}

/// Reading the log as a person: filters, a table, JSON lines.
struct AuditPresentationTests {
    @Test func filtersSelectByAppTypeOperationOutcomeAndTime() throws {
        let entries = (0..<100).map { index -> AuditEntry in
            var entry = AuditLogFixture.entry(index)
            entry.sequence = UInt64(index)
            return entry
        }
        let start = Date(timeIntervalSince1970: 1_790_000_000 + 15)
        let filter = AuditEntryFilter(
            app: "org.example.app1",
            type: "HKQuantityTypeIdentifierStepCount",
            operation: .querySample,
            from: start,
            to: start.addingTimeInterval(60)
        )
        let selected = entries.filter(filter.matches)
        let expected = entries.filter {
            $0.actor == .app("org.example.app1") && $0.types.contains("HKQuantityTypeIdentifierStepCount")
                && $0.operation == .querySample && $0.time >= start && $0.time < start.addingTimeInterval(60)
        }
        #expect(!selected.isEmpty && selected == expected)
        #expect(entries.filter(AuditEntryFilter(outcome: .deniedServedEmpty).matches).count == 25)
    }

    @Test func theTableAndJSONLinesShowEveryFieldAndNoMore() throws {
        let entry = AuditEntry(
            sequence: 42,
            time: Date(timeIntervalSince1970: 1_790_000_000.125),
            actor: .app("org.example.app"),
            operation: .querySample,
            types: ["HKQuantityTypeIdentifierStepCount"],
            objectCount: 3,
            outcome: .deniedServedEmpty,
            requestID: "r-1"
        )
        #expect(
            entry.jsonLine
                == #"{"actor":{"id":"org.example.app","kind":"app"},"objectCount":3,"operation":"query.sample","outcome":"denied-served-empty","requestID":"r-1","sequence":42,"time":"2026-09-21T14:13:20.125Z","types":["HKQuantityTypeIdentifierStepCount"]}"#
        )
        // An empty request id and no types are left out, not written empty.
        let bare = AuditEntry(sequence: 0, time: entry.time, actor: .system, operation: .unlock, outcome: .ok)
        #expect(
            bare.jsonLine
                == #"{"actor":{"kind":"system"},"objectCount":0,"operation":"vault.unlock","outcome":"ok","sequence":0,"time":"2026-09-21T14:13:20.125Z"}"#
        )
        let table = AuditEntry.table([entry])
        #expect(table.hasPrefix("SEQ  TIME (UTC)"))
        #expect(table.contains("42   2026-09-21T14:13:20.125Z  org.example.app  query.sample  denied-served-empty  3"))
        #expect(!table.contains("DETAILS"))
        // Attributes: a member of the JSON line, a last column of the table, only when present.
        var grant = entry
        grant.operation = .authorizationGrantRead
        grant.attributes = ["window": "last", "window-seconds": "86400"]
        #expect(grant.jsonLine.contains(#""attributes":{"window":"last","window-seconds":"86400"}"#))
        #expect(!entry.jsonLine.contains("attributes"))
        let both = AuditEntry.table([entry, grant])
        #expect(both.hasPrefix("SEQ  TIME (UTC)") && both.split(separator: "\n")[0].hasSuffix("DETAILS"))
        #expect(both.contains("window=last window-seconds=86400"))
    }
}

/// The operations `healthvault audit show --operation` takes (`AuditEntry.Operation.known`) are
/// every one docs/AUDIT_LOG.md says this version writes.
@Test func theKnownOperationsAreEveryOneTheLogFormatNames() throws {
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let text = try String(contentsOf: checkout.appendingPathComponent("docs/AUDIT_LOG.md"), encoding: .utf8)
    let start = try #require(text.range(of: "Operations this version writes"))
    let end = try #require(text.range(of: "A\nwell-formed name", range: start.upperBound..<text.endIndex))
    let paragraph = String(text[start.upperBound..<end.lowerBound])
    let named = paragraph.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    #expect(named.count > 40)
    let known = Set(AuditEntry.Operation.known.map(\.rawValue))
    for operation in named { #expect(known.contains(operation), "\(operation) is not in Operation.known") }
}
