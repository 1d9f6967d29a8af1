import Foundation
import HealthModelTestSupport
import Testing

@testable import HealthModel

/// New objects' UUIDs: RFC 9562 version 7, the creation time first, then random bits.
struct ObjectUUIDTests {
    /// Hands out the values it was given, in turn.
    struct Replay: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.removeFirst() }
    }

    @Test func theLayoutIsRFC9562s() {
        // RFC 9562, appendix A.6: unix_ts_ms 0x017F22E279B0, rand_a 0xCC3, rand_b 0x18C4DC0C0C07398F.
        var random = Replay(values: [0xFFFF_FFFF_FFFF_FCC3, 0xD8C4_DC0C_0C07_398F])
        let uuid = UUID.versionSeven(milliseconds: 0x017F_22E2_79B0, using: &random)
        #expect(uuid.uuidString == "017F22E2-79B0-7CC3-98C4-DC0C0C07398F")
    }

    @Test func aNewObjectsUUIDCarriesTheTimeItWasMade() {
        let before = UInt64(Date().timeIntervalSince1970 * 1000)
        let uuid = UUID.forNewObject()
        let after = UInt64(Date().timeIntervalSince1970 * 1000)
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds >= before && milliseconds <= after)
        #expect(bytes[6] >> 4 == 7)  // the version
        #expect(bytes[8] >> 6 == 0b10)  // the variant
    }

    @Test func uuidsSortInTheOrderTheyWereMadeAndNeverRepeat() async throws {
        var made: [UUID] = []
        for _ in 0..<5 {
            made.append(UUID.forNewObject())
            try await Task.sleep(for: .milliseconds(2))
        }
        let bytes = made.map { withUnsafeBytes(of: $0.uuid) { Array($0) } }
        #expect(bytes == bytes.sorted { $0.lexicographicallyPrecedes($1) })
        // Made in the same millisecond, they differ in their 74 random bits.
        let same = (0..<1000).map { _ in UUID.forNewObject() }
        #expect(Set(same).count == same.count)
    }

    @Test func samplesAreMadeWithThem() throws {
        let sample = try QuantitySample(
            type: .stepCount,
            quantity: Quantity(10, .count),
            start: Date(),
            end: Date(),
            sourceRevision: SourceRevision(source: Source(bundleIdentifier: "org.example.app", name: "App"))
        )
        #expect(withUnsafeBytes(of: sample.uuid.uuid) { $0[6] >> 4 } == 7)
    }

    /// The audit log names the UUIDs of the objects the owner chooses for an app one by one, so
    /// those objects' UUIDs carry no time.
    @Test func objectsChosenOneByOneGetRandomUUIDs() throws {
        let source = SourceRevision(source: Source(bundleIdentifier: "org.example.app", name: "App"))
        let prescription = try VisionPrescription(
            type: .contacts,
            dateIssued: Date(),
            expirationDate: nil,
            sourceRevision: source
        )
        let glasses = try VisionPrescription.glasses(
            rightEye: nil,
            leftEye: nil,
            dateIssued: Date(),
            expirationDate: nil,
            sourceRevision: source
        )
        let contacts = try VisionPrescription.contacts(
            rightEye: nil,
            leftEye: nil,
            brand: "Brand",
            dateIssued: Date(),
            expirationDate: nil,
            sourceRevision: source
        )
        let document = try CDADocumentSample(data: Fixtures.cda(), start: Date(), end: Date(), sourceRevision: source)
        for uuid in [prescription.uuid, glasses.uuid, contacts.uuid, document.uuid] {
            #expect(withUnsafeBytes(of: uuid.uuid) { $0[6] >> 4 } == 4)
        }
    }
}
