import AuditLog
import Foundation
import VaultCrypto

/// A log of `count` entries from a fresh vault key, with checkpoints signed at `checkpointSizes`.
struct AuditLogFixture {
    let key: Ed25519.SigningKey
    let verifierKey: VerifierKey
    let log: AuditLog<MemoryAuditStorage>

    init(count: Int, checkpointSizes: [Int], vault: UUID = UUID()) throws {
        key = Ed25519.SigningKey()
        verifierKey = VerifierKey(name: "healthvault/\(vault.uuidString.lowercased())", publicKey: key.publicKey)
        log = AuditLog(storage: MemoryAuditStorage(), verifierKey: verifierKey)
        try extend(to: count, checkpointSizes: checkpointSizes)
    }

    /// Appends entries up to `count`, signing a checkpoint at each of `checkpointSizes` reached.
    func extend(to count: Int, checkpointSizes: [Int], tag: String = "") throws {
        for index in Int(try log.size())..<count {
            try log.append(Self.entry(index, tag: tag))
            if checkpointSizes.contains(index + 1) {
                try log.signCheckpoint(
                    with: key,
                    storeChangeCounter: UInt64(index + 1) * 3,
                    storeDigest: Array(repeating: UInt8(index % 256), count: 32)
                )
            }
        }
    }

    static func entry(_ index: Int, tag: String = "") -> AuditEntry {
        let operations: [AuditEntry.Operation] = [
            .save, .querySample, .delete, .authorizationRequest, .queryStatistics,
        ]
        return AuditEntry(
            time: Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 1.5),
            actor: index % 7 == 0 ? .owner : .app("org.example.app\(index % 3)"),
            operation: operations[index % operations.count],
            types: index % 4 == 0 ? [] : ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"],
            objectCount: UInt64(index % 50),
            outcome: AuditEntry.Outcome(rawValue: UInt8(index % 4))!,
            requestID: "req-\(tag)\(index)"
        )
    }

    func export() throws -> AuditExport { try AuditExport(log: log) }
}
